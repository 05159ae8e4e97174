"""`conformance coverage` and the report's spec-coverage section (conformance.report.spec_coverage)."""

from __future__ import annotations

import json

from conformance.cli import main
from conformance.report import pages
from conformance.report.spec_coverage import (
    MD_UNCOVERED_PER_TEXT,
    CoverageReport,
    coverage_markdown,
    write_coverage_page,
)
from conformance.specs.citations import Heading
from conformance.specs.coverage import Text, compute
from conformance.specs.features_versions import feature_coverage

TOY = "toy.txt"
MANY = MD_UNCOVERED_PER_TEXT + 3


def _toy_report() -> CoverageReport:
    gaps = [Heading(2, f"Gap {i}") for i in range(MANY)]
    index = {TOY: [Heading(1, "Top"), Heading(2, "Cited <b>"), *gaps]}
    sections = compute(index, [Text(TOY, "parquet")], [("case/one", f"{TOY}: Top, Cited <b>")])
    return CoverageReport(sections, tuple(feature_coverage([])))


def test_the_plain_text_names_every_text_and_the_features_table(capsys) -> None:
    assert main(["coverage"]) == 0
    out = capsys.readouterr().out
    for name in ("ORCv1.md", "parquet.thrift", "Uncovered sections", "Features and Versions",
                 "Size statistics"):
        assert name in out


def test_the_json_parses_and_the_format_filter_keeps_one_format(capsys) -> None:
    assert main(["coverage", "--json", "--format", "orc"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {t["format"] for t in doc["texts"]} == {"orc"}
    assert "features_and_versions" not in doc  # the page is Parquet's
    orc_v1 = next(t for t in doc["texts"] if t["spec"] == "ORCv1.md")
    assert orc_v1["covered"] + orc_v1["through_subsections"] + orc_v1["uncovered"] == orc_v1["total"] > 0


def test_the_page_lists_each_covered_section_with_its_cases_and_what_the_run_exercised(tmp_path) -> None:
    path = write_coverage_page(tmp_path, case_ids_in_run={"case/one"}, report=_toy_report())
    assert path == tmp_path / pages.COVERAGE
    html = path.read_text(encoding="utf-8")
    assert "<code>case/one</code>" in html and "this run" in html
    assert "Cited &lt;b&gt;" in html and "Cited <b>" not in html  # spec text escaped
    assert "Gap 0" in html and f"Gap {MANY - 1}" in html  # every uncovered section


def test_the_markdown_is_bounded_and_says_what_the_run_exercised() -> None:
    lines = coverage_markdown({"case/one"}, report=_toy_report())
    assert lines[0] == "## Specification coverage"
    assert f"| {TOY} | 1 | 1 | {MANY} | {MANY + 2} | 1 |" in lines
    uncovered = next(line for line in lines if line.startswith(f"- {TOY}:"))
    assert uncovered.endswith(f"and {MANY - MD_UNCOVERED_PER_TEXT} more")
