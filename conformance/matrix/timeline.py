"""Where a run's time goes: the wall-clock spans of its stages (docs/architecture.md, 'The matrix on Spark').

A run records each stage (preparing the engines, starting Spark, planning, each phase's
distributed and in-driver cells, consolidating the results, writing the reports) as a
span: its name, when it started after the run began, and how long it took. The spans are
saved beside the results as `_timeline.json`; `bench/matrix_bench.py` reads them to say
where the main job's time goes, next to the cells per second.

Within the cell stages, `cell_seconds` says which engines the time went to: the sum of
each engine's cells' `duration_s` (cell-seconds: work, not wall time, since cells run at
once on every task slot), which `conformance run` prints after the stages.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

TIMELINE_FILE = "_timeline.json"  # "_": not part of the results dataset (pyarrow skips it)
TOP_ENGINES = 6  # how many engines the printed line names, most cell-seconds first


@dataclass
class Span:
    name: str
    start_s: float  # after the run began
    seconds: float


@dataclass
class Timeline:
    began: float = field(default_factory=time.perf_counter)
    spans: list[Span] = field(default_factory=list)

    @contextlib.contextmanager
    def span(self, name: str) -> Iterator[None]:
        """Record the `with` block as the span `name` (recorded even when it raises)."""
        start = time.perf_counter()
        try:
            yield
        finally:
            self.spans.append(Span(name, start - self.began, time.perf_counter() - start))

    def to_json(self) -> dict:
        return {"spans": [vars(span) for span in self.spans],
                "total_s": time.perf_counter() - self.began}

    def save(self, results_dir: Path) -> None:
        (results_dir / TIMELINE_FILE).write_text(json.dumps(self.to_json(), indent=1) + "\n",
                                                 encoding="utf-8")

    def summary(self) -> str:
        """One line: each span's seconds, in the order they ran."""
        return "; ".join(f"{span.name} {span.seconds:.1f} s" for span in self.spans)


def cell_engine(record: dict) -> str:
    """The engine a cell's time is spent in: a write's writer, a read's reader (with its
    mode: ``spark:filter``, ``validator``)."""
    return record["writer"] if record["phase"] == "write" else record["reader"]


def cell_seconds(records: Iterable[dict]) -> dict[str, tuple[int, float]]:
    """Engine -> (cells, cell-seconds) of the records, the most cell-seconds first."""
    totals: dict[str, list] = defaultdict(lambda: [0, 0.0])
    for record in records:
        total = totals[cell_engine(record)]
        total[0] += 1
        total[1] += record["duration_s"] or 0.0
    return {engine: (cells, seconds) for engine, (cells, seconds)
            in sorted(totals.items(), key=lambda item: -item[1][1])}


def cell_seconds_line(records: Iterable[dict]) -> str:
    """One line: all the cell-seconds, then the `TOP_ENGINES` engines that took most."""
    by_engine = cell_seconds(records)
    total = sum(seconds for _, seconds in by_engine.values())
    top = [f"{engine} {seconds:.1f} s ({cells} cell{'' if cells == 1 else 's'})"
           for engine, (cells, seconds) in list(by_engine.items())[:TOP_ENGINES]]
    return f"{total:.1f} s in all; " + "; ".join(top)


def read_timeline(results_dir: Path) -> dict | None:
    """A saved timeline (`Timeline.to_json`), or None when the run saved none."""
    path = results_dir / TIMELINE_FILE
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None
