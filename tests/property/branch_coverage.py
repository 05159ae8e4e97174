"""Test helper: every branch of a case strategy is reached, within a bounded number of
draws, so a strategy that stops drawing a feature is seen (the hunts would silently
stop covering it)."""

from __future__ import annotations

from collections.abc import Callable, Set

from hypothesis import Phase, find, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample

from conformance.cases import Case


def reach_every_branch(cases: st.SearchStrategy[Case], branches: Callable[[Case], set[str]],
                       targets: Set[str], max_draws: int) -> None:
    """Draw cases (derandomized) until their `branches` have reached every target, at most
    `max_draws` of them; fail naming the targets none of them reached."""
    seen: set[str] = set()

    def all_reached(case: Case) -> bool:
        seen.update(branches(case))
        return seen >= targets

    # `find` stops at the first case that satisfies it: here, the one that reaches the last
    # target. Generation only: the example found is not wanted, so it is not shrunk.
    budget = settings(max_examples=max_draws, derandomize=True, database=None, phases=[Phase.generate])
    try:
        find(cases, all_reached, settings=budget)
    except NoSuchExample:
        missed = ", ".join(sorted(set(targets) - seen))
        raise AssertionError(f"not reached in {max_draws} derandomized draws: {missed}") from None
