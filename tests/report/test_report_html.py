"""index.html: grids with pass/total, escaped evidence, anchors that resolve, no duplication."""

from __future__ import annotations

import re
import shutil
import subprocess
from html.parser import HTMLParser

import pytest

from conformance.report import write_reports

from .synthetic import DELTA, INT32, make_cell, write_dataset

VOID = {"meta", "br", "col", "img", "input", "hr", "link", "wbr"}


class _Page(HTMLParser):
    """Collects ids, in-page links, tag balance and the squares of every grid table."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.hrefs: list[str] = []
        self.stack: list[str] = []
        self.unbalanced: list[str] = []
        self.grids: list[dict[tuple[str, str], dict]] = []
        self.scripts = 0
        self._grid: dict | None = None
        self._cols: list[str] = []
        self._row: list[dict] = []
        self._cell: dict | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "a" and a.get("href", "").startswith("#") and a["href"] != "#":
            self.hrefs.append(a["href"][1:])
        if tag == "script":
            self.scripts += 1
        if tag not in VOID:
            self.stack.append(tag)
        if tag == "table" and "grid" in (a.get("class") or "").split():
            self._grid, self._cols = {}, []
        elif self._grid is not None and tag == "tr":
            self._row = []
        elif self._grid is not None and tag in ("td", "th"):
            self._cell = {"text": "", "class": a.get("class", ""), "href": None, "tag": None}
        elif self._cell is not None and tag == "a":
            self._cell["href"], self._cell["tag"] = a.get("href"), a.get("data-tag")

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.unbalanced.append(tag)
        else:
            self.stack.pop()
        if self._grid is None:
            return
        if tag in ("td", "th") and self._cell is not None:
            self._row.append(self._cell)
            self._cell = None
        elif tag == "tr":
            if not self._cols:
                self._cols = [c["text"] for c in self._row]
            else:
                for col, cell in zip(self._cols[1:], self._row[1:], strict=True):
                    self._grid[(self._row[0]["text"], col)] = cell
        elif tag == "table":
            self.grids.append(self._grid)
            self._grid = None

    def handle_data(self, data):
        if self._cell is not None:
            sep = " " if self._cell["text"] and not self._cell["text"].endswith(" ") else ""
            self._cell["text"] += sep + data if data.strip() else ""


def parse(text: str) -> _Page:
    page = _Page()
    page.feed(text)
    page.close()
    return page


def test_page_is_self_contained_and_balanced(report):
    _, out = report
    text = (out / "index.html").read_text(encoding="utf-8")
    page = parse(text)
    assert page.unbalanced == [] and page.stack == []
    assert page.scripts == 1  # ours, and only ours
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", text)
    assert "<style>" in text and "@import" not in text
    missing = [h for h in page.hrefs if h not in page.ids]
    assert missing == []


def test_run_grid_squares(report):
    _, out = report
    grid = parse((out / "index.html").read_text(encoding="utf-8")).grids[0]
    assert grid[("reference", "reference")]["text"] == "2/2 pass"
    assert grid[("reference", "pyarrow")]["text"] == "1/2 mismatch"
    assert "o-mismatch" in grid[("reference", "pyarrow")]["class"]
    assert grid[("reference", "pyarrow")]["href"] == "#f__read__reference__pyarrow"
    assert grid[("reference", "duckdb")]["text"] == "0/2 crash"
    assert grid[("pyarrow", "pyarrow")]["text"] == "1/2 skipped"
    assert grid[("fastparquet", "duckdb")]["text"] == "0/1 unsupported"
    assert grid[("fastparquet", "pyarrow")]["href"] is None  # all pass: nothing to drill into
    assert grid[("pyarrow", "write phase")]["text"] == "1/2 error"
    assert grid[("pyarrow", "write phase")]["href"] == "#f__write__pyarrow__"
    assert "empty" in grid[("pyarrow", "reference")]["class"]
    assert grid[("all writers", "all reads")]["text"] == "5/11 crash"


def test_feature_grids_grouped_by_prefix(report):
    _, out = report
    text = (out / "index.html").read_text(encoding="utf-8")
    tags = sorted(set(INT32[1]) | set(DELTA[1]))
    assert text.count('<details class="feature">') == len(tags)
    for prefix in ("codec", "encoding", "page", "repetition", "type", "other"):
        assert f'<h3 id="tags-{prefix}">' in text
    assert text.index('id="tags-type"') < text.index('id="tags-other"')
    page = parse(text)
    assert len(page.grids) == 1 + len(tags)
    delta = next(
        g
        for g in page.grids[1:]
        if g[("reference", "pyarrow")]["tag"] == "encoding:DELTA_BYTE_ARRAY"
    )
    assert delta[("reference", "pyarrow")]["text"] == "0/1 mismatch"
    assert delta[("reference", "reference")]["text"] == "1/1 pass"


def test_details_are_escaped(report):
    _, out = report
    text = (out / "index.html").read_text(encoding="utf-8")
    assert "<script>alert" not in text
    assert "<b>DELTA_BYTE_ARRAY</b>" not in text
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;quoted&quot;" in text
    assert "&lt;b&gt;DELTA_BYTE_ARRAY&lt;/b&gt; &amp; friends\\x01" in text
    assert "\x01" not in text
    assert "bad &amp; worse" in text


def test_every_non_pass_cell_listed_once(report):
    summary, out = report
    text = (out / "index.html").read_text(encoding="utf-8")
    non_pass = [c for c in summary.cells if c.outcome != "pass"]
    assert text.count("<pre>") == len(non_pass) == 8
    # one section per (writer, reader) pair / writer write phase with a non-pass cell
    assert text.count('<section class="group"') == 7
    assert 'id="f__write__pyarrow__"' in text and 'id="f__read__reference__duckdb"' in text


def test_large_run_stays_linear(tmp_path):
    readers = ["reference", "pyarrow", "duckdb", "fastparquet", "spark"]
    rows = []
    for i in range(1000):
        case = (f"generated/case-{i:04d}", [f"type:T{i % 7}", f"encoding:E{i % 5}", "page:v1"])
        for reader in readers:
            outcome = "mismatch" if (i + len(reader)) % 9 == 0 else "pass"
            detail = "diff <x> & y\n" * 3 if outcome == "mismatch" else ""
            rows.append(make_cell("read", "pyarrow", reader, case, outcome, detail))
    summary = write_reports(write_dataset(rows, tmp_path / "results", parts=4), tmp_path / "out")
    assert summary.total == 5000
    text = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    non_pass = sum(1 for r in rows if r["outcome"] != "pass")
    assert text.count("<pre>") == non_pass
    assert len(text) < 3_000_000


@pytest.mark.skipif(shutil.which("node") is None, reason="node not installed")
def test_inline_script_is_valid_javascript(report, tmp_path):
    _, out = report
    text = (out / "index.html").read_text(encoding="utf-8")
    script = tmp_path / "page.js"
    script.write_text(re.search(r"<script>(.*)</script>", text, re.S).group(1))
    subprocess.run(["node", "--check", str(script)], check=True, timeout=30)
