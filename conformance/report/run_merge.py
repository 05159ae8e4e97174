"""Several runs as one report, with each engine that ran in several versions named
``engine@version`` (`conformance report RUN_DIR RUN_DIR ...`; README, 'Version sweep').

A version sweep runs the matrix once per release of an engine (tox's ``sweep-*``
environments); merged, the report's grids have one column per release, so a reader sees
which release fixed or broke which cell. An engine with one version across the runs
keeps its plain name (the reference, Spark), so the report's own rules about it (the
reference's self-check) hold. A cell that several runs measured alike (the same phase,
case, writer and reader at the same versions) appears once: the last run's.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa

from conformance.golden.writer_versions import MODE_MARK, VERSION_MARK
from conformance.matrix.results import read_unavailable, write_unavailable

from .dataset import RESULTS_SCHEMA, load_results, write_consolidated

SEGMENT = "/"  # a cell id's separator (conformance.matrix.cells)
MERGED_RESULTS = "merged-results"  # the merged dataset's folder, beside the report


def write_merged(results: Sequence[Path], out: Path) -> Path:
    """The merged dataset of the runs' `results` folders, written to folder `out` (with the
    engines any run could not use); returns `out`."""
    out.mkdir(parents=True, exist_ok=True)
    write_consolidated(merge_runs([load_results(r) for r in results]), out / "part-0.parquet")
    unavailable = {name: why for r in results for name, why in read_unavailable(r).items()}
    write_unavailable(out, unavailable)
    return out


def merge_runs(tables: Sequence[pa.Table]) -> pa.Table:
    """One results table of `tables` (each a run's, as `load_results` gives it, in order)."""
    rows = [row for table in tables for row in table.to_pylist()]
    swept = _swept_engines(rows)
    merged: dict[str, dict] = {}
    for row in rows:
        renamed = _renamed(row, swept)
        merged[renamed["cell_id"]] = renamed
    return pa.Table.from_pylist(list(merged.values()), schema=RESULTS_SCHEMA)


def _swept_engines(rows: list[dict]) -> set[str]:
    """The engines that ran in more than one version across the rows."""
    versions: dict[str, set[str]] = {}
    for row in rows:
        for role in ("writer", "reader"):
            if row[role] is not None:
                versions.setdefault(_engine(row[role]), set()).add(row[f"{role}_version"] or "")
    return {name for name, seen in versions.items() if len(seen) > 1}


def _engine(name: str) -> str:
    """An engine's name without its mode ("duckdb:filter" is duckdb's filtered read)."""
    return name.partition(MODE_MARK)[0]


def _renamed(row: dict, swept: set[str]) -> dict:
    """`row` with each swept engine named engine@version, in its columns and its cell id."""
    versions = {_engine(row[role]): row[f"{role}_version"] for role in ("writer", "reader")
                if row[role] is not None and _engine(row[role]) in swept}
    if not versions:
        return row
    renamed = {"cell_id": SEGMENT.join(_versioned(s, versions) for s in row["cell_id"].split(SEGMENT))}
    for role in ("writer", "reader"):
        if row[role] is not None:
            renamed[role] = _versioned(row[role], versions)
    return {**row, **renamed}


def _versioned(name: str, versions: dict[str, str]) -> str:
    """`name` (an engine, with or without a mode) as engine@version[:mode] when swept."""
    engine, mark, mode = name.partition(MODE_MARK)
    return f"{engine}{VERSION_MARK}{versions[engine]}{mark}{mode}" if engine in versions else name
