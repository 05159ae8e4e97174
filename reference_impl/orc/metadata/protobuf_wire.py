"""The protobuf wire format: the encoding of every message of the ORC file tail.

ORCv1.md, 'File Tail': "The metadata for ORC is stored using Protocol Buffers"; the
messages are declared in orc_proto.proto (``syntax = "proto2"``). This module is the wire
format only, as the protobuf wire format defines it: a message is a sequence of records,
each a key (``field_number << 3 | wire_type`` as a base 128 varint) and a value whose
shape the wire type gives:

=====  ======  ==============================================================
 type  name    value
=====  ======  ==============================================================
 0     VARINT  a base 128 varint of at most 64 bits (ten bytes)
 1     I64     eight bytes, little endian
 2     LEN     a varint length, then that many bytes (strings, bytes, nested
               messages and packed repeated scalars)
 5     I32     four bytes, little endian
=====  ======  ==============================================================

Wire types 3 and 4 (SGROUP, EGROUP) are the deprecated groups; orc_proto.proto declares
none, so they are malformed here. The scalar types orc_proto.proto uses are mapped to
and from these values by :class:`ScalarType`. Messages know nothing of it: ``orc_proto``
drives this module from its field tables.

Reading is bounded (docs/architecture.md, 'Bad input'): a length is checked against the
bytes that remain before anything is taken, and every malformation raises
:class:`CorruptProtobuf` with the absolute byte offset.
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from enum import Enum, IntEnum
from functools import cached_property
from typing import NamedTuple, cast

from reference_impl.common.varint import CONTINUATION_BIT
from reference_impl.orc.errors import CorruptProtobuf
from reference_impl.orc.varint import read_uvarint, write_uvarint, zigzag_decode, zigzag_encode

__all__ = [
    "LEN",
    "VARINT",
    "Record",
    "ScalarType",
    "ScalarValue",
    "WireField",
    "WireType",
    "decode_packed",
    "decode_scalar",
    "encode_key",
    "encode_len_field",
    "encode_packed_field",
    "encode_scalar",
    "encode_scalar_field",
    "iter_fields",
    "iter_records",
]


class WireType(IntEnum):
    VARINT = 0
    I64 = 1
    LEN = 2
    SGROUP = 3
    EGROUP = 4
    I32 = 5


SUPPORTED_WIRE_TYPES = frozenset({WireType.VARINT, WireType.I64, WireType.LEN, WireType.I32})
# The members by number, and as plain names: the loops below meet them once a record, and
# both the enum's call and an attribute of an Enum class go through its metaclass.
_WIRE_TYPES = tuple(WireType)
VARINT, LEN = WireType.VARINT, WireType.LEN

WIRE_TYPE_BITS = 3
WIRE_TYPE_MASK = (1 << WIRE_TYPE_BITS) - 1
MIN_FIELD_NUMBER = 1
MAX_FIELD_NUMBER = (1 << 29) - 1
MAX_KEY = (1 << 32) - 1  # a key is a uint32: field numbers have 29 bits
MAX_VARINT_BYTES = 10  # 64 bits in 7-bit groups
FIXED_BYTES = {WireType.I64: 8, WireType.I32: 4}

UINT32_LIMIT = 1 << 32
UINT64_LIMIT = 1 << 64
INT32_MIN, INT32_MAX = -(1 << 31), (1 << 31) - 1
INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1

DOUBLE_FORMAT = struct.Struct("<d")
FIXED64_FORMAT = struct.Struct("<Q")


class WireField(NamedTuple):
    """One record of a message: ``value`` is an int for VARINT, else the raw bytes."""

    number: int
    wire_type: WireType
    value: int | bytes
    offset: int  # absolute offset of the key's first byte
    value_offset: int  # absolute offset of the value's first byte (after a LEN's length)


Record = tuple[int, WireType, int | bytes, int, int]  # a WireField's fields, in its order


# -- reading ------------------------------------------------------------------------


# The records' names in errors, formatted with the field number only when one is raised:
# the loops below read every record.
FIELD_WHAT = "field {}"
LENGTH_WHAT = "field {} length"


def _read_varint(data: bytes | memoryview, pos: int, base_offset: int, what: str,
                 *args: object) -> tuple[int, int]:
    """The varint at ``data[pos:]`` and the position after it; ``what``, with ``args``
    formatted in, names it in an error."""
    if pos < len(data) and data[pos] < CONTINUATION_BIT:
        return data[pos], pos + 1  # one byte (most keys and lengths): no width to check
    try:
        value, end = read_uvarint(data, pos, base_offset, error=CorruptProtobuf)
    except CorruptProtobuf as exc:
        raise CorruptProtobuf(f"{what.format(*args)}: {exc.message}", exc.offset) from None
    if end - pos > MAX_VARINT_BYTES or value >= UINT64_LIMIT:
        raise CorruptProtobuf(f"{what.format(*args)}: varint wider than 64 bits", base_offset + pos)
    return value, end


def _bad_key(key: int, offset: int) -> CorruptProtobuf:
    """The error of a key whose field number or wire type is out of range."""
    number, wire_type = key >> WIRE_TYPE_BITS, key & WIRE_TYPE_MASK
    if key > MAX_KEY or number < MIN_FIELD_NUMBER:
        return CorruptProtobuf(f"field key {key}: field number {number} is out of range", offset)
    return CorruptProtobuf(f"field {number}: wire type {wire_type} is not VARINT, I64, LEN or I32 "
                           "(orc_proto.proto declares no groups)", offset)


def _take(data: bytes | memoryview, pos: int, count: int, base_offset: int, what: str,
          *args: object) -> bytes:
    if count > len(data) - pos:
        raise CorruptProtobuf(f"{what.format(*args)}: {count} byte(s) claimed, only {len(data) - pos} "
                              "remain", base_offset + pos)
    return bytes(data[pos:pos + count])


def iter_fields(data: bytes | memoryview, base_offset: int = 0) -> Iterator[WireField]:
    """The records of the message that is all of ``data``; ``base_offset`` is the file
    offset of ``data[0]``."""
    return map(WireField._make, iter_records(data, base_offset))


def iter_records(data: bytes | memoryview, base_offset: int = 0) -> Iterator[Record]:
    """:func:`iter_fields` as plain tuples of WireField's fields: the codec takes every
    record apart at once, and a named tuple costs more to build than its decoding."""
    pos, end = 0, len(data)
    while pos < end:
        key_pos = pos
        key, pos = _read_varint(data, pos, base_offset, "field key")
        number, type_number = key >> WIRE_TYPE_BITS, key & WIRE_TYPE_MASK
        if key > MAX_KEY or number < MIN_FIELD_NUMBER or type_number not in SUPPORTED_WIRE_TYPES:
            raise _bad_key(key, base_offset + key_pos)
        wire_type = _WIRE_TYPES[type_number]
        value: int | bytes
        if wire_type is VARINT:
            value_pos = pos
            value, pos = _read_varint(data, pos, base_offset, FIELD_WHAT, number)
        elif wire_type is LEN:
            length, value_pos = _read_varint(data, pos, base_offset, LENGTH_WHAT, number)
            value = _take(data, value_pos, length, base_offset, FIELD_WHAT, number)
            pos = value_pos + length
        else:
            value_pos = pos
            value = _take(data, pos, FIXED_BYTES[wire_type], base_offset, FIELD_WHAT, number)
            pos += FIXED_BYTES[wire_type]
        yield number, wire_type, value, base_offset + key_pos, base_offset + value_pos


# -- scalar types -------------------------------------------------------------------


# A decoded scalar: bool and enum values are ints too (bool is one).
ScalarValue = int | float | str | bytes


class ScalarType(Enum):
    """The scalar types orc_proto.proto declares fields with."""

    UINT32 = "uint32"
    UINT64 = "uint64"
    INT32 = "int32"
    SINT32 = "sint32"
    SINT64 = "sint64"
    BOOL = "bool"
    ENUM = "enum"  # an int32 on the wire
    FIXED64 = "fixed64"
    DOUBLE = "double"
    STRING = "string"
    BYTES = "bytes"

    # Cached: the codec asks these of every field it decodes.
    @cached_property
    def wire_type(self) -> WireType:
        return _SCALAR_WIRE_TYPES.get(self, WireType.VARINT)

    @cached_property
    def packable(self) -> bool:
        """Only numeric scalars may be packed; a LEN value cannot be."""
        return self.wire_type != WireType.LEN

    @cached_property
    def integer_range(self) -> tuple[int, int]:
        """The least and greatest value of an integer type (bool and enum included)."""
        return _INTEGER_RANGES[self]


_SCALAR_WIRE_TYPES = {
    ScalarType.FIXED64: WireType.I64,
    ScalarType.DOUBLE: WireType.I64,
    ScalarType.STRING: WireType.LEN,
    ScalarType.BYTES: WireType.LEN,
}


# How a varint's bits become the value (as tuples of the members: see _WIRE_TYPES).
_TWOS_COMPLEMENT = (ScalarType.INT32, ScalarType.ENUM)
_ZIGZAG = (ScalarType.SINT32, ScalarType.SINT64)
_BOOL = ScalarType.BOOL


def _signed(value: int, bits: int) -> int:
    """A varint read as two's complement of ``bits`` bits (int32 values are sign-extended
    to 64 bits on the wire)."""
    return value - (1 << bits) if value >> (bits - 1) else value


def decode_scalar(scalar: ScalarType, value: int | bytes, where: str, offset: int) -> ScalarValue:
    """The value of one record of type ``scalar``; ``value`` matches its wire type."""
    if isinstance(value, bytes):
        return _decode_bytes_scalar(scalar, value, where, offset)
    if scalar in _TWOS_COMPLEMENT:
        value = _signed(value, 64)
    elif scalar in _ZIGZAG:
        value = zigzag_decode(value)
    low, high = scalar.integer_range
    if not low <= value <= high:
        raise CorruptProtobuf(f"{where}: {value} is out of range for {scalar.value}", offset)
    return bool(value) if scalar is _BOOL else value


def _decode_bytes_scalar(scalar: ScalarType, value: bytes, where: str, offset: int) -> ScalarValue:
    if scalar == ScalarType.DOUBLE:
        (number,) = DOUBLE_FORMAT.unpack(value)
        return float(number)
    if scalar == ScalarType.FIXED64:
        (integer,) = FIXED64_FORMAT.unpack(value)
        return int(integer)
    if scalar == ScalarType.STRING:
        try:
            return value.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise CorruptProtobuf(f"{where}: string is not UTF-8 ({exc.reason} at byte {exc.start})",
                                  offset) from None
    return value


def decode_packed(scalar: ScalarType, payload: bytes, base_offset: int, where: str) -> list[int | float]:
    """The values of a packed repeated field: its LEN payload is the values' records
    without keys, back to back."""
    values: list[int | float] = []
    pos, end = 0, len(payload)
    while pos < end:
        value_pos = pos
        raw: int | bytes
        if scalar.wire_type is VARINT:
            raw, pos = _read_varint(payload, pos, base_offset, "{}", where)
        else:
            size = FIXED_BYTES[scalar.wire_type]
            raw = _take(payload, pos, size, base_offset, "{}: packed element", where)
            pos += size
        # Packable scalars are numeric (the caller checks ``packable``).
        values.append(cast(int | float, decode_scalar(scalar, raw, where, base_offset + value_pos)))
    return values


# -- writing ------------------------------------------------------------------------


def encode_key(number: int, wire_type: WireType) -> bytes:
    if not MIN_FIELD_NUMBER <= number <= MAX_FIELD_NUMBER:
        raise ValueError(f"field number {number} is out of range")
    return write_uvarint(number << WIRE_TYPE_BITS | wire_type)


def encode_scalar(scalar: ScalarType, value: ScalarValue, where: str) -> bytes:
    """The value bytes of one ``scalar`` (for a LEN type, with its length prefix)."""
    if scalar == ScalarType.STRING and isinstance(value, str):
        try:
            return _with_length(value.encode("utf-8"))
        except UnicodeEncodeError as exc:
            raise ValueError(f"{where}: string cannot be encoded as UTF-8 ({exc.reason})") from None
    if scalar == ScalarType.BYTES and isinstance(value, bytes):
        return _with_length(value)
    if scalar == ScalarType.DOUBLE and isinstance(value, int | float):
        return DOUBLE_FORMAT.pack(value)
    if scalar in _INTEGER_RANGES and isinstance(value, int):
        return _encode_integer(scalar, value, where)
    raise TypeError(f"{where}: {type(value).__name__} {value!r} is not a {scalar.value}")


_INTEGER_RANGES = {
    ScalarType.UINT32: (0, UINT32_LIMIT - 1),
    ScalarType.UINT64: (0, UINT64_LIMIT - 1),
    ScalarType.FIXED64: (0, UINT64_LIMIT - 1),
    ScalarType.INT32: (INT32_MIN, INT32_MAX),
    ScalarType.ENUM: (INT32_MIN, INT32_MAX),
    ScalarType.SINT32: (INT32_MIN, INT32_MAX),
    ScalarType.SINT64: (INT64_MIN, INT64_MAX),
    ScalarType.BOOL: (0, 1),
}


def _encode_integer(scalar: ScalarType, value: int, where: str) -> bytes:
    low, high = _INTEGER_RANGES[scalar]
    if not low <= value <= high:
        raise ValueError(f"{where}: {value} is out of range for {scalar.value}")
    if scalar == ScalarType.FIXED64:
        return FIXED64_FORMAT.pack(value)
    if scalar in (ScalarType.SINT32, ScalarType.SINT64):
        return write_uvarint(zigzag_encode(value))
    # int32 and enum: a negative value is sign-extended to 64 bits (ten bytes).
    return write_uvarint(value % UINT64_LIMIT)


def _with_length(payload: bytes) -> bytes:
    return write_uvarint(len(payload)) + payload


def encode_scalar_field(number: int, scalar: ScalarType, value: ScalarValue, where: str) -> bytes:
    return encode_key(number, scalar.wire_type) + encode_scalar(scalar, value, where)


def encode_len_field(number: int, payload: bytes) -> bytes:
    """A LEN record: a nested message's bytes, or any payload already encoded."""
    return encode_key(number, WireType.LEN) + _with_length(payload)


def encode_packed_field(number: int, scalar: ScalarType, values: list[int | float], where: str) -> bytes:
    payload = b"".join(encode_scalar(scalar, value, where) for value in values)
    return encode_len_field(number, payload)
