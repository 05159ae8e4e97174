"""The HTML report site: balanced offline pages, links that resolve, squares that show passes and
failures side by side, every non-pass cell's evidence once, pages that do not grow with the run."""

from __future__ import annotations

import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from conformance.report import write_reports
from conformance.report.pages import cell_anchor

from .synthetic import DELTA, INT32, make_cell, write_dataset

VOID = {"meta", "br", "col", "img", "input", "hr", "link", "wbr"}


class _Page(HTMLParser):
    """Collects ids, links, tag balance and the squares of every grid table."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.hrefs: list[str] = []
        self.stack: list[str] = []
        self.unbalanced: list[str] = []
        self.grids: list[dict[tuple[str, str], dict]] = []
        self.scripts: list[str] = []
        self._in_script = False
        self._grid: dict | None = None
        self._cols: list[str] = []
        self._row: list[dict] = []
        self._cell: dict | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "a" and a.get("href"):
            self.hrefs.append(a["href"])
        self._in_script = tag == "script"
        if tag not in VOID:
            self.stack.append(tag)
        if tag == "table" and "grid" in (a.get("class") or "").split():
            self._grid, self._cols = {}, []
        elif self._grid is not None and tag == "tr":
            self._row = []
        elif self._grid is not None and tag in ("td", "th"):
            self._cell = {"text": "", "class": a.get("class", ""), "href": None}
        elif self._cell is not None and tag == "a":
            self._cell["href"] = a.get("href")

    def handle_endtag(self, tag):
        self._in_script = False
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
        if self._in_script:
            self.scripts.append(data)
        if self._cell is not None and data.strip():
            sep = " " if self._cell["text"] else ""
            self._cell["text"] += sep + data.strip()


def parse(path: Path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    page.close()
    return page


def test_every_page_is_balanced_offline_and_its_links_resolve(report):
    _, out = report
    pages = {p: parse(p) for p in out.rglob("*.html")}
    assert {"index.html", "grid.html", "bad-files.html"} <= {p.name for p in pages}
    for path, page in pages.items():
        assert page.unbalanced == [] and page.stack == [], path
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"""(src|href)=["']?(https?:)?//""", text), path
        for link in page.hrefs:
            if link == "?":
                continue
            parts = urlsplit(link)
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            assert target.exists(), (path, link)
            if parts.fragment:
                assert parts.fragment in pages[target].ids, (path, link)


def test_run_grid_squares_show_passes_and_failures_side_by_side(report):
    _, out = report
    grid = parse(out / "grid.html").grids[0]
    assert grid[("reference", "reference")]["text"] == "2/2 all pass"
    assert grid[("reference", "pyarrow")]["text"] == "1/2 1 failed"
    assert "fails" in grid[("reference", "pyarrow")]["class"]
    assert grid[("reference", "pyarrow")]["href"] == "pairs/reference--pyarrow.html"
    assert grid[("reference", "duckdb")]["text"] == "0/2 2 failed"
    # one pass and one skipped cell: the square says the pass, not "skipped"
    assert grid[("pyarrow", "pyarrow")]["text"] == "1/1 1 not run"
    assert "all-pass" not in grid[("pyarrow", "pyarrow")]["class"]
    assert grid[("fastparquet", "duckdb")]["text"] == "none ran 1 not run"
    assert grid[("pyarrow", "write phase")]["text"] == "1/2 1 failed"
    assert grid[("pyarrow", "write phase")]["href"] == "pairs/pyarrow--write.html"
    assert "empty" in grid[("pyarrow", "reference")]["class"]
    assert grid[("all writers", "all reads")]["text"] == "5/9 4 failed, 2 not run"


def test_feature_grids_are_pages_of_their_own(report):
    _, out = report
    tags = sorted(set(INT32[1]) | set(DELTA[1]))
    pages = sorted((out / "features" / "parquet").glob("*.html"))
    assert len(pages) == len(tags)
    delta = parse(out / "features" / "parquet" / "encoding_3aDELTA_5fBYTE_5fARRAY.html").grids[0]
    assert delta[("reference", "pyarrow")]["text"] == "0/1 1 failed"
    assert delta[("reference", "pyarrow")]["href"].endswith(
        "pairs/reference--pyarrow.html?tag=encoding%3ADELTA_BYTE_ARRAY")
    assert delta[("reference", "reference")]["text"] == "1/1 all pass"
    text = (out / "grid.html").read_text(encoding="utf-8")
    for prefix in ("codec", "encoding", "page", "repetition", "type", "other"):
        assert f"<h4>{prefix}</h4>" in text


def test_details_are_escaped(report):
    _, out = report
    text = "".join(p.read_text(encoding="utf-8") for p in (out / "pairs").glob("*.html"))
    assert "<script>alert" not in text
    assert "<b>DELTA_BYTE_ARRAY</b>" not in text
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;quoted&quot;" in text
    assert "&lt;b&gt;DELTA_BYTE_ARRAY&lt;/b&gt; &amp; friends\\x01" in text
    assert "\x01" not in text
    assert "bad &amp; worse" in text


def test_every_cell_has_one_anchored_row_and_failures_their_detail(report):
    summary, out = report
    pages = [p.read_text(encoding="utf-8") for p in (out / "pairs").glob("*.html")]
    text = "".join(pages)
    for cell in summary.cells:
        assert text.count(f'id="{cell_anchor(cell.cell_id)}"') == 1, cell.cell_id
    failed = [c for c in summary.cells if c.outcome not in ("pass", "skipped", "unsupported")]
    assert text.count("<pre>") == len(failed) == 5
    crash = next(c for c in failed if c.outcome == "crash")
    assert f"conformance inspect work/{crash.run_id}/{crash.file}" in text


def test_a_wrong_status_square_links_its_failing_cells_to_their_finding(report):
    _, out = report
    page = out / "status" / "parquet" / "duckdb"
    links = [link for p in page.glob("*.html") for link in parse(p).hrefs if "findings.html#f-" in link]
    assert links  # duckdb crashed and timed out reading the reference's files
    ledger = parse(out / "findings.html")
    assert all(link.split("#")[1] in ledger.ids for link in links)


def test_engine_pages_say_what_each_engine_really_did(report):
    _, out = report
    page = (out / "engines" / "pyarrow.html").read_text(encoding="utf-8")
    # pyarrow read 2 cells that ran (reference's INT32 pass + DELTA mismatch), its own
    # INT32 (pass) and fastparquet's INT32 (pass); its own DELTA read was skipped
    assert "<td>reads</td><td>3/4" in page
    assert "1 not run" in page
    # its failure (the DELTA mismatch) as a group of its own, and no declared gap
    assert "<h2>Its failures, by cause</h2>" in page and 'class="group"' in page
    front = (out / "index.html").read_text(encoding="utf-8")
    assert 'href="engines/pyarrow.html"' in front


def test_large_run_keeps_the_front_page_small(tmp_path):
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
    out = tmp_path / "out"
    assert (out / "index.html").stat().st_size < 60_000
    pairs = "".join(p.read_text(encoding="utf-8") for p in (out / "pairs").glob("*.html"))
    assert pairs.count("<pre>") == sum(1 for r in rows if r["outcome"] != "pass")
    assert max(p.stat().st_size for p in out.rglob("*.html")) < 1_000_000


@pytest.mark.skipif(shutil.which("node") is None, reason="node not installed")
def test_inline_scripts_are_valid_javascript(report, tmp_path):
    _, out = report
    scripts = {s for p in out.rglob("*.html") for s in parse(p).scripts if s.strip()}
    assert scripts
    for n, source in enumerate(scripts):
        script = tmp_path / f"page{n}.js"
        script.write_text(source)
        subprocess.run(["node", "--check", str(script)], check=True, timeout=30)
