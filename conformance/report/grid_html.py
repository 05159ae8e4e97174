"""``grid.html`` and ``features/``: the writer x reader grids, passes and failures side by side.

A square of a grid counts the read cells of one (writer, reader) pair. It shows
``passes/performed`` (cells that really ran: skipped cells and declared gaps apart),
under it how many failed and how many did not run, and a bar with one segment per
outcome, as wide as its share of the square's cells. So a square where 12 cells passed
and 102 were not run reads ``12/12``, not "skipped"; the colour of the worst outcome is
one segment of the bar, never the whole square. Each square links to its pair's page
(``pairs_html``), which lists every cell with its evidence; a feature grid's square
opens that page filtered to the feature.

``grid.html`` holds one grid per format and the list of feature tags, each with its
tally; every tag's grid is a page of its own under ``features/``, so no page grows
with the number of tags.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

from conformance.formats import display_name

from .dataset import ReportSummary
from .grid import Grid, Tally, feature_grids, format_grids, group_by_prefix
from .outcomes import OUTCOMES, PASS
from .pages import GRID, badge, esc, href, pair_page, slug, write_page

BAR_ORDER = tuple(reversed(OUTCOMES))  # pass first, then the outcomes by rising severity

Link = Callable[[str, str | None], str]
"""(writer, reader or None for the write phase) -> the site path a square links to."""


def feature_page(fmt: str, tag: str) -> str:
    return f"features/{slug(fmt)}/{slug(tag)}.html"


def bar(tally: Tally) -> str:
    """One segment per outcome present, as wide as its share of the tally's cells."""
    segments = "".join(
        f'<span class="o-{o}" style="width:{100 * tally.counts[o] / tally.total:.1f}%"></span>'
        for o in BAR_ORDER if tally.counts.get(o))
    return f'<span class="bar">{segments}</span>'


def tally_text(tally: Tally) -> tuple[str, str]:
    """The square's two lines: ``passes/performed`` and what failed or did not run."""
    idle = tally.total - tally.performed
    notes = [f"{tally.failures} failed" if tally.failures else "",
             f"{idle} not run" if idle else ""]
    ratio = f"{tally.passes}/{tally.performed}" if tally.performed else "none ran"
    return ratio, ", ".join(n for n in notes if n)


def square(tally: Tally, target: str, rel: str, extra_class: str = "") -> str:
    """A grid square linking (from the page at ``rel``) to ``target`` ("" for no link)."""
    cls = f"sq {extra_class}".strip()
    if not tally.total:
        return f'<td class="{cls} empty" title="no cells">&mdash;</td>'
    ratio, note = tally_text(tally)
    state = "all-pass" if tally.passes == tally.total else ("fails" if tally.failures else "idle")
    inner = f'{ratio}<span class="lbl">{esc(note) or "all pass"}</span>{bar(tally)}'
    tag = "a" if target else "span"
    link = f' href="{esc(href(rel, target))}"' if target else ""
    return (f'<td class="{cls} {state}" title="{esc(tally.breakdown())}">'
            f'<{tag} class="in"{link}>{inner}</{tag}></td>')


def grid_table(grid: Grid, rel: str, link: Link) -> str:
    """The grid as a table on the page at ``rel``; squares link where ``link`` says."""
    head = ['<th scope="col">writer \\ reader</th>', '<th scope="col">write phase</th>',
            *(f'<th scope="col">{esc(r)}</th>' for r in grid.readers),
            '<th scope="col">all reads</th>']
    rows = []
    for w in grid.writers:
        cells = [f'<th scope="row">{esc(w)}</th>',
                 square(grid.write(w), link(w, None), rel, "wphase"),
                 *(square(grid.read(w, r), link(w, r), rel) for r in grid.readers),
                 square(grid.row_total(w), "", rel, "total")]
        rows.append("<tr>" + "".join(cells) + "</tr>")
    totals = ['<th scope="row">all writers</th>',
              square(Tally.merge(grid.writes.values()), "", rel, "wphase"),
              *(square(grid.column_total(r), "", rel) for r in grid.readers),
              square(grid.read_total(), "", rel, "total")]
    rows.append('<tr class="totals">' + "".join(totals) + "</tr>")
    return ('<table class="grid"><thead><tr>' + "".join(head) + "</tr></thead><tbody>"
            + "".join(rows) + "</tbody></table>")


def pair_link(tag: str | None = None) -> Link:
    """Squares link to their pair's page, filtered to ``tag`` when given."""
    query = f"?tag={quote(tag, safe='')}" if tag else ""
    return lambda writer, reader: pair_page(writer, reader) + query


LEGEND = ('<p class="muted">A square counts the read cells of one writer &times; reader pair: '
          "<em>passes / cells that ran</em>, then how many failed and how many did not run "
          "(skipped: no file to read; unsupported: a declared gap), and a bar with one segment "
          "per outcome. Click a square for its cells and their evidence.</p>")


def write_grid_pages(summary: ReportSummary, out: Path, extra: str = "") -> Path:
    """``grid.html`` (ending with the HTML ``extra``) and one page per (format, feature tag)
    under ``features/``."""
    parts = [LEGEND]
    for fmt, grid in format_grids(summary).items():
        parts.append(f'<h2 id="grid-{slug(fmt)}">{esc(display_name(fmt))}</h2>')
        parts.append(grid_table(grid, GRID, pair_link()))
        parts.append(_feature_index(summary, fmt, out))
    parts.append(extra)
    return write_page(out, GRID, f"Writer \u00d7 reader {summary.run_id}".strip(), "\n".join(parts))


def _feature_index(summary: ReportSummary, fmt: str, out: Path) -> str:
    """The tags of ``fmt`` by prefix, each a line linking to its own grid page."""
    grids = feature_grids(summary, fmt)
    parts = [f'<h3 id="tags-{slug(fmt)}">By feature tag</h3>']
    for prefix, tags in group_by_prefix(grids):
        items = []
        for tag in tags:
            target = feature_page(fmt, tag)
            _write_feature_page(out, target, fmt, grids[tag])
            overall = grids[tag].overall()
            ratio, note = tally_text(overall)
            colour = PASS if overall.passes == overall.total else (overall.worst or PASS)
            items.append(f'<li><a href="{esc(href(GRID, target))}"><code>{esc(tag)}</code></a> '
                         f"{badge(colour, ratio)} <span class=\"muted\">{esc(note)}</span></li>")
        parts.append(f'<h4>{esc(prefix)}</h4><ul class="tags">{"".join(items)}</ul>')
    return "\n".join(parts)


def _write_feature_page(out: Path, rel: str, fmt: str, grid: Grid) -> None:
    body = LEGEND + grid_table(grid, rel, pair_link(grid.tag))
    write_page(out, rel, f"{display_name(fmt)}: {grid.tag}", body)
