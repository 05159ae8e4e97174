"""DELTA_BYTE_ARRAY (= 7): round trips (BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY) and bad input.

Encodings.md, "Delta Strings: (DELTA_BYTE_ARRAY = 7)".
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.parquet.encodings.delta_binary_packed import encode_delta_binary_packed
from reference_impl.parquet.encodings.delta_byte_array import decode_delta_byte_array, encode_delta_byte_array
from reference_impl.parquet.encodings.delta_length_byte_array import encode_delta_length_byte_array
from reference_impl.parquet.errors import CorruptPage
from tests.reference_impl.encodings.strategies import VALID_BLOCK_PARAMETERS, byte_strings
from tests.reference_impl.parquet_helpers import budget

FAST = budget(60)


def stream(prefix_lengths: list[int], suffixes: list[bytes]) -> bytes:
    """<prefix lengths as DELTA_BINARY_PACKED> <suffixes as DELTA_LENGTH_BYTE_ARRAY>"""
    return encode_delta_binary_packed(prefix_lengths, bits=32) + encode_delta_length_byte_array(suffixes)


@given(values=st.lists(byte_strings(), max_size=300), parameters=VALID_BLOCK_PARAMETERS)
@FAST
def test_round_trip_byte_array(values: list[bytes], parameters: tuple[int, int]) -> None:
    block_size, miniblocks = parameters
    encoded = encode_delta_byte_array(values, block_size=block_size, miniblocks_per_block=miniblocks)
    decoded, end = decode_delta_byte_array(encoded + b"tail", len(values))
    assert decoded == values
    assert end == len(encoded)


@given(
    st.integers(1, 6).flatmap(lambda n: st.tuples(st.just(n), st.lists(st.binary(min_size=n, max_size=n))))
)
@FAST
def test_round_trip_fixed_len_byte_array(length_and_values: tuple[int, list[bytes]]) -> None:
    type_length, values = length_and_values
    values = sorted(values)  # sorted values share long prefixes
    encoded = encode_delta_byte_array(values, type_length=type_length)
    assert decode_delta_byte_array(encoded, len(values), type_length=type_length) == (values, len(encoded))


def test_prefixes_are_the_longest_shared_with_the_previous_value() -> None:
    values = [b"abc", b"abd", b"abd", b"", b"x", b"xyz"]
    assert encode_delta_byte_array(values) == stream(
        [0, 2, 3, 0, 0, 1], [b"abc", b"d", b"", b"", b"x", b"yz"]
    )


def test_repeated_values_are_shared_not_copied() -> None:
    long_value = b"z" * 10_000
    decoded, _ = decode_delta_byte_array(stream([0] + [10_000] * 99, [long_value] + [b""] * 99), 100)
    assert all(value is decoded[0] for value in decoded)


@pytest.mark.parametrize(
    ("prefix_lengths", "suffixes", "message"),
    [
        ([1], [b"a"], "value 0 has prefix length 1, expected 0 to 0"),
        ([0, 3], [b"ab", b"c"], "value 1 has prefix length 3, expected 0 to 2"),
        ([0, -1], [b"ab", b"c"], "value 1 has prefix length -1"),
    ],
)
def test_prefix_longer_than_the_previous_value(
    prefix_lengths: list[int], suffixes: list[bytes], message: str
) -> None:
    with pytest.raises(CorruptPage, match=message) as info:
        decode_delta_byte_array(stream(prefix_lengths, suffixes), len(suffixes), base_offset=70)
    assert info.value.offset == 70  # the prefix lengths stream


def test_fixed_len_byte_array_values_must_have_the_length() -> None:
    data = stream([0, 2, 1], [b"abc", b"d", b"zz"])  # abc, abd, azz: all 3 bytes
    assert decode_delta_byte_array(data, 3, type_length=3)[0] == [b"abc", b"abd", b"azz"]
    data = stream([0, 2, 1], [b"abc", b"d", b"z"])  # the third value is "az"
    with pytest.raises(
        CorruptPage, match="value 2 has 2 bytes, FIXED_LEN_BYTE_ARRAY\\(3\\) expected"
    ) as info:
        decode_delta_byte_array(data, 3, type_length=3, base_offset=10)
    assert info.value.offset == 10 + len(data) - 1  # the suffix "z", the last byte
    with pytest.raises(ValueError, match="value 1 has 2 bytes, expected 3"):
        encode_delta_byte_array([b"abc", b"ab"], type_length=3)


def test_the_two_streams_are_named_in_errors() -> None:
    prefix_lengths = encode_delta_binary_packed([0, 0], bits=32)
    with pytest.raises(CorruptPage, match="^DELTA_BYTE_ARRAY prefix lengths: DELTA_BINARY_PACKED"):
        decode_delta_byte_array(prefix_lengths[:3], 2)
    with pytest.raises(CorruptPage, match="^DELTA_BYTE_ARRAY suffixes: DELTA_LENGTH_BYTE_ARRAY lengths"):
        decode_delta_byte_array(prefix_lengths + b"\x80", 2)
    with pytest.raises(CorruptPage, match="suffixes: DELTA_LENGTH_BYTE_ARRAY: the 2 values"):
        decode_delta_byte_array(prefix_lengths + encode_delta_binary_packed([1, 1], bits=32) + b"a", 2)
