"""Shrinking: steps that do not matter are undone, then changed bytes are put back."""

from __future__ import annotations

import random

from conformance.fuzz.mutation import Edit, Step, replay
from conformance.fuzz.shrink import shrink

SEED = bytes(range(32))
FAULT_AT = 7  # the byte whose change "the class" needs


def _set_bytes(*positions: int):
    """A mutator setting ``positions`` to 0xFF (a step's seed is not used)."""
    def mutate(data: bytes, rng: random.Random) -> Edit:
        out = bytearray(data)
        for position in positions:
            out[position] = 0xFF
        return Edit(bytes(out), f"0xFF at {positions}", True, "bytes")
    return mutate


MUTATORS = {"fault": _set_bytes(FAULT_AT, FAULT_AT + 1, 20), "noise": _set_bytes(2, 3, 30)}


def _holds(data: bytes) -> bool:
    return data[FAULT_AT] != SEED[FAULT_AT]


def test_a_step_that_does_not_matter_is_undone_and_so_are_the_bytes_that_do_not():
    mutant = replay(SEED, "seed", [Step("noise", 1), Step("fault", 2)], MUTATORS)
    shrunk = shrink(SEED, mutant, MUTATORS, _holds)
    assert [s.kind for s in shrunk.mutant.steps] == ["fault"]
    assert shrunk.changed_bytes == 1
    assert [i for i in range(len(SEED)) if shrunk.data[i] != SEED[i]] == [FAULT_AT]


def test_the_budget_bounds_the_tries_and_what_is_kept_still_holds():
    mutant = replay(SEED, "seed", [Step("noise", 1), Step("fault", 2)], MUTATORS)
    shrunk = shrink(SEED, mutant, MUTATORS, _holds, budget=2)
    assert shrunk.tries == 2 and _holds(shrunk.data)


def test_a_mutant_of_another_length_keeps_its_bytes():
    def cut(data: bytes, rng: random.Random) -> Edit:
        return Edit(data[:10] + b"\xff", "cut", False, "truncation")
    mutant = replay(SEED, "seed", [Step("cut", 0)], {"cut": cut})
    shrunk = shrink(SEED, mutant, {"cut": cut}, lambda data: len(data) == 11)
    assert shrunk.data == mutant.data and shrunk.changed_bytes is None
