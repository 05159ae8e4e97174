"""The HTML report: a small static site whose front page opens at once, whatever the run.

``write_html`` writes every page of the site (``pages`` lists them) into the report
folder and returns the front page's path:

1. ``index.html``: the run (id, formats, cells, the reference self-check, links to the
   detail pages), the sections the caller passes in (the implementation-status tables,
   their score, where the measurement and the engines' own claims disagree), then the
   engines with their versions and what each really did (passes / cells that ran, per
   format and role) and the outcome counts.
2. ``grid.html`` and ``features/``: the writer x reader grids (``grid_html``), the
   writers' write phase and the metadata validation per writer.
3. ``pairs/``: every cell with its evidence (``pairs_html``), anchored by cell id.
4. ``engines/``: one page per engine (``engines_html``).
5. ``bad-files.html``: what each reader did with the bad-file corpus.

Every piece of text from the dataset is HTML-escaped, control characters are shown
as escapes, very long details are cut (the full text is in ``results.json``); the
pages use no network resource.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from .dataset import ReportSummary
from .engine_summary import EngineSummary
from .engines_html import write_engine_pages
from .findings import VALIDATOR, findings_by_writer
from .grid import Grid, Tally, format_grids
from .grid_html import bar, tally_text, write_grid_pages
from .outcomes import DESCRIPTIONS, OUTCOMES, PASS, severity
from .pages import BAD_FILES, GRID, INDEX, NAV, badge, engine_page, esc, href, pair_page, write_page
from .pairs_html import DETAIL_LIMIT, write_pair_pages
from .rejections import VERDICTS, ReaderRejections, cell_verdict, fault, file_verdict, rejections_by_reader
from .text import truncate


def _self_check(summary: ReportSummary) -> str:
    self_check = [c for c in summary.cells if c.is_reference_self_check]
    failing = summary.reference_failures()
    if not self_check:
        return '<span class="muted">no reference &rarr; reference cells in this run</span>'
    if failing:
        worst_outcome = min((c.outcome for c in failing), key=severity)
        return badge(worst_outcome, "FAILED") + f" {len(failing)} of {len(self_check)} cells not pass"
    return badge(PASS, "OK") + f" all {len(self_check)} cells pass"


def _meta(summary: ReportSummary) -> str:
    meta = [("Run", esc(summary.run_id) or '<span class="muted">(empty dataset)</span>'),
            ("Formats", esc(", ".join(summary.formats)) or "&mdash;"),
            ("Cells", str(summary.total)),
            ("Reference self-check", _self_check(summary))]
    links = " ".join(f'<a href="{target}">{esc(label)}</a>' for target, label in NAV[1:])
    return ('<dl class="meta">' + "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in meta)
            + f"<dt>Detail</dt><dd>{links}</dd></dl>")


def _engines(summary: ReportSummary, engines: Mapping[str, EngineSummary]) -> str:
    """One row per engine, one column per (format, role) any engine has: passed / ran."""
    columns = sorted({key for e in engines.values() for key in e.tallies})
    head = "".join(f"<th>{esc(fmt)}<br>{esc(role)}</th>" for fmt, role in columns)
    rows = []
    for name, engine in engines.items():
        note = summary.version_notes.get(name)
        warning = f' <span title="{esc(note)}">&#9888;</span>' if note else ""
        squares = "".join(_did(engine.tallies.get(key)) for key in columns)
        rows.append(f'<tr><th scope="row"><a href="{href(INDEX, engine_page(name))}">{esc(name)}</a>'
                    f'</th><td>{esc(", ".join(engine.versions)) or "&mdash;"}{warning}</td>{squares}</tr>')
    for name, reason in summary.unavailable.items():
        rows.append(f'<tr><th scope="row">{esc(name)}</th><td colspan="{1 + len(columns)}">'
                    f"unavailable: {esc(reason)}</td></tr>")
    return ('<p class="muted">Passed / cells that ran; skipped cells and declared gaps apart '
            "(hover for every outcome). Click an engine for its page.</p>"
            f'<table class="grid"><thead><tr><th>Engine</th><th>Version</th>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table>")


def _did(tally: Tally | None) -> str:
    if tally is None:
        return '<td class="sq empty">&mdash;</td>'
    ratio, note = tally_text(tally)
    return f'<td class="sq" title="{esc(tally.breakdown())}">{esc(ratio)}{bar(tally)}</td>'


def _legend(summary: ReportSummary) -> str:
    rows = [f"<tr><td>{badge(o)}</td><td>{summary.counts[o]}</td><td>{esc(DESCRIPTIONS[o])}</td></tr>"
            for o in OUTCOMES]
    rows.append(f"<tr><th>total</th><th>{summary.total}</th><td></td></tr>")
    return ('<details><summary>Outcomes of every cell</summary><table class="legend"><thead><tr>'
            "<th>Outcome (colour)</th><th>Cells</th><th>Meaning</th></tr></thead><tbody>"
            + "".join(rows) + "</tbody></table></details>")


def _writers(summary: ReportSummary, grids: Mapping[str, Grid]) -> str:
    rows = []
    for fmt, grid in grids.items():
        for w in grid.writers:
            tally = grid.write(w)
            if not tally.total:
                continue
            ratio, note = tally_text(tally)
            rows.append(f'<tr><th scope="row">{esc(w)}</th><td>{esc(fmt)}</td>'
                        f"<td>{esc(', '.join(summary.engines.get(w, ())))}</td>"
                        f'<td><a href="{href(GRID, pair_page(w, None))}">{esc(ratio)}</a>{bar(tally)}'
                        f"</td><td>{esc(note)}</td><td class=\"muted\">{esc(tally.breakdown())}</td></tr>")
    return ('<h2 id="writers">Writers (write phase)</h2><table><thead><tr><th>Writer</th>'
            "<th>Format</th><th>Version</th><th>produced / tried</th><th>failed, not run</th>"
            "<th>by outcome</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>")


def _metadata_findings(summary: ReportSummary) -> str:
    tallies = findings_by_writer(summary)
    if not tallies:
        return ""
    rows = []
    for writer, tally in tallies.items():
        kinds = "<br>".join(
            f"{esc(kind)} " + (f"<strong>{severity}</strong>" if severity == "untrue" else severity)
            + f" &times;{count}" for (severity, kind), count in sorted(tally.counts.items())) or "none"
        link = (f'<a href="{href(GRID, pair_page(writer, VALIDATOR))}">files</a>'
                if tally.files_with_untrue else "")
        rows.append(f'<tr><th scope="row">{esc(writer)}</th><td>{tally.files}</td>'
                    f"<td>{tally.files_with_untrue}</td><td>{kinds}</td><td>{link}</td></tr>")
    return ('<h2 id="metadata">Metadata validation (per writer)</h2>'
            '<p class="muted">What the reference validator found in every file each writer '
            "produced: <em>untrue</em> items contradict the file's data (a reader that trusts them "
            "returns wrong rows), <em>nonconforming</em> ones break a MUST of the text, "
            "<em>ambiguous</em> ones take one reading of a silent or ambiguous text, "
            "<em>advisory</em> ones a SHOULD (docs/validation.md).</p>"
            "<table><thead><tr><th>Writer</th><th>files checked</th><th>files with untrue items"
            "</th><th>findings by kind</th><th>Details</th></tr></thead><tbody>"
            + "".join(rows) + "</tbody></table>")


def _bad_files_body(summary: ReportSummary) -> str:
    readers = rejections_by_reader(summary)
    if not readers:
        return '<p class="muted">No bad file was read in this run.</p>'
    head = "".join(f"<th>{esc(v)}</th>" for v in VERDICTS)
    rows = []
    for reader, tally in readers.items():
        counts = "".join(f"<td>{tally.verdicts[v]}</td>" for v in VERDICTS)
        link = f'<a href="#r-{esc(reader)}">files</a>' if tally.findings else ""
        rows.append(f'<tr><th scope="row">{esc(reader)}</th><td>{esc(tally.version)}</td>{counts}'
                    f"<td>{tally.total}</td><td>{link}</td></tr>")
    parts = ['<p class="muted">Every reader reads every file of the bad-file corpus, one fault '
             "each. A <em>bad</em> file it must reject: <em>accepted</em> means it returned data, "
             "<em>wrong class</em> that the reference raised another error than the catalogue "
             "documents. An <em>acceptable</em> file has exactly one reading: the reader passes "
             "when it <em>read its single reading</em> or <em>rejected cleanly</em>, fails when "
             "it <em>returned other rows</em>; the reference must read it leniently, naming the "
             "rule (<em>not read leniently</em>). These cells are not in the grids.</p>",
             f"<table><thead><tr><th>Reader</th><th>Version</th>{head}<th>total</th>"
             f"<th>Details</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"]
    parts += [_bad_file_findings(reader, tally) for reader, tally in readers.items() if tally.findings]
    return "\n".join(parts)


def _bad_file_findings(reader: str, tally: ReaderRejections) -> str:
    rows = "".join(
        f'<tr><td><a href="{href(BAD_FILES, pair_page(c.writer, c.reader))}#'
        f'{esc(c.cell_id)}"><code>{esc(c.case_id)}</code></a></td><td>{esc(file_verdict(c))}</td>'
        f"<td>{badge(c.outcome, cell_verdict(c))}</td><td>{esc(fault(c))}</td>"
        f"<td><pre>{esc(truncate(c.detail, DETAIL_LIMIT))}</pre></td></tr>"
        for c in tally.findings)
    return (f'<section class="group" id="r-{esc(reader)}"><h3>{esc(reader)} failed '
            f'<small class="muted">{len(tally.findings)} of {tally.total}</small></h3>'
            '<table class="fails"><colgroup><col class="c-case"><col class="c-outcome">'
            '<col class="c-outcome"><col class="c-tags"><col></colgroup><thead><tr><th>File</th>'
            "<th>Verdict</th><th>What it did</th><th>Fault</th><th>Evidence</th></tr></thead>"
            f"<tbody>{rows}</tbody></table></section>")


def write_html(summary: ReportSummary, out: Path, engines: Mapping[str, EngineSummary], *,
               front: Sequence[str] = (), engine_sections: Mapping[str, Sequence[str]] = {}) -> Path:
    """Write the whole site into ``out``; ``front`` are HTML sections of the front page before
    the engines, ``engine_sections`` extra sections of each engine's page. Returns index.html."""
    grids = format_grids(summary)
    write_grid_pages(summary, out, extra=_writers(summary, grids) + _metadata_findings(summary))
    write_pair_pages(summary, out)
    write_engine_pages(summary, engines, out, engine_sections)
    write_page(out, BAD_FILES, "Bad files (must reject)", _bad_files_body(summary))
    body = [_meta(summary), *front, '<h2 id="engines">Engines</h2>', _engines(summary, engines),
            _legend(summary)]
    title = f"Conformance report {summary.run_id}".strip()
    return write_page(out, INDEX, title, "\n".join(body))
