"""Format-blind mutations: bit flips and truncations, for both formats.

A flip is metadata-only when it lands outside every data region the format's layout
names (ORC's data streams, Parquet's page bodies); without a layout (a seed the
reference cannot read) it is not, to stay on the safe side of ``silent-change``.
A truncation is never metadata-only: it removes whatever lay after the cut.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .mutation import Edit, Mutator

MAX_FLIPPED_BITS = 8
BITS_PER_BYTE = 8
TAIL_CUT_MAX = 64  # a cut near the end, where both formats keep their metadata
TAIL_CUT_CHANCE = 0.5  # a cut near the end, else anywhere

Regions = Callable[[bytes], list[tuple[int, int]] | None]


def flip(data_regions: Regions) -> Mutator:
    """Flip 1 to MAX_FLIPPED_BITS random bits of the file."""

    def mutate(data: bytes, rng: random.Random) -> Edit | None:
        if not data:
            return None
        out = bytearray(data)
        positions = sorted({rng.randrange(len(data)) for _ in range(rng.randint(1, MAX_FLIPPED_BITS))})
        for position in positions:
            out[position] ^= 1 << rng.randrange(BITS_PER_BYTE)
        regions = data_regions(data)
        metadata_only = regions is not None and not any(
            start <= p < end for p in positions for start, end in regions)
        target = "bit flip outside data" if metadata_only else "bit flip"
        return Edit(bytes(out), f"bits flipped at offsets {positions}", metadata_only, target)

    return mutate


def truncate(data: bytes, rng: random.Random) -> Edit | None:
    """Keep a prefix: cut anywhere, or a few bytes off the end."""
    if len(data) < 2:
        return None
    near_end = len(data) - rng.randint(1, min(TAIL_CUT_MAX, len(data) - 1))
    keep = near_end if rng.random() < TAIL_CUT_CHANCE else rng.randrange(1, len(data))
    return Edit(data[:keep], f"truncated to {keep} of {len(data)} bytes", False, "truncation")
