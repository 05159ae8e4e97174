"""Failures grouped by cause: one group per signature (``signature``), largest first.

One bug met by hundreds of cells (a reader without DELTA_BYTE_ARRAY, a hung thread in
every worker) is one group with its count, the cases and features it spans, one
reproducer (the cell with the smallest file: the easiest to look at) and that cell's
evidence. Only failures are grouped: skipped cells (not run: no file to read) are
counted apart by reason, and unsupported cells (declared gaps, not failures) are grouped
apart by engine and reason, for the per-engine page's "declared gaps".

Renderers: ``causes_body`` (the body of ``causes.html``, written with
``write_page``), ``groups_html`` (the groups of one engine, for its page),
``causes_markdown`` (bounded lines for REPORT.md) and ``CauseReport.to_json``
(results.json).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .dataset import Cell, ReportSummary, base_engine, engine_order
from .outcomes import PASS, severity
from .pages import CAUSES, badge, cell_page, esc, href, slug, write_page
from .signature import Signature, judged_engine, normalise_message, signature
from .text import first_lines, truncate

SKIPPED = "skipped"
UNSUPPORTED = "unsupported"
NOT_FAILURES = (PASS, SKIPPED, UNSUPPORTED)
LISTED = 12  # cases and features named before "and N more"
EVIDENCE_CHARS = 2000  # of the reproducer's detail on a page
MD_GROUPS = 60  # groups in REPORT.md, largest first
MD_PER_ENGINE = 3  # the largest groups of each engine, in REPORT.md
MD_EVIDENCE_LINES = 4

FileSize = Callable[[Cell], "int | None"]


@dataclass
class CauseGroup:
    """The cells of one signature, sorted by cell id; ``reproducer`` has the smallest file."""

    signature: Signature
    cells: list[Cell]
    reproducer: Cell
    reproducer_size: int | None = None  # bytes of the reproducer's file, when it was found

    @property
    def count(self) -> int:
        return len(self.cells)

    @property
    def cases(self) -> list[str]:
        return sorted({c.case_id for c in self.cells})

    @property
    def features(self) -> list[str]:
        return sorted({f for c in self.cells for f in c.features})

    @property
    def writers(self) -> list[str]:
        return sorted({c.writer for c in self.cells}, key=engine_order)

    @property
    def evidence(self) -> str:
        return self.reproducer.detail

    @property
    def anchor(self) -> str:
        return "g-" + slug(f"{self.signature.engine}--{self.signature.outcome}--{self.signature.kind}")

    def to_json(self) -> dict:
        return {**self.signature.to_json(), "count": self.count, "cases": self.cases,
                "features": self.features, "writers": self.writers,
                "reproducer": {"cell_id": self.reproducer.cell_id, "file": self.reproducer.file,
                               "size": self.reproducer_size, "sha256": self.reproducer.file_sha256},
                "evidence": self.evidence, "cell_ids": [c.cell_id for c in self.cells]}


@dataclass
class CauseReport:
    """A run's failures by cause, its declared gaps by reason and its skipped cells."""

    failures: list[CauseGroup]
    gaps: list[CauseGroup]
    skipped: Counter = field(default_factory=Counter)  # (engine, reason) -> cells

    @property
    def failing_cells(self) -> int:
        return sum(g.count for g in self.failures)

    def to_json(self) -> dict:
        return {"failing_cells": self.failing_cells, "groups": [g.to_json() for g in self.failures],
                "declared_gaps": [g.to_json() for g in self.gaps],
                "skipped": [{"engine": e, "reason": r, "count": n}
                            for (e, r), n in sorted(self.skipped.items())]}


def run_file(cell: Cell, run_dir: Path | None) -> Path | None:
    """Where the cell's file is: its own absolute path (a golden cell), or under the run
    directory; ``run_dir`` may also be the work directory holding ``<run id>/``."""
    if not cell.file:
        return None
    path = Path(cell.file)
    if path.is_absolute():
        return path if path.is_file() else None
    if run_dir is None:
        return None
    for candidate in (run_dir / path, run_dir / cell.run_id / path):
        if candidate.is_file():
            return candidate
    return None


def file_sizes(run_dir: Path | None) -> FileSize:
    """The size of a cell's file in ``run_dir`` (None where it is not found)."""
    def size(cell: Cell) -> int | None:
        path = run_file(cell, run_dir)
        return None if path is None else path.stat().st_size
    return size


def group_cells(cells: Iterable[Cell], size: FileSize, key: Callable[[Cell], Signature] = signature
                ) -> list[CauseGroup]:
    """``cells`` grouped by ``key``, largest group first (then worst outcome, signature)."""
    by_key: dict[Signature, list[Cell]] = {}
    for cell in cells:
        by_key.setdefault(key(cell), []).append(cell)
    groups = [_group(sig, members, size) for sig, members in by_key.items()]
    return sorted(groups, key=lambda g: (-g.count, severity(g.signature.outcome), g.signature))


def _group(sig: Signature, cells: list[Cell], size: FileSize) -> CauseGroup:
    cells.sort(key=lambda c: c.cell_id)
    sized = [(size(c), c) for c in cells]
    found = [(n, c.cell_id, c) for n, c in sized if n is not None]
    if found:
        smallest, _, reproducer = min(found, key=lambda item: item[:2])
        return CauseGroup(sig, cells, reproducer, smallest)
    return CauseGroup(sig, cells, cells[0])


def _gap_signature(cell: Cell) -> Signature:
    engine, version = judged_engine(cell)
    return Signature(engine, version, UNSUPPORTED, normalise_message(cell.detail))


def cause_groups(summary: ReportSummary, run_dir: Path | None = None) -> list[CauseGroup]:
    """The failing cells (neither pass, skipped nor unsupported) grouped by signature."""
    return group_cells((c for c in summary.cells if c.outcome not in NOT_FAILURES),
                       file_sizes(run_dir))


def causes(summary: ReportSummary, run_dir: Path | None = None) -> CauseReport:
    """Failures by cause, declared gaps by engine and reason, skipped cells by reason."""
    gaps = group_cells((c for c in summary.cells if c.outcome == UNSUPPORTED), lambda _: None,
                       _gap_signature)
    skipped = Counter((judged_engine(c)[0], normalise_message(c.detail))
                      for c in summary.cells if c.outcome == SKIPPED)
    return CauseReport(cause_groups(summary, run_dir), gaps, skipped)


def engine_groups(groups: Sequence[CauseGroup], engine: str) -> list[CauseGroup]:
    """The groups of ``engine``, and of its modes (``fastparquet:filter`` for ``fastparquet``)."""
    return [g for g in groups if base_engine(g.signature.engine) == base_engine(engine)
            and engine in (g.signature.engine, base_engine(engine))]


# -- HTML --------------------------------------------------------------------------------------

def _more(items: Sequence[str], render: Callable[[str], str] = esc) -> str:
    shown = ", ".join(render(i) for i in items[:LISTED])
    return shown + (f" <span class=\"muted\">and {len(items) - LISTED} more</span>"
                    if len(items) > LISTED else "")


def _cell_link(rel: str, cell: Cell, text: str | None = None) -> str:
    target = cell_page(cell.writer, cell.reader, cell.cell_id)
    return f'<a href="{esc(href(rel, target))}">{esc(text or cell.cell_id)}</a>'


def group_html(group: CauseGroup, rel: str) -> str:
    """One group as a section: signature, count, spans, reproducer, evidence, every cell."""
    sig, repro = group.signature, group.reproducer
    size = "" if group.reproducer_size is None else f" ({group.reproducer_size:,} bytes)"
    cells = " ".join(_cell_link(rel, c, c.case_id if c.writer == repro.writer else
                                f"{c.writer}: {c.case_id}") for c in group.cells)
    return "\n".join([
        f'<section class="group" id="{group.anchor}">',
        f"<h3>{badge(sig.outcome)} {esc(sig.engine_at_version)}: "
        f"<code>{esc(sig.kind)}</code> &mdash; {group.count} cell{'s' * (group.count != 1)}</h3>",
        '<dl class="meta">',
        f"<dt>cases</dt><dd>{len(group.cases)}: {_more(group.cases)}</dd>",
        f"<dt>features</dt><dd>{_more(group.features, lambda f: f'<code>{esc(f)}</code>')}</dd>",
        f"<dt>writers</dt><dd>{_more(group.writers)}</dd>",
        f"<dt>reproducer</dt><dd>{_cell_link(rel, repro)} <code>{esc(repro.file or '')}</code>"
        f"{esc(size)}</dd>",
        "</dl>",
        f"<pre>{esc(truncate(group.evidence, EVIDENCE_CHARS))}</pre>",
        f"<details><summary>all {group.count} cells</summary><p>{cells}</p></details>",
        "</section>",
    ])


def groups_html(groups: Sequence[CauseGroup], rel: str) -> str:
    """Sections of ``groups`` for the page at ``rel`` (causes.html, an engine's page)."""
    if not groups:
        return '<p class="muted">none</p>'
    return "\n".join(group_html(g, rel) for g in groups)


def _contents(groups: Sequence[CauseGroup]) -> str:
    rows = "".join(
        f'<tr><td><a href="#{g.anchor}">{g.count}</a></td><td>{esc(g.signature.engine_at_version)}'
        f"</td><td>{badge(g.signature.outcome)}</td><td><code>{esc(g.signature.kind)}</code>"
        f"</td><td>{len(g.cases)}</td></tr>" for g in groups)
    return ("<table><thead><tr><th>cells</th><th>engine</th><th>outcome</th><th>cause</th>"
            f"<th>cases</th></tr></thead><tbody>{rows}</tbody></table>")


def _skipped_html(skipped: Counter) -> str:
    if not skipped:
        return '<p class="muted">none</p>'
    rows = "".join(f"<tr><td>{n}</td><td>{esc(engine)}</td><td>{esc(reason)}</td></tr>"
                   for (engine, reason), n in sorted(skipped.items(), key=lambda kv: (-kv[1], kv[0])))
    return f"<table><thead><tr><th>cells</th><th>engine</th><th>reason</th></tr></thead>{rows}</table>"


def causes_body(report: CauseReport, rel: str = CAUSES) -> str:
    """The body of ``causes.html``."""
    total_skipped = sum(report.skipped.values())
    return "\n".join([
        f"<p>{report.failing_cells} failing cells (error, crash, timeout, flaky, mismatch, "
        f"harness-error) in {len(report.failures)} groups of one cause each: the engine judged "
        "(the reader; the writer of a write or validator cell, or of a file the reference read "
        "wrongly), its version, the outcome, and "
        "the engine's message with numbers, paths and names blanked, or the kind of value "
        f"difference. Not failures, and not counted here: {total_skipped} skipped cells and "
        f"{sum(g.count for g in report.gaps)} declared gaps (unsupported).</p>",
        _contents(report.failures),
        "<h2>Groups</h2>",
        groups_html(report.failures, rel),
        "<h2>Skipped cells, by reason</h2>",
        _skipped_html(report.skipped),
    ])


def write_causes_page(out_dir: Path, report: CauseReport) -> Path:
    return write_page(out_dir, CAUSES, "Failures by cause", causes_body(report))


# -- Markdown ----------------------------------------------------------------------------------

def _md_group(group: CauseGroup, md_text: Callable[[object], str],
              md_block: Callable[[list[str]], list[str]]) -> list[str]:
    sig = group.signature
    cases = ", ".join(group.cases[:5]) + (f" and {len(group.cases) - 5} more" if len(group.cases) > 5 else "")
    return [f"- **{group.count}** {md_text(sig.engine_at_version)} {sig.outcome}: {md_text(sig.kind)}",
            f"  cases: {md_text(cases)}; reproducer: {md_text(group.reproducer.cell_id)}",
            "", *md_block(first_lines(group.evidence, MD_EVIDENCE_LINES)), ""]


def causes_markdown(report: CauseReport, md_text: Callable[[object], str],
                    md_block: Callable[[list[str]], list[str]]) -> list[str]:
    """REPORT.md lines, bounded: the ``MD_GROUPS`` largest groups, then the largest
    ``MD_PER_ENGINE`` of each engine as one line each (``md_text``/``md_block`` are the
    Markdown module's escapes, passed in: that module renders, this one groups)."""
    lines = [f"{report.failing_cells} failing cells in {len(report.failures)} groups "
             f"({sum(report.skipped.values())} skipped and {sum(g.count for g in report.gaps)} "
             "unsupported cells apart).", ""]
    for group in report.failures[:MD_GROUPS]:
        lines += _md_group(group, md_text, md_block)
    if len(report.failures) > MD_GROUPS:
        lines += [f"... and {len(report.failures) - MD_GROUPS} smaller groups (causes.html, "
                  "results.json).", ""]
    lines += ["Largest groups per engine:", ""]
    engines = sorted({g.signature.engine for g in report.failures}, key=engine_order)
    for engine in engines:
        top = [g for g in report.failures if g.signature.engine == engine][:MD_PER_ENGINE]
        lines += [f"- {md_text(engine)}: " + "; ".join(
            f"{g.count} {g.signature.outcome}: {md_text(g.signature.kind)}" for g in top)]
    return lines
