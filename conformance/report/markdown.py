"""``REPORT.md``: the run overview in (GitHub-flavoured) Markdown.

Sections: summary (run, formats, cell count, reference self-check), the sections the
caller puts first (the measured status tables and scores, the failures grouped by cause),
what each engine did (passed / cells that ran), engines, outcome counts, the writer x
reader grid (``passes/ran`` and how many failed or did not run), the writers' write phase,
metadata validation, the bad files (per reader: rejected, accepted, ..., and each file it
did not reject), the flaky cells (each with every outcome its tries gave), the failing
cells grouped by reader (write-phase ones under their writer), one line each, and the
sections the caller puts last (spec coverage). Engine output is never trusted as
Markdown: inline text is escaped, details go into fences longer than any backtick run
they contain.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from conformance.cases.spec_versions import PREVIEW_TAG
from conformance.formats import display_name

from .causes import CauseReport, causes_markdown
from .dataset import GOLDEN, REJECT, Cell, ReportSummary, engine_order
from .engine_summary import EngineSummary
from .findings import findings_by_writer
from .grid import NOT_PERFORMED, Grid, Tally, format_grids, run_grid
from .grid_html import tally_text
from .outcomes import DESCRIPTIONS, FLAKY, OUTCOMES, PASS, severity
from .rejections import VERDICTS, cell_verdict, fault, file_verdict, rejections_by_reader
from .text import first_line, first_lines, visible_controls

DETAIL_LINES = 3
DETAIL_WIDTH = 160

_MD_SPECIAL = re.compile(r"([\\`*_\[\]{}#+!|~])")


def md_text(value: object) -> str:
    """Inline text with Markdown and HTML syntax neutralised (safe in table cells)."""
    text = visible_controls(str(value)).replace("\n", " ")
    text = html.escape(text, quote=False)
    return _MD_SPECIAL.sub(r"\\\1", text)


def md_code(value: object) -> str:
    """An inline code span holding ``value`` verbatim (not for table cells)."""
    text = visible_controls(str(value)).replace("\n", " ")
    runs = [len(r) for r in re.findall("`+", text)]
    fence = "`" * (max(runs, default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def md_block(lines: list[str], indent: str = "") -> list[str]:
    """A fenced code block of ``lines``, each prefixed by ``indent``."""
    runs = [len(r) for line in lines for r in re.findall("`+", line)]
    fence = "`" * max(3, max(runs, default=0) + 1)
    return [f"{indent}{fence}", *(f"{indent}{line}" for line in lines), f"{indent}{fence}"]


def _square(tally: Tally) -> str:
    """``passes/ran``, then how many failed and did not run (the grid_html square in text)."""
    if not tally.total:
        return "—"
    ratio, note = tally_text(tally)
    return f"{ratio} ({note})" if note else ratio


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def _summary(summary: ReportSummary) -> list[str]:
    self_check = [c for c in summary.cells if c.is_reference_self_check]
    failing = summary.reference_failures()
    if not self_check:
        check = "no reference -> reference cells in this run"
    elif failing:
        check = f"**FAILED**: {len(failing)} of {len(self_check)} cells not pass"
    else:
        check = f"OK ({len(self_check)} cells pass)"
    return [
        "# Conformance report",
        "",
        f"- **Run:** {md_text(summary.run_id) or '(empty)'}",
        f"- **Formats:** {md_text(', '.join(summary.formats)) or '—'}",
        f"- **Cells:** {summary.total}",
        f"- **Reference self-check:** {check}",
        "",
    ]


def _engines(summary: ReportSummary) -> list[str]:
    rows = []
    for name, versions in summary.engines.items():
        roles = " + ".join(summary.roles(name))
        note = summary.version_notes.get(name)
        if note:
            roles += f"; ⚠ {md_text(note)}"
        rows.append([md_text(name), md_text(", ".join(versions)) or "—", roles])
    for name, reason in summary.unavailable.items():
        rows.append([md_text(name), "—", f"unavailable: {md_text(reason)}"])
    return ["## Engines", "", *_table(["Engine", "Version", "Role"], rows), ""]


def _did(engines: Mapping[str, EngineSummary]) -> list[str]:
    """What each engine really did: passed / cells that ran, per format and role."""
    columns = sorted({key for e in engines.values() for key in e.tallies})
    rows = [[md_text(name), *(_square(e.tallies[key]) if key in e.tallies else "—" for key in columns)]
            for name, e in engines.items()]
    return ["## What each engine did", "",
            "Passed / cells that ran, skipped cells and declared gaps (unsupported) apart.", "",
            *_table(["Engine", *(f"{fmt} {role}" for fmt, role in columns)], rows), ""]


def _outcomes(summary: ReportSummary) -> list[str]:
    rows = [[o, str(summary.counts[o]), DESCRIPTIONS[o]] for o in OUTCOMES]
    rows.append(["**total**", f"**{summary.total}**", ""])
    return ["## Outcomes", "", *_table(["Outcome", "Cells", "Meaning"], rows), ""]


def _grids(summary: ReportSummary) -> list[str]:
    """The run's writer x reader grid, one per format when the run has several."""
    grids = format_grids(summary)
    if len(grids) <= 1:
        return _grid(run_grid(summary))
    return [line for fmt, grid in grids.items() for line in _grid(grid, f" ({display_name(fmt)})")]


def _grid(grid: Grid, title: str = "") -> list[str]:
    header = ["writer \\\\ reader", "write phase", *(md_text(r) for r in grid.readers), "all reads"]
    rows = []
    for w in grid.writers:
        squares = [_square(grid.read(w, r)) for r in grid.readers]
        rows.append(
            [f"**{md_text(w)}**", _square(grid.write(w)), *squares, _square(grid.row_total(w))]
        )
    rows.append(
        [
            "**all writers**",
            _square(Tally.merge(grid.writes.values())),
            *(_square(grid.column_total(r)) for r in grid.readers),
            _square(grid.read_total()),
        ]
    )
    return [
        f"## Writer x reader{title}",
        "",
        "Each square: passing cells / cells that ran, then how many failed and how many did "
        "not run (skipped, or a declared gap). The write phase column counts the writer "
        "producing the files.",
        "",
        *_table(header, rows),
        "",
    ]


def _writers(summary: ReportSummary, grid: Grid) -> list[str]:
    present = {o for w in grid.writers for o, n in grid.write(w).counts.items() if n}
    shown = [o for o in OUTCOMES if o in present or o in (PASS, "unsupported", "error")]
    rows = []
    for w in grid.writers:
        tally = grid.write(w)
        versions = ", ".join(summary.engines.get(w, ()))
        rows.append(
            [
                md_text(w),
                md_text(versions) or "—",
                *(str(tally.counts.get(o, 0)) for o in shown),
                str(tally.total),
            ]
        )
    header = ["Writer", "Version", *shown, "total"]
    return ["## Writers (write phase)", "", *_table(header, rows), ""]


def _metadata_findings(summary: ReportSummary) -> list[str]:
    tallies = findings_by_writer(summary)
    if not tallies:
        return []
    lines = ["## Metadata validation (per writer)", "",
             "Findings of the reference validator in every file each writer produced: "
             "*untrue* items contradict the file's data, *nonconforming* ones break a MUST of the "
             "text, *ambiguous* ones take one reading of a silent text, *advisory* ones a SHOULD "
             "(docs/validation.md).", ""]
    rows = []
    for writer, tally in tallies.items():
        kinds = ", ".join(f"{md_text(kind)} {severity} ×{count}"
                          for (severity, kind), count in sorted(tally.counts.items())) or "none"
        rows.append([md_text(writer), str(tally.files), str(tally.files_with_untrue), kinds])
    return [*lines, *_table(["Writer", "files", "files with untrue items", "findings by kind"], rows), ""]


def _bad_files(summary: ReportSummary) -> list[str]:
    readers = rejections_by_reader(summary)
    if not readers:
        return []
    lines = ["## Bad files (must reject)", "",
             "Every reader reads every file of the bad-file corpus, one fault each. A *bad* file "
             "it must reject: *accepted*: it returned data; *wrong class*: the reference raised "
             "another error than the catalogue documents. An *acceptable* file has exactly one "
             "reading: a reader passes when it *read its single reading* or *rejected cleanly*, "
             "fails when it *returned other rows*; the reference must read it leniently, naming "
             "the rule (*not read leniently*).", ""]
    rows = [[md_text(reader), md_text(tally.version) or "—",
             *(str(tally.verdicts[v]) for v in VERDICTS), str(tally.total)]
            for reader, tally in readers.items()]
    lines += [*_table(["Reader", "Version", *VERDICTS, "total"], rows), ""]
    for reader, tally in readers.items():
        if tally.findings:
            lines += [f"### {md_code(reader)} failed ({len(tally.findings)})", ""]
            for cell in tally.findings:
                lines += _bad_file_item(cell)
            lines.append("")
    return lines


def _bad_file_item(cell: Cell) -> list[str]:
    lines = [f"- **{cell_verdict(cell)}** {md_code(cell.case_id)} ({file_verdict(cell)}): "
             f"{md_text(fault(cell))}"]
    detail = first_lines(cell.detail, DETAIL_LINES, DETAIL_WIDTH)
    return [*lines, "", *md_block(detail, indent="  "), ""] if detail else lines


def _cell_item(cell: Cell, *, by_reader: bool) -> list[str]:
    """One failing cell, one line: its outcome, case, writer, file and the first line of its
    detail (the groups above carry the evidence; the pair pages, every detail)."""
    # An addition the specification calls "in Preview" says so beside its case.
    preview = f" ({md_code(PREVIEW_TAG)})" if PREVIEW_TAG in cell.features else ""
    who = f" written by {md_code(cell.writer)}" if by_reader else ""
    where = f", file {md_code(cell.file)}" if cell.file else ""
    detail = f": {md_text(first_line(cell.detail)[:DETAIL_WIDTH])}" if cell.detail else ""
    return [f"- **{cell.outcome}** {md_code(cell.case_id)}{preview}{who}{where}{detail}"]


def _sorted(cells: list[Cell]) -> list[Cell]:
    return sorted(cells, key=lambda c: (severity(c.outcome), engine_order(c.writer), c.case_id))


def _flaky(summary: ReportSummary) -> list[str]:
    """The cells whose outcome changed between identical tries: a finding of their own."""
    cells = sorted((c for c in summary.cells if c.outcome == FLAKY), key=lambda c: c.cell_id)
    if not cells:
        return []
    lines = ["## Flaky cells", "",
             f"{len(cells)} cell(s) gave different outcomes when run again, isolated, on the same "
             "file (`--expect` with `--retries`): the engine's answer depends on more than the "
             "file. The expectations gate does not count them as regressions unless "
             "`--strict-flaky` (docs/expectations.md).", ""]
    lines += [f"- {md_code(c.cell_id)}: {md_text(first_line(c.detail))}" for c in cells]
    return [*lines, ""]


def causes_section(report: CauseReport) -> list[str]:
    """The failures grouped by cause (``causes``), rendered with this module's escapes."""
    return ["## Failures by cause", "", *causes_markdown(report, md_text, md_block), ""]


def _non_pass(summary: ReportSummary) -> list[str]:
    """Every failing cell of the grids, one line each; skipped cells and declared gaps are
    not failures (counted under "Failures by cause"), the bad files have their section."""
    failing = [c for c in summary.non_pass()
               if c.phase != REJECT and c.outcome not in NOT_PERFORMED]
    lines = ["## Non-pass cells", ""]
    if not failing:
        return [*lines, "Every cell of the writer x reader grid that ran passed.", ""]
    writes = [c for c in failing if c.phase == "write"]
    if writes:
        lines += ["### Write phase", ""]
        for writer in sorted({c.writer for c in writes}, key=engine_order):
            cells = _sorted([c for c in writes if c.writer == writer])
            lines += [f"#### Writer {md_code(writer)} ({len(cells)})", ""]
            for cell in cells:
                lines += _cell_item(cell, by_reader=False)
            lines.append("")
    reads = [c for c in failing if c.phase in ("read", GOLDEN)]
    for reader in sorted({c.reading_engine for c in reads}, key=engine_order):
        cells = _sorted([c for c in reads if c.reader == reader])
        version = ", ".join(summary.engines.get(reader, ()))
        lines += [f"### Reader {md_code(reader)} {md_text(version)} ({len(cells)})", ""]
        for cell in cells:
            lines += _cell_item(cell, by_reader=True)
        lines.append("")
    return lines


def to_markdown(summary: ReportSummary, engines: Mapping[str, EngineSummary],
                front: Sequence[list[str]] = (), back: Sequence[list[str]] = ()) -> str:
    """The whole REPORT.md; ``front`` are sections (lists of lines) after the summary (the
    status tables), ``back`` sections at the end (spec coverage)."""
    grid = run_grid(summary)
    sections = [
        _summary(summary),
        *front,
        _did(engines),
        _engines(summary),
        _outcomes(summary),
        _grids(summary),
        _writers(summary, grid),
        _metadata_findings(summary),
        _bad_files(summary),
        _flaky(summary),
        _non_pass(summary),
        *back,
    ]
    text = "\n".join(line for section in sections for line in section)
    return re.sub(r"\n{3,}", "\n\n", text).rstrip("\n") + "\n"


def write_markdown(summary: ReportSummary, engines: Mapping[str, EngineSummary], path: str | Path,
                   front: Sequence[list[str]] = (), back: Sequence[list[str]] = ()) -> Path:
    path = Path(path)
    path.write_text(to_markdown(summary, engines, front, back), encoding="utf-8", errors="backslashreplace")
    return path
