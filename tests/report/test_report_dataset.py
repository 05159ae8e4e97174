"""Loading the results dataset: tolerant of how parts were written, strict about the contract."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conformance.report import RESULTS_SCHEMA, load_results, summarise, write_reports
from conformance.report.grid import tag_prefix
from conformance.report.text import first_lines, visible_controls

from .synthetic import INT32, make_cell, synthetic_rows, write_dataset


def test_parts_are_merged_sorted_and_markers_ignored(results_dir):
    table = load_results(results_dir)
    assert table.schema == RESULTS_SCHEMA
    assert table.num_rows == 17
    ids = table["cell_id"].to_pylist()
    assert ids == sorted(ids)


def test_spark_style_parts_are_cast_to_the_schema(tmp_path):
    """Spark names list items 'element'; an all-null reader column may be typed null."""
    results = tmp_path / "results"
    results.mkdir()
    rows = [make_cell("write", "spark", None, INT32, "pass")]
    fields = []
    for f in RESULTS_SCHEMA:
        if pa.types.is_list(f.type):
            fields.append(pa.field(f.name, pa.list_(pa.field("element", pa.string()))))
        elif f.name in ("reader", "reader_version"):
            fields.append(pa.field(f.name, pa.null()))
        else:
            fields.append(f)
    pq.write_table(pa.Table.from_pylist(rows, schema=pa.schema(fields)), results / "part-0.parquet")
    read = [make_cell("read", "spark", "pyarrow", INT32, "pass")]
    pq.write_table(pa.Table.from_pylist(read, schema=RESULTS_SCHEMA), results / "part-1.parquet")
    (results / ".part-0.parquet.crc").write_bytes(b"not parquet")
    table = load_results(results)
    assert table.schema == RESULTS_SCHEMA
    assert table.num_rows == 2
    assert summarise(table).engines == {"pyarrow": ("17.0.0",), "spark": ("9.9",)}


def test_single_consolidated_file_can_be_reloaded(report):
    summary, out = report
    again = summarise(load_results(out / "results.parquet"))
    assert again.counts == summary.counts
    assert again.cells == summary.cells


def test_empty_dataset_still_reports(tmp_path):
    summary = write_reports(write_dataset([], tmp_path / "results"), tmp_path / "out")
    assert summary.total == 0 and sum(summary.counts.values()) == 0
    page = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert "<dt>Cells</dt><dd>0</dd>" in page and "no reference &rarr; reference cells" in page


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"outcome": "exploded"}, "unknown value"),
        ({"phase": "verify"}, "unknown value"),
        ({"run_id": None}, "run_id"),
        ({"reader": None}, "without a reader"),
    ],
)
def test_contract_violations_are_rejected(tmp_path, change, message):
    rows = synthetic_rows()
    rows[-1] = {**rows[-1], **change}
    with pytest.raises(ValueError, match=message):
        load_results(write_dataset(rows, tmp_path / "results"))


def test_missing_dataset(tmp_path):
    with pytest.raises(FileNotFoundError):
        load_results(tmp_path / "nowhere")


def test_text_sanitising():
    assert visible_controls("a\x01b\r\nc\x7f\ud800\t") == "a\\x01b\nc\\x7f\\ud800\t"
    assert first_lines("\nfirst\n\nsecond\nthird\nfourth", 2, 5) == [
        "first",
        "se...",
        "... (2 more lines)",
    ]
    assert tag_prefix("encoding:PLAIN") == "encoding"
    assert tag_prefix("bloom") == "other"
