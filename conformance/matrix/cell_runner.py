"""Running planned cells under one isolation and one per-cell time limit, for the
matrix (`run`) and golden verification (`conformance.golden.verify`) alike.

* A cell of an isolated engine runs in a supervised worker subprocess
  (`isolation`): a crash is a `crash` cell, no answer within the limit a `timeout`.
* A cell of an in-driver engine (Spark: it needs the process's one SparkSession,
  so it cannot run in a worker) runs in this process, on a thread of its own under
  a watchdog. When the limit runs out, the cell's Spark jobs (its job group) are
  cancelled and the cell is a `timeout`; a cell that does not stop even then (a
  hang outside Spark) is left behind on its daemon thread, and the run goes on.
  The matrix runs its in-driver cells on two threads per Spark task slot
  (`run_in_driver_pool`), each cell on a child session of its own
  (`spark_session.bind_session`), so they use every core as the isolated cells do.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Collection, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from .cells import unfinished_record
from .execute import run_cell
from .isolation import DEFAULT_MEMORY_LIMIT_MB, DEFAULT_TIMEOUT_S, IsolatedRunner
from .spark_session import bind_session, child_session, get_session

# How long a timed-out in-driver cell gets to stop once its Spark jobs are cancelled
# (a cancelled job fails its collect at once; this is for a cell hung elsewhere).
CANCEL_GRACE_S = 10.0


@dataclass(frozen=True)
class CellLimits:
    """What every cell of a run may take, wherever it runs."""

    timeout_s: float = DEFAULT_TIMEOUT_S
    memory_limit_mb: int | None = DEFAULT_MEMORY_LIMIT_MB  # isolated cells only


DEFAULT_LIMITS = CellLimits()


def run_cells(requests: Iterable[dict], workdir: Path, limits: CellLimits,
              in_driver: Collection[str]) -> Iterator[dict]:
    """Run `requests` one at a time: those whose engine spec is in `in_driver` in this
    process under the watchdog, the others in an isolated worker; yield each record."""
    isolated = IsolatedRunner(workdir, limits.timeout_s, limits.memory_limit_mb)
    try:
        for request in requests:
            if request["engine"] in in_driver:
                yield run_in_driver(request, workdir, limits.timeout_s)
            else:
                yield isolated.run(request)
    finally:
        isolated.close()


def run_in_driver(request: dict, workdir: Path, timeout_s: float) -> dict:
    """One cell in this process, a `timeout` cell when it runs past `timeout_s`."""
    return _watched(request, workdir, timeout_s, session=None)[0]


def run_in_driver_pool(requests: Sequence[dict], workdir: Path, timeout_s: float,
                       threads: int) -> Iterator[dict]:
    """`requests` as `run_in_driver` runs them, `threads` at a time, each on a child
    session; yields the records in the order of `requests`."""
    if threads <= 1:
        yield from (run_in_driver(request, workdir, timeout_s) for request in requests)
        return
    sessions: queue.SimpleQueue = queue.SimpleQueue()
    for _ in range(threads):
        sessions.put(child_session())

    def one(request: dict) -> dict:
        session = sessions.get()
        record, stopped = _watched(request, workdir, timeout_s, session)
        # A cell left behind on its thread may still set options on its session.
        sessions.put(session if stopped else child_session())
        return record

    with ThreadPoolExecutor(threads, thread_name_prefix="driver-cells") as pool:
        yield from pool.map(one, requests)


def _watched(request: dict, workdir: Path, timeout_s: float, session) -> tuple[dict, bool]:
    """The cell's record, and whether its thread has stopped."""
    started = time.perf_counter()
    cell = _DriverCell(request, workdir, get_session().sparkContext, session)
    cell.start()
    cell.join(timeout_s)
    if not cell.is_alive():
        return cell.result(), True
    cell.cancel()
    cell.join(CANCEL_GRACE_S)
    stopped = not cell.is_alive()
    after = (f"it then answered: {cell.result()['detail']}" if stopped else
             f"it did not stop within {CANCEL_GRACE_S:g} s more and was left behind on its thread")
    detail = f"no answer within {timeout_s:g} s; its Spark jobs were cancelled\n{after}"
    return unfinished_record(request, "timeout", detail, time.perf_counter() - started), stopped


class _DriverCell(threading.Thread):
    """A cell on its own thread, its Spark jobs in a job group of its own (Spark's job
    group is a property of the thread that submits the jobs)."""

    def __init__(self, request: dict, workdir: Path, spark_context, session) -> None:
        super().__init__(name=f"cell {request['cell_id']}", daemon=True)
        self.request, self.workdir, self.sc = request, workdir, spark_context
        self.session = session  # the child session its engine uses (None: the process's)
        self.group = f"cell-{request['cell_id']}"
        self._record: dict | None = None
        self._raised: BaseException | None = None

    def run(self) -> None:
        try:
            bind_session(self.session)
            self.sc.setJobGroup(self.group, self.request["cell_id"], interruptOnCancel=True)
            self._record = run_cell(self.request, self.workdir)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
            self._raised = exc

    def cancel(self) -> None:
        self.sc.cancelJobGroup(self.group)

    def result(self) -> dict:
        """The cell's record; what the harness raised, re-raised in the caller's thread."""
        if self._raised is not None:
            raise self._raised
        assert self._record is not None, "result() of a cell still running"
        return self._record
