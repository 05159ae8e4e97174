"""The status tables, the scores and the self-reported comparison in Markdown (REPORT.md).

``python -m conformance.report.status_markdown RESULTS`` prints them for a results dataset.

Each square is its short label (``status_html.square_label``); the evidence of a square is
on its page of the HTML report, ``status/<format>/<engine>/<row>.html``.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping

from conformance.formats import display_name

from .dataset import load_results, summarise
from .self_reported import PARQUET, disagreements, disagreements_markdown
from .status import STATE_NO_DATA, StatusTable, status_tables
from .status_html import (
    NOT_ON_SITE,
    PARTIAL_MARK,
    PARTIAL_MEANING,
    STATE_LABELS,
    STATE_MEANINGS,
    square_label,
)


def _cell(text: str) -> str:
    return text.replace("|", "\\|") or " "


def table_markdown(table: StatusTable) -> list[str]:
    """One format's status table: a row per feature, a column per engine, group rows
    carrying each engine's score."""
    columns = [_cell(table.column(e)) for e in table.engines]
    lines = ["| Feature | " + " | ".join(columns) + " |", "| --- |" + " --- |" * len(columns)]
    for group, rows in table.groups():
        scores = " | ".join(f"**{table.score(e, group).text}**" for e in table.engines)
        lines.append(f"| **{_cell(group)}** | {scores} |")
        for row in rows:
            label = row.label + ("" if row.on_site else NOT_ON_SITE)
            squares = " | ".join(_cell(square_label(table.square(row, e))) for e in table.engines)
            lines.append(f"| {_cell(label)} | {squares} |")
    return lines


def score_markdown(table: StatusTable) -> list[str]:
    """Engines x groups: each engine's score, and how many rows measured it."""
    groups = [g for g, _ in table.groups()]
    lines = ["| Engine | " + " | ".join(groups) + " | All rows |",
             "| --- |" + " --- |" * (len(groups) + 1)]
    for engine in table.engines:
        scores = [table.score(engine, g) for g in groups] + [table.score(engine)]
        lines.append(f"| {_cell(table.column(engine))} | "
                     + " | ".join(f"{s.text} ({s.measured}/{s.total})" for s in scores) + " |")
    return lines


def legend_markdown() -> list[str]:
    items = [f"`{STATE_LABELS[s] or ' '}` {m}" for s, m in STATE_MEANINGS.items() if s != STATE_NO_DATA]
    return ["; ".join(items) + f"; blank: no data; `{PARTIAL_MARK}` {PARTIAL_MEANING}; "
            f"{NOT_ON_SITE} a row the Parquet site's table lacks. Scores: docs/report.md, "
            "'Conformance score' (the row count is rows measured / rows)."]


def status_markdown(tables: Mapping[str, StatusTable]) -> list[str]:
    """REPORT.md's status section: per format its table, its scores and its no-data rows;
    for Parquet, the disagreements with the site's self-reported table."""
    lines = ["## Implementation status, measured", "", *legend_markdown()]
    for fmt, table in tables.items():
        name = display_name(fmt)
        no_data = table.no_data_rows()
        lines += ["", f"### {name}", "", *table_markdown(table), "",
                  f"#### {name}: conformance score", "", *score_markdown(table)]
        if no_data:
            lines += ["", "No data: " + "; ".join(f"{r.label} ({r.note or 'no cell'})" for r in no_data)
                      + "."]
        if fmt == PARQUET:
            lines += ["", f"#### {name}: measured against self-reported", "",
                      *disagreements_markdown(disagreements(table), table)]
    return lines


def main(argv: list[str] | None = None) -> int:
    """``python -m conformance.report.status_markdown RESULTS``: print the status section of
    the results dataset at RESULTS (a results directory or a report's results.parquet)."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m conformance.report.status_markdown RESULTS", file=sys.stderr)
        return 2
    print("\n".join(status_markdown(status_tables(summarise(load_results(args[0]))))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
