"""Where a run's time goes: the wall-clock spans of its stages (docs/architecture.md, 'The matrix on Spark').

A run records each stage (preparing the engines, starting Spark, planning, each phase's
distributed and in-driver cells, consolidating the results, writing the reports) as a
span: its name, when it started after the run began, and how long it took. The spans are
saved beside the results as `_timeline.json`; `bench/matrix_bench.py` reads them to say
where the main job's time goes, next to the cells per second.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

TIMELINE_FILE = "_timeline.json"  # "_": not part of the results dataset (pyarrow skips it)


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


def read_timeline(results_dir: Path) -> dict | None:
    """A saved timeline (`Timeline.to_json`), or None when the run saved none."""
    path = results_dir / TIMELINE_FILE
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None
