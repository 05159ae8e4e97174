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
from .dataset import (
    RESULTS_SCHEMA,
    Cell,
    ReportSummary,
    load_results,
    summarise,
    write_consolidated,
)
from .engine_summary import engine_summaries
from .html import write_html
from .jsonout import write_json
from .junit import write_junit
from .markdown import write_markdown
from .outcomes import OUTCOMES
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

    ``out_dir`` is created if needed; existing report files are replaced.
    Returns the run's summary, whose ``files`` maps each file name of
    ``REPORT_FILES`` to the path written.
    """
    table = load_results(results_dir)
    summary = summarise(table)
    summary = dataclasses.replace(summary, unavailable=read_unavailable(Path(results_dir)),
                                  version_notes=version_notes(summary.engines, default_corpus()))
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    engines = engine_summaries(summary)
    tables = status_tables(summary)
    coverage = coverage_report()
    case_ids = {c.case_id for c in summary.cells}
    write_coverage_page(out, case_ids, coverage)
    write_status_pages(tables, out)
    write_badges(tables, out)
    front = [status_section_html(tables), self_reported_html(tables)]
    files = {
        "index.html": write_html(summary, out, engines, front=front),
        "REPORT.md": write_markdown(summary, engines, out / "REPORT.md",
                                    front=[status_markdown(tables)],
                                    back=[coverage_markdown(case_ids, coverage)]),
        "results.json": write_json(summary, engines, out / "results.json", {
            "status": tables_json(tables), "self_reported": self_reported_json(tables),
            "coverage": coverage_json(coverage)}),
        "junit.xml": write_junit(summary, out / "junit.xml"),
        "results.parquet": write_consolidated(table, out / "results.parquet"),
    }
    return dataclasses.replace(summary, files=files)
