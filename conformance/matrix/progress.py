"""Progress where people look: a bar in a terminal, a line at a steady interval in a log.

`conformance run`, `conformance golden generate|verify` and the property hunts report
progress the same way: whoever runs cells calls ``on_progress(done, total, counts)``
(``total`` None when unknown, ``counts`` the outcomes so far), and `reporting` shows it:

* on a terminal: a rich progress bar;
* elsewhere (a CI log): a `ProgressLines` line every ``interval_s`` (default 10 s;
  ``CONFORMANCE_PROGRESS_INTERVAL_S`` or the command's ``--progress-interval``), also
  while no cell finishes, so a long run never looks hung, then a last line at the end::

      progress: 120/431 cells (28%): 100 pass, 15 mismatch, 5 error; 3.2 cells/s; about 1m37s left
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from typing import TextIO

DEFAULT_INTERVAL_S = 10.0
INTERVAL_ENV = "CONFORMANCE_PROGRESS_INTERVAL_S"
MAX_TICK_S = 1.0  # how often the ticker thread looks whether a line is due
SECONDS_PER_MINUTE, SECONDS_PER_HOUR = 60, 3600
PERCENT = 100

ProgressCallback = Callable[[int, "int | None", Mapping[str, int]], None]


def default_interval_s() -> float:
    return float(os.environ.get(INTERVAL_ENV, DEFAULT_INTERVAL_S))


class ProgressLines:
    """Progress as a line every `interval_s` on `stream`; `start` runs a ticker thread
    so lines come while no update does, `close` prints the last line."""

    def __init__(self, stream: TextIO, interval_s: float, clock: Callable[[], float] = time.monotonic,
                 unit: str = "cells", label: str = "progress") -> None:
        self.stream, self.interval_s, self.clock = stream, interval_s, clock
        self.unit, self.label = unit, label
        self._started = self._last_line = clock()
        self._done = 0
        self._total: int | None = None
        self._counts: dict[str, int] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._ticker = threading.Thread(target=self._tick_until_stopped, daemon=True)

    def update(self, done: int, total: int | None, counts: Mapping[str, int]) -> None:
        with self._lock:
            self._done, self._total, self._counts = done, total, dict(counts)
        self.tick()

    def tick(self) -> None:
        """Print a line if `interval_s` has passed since the last one."""
        with self._lock:
            now = self.clock()
            if now - self._last_line >= self.interval_s:
                self._print(now)

    def start(self) -> None:
        self._ticker.start()

    def close(self) -> None:
        """Stop the ticker and print the last line, whatever the interval."""
        self._stop.set()
        if self._ticker.is_alive():
            self._ticker.join()
        with self._lock:
            self._print(self.clock())

    def line(self, now: float) -> str:
        """E.g. ``progress: 20/100 cells (20%): 15 pass, 5 error; 2.0 cells/s; about 40s left``."""
        elapsed = now - self._started
        rate = self._done / elapsed if elapsed > 0 else 0.0
        parts = [self._head(), f"{rate:.1f} {self.unit}/s"]
        remaining = None if self._total is None else self._total - self._done
        if remaining is not None and remaining <= 0:
            parts.append(f"done in {_duration(elapsed)}")
        elif remaining is not None and rate > 0:
            parts.append(f"about {_duration(remaining / rate)} left")
        return "; ".join(parts)

    def _head(self) -> str:
        """Done (of the total, with its share) and the counts so far, largest first."""
        of_total = "" if self._total is None else f"/{self._total}"
        share = f" ({PERCENT * self._done // self._total}%)" if self._total else ""
        counts = ", ".join(f"{n} {what}" for what, n in
                           sorted(self._counts.items(), key=lambda kv: (-kv[1], kv[0])) if n)
        return (f"{self.label}: {self._done}{of_total} {self.unit}{share}"
                + (f": {counts}" if counts else ""))

    def _print(self, now: float) -> None:
        print(self.line(now), file=self.stream, flush=True)
        self._last_line = now

    def _tick_until_stopped(self) -> None:
        while not self._stop.wait(min(self.interval_s, MAX_TICK_S)):
            self.tick()


def _duration(seconds: float) -> str:
    """``42s``, ``1m37s``, ``2h05m``."""
    whole = round(seconds)
    if whole < SECONDS_PER_MINUTE:
        return f"{whole}s"
    if whole < SECONDS_PER_HOUR:
        return f"{whole // SECONDS_PER_MINUTE}m{whole % SECONDS_PER_MINUTE:02d}s"
    return f"{whole // SECONDS_PER_HOUR}h{whole % SECONDS_PER_HOUR // SECONDS_PER_MINUTE:02d}m"


@contextlib.contextmanager
def reporting(enabled: bool = True, interval_s: float | None = None,
              stream: TextIO | None = None) -> Iterator[ProgressCallback | None]:
    """The `on_progress` callback for a command: a bar when `stream` (default stderr) is a
    terminal, else `ProgressLines`; None when disabled."""
    stream = stream or sys.stderr
    if not enabled:
        yield None
    elif stream.isatty():
        with _bar(stream) as on_progress:
            yield on_progress
    else:
        lines = ProgressLines(stream, default_interval_s() if interval_s is None else interval_s)
        lines.start()
        try:
            yield lines.update
        finally:
            lines.close()


@contextlib.contextmanager
def _bar(stream: TextIO) -> Iterator[ProgressCallback]:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    progress = Progress("[progress.description]{task.description}", BarColumn(),
                        MofNCompleteColumn(), TimeElapsedColumn(), console=Console(file=stream))
    task = progress.add_task("cells", total=None)
    with progress:
        yield lambda done, total, counts: progress.update(task, completed=done, total=total)
