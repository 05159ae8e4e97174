"""BIT_PACKED (= 4, deprecated): levels packed MSB first, with no length prefix.

Encodings.md, "Bit-packed (Deprecated) (BIT_PACKED = 4)".
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.parquet.encodings.bit_packed import decode_bit_packed, encode_bit_packed
from reference_impl.parquet.encodings.bit_packing import pack_bits
from reference_impl.parquet.errors import InvalidLevelData
from tests.reference_impl.parquet_helpers import budget

FAST = budget(60)


@given(
    st.integers(0, 32).flatmap(
        lambda w: st.tuples(st.just(w), st.lists(st.integers(0, (1 << w) - 1), max_size=70))
    )
)
@FAST
def test_round_trip(width_and_values: tuple[int, list[int]]) -> None:
    bit_width, values = width_and_values
    encoded = encode_bit_packed(values, bit_width=bit_width)
    assert len(encoded) == -(-len(values) * bit_width // 8)  # no padding but the last byte's
    decoded, end = decode_bit_packed(b"\x00" + encoded + b"\xff", len(values), bit_width=bit_width, start=1)
    assert decoded.tolist() == values
    assert end == 1 + len(encoded)


def test_msb_first_is_not_the_hybrid_order() -> None:
    assert encode_bit_packed([1], bit_width=1) == b"\x80"  # MSB first
    assert pack_bits(np.array([1]), 1) == b"\x01"  # the hybrid: LSB first


def test_padding_bits_are_ignored() -> None:
    assert decode_bit_packed(b"\x5f", 2, bit_width=2)[0].tolist() == [1, 1]  # 01 01 1111


def test_too_few_bytes() -> None:
    with pytest.raises(
        InvalidLevelData, match="BIT_PACKED: 30 values of 2 bit\\(s\\) need\\(s\\) 8 byte"
    ) as info:
        decode_bit_packed(bytes(7), 30, bit_width=2, base_offset=12)
    assert info.value.offset == 12
    with pytest.raises(InvalidLevelData, match="need"):
        decode_bit_packed(bytes(7), 2**31 - 1, bit_width=32)


def test_bad_arguments() -> None:
    with pytest.raises(InvalidLevelData, match="bit width must be in \\[0, 32\\]"):
        decode_bit_packed(bytes(8), 1, bit_width=33)
    with pytest.raises(InvalidLevelData, match="non-negative"):
        decode_bit_packed(bytes(8), -1, bit_width=1)
    with pytest.raises(ValueError, match="values must be in \\[0, 4\\)"):
        encode_bit_packed([4], bit_width=2)
