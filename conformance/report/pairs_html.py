"""``pairs/``: every cell of one writer x reader pair, the evidence every other page links to.

One page per (writer, reader) pair of the grid, per writer's write phase and per reader of
the bad-file corpus (writer ``bad-files``). A page lists the cells that failed first, each
with its outcome, feature tags, file and detail (cut at ``DETAIL_LIMIT``; the whole text
is in ``results.json`` and ``results.parquet``), then the cells that did not run with
their reason, then the cells that passed, one line each. Every row is anchored by its
cell id (``pages.cell_anchor``), so a status square, a failure group or a findings entry
links to the very cell. Opened with ``?tag=T`` (from a feature grid), a few lines of
script show only the cells tagged ``T``; without script the whole page shows.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from .dataset import Cell, ReportSummary, engine_order
from .grid import NOT_PERFORMED
from .outcomes import PASS, severity
from .pages import badge, cell_anchor, esc, pair_page, write_page
from .text import first_line, truncate

DETAIL_LIMIT = 20_000
"""Characters of a detail shown in a page; the rest is in results.json."""
DEFAULT_WORKDIR = "work"  # `conformance run --workdir`'s default: the files are under <it>/<run id>/

_FILTER_JS = """
(function () {
  var tag = new URLSearchParams(location.search).get("tag");
  if (!tag) return;
  var shown = 0;
  document.querySelectorAll("tr[data-features]").forEach(function (tr) {
    var ok = JSON.parse(tr.getAttribute("data-features")).indexOf(tag) >= 0;
    tr.hidden = !ok;
    if (ok) shown++;
  });
  var note = document.getElementById("filter");
  note.hidden = false;
  note.querySelector(".tag").textContent = tag;
  note.querySelector(".n").textContent = shown;
})();
"""

_FILTER_NOTE = ('<p class="filter" id="filter" hidden>Showing the <span class="n"></span> cells '
                'tagged <code class="tag"></code>. <a href="?">show all</a></p>')


def _key(cell: Cell) -> tuple[str, str | None]:
    return (cell.writer, None if cell.phase == "write" else cell.reader)


def cells_by_pair(cells: Iterable[Cell]) -> dict[tuple[str, str | None], list[Cell]]:
    """Cells keyed by (writer, reader); a write cell's reader is None."""
    pairs: dict[tuple[str, str | None], list[Cell]] = {}
    for cell in cells:
        pairs.setdefault(_key(cell), []).append(cell)
    return pairs


def _features(cell: Cell) -> str:
    return esc(json.dumps(list(cell.features)))


def _file(cell: Cell) -> str:
    if not cell.file:
        return '<span class="muted">&mdash;</span>'
    title = f' title="sha256 {esc(cell.file_sha256)}"' if cell.file_sha256 else ""
    return f"<code{title}>{esc(cell.file)}</code>"


def _inspect(cell: Cell) -> str:
    """The command that shows what is in the cell's file (run from the folder the run's
    ``--workdir`` is in; ``work`` by default)."""
    if not cell.file:
        return ""
    command = f"conformance inspect {DEFAULT_WORKDIR}/{cell.run_id}/{cell.file}"
    return f'<div class="muted" title="what is in the file">{esc(command)}</div>'


def _failed_row(cell: Cell) -> str:
    return (f'<tr id="{cell_anchor(cell.cell_id)}" data-features="{_features(cell)}">'
            f"<td><code>{esc(cell.case_id)}</code></td><td>{badge(cell.outcome)}</td>"
            f'<td class="tags">{esc(", ".join(cell.features))}</td><td>{_file(cell)}'
            f"{_inspect(cell)}</td><td><pre>{esc(truncate(cell.detail, DETAIL_LIMIT))}</pre></td></tr>")


def _short_row(cell: Cell) -> str:
    reason = esc(first_line(cell.detail)) if cell.detail else ""
    return (f'<tr id="{cell_anchor(cell.cell_id)}" data-features="{_features(cell)}">'
            f"<td><code>{esc(cell.case_id)}</code></td><td>{badge(cell.outcome)}</td>"
            f"<td>{reason}</td></tr>")


def _table(rows: list[str], wide: bool) -> str:
    if wide:
        head = ('<table class="fails"><colgroup><col class="c-case"><col class="c-outcome">'
                '<col class="c-tags"><col class="c-file"><col></colgroup><thead><tr><th>Case</th>'
                "<th>Outcome</th><th>Features</th><th>File</th><th>Detail</th></tr></thead>")
    else:
        head = "<table><thead><tr><th>Case</th><th>Outcome</th><th>Reason</th></tr></thead>"
    return f"{head}<tbody>{''.join(rows)}</tbody></table>"


def pair_body(cells: list[Cell]) -> str:
    ordered = sorted(cells, key=lambda c: (severity(c.outcome), c.case_id, c.cell_id))
    failed = [c for c in ordered if c.outcome != PASS and c.outcome not in NOT_PERFORMED]
    idle = [c for c in ordered if c.outcome in NOT_PERFORMED]
    passed = [c for c in ordered if c.outcome == PASS]
    parts = [_FILTER_NOTE,
             f"<p>{len(passed)} passed, {len(failed)} failed, {len(idle)} did not run.</p>"]
    for title, rows, wide in (("Failed", [_failed_row(c) for c in failed], True),
                              ("Did not run", [_short_row(c) for c in idle], False),
                              ("Passed", [_short_row(c) for c in passed], False)):
        if rows:
            parts += [f"<h2>{title} ({len(rows)})</h2>", _table(rows, wide)]
    return "\n".join(parts)


def _title(writer: str, reader: str | None, first: Cell) -> str:
    if reader is None:
        return f"{writer} {first.writer_version} writes"
    return f"{writer} {first.writer_version} \u2192 {reader} {first.reader_version or ''}".strip()


def write_pair_pages(summary: ReportSummary, out: Path) -> None:
    """One page per pair of the run (``pages.pair_page``)."""
    pairs = cells_by_pair(summary.cells)
    for (writer, reader), cells in sorted(
            pairs.items(), key=lambda kv: (engine_order(kv[0][0]), engine_order(kv[0][1] or ""))):
        rel = pair_page(writer, reader)
        write_page(out, rel, _title(writer, reader, cells[0]), pair_body(cells), script=_FILTER_JS)
