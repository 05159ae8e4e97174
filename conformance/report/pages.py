"""The report as a small static site: its page paths, the shared page shell and style.

The front page (``index.html``) must open in well under two seconds whatever the size of
the run, so the detail lives on pages of its own, each linked from the page that
summarises it, every link relative so the folder can be moved, served or zipped:

======================================= ===============================================
``index.html``                          the implementation-status tables, one per format
``status/<format>/<engine>/<row>.html`` the cells behind one square of a status table
``engines/<engine>.html``               one engine: reads and writes it performed, its
                                        groups of failures, its declared gaps
``causes.html``                         non-pass cells grouped by cause (signature)
``findings.html``                       the upstream-ready findings ledger
``grid.html``                           writer x reader grids, per format and feature tag
``pairs/<writer>--<reader>.html``       every cell of one pair, each anchored by cell id
``bad-files.html``                      what each reader did with the bad-file corpus
``coverage.html``                       the specification sections and the cases citing them
``badges/<engine>-<format>.json``       shields.io endpoint badges
======================================= ===============================================

``page(...)`` renders one page with the shared header, navigation and style; a page
at ``rel`` reaches another at ``target`` with ``href(rel, target)``. Every piece of
text from the dataset goes through ``esc``.
"""

from __future__ import annotations

import html
import posixpath
from pathlib import Path

from .text import visible_controls

INDEX = "index.html"
CAUSES = "causes.html"
FINDINGS = "findings.html"
GRID = "grid.html"
BAD_FILES = "bad-files.html"
COVERAGE = "coverage.html"

NAV: tuple[tuple[str, str], ...] = (
    (INDEX, "Status"),
    (CAUSES, "Failures by cause"),
    (FINDINGS, "Findings"),
    (GRID, "Writer \u00d7 reader"),
    (BAD_FILES, "Bad files"),
    (COVERAGE, "Spec coverage"),
)
"""The top navigation: (page, label)."""

# Colour-blind-safe palette (Okabe-Ito, with Paul Tol's wine/purple for the two
# worst outcomes), each with the text colour that keeps WCAG AA contrast.
COLOURS: dict[str, tuple[str, str]] = {
    "harness-error": ("#000000", "#ffffff"),  # the suite's own bug: unlike any engine outcome
    "crash": ("#882255", "#ffffff"),
    "timeout": ("#aa4499", "#ffffff"),
    "flaky": ("#332288", "#ffffff"),
    "error": ("#d55e00", "#ffffff"),
    "mismatch": ("#e69f00", "#000000"),
    "unsupported": ("#56b4e9", "#000000"),
    "skipped": ("#bbbbbb", "#000000"),
    "pass": ("#009e73", "#000000"),
}

_CSS = """
:root { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; color: #1a1a1a; }
body { margin: 0 auto; padding: 0 1.5rem 4rem; max-width: 110rem; line-height: 1.4; }
h1 { margin: 1rem 0 .5rem; } h2 { margin-top: 2.5rem; border-bottom: 1px solid #ccc; }
nav { position: sticky; top: 0; background: #fff; padding: .4rem 0; border-bottom: 1px solid #ddd;
  z-index: 2; }
nav a { margin-right: 1rem; }
dl.meta { display: grid; grid-template-columns: max-content auto; gap: .2rem 1rem; margin: 0; }
dl.meta dt { font-weight: 600; } dl.meta dd { margin: 0; }
table { border-collapse: collapse; margin: .5rem 0 1rem; }
th, td { border: 1px solid #ccc; padding: .25rem .5rem; text-align: left; vertical-align: top; }
thead th { background: #f2f2f2; }
table.grid td.sq { text-align: center; white-space: nowrap; min-width: 5.5rem; }
table.grid td.sq a, table.grid td.sq span.in { color: inherit; display: block;
  text-decoration: none; }
table.grid td.sq a:hover { text-decoration: underline; }
table.grid td.sq .lbl { display: block; font-size: .75em; }
table.grid td.sq.all-pass { background: #e3f3ec; }
table.grid td.sq.fails { background: #fbeee4; }
table.grid td.sq.idle { color: #666; }
table.grid td.total { border-left: 3px double #666; }
table.grid td.wphase { border-right: 3px double #666; }
table.grid tr.totals td { border-top: 3px double #666; }
td.empty { color: #888; text-align: center; }
.badge { display: inline-block; padding: 0 .4em; border-radius: .25em; font-weight: 600;
  white-space: nowrap; }
.bar { display: flex; height: .45em; min-width: 4rem; margin-top: .15em; }
.bar span { display: block; height: 100%; }
details.feature { margin: .2rem 0; }
details.feature > summary { cursor: pointer; padding: .15rem 0; }
details.feature > summary code { font-weight: 600; }
[id] { scroll-margin-top: 3rem; }
section.group { margin: 1.5rem 0; padding: .25rem .5rem; }
section.group:target, tr:target { outline: 3px solid #0072b2; }
table.fails { width: 100%; table-layout: fixed; }
table.fails col.c-case { width: 18%; } table.fails col.c-outcome { width: 7rem; }
table.fails col.c-tags { width: 16%; } table.fails col.c-file { width: 16%; }
table.fails td { overflow-wrap: anywhere; }
table.fails .tags { font-size: .8em; color: #444; }
pre { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 24em; overflow: auto;
  background: #f7f7f7; padding: .3rem; font-size: .85em; }
.filter { background: #fff3cd; padding: .3rem .6rem; }
.muted { color: #666; }
"""


def style() -> str:
    """The site's style sheet: the shared rules and one class per outcome colour."""
    colours = "".join(
        f".o-{o} {{ background: {bg}; color: {fg}; }}\n" for o, (bg, fg) in COLOURS.items()
    )
    return _CSS + colours


def esc(value: object) -> str:
    """Text from the dataset, safe in HTML content and attribute values."""
    return html.escape(visible_controls(str(value)), quote=True)


def slug(name: str) -> str:
    """Injective, id- and file-name-safe spelling of ``name``: [A-Za-z0-9.-] kept, anything
    else ``_xx`` (its UTF-8 bytes in hex)."""
    out = []
    for ch in name:
        if ch.isascii() and (ch.isalnum() or ch in ".-"):
            out.append(ch)
        else:
            out.extend(f"_{b:02x}" for b in ch.encode("utf-8", "surrogatepass"))
    return "".join(out)


def badge(outcome: str, text: str | None = None) -> str:
    """An outcome's coloured label (its name, or ``text``)."""
    return f'<span class="badge o-{outcome}">{esc(text if text is not None else outcome)}</span>'


def engine_page(engine: str) -> str:
    return f"engines/{slug(engine)}.html"


def pair_page(writer: str, reader: str | None) -> str:
    """The page of one (writer, reader) pair's cells; a writer's write phase has reader None."""
    return f"pairs/{slug(writer)}--{slug(reader or 'write')}.html"


def cell_anchor(cell_id: str) -> str:
    return f"c-{slug(cell_id)}"


def cell_page(writer: str, reader: str | None, cell_id: str) -> str:
    """Where one cell's evidence is: its row on its pair's page."""
    return f"{pair_page(writer, reader)}#{cell_anchor(cell_id)}"


def status_page(fmt: str, engine: str, row: str) -> str:
    return f"status/{slug(fmt)}/{slug(engine)}/{slug(row)}.html"


def href(rel: str, target: str) -> str:
    """The relative link from the page at ``rel`` to ``target`` (both site paths)."""
    page, _, fragment = target.partition("#")
    link = posixpath.relpath(page, posixpath.dirname(rel) or ".")
    return f"{link}#{fragment}" if fragment else link


def page(rel: str, title: str, body: str, *, script: str = "") -> str:
    """One page of the site at path ``rel``: head, navigation, ``body`` (HTML), ``script``."""
    nav = "".join(f'<a href="{href(rel, target)}">{esc(label)}</a>' for target, label in NAV)
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(title)}</title>",
        f"<style>{style()}</style>",
        "</head><body>",
        f"<nav>{nav}</nav>",
        f"<h1>{esc(title)}</h1>",
        body,
        f"<script>{script}</script>" if script else "",
        "</body></html>",
        "",
    ])


def write_page(out_dir: Path, rel: str, title: str, body: str, *, script: str = "") -> Path:
    """Write one page of the site into ``out_dir`` (folders created as needed)."""
    path = out_dir / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(page(rel, title, body, script=script), encoding="utf-8")
    return path
