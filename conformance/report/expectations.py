"""Expectations: what a team already knows of its cells, and the gate that fails only on news.

An expectations file (format in docs/expectations.md) records one run's outcome of every
cell, compactly: the engines and cases (case ids, bad files) the run covered, then only the
cells whose outcome is not the implied one. A cell of a covered case, between covered
engines, is implied to ``pass``, except a read cell of a file whose write cell is listed
(its writer produced no file), implied ``skipped``. A main run of ~71,000 cells is thus
its ~700 cases and the cells that do not pass for a reason of their own.

The gate (``judge``) compares a run with the file, cell by cell:

* regression (fails the gate): a recorded ``pass`` now anything else; any ``crash``,
  ``timeout`` or ``harness-error`` the file does not record for that cell, new cells too;
* flaky (``conformance.matrix.retries``): listed apart; a regression only with
  ``strict_flaky``, unless the file records the cell as flaky;
* progression: a recorded failure that now passes; listed with the command that
  updates the file, never a failure;
* changed: one non-pass outcome for another (``mismatch`` now ``error``); listed;
* new: a cell of a case or engine the file does not cover; listed, and gated only by
  the crash/timeout/harness-error rule (a team records it with the next update).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from conformance.matrix.cells import write_cell_id

from .outcomes import FLAKY, HARNESS_ERROR, OUTCOMES, PASS, SKIPPED, severity
from .text import first_line

FORMAT_LINE = "# conformance expectations 1 (docs/expectations.md)"
ALWAYS_NEWS = frozenset({"crash", "timeout", HARNESS_ERROR})  # a regression unless recorded
FAILED = frozenset({*ALWAYS_NEWS, "error", "mismatch"})
ENGINE, CASE, CELL = "engine", "case", "cell"
FIELDS = {ENGINE: 2, CASE: 2, CELL: 3}  # words of each kind of line
LISTED = 20  # cells of a kind printed before "and N more"


class ExpectationsError(ValueError):
    """An expectations file that does not follow docs/expectations.md (the message says where)."""


@dataclass(frozen=True)
class Expectations:
    engines: frozenset[str]
    cases: frozenset[str]
    outcomes: dict[str, str]  # cell id -> outcome, for cells whose outcome is not implied

    def expected(self, record: dict) -> str | None:
        """The outcome recorded for the run's cell `record`; None for a cell the file does
        not cover (a new case or engine)."""
        if record["case_id"] not in self.cases or not set(_engines(record)) <= self.engines:
            return None
        listed = self.outcomes.get(record["cell_id"])
        if listed is not None:
            return listed
        return SKIPPED if _write_cell(record) in self.outcomes else PASS


def _engines(record: dict) -> list[str]:
    return [name for name in (record["writer"], record.get("reader")) if name]


def _write_cell(record: dict) -> str | None:
    """The cell that wrote the file a read cell reads (None for other cells)."""
    if record["phase"] != "read":
        return None
    return write_cell_id(record["writer"], record["case_id"])


def record_expectations(records: Iterable[dict]) -> Expectations:
    """The expectations a run's `records` make: every outcome that is not implied."""
    records = list(records)
    engines = frozenset(name for r in records for name in _engines(r))
    cases = frozenset(r["case_id"] for r in records)
    listed_writes = {r["cell_id"] for r in records if r["phase"] == "write" and r["outcome"] != PASS}
    outcomes = {}
    for r in records:
        implied = SKIPPED if _write_cell(r) in listed_writes else PASS
        if r["outcome"] != implied:
            outcomes[r["cell_id"]] = r["outcome"]
    return Expectations(engines, cases, outcomes)


def to_text(expectations: Expectations, source: str, counts: Counter[str]) -> str:
    """The file's text: sorted lines, one per engine, case and listed cell."""
    tally = ", ".join(f"{counts[o]} {o}" for o in OUTCOMES if counts[o])
    lines = [FORMAT_LINE, f"# from {source}: {counts.total()} cells: {tally}",
             "# update: conformance expect --write FILE RUN_DIR"]
    lines += [f"{ENGINE} {name}" for name in sorted(expectations.engines)]
    lines += [f"{CASE} {case}" for case in sorted(expectations.cases)]
    lines += [f"{CELL} {cell} {outcome}" for cell, outcome in sorted(expectations.outcomes.items())]
    return "\n".join(lines) + "\n"


def write_expectations(path: Path, records: list[dict], source: str) -> Expectations:
    expectations = record_expectations(records)
    path.write_text(to_text(expectations, source, Counter(r["outcome"] for r in records)),
                    encoding="utf-8")
    return expectations


def read_expectations(path: Path) -> Expectations:
    """Parse an expectations file; raises ExpectationsError naming the line at fault."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ExpectationsError(f"expectations file {path}: {exc}") from None
    kinds: dict[str, list[list[str]]] = {kind: [] for kind in FIELDS}
    for number, line in enumerate(text.splitlines(), 1):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        if words[0] not in FIELDS or len(words) != FIELDS[words[0]]:
            raise ExpectationsError(f"{path}:{number}: expected 'engine NAME', 'case ID' or "
                                    f"'cell CELL_ID OUTCOME', got {line!r}")
        if words[0] == CELL and words[2] not in OUTCOMES:
            raise ExpectationsError(f"{path}:{number}: unknown outcome {words[2]!r}; "
                                    f"expected one of {', '.join(OUTCOMES)}")
        kinds[words[0]].append(words[1:])
    return Expectations(frozenset(w[0] for w in kinds[ENGINE]), frozenset(w[0] for w in kinds[CASE]),
                        {w[0]: w[1] for w in kinds[CELL]})


def worth_retrying(expectations: Expectations) -> Callable[[dict], bool]:
    """Which finished cells the gate has tried again (`conformance.matrix.retries`): those
    that failed, and those whose outcome is not the one recorded."""
    def wanted(record: dict) -> bool:
        expected = expectations.expected(record)
        return record["outcome"] in FAILED or (expected is not None and record["outcome"] != expected)
    return wanted


@dataclass(frozen=True)
class Change:
    cell_id: str
    expected: str | None  # None: a cell the file does not cover
    actual: str
    detail: str

    def describe(self) -> str:
        was = "not in the file" if self.expected is None else f"expected {self.expected}"
        evidence = first_line(self.detail)
        return f"{self.cell_id}: {was}, now {self.actual}" + (f": {evidence}" if evidence else "")


@dataclass
class Verdict:
    regressions: list[Change] = field(default_factory=list)
    flaky: list[Change] = field(default_factory=list)
    progressions: list[Change] = field(default_factory=list)
    changed: list[Change] = field(default_factory=list)
    new: list[Change] = field(default_factory=list)

    def failed(self, strict_flaky: bool = False) -> bool:
        return bool(self.regressions) or (strict_flaky and bool(self.flaky))


def judge(expectations: Expectations, records: Iterable[dict]) -> Verdict:
    """Sort each cell whose outcome is news into the verdict's lists (module docstring),
    each list worst outcome first (a new crash before a new pass)."""
    verdict = Verdict()
    for record in sorted(records, key=lambda r: (severity(r["outcome"]), r["cell_id"])):
        expected, actual = expectations.expected(record), record["outcome"]
        if expected == actual:
            continue
        change = Change(record["cell_id"], expected, actual, record["detail"] or "")
        _kind(verdict, expected, actual).append(change)
    return verdict


def _kind(verdict: Verdict, expected: str | None, actual: str) -> list[Change]:
    if actual == FLAKY:
        return verdict.flaky
    if actual in ALWAYS_NEWS or expected == PASS:
        return verdict.regressions
    if expected is None:
        return verdict.new
    return verdict.progressions if actual == PASS else verdict.changed


def verdict_lines(verdict: Verdict, path: Path, update_command: str, strict_flaky: bool) -> list[str]:
    """What the gate prints: a summary line, then each kind of news, the worst first."""
    flaky_policy = ("a regression (--strict-flaky)" if strict_flaky else
                    "not a regression (--strict-flaky makes it one)")
    sections = [
        ("REGRESSION", verdict.regressions, "fails the gate"),
        ("FLAKY", verdict.flaky, flaky_policy),
        ("PROGRESSION", verdict.progressions, f"now passes; record it: {update_command}"),
        ("CHANGED", verdict.changed, "another failure than the recorded one; not a regression"),
        ("NEW", verdict.new, "not in the file; gated only on crash, timeout, harness-error; "
                             f"record it: {update_command}"),
    ]
    counts = ", ".join(f"{len(changes)} {label.lower()}" for label, changes, _ in sections)
    status = "FAILED" if verdict.failed(strict_flaky) else "passed"
    lines = [f"expectations {path}: gate {status}: {counts}"]
    for label, changes, policy in sections:
        if changes:
            lines.append(f"{label} ({len(changes)}, {policy}):")
            lines += [f"  {change.describe()}" for change in changes[:LISTED]]
            if len(changes) > LISTED:
                lines.append(f"  and {len(changes) - LISTED} more")
    return lines
