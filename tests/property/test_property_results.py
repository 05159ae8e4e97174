"""Property examples feed the matrix's results dataset and report (issue 6 item 5)."""

from __future__ import annotations

import pyarrow.parquet as pq
from hypothesis import given, settings

from conformance.matrix.results import consolidate
from conformance.report import write_reports

from .hunt import Hunt
from .strategies import AREA, cases

EXAMPLES = 5


def test_every_example_is_a_write_and_a_read_cell_of_the_report(tmp_path):
    run_dir = tmp_path / "run"
    hunt = Hunt("reference", "reference", tmp_path / "work", tmp_path / "corpus", run_dir)

    @settings(max_examples=EXAMPLES, derandomize=True, database=None)
    @given(cases())
    def example(case):
        hunt.check(case)

    example()
    hunt.close()
    records = pq.read_table(consolidate(run_dir)).to_pylist()
    assert {(r["phase"], r["writer"], r["reader"]) for r in records} == {
        ("write", "reference", None), ("read", "reference", "reference")}
    assert all(r["case_id"].startswith(f"{AREA}/") and r["features"] and r["spec"] for r in records)
    assert {r["outcome"] for r in records} == {"pass"}
    assert all((run_dir / r["file"]).is_file() for r in records if r["phase"] == "read")
    summary = write_reports(run_dir / "results", tmp_path / "report")
    assert summary.counts["pass"] == len(records) and summary.run_ids == (hunt.run_id,)
    assert summary.files["index.html"].is_file()
