"""How the matrix scales: the same run at `local[1]`, `local[2]` and on a standalone cluster.

Each master runs `conformance run` once, in a process of its own (its own Spark JVM), on the
same cases and engines (the default: a slice of the catalogue every default engine takes
part in; `--cases` and `--engines` as `conformance run` takes them). For each run it prints:

* wall-clock seconds of the whole command and cells per second (all cells, and the cells that
  ran, i.e. not `skipped`);
* the speed-up over the first master given (by default `local[1]`);
* how many of the machine's cores were busy on average during the run (from `/proc/stat`,
  whatever ran them: with `local[1]` the engines' own processes and threads keep more than
  one busy, which bounds what `local[2]` can gain on the same machine: cpus / cores busy);
* where the time went: the run's timeline (`_timeline.json` beside its results, docs/
  architecture.md, 'The matrix on Spark'): Spark start-up, each phase's isolated and in-driver
  cells, consolidating, the report;
* the cell-seconds each kind of engine took (in-driver Spark, JVM adapters, node adapters,
  Python protocol adapters, in-process Python engines and the validator), from the results'
  `duration_s`.

`cluster` starts a standalone cluster of `--workers` workers of one core each on this machine
(`conformance.matrix.standalone`) and stops it after its run. bench/README.md says how to run
it and what the figures mean.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench._common import machine_facts, progress  # noqa: E402

DEFAULT_MASTERS = ("local[1]", "local[2]", "cluster")
# A slice of the catalogue that every default engine of both formats reads and writes.
DEFAULT_CASES = ("physical/*", "orc/types/*")
CLUSTER = "cluster"
RUN_TIMEOUT_S = 3 * 3600
SKIPPED = "skipped"
IN_PROCESS = "in-process Python engines"
PROC_STAT = Path("/proc/stat")
IDLE_FIELDS = (3, 4)  # idle and iowait, of the `cpu` line's user nice system idle iowait ...
ENGINE_KINDS = {"java": "JVM adapters", "javascript": "node adapters",
                "python": "Python protocol adapters"}


@dataclass
class MasterRun:
    master: str
    wall_s: float
    cells: int
    ran: int  # cells not skipped
    cores_busy: float | None = None  # the machine's, averaged over the run; None off Linux
    timeline: list[dict] = field(default_factory=list)
    cell_seconds: dict[str, float] = field(default_factory=dict)  # engine kind -> seconds

    @property
    def cells_per_s(self) -> float:
        return self.cells / self.wall_s

    @property
    def ran_per_s(self) -> float:
        return self.ran / self.wall_s


def engine_kind(name: str) -> str:
    """What kind of engine a reader or writer name is (its `:filter` suffix dropped)."""
    from conformance.engines.bundled import BUNDLED

    base = name.split(":")[0]
    if base == "spark":
        return "in-driver Spark"
    if base in BUNDLED:
        return ENGINE_KINDS[BUNDLED[base].language]
    return IN_PROCESS


def cpu_ticks() -> tuple[int, int] | None:
    """(busy, total) clock ticks of all the machine's cores since boot, or None off Linux."""
    if not PROC_STAT.is_file():
        return None
    ticks = [int(t) for t in PROC_STAT.read_text().split("\n", 1)[0].split()[1:]]
    total = sum(ticks)
    return total - sum(ticks[i] for i in IDLE_FIELDS), total


def cores_busy(before: tuple[int, int] | None, after: tuple[int, int] | None, cpus: int) -> float | None:
    if before is None or after is None or after[1] == before[1]:
        return None
    return cpus * (after[0] - before[0]) / (after[1] - before[1])


def run_once(master: str, options: argparse.Namespace, directory: Path) -> MasterRun:
    """One `conformance run` at `master` (a URL), timed from outside."""
    name = master.replace("[", "-").replace("]", "").replace("/", "_").replace(":", "_")
    command = [sys.executable, "-m", "conformance.cli", "run", "--no-progress", "--master", master,
               "--workdir", str(directory / f"work-{name}"), "--report", str(directory / f"report-{name}"),
               *[a for glob in options.cases for a in ("--cases", glob)]]
    if options.engines:
        command += ["--engines", options.engines]
    if options.no_bad_files:
        command.append("--no-bad-files")
    progress(f"run at {master}: {' '.join(command[3:])}")
    started, ticks = time.perf_counter(), cpu_ticks()
    done = subprocess.run(command, capture_output=True, text=True, timeout=RUN_TIMEOUT_S,
                          cwd=Path(__file__).resolve().parents[1])
    wall = time.perf_counter() - started
    busy = cores_busy(ticks, cpu_ticks(), os.cpu_count() or 1)  # /proc/stat counts them all
    if done.returncode not in (0, 1):  # 1: some cell failed, which is a finding, not an error
        raise RuntimeError(f"conformance run at {master} exited {done.returncode}:\n{done.stderr[-3000:]}")
    return _measured(master, wall, directory / f"work-{name}", busy)


def _measured(master: str, wall: float, workdir: Path, busy: float | None) -> MasterRun:
    import pyarrow.parquet as pq

    from conformance.matrix.timeline import cell_seconds, read_timeline

    results = next(workdir.glob("*/results"))
    records = pq.read_table(results, columns=["phase", "writer", "reader", "outcome",
                                                "duration_s"]).to_pylist()
    seconds: dict[str, float] = defaultdict(float)
    for engine, (_, engine_seconds) in cell_seconds(records).items():
        seconds[engine_kind(engine)] += engine_seconds
    outcomes = [record["outcome"] for record in records]
    timeline = read_timeline(results) or {"spans": []}
    return MasterRun(master, wall, len(outcomes), sum(o != SKIPPED for o in outcomes),
                     cores_busy=busy, timeline=timeline["spans"], cell_seconds=dict(seconds))


def run_all(options: argparse.Namespace, directory: Path) -> list[MasterRun]:
    from conformance.matrix.standalone import standalone_cluster

    runs = []
    for master in options.masters:
        if master == CLUSTER:
            with standalone_cluster(directory / "cluster-logs", workers=options.workers) as cluster:
                run = run_once(cluster.master_url, options, directory)
            run.master = f"standalone, {options.workers} workers x 1 core"
        else:
            run = run_once(master, options, directory)
        print(summary_line(run, runs[0] if runs else None), flush=True)
        runs.append(run)
    return runs


def summary_line(run: MasterRun, first: MasterRun | None) -> str:
    speedup = f"{first.wall_s / run.wall_s:.2f}x {first.master}" if first else "-"
    return (f"{run.master:<34} {run.wall_s:8.1f} s  {run.cells:7d} cells  {run.cells_per_s:7.1f} cells/s  "
            f"{run.ran_per_s:7.1f} ran/s  {_busy(run)} cores busy  speed-up {speedup}")


def _busy(run: MasterRun) -> str:
    return "-" if run.cores_busy is None else f"{run.cores_busy:.2f}"


def report(runs: list[MasterRun]) -> str:
    """The markdown tables: the runs side by side, their timelines, their engine kinds."""
    lines = ["| master | wall (s) | cells | cells/s | ran/s | cores busy | speed-up |",
             "|---|---|---|---|---|---|---|"]
    lines += [f"| {r.master} | {r.wall_s:.1f} | {r.cells} | {r.cells_per_s:.1f} | {r.ran_per_s:.1f} | "
              f"{_busy(r)} | {runs[0].wall_s / r.wall_s:.2f}x |" for r in runs]
    stages = list(dict.fromkeys(span["name"] for r in runs for span in r.timeline))
    lines += ["", "| stage (s) | " + " | ".join(r.master for r in runs) + " |",
              "|---|" + "---|" * len(runs)]
    for stage in stages:
        cells = [sum(s["seconds"] for s in r.timeline if s["name"] == stage) for r in runs]
        lines.append(f"| {stage} | " + " | ".join(f"{c:.1f}" for c in cells) + " |")
    kinds = sorted({kind for r in runs for kind in r.cell_seconds})
    lines += ["", "| cell-seconds by engine kind | " + " | ".join(r.master for r in runs) + " |",
              "|---|" + "---|" * len(runs)]
    lines += [f"| {kind} | " + " | ".join(f"{r.cell_seconds.get(kind, 0.0):.1f}" for r in runs) + " |"
              for kind in kinds]
    return "\n".join(lines)


def parse_arguments(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--masters", default=",".join(DEFAULT_MASTERS),
                        help="comma-separated Spark masters, or 'cluster' (default: %(default)s)")
    parser.add_argument("--cases", action="append", help=f"case globs (default: {' '.join(DEFAULT_CASES)})")
    parser.add_argument("--engines", help="as `conformance run --engines` (default: its default)")
    parser.add_argument("--workers", type=int, default=2, help="workers of the standalone cluster")
    parser.add_argument("--no-bad-files", action="store_true", help="no bad-file cells")
    parser.add_argument("--workdir", type=Path, help="keep the runs here (default: a temporary folder)")
    parser.add_argument("--out", type=Path, help="also write the figures as JSON")
    options = parser.parse_args(argv)
    options.masters = [m for m in options.masters.split(",") if m]
    options.cases = options.cases or list(DEFAULT_CASES)
    return options


def main(argv: list[str] | None = None) -> int:
    options = parse_arguments(argv)
    facts = machine_facts()
    print(f"# machine: {facts['cpus']} cpus, {facts['cpu_model']}, {facts['python']}", flush=True)
    with tempfile.TemporaryDirectory(prefix="matrix-bench-") as scratch:
        runs = run_all(options, options.workdir or Path(scratch))
    print()
    print(report(runs))
    if options.out:
        figures = [asdict(r) | {"cells_per_s": r.cells_per_s, "ran_per_s": r.ran_per_s} for r in runs]
        document = {"machine": facts, "cases": options.cases, "engines": options.engines, "runs": figures}
        options.out.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
