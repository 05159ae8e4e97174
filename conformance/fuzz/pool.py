"""A pool of long-lived isolated workers, one driver thread each.

Each thread owns one ``IsolatedWorker`` (``conformance.matrix.isolation``: a supervised
subprocess under ``RLIMIT_AS``) running ``conformance.fuzz.worker``, and reuses it from
request to request: starting one costs far more than reading a mutant. A worker that
dies or hangs is replaced, and so is one that ran out of memory (its heap may be left
fragmented). Tasks are taken in order from one shared iterator and results come back in
task order, so a campaign's records do not depend on the number of workers.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from conformance.matrix.isolation import IsolatedWorker, WorkerCrashed, WorkerTimedOut

from .classify import CRASH, HANG, MEMORY, Outcome, of_death, of_timeout

WORKER_MODULE = "conformance.fuzz.worker"
DEFAULT_TIME_LIMIT_S = 5.0
DEFAULT_MEMORY_LIMIT_MB = 2048  # 2 GiB of address space per worker

PING = {"ping": True}  # answered at once: the worker has imported what it needs
STARTUP_TIMEOUT_S = 120.0  # imports on a loaded machine; only a broken installation takes longer
REPLACED = frozenset({CRASH, HANG, MEMORY})  # outcomes after which a worker is replaced
T = TypeVar("T")
R = TypeVar("R")


@dataclass(frozen=True)
class Limits:
    time_s: float = DEFAULT_TIME_LIMIT_S
    memory_mb: int = DEFAULT_MEMORY_LIMIT_MB


DEFAULT_LIMITS = Limits()


class Caller:
    """One thread's worker: ``call(request)`` is the tool's Outcome, whatever happened."""

    def __init__(self, workdir: Path, limits: Limits) -> None:
        self.workdir, self.limits = workdir, limits
        self._worker: IsolatedWorker | None = None

    def _started(self) -> IsolatedWorker:
        """The worker, started and past its imports: start-up is not the mutant's time."""
        if self._worker is None:
            worker = IsolatedWorker(self.workdir, self.limits.memory_mb, WORKER_MODULE)
            try:
                worker.call(PING, STARTUP_TIMEOUT_S)
            except (WorkerCrashed, WorkerTimedOut) as exc:
                worker.close()
                raise RuntimeError(f"the fuzz worker did not start: {exc}") from exc
            self._worker = worker
        return self._worker

    def call(self, request: dict) -> Outcome:
        worker = self._started()
        try:
            outcome = Outcome.from_json(worker.call(request, self.limits.time_s))
        except WorkerCrashed as exc:
            outcome = of_death(str(exc))
        except WorkerTimedOut:
            outcome = of_timeout(self.limits.time_s)
        if outcome.klass in REPLACED:
            self.close()  # dead, killed, or short of memory: the next request gets a fresh one
        return outcome

    def close(self) -> None:
        if self._worker is not None:
            self._worker.close()
            self._worker = None


class WorkerPool:
    """``workers`` callers, kept across the ``run`` calls of a campaign."""

    def __init__(self, workers: int, workdir: Path, limits: Limits) -> None:
        self.callers = [Caller(workdir, limits) for _ in range(workers)]

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc_info: object) -> None:
        for caller in self.callers:
            caller.close()

    def run(self, tasks: Iterable[T], handle: Callable[[T, Caller], R]) -> list[R]:
        """``handle(task, caller)`` for every task, one thread per caller; results in task order."""
        numbered = enumerate(tasks)
        lock = threading.Lock()
        results: dict[int, R] = {}
        failures: list[BaseException] = []

        def serve(caller: Caller) -> None:
            try:
                while not failures:
                    with lock:
                        item = next(numbered, None)
                    if item is None:
                        return
                    results[item[0]] = handle(item[1], caller)
            except BaseException as exc:  # noqa: BLE001 - re-raised in the calling thread
                failures.append(exc)

        threads = [threading.Thread(target=serve, args=(caller,), name=f"fuzz worker {n}", daemon=True)
                   for n, caller in enumerate(self.callers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if failures:
            raise failures[0]
        return [results[index] for index in sorted(results)]
