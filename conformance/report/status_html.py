"""The status tables in HTML: the front page's compact tables, the score tables, and one
evidence page per measured square (``status/<format>/<engine>/<row>.html``) listing the
cells behind it, each linking to its row on its pair's page.

The front-page fragment stays small whatever the size of the run: a square is a short
label and a colour (docs/report.md, 'Status tables'); its cells live on its evidence page.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from conformance.formats import display_name

from .dataset import Cell
from .outcomes import OUTCOMES, PASS, severity
from .pages import INDEX, badge, cell_page, esc, href, slug, status_page, write_page
from .status import (
    STATE_BOTH,
    STATE_NO_DATA,
    STATE_READS,
    STATE_UNSUPPORTED,
    STATE_WRITES,
    STATE_WRONG,
    Side,
    Square,
    StatusTable,
)
from .status_rows import READ, StatusRow

DETAIL_CHARS = 240  # of a cell's detail on an evidence page
MAX_PASSES_LISTED = 200  # passing cells listed on an evidence page; every failing one is

STATE_LABELS: Mapping[str, str] = {
    STATE_BOTH: "RW", STATE_READS: "R", STATE_WRITES: "W", STATE_WRONG: "\u2717",
    STATE_UNSUPPORTED: "n/s", STATE_NO_DATA: "",
}
STATE_MEANINGS: Mapping[str, str] = {
    STATE_BOTH: "reads and writes the feature correctly",
    STATE_READS: "reads every writer's files of the feature correctly (writes: none or not supported)",
    STATE_WRITES: "writes files the reference and the validator accept (reads: none or not supported)",
    STATE_WRONG: "at least one cell wrong: crash, timeout, error, wrong values or flaky (count shown)",
    STATE_UNSUPPORTED: "declared not supported, cleanly (the reason is on its page)",
    STATE_NO_DATA: "no cell measures it",
}
PARTIAL_MARK = "*"
PARTIAL_MEANING = "some variants of the feature are declared not supported beside passing ones"
NOT_ON_SITE = "\u2020"  # a row the Parquet site's table lacks
NBSP = "\u00a0"

# Okabe-Ito colours, as the outcome palette of pages.COLOURS.
STATE_COLOURS: Mapping[str, tuple[str, str]] = {
    STATE_BOTH: ("#009e73", "#000000"),
    STATE_READS: ("#9ad9c0", "#000000"),
    STATE_WRITES: ("#9ad9c0", "#000000"),
    STATE_WRONG: ("#d55e00", "#ffffff"),
    STATE_UNSUPPORTED: ("#56b4e9", "#000000"),
    STATE_NO_DATA: ("#f2f2f2", "#666666"),
}

_CSS = """
table.status td.st { text-align: center; white-space: nowrap; padding: 0; min-width: 2.6rem; }
table.status td.st a, table.status td.st span { display: block; padding: .15rem .3rem;
  color: inherit; text-decoration: none; }
table.status tr.grp th { background: #e8e8e8; text-align: left; }
table.status tr.grp td { background: #e8e8e8; text-align: center; font-weight: 600; }
table.status th.row { font-weight: normal; min-width: 12rem; max-width: 20rem; }
table.status thead th { max-width: 7rem; font-size: .85em; }
table.status thead th .ver { display: block; font-weight: normal; color: #444;
  overflow-wrap: anywhere; }
"""


def _state_class(state: str) -> str:
    return "s-" + state.replace(" ", "-")


def status_style() -> str:
    """The style rules of the status tables (one class per square state)."""
    colours = "".join(f".{_state_class(s)} {{ background: {bg}; color: {fg}; }}\n"
                      for s, (bg, fg) in STATE_COLOURS.items())
    return f"<style>{_CSS}{colours}</style>"


def square_label(square: Square) -> str:
    """The short text of a square: ``RW``, ``R*``, ``✗ 3``, ``n/s``..."""
    state = square.state
    label = STATE_LABELS[state]
    if state == STATE_WRONG:
        return f"{label} {len(square.wrong_cells)}"
    return label + (PARTIAL_MARK if square.partial and state != STATE_UNSUPPORTED else "")


def square_title(table: StatusTable, square: Square) -> str:
    sides = ", ".join(f"{name}: {side.state}" for name, side in square.sides().items())
    reason = square.reason() if square.state == STATE_UNSUPPORTED else ""
    return f"{table.column(square.engine)}, {square.row.label}: {sides}" + (
        f" ({reason})" if reason else "")


def _row_label(row: StatusRow) -> str:
    mark = NOT_ON_SITE if not row.on_site else ""
    return f'<th class="row" title="{esc(row.spec)}">{esc(row.label)}{mark}</th>'


def _square_html(table: StatusTable, square: Square, rel: str) -> str:
    cls = _state_class(square.state)
    text = esc(square_label(square))
    if square.state == STATE_NO_DATA:
        return f'<td class="st {cls}"><span>{text}</span></td>'
    link = href(rel, status_page(table.format, square.engine, square.row.key))
    return (f'<td class="st {cls}"><a href="{link}" title="{esc(square_title(table, square))}">'
            f"{text}</a></td>")


def _legend() -> str:
    items = "".join(f'<span class="badge {_state_class(s)}">{esc(STATE_LABELS[s] or NBSP)}'
                    f"</span> {esc(meaning)}; " for s, meaning in STATE_MEANINGS.items())
    return (f'<p class="muted">{items}<b>{PARTIAL_MARK}</b> {esc(PARTIAL_MEANING)}; '
            f"{NOT_ON_SITE} a row the Parquet site's table lacks. Group rows give each "
            "engine's score (docs/report.md, 'Conformance score').</p>")


def status_table_html(table: StatusTable, rel: str = INDEX) -> str:
    """One format's compact table (rows x engines), each square linking to its evidence."""
    head = "".join(f'<th title="{esc(table.column(e))}">{esc(e)}'
                   f'<span class="ver">{esc(table.versions.get(e, ""))}</span></th>'
                   for e in table.engines)
    body = []
    for group, rows in table.groups():
        scores = "".join(f"<td>{esc(table.score(e, group).text)}</td>" for e in table.engines)
        body.append(f'<tr class="grp"><th>{esc(group)}</th>{scores}</tr>')
        body.extend(f"<tr>{_row_label(row)}"
                    + "".join(_square_html(table, table.square(row, e), rel) for e in table.engines)
                    + "</tr>" for row in rows)
    no_data = table.no_data_rows()
    missing = (f'<p class="muted">No data: {esc(", ".join(r.label for r in no_data))}.</p>'
               if no_data else "")
    return (f'<table class="status"><thead><tr><th>Feature</th>{head}</tr></thead>'
            f'<tbody>{"".join(body)}</tbody></table>{missing}')


def score_table_html(table: StatusTable) -> str:
    """Engines x row groups: each engine's score and how many rows measured it."""
    groups = [g for g, _ in table.groups()]
    head = "".join(f"<th>{esc(g)}</th>" for g in groups)
    body = []
    for engine in table.engines:
        cells = [table.score(engine, g) for g in groups] + [table.score(engine)]
        tds = "".join(f'<td title="{s.measured} of {s.total} rows measured, {s.wrong_rows} wrong">'
                      f"{esc(s.text)}</td>" for s in cells)
        body.append(f"<tr><th>{esc(table.column(engine))}</th>{tds}</tr>")
    return (f'<table class="scores"><thead><tr><th>Engine</th>{head}<th>All rows</th></tr>'
            f'</thead><tbody>{"".join(body)}</tbody></table>')


def status_section_html(tables: Mapping[str, StatusTable], rel: str = INDEX) -> str:
    """The front page's status section: per format, its table and its score table."""
    parts = [status_style(), _legend()]
    for fmt, table in tables.items():
        name = esc(display_name(fmt))
        parts.append(f'<h2 id="status-{slug(fmt)}">{name}: implementation status, measured</h2>')
        parts.append(status_table_html(table, rel))
        parts.append(f"<h3>{name}: conformance score</h3>")
        parts.append(score_table_html(table))
    return "\n".join(parts)


# --- evidence pages ----------------------------------------------------------------------


def _cell_rows(cells: Iterable[Cell], rel: str, findings: Mapping[str, str]) -> str:
    rows = []
    for c in sorted(cells, key=lambda c: (severity(c.outcome), c.case_id, c.writer, c.reader or "")):
        link = href(rel, cell_page(c.writer, c.reader, c.cell_id))
        detail = c.detail.splitlines()[0][:DETAIL_CHARS] if c.detail else ""
        finding = (f' <a href="{href(rel, findings[c.cell_id])}">finding</a>'
                   if c.cell_id in findings else "")
        rows.append(f'<tr><td>{badge(c.outcome)}{finding}</td><td><a href="{link}">{esc(c.case_id)}'
                    f"</a></td><td>{esc(c.writer)}</td><td>{esc(c.reader or '(write)')}"
                    f"</td><td>{esc(detail)}</td></tr>")
    return "".join(rows)


def _side_html(name: str, side: Side, rel: str, findings: Mapping[str, str]) -> str:
    if not side.cells:
        return f"<h2>{esc(name)}: no cell</h2>"
    counts = ", ".join(f"{o} {side.counts[o]}" for o in OUTCOMES if side.counts[o])
    passes = [c for c in side.cells if c.outcome == PASS]
    others = [c for c in side.cells if c.outcome != PASS]
    head = "<tr><th>Outcome</th><th>Case</th><th>Writer</th><th>Reader</th><th>Detail</th></tr>"
    parts = [f"<h2>{esc(name)}: {esc(side.state)} ({esc(counts)})</h2>"]
    if others:
        rows = _cell_rows(others, rel, findings)
        parts.append(f"<table><thead>{head}</thead><tbody>{rows}</tbody></table>")
    if passes:
        shown = passes[:MAX_PASSES_LISTED]
        more = (f'<p class="muted">{len(passes) - len(shown)} more passing cell(s): their pairs\' '
                "pages list them.</p>" if len(passes) > len(shown) else "")
        parts.append(f"<details><summary>{len(passes)} passing cell(s)</summary><table><thead>{head}"
                     f"</thead><tbody>{_cell_rows(shown, rel, findings)}</tbody></table>{more}</details>")
    return "".join(parts)


def _side_names(row: StatusRow) -> dict[str, str]:
    return {s: ("Reads" if s == READ else "Writes (its files, judged by the reference and the "
                "validator)") for s in row.sides}


def evidence_body(table: StatusTable, square: Square, rel: str,
                  findings: Mapping[str, str] = {}) -> str:
    """The body of one square's evidence page; a failing cell links to its entry of the
    findings ledger (``findings``: cell id -> site path)."""
    row = square.row
    back = href(rel, f"{INDEX}#status-{slug(table.format)}")
    state = f'<span class="badge {_state_class(square.state)}">{esc(square.state)}</span>'
    reason = square.reason() if square.state == STATE_UNSUPPORTED or square.partial else ""
    meta = [("State", state + (f" {PARTIAL_MARK} {esc(PARTIAL_MEANING)}" if square.partial else "")),
            ("Specification", esc(row.spec)), ("Group", esc(row.group))]
    if reason:
        meta.append(("Declared reason", esc(reason)))
    if row.note:
        meta.append(("Note", esc(row.note)))
    dl = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in meta)
    sides = "".join(_side_html(title, getattr(square, side), rel, findings)
                    for side, title in _side_names(row).items())
    return (f'{status_style()}<p><a href="{back}">Back to the status table</a></p>'
            f'<dl class="meta">{dl}</dl>{sides}')


def write_status_pages(tables: Mapping[str, StatusTable], out_dir: Path,
                       findings: Mapping[str, str] = {}) -> list[Path]:
    """Write the evidence page of every measured square (failing cells linking to their
    finding, ``findings``: cell id -> site path); returns the paths written."""
    written = []
    for table in tables.values():
        for row in table.rows:
            for engine in table.engines:
                square = table.square(row, engine)
                if square.state == STATE_NO_DATA:
                    continue
                rel = status_page(table.format, engine, row.key)
                title = f"{table.column(engine)}: {row.label} ({display_name(table.format)})"
                written.append(write_page(out_dir, rel, title,
                                          evidence_body(table, square, rel, findings)))
    return written
