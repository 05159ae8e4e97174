"""Read time of the reference ORC reader against pyarrow.orc, one file per encoding.

Every file holds one column of ``--rows`` values (1,000,000 by default), written by
pyarrow.orc uncompressed and with ZLIB; the values are chosen so that ORC's writer picks
the encoding the file is named after (ORCv1.md, 'Column Encodings'; for the integer
files the run sub-encoding of ORCv1.md, 'Integer Run Length Encoding, version 2').
Each file is then read with ``reference_impl.orc.reader.read_orc`` and with
``pyarrow.orc.read_table`` in this one process, best of ``--repeat`` runs each, and the
script prints one line per file (name, rows, reference seconds, pyarrow seconds, ratio
reference / pyarrow) and a markdown table of the same. bench/README.md says what is
measured and how to run it; every performance figure quoted in the docs comes from here.
"""

from __future__ import annotations

import argparse
import gc
import importlib.metadata
import json
import os
import platform
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_ROWS = 1_000_000
DEFAULT_REPEAT = 3
# A file whose runs on one engine have taken this long in total gets no more runs: the
# best so far stands (the pure-Python reader may need minutes on 1M rows).
DEFAULT_BUDGET_SECONDS = 300.0
SEED = 20240501  # the same values in every run and every process
COLUMN = "value"
ENGINES = ("reference", "pyarrow")
# pyarrow.orc.write_table's compression names, by the name the files carry.
COMPRESSIONS = {"none": "uncompressed", "zlib": "zlib"}
# pyarrow.orc.write_table's dictionary_key_size_threshold: 0 never uses a dictionary,
# 1 always does (for strings; other types ignore it).
NEVER_DICTIONARY, ALWAYS_DICTIONARY = 0.0, 1.0

# Value ranges of the generated columns.
INT62 = 1 << 62  # random bigints this wide leave no run anything but DIRECT
MAX_STEP = 1_000  # sorted bigints rise by 1..MAX_STEP: monotonic, so DELTA
SMALL_LIMIT = 1_000  # small values under PATCHED_BASE's few outliers...
OUTLIER = 1 << 40  # ...which are this large,
# ...and this frequent: about 10 in each run of 512 values (a run with none is DIRECT),
# under the 5% above the width the run is packed with (or the run is DIRECT too).
OUTLIER_RATE = 0.02
REPEAT_VALUES = 100  # SHORT_REPEAT: runs of one of these values...
SHORT_REPEAT_MIN, SHORT_REPEAT_MAX = 3, 10  # ...this long ('Short Repeat': 3 to 10 values)
DOUBLE_SCALE = 1e6
TRUE_SHARE = 0.5
DICTIONARY_WORDS = 1_000  # distinct strings in the dictionary-encoded file
TIMESTAMP_LOW = 946_684_800 * 10**9  # 2000-01-01 and 2030-01-01, nanoseconds since 1970
TIMESTAMP_HIGH = 1_893_456_000 * 10**9
DECIMAL_PRECISION, DECIMAL_SCALE = 18, 4
DECIMAL_LIMIT = 10**DECIMAL_PRECISION


@dataclass(frozen=True)
class Case:
    """One column: its ORC encoding, how its values are made, how pyarrow writes it."""

    name: str
    column_encoding: str  # orc_proto.proto ColumnEncoding.Kind, as pyarrow writes the column
    make: Callable[[Any, int], tuple[Any, list[object]]]  # (rng, rows) -> (Arrow array, values)
    sub_encoding: str | None = None  # of the runs of an integer column's DATA stream
    dictionary_threshold: float = NEVER_DICTIONARY

    @property
    def encoding(self) -> str:
        if self.sub_encoding is None:
            return self.column_encoding
        return f"{self.column_encoding}, RLE v2 {self.sub_encoding}"


# -- the columns ------------------------------------------------------------------
# Each maker returns the Arrow array pyarrow writes and the values the reference reader
# must return for it (its canonical Python values: ints, floats, str, bool, nanoseconds,
# unscaled decimals).


def _int64(values: Any) -> tuple[Any, list[object]]:
    import pyarrow as pa

    return pa.array(values, pa.int64()), values.tolist()


def _random_bigints(rng: Any, rows: int) -> tuple[Any, list[object]]:
    return _int64(rng.integers(-INT62, INT62, rows))


def _sorted_bigints(rng: Any, rows: int) -> tuple[Any, list[object]]:
    return _int64(rng.integers(1, MAX_STEP, rows).cumsum())


def _bigints_with_outliers(rng: Any, rows: int) -> tuple[Any, list[object]]:
    values = rng.integers(0, SMALL_LIMIT, rows)
    values[rng.random(rows) < OUTLIER_RATE] += OUTLIER
    return _int64(values)


def _short_runs(rng: Any, rows: int) -> tuple[Any, list[object]]:
    import numpy as np

    lengths = rng.integers(SHORT_REPEAT_MIN, SHORT_REPEAT_MAX + 1, rows // SHORT_REPEAT_MIN + 1)
    # Each run's value differs from the one before, so two runs never merge into one.
    steps = rng.integers(1, REPEAT_VALUES, lengths.size)
    run_values = steps.cumsum() % REPEAT_VALUES
    return _int64(np.repeat(run_values, lengths)[:rows])


def _doubles(rng: Any, rows: int) -> tuple[Any, list[object]]:
    import pyarrow as pa

    values = rng.standard_normal(rows) * DOUBLE_SCALE
    return pa.array(values, pa.float64()), values.tolist()


def _unique_strings(rng: Any, rows: int) -> tuple[Any, list[object]]:
    import pyarrow as pa

    values = [f"{number:016x}" for number in rng.integers(0, INT62, rows).tolist()]
    return pa.array(values, pa.string()), list(values)


def _repeated_strings(rng: Any, rows: int) -> tuple[Any, list[object]]:
    import pyarrow as pa

    words = [f"word-{number:05d}" for number in range(DICTIONARY_WORDS)]
    values = [words[index] for index in rng.integers(0, DICTIONARY_WORDS, rows).tolist()]
    return pa.array(values, pa.string()), list(values)


def _booleans(rng: Any, rows: int) -> tuple[Any, list[object]]:
    import pyarrow as pa

    values = (rng.random(rows) < TRUE_SHARE).tolist()
    return pa.array(values, pa.bool_()), values


def _timestamps(rng: Any, rows: int) -> tuple[Any, list[object]]:
    import pyarrow as pa

    values = rng.integers(TIMESTAMP_LOW, TIMESTAMP_HIGH, rows)
    return pa.array(values, pa.int64()).cast(pa.timestamp("ns")), values.tolist()


def _decimals(rng: Any, rows: int) -> tuple[Any, list[object]]:
    import numpy as np
    import pyarrow as pa

    unscaled = rng.integers(-DECIMAL_LIMIT + 1, DECIMAL_LIMIT, rows)
    # Arrow's decimal128 is a little-endian 128-bit two's complement integer: the int64
    # as the low word, its sign extended into the high word.
    words = np.empty((rows, 2), dtype=np.int64)
    words[:, 0], words[:, 1] = unscaled, np.where(unscaled < 0, -1, 0)
    array = pa.Array.from_buffers(pa.decimal128(DECIMAL_PRECISION, DECIMAL_SCALE), rows,
                                  [None, pa.py_buffer(words.tobytes())])
    return array, unscaled.tolist()


CASES = (
    Case("bigint_direct", "DIRECT_V2", _random_bigints, "DIRECT"),
    Case("bigint_delta", "DIRECT_V2", _sorted_bigints, "DELTA"),
    Case("bigint_patched_base", "DIRECT_V2", _bigints_with_outliers, "PATCHED_BASE"),
    Case("bigint_short_repeat", "DIRECT_V2", _short_runs, "SHORT_REPEAT"),
    Case("double", "DIRECT", _doubles),
    Case("string_direct", "DIRECT_V2", _unique_strings),
    Case("string_dictionary", "DICTIONARY_V2", _repeated_strings, dictionary_threshold=ALWAYS_DICTIONARY),
    Case("boolean", "DIRECT", _booleans),
    Case("timestamp", "DIRECT_V2", _timestamps),
    Case("decimal_18_4", "DIRECT_V2", _decimals),
)


@dataclass(frozen=True)
class BenchFile:
    case: Case
    compression: str  # a key of COMPRESSIONS

    @property
    def name(self) -> str:
        return f"{self.case.name}-{self.compression}"

    def path(self, directory: Path, rows: int) -> Path:
        return directory / f"{self.name}-{rows}.orc"


ALL_FILES = tuple(BenchFile(case, compression) for case in CASES for compression in COMPRESSIONS)


def values_of(case: Case, rows: int) -> tuple[Any, list[object]]:
    import numpy as np

    return case.make(np.random.default_rng(SEED), rows)


def write_file(bench_file: BenchFile, array: Any, path: Path) -> None:
    import pyarrow as pa
    import pyarrow.orc

    table = pa.table({COLUMN: array})
    temporary = path.with_suffix(".partial")  # a file cut short by ^C is never reused
    pyarrow.orc.write_table(table, str(temporary), compression=COMPRESSIONS[bench_file.compression],
                            dictionary_key_size_threshold=bench_file.case.dictionary_threshold)
    temporary.replace(path)


# -- reading and timing -------------------------------------------------------------


def reference_reader() -> Callable[[Path], Any]:
    from reference_impl.orc.reader import read_orc

    return read_orc


def pyarrow_reader() -> Callable[[Path], Any]:
    import pyarrow.orc

    return lambda path: pyarrow.orc.read_table(str(path))


# Imported before the clock starts: the first file's time must not include an import.
READERS: dict[str, Callable[[], Callable[[Path], Any]]] = {"reference": reference_reader,
                                                            "pyarrow": pyarrow_reader}


@dataclass
class Timing:
    best: float | None = None  # seconds; None when no run finished
    runs: int = 0
    error: str | None = None  # "ExceptionClass: message" when the engine failed on the file
    last: Any = field(default=None, repr=False)  # the last run's result, for the value check


def time_reads(engine: str, path: Path, repeat: int, budget: float) -> Timing:
    """Best of ``repeat`` reads, fewer once ``budget`` seconds are spent."""
    timing, spent = Timing(), 0.0
    read = READERS[engine]()
    for run in range(1, repeat + 1):
        timing.last = None  # let the previous result go before the next read
        gc.collect()
        progress(f"  {engine}: run {run}/{repeat}")
        start = time.perf_counter()
        try:
            timing.last = read(path)
        except Exception as error:  # a failing reader is a result to report, not a crash
            timing.error = f"{type(error).__name__}: {error}"
            progress(f"  {engine} failed: {timing.error}")
            return timing
        elapsed = time.perf_counter() - start
        timing.best = elapsed if timing.best is None else min(timing.best, elapsed)
        timing.runs, spent = run, spent + elapsed
        if spent > budget and run < repeat:
            progress(f"  {engine}: {spent:.1f} s spent, over the {budget:g} s budget: best of {run} run(s)")
            break
    return timing


def reference_mismatch(contents: Any, expected: list[object]) -> str | None:
    """What differs between the reference reader's rows and the values written, if anything."""
    rows = contents.rows
    if len(rows) != len(expected):
        return f"{len(rows)} rows read, {len(expected)} written"
    for index, (row, value) in enumerate(zip(rows, expected, strict=True)):
        if row.get(COLUMN) != value:
            return f"row {index}: read {row.get(COLUMN)!r}, wrote {value!r}"
    return None


# -- one file, all files ------------------------------------------------------------


@dataclass
class Result:
    name: str
    case: str
    compression: str
    encoding: str
    rows: int
    file_bytes: int
    reference_seconds: float | None
    pyarrow_seconds: float | None
    reference_runs: int
    pyarrow_runs: int
    errors: dict[str, str]
    values_checked: bool
    values_mismatch: str | None

    @property
    def ratio(self) -> float | None:
        if self.reference_seconds is None or not self.pyarrow_seconds:
            return None
        return self.reference_seconds / self.pyarrow_seconds


def bench_one(bench_file: BenchFile, options: argparse.Namespace, directory: Path) -> Result:
    path = bench_file.path(directory, options.rows)
    check = options.check and "reference" in options.engines
    expected: list[object] | None = None
    if check or not path.exists():
        progress(f"{bench_file.name}: making {options.rows} values")
        array, expected = values_of(bench_file.case, options.rows)
        if not path.exists():
            progress(f"{bench_file.name}: writing {path}")
            write_file(bench_file, array, path)
        del array
    timings = {engine: Timing() for engine in ENGINES}
    for engine in options.engines:
        progress(f"{bench_file.name}: reading with {engine}")
        timings[engine] = time_reads(engine, path, options.repeat, options.budget)
    mismatch = None
    reference = timings["reference"]
    if check and expected is not None and reference.last is not None:
        mismatch = reference_mismatch(reference.last, expected)
        if mismatch:
            progress(f"{bench_file.name}: the reference read other values: {mismatch}")
    return Result(
        name=bench_file.name, case=bench_file.case.name, compression=bench_file.compression,
        encoding=bench_file.case.encoding, rows=options.rows, file_bytes=path.stat().st_size,
        reference_seconds=reference.best, pyarrow_seconds=timings["pyarrow"].best,
        reference_runs=reference.runs, pyarrow_runs=timings["pyarrow"].runs,
        errors={engine: timing.error for engine, timing in timings.items() if timing.error},
        values_checked=check and reference.last is not None, values_mismatch=mismatch)


def selected_files(only: Sequence[str] | None) -> list[BenchFile]:
    if not only:
        return list(ALL_FILES)
    return [bench_file for bench_file in ALL_FILES if bench_file.name in only or bench_file.case.name in only]


# -- output -------------------------------------------------------------------------

LINE_HEADER = f"{'# name':<30} {'rows':>9} {'reference_s':>12} {'pyarrow_s':>10} {'ratio':>9}"


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


def _ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def result_line(result: Result) -> str:
    return (f"{result.name:<30} {result.rows:>9} {_seconds(result.reference_seconds):>12} "
            f"{_seconds(result.pyarrow_seconds):>10} {_ratio(result.ratio):>9}")


def markdown_table(results: Sequence[Result], facts: dict[str, object], repeat: int) -> str:
    lines = ["| file | encoding | rows | reference (s) | pyarrow (s) | reference / pyarrow |",
             "|---|---|---:|---:|---:|---:|"]
    lines += [f"| {r.name} | {r.encoding} | {r.rows:,} | {_seconds(r.reference_seconds)} | "
              f"{_seconds(r.pyarrow_seconds)} | {_ratio(r.ratio)} |" for r in results]
    lines.append("")
    lines.append(f"Best of {repeat} reads in one process, bench/orc_read.py; {facts['cpus']} CPUs, "
                 f"Python {facts['python']}, pyarrow {facts['pyarrow']}, {facts['platform']}.")
    return "\n".join(lines)


def machine_facts() -> dict[str, object]:
    """What a figure depends on besides the code: printed with every run."""
    return {
        "cpus": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "cpu_model": _cpu_model(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "pyarrow": importlib.metadata.version("pyarrow"),
        "numpy": importlib.metadata.version("numpy"),
        "platform": platform.platform(),
    }


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def write_json(path: Path, results: Sequence[Result], facts: dict[str, object],
               options: argparse.Namespace) -> None:
    document = {
        "machine": facts,
        "rows": options.rows,
        "repeat": options.repeat,
        "engines": list(options.engines),
        "results": [asdict(result) | {"ratio": result.ratio} for result in results],
    }
    path.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")


# -- command line -------------------------------------------------------------------


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    names = sorted({bench_file.case.name for bench_file in ALL_FILES} | {f.name for f in ALL_FILES})
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--rows", type=_positive_int, default=DEFAULT_ROWS, help="rows per file")
    parser.add_argument("--repeat", type=_positive_int, default=DEFAULT_REPEAT,
                        help="reads per file and engine; the best counts")
    parser.add_argument("--only", action="append", choices=names, metavar="NAME",
                        help="a column (both compressions) or one file, e.g. bigint_delta or "
                             "bigint_delta-zlib; may be given more than once")
    parser.add_argument("--engine", choices=(*ENGINES, "both"), default="both",
                        help="read with one engine only (for whole-process timings) or both")
    parser.add_argument("--data-dir", type=Path,
                        help="keep the files here and reuse them (default: a temporary directory)")
    parser.add_argument("--out", type=Path, help="also write the results as JSON to this file")
    parser.add_argument("--budget", type=float, default=DEFAULT_BUDGET_SECONDS,
                        help="seconds of reads per file and engine after which no more runs start")
    parser.add_argument("--no-check", dest="check", action="store_false",
                        help="do not compare the reference reader's values with those written")
    options = parser.parse_args(argv)
    options.engines = ENGINES if options.engine == "both" else (options.engine,)
    return options


def _positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a positive integer")
    return value


def run(options: argparse.Namespace, directory: Path) -> list[Result]:
    facts = machine_facts()
    for key, value in facts.items():
        print(f"# {key}: {value}")
    print(LINE_HEADER, flush=True)
    results = []
    for bench_file in selected_files(options.only):
        result = bench_one(bench_file, options, directory)
        results.append(result)
        print(result_line(result), flush=True)
    print()
    print(markdown_table(results, facts, options.repeat))
    if options.out:
        write_json(options.out, results, facts, options)
    return results


def main(argv: Sequence[str] | None = None) -> int:
    options = parse_arguments(argv)
    if options.data_dir:
        options.data_dir.mkdir(parents=True, exist_ok=True)
        results = run(options, options.data_dir)
    else:
        with tempfile.TemporaryDirectory(prefix="orc-bench-") as directory:
            results = run(options, Path(directory))
    failed = any(result.errors or result.values_mismatch for result in results)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
