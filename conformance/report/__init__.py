"""Reports over the results dataset: HTML, Markdown, JSON, JUnit and a consolidated Parquet.

The matrix writes the results dataset (``results/part-*.parquet``, one row per
cell, schema ``RESULTS_SCHEMA``); every report here is a query over it::

    summary = write_reports("results", "report")   # -> ReportSummary
    sys.exit(exit_code(summary, fail_on={"mismatch", "crash"}))

``write_reports`` writes into ``out_dir``:

=================== =========================================================
``index.html``      the front page of a small static site (html, pages): status
                    tables, engines; detail pages beside it (``pages`` lists them)
``REPORT.md``       the same overview in Markdown (markdown)
``results.json``    run, engines, counts and every cell (jsonout)
``junit.xml``       one testsuite per reader + one for writes (junit)
``results.parquet`` the whole dataset in one file, for DuckDB/pyarrow (dataset)
=================== =========================================================

Modules: ``outcomes`` (vocabulary and severity), ``dataset`` (load, validate,
summarise), ``grid`` (writer x reader tallies), ``text`` (making engine output
safe to embed), one module per output format, ``policy`` (exit code).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from conformance.golden.paths import default_corpus
from conformance.golden.writer_versions import version_notes
from conformance.matrix.results import read_unavailable

from .badges import write_badges
from .causes import causes, write_causes_page
from .dataset import (
    RESULTS_SCHEMA,
    Cell,
    ReportSummary,
    load_results,
    summarise,
    write_consolidated,
)
from .engine_summary import engine_summaries
from .engines_html import engine_sections
from .html import write_html
from .jsonout import write_json
from .junit import write_junit
from .ledger import finding_of_cell, findings_body, ledger
from .markdown import causes_section, write_markdown
from .outcomes import OUTCOMES
from .pages import CAUSES, FINDINGS, write_page
from .policy import FAIL_ON_CHOICES, exit_code
from .self_reported import self_reported_html, self_reported_json
from .spec_coverage import coverage_json, coverage_markdown, coverage_report, write_coverage_page
from .status import status_tables, tables_json
from .status_html import status_section_html, write_status_pages
from .status_markdown import status_markdown

__all__ = [
    "FAIL_ON_CHOICES",
    "OUTCOMES",
    "RESULTS_SCHEMA",
    "REPORT_FILES",
    "Cell",
    "ReportSummary",
    "exit_code",
    "load_results",
    "summarise",
    "write_reports",
]

REPORT_FILES = ("index.html", "REPORT.md", "results.json", "junit.xml", "results.parquet")


def write_reports(results_dir: str | Path, out_dir: str | Path) -> ReportSummary:
    """Load the results dataset at ``results_dir`` and write every report into ``out_dir``.

    ``out_dir`` is created if needed; existing report files are replaced. The run's files
    (for the failure groups' smallest reproducers) are looked for beside ``results_dir``
    (``work/<run id>/results`` beside ``work/<run id>/files``). Returns the run's summary,
    whose ``files`` maps each file name of ``REPORT_FILES`` to the path written.
    """
    table = load_results(results_dir)
    summary = summarise(table)
    summary = dataclasses.replace(summary, unavailable=read_unavailable(Path(results_dir)),
                                  version_notes=version_notes(summary.engines, default_corpus()))
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    run_dir = Path(results_dir).parent if Path(results_dir).is_dir() else None
    engines = engine_summaries(summary)
    tables = status_tables(summary)
    by_cause = causes(summary, run_dir)
    found = ledger(by_cause.failures, run_dir)
    coverage = coverage_report()
    case_ids = {c.case_id for c in summary.cells}
    _write_detail_pages(out, tables, by_cause, found, coverage, case_ids)
    front = [status_section_html(tables), self_reported_html(tables), _findings_link(found)]
    files = {
        "index.html": write_html(summary, out, engines, front=front,
                                 engine_sections=engine_sections(by_cause, engines)),
        "REPORT.md": write_markdown(summary, engines, out / "REPORT.md",
                                    front=[status_markdown(tables), causes_section(by_cause)],
                                    back=[coverage_markdown(case_ids, coverage)]),
        "results.json": write_json(summary, engines, out / "results.json", {
            "status": tables_json(tables), "self_reported": self_reported_json(tables),
            "causes": by_cause.to_json(), "findings": [f.to_json() for f in found],
            "coverage": coverage_json(coverage)}),
        "junit.xml": write_junit(summary, out / "junit.xml"),
        "results.parquet": write_consolidated(table, out / "results.parquet"),
    }
    return dataclasses.replace(summary, files=files)


def _write_detail_pages(out: Path, tables, by_cause, found, coverage, case_ids) -> None:
    """The pages beside the front page that other modules render."""
    write_status_pages(tables, out, finding_of_cell(found))
    write_badges(tables, out)
    write_causes_page(out, by_cause)
    write_page(out, FINDINGS, "Findings ledger", findings_body(found))
    write_coverage_page(out, case_ids, coverage)


def _findings_link(found) -> str:
    return (f'<p>The <a href="{FINDINGS}">findings ledger</a>: {len(found)} distinct findings '
            "(engine@version and cause), each with its smallest file, the rule it breaks and a "
            f'command that reproduces it; the failing cells by cause on <a href="{CAUSES}">'
            "causes.html</a>.</p>")
