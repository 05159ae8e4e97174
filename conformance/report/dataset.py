"""The results dataset: load it, check it against its contract, summarise it.

The matrix writes one row per cell into a directory of Parquet files
(``results/part-*.parquet``; files whose names start with ``_`` or ``.``,
such as Spark's ``_SUCCESS`` and ``.crc`` files, are ignored). Its schema is
``RESULTS_SCHEMA``; every report in this package is a query over that table.

``load_results`` reads the directory (or a single consolidated file, e.g. a
previous report's ``results.parquet``), casts every part to ``RESULTS_SCHEMA``
(a part written by Spark names its list items ``element``, a part whose
``reader`` column is all null may store it as type ``null``: both are fine)
and rejects rows that break the contract: a null in a required column, a
read cell without a reader, an unknown phase or outcome. Rows are sorted by
``(run_id, cell_id)`` so every report is deterministic whatever order the
parts were written in.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from .outcomes import OUTCOMES, PASS

RESULTS_SCHEMA = pa.schema(
    [
        pa.field("run_id", pa.string()),
        pa.field("cell_id", pa.string()),
        pa.field("phase", pa.string()),
        pa.field("case_id", pa.string()),
        pa.field("format", pa.string()),
        pa.field("features", pa.list_(pa.string())),
        pa.field("spec", pa.list_(pa.string())),
        pa.field("writer", pa.string()),
        pa.field("writer_version", pa.string()),
        pa.field("reader", pa.string()),
        pa.field("reader_version", pa.string()),
        pa.field("outcome", pa.string()),
        pa.field("detail", pa.string()),
        pa.field("duration_s", pa.float64()),
        pa.field("file", pa.string()),
        pa.field("file_sha256", pa.string()),
        pa.field("findings", pa.string()),
    ]
)
"""One row per cell. ``reader``/``reader_version`` are null on write cells."""

REQUIRED_COLUMNS = ("run_id", "cell_id", "phase", "case_id", "writer", "outcome")
# The writer x reader grid; a golden cell (conformance.golden.verify) is a read of a
# committed corpus file, its writer "golden/<writer>".
GOLDEN = "golden"
MATRIX_PHASES = ("write", "read", GOLDEN)
REJECT = "reject"  # a reader reading a bad file it must reject (conformance.golden.rejection)
PHASES = (*MATRIX_PHASES, REJECT)
READ_PHASES = ("read", GOLDEN, REJECT)  # cells with a reader
REFERENCE = "reference"
# A reader's reading mode follows its engine's name (``duckdb:filter``, the filtered reads
# of conformance.matrix.cells).
MODE_SEPARATOR = ":"


def base_engine(reader: str) -> str:
    """The engine behind a reading mode: ``duckdb`` for ``duckdb:filter``."""
    return reader.partition(MODE_SEPARATOR)[0]


@dataclass(frozen=True)
class Cell:
    """One row of the results dataset, as plain Python values.

    ``features`` and ``spec`` are tuples; a null ``detail`` becomes ``""``,
    a null or non-finite ``duration_s`` becomes ``0.0``.
    """

    run_id: str
    cell_id: str
    phase: str
    case_id: str
    format: str
    features: tuple[str, ...]
    spec: tuple[str, ...]
    writer: str
    writer_version: str
    reader: str | None
    reader_version: str | None
    outcome: str
    detail: str
    duration_s: float
    file: str | None
    file_sha256: str | None
    findings: str | None = None  # validator cells: JSON list of findings

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Cell:
        """A row of the results dataset, whose Arrow schema gives each column its type."""
        duration = row.get("duration_s")
        if not isinstance(duration, int | float) or not math.isfinite(duration):
            duration = 0.0
        return cls(
            run_id=row["run_id"],
            cell_id=row["cell_id"],
            phase=row["phase"],
            case_id=row["case_id"],
            format=row.get("format") or "",
            features=tuple(row.get("features") or ()),
            spec=tuple(row.get("spec") or ()),
            writer=row["writer"],
            writer_version=row.get("writer_version") or "",
            reader=row.get("reader"),
            reader_version=row.get("reader_version"),
            outcome=row["outcome"],
            detail=row.get("detail") or "",
            duration_s=float(duration),
            file=row.get("file"),
            file_sha256=row.get("file_sha256"),
            findings=row.get("findings"),
        )

    @property
    def reading_engine(self) -> str:
        """The reader of a read, golden or reject cell (a write cell has none)."""
        if self.reader is None:
            raise ValueError(f"cell {self.cell_id} ({self.phase}) has no reader")
        return self.reader

    @property
    def pair(self) -> str:
        """``"writer -> reader"`` for read cells, ``"writer"`` for write cells."""
        return f"{self.writer} -> {self.reader}" if self.phase in ("read", GOLDEN) else self.writer

    @property
    def is_reference_self_check(self) -> bool:
        """The reference reading what the reference wrote, a golden file (the corpus keeps
        only files it reads), or rejecting a bad file of the suite's corpus: a non-pass is
        the suite disagreeing with itself."""
        return self.reader == REFERENCE and (self.writer == REFERENCE or self.phase in (GOLDEN, REJECT))


@dataclass(frozen=True)
class ReportSummary:
    """What a report knows about a run; the input of every renderer.

    ``engines`` maps each engine name (as writer or reader) to the versions
    seen; ``counts`` has every outcome of ``OUTCOMES`` as a key (worst first);
    ``table`` is the normalised dataset the grids are queried from; ``files``
    maps each report file name to the path ``write_reports`` wrote it to;
    ``unavailable`` names the engines the run wanted but could not run, with why.
    """

    run_ids: tuple[str, ...]
    formats: tuple[str, ...]
    engines: Mapping[str, tuple[str, ...]]
    counts: Mapping[str, int]
    cells: tuple[Cell, ...]
    table: pa.Table = field(repr=False, compare=False)
    files: Mapping[str, Path] = field(default_factory=dict)
    unavailable: Mapping[str, str] = field(default_factory=dict)  # engine -> why it did not run
    # engine -> why its version is not the golden corpus's (conformance.golden.writer_versions)
    version_notes: Mapping[str, str] = field(default_factory=dict)

    @property
    def run_id(self) -> str:
        """The run id; several runs in one dataset are joined with ``", "``."""
        return ", ".join(self.run_ids)

    @property
    def total(self) -> int:
        return len(self.cells)

    @property
    def writers(self) -> tuple[str, ...]:
        """The writers of the writer x reader grid (not the bad-file corpus)."""
        return self.writers_of()

    @property
    def readers(self) -> tuple[str, ...]:
        """The readers of the writer x reader grid."""
        return self.readers_of()

    def writers_of(self, fmt: str | None = None) -> tuple[str, ...]:
        """The writers of the grid of format `fmt` (None: of every format)."""
        return _engines(c.writer for c in self.matrix_cells(fmt))

    def readers_of(self, fmt: str | None = None) -> tuple[str, ...]:
        return _engines(c.reader for c in self.matrix_cells(fmt) if c.reader is not None)

    def matrix_cells(self, fmt: str | None = None) -> tuple[Cell, ...]:
        return tuple(c for c in self.cells if c.phase in MATRIX_PHASES
                     and (fmt is None or c.format == fmt))

    def reject_cells(self) -> tuple[Cell, ...]:
        return tuple(c for c in self.cells if c.phase == REJECT)

    def roles(self, engine: str) -> list[str]:
        """What ``engine`` did in the run: writer, reader, bad-file reader, bad-file corpus."""
        rejects = self.reject_cells()
        return [role for role, names in (
            ("writer", self.writers), ("reader", self.readers),
            ("bad-file reader", {c.reader for c in rejects}),
            ("bad-file corpus", {c.writer for c in rejects})) if engine in names]

    def non_pass(self) -> tuple[Cell, ...]:
        return tuple(c for c in self.cells if c.outcome != PASS)

    def reference_failures(self) -> tuple[Cell, ...]:
        """Cells where the reference read its own file and did not pass."""
        return tuple(c for c in self.cells if c.is_reference_self_check and c.outcome != PASS)


def engine_order(name: str) -> tuple[int, str]:
    """Sort key for engine names: the reference first, then alphabetical."""
    return (0 if name == REFERENCE else 1, name)


def _engines(names: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(set(names), key=engine_order))


def load_results(path: str | Path) -> pa.Table:
    """Read the results dataset at ``path`` (a directory of parts, or one file).

    Returns a single table with exactly ``RESULTS_SCHEMA``, sorted by
    ``(run_id, cell_id)``. Raises FileNotFoundError if ``path`` does not
    exist and ValueError if a row breaks the dataset's contract.
    """
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"results dataset not found: {path}")
    table = ds.dataset(str(path), format="parquet", schema=RESULTS_SCHEMA).to_table()
    _validate(table, path)
    if table.num_rows:
        table = table.sort_by([("run_id", "ascending"), ("cell_id", "ascending")])
    return table.combine_chunks()


def _validate(table: pa.Table, path: Path) -> None:
    for name in REQUIRED_COLUMNS:
        nulls = table[name].null_count
        if nulls:
            raise ValueError(f"{path}: column {name!r} has {nulls} null value(s)")
    read_rows = table.filter(pc.is_in(table["phase"], pa.array(READ_PHASES)))
    if read_rows["reader"].null_count:
        raise ValueError(f"{path}: {read_rows['reader'].null_count} read cell(s) without a reader")
    for name, allowed in (("phase", PHASES), ("outcome", OUTCOMES)):
        seen = set(pc.unique(table[name]).to_pylist())
        unknown = sorted(seen - set(allowed))
        if unknown:
            raise ValueError(
                f"{path}: column {name!r} has unknown value(s) {unknown}; "
                f"expected one of {list(allowed)}"
            )


def summarise(table: pa.Table) -> ReportSummary:
    """Summarise a table returned by ``load_results``."""
    cells = tuple(Cell.from_row(row) for row in table.to_pylist())
    counts = dict.fromkeys(OUTCOMES, 0)
    if table.num_rows:
        for item in pc.value_counts(table["outcome"]).to_pylist():
            counts[item["values"]] = item["counts"]
    engines: dict[str, set[str]] = {}
    for cell in cells:
        engines.setdefault(cell.writer, set()).add(cell.writer_version)
        if cell.reader is not None:
            engines.setdefault(cell.reader, set()).add(cell.reader_version or "")
    return ReportSummary(
        run_ids=tuple(sorted({c.run_id for c in cells})),
        formats=tuple(sorted({c.format for c in cells if c.format})),
        engines={
            name: tuple(sorted(v for v in versions if v))
            for name, versions in sorted(engines.items(), key=lambda kv: engine_order(kv[0]))
        },
        counts=counts,
        cells=cells,
        table=table,
    )


def write_consolidated(table: pa.Table, path: str | Path) -> Path:
    """Write the whole dataset as one Parquet file (queryable by DuckDB, pyarrow, ...)."""
    path = Path(path)
    pq.write_table(table.cast(RESULTS_SCHEMA), path, compression="zstd")
    return path
