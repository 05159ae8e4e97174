"""The status tables' outputs: front-page HTML, evidence pages, Markdown, the comparison with
the Parquet site's self-reported table, and the shields.io badges."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

from conformance.report import load_results, pages, summarise
from conformance.report.badges import SCHEMA_VERSION, badge_path, colour, write_badges
from conformance.report.self_reported import (
    BLANK,
    DOC,
    FEATURES,
    FULL,
    IMPLEMENTATIONS,
    NONE,
    READ_ONLY,
    disagreements,
    doc_text,
    implementation,
    self_reported_html,
    self_reported_json,
)
from conformance.report.status import status_tables
from conformance.report.status_html import status_section_html, write_status_pages
from conformance.report.status_markdown import status_markdown
from conformance.report.status_rows import PARQUET_ROWS

from .synthetic import make_cell, write_dataset

REPOSITORY = Path(__file__).resolve().parents[2]
ENUM = ("logical/enum-optional", ["physical:BYTE_ARRAY", "type:ENUM", "encoding:PLAIN"])
INT96 = ("physical/int96-optional", ["physical:INT96", "type:INT96", "encoding:PLAIN"])
W, R = "write", "read"


def _rows() -> list[dict]:
    return [
        make_cell(W, "reference", None, ENUM, "pass"),
        make_cell(R, "reference", "reference", ENUM, "pass"),
        make_cell(R, "reference", "pyarrow", ENUM, "pass"),
        make_cell(W, "reference", None, INT96, "pass"),
        make_cell(R, "reference", "reference", INT96, "pass"),
        make_cell(R, "reference", "duckdb", INT96, "mismatch", 'expected "1", got "0"'),
    ]


def _tables(tmp_path):
    return status_tables(summarise(load_results(write_dataset(_rows(), tmp_path / "results"))))


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag, attrs) -> None:
        self.hrefs += [v for k, v in attrs if tag == "a" and k == "href" and v]


def _links(text: str) -> list[str]:
    parser = _Links()
    parser.feed(text)
    return parser.hrefs


def test_every_square_links_to_an_evidence_page_that_is_written(tmp_path) -> None:
    tables = _tables(tmp_path)
    fragment = status_section_html(tables)
    written = {p.relative_to(tmp_path / "site").as_posix()
               for p in write_status_pages(tables, tmp_path / "site")}
    squares = [h for h in _links(fragment) if h.startswith("status/")]
    assert squares and set(squares) <= written
    assert pages.status_page("parquet", "duckdb", "physical-int96") in written


def test_an_evidence_page_links_each_cell_to_its_pair_page(tmp_path) -> None:
    tables = _tables(tmp_path)
    write_status_pages(tables, tmp_path / "site")
    rel = pages.status_page("parquet", "duckdb", "physical-int96")
    text = (tmp_path / "site" / rel).read_text(encoding="utf-8")
    cell = "read/reference/duckdb/physical/int96-optional"
    assert pages.href(rel, pages.cell_page("reference", "duckdb", cell)) in _links(text)
    assert "mismatch" in text and "&quot;1&quot;" in text


def test_the_front_page_fragment_stays_small(tmp_path) -> None:
    """A few hundred bytes per square at most, whatever the number of cells behind it."""
    tables = _tables(tmp_path)
    squares = sum(len(t.rows) * len(t.engines) for t in tables.values())
    assert len(status_section_html(tables).encode()) < 400 * squares


def test_the_markdown_has_a_column_per_engine_at_its_version(tmp_path) -> None:
    text = "\n".join(status_markdown(_tables(tmp_path)))
    assert "| Feature | reference@0.1.0 | duckdb@1.1.3 | pyarrow@17.0.0 |" in text
    assert "| INT96 | RW | \u2717 1 |" in text
    assert "conformance score" in text


def test_a_claimed_read_measured_wrong_and_a_denied_read_measured_correct_disagree(tmp_path) -> None:
    found = disagreements(_tables(tmp_path)["parquet"])
    by_key = {(d.engine, d.feature, d.side): d for d in found}
    duckdb = by_key[("duckdb", "physical-int96", "read")]  # the site: duckdb INT96 (R)
    assert (duckdb.claimed, duckdb.measured) == (READ_ONLY, "wrong")
    assert duckdb.evidence() == ("read/reference/duckdb/physical/int96-optional",)
    pyarrow = by_key[("pyarrow", "logical-enum", "read")]  # the site: arrow ENUM ❌
    assert (pyarrow.claimed, pyarrow.measured) == (NONE, "ok")


def test_the_comparison_renders_in_html_and_json(tmp_path) -> None:
    tables = _tables(tmp_path)
    html = self_reported_html(tables)
    assert pages.status_page("parquet", "duckdb", "physical-int96") in _links(html)
    data = self_reported_json(tables)
    assert {d["engine"] for d in data["disagreements"]} >= {"duckdb", "pyarrow"}
    assert all(s["commit"] for s in data["sources"])


def test_the_docs_page_is_generated_from_the_data() -> None:
    assert (REPOSITORY / DOC).read_text(encoding="utf-8") == doc_text()


def test_the_recorded_table_has_every_site_row_and_known_statuses() -> None:
    keys = {r.key for r in PARQUET_ROWS}
    assert {f for _, f, _ in FEATURES} <= keys | {"api-parquet-summary-file"}
    for impl in IMPLEMENTATIONS:
        assert set(impl.statuses.values()) <= {FULL, READ_ONLY, "write", NONE, BLANK}, impl.name
    assert implementation("duckdb").status("physical-int96") == READ_ONLY
    assert implementation("arrow").status("api-external-column-data") == BLANK


def test_badges_follow_the_shields_endpoint_schema(tmp_path) -> None:
    tables = _tables(tmp_path)
    paths = write_badges(tables, tmp_path / "site")
    assert (tmp_path / "site" / badge_path("duckdb", "parquet")) in paths
    for path in paths:
        data = json.loads(path.read_text(encoding="utf-8"))
        assert set(data) == {"schemaVersion", "label", "message", "color"}
        assert data["schemaVersion"] == SCHEMA_VERSION == 1
        assert all(isinstance(data[k], str) and data[k] for k in ("label", "message", "color"))
    reference = json.loads((tmp_path / "site" / badge_path("reference", "parquet")).read_text())
    assert reference == {"schemaVersion": 1, "label": "Parquet conformance",
                         "message": "100/100 \u00b7 reference 0.1.0", "color": "brightgreen"}


def test_badge_colours_step_down_with_the_score() -> None:
    assert [colour(s) for s in (100, 95, 90, 75, 60, 40, 10, None)] == [
        "brightgreen", "brightgreen", "green", "yellowgreen", "yellow", "orange", "red",
        "lightgrey"]
