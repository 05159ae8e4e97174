"""PLAIN encoding ('Plain: (PLAIN = 0)'): examples byte by byte, round trips,
bounds."""

from __future__ import annotations

import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.parquet.encodings.plain import decode_plain, encode_plain
from reference_impl.parquet.errors import CorruptPage, ParquetError
from reference_impl.parquet.metadata.parquet_thrift import Type
from tests.reference_impl.parquet_helpers import budget, canonical, float32_bits, physical_values

FAST = budget(40)


@pytest.mark.parametrize(
    ("physical_type", "values", "encoded"),
    [
        # BOOLEAN: bit packed, LSB first; value i is bit i % 8 of byte i // 8
        (Type.BOOLEAN, [True, False, True, True], bytes([0b00001101])),
        (Type.BOOLEAN, [True] * 9, bytes([0xFF, 0x01])),
        # INT32: 4 bytes little endian
        (Type.INT32, [1, -1], b"\x01\x00\x00\x00\xff\xff\xff\xff"),
        (Type.INT32, [-(2**31)], b"\x00\x00\x00\x80"),
        # INT64: 8 bytes little endian
        (Type.INT64, [2**63 - 1], b"\xff" * 7 + b"\x7f"),
        # INT96: 12 bytes, as given
        (Type.INT96, [bytes(range(12))], bytes(range(12))),
        # FLOAT: 4 bytes IEEE little endian
        (Type.FLOAT, [1.0, -0.0], b"\x00\x00\x80\x3f\x00\x00\x00\x80"),
        # DOUBLE: 8 bytes IEEE little endian
        (Type.DOUBLE, [1.0], b"\x00\x00\x00\x00\x00\x00\xf0\x3f"),
        # BYTE_ARRAY: 4-byte little-endian length, then the bytes
        (Type.BYTE_ARRAY, [b"ab", b""], b"\x02\x00\x00\x00ab\x00\x00\x00\x00"),
    ],
)
def test_examples(physical_type: Type, values: list, encoded: bytes) -> None:
    assert encode_plain(physical_type, values) == encoded
    decoded, end = decode_plain(physical_type, encoded, len(values))
    assert canonical(decoded) == canonical(values)
    assert end == len(encoded)


def test_fixed_len_byte_array_is_just_the_bytes() -> None:
    assert encode_plain(Type.FIXED_LEN_BYTE_ARRAY, [b"abc", b"def"], 3) == b"abcdef"
    assert decode_plain(Type.FIXED_LEN_BYTE_ARRAY, b"abcdef", 2, type_length=3) == (
        [b"abc", b"def"],
        6,
    )


def test_float_bits_match_struct_packing() -> None:
    # A quiet NaN with a payload and a negative NaN keep their exact bits.
    payload_nan = struct.unpack("<f", b"\x01\x00\xc0\x7f")[0]
    negative_nan = struct.unpack("<f", b"\x00\x00\xc0\xff")[0]
    values = [payload_nan, negative_nan, float("inf"), -0.0]
    encoded = encode_plain(Type.FLOAT, values)
    assert encoded == b"".join(struct.pack("<f", v) for v in values)
    decoded, _ = decode_plain(Type.FLOAT, encoded, len(values))
    assert [float32_bits(v) for v in decoded] == [float32_bits(v) for v in values]


@given(st.lists(st.floats(), max_size=20))
@FAST
def test_double_bits_match_struct_packing(values: list[float]) -> None:
    encoded = encode_plain(Type.DOUBLE, values)
    assert encoded == b"".join(struct.pack("<d", v) for v in values)
    assert canonical(decode_plain(Type.DOUBLE, encoded, len(values))[0]) == canonical(values)


@given(st.data())
@FAST
def test_round_trip_every_type(data: st.DataObject) -> None:
    physical_type = data.draw(st.sampled_from(list(Type)))
    type_length = (
        data.draw(st.integers(1, 9)) if physical_type == Type.FIXED_LEN_BYTE_ARRAY else None
    )
    values = data.draw(st.lists(physical_values(physical_type, type_length), max_size=30))
    encoded = encode_plain(physical_type, values, type_length)
    # Decoding starts mid-buffer and stops where told: surround with noise.
    buffer = b"\xaa" * 3 + encoded + b"\xbb" * 5
    decoded, end = decode_plain(
        physical_type, buffer, len(values), type_length=type_length, start=3, end=3 + len(encoded)
    )
    assert end == 3 + len(encoded)
    if physical_type == Type.FLOAT:
        assert [float32_bits(v) for v in decoded] == [float32_bits(v) for v in values]
    else:
        assert canonical(decoded) == canonical(values)


@pytest.mark.parametrize(
    ("physical_type", "count", "data", "message"),
    [
        (Type.INT32, 3, b"\x00" * 11, "need 12 byte"),
        (Type.INT64, 2**31 - 1, b"\x00" * 8, "need"),
        (Type.BOOLEAN, 17, b"\x00\x00", "need 3 byte"),
        (Type.INT96, 1, b"\x00" * 11, "need 12 byte"),
        (Type.BYTE_ARRAY, 1, b"\x05\x00\x00\x00abc", "value 0 \\(length 5\\) need 5"),
        (Type.BYTE_ARRAY, 1, b"\x05\x00", "need at least 4"),
        (Type.BYTE_ARRAY, 2**31 - 1, b"\x00" * 8, "need at least"),
        (Type.BYTE_ARRAY, 1, b"\xff\xff\xff\xff", "length 4294967295"),
    ],
)
def test_too_few_bytes_raise_corrupt_page_with_offset(
    physical_type: Type, count: int, data: bytes, message: str
) -> None:
    with pytest.raises(CorruptPage, match=message) as info:
        decode_plain(physical_type, data, count, base_offset=500)
    assert info.value.offset is not None and info.value.offset >= 500


def test_truncations_of_every_type() -> None:
    for physical_type in Type:
        type_length = 5 if physical_type == Type.FIXED_LEN_BYTE_ARRAY else None
        values = {
            Type.BOOLEAN: [True] * 10,
            Type.INT32: [1, 2],
            Type.INT64: [3],
            Type.INT96: [b"\x00" * 12],
            Type.FLOAT: [1.5],
            Type.DOUBLE: [2.5],
            Type.BYTE_ARRAY: [b"hello", b"x"],
            Type.FIXED_LEN_BYTE_ARRAY: [b"12345"],
        }[physical_type]
        encoded = encode_plain(physical_type, values, type_length)
        for cut in range(len(encoded)):
            with pytest.raises(ParquetError):
                decode_plain(physical_type, encoded[:cut], len(values), type_length=type_length)


def test_fixed_len_byte_array_needs_a_positive_length() -> None:
    with pytest.raises(CorruptPage, match="positive type_length"):
        decode_plain(Type.FIXED_LEN_BYTE_ARRAY, b"", 10, type_length=0)
