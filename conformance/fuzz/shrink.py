"""Shrinking a mutant while its class holds: fewer steps, then fewer changed bytes.

First each mutation step is undone in turn (the rest replayed on the seed,
``mutation.replay``) and stays undone when the class still holds. Then, when the
mutant is as long as its seed, its changed bytes are put back to the seed's: each run
of adjacent changed bytes, then each byte of what remains, kept when the class holds.
Every try costs one run of the tool, so ``budget`` bounds them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from .mutation import Mutant, Mutator, replay

DEFAULT_BUDGET = 48


@dataclass(frozen=True)
class Shrunk:
    data: bytes
    mutant: Mutant  # the steps kept
    changed_bytes: int | None  # None when the length changed
    tries: int


def shrink(seed_data: bytes, mutant: Mutant, mutators: Mapping[str, Mutator],
           holds: Callable[[bytes], bool], budget: int = DEFAULT_BUDGET) -> Shrunk:
    tries = 0

    def attempt(data: bytes) -> bool:
        nonlocal tries
        if tries >= budget:
            return False
        tries += 1
        return holds(data)

    kept = mutant
    for step in reversed(mutant.steps):
        if len(kept.steps) == 1:
            break
        fewer = replay(seed_data, mutant.seed_path, [s for s in kept.steps if s != step], mutators)
        if fewer.steps and fewer.data != seed_data and attempt(fewer.data):
            kept = fewer
    data = kept.data
    if len(data) != len(seed_data):
        return Shrunk(data, kept, None, tries)
    for run in sorted(_runs(seed_data, data), key=lambda r: r[0] - r[1]):  # longest first
        data = _revert_if_holds(seed_data, data, [run], attempt)
    for start, end in list(_runs(seed_data, data)):
        if end - start > 1:
            for position in range(start, end):
                data = _revert_if_holds(seed_data, data, [(position, position + 1)], attempt)
    return Shrunk(data, kept, len(_positions(seed_data, data)), tries)


def _revert_if_holds(seed: bytes, data: bytes, spans: list[tuple[int, int]],
                     attempt: Callable[[bytes], bool]) -> bytes:
    reverted = bytearray(data)
    for start, end in spans:
        reverted[start:end] = seed[start:end]
    candidate = bytes(reverted)
    if candidate == seed or candidate == data:
        return data
    return candidate if attempt(candidate) else data


def _positions(seed: bytes, data: bytes) -> list[int]:
    return [i for i, (a, b) in enumerate(zip(seed, data, strict=True)) if a != b]


def _runs(seed: bytes, data: bytes) -> list[tuple[int, int]]:
    """[start, end) of each run of adjacent changed bytes."""
    runs: list[tuple[int, int]] = []
    for position in _positions(seed, data):
        if runs and runs[-1][1] == position:
            runs[-1] = (runs[-1][0], position + 1)
        else:
            runs.append((position, position + 1))
    return runs
