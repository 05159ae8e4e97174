"""The protobuf wire codec (reference_impl/orc/metadata/protobuf_wire.py), byte by byte.

The examples are the protobuf wire format's own (field 1 = 150 is ``08 96 01``) and the
records ORC files carry (PostScript.magic, orc_proto.proto message PostScript field 8000).
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.orc.errors import CorruptProtobuf
from reference_impl.orc.metadata.protobuf_wire import (
    ScalarType,
    WireField,
    WireType,
    decode_packed,
    decode_scalar,
    encode_key,
    encode_len_field,
    encode_packed_field,
    encode_scalar,
    encode_scalar_field,
    iter_fields,
)
from tests.reference_impl.orc.protobuf_values import UINT64_MAX, scalar_values


def test_the_varint_example_of_the_wire_format():
    assert encode_scalar_field(1, ScalarType.UINT64, 150, "f") == bytes([0x08, 0x96, 0x01])
    assert list(iter_fields(bytes([0x08, 0x96, 0x01]))) == [WireField(1, WireType.VARINT, 150, 0, 1)]


def test_a_len_record_and_its_offsets():
    data = bytes([0x12, 0x07]) + b"testing"
    assert encode_scalar_field(2, ScalarType.STRING, "testing", "f") == data
    (record,) = iter_fields(data, base_offset=100)
    assert record == WireField(2, WireType.LEN, b"testing", 100, 102)


def test_the_postscript_magic_key_is_three_bytes():
    # 8000 << 3 | 2 = 64002 = 0x82 0xF4 0x03 as a varint; every ORC file ends with it.
    assert encode_key(8000, WireType.LEN) == bytes([0x82, 0xF4, 0x03])
    assert encode_scalar_field(8000, ScalarType.STRING, "ORC", "magic") == b"\x82\xf4\x03\x03ORC"


def test_fixed_width_records():
    data = bytes([0x11]) + bytes.fromhex("000000000000f83f")  # field 2, I64
    (record,) = iter_fields(data)
    assert record.wire_type == WireType.I64 and decode_scalar(ScalarType.DOUBLE, record.value, "d", 1) == 1.5
    (record,) = iter_fields(bytes([0x15, 1, 2, 3, 4]))  # field 2, I32: skipped by number, still framed
    assert record == WireField(2, WireType.I32, bytes([1, 2, 3, 4]), 0, 1)


@pytest.mark.parametrize(("scalar", "value", "wire"), [
    (ScalarType.INT32, -1, "ffffffffffffffffff01"),  # sign-extended to ten bytes
    (ScalarType.INT32, 1, "01"),
    (ScalarType.SINT32, -1, "01"),
    (ScalarType.SINT64, -64, "7f"),
    (ScalarType.SINT64, 64, "8001"),
    (ScalarType.UINT64, UINT64_MAX, "ffffffffffffffffff01"),
    (ScalarType.BOOL, True, "01"),
    (ScalarType.ENUM, 100, "64"),
    (ScalarType.FIXED64, 1, "0100000000000000"),
    (ScalarType.DOUBLE, -2.0, "00000000000000c0"),
    (ScalarType.BYTES, b"\x00\xff", "0200ff"),
    (ScalarType.STRING, "é", "02c3a9"),
])
def test_scalar_encodings(scalar, value, wire):
    assert encode_scalar(scalar, value, "f").hex() == wire
    record = next(iter_fields(encode_scalar_field(1, scalar, value, "f")))
    assert decode_scalar(scalar, record.value, "f", record.value_offset) == value


def test_packed_values_are_records_without_keys():
    data = encode_packed_field(4, ScalarType.UINT32, [0, 12], "version")
    assert data == bytes([0x22, 0x02, 0x00, 0x0C])
    (record,) = iter_fields(data)
    assert decode_packed(ScalarType.UINT32, record.value, record.value_offset, "version") == [0, 12]
    fixed = encode_packed_field(2, ScalarType.FIXED64, [1, UINT64_MAX], "bitset")
    assert decode_packed(ScalarType.FIXED64, next(iter_fields(fixed)).value, 2, "bitset") == [1, UINT64_MAX]


@pytest.mark.parametrize(("data", "offset", "fragment"), [
    (bytes([0x08]), 11, "varint runs past the end"),
    (bytes([0x08]) + b"\xff" * 10 + b"\x01", 11, "wider than 64 bits"),
    (bytes([0x12, 0x05, 1, 2]), 12, "5 byte(s) claimed, only 2 remain"),
    (bytes([0x11, 1, 2, 3]), 11, "8 byte(s) claimed"),
    (bytes([0x1D, 1]), 11, "4 byte(s) claimed"),
    (bytes([0x0B]), 10, "wire type 3"),  # SGROUP
    (bytes([0x0C]), 10, "wire type 4"),  # EGROUP
    (bytes([0x0E]), 10, "wire type 6"),
    (bytes([0x00, 0x00]), 10, "field number 0"),
    (bytes([0xF8, 0xFF, 0xFF, 0xFF, 0x1F]), 10, "out of range"),  # key of 33 bits
])
def test_malformed_records(data, offset, fragment):
    with pytest.raises(CorruptProtobuf) as error:
        list(iter_fields(data, base_offset=10))
    assert error.value.offset == offset
    assert fragment in error.value.message


@pytest.mark.parametrize(("scalar", "wire_value", "fragment"), [
    (ScalarType.UINT32, 1 << 32, "out of range for uint32"),
    (ScalarType.INT32, 1 << 31, "out of range for int32"),
    (ScalarType.INT32, (1 << 64) - (1 << 31) - 1, "out of range for int32"),
    (ScalarType.SINT32, 1 << 32, "out of range for sint32"),
    (ScalarType.BOOL, 2, "out of range for bool"),
    (ScalarType.STRING, b"\xff", "not UTF-8"),
])
def test_values_out_of_their_type(scalar, wire_value, fragment):
    with pytest.raises(CorruptProtobuf, match=fragment) as error:
        decode_scalar(scalar, wire_value, "M.f (field 1)", 42)
    assert error.value.offset == 42 and "M.f (field 1)" in error.value.message


def test_a_packed_varint_that_runs_off_its_payload():
    with pytest.raises(CorruptProtobuf) as error:
        decode_packed(ScalarType.UINT64, bytes([0x01, 0x80]), 50, "positions")
    assert error.value.offset == 51


def test_encoding_refuses_values_its_type_cannot_hold():
    with pytest.raises(ValueError, match="out of range for uint32"):
        encode_scalar(ScalarType.UINT32, -1, "f")
    with pytest.raises(ValueError, match="UTF-8"):
        encode_scalar(ScalarType.STRING, "\ud800", "f")
    with pytest.raises(TypeError, match="is not a string"):
        encode_scalar(ScalarType.STRING, b"x", "f")
    with pytest.raises(ValueError, match="field number"):
        encode_key(1 << 29, WireType.VARINT)


_SCALAR_VALUES = scalar_values(max_size=20)
_NUMBERS = st.integers(1, (1 << 29) - 1)
_TYPES = st.sampled_from(sorted(_SCALAR_VALUES, key=str))
_RECORDS = st.lists(st.tuples(_NUMBERS, _TYPES).flatmap(
    lambda pair: st.tuples(st.just(pair[0]), st.just(pair[1]), _SCALAR_VALUES[pair[1]])), max_size=8)


@given(_RECORDS, st.integers(0, 1 << 40))
def test_records_round_trip(records, base_offset):
    data = b"".join(encode_scalar_field(number, scalar, value, "f") for number, scalar, value in records)
    decoded = list(iter_fields(data, base_offset))
    assert [(r.number, r.wire_type) for r in decoded] == [(n, s.wire_type) for n, s, _ in records]
    values = [decode_scalar(s, r.value, "f", r.value_offset)
              for (_, s, _), r in zip(records, decoded, strict=True)]
    assert values == [value for _, _, value in records]
    assert all(base_offset <= r.offset < r.value_offset <= base_offset + len(data) for r in decoded)


@given(st.binary(max_size=40))
def test_any_bytes_frame_or_fail_cleanly(data):
    try:
        records = list(iter_fields(data, base_offset=7))
    except CorruptProtobuf as error:
        assert error.offset is not None and 7 <= error.offset <= 7 + len(data)
    else:
        assert all(7 <= record.offset < 7 + len(data) for record in records)


def test_a_nested_message_is_a_len_record():
    inner = encode_scalar_field(1, ScalarType.UINT64, 3, "f")
    assert encode_len_field(3, inner) == bytes([0x1A, 0x02, 0x08, 0x03])
