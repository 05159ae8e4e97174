"""DELTA_LENGTH_BYTE_ARRAY (= 6): round trips and bad input.

Encodings.md, "Delta-length byte array: (DELTA_LENGTH_BYTE_ARRAY = 6)".
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.parquet.encodings.delta_binary_packed import encode_delta_binary_packed
from reference_impl.parquet.encodings.delta_length_byte_array import (
    decode_delta_length_byte_array,
    encode_delta_length_byte_array,
)
from reference_impl.parquet.errors import CorruptPage
from tests.reference_impl.encodings.strategies import BOUNDARY_LENGTHS, VALID_BLOCK_PARAMETERS, byte_strings
from tests.reference_impl.parquet_helpers import budget

FAST = budget(60)


@given(
    values=st.one_of(
        st.lists(byte_strings(), max_size=40),
        st.sampled_from(BOUNDARY_LENGTHS).map(lambda n: [bytes([i % 251]) * (i % 5) for i in range(n)]),
    ),
    parameters=VALID_BLOCK_PARAMETERS,
)
@FAST
def test_round_trip(values: list[bytes], parameters: tuple[int, int]) -> None:
    block_size, miniblocks = parameters
    encoded = encode_delta_length_byte_array(values, block_size=block_size, miniblocks_per_block=miniblocks)
    buffer = b"\x01\x02" + encoded + b"after"
    decoded, end = decode_delta_length_byte_array(buffer, len(values), start=2)
    assert decoded == values
    assert end == 2 + len(encoded)


def test_layout_is_lengths_then_bytes() -> None:
    values = [b"", b"abc", b"", b"de"]
    lengths = encode_delta_binary_packed([0, 3, 0, 2], bits=32)
    assert encode_delta_length_byte_array(values) == lengths + b"abcde"


def test_negative_length() -> None:
    stream = encode_delta_binary_packed([3, -1], bits=32) + b"abcdef"
    with pytest.raises(CorruptPage, match="value 1 has negative length -1") as info:
        decode_delta_length_byte_array(stream, 2, base_offset=50)
    assert info.value.offset == 50


def test_lengths_longer_than_the_data() -> None:
    lengths = encode_delta_binary_packed([3, 2**31 - 1], bits=32)
    with pytest.raises(CorruptPage, match="lengths adding up to 2147483650.*only 6 remain") as info:
        decode_delta_length_byte_array(lengths + b"abcdef", 2, base_offset=50)
    assert info.value.offset == 50 + len(lengths)  # where the byte array data starts


def test_broken_lengths_say_so() -> None:
    with pytest.raises(CorruptPage, match="^DELTA_LENGTH_BYTE_ARRAY lengths: DELTA_BINARY_PACKED"):
        decode_delta_length_byte_array(b"\x80\x01\x04\x05", 5)
