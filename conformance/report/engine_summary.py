"""One engine's part in a run: the reads and writes it really performed, and how they went.

A run's cells name an engine in one of four roles (``ReportSummary.roles``); this module
answers, per engine and format, the questions of its page (``engines_html``):

=============== ==========================================================================
reads           read cells it read (its own files and every other writer's), golden included
filtered reads  the same through its predicate push-down (reader ``<engine>:filter``)
writes          its write phase: did it produce the case's file
its files read  read cells of the files it wrote, by the reference and the peers
bad files       what it did with the bad-file corpus (must reject)
=============== ==========================================================================

Each is a ``Tally``: ``passes/performed`` with skipped cells and declared gaps
(``unsupported``) apart, never counted as failures.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from .dataset import GOLDEN, REJECT, Cell, ReportSummary, base_engine, engine_order
from .grid import Tally

READS, FILTERED, WRITES, FILES_READ, BAD_FILES = (
    "reads", "filtered reads", "writes", "its files read", "bad files")


def roles_of(cell: Cell) -> Iterator[tuple[str, str]]:
    """The (engine, role) pairs a cell counts in."""
    if cell.phase == "write":
        yield cell.writer, WRITES
    elif cell.phase == REJECT:
        yield cell.reading_engine, BAD_FILES
    else:
        reader = cell.reading_engine
        engine = base_engine(reader)
        yield engine, READS if reader == engine else FILTERED
        if cell.phase != GOLDEN:
            yield cell.writer, FILES_READ


@dataclass(frozen=True)
class EngineSummary:
    engine: str
    versions: tuple[str, ...]
    tallies: dict[tuple[str, str], Tally]  # (format, role) -> tally, roles with cells only

    def to_json(self) -> dict:
        return {"versions": list(self.versions), "roles": {
            f"{fmt}/{role}": {"passes": t.passes, "performed": t.performed,
                              "not_run": t.total - t.performed, "counts": dict(t.counts)}
            for (fmt, role), t in self.tallies.items()}}


def engine_summaries(summary: ReportSummary) -> dict[str, EngineSummary]:
    """Every engine that wrote or read (a ``:filter`` reader under its engine), with its
    tallies per (format, role), the reference first."""
    counts: dict[str, dict[tuple[str, str], dict[str, int]]] = {}
    for cell in summary.cells:
        for engine, role in roles_of(cell):
            tally = counts.setdefault(engine, {}).setdefault((cell.format, role), {})
            tally[cell.outcome] = tally.get(cell.outcome, 0) + 1
    return {engine: EngineSummary(engine, tuple(summary.engines.get(engine, ())), {
        key: Tally(c) for key, c in sorted(tallies.items())})
        for engine, tallies in sorted(counts.items(), key=lambda kv: engine_order(kv[0]))}
