"""``engines/<engine>.html``: one engine's page, what it really did and how it went.

Per format, the reads and writes it performed (``engine_summary``: passes / cells that
ran, with the cells that did not run apart), each linking to its pair pages; then the
sections other modules give per engine (its groups of failures, its declared gaps),
passed in by the site writer as ready HTML.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from conformance.formats import display_name

from .causes import CauseReport, engine_groups, groups_html
from .dataset import ReportSummary
from .engine_summary import EngineSummary
from .grid_html import bar, tally_text
from .pages import INDEX, engine_page, esc, href, write_page


def _roles_table(engine: EngineSummary, rel: str) -> str:
    rows = []
    for (fmt, role), tally in engine.tallies.items():
        ratio, note = tally_text(tally)
        rows.append(f"<tr><td>{esc(display_name(fmt))}</td><td>{esc(role)}</td>"
                    f"<td>{esc(ratio)}{bar(tally)}</td><td>{esc(note)}</td>"
                    f'<td class="muted">{esc(tally.breakdown())}</td></tr>')
    if not rows:
        return '<p class="muted">No cell of this run names this engine.</p>'
    return ("<table><thead><tr><th>Format</th><th>Role</th><th>passed / ran</th><th>failed, "
            "not run</th><th>by outcome</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>"
            f'<p class="muted">Its cells, pair by pair: <a href="{href(rel, INDEX)}">status</a> and '
            "the writer &times; reader grid.</p>")


def engine_sections(report: CauseReport, engines: Mapping[str, EngineSummary]) -> dict[str, list[str]]:
    """Each engine's groups of failures and its declared gaps, as sections of its page."""
    return {name: [f"<h2>Its failures, by cause</h2>"
                   f"{groups_html(engine_groups(report.failures, name), engine_page(name))}",
                   f"<h2>Its declared gaps (unsupported)</h2>"
                   f"{groups_html(engine_groups(report.gaps, name), engine_page(name))}"]
            for name in engines}


def write_engine_pages(summary: ReportSummary, engines: Mapping[str, EngineSummary], out: Path,
                       sections: Mapping[str, Sequence[str]] = {}) -> dict[str, str]:
    """Write every engine's page; returns engine -> its page's site path."""
    written = {}
    for name, engine in engines.items():
        rel = engine_page(name)
        roles = ", ".join(summary.roles(name)) or "\u2014"
        body = [f'<p>Version: <strong>{esc(", ".join(engine.versions)) or "—"}</strong>. '
                f"Roles: {esc(roles)}.</p>", "<h2>What it did</h2>", _roles_table(engine, rel),
                *sections.get(name, ())]
        write_page(out, rel, f"{name} {', '.join(engine.versions)}".strip(), "\n".join(body))
        written[name] = rel
    return written
