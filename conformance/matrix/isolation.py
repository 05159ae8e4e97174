"""Crash and hang isolation: engine calls run in a supervised subprocess.

One worker process serves many cells (start-up with pyarrow, DuckDB and friends
costs about a second). If it dies mid-cell (a segfault, an abort, the memory
limit) that cell is a `crash` with the exit status and the tail of stderr; if it
does not answer within the time limit it is killed and the cell is a `timeout`.
Either way a fresh worker takes the next cell and the run goes on. An engine adapter that
hangs (a process of the worker's own) is killed by the worker itself a little sooner
(`ADAPTER_LIMIT_SHARE`): the same `timeout`, with the adapter's stderr as its evidence,
and the worker keeps its other engines.

The matrix's Spark tasks share their workers per Python process (`kept_runner`):
PySpark reuses its Python workers across tasks and jobs
(`spark.python.worker.reuse`), so a worker, with the JVMs, node processes and
adapters its engines started, serves every task of the run that lands on that
process instead of starting afresh for each task of each phase. A task runs its
cells on a few such workers at once (`run_in_lanes`, one a lane): a cell that only
waits (a hung engine until its limit, an adapter's answer) then holds one lane, not
the task's task slot.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import defaultdict, deque
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import IO, cast

from .cells import unfinished_record

# The slowest catalogue cell takes about 2.3 s (Spark's first write of a run, measured);
# a cell still running after this long hangs (measured: fastparquet loops forever on
# BIT_PACKED levels of nested columns) and becomes a `timeout` cell.
DEFAULT_TIMEOUT_S = 30.0
DEFAULT_MEMORY_LIMIT_MB = 8_192
# A worker's start-up (importing pyarrow, DuckDB, Spark's client...) is not a cell's work:
# about 1 s on a quiet machine, 6-10 s measured at a load of 10 on 2 cores.
STARTUP_TIMEOUT_S = 120.0
# A worker's engine adapters (processes of its own: JVMs, node, Python adapters) must
# answer within this share of the cell's limit, or the worker kills the adapter: the cell
# is a `timeout` whose evidence is the adapter's stderr, and the worker lives on with its
# other engines, which would cost seconds each to start again. The rest of the limit is
# the worker's time to notice, kill and reply before the harness kills the worker.
ADAPTER_LIMIT_SHARE = 0.9
# A lane out of work starts another lane's engine for its cells only when at least this
# many are left: an engine's start (1-5 s) is worth that many cells of tens of ms.
STEAL_MIN_CELLS = 64
STDERR_TAIL_CHARS = 2_000
WORKER_MODULE = "conformance.matrix.worker"  # the matrix's cells; the fuzzer has its own
_EOF = None  # what the reader thread queues when the worker's stdout closes


class WorkerCrashed(Exception):
    pass


class WorkerTimedOut(Exception):
    pass


def _limit_memory(limit_mb: int | None):
    def apply() -> None:
        if limit_mb:
            import resource

            limit = limit_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    return apply


class IsolatedWorker:
    """``python -m module workdir``: one JSON request line in, one JSON reply line out."""

    def __init__(self, workdir: Path, memory_limit_mb: int | None = DEFAULT_MEMORY_LIMIT_MB,
                 module: str = WORKER_MODULE, adapter_limit_s: float | None = None):
        self._stderr = tempfile.TemporaryFile()
        limit = [] if adapter_limit_s is None else [f"{adapter_limit_s:g}"]
        self._proc = subprocess.Popen(
            [sys.executable, "-m", module, str(workdir), *limit],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr,
            text=True, encoding="utf-8", preexec_fn=_limit_memory(memory_limit_mb),
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
        # Popen sets stdin and stdout whenever they are PIPE, as here.
        self._stdin = cast(IO[str], self._proc.stdin)
        self._stdout = cast(IO[str], self._proc.stdout)
        self._lines: queue.Queue = queue.Queue()
        self._ready = False
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        for line in self._stdout:
            self._lines.put(line)
        self._lines.put(_EOF)

    def call(self, request: dict, timeout_s: float) -> dict:
        if not self._ready:
            self._reply(STARTUP_TIMEOUT_S, "start")  # the READY line
            self._ready = True
        try:
            self._stdin.write(json.dumps(request) + "\n")
            self._stdin.flush()
        except BrokenPipeError as exc:
            raise WorkerCrashed(self._death_notice()) from exc
        return self._reply(timeout_s, "answer")

    def _reply(self, timeout_s: float, awaited: str) -> dict:
        try:
            line = self._lines.get(timeout=timeout_s)
        except queue.Empty as exc:
            self.kill()
            raise WorkerTimedOut(f"no {awaited} within {timeout_s:g} s; worker killed") from exc
        if line is _EOF:
            raise WorkerCrashed(self._death_notice())
        return json.loads(line)

    def _death_notice(self) -> str:
        code = self._proc.wait()
        status = (f"killed by signal {signal.Signals(-code).name}" if code < 0
                  else f"exited with status {code}")
        self._stderr.seek(0)
        tail = self._stderr.read().decode("utf-8", "replace")[-STDERR_TAIL_CHARS:]
        return f"worker process {status}\nstderr tail:\n{tail}".rstrip()

    def alive(self) -> bool:
        return self._proc.poll() is None

    def kill(self) -> None:
        if self.alive():
            self._proc.kill()
            self._proc.wait()

    def close(self) -> None:
        if self.alive():
            self._stdin.close()
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        self._stderr.close()


class IsolatedRunner:
    """Runs cells one at a time in a worker, replacing it after a crash or a timeout."""

    def __init__(self, workdir: Path, timeout_s: float = DEFAULT_TIMEOUT_S,
                 memory_limit_mb: int | None = DEFAULT_MEMORY_LIMIT_MB):
        self.workdir, self.timeout_s, self.memory_limit_mb = workdir, timeout_s, memory_limit_mb
        self._worker: IsolatedWorker | None = None
        # The engine specs of the cells `run_in_lanes` gave it: its worker keeps their
        # processes and imports (or starts them again, once replaced), so `_EngineQueues`
        # sends it more of them.
        self.engines: set[str] = set()

    def run(self, request: dict) -> dict:
        """The cell's result record; a crash or a hang of the worker is the cell's outcome."""
        if self._worker is not None and not self._worker.alive():
            self.close()  # it died between cells (a kept worker's idle time): not this cell's doing
        self._worker = self._worker or IsolatedWorker(
            self.workdir, self.memory_limit_mb, adapter_limit_s=self.timeout_s * ADAPTER_LIMIT_SHARE)
        started = time.perf_counter()
        try:
            return self._worker.call(request, self.timeout_s)
        except WorkerCrashed as exc:
            outcome, detail = "crash", str(exc)
        except WorkerTimedOut as exc:
            outcome, detail = "timeout", str(exc)
        self.close()
        return unfinished_record(request, outcome, detail, time.perf_counter() - started)

    def close(self) -> None:
        if self._worker is not None:
            self._worker.close()
            self._worker = None


# The runners this process keeps between the matrix's Spark tasks, by lane, each with
# what it was made for.
_kept: dict[int, tuple[tuple, IsolatedRunner]] = {}


def kept_runner(workdir: Path, timeout_s: float, memory_limit_mb: int | None,
                lane: int = 0) -> IsolatedRunner:
    """This process's runner `lane` for cells of `workdir` under these limits, kept for the
    next call (the next Spark task of the run); a runner kept for other ones is closed."""
    key = (str(workdir), timeout_s, memory_limit_mb)
    kept = _kept.get(lane)
    if kept is None or kept[0] != key:
        if kept is not None:
            kept[1].close()
        kept = _kept[lane] = (key, IsolatedRunner(workdir, timeout_s, memory_limit_mb))
    return kept[1]


def run_in_lanes(requests: Iterable[dict], workdir: Path, timeout_s: float, memory_limit_mb: int | None,
                 lanes: int) -> Iterator[dict]:
    """`requests` on this process's first `lanes` kept runners (`kept_runner`), as many at
    once, each lane taking the cells of the engines it has started (`_EngineQueues`);
    yields the records in the order of `requests`."""
    runners = [kept_runner(workdir, timeout_s, memory_limit_mb, lane) for lane in range(lanes)]
    cells = _EngineQueues(requests, runners)
    records: dict[int, dict] = {}
    failures: list[BaseException] = []
    arrived = threading.Condition()

    def lane(runner: IsolatedRunner) -> None:
        try:
            while (taken := cells.take(runner)) is not None:
                index, request = taken
                record = runner.run(request)
                with arrived:
                    records[index] = record
                    arrived.notify_all()
        except BaseException as exc:  # a harness bug: the caller must see it, not wait forever
            with arrived:
                failures.append(exc)
                arrived.notify_all()
            raise

    with ThreadPoolExecutor(lanes, thread_name_prefix="lanes") as pool:
        for runner in runners:
            pool.submit(lane, runner)
        for index in range(cells.total):
            with arrived:
                while index not in records and not failures:
                    arrived.wait()
                if failures:
                    raise failures[0]
                record = records.pop(index)
            yield record


class _EngineQueues:
    """A task's cells by engine, for its lanes (`run_in_lanes`). A lane takes the next cell
    of an engine its worker has run, else of an engine no lane's worker has run, else of
    the engine with the most cells left, if at least `STEAL_MIN_CELLS` are: so each engine
    starts (a JVM, a node process, an adapter: seconds each) in few of the process's
    workers, while a lane with work left does not keep the others idle for long. What a
    worker has run is kept with its runner (`IsolatedRunner.engines`), so the next task of
    the process sends the same engines to the same lanes."""

    def __init__(self, requests: Iterable[dict], runners: list[IsolatedRunner]):
        self._lock = threading.Lock()
        self._queues: dict[str, deque[tuple[int, dict]]] = defaultdict(deque)
        cells = list(requests)
        self.total = len(cells)
        for index, request in enumerate(cells):
            self._queues[request["engine"]].append((index, request))
        self._runners = runners

    def take(self, runner: IsolatedRunner) -> tuple[int, dict] | None:
        """The next (index, request) for `runner`'s lane, or None when none is left."""
        with self._lock:
            left = [engine for engine, queue_ in self._queues.items() if queue_]
            if not left:
                return None
            elsewhere = {e for other in self._runners if other is not runner for e in other.engines}
            engine = (next((e for e in left if e in runner.engines), None)
                      or next((e for e in left if e not in elsewhere), None)
                      or max(left, key=lambda e: len(self._queues[e])))
            if engine not in runner.engines and engine in elsewhere \
                    and len(self._queues[engine]) < STEAL_MIN_CELLS:
                return None  # the lane that runs it finishes them sooner than a start here
            runner.engines.add(engine)
            return self._queues[engine].popleft()


def run_isolated(requests: Iterable[dict], workdir: Path, timeout_s: float = DEFAULT_TIMEOUT_S,
                 memory_limit_mb: int | None = DEFAULT_MEMORY_LIMIT_MB) -> Iterator[dict]:
    """Run cells in a worker, replacing it after a crash or a timeout; yield one result each."""
    runner = IsolatedRunner(workdir, timeout_s, memory_limit_mb)
    try:
        for request in requests:
            yield runner.run(request)
    finally:
        runner.close()
