"""The metadata validation section: the validator cells' findings, counted per writer
and kind, in Markdown, JSON and HTML."""

from __future__ import annotations

import json

import pytest

from conformance.report import write_reports
from conformance.report.findings import findings_by_writer

from .synthetic import INT32, make_cell, synthetic_rows, write_dataset

MIN_LIE = {"kind": "statistics.min_value", "severity": "untrue", "column": "x", "row_group": 0,
           "page": None, "message": "min 5 is greater than the smallest value 1"}
EMPTY_HISTOGRAM = {"kind": "size_statistics.repetition_level_histogram", "severity": "nonconforming",
                   "column": "x", "row_group": 1, "page": None, "message": "an empty list"}


def _validator_cell(writer: str, outcome: str, findings: list[dict], case=INT32) -> dict:
    cell = make_cell("read", writer, "validator", case, outcome, "\n".join(f["message"] for f in findings))
    cell["findings"] = json.dumps(findings)
    return cell


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    rows = [*synthetic_rows(),
            _validator_cell("pyarrow", "mismatch", [MIN_LIE, MIN_LIE, EMPTY_HISTOGRAM]),
            _validator_cell("reference", "pass", []),
            _validator_cell("duckdb", "error", [])]  # unreadable: not counted as checked
    results = write_dataset(rows, tmp_path_factory.mktemp("run") / "results")
    out = tmp_path_factory.mktemp("report") / "report"
    return write_reports(results, out), out


def test_findings_are_counted_per_writer_and_kind(report):
    tallies = findings_by_writer(report[0])
    assert list(tallies) == ["reference", "pyarrow"]
    assert (tallies["reference"].files, tallies["reference"].files_with_untrue) == (1, 0)
    assert tallies["pyarrow"].files_with_untrue == 1
    assert tallies["pyarrow"].counts == {("untrue", "statistics.min_value"): 2,
                                         ("nonconforming", EMPTY_HISTOGRAM["kind"]): 1}


def test_the_markdown_json_and_html_reports_carry_them(report):
    _, out = report
    markdown = (out / "REPORT.md").read_text()
    assert "## Metadata validation (per writer)" in markdown
    assert "statistics.min\\_value untrue ×2" in markdown
    document = json.loads((out / "results.json").read_text())
    assert document["metadata_findings"]["pyarrow"]["by_kind"]["statistics.min_value"] == {"untrue": 2}
    page = (out / "grid.html").read_text()
    assert 'id="metadata"' in page and "statistics.min_value <strong>untrue</strong> &times;2" in page
