"""Shared helpers for the reference Parquet tests: hypothesis strategies built
from the metadata field tables, value comparison that respects float bits, and
a generic driver for the ``thrift`` package's TCompactProtocol (the independent
implementation we cross-check our codec against)."""

from __future__ import annotations

import math
import struct
from enum import IntEnum
from typing import Any

from hypothesis import settings
from hypothesis import strategies as st
from thrift.protocol.TCompactProtocol import TCompactProtocol
from thrift.Thrift import TType
from thrift.transport.TTransport import TMemoryBuffer

from reference_impl.parquet.metadata.parquet_thrift import FieldRepetitionType, Type
from reference_impl.parquet.metadata.thrift_struct import (
    TI8,
    TI16,
    TI32,
    TI64,
    TBinary,
    TBool,
    TDouble,
    TEnum,
    ThriftStruct,
    ThriftType,
    TList,
    TMap,
    TSet,
    TString,
    TStringOrBytes,
    TStruct,
    field_table,
)
from reference_impl.parquet.schema.flat import ColumnSpec

# The project's default hypothesis profile ("ci", tests/support/profiles.py)
# runs 100 examples per test.
CI_PROFILE_EXAMPLES = 100


def budget(examples: int) -> settings:
    """``examples`` under the default profile, scaled with the loaded profile so
    that ``--hypothesis-profile long`` searches proportionally longer here too."""
    scale = settings.default.max_examples / CI_PROFILE_EXAMPLES
    return settings(max_examples=max(1, round(examples * scale)), deadline=None)


# ---------------------------------------------------------------------------
# Comparing values: floats by their bits, everything else by equality.
# ---------------------------------------------------------------------------


def float_bits(value: float) -> bytes:
    return struct.pack("<d", value)


def canonical(value: Any) -> Any:
    """A comparable form: floats become their 8 bytes so NaN == NaN and -0.0 != 0.0."""
    if isinstance(value, float):
        return ("float", float_bits(value))
    if isinstance(value, list):
        return [canonical(item) for item in value]
    return value


def float32_bits(value: float) -> bytes:
    return struct.pack("<f", value)


# ---------------------------------------------------------------------------
# Hypothesis strategies for declared Thrift structs.
# ---------------------------------------------------------------------------

_INT_RANGES = {TI8: 8, TI16: 16, TI32: 32, TI64: 64}


def values_of(thrift_type: ThriftType, *, unknown_enums: bool = True) -> st.SearchStrategy[Any]:
    """Values of any declared Thrift type (recursing into structs and containers)."""
    if thrift_type is TBool:
        return st.booleans()
    if thrift_type in _INT_RANGES:
        bits = _INT_RANGES[thrift_type]
        return st.integers(-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
    if thrift_type is TDouble:
        return st.floats(allow_nan=False)
    if thrift_type is TBinary:
        return st.binary(max_size=12)
    if thrift_type in (TString, TStringOrBytes):
        return st.text(max_size=8)
    if isinstance(thrift_type, TEnum):
        known = st.sampled_from(list(thrift_type.enum_class))
        if not unknown_enums:
            return known
        # Values from a newer spec must survive as plain ints; a negative one can be
        # from no version and is CorruptMetadata (docs/unknown-enum-values.md).
        unknown = st.integers(0, (1 << 31) - 1).filter(
            lambda v: v not in {int(m) for m in thrift_type.enum_class}
        )
        return st.one_of(known, unknown)
    if isinstance(thrift_type, TList):  # TSet included
        return st.lists(values_of(thrift_type.element, unknown_enums=unknown_enums), max_size=3)
    if isinstance(thrift_type, TMap):
        return st.dictionaries(
            values_of(thrift_type.key, unknown_enums=unknown_enums),
            values_of(thrift_type.value, unknown_enums=unknown_enums),
            max_size=3,
        )
    if isinstance(thrift_type, TStruct):
        return structs(thrift_type.struct_class, unknown_enums=unknown_enums)
    raise TypeError(thrift_type)


def structs(
    struct_class: type[ThriftStruct], *, unknown_enums: bool = True
) -> st.SearchStrategy[ThriftStruct]:
    """Instances of a declared struct: required fields always set, optional ones
    sometimes; a union gets exactly one member."""
    table = field_table(struct_class)
    if struct_class.is_union:
        members = [
            values_of(spec.thrift_type, unknown_enums=unknown_enums).map(
                lambda value, name=spec.name: struct_class(**{name: value})
            )
            for spec in table.values()
        ]
        return st.one_of(members)
    fields = {}
    for spec in table.values():
        value = values_of(spec.thrift_type, unknown_enums=unknown_enums)
        fields[spec.name] = value if spec.required else st.none() | value
    return st.fixed_dictionaries(fields).map(lambda kwargs: struct_class(**kwargs))


# ---------------------------------------------------------------------------
# The thrift package as an independent Compact Protocol implementation,
# driven by our field tables (so both sides serialise the same declarations).
# ---------------------------------------------------------------------------

_TTYPE_OF_PRIMITIVE = {
    TBool: TType.BOOL,
    TI8: TType.BYTE,
    TI16: TType.I16,
    TI32: TType.I32,
    TI64: TType.I64,
    TDouble: TType.DOUBLE,
    TBinary: TType.STRING,
    TString: TType.STRING,
    TStringOrBytes: TType.STRING,
}


def ttype_of(thrift_type: ThriftType) -> int:
    if thrift_type in _TTYPE_OF_PRIMITIVE:
        return _TTYPE_OF_PRIMITIVE[thrift_type]
    if isinstance(thrift_type, TEnum):
        return TType.I32
    if isinstance(thrift_type, TSet):
        return TType.SET
    if isinstance(thrift_type, TList):
        return TType.LIST
    if isinstance(thrift_type, TMap):
        return TType.MAP
    if isinstance(thrift_type, TStruct):
        return TType.STRUCT
    raise TypeError(thrift_type)


def thrift_write_value(protocol: TCompactProtocol, thrift_type: ThriftType, value: Any) -> None:
    if thrift_type is TBool:
        protocol.writeBool(value)
    elif thrift_type is TI8:
        protocol.writeByte(value)
    elif thrift_type is TI16:
        protocol.writeI16(value)
    elif thrift_type is TI32 or isinstance(thrift_type, TEnum):
        protocol.writeI32(int(value))
    elif thrift_type is TI64:
        protocol.writeI64(value)
    elif thrift_type is TDouble:
        protocol.writeDouble(value)
    elif thrift_type is TBinary:
        protocol.writeBinary(value)
    elif thrift_type in (TString, TStringOrBytes):
        protocol.writeString(value)
    elif isinstance(thrift_type, TSet):
        protocol.writeSetBegin(ttype_of(thrift_type.element), len(value))
        for element in value:
            thrift_write_value(protocol, thrift_type.element, element)
        protocol.writeSetEnd()
    elif isinstance(thrift_type, TList):
        protocol.writeListBegin(ttype_of(thrift_type.element), len(value))
        for element in value:
            thrift_write_value(protocol, thrift_type.element, element)
        protocol.writeListEnd()
    elif isinstance(thrift_type, TMap):
        protocol.writeMapBegin(ttype_of(thrift_type.key), ttype_of(thrift_type.value), len(value))
        for key, item in value.items():
            thrift_write_value(protocol, thrift_type.key, key)
            thrift_write_value(protocol, thrift_type.value, item)
        protocol.writeMapEnd()
    elif isinstance(thrift_type, TStruct):
        thrift_write_struct(protocol, value)
    else:
        raise TypeError(thrift_type)


ExtraField = tuple[int, int, Any]  # (field id, TType, a writer callback or value)


def thrift_write_struct(
    protocol: TCompactProtocol, value: ThriftStruct, extra_fields: list[ExtraField] = ()
) -> None:
    """Write ``value`` with the thrift package; ``extra_fields`` are
    ``(field_id, ttype, write(protocol))`` written after the known fields, to
    play a newer writer whose fields we do not know."""
    protocol.writeStructBegin(type(value).__name__)
    for spec in field_table(type(value)).values():
        item = getattr(value, spec.name)
        if item is None:
            continue
        protocol.writeFieldBegin(spec.name, ttype_of(spec.thrift_type), spec.field_id)
        thrift_write_value(protocol, spec.thrift_type, item)
        protocol.writeFieldEnd()
    for field_id, ttype, write in extra_fields:
        protocol.writeFieldBegin("unknown", ttype, field_id)
        write(protocol)
        protocol.writeFieldEnd()
    protocol.writeFieldStop()
    protocol.writeStructEnd()


def thrift_serialize(value: ThriftStruct, extra_fields: list[ExtraField] = ()) -> bytes:
    buffer = TMemoryBuffer()
    thrift_write_struct(TCompactProtocol(buffer), value, extra_fields)
    return buffer.getvalue()


def thrift_read_value(protocol: TCompactProtocol, thrift_type: ThriftType) -> Any:
    if thrift_type is TBool:
        return protocol.readBool()
    if thrift_type is TI8:
        return protocol.readByte()
    if thrift_type is TI16:
        return protocol.readI16()
    if thrift_type is TI32 or isinstance(thrift_type, TEnum):
        return protocol.readI32()
    if thrift_type is TI64:
        return protocol.readI64()
    if thrift_type is TDouble:
        return protocol.readDouble()
    if thrift_type is TBinary:
        return protocol.readBinary()
    if thrift_type in (TString, TStringOrBytes):
        return protocol.readString()
    if isinstance(thrift_type, TList):
        _, size = protocol.readListBegin()
        values = [thrift_read_value(protocol, thrift_type.element) for _ in range(size)]
        protocol.readListEnd()
        return values
    if isinstance(thrift_type, TMap):
        _, _, size = protocol.readMapBegin()
        result = {}
        for _ in range(size):
            key = thrift_read_value(protocol, thrift_type.key)
            result[key] = thrift_read_value(protocol, thrift_type.value)
        protocol.readMapEnd()
        return result
    if isinstance(thrift_type, TStruct):
        return thrift_read_struct(protocol, thrift_type.struct_class)
    raise TypeError(thrift_type)


def thrift_read_struct(protocol: TCompactProtocol, struct_class: type[ThriftStruct]) -> dict:
    """Decode with the thrift package into a plain dict of the set fields."""
    table = field_table(struct_class)
    protocol.readStructBegin()
    result = {}
    while True:
        _, ttype, field_id = protocol.readFieldBegin()
        if ttype == TType.STOP:
            break
        spec = table.get(field_id)
        if spec is None or ttype != ttype_of(spec.thrift_type):
            protocol.skip(ttype)
        else:
            result[spec.name] = thrift_read_value(protocol, spec.thrift_type)
        protocol.readFieldEnd()
    protocol.readStructEnd()
    return result


def thrift_deserialize(struct_class: type[ThriftStruct], data: bytes) -> tuple[dict, int]:
    """The decoded dict and the number of bytes the thrift package consumed."""
    buffer = TMemoryBuffer(data)
    result = thrift_read_struct(TCompactProtocol(buffer), struct_class)
    return result, buffer._buffer.tell()


def as_plain(value: Any) -> Any:
    """Our decoded objects in the same plain-dict form ``thrift_read_struct`` returns."""
    if isinstance(value, ThriftStruct):
        return {
            spec.name: as_plain(getattr(value, spec.name))
            for spec in field_table(type(value)).values()
            if getattr(value, spec.name) is not None
        }
    if isinstance(value, list):
        return [as_plain(item) for item in value]
    if isinstance(value, dict):
        return {as_plain(key): as_plain(item) for key, item in value.items()}
    if isinstance(value, IntEnum):
        return int(value)
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    return value


# ---------------------------------------------------------------------------
# Strategies for flat schemas and their physical values.
# ---------------------------------------------------------------------------

ALL_PHYSICAL_TYPES = list(Type)


def physical_values(
    physical_type: Type, type_length: int | None = None, *, int96_timestamps: bool = False
) -> st.SearchStrategy[Any]:
    """Valid physical values of one type, edge cases included."""
    if physical_type == Type.BOOLEAN:
        return st.booleans()
    if physical_type == Type.INT32:
        return st.integers(-(1 << 31), (1 << 31) - 1)
    if physical_type == Type.INT64:
        return st.integers(-(1 << 63), (1 << 63) - 1)
    if physical_type == Type.INT96:
        if int96_timestamps:
            return int96_timestamp_values()
        return st.binary(min_size=12, max_size=12)
    if physical_type == Type.FLOAT:
        return st.floats(width=32)  # NaN, infinities, -0.0 included
    if physical_type == Type.DOUBLE:
        return st.floats()
    if physical_type == Type.BYTE_ARRAY:
        return st.binary(max_size=24)  # the empty value included
    if physical_type == Type.FIXED_LEN_BYTE_ARRAY:
        return st.binary(min_size=type_length, max_size=type_length)
    raise ValueError(physical_type)


JULIAN_DAY_OF_UNIX_EPOCH = 2_440_588
NANOS_PER_DAY = 86_400 * 10**9


def int96_from_nanos(nanos: int) -> bytes:
    """The legacy INT96 timestamp: nanoseconds of the day (int64 LE), Julian day (int32 LE)."""
    days, nanos_of_day = divmod(nanos, NANOS_PER_DAY)
    return struct.pack("<qi", nanos_of_day, days + JULIAN_DAY_OF_UNIX_EPOCH)


def int96_timestamp_values() -> st.SearchStrategy[bytes]:
    """INT96 values that are timestamps inside the int64-nanosecond range, so that
    engines converting them to timestamp[ns] can be compared exactly."""
    limit = (1 << 63) - NANOS_PER_DAY
    return st.integers(-limit, limit).map(int96_from_nanos)


@st.composite
def flat_columns(draw: st.DrawFn, max_columns: int = 5) -> list[ColumnSpec]:
    count = draw(st.integers(1, max_columns))
    columns = []
    for index in range(count):
        physical_type = draw(st.sampled_from(ALL_PHYSICAL_TYPES))
        type_length = (
            draw(st.integers(1, 16)) if physical_type == Type.FIXED_LEN_BYTE_ARRAY else None
        )
        repetition = draw(
            st.sampled_from([FieldRepetitionType.REQUIRED, FieldRepetitionType.OPTIONAL])
        )
        columns.append(ColumnSpec(f"c{index}", physical_type, repetition, type_length))
    return columns


@st.composite
def flat_tables(
    draw: st.DrawFn, *, max_rows: int = 40, int96_timestamps: bool = False
) -> tuple[list[ColumnSpec], dict[str, list[Any]]]:
    columns = draw(flat_columns())
    num_rows = draw(st.integers(0, max_rows))
    data = {}
    for column in columns:
        value = physical_values(
            column.physical_type, column.type_length, int96_timestamps=int96_timestamps
        )
        if column.repetition == FieldRepetitionType.OPTIONAL:
            value = st.none() | value
        data[column.name] = draw(st.lists(value, min_size=num_rows, max_size=num_rows))
    return columns, data
