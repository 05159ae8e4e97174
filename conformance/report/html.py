"""``index.html``: the run as one self-contained, offline static page.

Layout, top to bottom:

1. Header: run id, formats, number of cells, the reference self-check, the
   engines with their versions and roles, and the outcome counts, which also
   serve as the colour legend (swatch + name + meaning).
2. The writer x reader grid of the whole run: one row per writer, a
   "write phase" column (did the writer produce its files) then one column
   per reader, plus row and column totals. A square shows ``passes/total``
   and the name of its worst outcome, coloured by that outcome
   (Okabe-Ito / Tol colour-blind-safe palette; the text label means colour
   is never the only cue); the full breakdown is in its tooltip.
3. The writers' write phase: per writer, the count of each outcome.
4. The metadata validation per writer: the validator's findings by kind.
5. Bad files (must reject): per reader, what it did with the bad-file corpus
   (rejected, accepted, read its single reading, rejected cleanly, returned other
   rows, ...), and an anchored section per reader listing each file it failed on
   with the file's verdict (bad / acceptable), the fault and the evidence
   (``rejections``).
6. One grid per feature tag, each in a collapsible ``<details>`` whose
   summary shows the tag's pass ratio and worst outcome, grouped under a
   heading per tag prefix (``type``, ``encoding``, ... and ``other`` for
   tags without a prefix).
7. The non-pass cells of the grids, once each: one anchored section per (writer, reader)
   pair (and per writer for the write phase) with a row per cell: case id,
   outcome, feature tags, file, and the detail in a ``<pre>``.

Non-pass grid squares are links to their pair's section, so a failure is
rendered once however many grids count it. A square of a feature grid also
carries its tag; a few lines of inline JavaScript then show only that tag's
rows of the section (without JavaScript the link still works and shows the
whole pair). Every piece of text from the dataset is HTML-escaped, control
characters are shown as escapes, and very long details are cut (the full
text is in ``results.json``).
"""

from __future__ import annotations

import json
from pathlib import Path

from conformance.formats import display_name

from .dataset import REJECT, Cell, ReportSummary, engine_order
from .findings import VALIDATOR, findings_by_writer
from .grid import Grid, Tally, feature_grids, format_grids, group_by_prefix, run_grid
from .outcomes import DESCRIPTIONS, OUTCOMES, PASS, severity
from .pages import badge, esc, slug, style
from .rejections import VERDICTS, ReaderRejections, cell_verdict, fault, file_verdict, rejections_by_reader
from .text import truncate

DETAIL_LIMIT = 20_000
"""Characters of a detail shown in the page; the rest is in results.json."""


_JS = """
(function () {
  function filter(group, tag) {
    var shown = 0;
    group.querySelectorAll("tbody tr").forEach(function (tr) {
      var ok = !tag || JSON.parse(tr.getAttribute("data-features")).indexOf(tag) >= 0;
      tr.hidden = !ok;
      if (ok) shown++;
    });
    var note = group.querySelector(".filter");
    note.hidden = !tag;
    if (tag) {
      note.querySelector(".tag").textContent = tag;
      note.querySelector(".n").textContent = shown;
    }
  }
  document.addEventListener("click", function (event) {
    var a = event.target.closest("a, button");
    if (!a) return;
    if (a.classList.contains("show-all")) {
      event.preventDefault();
      filter(a.closest("section.group"), null);
    } else if (a.classList.contains("toggle-features")) {
      var open = a.getAttribute("data-open") === "1";
      document.querySelectorAll("details.feature").forEach(function (d) { d.open = open; });
    } else if ((a.getAttribute("href") || "").indexOf("#f__") === 0) {
      var group = document.getElementById(a.getAttribute("href").slice(1));
      if (group) filter(group, a.getAttribute("data-tag"));
    }
  });
})();
"""


def group_id(phase: str, writer: str, reader: str | None) -> str:
    """Anchor of the non-pass section of a (writer, reader) pair or a writer's write phase."""
    return f"f__{phase}__{slug(writer)}__{slug(reader or '')}"


def _square(tally: Tally, anchor: str, tag: str | None, extra_class: str = "") -> str:
    cls = f"sq {extra_class}".strip()
    if not tally.total:
        return f'<td class="{cls} empty" title="no cells">&mdash;</td>'
    worst = tally.worst
    inner = f'{tally.ratio}<span class="lbl">{worst}</span>'
    title = esc(tally.breakdown())
    if worst != PASS and anchor:
        data_tag = f' data-tag="{esc(tag)}"' if tag is not None else ""
        inner = f'<a href="#{anchor}"{data_tag}>{inner}</a>'
    else:
        inner = f'<span class="in">{inner}</span>'
    return f'<td class="{cls} o-{worst}" title="{title}">{inner}</td>'


def _grid_table(grid: Grid) -> str:
    tag = grid.tag
    head = [
        '<th scope="col">writer \\ reader</th>',
        '<th scope="col">write phase</th>',
        *(f'<th scope="col">{esc(r)}</th>' for r in grid.readers),
        '<th scope="col">all reads</th>',
    ]
    rows = []
    for w in grid.writers:
        cells = [f'<th scope="row">{esc(w)}</th>']
        cells.append(_square(grid.write(w), group_id("write", w, None), tag, "wphase"))
        cells += [_square(grid.read(w, r), group_id("read", w, r), tag) for r in grid.readers]
        cells.append(_square(grid.row_total(w), "", tag, "total"))
        rows.append("<tr>" + "".join(cells) + "</tr>")
    totals = [
        '<th scope="row">all writers</th>',
        _square(Tally.merge(grid.writes.values()), "", tag, "wphase"),
    ]
    totals += [_square(grid.column_total(r), "", tag) for r in grid.readers]
    totals.append(_square(grid.read_total(), "", tag, "total"))
    rows.append('<tr class="totals">' + "".join(totals) + "</tr>")
    return (
        '<table class="grid"><thead><tr>'
        + "".join(head)
        + "</tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )


def _header(summary: ReportSummary) -> str:
    self_check = [c for c in summary.cells if c.is_reference_self_check]
    failing = summary.reference_failures()
    if not self_check:
        check = '<span class="muted">no reference &rarr; reference cells in this run</span>'
    elif failing:
        worst_outcome = min((c.outcome for c in failing), key=severity)
        check = badge(worst_outcome, "FAILED") + (
            f" {len(failing)} of {len(self_check)} cells not pass"
        )
    else:
        check = badge(PASS, "OK") + f" all {len(self_check)} cells pass"
    meta = [
        ("Run", esc(summary.run_id) or '<span class="muted">(empty dataset)</span>'),
        ("Formats", esc(", ".join(summary.formats)) or "&mdash;"),
        ("Cells", str(summary.total)),
        ("Reference self-check", check),
    ]
    parts = [
        "<header>",
        "<h1>Conformance report</h1>",
        '<dl class="meta">',
        *(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in meta),
        "</dl>",
        '<h2 id="engines">Engines</h2>',
        _engines(summary),
        '<h2 id="outcomes">Outcomes</h2>',
        _legend(summary),
        "</header>",
    ]
    return "\n".join(parts)


def _engines(summary: ReportSummary) -> str:
    rows = []
    for name, versions in summary.engines.items():
        note = summary.version_notes.get(name)
        warning = f"; &#9888; {esc(note)}" if note else ""
        rows.append(
            f'<tr><th scope="row">{esc(name)}</th><td>{esc(", ".join(versions)) or "&mdash;"}'
            f"</td><td>{' + '.join(summary.roles(name))}{warning}</td></tr>"
        )
    for name, reason in summary.unavailable.items():
        rows.append(f'<tr><th scope="row">{esc(name)}</th><td>&mdash;</td>'
                    f"<td>unavailable: {esc(reason)}</td></tr>")
    return (
        "<table><thead><tr><th>Engine</th><th>Version</th><th>Role</th></tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )


def _legend(summary: ReportSummary) -> str:
    rows = [
        f"<tr><td>{badge(o)}</td><td>{summary.counts[o]}</td><td>{esc(DESCRIPTIONS[o])}</td></tr>"
        for o in OUTCOMES
    ]
    rows.append(f"<tr><th>total</th><th>{summary.total}</th><td></td></tr>")
    return (
        '<table class="legend"><thead><tr><th>Outcome (colour)</th><th>Cells</th>'
        "<th>Meaning</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>"
        '<p class="muted">Grid squares show passing cells / all cells and are coloured by '
        "their worst outcome, named under the ratio; hover for the breakdown, click a "
        "non-pass square for its cells.</p>"
    )


def _writers(summary: ReportSummary, grid: Grid) -> str:
    present = {o for w in grid.writers for o, n in grid.write(w).counts.items() if n}
    shown = [o for o in OUTCOMES if o in present or o in (PASS, "unsupported", "error")]
    head = "".join(f"<th>{badge(o)}</th>" for o in shown)
    rows = []
    for w in grid.writers:
        tally = grid.write(w)
        counts = "".join(f"<td>{tally.counts.get(o, 0)}</td>" for o in shown)
        if tally.total and tally.worst != PASS:
            link = f'<a href="#{group_id("write", w, None)}">non-pass cells</a>'
        else:
            link = ""
        rows.append(
            f'<tr><th scope="row">{esc(w)}</th>'
            f"<td>{esc(', '.join(summary.engines.get(w, ())))}</td>{counts}"
            f"<td>{tally.total}</td><td>{link}</td></tr>"
        )
    return (
        "<table><thead><tr><th>Writer</th><th>Version</th>"
        + head
        + "<th>total</th><th>Details</th></tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )


def _format_grids(summary: ReportSummary) -> str:
    """One grid per format when the run has several (a format's own engines in each)."""
    grids = format_grids(summary)
    if len(grids) <= 1:
        return _grid_table(run_grid(summary))
    return "\n".join(f'<h3 id="grid-{slug(fmt)}">{esc(display_name(fmt))}</h3>'
                     f"{_grid_table(grid)}" for fmt, grid in grids.items())


def _features(summary: ReportSummary) -> str:
    parts = [
        '<p><button type="button" class="toggle-features" data-open="1">expand all</button> '
        '<button type="button" class="toggle-features" data-open="0">collapse all</button></p>'
    ]
    formats = summary.formats or ("",)
    for fmt in formats:
        if len(formats) > 1:
            parts.append(f'<h3 id="tags-{slug(fmt)}">{esc(display_name(fmt))}</h3>')
        parts += _feature_sections(summary, fmt or None, nested=len(formats) > 1)
    return "\n".join(parts) if len(parts) > 1 else '<p class="muted">No feature tags in this run.</p>'


def _feature_sections(summary: ReportSummary, fmt: str | None, nested: bool) -> list[str]:
    """The feature grids of `fmt` by tag prefix; `nested` under a heading of the format."""
    grids = feature_grids(summary, fmt if nested else None)
    parts = []
    for prefix, tags in group_by_prefix(grids):
        anchor = f"tags-{slug(fmt or '')}-{slug(prefix)}" if nested else f"tags-{slug(prefix)}"
        level = "h4" if nested else "h3"
        parts.append(f'<{level} id="{anchor}">{esc(prefix)}</{level}>')
        for tag in tags:
            grid = grids[tag]
            overall = grid.overall()
            parts.append(
                f'<details class="feature"><summary><code>{esc(tag)}</code> '
                f"{badge(overall.worst or PASS, f'{overall.ratio} {overall.worst}')}"
                f"</summary>{_grid_table(grid)}</details>"
            )
    return parts


def _failure_row(cell: Cell) -> str:
    features = esc(json.dumps(list(cell.features)))
    detail = esc(truncate(cell.detail, DETAIL_LIMIT)) if cell.detail else ""
    file = f"<code>{esc(cell.file)}</code>" if cell.file else '<span class="muted">&mdash;</span>'
    if cell.file_sha256:
        file = f'<span title="sha256 {esc(cell.file_sha256)}">{file}</span>'
    return (
        f'<tr data-features="{features}"><td><code>{esc(cell.case_id)}</code></td>'
        f"<td>{badge(cell.outcome)}</td>"
        f'<td class="tags">{esc(", ".join(cell.features))}</td><td>{file}</td>'
        f"<td><pre>{detail}</pre></td></tr>"
    )


def _failures(summary: ReportSummary) -> str:
    groups: dict[tuple[str, str, str | None], list[Cell]] = {}
    totals: dict[tuple[str, str, str | None], int] = {}
    for cell in summary.matrix_cells():  # the bad-file cells have a section of their own
        key = (cell.phase, cell.writer, cell.reader)
        totals[key] = totals.get(key, 0) + 1
        if cell.outcome != PASS:
            groups.setdefault(key, []).append(cell)
    if not groups:
        return "<p>Every cell of the writer &times; reader grid passed.</p>"

    def order(key: tuple[str, str, str | None]) -> tuple:
        phase, writer, reader = key
        return (phase != "write", engine_order(writer), engine_order(reader or ""))

    parts = []
    for key in sorted(groups, key=order):
        phase, writer, reader = key
        cells = sorted(groups[key], key=lambda c: (severity(c.outcome), c.case_id, c.cell_id))
        first = cells[0]
        writer_label = f'{esc(writer)} <span class="muted">{esc(first.writer_version)}</span>'
        if phase == "write":
            title = f"{writer_label} writes"
        else:
            reader_version = esc(first.reader_version or "")
            title = (
                f'{writer_label} &rarr; {esc(reader)} <span class="muted">{reader_version}</span>'
            )

        parts.append(
            f'<section class="group" id="{group_id(phase, writer, reader)}">'
            f'<h3>{title} <small class="muted">{len(cells)} non-pass of {totals[key]}</small></h3>'
            '<p class="filter" hidden>Showing the <span class="n"></span> cells tagged '
            '<code class="tag"></code>. <a href="#" class="show-all">show all</a></p>'
            '<table class="fails"><colgroup><col class="c-case"><col class="c-outcome">'
            '<col class="c-tags"><col class="c-file"><col></colgroup>'
            "<thead><tr><th>Case</th><th>Outcome</th><th>Features</th><th>File</th>"
            "<th>Detail</th></tr></thead><tbody>"
            + "".join(_failure_row(c) for c in cells)
            + "</tbody></table></section>"
        )
    return "\n".join(parts)


def _metadata_findings(summary: ReportSummary) -> str:
    tallies = findings_by_writer(summary)
    if not tallies:
        return '<p class="muted">No file was checked by the validator.</p>'
    rows = []
    for writer, tally in tallies.items():
        kinds = "<br>".join(
            f"{esc(kind)} " + (f"<strong>{severity}</strong>" if severity == "untrue" else severity)
            + f" &times;{count}" for (severity, kind), count in sorted(tally.counts.items())) or "none"
        link = (f'<a href="#{group_id("read", writer, VALIDATOR)}">files</a>'
                if tally.files_with_untrue else "")
        rows.append(f'<tr><th scope="row">{esc(writer)}</th><td>{tally.files}</td>'
                    f"<td>{tally.files_with_untrue}</td><td>{kinds}</td><td>{link}</td></tr>")
    return ('<p class="muted">What the reference validator found in every file each writer '
            "produced: <em>untrue</em> items contradict the file's data (a reader that trusts them "
            "returns wrong rows), <em>nonconforming</em> ones break a MUST of the text, "
            "<em>ambiguous</em> ones take one reading of a silent or ambiguous text, "
            "<em>advisory</em> ones a SHOULD (docs/validation.md).</p>"
            "<table><thead><tr><th>Writer</th><th>files checked</th><th>files with untrue items"
            "</th><th>findings by kind</th><th>Details</th></tr></thead><tbody>"
            + "".join(rows) + "</tbody></table>")


def _bad_files(summary: ReportSummary) -> str:
    readers = rejections_by_reader(summary)
    if not readers:
        return '<p class="muted">No bad file was read in this run.</p>'
    head = "".join(f"<th>{esc(v)}</th>" for v in VERDICTS)
    rows = []
    for reader, tally in readers.items():
        counts = "".join(f"<td>{tally.verdicts[v]}</td>" for v in VERDICTS)
        link = (f'<a href="#{group_id(REJECT, "", reader)}">files</a>' if tally.findings else "")
        rows.append(f'<tr><th scope="row">{esc(reader)}</th><td>{esc(tally.version)}</td>{counts}'
                    f"<td>{tally.total}</td><td>{link}</td></tr>")
    parts = ['<p class="muted">Every reader reads every file of the bad-file corpus, one fault '
             "each. A <em>bad</em> file it must reject: <em>accepted</em> means it returned data, "
             "<em>wrong class</em> that the reference raised another error than the catalogue "
             "documents. An <em>acceptable</em> file has exactly one reading: the reader passes "
             "when it <em>read its single reading</em> or <em>rejected cleanly</em>, fails when "
             "it <em>returned other rows</em>; the reference must read it leniently, naming the "
             "rule (<em>not read leniently</em>). These cells are not in the grids above.</p>",
             f"<table><thead><tr><th>Reader</th><th>Version</th>{head}<th>total</th>"
             f"<th>Details</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"]
    parts += [_bad_file_findings(reader, tally) for reader, tally in readers.items() if tally.findings]
    return "\n".join(parts)


def _bad_file_findings(reader: str, tally: ReaderRejections) -> str:
    rows = "".join(
        f'<tr><td><code>{esc(c.case_id)}</code></td><td>{esc(file_verdict(c))}</td>'
        f"<td>{badge(c.outcome, cell_verdict(c))}</td><td>{esc(fault(c))}</td>"
        f"<td><pre>{esc(truncate(c.detail, DETAIL_LIMIT))}</pre></td></tr>"
        for c in tally.findings)
    return (f'<section class="group" id="{group_id(REJECT, "", reader)}"><h3>{esc(reader)} failed '
            f'<small class="muted">{len(tally.findings)} of {tally.total}</small></h3>'
            '<table class="fails"><colgroup><col class="c-case"><col class="c-outcome">'
            '<col class="c-outcome"><col class="c-tags"><col></colgroup><thead><tr><th>File</th>'
            "<th>Verdict</th><th>What it did</th><th>Fault</th><th>Evidence</th></tr></thead>"
            f"<tbody>{rows}</tbody></table></section>")


def to_html(summary: ReportSummary) -> str:
    grid = run_grid(summary)
    title = f"Conformance report {summary.run_id}".strip()
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{esc(title)}</title>",
            f"<style>{style()}</style>",
            "</head><body>",
            '<nav><a href="#engines">Engines</a><a href="#outcomes">Outcomes</a>'
            '<a href="#grid">Writer &times; reader</a><a href="#writers">Writers</a>'
            '<a href="#metadata">Metadata validation</a><a href="#bad-files">Bad files</a>'
            '<a href="#features">Features</a><a href="#failures">Non-pass cells</a></nav>',
            _header(summary),
            '<h2 id="grid">Writer &times; reader</h2>',
            '<p class="muted">Rows: the engine that wrote the file. Columns: its write '
            "phase, then the engine that read it.</p>",
            _format_grids(summary),
            '<h2 id="writers">Writers (write phase)</h2>',
            _writers(summary, grid),
            '<h2 id="metadata">Metadata validation (per writer)</h2>',
            _metadata_findings(summary),
            '<h2 id="bad-files">Bad files (must reject)</h2>',
            _bad_files(summary),
            '<h2 id="features">By feature tag</h2>',
            _features(summary),
            '<h2 id="failures">Non-pass cells</h2>',
            _failures(summary),
            f"<script>{_JS}</script>",
            "</body></html>",
            "",
        ]
    )


def write_html(summary: ReportSummary, path: str | Path) -> Path:
    path = Path(path)
    path.write_text(to_html(summary), encoding="utf-8")
    return path
