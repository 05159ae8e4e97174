"""ORCv1.md, 'Direct': the 5 bit width encoding table, and big-endian bit packing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.orc.encodings.bit_packing import (
    closest_aligned_width,
    closest_fixed_width,
    decode_width,
    encode_width,
    pack,
    unpack,
)
from reference_impl.orc.errors import CorruptRle

# The table's rows: (width in bits, encoded value).
SPEC_TABLE = [(1, 0), (2, 1), (4, 3), (8, 7), (16, 15), (24, 23), (32, 27), (40, 28), (48, 29),
              (56, 30), (64, 31), (3, 2), (26, 24), (28, 25), (30, 26)]
SPEC_TABLE += [(x, x - 1) for x in (*range(5, 8), *range(9, 16), *range(17, 22))]


@pytest.mark.parametrize(("width", "code"), SPEC_TABLE)
def test_width_table(width: int, code: int) -> None:
    assert decode_width(code) == width
    assert encode_width(width) == code


def test_code_zero_is_zero_bits_in_delta() -> None:
    assert decode_width(0, delta=True) == 0
    assert decode_width(0) == 1


def test_closest_widths() -> None:
    assert [closest_fixed_width(bits) for bits in (0, 3, 25, 33, 57)] == [1, 3, 26, 40, 64]
    assert [closest_aligned_width(bits) for bits in (0, 3, 5, 9, 25, 57)] == [1, 4, 8, 16, 32, 64]
    with pytest.raises(ValueError):
        encode_width(25)


def test_big_endian_packing_pads_the_last_byte() -> None:
    # Three 3-bit values 0b101, 0b011, 0b111: 10101111 1(0000000)
    assert pack([5, 3, 7], 3) == bytes([0b10101111, 0b10000000])
    assert unpack(bytes([0b10101111, 0b10000000]), 0, 3, 3) == ([5, 3, 7], 2)


@given(st.integers(1, 64).flatmap(lambda w: st.tuples(st.just(w), st.lists(st.integers(0, (1 << w) - 1)))))
def test_pack_round_trip(case: tuple[int, list[int]]) -> None:
    width, values = case
    packed = pack(values, width)
    assert unpack(packed, 0, width, len(values)) == (values, len(packed))


def test_unpack_past_the_end() -> None:
    with pytest.raises(CorruptRle) as caught:
        unpack(bytes(3), 1, 16, 2, base_offset=100)
    assert caught.value.offset == 101
