"""The writer x reader grid: outcome tallies grouped by who wrote and who read.

A grid has one row per writer and one column per reader; a square holds the
``Tally`` of the read cells of that pair (how many of each outcome). Each row
also carries the writer's write-phase tally (did the writer produce the
files at all). ``run_grid`` covers the whole run; ``feature_grids`` gives one
grid per feature tag (a cell counts in every tag it carries), with the same
rows and columns as the run grid so grids can be compared at a glance.

The tallies are pyarrow ``group_by`` queries over the results table.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import pyarrow as pa
import pyarrow.compute as pc

from .dataset import GOLDEN, ReportSummary
from .outcomes import OUTCOMES, PASS, SKIPPED, UNSUPPORTED, worst

NOT_PERFORMED = (SKIPPED, UNSUPPORTED)
"""Outcomes of cells that did not run: never counted as failures nor as passes."""


@dataclass(frozen=True)
class Tally:
    """How many cells of a group ended in each outcome."""

    counts: Mapping[str, int]

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def passes(self) -> int:
        return self.counts.get(PASS, 0)

    @property
    def performed(self) -> int:
        """Cells that really ran: every outcome but skipped and unsupported (declared gaps)."""
        return self.total - sum(self.counts.get(o, 0) for o in NOT_PERFORMED)

    @property
    def failures(self) -> int:
        """Cells that ran and did not pass."""
        return self.performed - self.passes

    @property
    def worst(self) -> str | None:
        """The most severe outcome present, None for an empty tally."""
        return worst(o for o, n in self.counts.items() if n)

    @property
    def ratio(self) -> str:
        """``"passes/total"``, the text shown in a grid square."""
        return f"{self.passes}/{self.total}"

    def breakdown(self) -> str:
        """E.g. ``"mismatch 1, unsupported 2, pass 9"`` (worst first)."""
        return ", ".join(f"{o} {self.counts[o]}" for o in OUTCOMES if self.counts.get(o))

    @staticmethod
    def merge(tallies: Iterable[Tally]) -> Tally:
        counts: dict[str, int] = {}
        for tally in tallies:
            for outcome, n in tally.counts.items():
                counts[outcome] = counts.get(outcome, 0) + n
        return Tally(counts)


EMPTY = Tally({})


@dataclass(frozen=True)
class Grid:
    """Tallies of one slice of the run (the whole run, or one feature tag)."""

    tag: str | None
    writers: tuple[str, ...]
    readers: tuple[str, ...]
    reads: Mapping[tuple[str, str], Tally]
    writes: Mapping[str, Tally]

    def read(self, writer: str, reader: str) -> Tally:
        return self.reads.get((writer, reader), EMPTY)

    def write(self, writer: str) -> Tally:
        return self.writes.get(writer, EMPTY)

    def row_total(self, writer: str) -> Tally:
        """All read cells of files written by ``writer``."""
        return Tally.merge(self.read(writer, r) for r in self.readers)

    def column_total(self, reader: str) -> Tally:
        """All read cells read by ``reader``."""
        return Tally.merge(self.read(w, reader) for w in self.writers)

    def read_total(self) -> Tally:
        return Tally.merge(self.reads.values())

    def overall(self) -> Tally:
        """Every cell of the slice, write and read phase."""
        return Tally.merge([*self.reads.values(), *self.writes.values()])


def _tallies(table: pa.Table, keys: list[str]) -> dict[tuple, Tally]:
    if table.num_rows == 0:
        return {}
    grouped = table.group_by([*keys, "outcome"]).aggregate([("cell_id", "count")])
    counts: dict[tuple, dict[str, int]] = {}
    for row in grouped.to_pylist():
        key = tuple(row[k] for k in keys)
        counts.setdefault(key, {})[row["outcome"]] = row["cell_id_count"]
    return {key: Tally(c) for key, c in counts.items()}


def _phase(table: pa.Table, *phases: str) -> pa.Table:
    return table.filter(pc.is_in(table["phase"], pa.array(phases)))


def _phase_tallies(table: pa.Table, keys: list[str]) -> tuple[dict, dict]:
    """Read tallies keyed by ``(*keys, writer, reader)``, write tallies by ``(*keys, writer)``."""
    reads = _tallies(_phase(table, "read", GOLDEN), [*keys, "writer", "reader"])
    writes = _tallies(_phase(table, "write"), [*keys, "writer"])
    return reads, writes


def _of_format(table: pa.Table, fmt: str | None) -> pa.Table:
    return table if fmt is None else table.filter(pc.equal(table["format"], fmt))


def run_grid(summary: ReportSummary, fmt: str | None = None) -> Grid:
    """The writer x reader grid of the whole run, or of its cells of format `fmt`."""
    table = _of_format(summary.table, fmt).select(["cell_id", "phase", "writer", "reader", "outcome"])
    reads, writes = _phase_tallies(table, [])
    return Grid(
        tag=None,
        writers=summary.writers_of(fmt),
        readers=summary.readers_of(fmt),
        reads=reads,
        writes={w: t for (w,), t in writes.items()},
    )


def format_grids(summary: ReportSummary) -> dict[str, Grid]:
    """One writer x reader grid per format of the run: a Parquet reader and an ORC reader
    of one engine are different code, and their files are not interchangeable."""
    return {fmt: run_grid(summary, fmt) for fmt in summary.formats}


def explode_features(table: pa.Table) -> pa.Table:
    """One row per (cell, feature tag): columns cell_id, phase, writer, reader, outcome, tag."""
    cols = table.select(["cell_id", "phase", "writer", "reader", "outcome", "features"])
    cols = cols.combine_chunks()
    features = cols["features"]
    parents = pc.list_parent_indices(features)
    exploded = cols.drop_columns(["features"]).take(parents)
    exploded = exploded.append_column("tag", pc.list_flatten(features))
    return exploded.filter(pc.is_valid(exploded["tag"]))


def feature_grids(summary: ReportSummary, fmt: str | None = None) -> dict[str, Grid]:
    """One grid per feature tag (of the cells of format `fmt`, when given), sorted by tag."""
    table = _of_format(summary.table, fmt)
    read_tallies, write_tallies = _phase_tallies(explode_features(table), ["tag"])
    reads: dict[str, dict[tuple[str, str], Tally]] = {}
    writes: dict[str, dict[str, Tally]] = {}
    for (tag, w, r), t in read_tallies.items():
        reads.setdefault(tag, {})[(w, r)] = t
    for (tag, w), t in write_tallies.items():
        writes.setdefault(tag, {})[w] = t
    return {
        tag: Grid(
            tag=tag,
            writers=summary.writers_of(fmt),
            readers=summary.readers_of(fmt),
            reads=reads.get(tag, {}),
            writes=writes.get(tag, {}),
        )
        for tag in sorted({*reads, *writes})
    }


OTHER_PREFIX = "other"


def tag_prefix(tag: str) -> str:
    """``"encoding:PLAIN"`` -> ``"encoding"``; a tag without ``:`` (``"bloom"``) -> ``"other"``."""
    prefix, sep, _ = tag.partition(":")
    return prefix if sep and prefix else OTHER_PREFIX


def group_by_prefix(tags: Iterable[str]) -> list[tuple[str, list[str]]]:
    """Tags grouped by prefix, prefixes sorted with ``"other"`` last."""
    groups: dict[str, list[str]] = {}
    for tag in sorted(tags):
        groups.setdefault(tag_prefix(tag), []).append(tag)
    return sorted(groups.items(), key=lambda kv: (kv[0] == OTHER_PREFIX, kv[0]))
