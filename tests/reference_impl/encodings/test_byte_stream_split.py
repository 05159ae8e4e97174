"""BYTE_STREAM_SPLIT (= 9): FLOAT, DOUBLE and (newer spec) INT32, INT64, FIXED_LEN_BYTE_ARRAY.

Encodings.md, "Byte Stream Split: (BYTE_STREAM_SPLIT = 9)".
"""

from __future__ import annotations

import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.parquet.encodings.byte_stream_split import (
    decode_byte_stream_split,
    encode_byte_stream_split,
)
from reference_impl.parquet.encodings.plain import decode_plain, encode_plain
from reference_impl.parquet.errors import CorruptPage
from reference_impl.parquet.metadata.parquet_thrift import Type
from tests.reference_impl.parquet_helpers import budget

FAST = budget(60)
WIDTHS = {Type.FLOAT: 4, Type.DOUBLE: 8, Type.INT32: 4, Type.INT64: 8}


@pytest.mark.parametrize("physical_type", list(WIDTHS))
@given(raw=st.data())
@FAST
def test_round_trip_keeps_every_bit(physical_type: Type, raw: st.DataObject) -> None:
    # Arbitrary bit patterns: NaN payloads, -0.0, infinities, integer extremes.
    width = WIDTHS[physical_type]
    count = raw.draw(st.integers(0, 40))
    data = raw.draw(st.binary(min_size=count * width, max_size=count * width))
    values, _ = decode_plain(physical_type, data, count)  # a value's bytes are its PLAIN bytes
    encoded = encode_byte_stream_split(values, physical_type=physical_type)
    # Stream k holds byte k of every value.
    for k in range(width):
        assert encoded[k * count : (k + 1) * count] == data[k::width]
    decoded, end = decode_byte_stream_split(b"xx" + encoded, count, physical_type=physical_type, start=2)
    assert encode_plain(physical_type, decoded) == data
    assert end == 2 + len(encoded)


@given(
    st.integers(1, 9).flatmap(lambda n: st.tuples(st.just(n), st.lists(st.binary(min_size=n, max_size=n))))
)
@FAST
def test_round_trip_fixed_len_byte_array(length_and_values: tuple[int, list[bytes]]) -> None:
    type_length, values = length_and_values
    encoded = encode_byte_stream_split(
        values, physical_type=Type.FIXED_LEN_BYTE_ARRAY, type_length=type_length
    )
    decoded = decode_byte_stream_split(
        encoded, len(values), physical_type=Type.FIXED_LEN_BYTE_ARRAY, type_length=type_length
    )
    assert decoded == (values, len(encoded))


def test_python_floats_and_ints_are_accepted() -> None:
    encoded = encode_byte_stream_split([1.0, -0.0], physical_type=Type.DOUBLE)
    assert encoded == bytes(
        a for pair in zip(*(struct.pack("<d", v) for v in (1.0, -0.0)), strict=True) for a in pair
    )
    assert decode_byte_stream_split(encoded, 2, physical_type=Type.DOUBLE)[0].tolist() == [1.0, -0.0]
    encoded = encode_byte_stream_split([-(2**31), 2**31 - 1], physical_type=Type.INT32)
    assert decode_byte_stream_split(encoded, 2, physical_type=Type.INT32)[0].tolist() == [-(2**31), 2**31 - 1]


@pytest.mark.parametrize(
    ("size", "count", "physical_type", "message"),
    [
        (7, 2, Type.FLOAT, "7 byte\\(s\\), not a multiple of the 4-byte value width"),
        (8, 3, Type.FLOAT, "expected 3 values of 4 bytes \\(12 bytes .*found 8"),
        (16, 1, Type.DOUBLE, "expected 1 values of 8 bytes"),  # padding is not allowed
        (3, 0, Type.INT64, "not a multiple"),
    ],
)
def test_length_must_be_exactly_count_values(
    size: int, count: int, physical_type: Type, message: str
) -> None:
    with pytest.raises(CorruptPage, match=message) as info:
        decode_byte_stream_split(
            bytes(size + 5), count, physical_type=physical_type, start=5, base_offset=100
        )
    assert info.value.offset == 100 + 5 + size  # the end of the page, where the streams should end


@pytest.mark.parametrize("physical_type", [Type.BOOLEAN, Type.INT96, Type.BYTE_ARRAY, 42])
def test_types_without_byte_stream_split(physical_type: Type) -> None:
    with pytest.raises(CorruptPage, match="not defined for physical type"):
        decode_byte_stream_split(bytes(12), 1, physical_type=physical_type)
    with pytest.raises(ValueError, match="not defined for physical type"):
        encode_byte_stream_split([b"x" * 12], physical_type=physical_type)


def test_fixed_len_byte_array_needs_its_length() -> None:
    with pytest.raises(CorruptPage, match="positive type_length"):
        decode_byte_stream_split(bytes(4), 1, physical_type=Type.FIXED_LEN_BYTE_ARRAY)
    with pytest.raises(ValueError, match="value 1 has 2 bytes, expected 3"):
        encode_byte_stream_split([b"abc", b"ab"], physical_type=Type.FIXED_LEN_BYTE_ARRAY, type_length=3)
