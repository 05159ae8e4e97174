"""Test helper: every branch of a case strategy is reached, within a bounded number of
draws, so a strategy that stops drawing a feature is seen (the hunts would silently
stop covering it)."""

from __future__ import annotations

from collections.abc import Callable, Set

from hypothesis import find, given, settings
from hypothesis import strategies as st

from conformance.cases import Case

RARE_BRANCH_BUDGET = 2_000  # examples `find` may try for a branch the plain draws missed


def reach_every_branch(cases: st.SearchStrategy[Case], branches: Callable[[Case], set[str]],
                       targets: Set[str], draws: int) -> None:
    """Draw `draws` cases (derandomized) and collect their `branches`; then search for each
    target none of them reached. Raises hypothesis's NoSuchExample for an unreachable one."""
    seen: set[str] = set()

    @settings(max_examples=draws, derandomize=True, database=None)
    @given(cases)
    def draw(case):
        seen.update(branches(case))

    draw()
    budget = settings(max_examples=RARE_BRANCH_BUDGET, derandomize=True, database=None)
    for target in sorted(set(targets) - seen):
        find(cases, lambda case, target=target: target in branches(case), settings=budget)
