"""The measured implementation-status tables: one per format, rows x engines, from the run.

Each square of a table (one engine, one row of ``status_rows``) is measured from the run's
cells, on two sides (docs/report.md, 'Status tables'):

- **reads**: the engine's reads (``FULL``, ``FILTER`` or ``REJECT``, as the row says) of
  every writer's files of the row, counting only files the reference reads correctly (a
  file the reference cannot read is the writer's fault, not the reader's) and the
  reference's checks of itself (its own files, the golden and bad files); a filtered read
  counts only on a file whose metadata the validator did not find untrue, but in the rows
  that measure untrue files on purpose;
- **writes**: the engine's write cells of the row and the judges' reads of the files it
  wrote: the reference's plain read and the validator's check of the file's metadata. A
  peer that cannot read a file the reference reads is wrong on its own reads side.

A side is ``ok`` (every cell passes), ``partial`` (cells pass and others are declared
unsupported, none wrong), ``unsupported`` (declared, none passes), ``wrong`` (one cell or
more crashed, timed out, raised, returned wrong values or was flaky) or absent (no cell).
Skipped cells and the suite's own harness errors never count, nor an unsupported cell
whose declared reason is another feature of its case, nor a filtered read the adapter
does not offer. The square's state follows from its sides: ``wrong``, ``both``, ``reads``,
``writes``, ``unsupported`` or ``no data``.

The conformance score (docs/report.md, 'Conformance score') gives each measured row a
fixed value from its sides' states and averages the values over the group's rows: a case
added to a row changes the score only when it changes the row's state.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .dataset import GOLDEN, REFERENCE, REJECT, Cell, ReportSummary, base_engine, engine_order
from .outcomes import HARNESS_ERROR, PASS
from .status_rows import FILTER, FULL, READ, ROWS, WRITE, StatusRow, groups, rows_of

VALIDATOR = "validator"  # the reader that checks a written file's metadata (matrix.cells)
UNSUPPORTED = "unsupported"
SKIPPED = "skipped"
NOT_JUDGED = (SKIPPED, HARNESS_ERROR)  # no verdict on the engine either way
JUDGES = (REFERENCE, VALIDATOR)
NOT_ENGINES = (VALIDATOR,)

# The state of one side.
SIDE_OK = "ok"
SIDE_PARTIAL = "partial"
SIDE_UNSUPPORTED = "unsupported"
SIDE_WRONG = "wrong"
SIDE_NONE = "none"

# The state of one square, shown in the table.
STATE_BOTH = "both"
STATE_READS = "reads"
STATE_WRITES = "writes"
STATE_WRONG = "wrong"
STATE_UNSUPPORTED = "unsupported"
STATE_NO_DATA = "no data"
STATES = (STATE_BOTH, STATE_READS, STATE_WRITES, STATE_WRONG, STATE_UNSUPPORTED, STATE_NO_DATA)

SIDE_VALUES: Mapping[str, float] = {
    SIDE_OK: 1.0, SIDE_PARTIAL: 0.5, SIDE_UNSUPPORTED: 0.0, SIDE_WRONG: 0.0,
}
"""The fixed value of each measured side's state in the score (a side with no cell has none)."""

# An adapter's declared gap names the feature tag it is about: "cannot write page:v1: ...".
_DECLARED_TAG = re.compile(r"^cannot (?:write|read) (\S+): ")
# A filtered read the adapter does not offer says nothing of the engine's pruning.
NO_FILTERED_READ = "has no filtered read in this adapter"

SCORE_SCALE = 100
MAX_LISTED_IDS = 50  # wrong cell ids kept per square in results.json
MAX_REASON = 200     # characters of an unsupported cell's declared reason


def declared_tag(detail: str) -> str | None:
    """The feature tag an unsupported cell's declared reason names, if it names one."""
    match = _DECLARED_TAG.match(detail)
    return match.group(1) if match else None


def _judged_for(row: StatusRow, cell: Cell) -> bool:
    """Does ``cell`` say something of ``row``? An unsupported cell does unless its reason
    is another feature of the case, or a filtered read the adapter does not offer."""
    if cell.outcome != UNSUPPORTED:
        return True
    if NO_FILTERED_READ in cell.detail:
        return False
    tag = declared_tag(cell.detail)
    return tag is None or row.measured.concerns(tag)


def _kind_of(cell: Cell) -> str | None:
    """The kind of read a read cell is (None for write cells and validator checks)."""
    if cell.phase == REJECT:
        return REJECT
    if cell.reader is None or cell.reader == VALIDATOR:
        return None
    return FULL if cell.reader == base_engine(cell.reader) else FILTER


@dataclass(frozen=True)
class Side:
    """The judged cells of one side of a square, and the state they give it."""

    cells: tuple[Cell, ...] = ()

    @property
    def counts(self) -> Counter:
        return Counter(c.outcome for c in self.cells)

    @property
    def wrong(self) -> tuple[Cell, ...]:
        return tuple(c for c in self.cells if c.outcome not in (PASS, UNSUPPORTED))

    @property
    def state(self) -> str:
        counts = self.counts
        if not self.cells:
            return SIDE_NONE
        if self.wrong:
            return SIDE_WRONG
        if not counts[PASS]:
            return SIDE_UNSUPPORTED
        return SIDE_PARTIAL if counts[UNSUPPORTED] else SIDE_OK

    def reason(self) -> str:
        """The most common declared reason of its unsupported cells ("" without any)."""
        reasons = Counter(c.detail.splitlines()[0][:MAX_REASON] if c.detail else ""
                          for c in self.cells if c.outcome == UNSUPPORTED)
        return reasons.most_common(1)[0][0] if reasons else ""


@dataclass(frozen=True)
class Square:
    """One engine's measurement of one row."""

    row: StatusRow
    engine: str
    read: Side = field(default_factory=Side)
    write: Side = field(default_factory=Side)

    def sides(self) -> dict[str, Side]:
        """The sides the row measures."""
        return {s: getattr(self, s) for s in self.row.sides}

    @property
    def state(self) -> str:
        states = {name: side.state for name, side in self.sides().items()}
        good = {name for name, s in states.items() if s in (SIDE_OK, SIDE_PARTIAL)}
        if SIDE_WRONG in states.values():
            return STATE_WRONG
        if good == {READ, WRITE}:
            return STATE_BOTH
        if good:
            return STATE_READS if READ in good else STATE_WRITES
        if SIDE_UNSUPPORTED in states.values():
            return STATE_UNSUPPORTED
        return STATE_NO_DATA

    @property
    def partial(self) -> bool:
        """Some variants of the row are declared unsupported beside passing ones."""
        return any(s.state == SIDE_PARTIAL for s in self.sides().values())

    @property
    def wrong_cells(self) -> tuple[Cell, ...]:
        return tuple(c for side in self.sides().values() for c in side.wrong)

    def reason(self) -> str:
        """The declared reason of its unsupported side(s)."""
        return next((r for s in self.sides().values() if (r := s.reason())), "")

    def value(self) -> float | None:
        """The row's fixed value in the score; None when no side has a cell."""
        values = [SIDE_VALUES[s.state] for s in self.sides().values() if s.state != SIDE_NONE]
        return sum(values) / len(values) if values else None

    def cells(self) -> tuple[Cell, ...]:
        return tuple(c for side in self.sides().values() for c in side.cells)


@dataclass(frozen=True)
class Score:
    """An engine's score over some rows: 0-100, over ``measured`` of ``total`` rows."""

    value: int | None  # None: no row measured
    measured: int
    total: int
    wrong_rows: int

    @staticmethod
    def of(squares: Iterable[Square]) -> Score:
        squares = list(squares)
        values = [v for s in squares if (v := s.value()) is not None]
        mean = round(SCORE_SCALE * sum(values) / len(values)) if values else None
        return Score(value=mean, measured=len(values), total=len(squares),
                     wrong_rows=sum(s.state == STATE_WRONG for s in squares))

    @property
    def text(self) -> str:
        return "no data" if self.value is None else f"{self.value}"

    def to_json(self) -> dict:
        return {"score": self.value, "rows_measured": self.measured, "rows": self.total,
                "rows_wrong": self.wrong_rows}


@dataclass(frozen=True)
class StatusTable:
    """One format's table: rows x engines, each square measured."""

    format: str
    rows: tuple[StatusRow, ...]
    engines: tuple[str, ...]
    versions: Mapping[str, str]
    squares: Mapping[tuple[str, str], Square]  # (row key, engine)

    def square(self, row: StatusRow, engine: str) -> Square:
        return self.squares.get((row.key, engine)) or Square(row=row, engine=engine)

    def column(self, engine: str) -> str:
        """``engine@version`` (the engine alone when it has no version, or when a merged
        version sweep already named it ``engine@version``: conformance.report.run_merge)."""
        version = self.versions.get(engine, "")
        return f"{engine}@{version}" if version and not engine.endswith(f"@{version}") else engine

    def groups(self) -> list[tuple[str, list[StatusRow]]]:
        return groups(self.rows)

    def no_data_rows(self) -> list[StatusRow]:
        """Rows no engine has a measurement of (no case in the catalogue, or none run)."""
        return [r for r in self.rows
                if all(self.square(r, e).state == STATE_NO_DATA for e in self.engines)]

    def score(self, engine: str, group: str | None = None) -> Score:
        """``engine``'s score over the rows of ``group`` (all rows when None)."""
        return Score.of(self.square(r, engine) for r in self.rows
                        if group is None or r.group == group)

    def to_json(self) -> dict:
        return {
            "format": self.format,
            "engines": [{"engine": e, "version": self.versions.get(e, ""),
                         "score": self.score(e).to_json(),
                         "groups": {g: self.score(e, g).to_json() for g, _ in self.groups()}}
                        for e in self.engines],
            "rows": [_row_json(self, row) for row in self.rows],
            "no_data_rows": [r.key for r in self.no_data_rows()],
        }


def _row_json(table: StatusTable, row: StatusRow) -> dict:
    squares = {}
    for engine in table.engines:
        sq = table.square(row, engine)
        wrong = sq.wrong_cells
        squares[engine] = {
            "state": sq.state, "partial": sq.partial,
            "sides": {name: side.state for name, side in sq.sides().items()},
            "wrong": len(wrong), "wrong_cells": [c.cell_id for c in wrong[:MAX_LISTED_IDS]],
            "reason": sq.reason() if sq.state == STATE_UNSUPPORTED else "",
        }
    return {"key": row.key, "group": row.group, "label": row.label, "spec": row.spec,
            "sides": list(row.sides), "on_site": row.on_site, "note": row.note,
            "squares": squares}


# --- measuring -------------------------------------------------------------------------


def _good_files(cells: Iterable[Cell]) -> set[tuple[str, str]] | None:
    """(writer, case) of the files the reference reads correctly; None when the reference
    read no file of the format (then every file counts)."""
    reference_reads = [c for c in cells if c.reader == REFERENCE and c.phase in ("read", GOLDEN)]
    if not reference_reads:
        return None
    return {(c.writer, c.case_id) for c in reference_reads if c.outcome == PASS}


def _untrue_metadata(cells: Iterable[Cell]) -> set[tuple[str, str]]:
    """(writer, case) of the files whose metadata the validator found untrue: a filtered
    read of one prunes on statistics or indexes its writer got wrong."""
    return {(c.writer, c.case_id) for c in cells
            if c.reader == VALIDATOR and c.outcome not in (PASS, *NOT_JUDGED)}


def _column_engines(cells: Iterable[Cell]) -> dict[str, str]:
    """The engines of a format's table (writers and readers, not the validator nor the
    corpora), each with the version its cells name."""
    versions: dict[str, str] = {}
    for c in cells:
        if c.phase == "write":
            versions.setdefault(c.writer, c.writer_version)
        elif c.reader is not None and c.reader not in NOT_ENGINES:
            versions.setdefault(base_engine(c.reader), c.reader_version or "")
    return dict(sorted(versions.items(), key=lambda kv: engine_order(kv[0])))


class _Collector:
    """The judged cells of every (row, engine, side) of one format."""

    def __init__(self, rows: tuple[StatusRow, ...], cells: list[Cell]) -> None:
        self.rows = rows
        self.good = _good_files(cells)
        self.untrue = _untrue_metadata(cells)
        # By case and tags: a read of the keyless view carries a tag its case's other cells lack.
        self.by_case: dict[tuple[str, tuple[str, ...]], list[StatusRow]] = {}
        self.sides: dict[tuple[str, str, str], list[Cell]] = {}

    def rows_of_case(self, cell: Cell) -> list[StatusRow]:
        key = (cell.case_id, cell.features)
        if key not in self.by_case:
            self.by_case[key] = [
                r for r in self.rows
                if r.selector is not None and r.selector.matches_case(cell.case_id, cell.features)]
        return self.by_case[key]

    def add(self, cell: Cell) -> None:
        if cell.outcome in NOT_JUDGED:
            return
        kind = _kind_of(cell)
        for row in self.rows_of_case(cell):
            if not _judged_for(row, cell):
                continue
            if kind is not None and READ in row.sides and row.measured.kind == kind \
                    and self._counts_as_read(cell, row):
                self._put(row, base_engine(cell.reading_engine), READ, cell)
            if WRITE in row.sides and row.measured.kind == FULL and self._judges_write(cell):
                self._put(row, cell.writer, WRITE, cell)

    def _counts_as_read(self, cell: Cell, row: StatusRow) -> bool:
        """A bad file, a file the reference reads correctly, or the reference's own check of
        itself; the reference failing on another writer's file judges that writer."""
        file = (cell.writer, cell.case_id)
        if _kind_of(cell) == FILTER and file in self.untrue and not row.measured.untrue:
            return False
        if cell.phase == REJECT or self.good is None or cell.is_reference_self_check:
            return True
        return file in self.good

    @staticmethod
    def _judges_write(cell: Cell) -> bool:
        """A write cell, or a judge's read of the file (never a golden or bad file)."""
        return cell.phase == "write" or (cell.phase == "read" and cell.reader in JUDGES)

    def _put(self, row: StatusRow, engine: str, side: str, cell: Cell) -> None:
        self.sides.setdefault((row.key, engine, side), []).append(cell)

    def square(self, row: StatusRow, engine: str) -> Square:
        return Square(row=row, engine=engine,
                      read=Side(tuple(self.sides.get((row.key, engine, READ), ()))),
                      write=Side(tuple(self.sides.get((row.key, engine, WRITE), ()))))


def status_table(summary: ReportSummary, fmt: str) -> StatusTable:
    """The status table of format ``fmt`` measured from the run's cells."""
    cells = [c for c in summary.cells if c.format == fmt]
    rows = rows_of(fmt)
    collector = _Collector(rows, cells)
    for cell in cells:
        collector.add(cell)
    versions = _column_engines(cells)
    engines = tuple(versions)
    squares = {(r.key, e): collector.square(r, e) for r in rows for e in engines}
    return StatusTable(format=fmt, rows=rows, engines=engines, versions=versions, squares=squares)


def status_tables(summary: ReportSummary) -> dict[str, StatusTable]:
    """One status table per format of the run that has rows, in ``status_rows.ROWS``'s order."""
    return {fmt: status_table(summary, fmt) for fmt in ROWS if fmt in summary.formats}


def tables_json(tables: Mapping[str, StatusTable]) -> dict:
    """The tables for results.json: ``{format: table.to_json()}``."""
    return {fmt: table.to_json() for fmt, table in tables.items()}
