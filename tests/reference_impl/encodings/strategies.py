"""Edge-biased hypothesis strategies for the encoding tests."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

# Lengths at and around miniblock (32) and block (128) boundaries, and empty / single.
BOUNDARY_LENGTHS = [0, 1, 2, 31, 32, 33, 63, 64, 65, 96, 127, 128, 129, 255, 256, 257, 384, 513]


def signed_range(bits: int) -> tuple[int, int]:
    return -(1 << (bits - 1)), (1 << (bits - 1)) - 1


def edge_ints(bits: int) -> st.SearchStrategy[int]:
    """Any signed ``bits``-bit integer, with the extremes and small values favoured."""
    low, high = signed_range(bits)
    return st.one_of(
        st.sampled_from([low, high, 0, -1, 1, low + 1, high - 1]),
        st.integers(-300, 300),
        st.integers(low, high),
    )


@st.composite
def int_sequences(draw: st.DrawFn, bits: int) -> list[int]:
    """Integer sequences whose deltas stress DELTA_BINARY_PACKED: wrap-around
    (``[MAX, MIN]``), constant runs (bit width 0), sorted runs, random noise,
    at lengths around block and miniblock boundaries."""
    low, high = signed_range(bits)
    style = draw(st.sampled_from(["short", "random", "sorted", "constant", "extremes", "mixed"]))
    if style == "short":
        return draw(st.lists(edge_ints(bits), max_size=12))
    length = draw(st.sampled_from(BOUNDARY_LENGTHS) | st.integers(0, 600))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    if style == "random":
        values = rng.integers(low, high, size=length, endpoint=True, dtype=np.int64)
    elif style == "sorted":
        start = draw(edge_ints(bits))
        steps = rng.integers(0, draw(st.sampled_from([1, 3, 1000])), size=length, dtype=np.int64)
        values = (np.cumsum(steps) + start).clip(low, high) if length else steps
    elif style == "constant":
        values = np.full(length, draw(edge_ints(bits)), dtype=np.int64)
    elif style == "extremes":
        values = rng.choice(np.array([low, high, 0, -1], dtype=np.int64), size=length)
    else:
        values = np.where(
            rng.random(length) < 0.1,
            rng.integers(low, high, size=length, endpoint=True, dtype=np.int64),
            rng.integers(-5, 5, size=length, dtype=np.int64),
        )
    return [int(value) for value in values]


# (block size, miniblocks per block) pairs the spec allows.
VALID_BLOCK_PARAMETERS = st.sampled_from([(128, 1), (128, 2), (128, 4), (256, 4), (256, 8), (512, 16)])


def byte_strings(max_size: int = 12) -> st.SearchStrategy[bytes]:
    """Byte strings drawn from a small alphabet so that neighbours share prefixes."""
    return st.one_of(
        st.binary(max_size=max_size),
        st.text(alphabet="ab", max_size=max_size).map(str.encode),
    )
