"""The fast bit unpacking agrees with the step-by-step one, bit for bit.

``bit_packing.unpack_bits`` (a group of 8 values at a time) and ``unpack_bits_at``
(any position and width per value) against ``unpack_bits_by_bit``, the module
docstring's definition taken one stream bit at a time (Encodings.md, 'Run Length
Encoding / Bit-Packing Hybrid (RLE = 3)', note 1).
"""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.parquet.encodings.bit_packing import (
    MAX_BIT_WIDTH,
    pack_bits,
    unpack_bits,
    unpack_bits_at,
    unpack_bits_by_bit,
)

widths = st.integers(0, MAX_BIT_WIDTH)
# Any bytes: the padding bits after the last value are arbitrary too.
streams = st.tuples(widths, st.integers(0, 70)).flatmap(
    lambda wc: st.tuples(
        st.just(wc[0]),
        st.just(wc[1]),
        st.binary(min_size=-(-wc[0] * wc[1] // 8), max_size=-(-wc[0] * wc[1] // 8) + 9),
    )
)


def test_the_spec_example() -> None:
    packed = bytes([0b10001000, 0b11000110, 0b11111010])
    assert unpack_bits(packed, 3, 8).tolist() == list(range(8))
    assert unpack_bits_by_bit(packed, 3, 8).tolist() == list(range(8))


@given(streams)
def test_groups_of_eight_agree_with_the_bits(stream: tuple[int, int, bytes]) -> None:
    width, count, data = stream
    fast = unpack_bits(data, width, count)
    assert fast.dtype == np.uint64
    assert fast.tobytes() == unpack_bits_by_bit(data, width, count).tobytes()


@given(streams)
def test_values_at_their_bit_positions_agree_with_the_bits(stream: tuple[int, int, bytes]) -> None:
    width, count, data = stream
    positions = np.arange(count, dtype=np.int64) * width
    at = unpack_bits_at(data, positions, np.full(count, width, dtype=np.int64))
    assert at.tobytes() == unpack_bits_by_bit(data, width, count).tobytes()


@given(st.lists(st.tuples(widths, st.integers(0, 2**64 - 1)), max_size=40), st.integers(0, 7))
def test_values_of_mixed_widths_back_to_back(values: list[tuple[int, int]], lead: int) -> None:
    # Each value packed on its own, the streams joined at bit level after `lead` zero bits.
    bits: list[int] = [0] * lead
    positions, expected = [], []
    for width, value in values:
        value &= (1 << width) - 1
        positions.append(len(bits))
        expected.append(value)
        bits += [(value >> j) & 1 for j in range(width)]
    data = np.packbits(np.array(bits, dtype=np.uint8), bitorder="little").tobytes()
    widths_array = np.array([width for width, _ in values], dtype=np.int64)
    got = unpack_bits_at(data, np.array(positions, dtype=np.int64), widths_array)
    assert got.tolist() == expected
    for width, value in values:  # and each one alone through the packer
        masked = value & ((1 << width) - 1)
        assert unpack_bits(pack_bits(np.array([masked], dtype=np.uint64), width), width, 1).tolist() == [
            masked
        ]
