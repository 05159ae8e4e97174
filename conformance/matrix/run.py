"""`conformance run`: the writer x reader x case matrix as a PySpark job.

Two phases, each a Spark job over the cells of isolated engines (distributed
with `mapPartitionsWithIndex`, each task running its cells in a supervised
worker subprocess, which the Python process keeps for its next task:
`isolation.kept_runner`) followed by the cells of in-driver engines (Spark itself,
which needs the run's SparkSession):

1. write: every writer writes every selected case into `<run dir>/files/<writer>/`;
2. read: every reader reads every file that was written, compared with the case; with
   them, every reader reads every bad file of the corpus it must reject
   (`conformance.golden.rejection`; `RunConfig.bad_files`).

Bad files are selected like cases, by `bad/<id>` and their `bad:`/`fault:` tags: all of
them when neither `case_globs` nor `features` is given, else those the filters match
(`--cases 'bad/*'` for every one), so a run narrowed to some cases reads no bad file.

The work dir must be shared by the driver and the executors (it is, in local
mode; on a cluster, pass a shared `--workdir`). Every finished cell is logged
durably at once (see `results`), and the results dataset and reports are
written even when the run is interrupted. With `RunConfig.retries`, the cells it
wants are then tried again in this process, a fresh worker per try (`retries`:
a cell whose outcome changes between tries is `flaky`).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from conformance.cases import Case, all_cases, select
from conformance.cases.spec_versions import within
from conformance.engines import DEFAULT_ENGINES, available_engines
from conformance.formats import FORMATS
from conformance.golden import rejection
from conformance.golden.bad_file import BadFile
from conformance.golden.verify import check_corpus, plan_golden

from .cell_runner import CellLimits, run_in_driver_pool
from .cells import (
    EngineInfo,
    EnginesByFormat,
    engines_by_format,
    new_run_id,
    plan_reads,
    plan_writes,
    reads_per_write,
)
from .isolation import DEFAULT_MEMORY_LIMIT_MB, DEFAULT_TIMEOUT_S, run_in_lanes
from .progress import ProgressCallback
from .results import LoggedOutcomes, consolidate, logged, read_cell_logs, write_unavailable
from .retries import Retries, retry_cells
from .spark_session import get_session
from .timeline import Timeline

PROGRESS_POLL_S = 0.5
TASKS_PER_CORE = 2  # a few large partitions: each Spark task costs ~50 ms of overhead
# In-driver cells at once per task slot: a Spark cell spends much of its time waiting on
# its small jobs (scheduling, planning in the JVM), so two per slot keep the slots busier
# (bench/README.md, 'matrix_bench.py').
IN_DRIVER_CELLS_PER_SLOT = 2
# Isolated cells at once per task, each in a worker of its own (`isolation.run_in_lanes`):
# a cell that waits (a hung engine until its time limit, an adapter's answer) leaves the
# task's other cells going (bench/README.md, 'matrix_bench.py').
ISOLATED_CELLS_PER_SLOT = 2


@dataclass
class RunConfig:
    workdir: Path = Path("work")
    master: str | None = None
    writers: Sequence[str] = DEFAULT_ENGINES
    readers: Sequence[str] = DEFAULT_ENGINES
    case_globs: Sequence[str] = ()
    features: Sequence[str] = ()
    formats: Sequence[str] = tuple(FORMATS)
    # format -> the release of its text whose cases run (docs/spec-versions.md); others: all
    spec_versions: Mapping[str, str] = field(default_factory=dict)
    timeout_s: float = DEFAULT_TIMEOUT_S
    memory_limit_mb: int | None = DEFAULT_MEMORY_LIMIT_MB
    bad_files: bool = True  # the reject cells (see the module docstring)
    golden: Path | None = None  # a golden corpus whose files every reader also reads
    retries: Retries | None = None  # cells tried again once the phases are done (`retries`)
    run_id: str = field(default_factory=lambda: new_run_id())


@dataclass
class RunResult:
    run_id: str
    run_dir: Path
    results_dir: Path
    records: list[dict]
    interrupted: bool = False
    unavailable: dict[str, str] = field(default_factory=dict)  # engine -> why it could not run
    timeline: Timeline = field(default_factory=Timeline)  # where the run's time went


def selected_cases(config: RunConfig) -> list[Case]:
    """The catalogue cases the filters select (raises when they select no case and no bad file)."""
    cases = [case for case in select(all_cases(), config.case_globs, config.features)
             if case.format in config.formats and (
                 case.format not in config.spec_versions
                 or within(case.features, case.format, config.spec_versions[case.format]))]
    if not cases and not selected_bad_files(config):
        raise ValueError(f"no case matches --cases {list(config.case_globs)} "
                         f"--features {list(config.features)} --spec-version {dict(config.spec_versions)}")
    return cases


def selected_bad_files(config: RunConfig) -> list[BadFile]:
    """The bad files the run reads (`BadFile` entries), none when `config.bad_files` is off."""
    if not config.bad_files:
        return []
    return rejection.selected_bad_files(config.case_globs, config.features)


def run_matrix(config: RunConfig, on_progress: ProgressCallback | None = None) -> RunResult:
    """Run the whole matrix; `on_progress(done, total, outcomes)` (`progress`) is called
    as cells finish. The result's timeline holds each stage's wall-clock time."""
    timeline = Timeline()
    cases = selected_cases(config)
    # Each engine is prepared once, writer or reader (a failing npm ci may take minutes).
    with timeline.span("engines"):
        _, unavailable = available_engines(dict.fromkeys([*config.writers, *config.readers]))
    writers = engines_by_format([s for s in config.writers if s not in unavailable], config.formats)
    readers = engines_by_format([s for s in config.readers if s not in unavailable], config.formats)
    run_dir = (config.workdir / config.run_id).resolve()
    run_dir.mkdir(parents=True, exist_ok=True)
    with timeline.span("plan"):
        rejects = _plan_rejects(config, run_dir, readers)
        golden = _plan_golden(config, cases, readers)
    total = sum(len(writers[case.format]) * (1 + reads_per_write(case, len(readers[case.format])))
                for case in cases)
    total += len(rejects) + len(golden)
    progress = _ProgressWatcher(run_dir, total, on_progress)
    with timeline.span("spark start"):
        runner = _PhaseRunner(config, run_dir, timeline)
    interrupted = False
    try:
        progress.start()
        writes = plan_writes(config.run_id, cases, writers)
        written = runner.run("write", writes, _all(writers))
        with timeline.span("read plan"):
            reads = plan_reads(config.run_id, cases, written, readers) + rejects + golden
        runner.run("read", reads, _all(readers))
        progress.stop()
        if config.retries is not None:
            with timeline.span("retries"):
                runner.retry(writes + reads, [*_all(writers), *_all(readers)], config.retries)
    except KeyboardInterrupt:
        interrupted = True
        runner.cancel()
    finally:
        progress.stop()
        with timeline.span("consolidate"):
            results_dir = consolidate(run_dir)
            write_unavailable(results_dir, unavailable)
    return RunResult(config.run_id, run_dir, results_dir, read_cell_logs(run_dir), interrupted,
                     unavailable, timeline)


def _all(engines: EnginesByFormat) -> list[EngineInfo]:
    return [info for infos in engines.values() for info in infos]


def _plan_rejects(config: RunConfig, run_dir: Path, readers: EnginesByFormat) -> list[dict]:
    entries = selected_bad_files(config)
    return rejection.plan_rejects(config.run_id, run_dir, _all(readers), entries) if entries else []


def _plan_golden(config: RunConfig, cases: Sequence[Case], readers: EnginesByFormat) -> list[dict]:
    """Golden cells (`conformance.golden.verify`) of the selected cases' corpus files."""
    if config.golden is None:
        return []
    selected = {case.id for case in cases}
    documents = [(path, doc) for path, doc in check_corpus(config.golden.resolve())
                 if doc["id"] in selected]
    return plan_golden(config.run_id, documents, _all(readers))


class _PhaseRunner:
    def __init__(self, config: RunConfig, run_dir: Path, timeline: Timeline):
        self.config = config
        self.run_dir = run_dir
        self.timeline = timeline
        self.spark = get_session(config.master)

    def run(self, phase: str, requests: list[dict], engines: Sequence[EngineInfo]) -> list[dict]:
        # An engine runs in the driver when any of its adapters must (Spark's share the session).
        in_driver = {e.spec for e in engines if not e.isolated}
        distributed = [r for r in requests if r["engine"] not in in_driver]
        local = [r for r in requests if r["engine"] in in_driver]
        with self.timeline.span(f"{phase}: isolated cells"):
            results = self._distributed(phase, distributed)
        threads = self.spark.sparkContext.defaultParallelism * IN_DRIVER_CELLS_PER_SLOT
        with self.timeline.span(f"{phase}: in-driver cells"):
            results += list(logged(run_in_driver_pool(local, self.run_dir, self.config.timeout_s,
                                                      threads), self.run_dir, f"{phase}-driver"))
        return results

    def _distributed(self, phase: str, requests: list[dict]) -> list[dict]:
        if not requests:
            return []
        sc = self.spark.sparkContext
        slices = min(len(requests), max(2, sc.defaultParallelism * TASKS_PER_CORE))
        run_dir, timeout_s, memory_mb = str(self.run_dir), self.config.timeout_s, \
            self.config.memory_limit_mb

        def task(index, cells):
            records = run_in_lanes(cells, Path(run_dir), timeout_s, memory_mb, ISOLATED_CELLS_PER_SLOT)
            yield from logged(records, Path(run_dir), f"{phase}-{index:04d}")

        sc.setJobDescription(f"conformance {phase} phase: {len(requests)} cells")
        # Round-robin so every partition gets a mix of engines and cases.
        ordered = [requests[i] for s in range(slices) for i in range(s, len(requests), slices)]
        return sc.parallelize(ordered, slices).mapPartitionsWithIndex(task).collect()

    def retry(self, requests: list[dict], engines: Sequence[EngineInfo], retries: Retries) -> None:
        """Try the cells `retries` wants again, in this process's workers (`retries`)."""
        limits = CellLimits(self.config.timeout_s, self.config.memory_limit_mb)
        in_driver = {e.spec for e in engines if not e.isolated}
        retry_cells(requests, read_cell_logs(self.run_dir), self.run_dir, limits, in_driver, retries)

    def cancel(self) -> None:
        self.spark.sparkContext.cancelAllJobs()


class _ProgressWatcher:
    """Reports progress from the durable cell logs (they are written by the executors)."""

    def __init__(self, run_dir: Path, total: int, callback: ProgressCallback | None):
        self.logged, self.total, self.callback = LoggedOutcomes(run_dir), total, callback
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def start(self) -> None:
        if self.callback:
            self._thread.start()

    def _watch(self) -> None:
        while not self._stop.wait(PROGRESS_POLL_S):
            self._report()

    def stop(self) -> None:
        if self._stop.is_set():  # stopped before the retries, and again at the end
            return
        self._stop.set()
        if self.callback:
            self._thread.join()
            self._report()

    def _report(self) -> None:
        if self.callback is not None:
            counts = self.logged.read()
            self.callback(counts.total(), self.total, counts)
