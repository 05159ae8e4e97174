"""Spark's own cells alone: what their throughput does with more driver threads and task slots.

The matrix runs Spark's cells in the driver, `IN_DRIVER_CELLS_PER_SLOT` at once per task slot
(docs/architecture.md, 'The matrix on Spark'). This script writes the catalogue's Parquet
`physical/*` cases with the reference writer, then has Spark read every file through the
matrix's own in-driver pool (`cell_runner.run_in_driver_pool`) on 1, 2, 4 and 8 threads, in
one Spark session at the master given, and prints for each thread count:

* wall-clock milliseconds a read;
* the machine's cores busy meanwhile (`/proc/stat`: the Spark JVM's threads, not only the
  task slots, count);
* CPU milliseconds a read (cores busy x wall / reads).

Run it once per master (each in a process of its own, with its own JVM); bench/README.md,
'spark_cells_bench.py', says what the figures mean.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import machine_facts  # noqa: E402
from bench.matrix_bench import cores_busy, cpu_ticks  # noqa: E402

THREADS = (1, 2, 4, 8)
CASES = "physical/"
WARM_UP_READS = 10  # the JVM's first queries compile and load classes: not measured
CELL_LIMIT_S = 60.0


def spark_reads(workdir: Path) -> list[dict]:
    """A Spark read request for every Parquet `physical/*` case the reference writes."""
    from conformance.cases import all_cases
    from conformance.matrix.cells import engine_info, read_request, write_request
    from conformance.matrix.execute import run_cell

    reads = []
    for case in all_cases():
        if case.id.startswith(CASES) and case.format == "parquet":
            written = run_cell(write_request("bench", case, engine_info("reference")), workdir)
            if written["outcome"] == "pass":
                reads.append(read_request("bench", case, written, engine_info("spark")))
    return reads


def measure(master: str, threads: tuple[int, ...]) -> list[str]:
    from conformance.matrix.cell_runner import run_in_driver_pool
    from conformance.matrix.spark_session import get_session

    get_session(master)
    workdir = Path(tempfile.mkdtemp(prefix="spark-cells-bench-"))
    reads = spark_reads(workdir)
    if not reads:
        raise SystemExit(f"the reference wrote none of the Parquet {CASES}* cases: nothing to read")
    list(run_in_driver_pool(reads[:WARM_UP_READS], workdir, CELL_LIMIT_S, max(threads)))
    cpus = machine_facts()["cpus"]
    lines = [f"| {master}: threads | reads | wall ms a read | cores busy | CPU ms a read |",
             "|---|---|---|---|---|"]
    for count in threads:
        before, started = cpu_ticks(), time.perf_counter()
        records = list(run_in_driver_pool(reads, workdir, CELL_LIMIT_S, count))
        wall = time.perf_counter() - started
        busy = cores_busy(before, cpu_ticks(), cpus)
        cpu = "-" if busy is None else f"{1000 * busy * wall / len(records):.0f}"
        busy_text = "-" if busy is None else f"{busy:.2f}"
        lines.append(f"| {count} | {len(records)} | {1000 * wall / len(records):.0f} | {busy_text} | {cpu} |")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--threads", default=",".join(map(str, THREADS)),
                        help="comma-separated thread counts (default: %(default)s)")
    args = parser.parse_args(argv)
    print("\n".join(measure(args.master, tuple(int(t) for t in args.threads.split(",")))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
