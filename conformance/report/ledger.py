"""The findings ledger: one upstream-ready entry per distinct finding (engine@version,
signature), for a maintainer to act on without running the suite.

Each failure group of ``causes`` is one finding; its entry holds:

* the smallest file showing it (the group's reproducer: path, size, sha256), and where
  the case is a regression the folder of the golden corpus keeping its shrunk example
  (``conformance.golden.regressions``);
* the rule it breaks, quoted with its strength: for a validator cell the finding's own
  rule text (``reference_impl/*/validation/rule_texts.py``), for a bad file the
  catalogue's fault, and otherwise the normative sentence of the sections the case cites
  (``conformance.specs.sentences``; it needs the folder of specification texts);
* the expected and actual values, from the reproducer's evidence;
* one command reproducing it outside the suite (``reproducers``).

``conformance findings RUN_DIR`` prints the ledger (``ledger_text``), ``--json`` as JSON,
``--out DIR`` copies each finding's file beside a README (``write_ledger_folder``);
``findings_body`` is the body of ``findings.html``.
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from conformance.cases import case_by_id
from conformance.cases.predicate import Predicate
from conformance.golden.paths import REGRESSIONS_DIR
from conformance.golden.regressions import AREA as REGRESSION_AREA
from conformance.specs.sentences import quote

from .causes import CauseGroup, run_file
from .dataset import REJECT
from .pages import CAUSES, FINDINGS, badge, cell_page, esc, href, slug
from .rejections import fault
from .reproducers import filtered_read_command, read_command, validate_command, write_command
from .signature import VALIDATOR
from .text import first_lines

_EXPECTED_GOT = re.compile(r"expected (.+?), got (.+?)(?: \(isAdjustedToUTC differs\))?$")
EVIDENCE_LINES = 6
FILTER_MODE = ":filter"  # a reader's filtered-read mode (pyarrow:filter)


@dataclass(frozen=True)
class Rule:
    reference: str  # where it is written: "LogicalTypes.md: Lists", a rule table, the catalogue
    sentence: str
    strength: str


@dataclass
class Finding:
    number: int
    group: CauseGroup
    path: Path | None  # the reproducer's file where it was found
    rule: Rule | None
    expected: str
    actual: str
    command: str | None

    @property
    def title(self) -> str:
        return str(self.group.signature)

    @property
    def file(self) -> dict:
        cell = self.group.reproducer
        sha = cell.file_sha256
        if self.path is not None and not sha:
            sha = hashlib.sha256(self.path.read_bytes()).hexdigest()
        return {"path": cell.file, "found_at": None if self.path is None else str(self.path),
                "size": self.group.reproducer_size, "sha256": sha,
                "regression": regression_folder(cell.case_id)}

    def to_json(self) -> dict:
        rule = None if self.rule is None else vars(self.rule)
        return {"number": self.number, **self.group.signature.to_json(), "count": self.group.count,
                "cases": self.group.cases, "reproducer_cell": self.group.reproducer.cell_id,
                "file": self.file, "rule": rule, "expected": self.expected, "actual": self.actual,
                "command": self.command, "evidence": self.group.evidence}


def regression_folder(case_id: str) -> str | None:
    """The golden corpus folder of a regression case's shrunk example."""
    prefix = f"{REGRESSION_AREA}/"
    if not case_id.startswith(prefix):
        return None
    return f"golden_files/{REGRESSIONS_DIR}/{case_id.removeprefix(prefix)}"


def _rule(group: CauseGroup, spec_dir: Path | None) -> Rule | None:
    cell = group.reproducer
    if cell.reader == VALIDATOR and cell.findings:
        # a finding carries the rule it checks (docs/validation.md); the first untrue one's
        rule = next((f.get("rule") for f in json.loads(cell.findings)
                     if f["severity"] == "untrue" and f.get("rule")), None)
        if rule:
            return Rule(rule["spec"], rule["sentence"], rule["strength"])
    found = quote(spec_dir, _references(group), group.signature.kind)
    if cell.phase == REJECT:
        sentence = fault(cell) + (f' ({found.reference}: "{found.sentence}")' if found else "")
        return Rule("the bad-file catalogue (golden_files/bad/index.json)", sentence,
                    found.strength if found else "MUST")
    return None if found is None else Rule(found.reference, found.sentence, found.strength)


def _references(group: CauseGroup) -> tuple[str, ...]:
    """The sections the group's cases cite, the reproducer's first, then by how many cells
    cite them (a shrunk regression case cites little)."""
    counts = Counter(ref for cell in group.cells for ref in cell.spec)
    rest = sorted(set(counts) - set(group.reproducer.spec), key=lambda ref: (-counts[ref], ref))
    return (*group.reproducer.spec, *rest)


def _values(group: CauseGroup) -> tuple[str, str]:
    """(expected, actual) from the reproducer's evidence."""
    detail = group.evidence
    if group.signature.outcome == "mismatch":
        for line in detail.splitlines():
            if found := _EXPECTED_GOT.search(line):
                return found.group(1), found.group(2)
        if group.reproducer.phase == REJECT:
            return "the file rejected with an error", " ".join(first_lines(detail, 2))
    lines = first_lines(detail, 1)
    return "the case's values, read without error", lines[0] if lines else group.signature.outcome


def _command(group: CauseGroup, path: Path | None) -> str | None:
    cell = group.reproducer
    if cell.reader is None:
        return write_command(cell.writer, cell.case_id)
    shown = str(path) if path is not None else cell.file or ""
    if cell.reader == VALIDATOR:
        return validate_command(shown)
    fmt = cell.format or "parquet"
    predicate = _predicate(cell.case_id) if cell.reader.endswith(FILTER_MODE) else None
    filtered = None if predicate is None else filtered_read_command(cell.reader, shown, predicate, fmt)
    return filtered or read_command(cell.reader, shown, fmt)


def _predicate(case_id: str) -> Predicate | None:
    """The case's predicate (None for a case the catalogue no longer has)."""
    try:
        return case_by_id(case_id).predicate
    except KeyError:
        return None


def ledger(groups: list[CauseGroup], run_dir: Path | None = None, spec_dir: Path | None = None
           ) -> list[Finding]:
    """One finding per failure group, in the groups' order (largest first)."""
    findings = []
    for number, group in enumerate(groups, 1):
        path = run_file(group.reproducer, run_dir)
        findings.append(Finding(number, group, path, _rule(group, spec_dir), *_values(group),
                                _command(group, path)))
    return findings


# -- renderers ---------------------------------------------------------------------------------

def entry_text(finding: Finding) -> list[str]:
    """One finding as plain text (the CLI, and each README of ``--out``)."""
    file, rule = finding.file, finding.rule
    size = "size unknown (file not found)" if file["size"] is None else f"{file['size']} bytes"
    lines = [f"#{finding.number} {finding.title}",
             f"  cells: {finding.group.count} over {len(finding.group.cases)} case(s); "
             f"reproducer cell {finding.group.reproducer.cell_id}",
             f"  file: {file['path']} ({size}, sha256 {file['sha256']})"]
    if file["regression"]:
        lines.append(f"  shrunk example kept in the golden corpus: {file['regression']}")
    lines.append(f"  rule ({rule.strength}, {rule.reference}): \"{rule.sentence}\"" if rule
                 else "  rule: no sentence resolved (give --spec, the folder of the specification texts)")
    lines += [f"  expected: {finding.expected}", f"  actual:   {finding.actual}",
              f"  reproduce: {finding.command or 'no command known for this engine'}",
              "  evidence:", *(f"    {line}" for line in first_lines(finding.group.evidence, EVIDENCE_LINES))]
    return lines


def ledger_text(findings: list[Finding]) -> str:
    return "\n".join(line for f in findings for line in [*entry_text(f), ""])


def write_ledger_folder(findings: list[Finding], out: Path) -> Path:
    """``out/<number>-<engine>/``: the finding's file and a README.md with its entry."""
    for finding in findings:
        folder = out / f"{finding.number:04d}-{slug(finding.group.signature.engine)}"
        folder.mkdir(parents=True, exist_ok=True)
        if finding.path is not None:
            shutil.copyfile(finding.path, folder / finding.path.name)
        readme = ["```text", *entry_text(finding), "```", ""]
        (folder / "README.md").write_text("\n".join(readme), encoding="utf-8")
    return out


def _entry_html(finding: Finding, rel: str) -> str:
    group, file, rule = finding.group, finding.file, finding.rule
    cell, sig = group.reproducer, group.signature
    link = href(rel, cell_page(cell.writer, cell.reader, cell.cell_id))
    rule_html = (f"<dt>rule</dt><dd>{esc(rule.strength)} &middot; {esc(rule.reference)}"
                 f"<blockquote>{esc(rule.sentence)}</blockquote></dd>" if rule
                 else '<dt>rule</dt><dd class="muted">not resolved</dd>')
    return "\n".join([
        f'<section class="group" id="f-{finding.number}">',
        f"<h3>#{finding.number} {badge(sig.outcome)} "
        f"{esc(sig.engine_at_version)}: <code>{esc(sig.kind)}</code></h3>",
        '<dl class="meta">',
        f'<dt>cells</dt><dd><a href="{esc(href(rel, CAUSES))}#{group.anchor}">'
        f"{group.count}</a> over {len(group.cases)} case(s)</dd>",
        f'<dt>file</dt><dd><a href="{esc(link)}">{esc(file["path"] or cell.cell_id)}</a> '
        f"{esc(file['size'] if file['size'] is not None else '?')} bytes, sha256 "
        f"<code>{esc(file['sha256'] or '?')}</code></dd>",
        rule_html,
        f"<dt>expected</dt><dd><code>{esc(finding.expected)}</code></dd>",
        f"<dt>actual</dt><dd><code>{esc(finding.actual)}</code></dd>",
        f"<dt>reproduce</dt><dd><pre>{esc(finding.command or 'no command known')}</pre></dd>",
        "</dl></section>",
    ])


def finding_of_cell(findings: list[Finding]) -> dict[str, str]:
    """Cell id -> the site path of the finding its failure belongs to."""
    return {cell.cell_id: f"{FINDINGS}#f-{finding.number}"
            for finding in findings for cell in finding.group.cells}


def findings_body(findings: list[Finding], rel: str = FINDINGS) -> str:
    """The body of ``findings.html``."""
    intro = (f"<p>{len(findings)} distinct findings (engine@version and cause). Each names the "
             "smallest file showing it, the rule it breaks, the expected and actual values and a "
             "command that reproduces it outside the suite; <code>conformance findings RUN_DIR "
             "--out DIR</code> copies the files beside a README per finding.</p>")
    return intro + "\n".join(_entry_html(f, rel) for f in findings)


# -- what `conformance findings` is given ------------------------------------------------------

RESULTS_FILE = "results.parquet"  # a report directory's consolidated dataset
RESULTS_DIR = "results"  # a run directory's dataset of parts


def run_inputs(paths: list[Path]) -> tuple[Path, Path | None]:
    """(results dataset, folder the cells' files are under) from what `conformance run
    --workdir W --report R` leaves: R (its results.parquet), W (its newest run), the run
    directory W/<run id>, or both R and W. Raises FileNotFoundError when none holds results."""
    results = files = None
    for path in paths:
        runs = sorted(p.parent for p in path.glob(f"*/{RESULTS_DIR}") if p.is_dir())
        if (path / RESULTS_FILE).is_file():
            results = results or path / RESULTS_FILE
        elif (path / RESULTS_DIR).is_dir():
            results, files = results or path / RESULTS_DIR, path
        elif runs:
            results, files = results or runs[-1] / RESULTS_DIR, path
    if results is None:
        raise FileNotFoundError(f"no results in {', '.join(map(str, paths))}: give the report "
                                f"directory (with {RESULTS_FILE}) or the run's work directory")
    return results, files
