"""Exit policy: when does a run make the `conformance` command exit non-zero?

A conformance run exists to find engines that disagree with the spec, so by
default findings about engines under test do not fail the command: only the
suite itself being broken does: the reference disagreeing with itself (a cell
whose writer and reader are both ``reference`` that is not ``pass``), or any
``harness-error`` cell (the suite's adapter code failed converting an engine's
answer: a bug of this suite, reported apart from every engine verdict).

CI jobs that guard an engine ask for more with ``fail_on``: a set of
outcomes (e.g. ``{"mismatch", "crash"}``) any cell of which fails the run,
or ``{"any"}`` for every outcome except ``pass`` and ``unsupported`` (a
declared limitation is not a regression).
"""

from __future__ import annotations

from collections.abc import Collection

from .dataset import ReportSummary
from .outcomes import HARNESS_ERROR, OUTCOMES, PASS

ANY = "any"
FAIL_ON_CHOICES: tuple[str, ...] = (*(o for o in OUTCOMES if o != PASS), ANY)
_ANY_OUTCOMES = frozenset(o for o in OUTCOMES if o not in (PASS, "unsupported"))


def failing_outcomes(fail_on: Collection[str]) -> frozenset[str]:
    """The outcomes ``fail_on`` names; ``"any"`` expands to every non-pass, non-unsupported one.

    Raises ValueError on a name that is not an outcome (a typo must not
    silently turn a CI gate off).
    """
    unknown = sorted(set(fail_on) - set(FAIL_ON_CHOICES))
    if unknown:
        raise ValueError(f"unknown fail_on value(s) {unknown}; choose from {list(FAIL_ON_CHOICES)}")
    outcomes = set(fail_on) - {ANY}
    if ANY in fail_on:
        outcomes |= _ANY_OUTCOMES
    return frozenset(outcomes)


def exit_code(summary: ReportSummary, fail_on: Collection[str] = frozenset()) -> int:
    """1 if the run fails the policy, else 0.

    Fails when the reference's self-check has a non-pass cell, when any cell is a
    ``harness-error``, or when any cell's outcome is one of ``failing_outcomes(fail_on)``.
    """
    if isinstance(fail_on, str):
        raise TypeError("fail_on must be a collection of outcome names, not a string")
    failing = failing_outcomes(fail_on) | {HARNESS_ERROR}
    if summary.reference_failures():
        return 1
    if any(cell.outcome in failing for cell in summary.cells):
        return 1
    return 0
