"""Cell outcomes: the vocabulary every report speaks, and its severity order.

A cell of the matrix ends in exactly one outcome:

============= ==========================================================
harness-error the suite's own adapter code failed converting what the engine
              returned (``conformance.matrix.failures``): a bug of this
              suite, never a verdict on the engine; any such cell fails the run
crash         the engine's process died (signal, abort); detail = signal +
              stderr tail
timeout       the engine did not finish within the cell's time limit
flaky         the outcome changed when the cell was run again, isolated
              (``conformance.matrix.retries``); detail = every outcome seen
error         the engine raised; detail = ``"ExceptionClass: message"``
mismatch      the engine returned values that differ from the expected ones;
              detail = a readable value diff
unsupported   the engine declared it cannot do the feature, or the writer
              cannot express the case (not a failure)
skipped       the cell was not run (e.g. the writer produced no file);
              detail = reason
pass          the values round-tripped exactly
============= ==========================================================

``OUTCOMES`` lists them worst first; a group of cells is as bad as its worst cell.
"""

from __future__ import annotations

from collections.abc import Iterable

HARNESS_ERROR = "harness-error"
FLAKY = "flaky"

OUTCOMES: tuple[str, ...] = (
    HARNESS_ERROR,
    "crash",
    "timeout",
    FLAKY,
    "error",
    "mismatch",
    "unsupported",
    "skipped",
    "pass",
)
"""Every outcome, worst first."""

PASS = "pass"
SKIPPED = "skipped"
UNSUPPORTED = "unsupported"

DESCRIPTIONS: dict[str, str] = {
    HARNESS_ERROR: "the suite's own adapter code failed (a bug of this suite, not of the engine)",
    "crash": "the engine process died (signal or abort)",
    "timeout": "the engine did not finish within the time limit",
    FLAKY: "the outcome changed between identical tries of the cell (each one seen is named)",
    "error": "the engine raised an error",
    "mismatch": "the engine returned values that differ from the expected ones",
    "unsupported": "declared unsupported by the engine, or not expressible by the writer",
    "skipped": "not run (e.g. no file to read)",
    "pass": "values round-tripped exactly",
}

_RANK = {outcome: rank for rank, outcome in enumerate(OUTCOMES)}


def severity(outcome: str) -> int:
    """Rank of ``outcome``: 0 is the worst (harness-error), ``len(OUTCOMES) - 1`` is pass."""
    try:
        return _RANK[outcome]
    except KeyError:
        raise ValueError(f"unknown outcome {outcome!r}; expected one of {OUTCOMES}") from None


def worst(outcomes: Iterable[str]) -> str | None:
    """The most severe of ``outcomes``, or None when there are none."""
    ranked = [severity(o) for o in outcomes]
    return OUTCOMES[min(ranked)] if ranked else None
