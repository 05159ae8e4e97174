"""A mutant: a seed file and the steps that changed it, replayable from their seeds.

A *step* is one mutation kind and the random seed it draws from; a *mutator* turns
bytes into an ``Edit`` (the new bytes, what changed, and whether only metadata changed)
or says it does not apply (None: the structure it aims at is absent or unreadable).
Replaying a subset of a mutant's steps on its seed gives a smaller mutant, which is how
``shrink`` undoes steps. ``metadata_only`` is the mutator's promise that no
data-stream (ORC) or page-body (Parquet) byte changed: such a mutant that reads
rows other than its seed's is a ``silent-change`` (``classify``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

# Values that break assumptions: the edges of the integer widths the formats use.
EDGES = (0, 1, -1, 0x7F, 0x80, 0xFF, 0x7FFF, 0xFFFF, (1 << 31) - 1, 1 << 31, (1 << 32) - 1,
         1 << 32, (1 << 63) - 1, -(1 << 31), -(1 << 63))
SMALL_DELTA = 16
MAX_STEPS = 3
MULTI_STEP_CHANCE = 0.3  # a mutant has one step, or with this chance two or three
ATTEMPTS = 16  # draws of a step before a mutant gives up on a seed
FIRST_ATTEMPTS = 3  # draws of a chosen first kind before the seed is given up for it
STEP_SEED_BITS = 32


@dataclass(frozen=True)
class Edit:
    data: bytes
    description: str  # what changed, with the values
    metadata_only: bool
    target: str  # the structure changed, without values: how silent changes are told apart


Mutator = Callable[[bytes, random.Random], Edit | None]


@dataclass(frozen=True)
class Step:
    kind: str
    seed: int

    def to_json(self) -> dict:
        return {"kind": self.kind, "seed": self.seed}


@dataclass(frozen=True)
class Mutant:
    """``data`` is ``steps`` applied to the seed's bytes in turn."""

    seed_path: str
    steps: tuple[Step, ...]
    data: bytes
    descriptions: tuple[str, ...]
    metadata_only: bool
    targets: tuple[str, ...]  # each step's Edit.target

    def to_json(self) -> dict:
        return {"steps": [s.to_json() for s in self.steps],
                "mutations": list(self.descriptions), "targets": list(self.targets),
                "metadata_only": self.metadata_only}


def named(value: object) -> str:
    """An enum member by its name, anything else as it prints."""
    return getattr(value, "name", None) or str(value)


def interesting(old: int, rng: random.Random) -> int:
    """A value near ``old``, a simple function of it, or an edge; never ``old`` itself."""
    choices = [old + 1, old - 1, old + rng.randint(2, SMALL_DELTA), old - rng.randint(2, SMALL_DELTA),
               old * 2, old // 2, rng.choice(EDGES), rng.choice(EDGES)]
    value = rng.choice(choices)
    return value if value != old else old + 1


def replay(seed_data: bytes, seed_path: str, steps: Sequence[Step],
           mutators: Mapping[str, Mutator]) -> Mutant:
    """The mutant ``steps`` make of the seed; a step that no longer applies is skipped."""
    data, descriptions, metadata_only, targets = seed_data, [], True, []
    applied = []
    for step in steps:
        edit = mutators[step.kind](data, random.Random(step.seed))
        if edit is None or edit.data == data:
            continue
        data = edit.data
        applied.append(step)
        targets.append(edit.target)
        descriptions.append(f"{step.kind}: {edit.description}")
        metadata_only = metadata_only and edit.metadata_only
    return Mutant(seed_path, tuple(applied), data, tuple(descriptions), metadata_only, tuple(targets))


def draw(seed_data: bytes, seed_path: str, rng: random.Random, mutators: Mapping[str, Mutator],
         first: str | None = None) -> Mutant | None:
    """A new mutant of the seed with one to MAX_STEPS steps, its first of kind ``first``
    when given, the others of kinds drawn uniformly; None when ``first`` does not apply to
    the seed in FIRST_ATTEMPTS draws, or no kind does in ATTEMPTS."""
    wanted = rng.randint(2, MAX_STEPS) if rng.random() < MULTI_STEP_CHANCE else 1
    kinds = sorted(mutators)
    steps: list[Step] = []
    mutant = None
    for attempt in range(ATTEMPTS):
        if len(steps) == wanted:
            break
        if first is not None and not steps and attempt == FIRST_ATTEMPTS:
            return None
        kind = first if first is not None and not steps else rng.choice(kinds)
        candidate = [*steps, Step(kind, rng.getrandbits(STEP_SEED_BITS))]
        grown = replay(seed_data, seed_path, candidate, mutators)
        if len(grown.steps) == len(candidate) and grown.data != seed_data:
            steps, mutant = candidate, grown
    return mutant
