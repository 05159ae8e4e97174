"""Test helper: every branch of a case strategy is reached, within a bounded number of
draws, so a strategy that stops drawing a feature is seen (the hunts would silently
stop covering it)."""

from __future__ import annotations

from collections.abc import Callable, Set
from random import Random

from hypothesis import Phase, find, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample

from conformance.cases import Case

RARE_BRANCH_BUDGET = 2_000  # examples a search for a branch the plain draws missed may try
# Generation only: the example found is not wanted, so it is not shrunk.
_GENERATE = dict(database=None, phases=[Phase.generate])


def reach_every_branch(cases: st.SearchStrategy[Case], branches: Callable[[Case], set[str]],
                       targets: Set[str], draws: int) -> None:
    """Draw cases (derandomized) until their `branches` have reached every target, at most
    `draws` of them; then search for each target none of them reached, each in draws of its
    own (seeded by its name: the derandomized draws depend on the modules imported, as
    Hypothesis draws constants of their source); fail naming the targets never reached."""
    seen: set[str] = set()

    def all_reached(case: Case) -> bool:
        seen.update(branches(case))
        return seen >= targets

    # `find` stops at the first case that satisfies it: here, the one that reaches the last target.
    _found(cases, all_reached, settings(max_examples=draws, derandomize=True, **_GENERATE))
    budget = settings(max_examples=RARE_BRANCH_BUDGET, **_GENERATE)
    missed = [target for target in sorted(set(targets) - seen)
              if not _found(cases, lambda case, target=target: target in branches(case), budget,
                            Random(target))]
    assert not missed, (f"not reached in {draws} derandomized draws nor in {RARE_BRANCH_BUDGET} "
                        f"more for each: {', '.join(missed)}")


def _found(cases: st.SearchStrategy[Case], condition: Callable[[Case], bool], budget: settings,
           random: Random | None = None) -> bool:
    try:
        find(cases, condition, settings=budget, random=random)
    except NoSuchExample:
        return False
    return True
