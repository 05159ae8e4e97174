"""What refusing a decompression bomb costs the reference readers, both formats.

A bomb here tells the truth about its sizes and decompresses to more than the decoded
budget (docs/architecture.md, 'Memory budget'): zero strings of ``--value-mib`` MiB,
one a page, Brotli (Parquet); the same in 64 KiB Zstandard chunks (ORC); enough of them
to make ``--excess`` times the budget. Both are built with the reference writers
(tests/reference_impl/decompression_bombs.py). Each is read from a file under
``decoded_budget(--budget-mib MiB)``, which must raise the format's
DecodedBudgetExceeded; the script prints the file's size, the refusal's time and its
peak memory under tracemalloc (bench/README.md, 'Peak memory').

A Parquet row group whose chunks declare more than the budget is refused before any
page is decompressed, so its cost does not grow with the budget; an ORC stripe declares
no decompressed size, so its chunks are decompressed until the budget is spent, and the
refusal costs about the budget in time (the chunks are charged and dropped stream by
stream, but a stream's chunks are joined). Building the bomb costs compressing all of it.
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

# The repository this script is in comes first on the path (bench/README.md).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import machine_facts, peak_traced_bytes  # noqa: E402
from reference_impl.common.decoded_budget import decoded_budget  # noqa: E402
from reference_impl.orc.errors import DecodedBudgetExceeded as OrcBudgetExceeded  # noqa: E402
from reference_impl.orc.reader import read_orc  # noqa: E402
from reference_impl.parquet.errors import DecodedBudgetExceeded as ParquetBudgetExceeded  # noqa: E402
from reference_impl.parquet.reader import read_parquet  # noqa: E402
from tests.reference_impl.decompression_bombs import orc_bomb, parquet_bomb  # noqa: E402

MIB = 1 << 20
MEGABYTE = 10**6

# (name, suffix, builder, reader, the error it must raise)
BOMBS: tuple[tuple[str, str, Callable[[int, int], bytes], Callable[[Path], object], type[Exception]], ...] = (
    ("parquet", ".parquet", parquet_bomb, read_parquet, ParquetBudgetExceeded),
    ("orc", ".orc", orc_bomb, read_orc, OrcBudgetExceeded),
)


def refusal(read: Callable[[Path], object], path: Path, budget: int, error: type[Exception]) -> str:
    """Read ``path`` under ``budget``; the error's text (AssertionError if it reads)."""
    with decoded_budget(budget):
        try:
            read(path)
        except error as refused:
            return str(refused)
    raise AssertionError(f"{path.name} was read under a budget of {budget} bytes")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget-mib", type=int, default=1024, help="the decoded budget, in MiB")
    parser.add_argument("--excess", type=float, default=1.5, help="the bomb's size over the budget")
    parser.add_argument("--value-mib", type=int, default=16, help="MiB of zeros a value (a Parquet page)")
    options = parser.parse_args(argv)
    budget, value_bytes = options.budget_mib * MIB, options.value_mib * MIB
    values = math.ceil(options.excess * budget / value_bytes)
    for key, value in machine_facts().items():
        print(f"# {key}: {value}")
    print(f"# budget: {budget} bytes; bomb: {values} values of {value_bytes} zero bytes")
    print("format   file_bytes  decompressed_MB  build_s  refuse_s  peak_MB  error")
    with tempfile.TemporaryDirectory() as folder:
        for name, suffix, build, read, error in BOMBS:
            started = time.perf_counter()
            path = Path(folder) / f"bomb{suffix}"
            path.write_bytes(build(value_bytes, values))
            built = time.perf_counter() - started
            started = time.perf_counter()
            message = refusal(read, path, budget, error)
            refused = time.perf_counter() - started
            peak = peak_traced_bytes(partial(refusal, read, path, budget, error))
            print(f"{name:8} {path.stat().st_size:10} {values * value_bytes / MEGABYTE:16.1f} {built:8.1f} "
                  f"{refused:9.2f} {peak / MEGABYTE:8.1f}  {error.__name__}: {message[:120]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
