"""A run of both formats: one writer x reader grid per format, each with that format's
engines (docs/architecture.md, 'Formats')."""

from __future__ import annotations

from conformance.report import write_reports
from conformance.report.dataset import load_results, summarise
from conformance.report.grid import format_grids

from .synthetic import INT32, make_cell, write_dataset

ORC_INTS = ("orc/types/int-edges", ["type:INT", "codec:NONE", "version:0.12"])


def _orc(cell: dict) -> dict:
    return {**cell, "format": "orc", "file": cell["file"] and cell["file"].replace(".parquet", ".orc")}


def _two_formats() -> list[dict]:
    return [
        make_cell("write", "fastparquet", None, INT32, "pass"),
        make_cell("read", "fastparquet", "duckdb", INT32, "pass"),
        _orc(make_cell("write", "pyorc", None, ORC_INTS, "pass")),
        _orc(make_cell("read", "pyorc", "pyarrow", ORC_INTS, "mismatch", "row 0 differs")),
    ]


def test_each_format_has_its_own_grid_of_its_own_engines(tmp_path):
    results = write_dataset(_two_formats(), tmp_path / "results")
    grids = format_grids(summarise(load_results(results)))
    assert list(grids) == ["orc", "parquet"]
    assert (grids["orc"].writers, grids["orc"].readers) == (("pyorc",), ("pyarrow",))
    assert (grids["parquet"].writers, grids["parquet"].readers) == (("fastparquet",), ("duckdb",))
    assert grids["orc"].read("pyorc", "pyarrow").counts == {"mismatch": 1}
    out = tmp_path / "report"
    write_reports(results, out)
    markdown = (out / "REPORT.md").read_text(encoding="utf-8")
    assert "## Writer x reader (ORC)" in markdown and "## Writer x reader (Parquet)" in markdown
    html = (out / "grid.html").read_text(encoding="utf-8")
    assert '<h2 id="grid-orc">ORC</h2>' in html and '<h2 id="grid-parquet">Parquet</h2>' in html
