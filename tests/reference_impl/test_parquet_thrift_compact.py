"""The Thrift Compact Protocol codec: varints, zigzag, headers, every type,
skipping, and refusal of malformed input (apache/thrift
doc/specs/thrift-compact-protocol.md)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st
from thrift.protocol.TCompactProtocol import TCompactProtocol
from thrift.Thrift import TType
from thrift.transport.TTransport import TMemoryBuffer

from reference_impl.common.varint import (
    decode_uleb128,
    encode_uleb128,
    zigzag_decode,
    zigzag_encode,
)
from reference_impl.parquet.errors import CorruptThrift, ParquetError
from reference_impl.parquet.metadata.thrift_compact import CompactReader, CompactType, CompactWriter
from reference_impl.parquet.metadata.thrift_struct import (
    TI8,
    TI16,
    TI32,
    TI64,
    TBinary,
    TBool,
    TDouble,
    ThriftStruct,
    ThriftUnion,
    TList,
    TMap,
    TSet,
    TString,
    deserialize,
    serialize,
    thrift_field,
)
from tests.reference_impl.parquet_helpers import (
    as_plain,
    budget,
    structs,
    thrift_deserialize,
    thrift_serialize,
)

FAST = budget(60)

# ---------------------------------------------------------------------------
# Test structs covering every Thrift type the codec supports.
# ---------------------------------------------------------------------------


@dataclass
class Inner(ThriftStruct):
    number: int | None = thrift_field(1, TI32)
    label: str | None = thrift_field(2, TString)


@dataclass
class Choice(ThriftUnion):
    small: int | None = thrift_field(1, TI8)
    inner: Inner | None = thrift_field(2, Inner)


@dataclass
class Everything(ThriftStruct):
    flag: bool | None = thrift_field(1, TBool)
    tiny: int | None = thrift_field(2, TI8)
    short: int | None = thrift_field(3, TI16)
    number: int | None = thrift_field(4, TI32)
    big: int | None = thrift_field(5, TI64)
    real: float | None = thrift_field(6, TDouble)
    blob: bytes | None = thrift_field(7, TBinary)
    text: str | None = thrift_field(8, TString)
    numbers: list[int] | None = thrift_field(9, TList(TI32))
    tags: list[str] | None = thrift_field(10, TSet(TString))
    counts: dict[str, int] | None = thrift_field(11, TMap(TString, TI64))
    inner: Inner | None = thrift_field(12, Inner)
    flags: list[bool] | None = thrift_field(13, TList(TBool))
    nested: list[list[Inner]] | None = thrift_field(14, TList(TList(Inner)))
    choice: Choice | None = thrift_field(15, Choice)
    far: int | None = thrift_field(40, TI32)  # delta 25: long-form header
    after_far: bool | None = thrift_field(41, TBool)  # delta 1 again: short form


@dataclass
class RequiredPair(ThriftStruct):
    first: int = thrift_field(1, TI32, required=True)
    second: int | None = thrift_field(2, TI32)


# ---------------------------------------------------------------------------
# Varints and zigzag ('Integer encoding')
# ---------------------------------------------------------------------------


def test_uleb128_example_from_the_spec() -> None:
    # apache/thrift doc/specs/thrift-compact-protocol.md: "the integer 50399 is encoded as ... 0xDF 0x89 0x03"
    assert encode_uleb128(50399) == bytes([0xDF, 0x89, 0x03])
    assert decode_uleb128(b"\xdf\x89\x03", 0, 3, bits=32, error=CorruptThrift, what="x") == (
        50399,
        3,
    )


@pytest.mark.parametrize(
    ("value", "encoded"),
    [
        (0, b"\x00"),
        (1, b"\x01"),
        (127, b"\x7f"),
        (128, b"\x80\x01"),
        (300, b"\xac\x02"),
        (2**32 - 1, b"\xff\xff\xff\xff\x0f"),
        (2**64 - 1, b"\xff" * 9 + b"\x01"),
    ],
)
def test_uleb128_edge_values(value: int, encoded: bytes) -> None:
    assert encode_uleb128(value) == encoded
    assert decode_uleb128(encoded, 0, len(encoded), bits=64, error=CorruptThrift, what="x") == (
        value,
        len(encoded),
    )


@pytest.mark.parametrize(
    ("value", "bits", "mapped"),
    [
        (0, 32, 0),
        (-1, 32, 1),
        (1, 32, 2),
        (-2, 32, 3),
        (2**31 - 1, 32, 2**32 - 2),
        (-(2**31), 32, 2**32 - 1),
        (2**63 - 1, 64, 2**64 - 2),
        (-(2**63), 64, 2**64 - 1),
        (-(2**15), 16, 2**16 - 1),
    ],
)
def test_zigzag_edge_values(value: int, bits: int, mapped: int) -> None:
    assert zigzag_encode(value, bits) == mapped
    assert zigzag_decode(mapped) == value


def test_zigzag_refuses_out_of_range() -> None:
    with pytest.raises(ValueError):
        zigzag_encode(2**31, 32)


@given(st.integers(0, 2**64 - 1))
@FAST
def test_uleb128_round_trip(value: int) -> None:
    encoded = encode_uleb128(value)
    assert decode_uleb128(encoded, 0, len(encoded), bits=64, error=CorruptThrift, what="x") == (
        value,
        len(encoded),
    )


def test_varint_errors_carry_offsets() -> None:
    # Runs past the end.
    with pytest.raises(CorruptThrift) as info:
        decode_uleb128(
            b"\x00\x80\x80", 1, 3, bits=32, error=CorruptThrift, what="x", base_offset=100
        )
    assert info.value.offset == 101
    # Longer than a 32-bit value can need (5 bytes).
    with pytest.raises(CorruptThrift, match="longer"):
        decode_uleb128(b"\x80" * 5 + b"\x01", 0, 6, bits=32, error=CorruptThrift, what="x")
    # Five bytes, but the value does not fit 32 bits.
    with pytest.raises(CorruptThrift, match="does not fit"):
        decode_uleb128(b"\xff\xff\xff\xff\x1f", 0, 5, bits=32, error=CorruptThrift, what="x")


# ---------------------------------------------------------------------------
# Structs byte by byte ('Struct encoding', 'List and Set', 'Map')
# ---------------------------------------------------------------------------


def test_every_type_byte_by_byte() -> None:
    value = Everything(
        flag=True,
        tiny=-1,
        short=300,
        number=-2,
        big=2**40,
        real=1.0,
        blob=b"\x00\xff",
        text="hé",
        numbers=list(range(15)),
        tags=["a"],
        counts={"k": 1},
        inner=Inner(number=5),
        flags=[True, False],
        choice=Choice(small=7),
        far=1,
        after_far=False,
    )
    expected = b"".join(
        [
            b"\x11",  # field 1, delta 1, type BOOLEAN_TRUE: the value is the type
            b"\x13\xff",  # field 2, i8: one byte, -1
            b"\x14\xd8\x04",  # field 3, i16: zigzag(300) = 600 = varint d8 04
            b"\x15\x03",  # field 4, i32: zigzag(-2) = 3
            b"\x16\x80\x80\x80\x80\x80\x40",  # field 5, i64: zigzag(2**40) = 2**41
            b"\x17\x00\x00\x00\x00\x00\x00\xf0\x3f",  # field 6, double 1.0, little endian
            b"\x18\x02\x00\xff",  # field 7, binary: length 2, bytes
            b"\x18\x03h\xc3\xa9",  # field 8, string: UTF-8 "hé" is 3 bytes
            b"\x19\xf5\x0f",  # field 9, list: size 15 needs the long form: 1111 + i32, size 15
            bytes(2 * i for i in range(15)),  # zigzag(0..14) = 0, 2, ..., 28
            b"\x1a\x18\x01a",  # field 10, set: size 1, BINARY elements; "a"
            b"\x1b\x01\x86\x01k\x02",  # field 11, map: size 1, key BINARY / value I64; "k" -> 1
            b"\x1c\x15\x0a\x00",  # field 12, struct: {field 1 i32 5}, stop
            b"\x19\x21\x01\x02",  # field 13, list: size 2 of bool (type 1); true=1, false=2
            b"\x2c\x13\x07\x00",  # field 15, delta 2 (14 absent): union {field 1 i8 7}
            b"\x05\x50\x02",  # field 40, delta 25 > 15: long form, type i32, zigzag(40)=80; 1
            b"\x12",  # field 41, delta 1, BOOLEAN_FALSE
            b"\x00",  # stop
        ]
    )
    assert serialize(value) == expected
    decoded, end = deserialize(Everything, expected)
    assert decoded == value
    assert end == len(expected)
    # And the thrift package writes exactly the same bytes.
    assert thrift_serialize(value) == expected


def test_bool_list_spec_spelling_is_accepted() -> None:
    # The spec text says element type 2 and false = 0; libraries write 1 and 2.
    decoded, _ = deserialize(Everything, b"\xd9\x22\x01\x00\x00")
    assert decoded.flags == [True, False]


def test_empty_containers() -> None:
    value = Everything(numbers=[], tags=[], counts={})
    expected = b"".join(
        [
            b"\x99\x05",  # field 9 list: size 0, element type i32
            b"\x1a\x08",  # field 10 set: size 0, element type BINARY
            b"\x1b\x00",  # field 11 map: an empty map is the single byte 0
            b"\x00",  # stop
        ]
    )
    assert serialize(value) == expected
    assert thrift_serialize(value) == expected
    assert deserialize(Everything, expected)[0] == value


def test_empty_list_with_element_type_0_is_read_as_empty() -> None:
    # fastparquet writes empty lists as the byte 0x00 (size 0, element type 0);
    # with no elements there is nothing to misread, and Thrift's readers accept it.
    data = b"".join([b"\x99\x00",  # field 9 list: size 0, element type 0 (no such type)
                     b"\x00"])  # stop
    assert deserialize(Everything, data)[0] == Everything(numbers=[])
    # With elements, type 0 is still corrupt.
    with pytest.raises(CorruptThrift, match="unknown element type 0"):
        deserialize(Everything, b"\x99\x10\x00")


def test_fields_in_any_order_and_long_form_ids() -> None:
    data = b"".join(
        [
            b"\x05\x08\x2a",  # long form: type i32, zigzag(4) = 8: field 4; zigzag(21) = 42
            b"\x01\x02",  # field 1 comes after 4: long form, BOOLEAN_TRUE, zigzag(1) = 2
            b"\x05\x01\x02",  # field -1 (zigzag 1), i32 1: unknown, skipped
            b"\x00",
        ]
    )
    decoded, _ = deserialize(Everything, data)
    assert (decoded.number, decoded.flag) == (21, True)
    assert decoded.skipped_field_ids == (-1,)


@given(structs(Everything))
@FAST
def test_round_trip_and_thrift_agreement(value: Everything) -> None:
    data = serialize(value)
    decoded, end = deserialize(Everything, data)
    assert as_plain(decoded) == as_plain(value)
    assert end == len(data)
    assert thrift_serialize(value) == data
    theirs, consumed = thrift_deserialize(Everything, data)
    assert theirs == as_plain(value)
    assert consumed == len(data)


# ---------------------------------------------------------------------------
# Skipping unknown fields (forward compatibility)
# ---------------------------------------------------------------------------


def _write_nested_struct(protocol: TCompactProtocol) -> None:
    protocol.writeStructBegin("X")
    protocol.writeFieldBegin("a", TType.LIST, 1)
    protocol.writeListBegin(TType.STRUCT, 1)
    protocol.writeStructBegin("Y")
    protocol.writeFieldBegin("b", TType.BOOL, 3)
    protocol.writeBool(True)
    protocol.writeFieldEnd()
    protocol.writeFieldStop()
    protocol.writeStructEnd()
    protocol.writeListEnd()
    protocol.writeFieldEnd()
    protocol.writeFieldStop()
    protocol.writeStructEnd()


def _write_map(protocol: TCompactProtocol) -> None:
    protocol.writeMapBegin(TType.STRING, TType.LIST, 2)
    for key in ("x", "y"):
        protocol.writeString(key)
        protocol.writeListBegin(TType.I64, 20)
        for i in range(20):
            protocol.writeI64(-(2**40) * i)
        protocol.writeListEnd()
    protocol.writeMapEnd()


def _write_set(protocol: TCompactProtocol) -> None:
    protocol.writeSetBegin(TType.BOOL, 2)
    protocol.writeBool(True)
    protocol.writeBool(False)
    protocol.writeSetEnd()


UNKNOWN_FIELDS = [
    (90, TType.BOOL, lambda p: p.writeBool(False)),
    (91, TType.BOOL, lambda p: p.writeBool(True)),
    (92, TType.BYTE, lambda p: p.writeByte(-5)),
    (93, TType.I16, lambda p: p.writeI16(-300)),
    (94, TType.I32, lambda p: p.writeI32(2**31 - 1)),
    (95, TType.I64, lambda p: p.writeI64(-(2**63))),
    (96, TType.DOUBLE, lambda p: p.writeDouble(-0.0)),
    (97, TType.STRING, lambda p: p.writeBinary(b"\x00" * 40)),
    (98, TType.STRUCT, _write_nested_struct),
    (99, TType.MAP, _write_map),
    (100, TType.SET, _write_set),
    (101, TType.MAP, lambda p: (p.writeMapBegin(TType.I32, TType.I32, 0), p.writeMapEnd())),
]


@given(structs(Everything))
@budget(25)
def test_unknown_fields_of_every_type_are_skipped(value: Everything) -> None:
    data = thrift_serialize(value, UNKNOWN_FIELDS)
    decoded, end = deserialize(Everything, data)
    assert as_plain(decoded) == as_plain(value)
    assert end == len(data)
    assert decoded.skipped_field_ids == tuple(field_id for field_id, _, _ in UNKNOWN_FIELDS)


def test_known_field_ids_only_is_what_gets_written_back() -> None:
    data = thrift_serialize(Inner(number=1), UNKNOWN_FIELDS)
    decoded, _ = deserialize(Inner, data)
    assert serialize(decoded) == serialize(Inner(number=1))


def test_uuid_field_is_skipped() -> None:
    # Field 5 of type UUID (13): 16 raw bytes, then stop.
    data = b"\x5d" + bytes(range(16)) + b"\x00"
    decoded, end = deserialize(Inner, data)
    assert decoded.skipped_field_ids == (5,)
    assert end == len(data)


# ---------------------------------------------------------------------------
# Malformed input
# ---------------------------------------------------------------------------


def _rich_value() -> Everything:
    return Everything(
        flag=True,
        tiny=3,
        short=-4,
        number=2**30,
        big=-(2**60),
        real=2.5,
        blob=b"xyz",
        text="text",
        numbers=list(range(20)),
        tags=["p", "q"],
        counts={"a": 1, "b": -1},
        inner=Inner(number=1, label="l"),
        flags=[False, True],
        nested=[[Inner(number=2)], []],
        choice=Choice(inner=Inner(label="u")),
        far=-9,
        after_far=True,
    )


def test_every_truncation_raises_corrupt_thrift_with_offset() -> None:
    data = serialize(_rich_value())
    for cut in range(len(data)):
        with pytest.raises(CorruptThrift) as info:
            deserialize(Everything, data[:cut], base_offset=1000)
        assert info.value.offset is not None
        assert 1000 <= info.value.offset <= 1000 + cut


def test_lengths_larger_than_the_data_are_refused_before_allocation() -> None:
    # binary field 7 claiming 2**31 - 1 bytes, with three bytes present
    with pytest.raises(CorruptThrift, match="length 2147483647 claimed") as info:
        deserialize(Everything, b"\x78\xff\xff\xff\xff\x07abc")
    assert info.value.offset == 1
    # list field 9 claiming a million elements
    with pytest.raises(CorruptThrift, match="1000000 elements claimed"):
        deserialize(Everything, b"\x99\xf5" + encode_uleb128(1_000_000) + b"\x00\x00")
    # map field 11 claiming 500 entries
    with pytest.raises(CorruptThrift, match="500 entries claimed"):
        deserialize(Everything, b"\xbb" + encode_uleb128(500) + b"\x86\x00")
    # a negative size (as an int32)
    with pytest.raises(CorruptThrift, match="negative"):
        deserialize(Everything, b"\x78\xff\xff\xff\xff\x0f")


def test_nesting_depth_is_limited() -> None:
    # Unknown field 3 of Inner: a list of lists of lists ... 200 deep.
    deep_lists = b"\x39" + b"\x19" * 200 + b"\x15\x00" + b"\x00"
    with pytest.raises(CorruptThrift, match="nesting deeper"):
        deserialize(Inner, deep_lists)
    # Unknown field 3 of Inner: structs in structs, 200 deep.
    deep_structs = b"\x3c" + b"\x1c" * 200 + b"\x00" * 202
    with pytest.raises(CorruptThrift, match="nesting deeper"):
        deserialize(Inner, deep_structs)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\x1e\x00", "unknown field type 14"),  # field 1 with type 14, which does not exist
        (b"\x10", "unknown field type 0"),  # type 0 with a delta: the stop field is exactly 0x00
        (b"\x99\x0e\x00", "unknown element type 14"),  # list field 9 of element type 14
        (b"\xd9\x11\x05\x00", "bool element"),  # list<bool> field 13 holding the byte 5
        (b"\x88\x02\xff\xfe\x00", "UTF-8"),  # string field 8 that is not UTF-8
        (b"\x99\x18\x01a\x00", "elements have wire type BINARY"),  # list<i32> of binary
        (b"\x15\x02\x00", "expected wire type"),  # bool field 1 sent as an i32
        (b"\x45\x02\x05\x08\x04\x00", "appears twice"),  # field 4, then (long form) 4 again
    ],
)
def test_malformed_structures(data: bytes, message: str) -> None:
    with pytest.raises(CorruptThrift, match=message) as info:
        deserialize(Everything, data)
    assert info.value.offset is not None


def test_union_with_two_members_is_corrupt() -> None:
    with pytest.raises(CorruptThrift, match="union"):
        deserialize(Choice, b"\x13\x01\x1c\x00\x00")
    with pytest.raises(ValueError, match="union"):
        serialize(Choice(small=1, inner=Inner()))


def test_required_fields() -> None:
    with pytest.raises(CorruptThrift, match="required field first"):
        deserialize(RequiredPair, b"\x25\x02\x00")
    with pytest.raises(ValueError, match="required field is not set"):
        serialize(RequiredPair(second=1))


def test_encoder_validates_values() -> None:
    with pytest.raises(ValueError, match="i8 range"):
        serialize(Everything(tiny=128))
    with pytest.raises(TypeError, match="Everything.text"):
        serialize(Everything(text=b"bytes"))
    with pytest.raises(TypeError, match="bool expected"):
        serialize(Everything(flag=1))


@given(st.binary(max_size=80))
@budget(300)
def test_arbitrary_bytes_never_escape_the_error_vocabulary(data: bytes) -> None:
    try:
        deserialize(Everything, data)
    except ParquetError as error:
        assert isinstance(error, CorruptThrift)
        assert error.offset is not None


@given(st.binary(min_size=1, max_size=60), st.integers(0, 10**6))
@budget(200)
def test_mutated_encodings_never_escape_the_error_vocabulary(noise: bytes, seed: int) -> None:
    data = bytearray(serialize(_rich_value()))
    position = seed % len(data)
    data[position : position + len(noise)] = noise
    try:
        deserialize(Everything, bytes(data))
    except CorruptThrift as error:
        assert error.offset is not None


# ---------------------------------------------------------------------------
# The low-level reader and writer directly
# ---------------------------------------------------------------------------


def test_low_level_writer_and_reader_mirror_each_other() -> None:
    writer = CompactWriter()
    writer.begin_struct()
    writer.write_field_header(1, CompactType.LIST)
    writer.write_list_header(CompactType.I64, 2)
    writer.write_i64(-1)
    writer.write_i64(2**62)
    writer.write_bool_field(200, True)  # long form bool
    writer.write_field_header(201, CompactType.MAP)
    writer.write_map_header(CompactType.I32, CompactType.BINARY, 1)
    writer.write_i32(7)
    writer.write_binary(b"v")
    writer.end_struct()
    data = writer.getvalue()

    reader = CompactReader(data)
    reader.begin_struct()
    header = reader.read_field_header()
    assert (header.field_id, header.wire_type) == (1, CompactType.LIST)
    assert reader.read_list_header() == (CompactType.I64, 2)
    assert [reader.read_i64(), reader.read_i64()] == [-1, 2**62]
    header = reader.read_field_header()
    assert (header.field_id, header.bool_value) == (200, True)
    header = reader.read_field_header()
    assert header.field_id == 201
    assert reader.read_map_header() == (CompactType.I32, CompactType.BINARY, 1)
    assert (reader.read_i32(), reader.read_binary()) == (7, b"v")
    assert reader.read_field_header() is None
    reader.end_struct()
    assert reader.remaining == 0

    # The thrift package reads the same bytes the same way.
    protocol = TCompactProtocol(TMemoryBuffer(data))
    protocol.readStructBegin()
    assert protocol.readFieldBegin()[1:] == (TType.LIST, 1)
    assert protocol.readListBegin() == (TType.I64, 2)
    assert [protocol.readI64(), protocol.readI64()] == [-1, 2**62]
    protocol.readListEnd()
    protocol.readFieldEnd()
    assert protocol.readFieldBegin()[1:] == (TType.BOOL, 200)
    assert protocol.readBool() is True
