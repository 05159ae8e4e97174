"""The spec-coverage section of the report, and of ``conformance coverage``: plain text, JSON,
the ``coverage.html`` page and the lines of REPORT.md.

What is counted is ``conformance.specs.coverage``'s (every section of today's specification
texts, the cases citing each); the Parquet site's 'Features and Versions' page and the
features the catalogue covers are ``conformance.specs.features_versions``'. Given the case
ids of a run, the page and the Markdown also say which covered sections the run exercised
(one of its cases ran).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from conformance.specs.coverage import (
    COVERED,
    OLDER_TEXT,
    THROUGH_SUBSECTIONS,
    UNCOVERED,
    Coverage,
    Section,
    TextCoverage,
)
from conformance.specs.coverage import spec_coverage as _spec_coverage
from conformance.specs.features_versions import (
    PAGE,
    PAGE_COMMIT,
    FeatureCoverage,
    beyond_the_page,
    feature_coverage,
)

from .pages import COVERAGE, badge, esc, slug, write_page

__all__ = ["CoverageReport", "coverage_json", "coverage_markdown", "coverage_report", "coverage_text",
           "write_coverage_page"]

PARQUET = "parquet"
SHORT_COMMIT = 7  # characters of a commit hash shown
MD_UNCOVERED_PER_TEXT = 8  # uncovered sections REPORT.md names per text before "and N more"
CASES_SHOWN = 8  # case ids a section lists before the rest fold away (coverage.html)
STATE_BADGES = {COVERED: "pass", THROUGH_SUBSECTIONS: "unsupported", UNCOVERED: "mismatch"}
IN_REFERENCE_MARK = "*"  # after an uncovered section the reference implementation cites
CITED_ONLY_NOTE = "  (cited sections only)"
WRAP_ANYWHERE = "overflow-wrap: anywhere"  # a long case id must not widen the page
FEATURE_COLUMNS = ["feature", "released in", "compatibility", "feature tags", "catalogue", "remark"]


@dataclass(frozen=True)
class CoverageReport:
    """The sections of the texts of one format (or all), and the page's features (Parquet)."""
    sections: Coverage
    features: tuple[FeatureCoverage, ...]


@cache
def coverage_report(fmt: str | None = None) -> CoverageReport:
    """The coverage of today's texts (of ``fmt``, or all); the features when Parquet is in.
    Computed once per process: the catalogue and the texts do not change under a run."""
    features = tuple(feature_coverage()) if fmt in (None, PARQUET) else ()
    return CoverageReport(_spec_coverage().of_format(fmt), features)


def _figures(text: TextCoverage) -> str:
    return (f"{text.count(COVERED)} covered + {text.count(THROUGH_SUBSECTIONS)} through subsections "
            f"/ {text.total} sections; {text.count(UNCOVERED)} uncovered")


def _exercised(sections: list[Section], run: Collection[str]) -> int:
    return sum(not set(s.cases).isdisjoint(run) for s in sections if s.state == COVERED)


def _covered_features(report: CoverageReport) -> str:
    return f"{sum(f.covered for f in report.features)} of {len(report.features)} features covered"


# -- plain text and JSON (conformance coverage) --------------------------------------------------

def coverage_text(report: CoverageReport) -> str:
    """Per text its figures and every uncovered section, then the features table."""
    sections = report.sections
    lines = ["Specification sections the case catalogue cites ('through subsections': only "
             "headings inside it are)", ""]
    width = max((len(t.text.name) for t in sections.texts), default=0)
    lines += [f"  {t.text.name:<{width}}  {_figures(t)}" + (CITED_ONLY_NOTE if t.text.cited_only else "")
              for t in sections.texts]
    lines += ["", f"Uncovered sections ({IN_REFERENCE_MARK}: the reference implementation cites it)"]
    for text in sections.texts:
        if text.uncovered:
            lines.append(f"  {text.text.name} ({len(text.uncovered)}):")
            lines += [f"    {s.name}{IN_REFERENCE_MARK if s.in_reference else ''}" for s in text.uncovered]
    lines += _older_text_lines(sections)
    if report.features:
        lines += ["", *_features_text(report)]
    return "\n".join(lines) + "\n"


def _older_text_lines(sections: Coverage) -> list[str]:
    older = sections.older
    if not older.carried and not older.not_carried:
        return []
    lines = ["", f"References to the older {OLDER_TEXT}: {len(older.carried)} counted "
                 f"for today's section of the same heading, {len(older.not_carried)} not"]
    return lines + [f"  not counted: {r}" for r in older.not_carried]


def _features_text(report: CoverageReport) -> list[str]:
    lines = [f"Features and Versions ({PAGE} at {PAGE_COMMIT[:SHORT_COMMIT]}): {_covered_features(report)}"]
    width = max(len(f.row.feature) for f in report.features)
    lines += [f"  {f.row.feature:<{width}}  {f.row.release:<7}  {f.row.table:<20}  "
              f"{len(f.cases) if f.covered else 'NOT COVERED'}" for f in report.features]
    uncovered = [f for f in report.features if not f.covered]
    lines += ["", "Features not covered:", *(f"  {f.row.feature}: {f.row.remark}" for f in uncovered)]
    lines += ["Today's text beyond the page: " + ", ".join(
        f"{a.feature} ({a.release})" for a in beyond_the_page())]
    return lines


def coverage_json(report: CoverageReport) -> dict:
    out = report.sections.to_json()
    if report.features:
        out["features_and_versions"] = {
            "page": PAGE, "commit": PAGE_COMMIT, "features": [f.to_json() for f in report.features],
            "beyond_the_page": [{"feature": a.feature, "release": a.release, "preview": a.preview}
                                for a in beyond_the_page()]}
    return out


# -- REPORT.md -----------------------------------------------------------------------------------

def coverage_markdown(case_ids_in_run: Collection[str] | None = None,
                      report: CoverageReport | None = None) -> list[str]:
    """The REPORT.md section: the figures per text, the uncovered sections (a few per text;
    coverage.html lists them all) and the features not covered."""
    report = coverage_report() if report is None else report
    run = None if case_ids_in_run is None else set(case_ids_in_run)
    header = ["text", "covered", "through subsections", "uncovered", "total"] + (
        [] if run is None else ["covered, exercised by this run"])
    lines = ["## Specification coverage", "", "| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for t in report.sections.texts:
        row = [t.text.name, t.count(COVERED), t.count(THROUGH_SUBSECTIONS), t.count(UNCOVERED), t.total]
        if run is not None:
            row.append(_exercised(list(t.sections), run))
        lines.append("| " + " | ".join(map(str, row)) + " |")
    lines += ["", f"Uncovered sections (all of them on coverage.html; {IN_REFERENCE_MARK}: the reference "
                  "implementation cites it):", ""]
    for t in report.sections.texts:
        if t.uncovered:
            shown = ", ".join(f"`{s.name}`{IN_REFERENCE_MARK if s.in_reference else ''}"
                              for s in t.uncovered[:MD_UNCOVERED_PER_TEXT])
            more = len(t.uncovered) - MD_UNCOVERED_PER_TEXT
            lines.append(f"- {t.text.name}: {shown}" + (f" and {more} more" if more > 0 else ""))
    if report.features:
        uncovered = ", ".join(f.row.feature for f in report.features if not f.covered) or "none"
        lines += ["", f"Features and Versions page: {_covered_features(report)}; not covered: {uncovered}."]
    return lines + [""]


# -- coverage.html -------------------------------------------------------------------------------

def write_coverage_page(out_dir: Path, case_ids_in_run: Collection[str] | None = None,
                        report: CoverageReport | None = None) -> Path:
    """Write ``coverage.html`` into the report folder ``out_dir``; with a run's case ids, each
    covered section also says whether the run exercised it."""
    report = coverage_report() if report is None else report
    run = None if case_ids_in_run is None else set(case_ids_in_run)
    body = [_intro(), _summary_table(report.sections, run)]
    body += [_text_section(t, run) for t in report.sections.texts]
    body.append(_older_section(report.sections))
    if report.features:
        body.append(_features_section(report))
    return write_page(out_dir, COVERAGE, "Specification coverage", "\n".join(body))


def _intro() -> str:
    return ("<p>Every section of today's specification texts with the cases of the catalogue that "
            "cite it. <em>Covered through subsections</em>: no case cites the heading itself, one "
            "cites a heading inside it. In parquet.thrift and orc_proto.proto a section is a "
            "declaration; ORCv2.md, a draft, counts only with the sections the project cites. "
            f"{esc(IN_REFERENCE_MARK)}: the reference implementation cites the section.</p>")


def _summary_table(sections: Coverage, run: set[str] | None) -> str:
    head = ["text", "covered", "through subsections", "uncovered", "total"] + (
        [] if run is None else ["covered, exercised by this run"])
    rows = []
    for t in sections.texts:
        cells = [f'<a href="#{esc(slug(t.text.name))}">{esc(t.text.name)}</a>',
                 *(str(n) for n in (t.count(COVERED), t.count(THROUGH_SUBSECTIONS), t.count(UNCOVERED),
                                    t.total))]
        if run is not None:
            cells.append(str(_exercised(list(t.sections), run)))
        rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    return _table(head, rows)


def _table(head: list[str], rows: list[str]) -> str:
    return ("<table><thead><tr>" + "".join(f"<th>{esc(h)}</th>" for h in head) + "</tr></thead><tbody>"
            + "".join(rows) + "</tbody></table>")


def _text_section(text: TextCoverage, run: set[str] | None) -> str:
    title = f'<h2 id="{esc(slug(text.text.name))}">{esc(text.text.name)}</h2>'
    housekeeping = f"; not counted, the repository's housekeeping: {', '.join(text.housekeeping)}" \
        if text.housekeeping else ""
    note = f'<p class="muted">{esc(_figures(text) + housekeeping)}</p>'
    if not text.sections:
        return title + note + "<p>No section of this text is cited anywhere in the project.</p>"
    head = ["section", "state", "cases"] + ([] if run is None else ["this run"])
    return title + note + _table(head, [_section_row(s, run) for s in text.sections])


def _section_row(section: Section, run: set[str] | None) -> str:
    indent = f' style="padding-left: {section.level - 1}em"' if section.level > 1 else ""
    mark = IN_REFERENCE_MARK if section.in_reference else ""
    cells = [f"<td{indent}>{esc(section.name)}{esc(mark)}</td>",
             f"<td>{badge(STATE_BADGES[section.state], section.state)}</td>",
             f'<td style="{WRAP_ANYWHERE}">{_case_list(section.cases)}</td>']
    if run is not None:  # only a covered section has cases a run may have exercised
        exercised = "yes" if set(section.cases) & run else "no"
        cells.append(f"<td>{exercised if section.state == COVERED else ''}</td>")
    return "<tr>" + "".join(cells) + "</tr>"


def _case_list(cases: tuple[str, ...]) -> str:
    codes = [f"<code>{esc(c)}</code>" for c in cases]
    if len(codes) <= CASES_SHOWN:
        return " ".join(codes)
    return (" ".join(codes[:CASES_SHOWN]) + f"<details><summary>{len(codes) - CASES_SHOWN} more</summary>"
            + " ".join(codes[CASES_SHOWN:]) + "</details>")


def _older_section(sections: Coverage) -> str:
    older = sections.older
    if not older.carried and not older.not_carried:
        return ""
    rows = [f"<tr><td>{esc(ref)}</td><td>{esc(target)}</td></tr>" for ref, target in older.carried.items()]
    rows += [f"<tr><td>{esc(ref)}</td><td class=\"muted\">not counted (no single heading)</td></tr>"
             for ref in older.not_carried]
    return ("<h2 id=\"older-text\">References to the older printed page</h2><p>A case's reference to "
            f"{esc(OLDER_TEXT)} counts for the section of today's Parquet Markdown texts with the "
            "same heading.</p>" + _table(["reference", "counted for"], rows))


def _features_section(report: CoverageReport) -> str:
    rows = [("<tr>" + "".join(f"<td>{c}</td>" for c in (
        esc(f.row.feature), esc(f.row.release), esc(f.row.table),
        " and ".join(f"<code>{esc(t)}</code>" for t in f.row.tags) or "none",
        badge("pass", f"{len(f.cases)} cases") if f.covered else badge("mismatch", "not covered"),
        esc(f.row.remark))) + "</tr>") for f in report.features]
    beyond = ", ".join(f"{a.feature} ({a.release})" for a in beyond_the_page())
    return (f"<h2 id=\"features\">Features and Versions</h2><p>The Parquet site's page ({esc(PAGE)}, "
            f"commit <code>{esc(PAGE_COMMIT[:SHORT_COMMIT])}</code>): {esc(_covered_features(report))}. "
            f"Today's text beyond the page: {esc(beyond)}.</p>"
            + _table(FEATURE_COLUMNS, rows))
