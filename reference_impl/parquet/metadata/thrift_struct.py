"""Thrift structs, unions and enums declared as Python dataclasses, and the ONE
generic encoder/decoder that serialises all of them with the Compact Protocol.

A struct from parquet.thrift is declared once, with its field ids and types, in
a form that reads like the IDL::

    struct DecimalType {             @dataclass
      1: required i32 scale          class DecimalType(ThriftStruct):
      2: required i32 precision          scale: int = thrift_field(1, TI32, required=True)
    }                                    precision: int = thrift_field(2, TI32, required=True)

``encode_struct`` and ``decode_struct`` walk those declarations; there is no
per-struct serialisation code anywhere. Semantics follow the Thrift Compact
Protocol spec (apache/thrift doc/specs/thrift-compact-protocol.md, 'Struct'):

* fields are written in ascending field-id order (the order of parquet.thrift,
  and so the order every generated Thrift library writes them in);
* an absent optional field (``None``) is not written;
* on reading, fields may arrive in any order, unknown field ids are skipped
  (forward compatibility; their headers are kept in ``skipped_fields``; the
  extension bytes of BinaryProtocolExtensions.md are such a field), a
  repeated field id, a missing required field or a required field with the
  wrong wire type is :class:`CorruptThrift`;
* a known *optional* field with the wrong wire type is skipped, as Apache
  Thrift's generated readers skip it, and reported as a breach of
  :data:`FIELD_WIRE_TYPE` (a pre-release parquet-mr 1.12 wrote
  ``ColumnMetaData`` field 15 as a list; docs/architecture.md, 'Verdicts');
* a ``string`` declared :data:`TStringOrBytes` (``KeyValue.value``) whose bytes
  are not UTF-8 is kept as those bytes, a breach of :data:`KEY_VALUE_UTF8`;
* "A Union is encoded exactly the same as a struct with the additional
  restriction that at most 1 field may be encoded";
* enums are i32 ('Enum encoding'); a value above the highest this code
  knows is kept as a plain ``int`` instead of failing, so newer files still
  decode, as an :class:`UnknownEnumValue` that remembers its enum and byte
  offset (their readers decide, through ``metadata.unknown_enum_values``: a
  newer version's type is UnsupportedFeature).
  A negative value is :class:`CorruptMetadata`: parquet.thrift numbers the
  members of every enum from 0 and a newer version appends members with the
  next numbers, so no version can hold one (docs/unknown-enum-values.md).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import IntEnum
from mmap import mmap
from typing import Any, ClassVar, TypeVar

from reference_impl.common.leniency import Rule, Strength, breach
from reference_impl.parquet.errors import CorruptMetadata, CorruptThrift
from reference_impl.parquet.metadata.thrift_compact import (
    BOOL_ELEMENT_TYPES,
    CompactReader,
    CompactType,
    CompactWriter,
    FieldHeader,
)

__all__ = [
    "FIELD_WIRE_TYPE",
    "KEY_VALUE_UTF8",
    "TBinary",
    "TBool",
    "TDouble",
    "TEnum",
    "TI8",
    "TI16",
    "TI32",
    "TI64",
    "TList",
    "TMap",
    "TSet",
    "TString",
    "TStringOrBytes",
    "TStruct",
    "ThriftStruct",
    "UnknownEnumValue",
    "ThriftType",
    "ThriftUnion",
    "decode_struct",
    "deserialize",
    "encode_struct",
    "field_table",
    "serialize",
    "thrift_field",
]


# ---------------------------------------------------------------------------
# Type descriptors: one object per Thrift type, knowing its wire type and how
# to write, read and validate one value of it.
# ---------------------------------------------------------------------------


class ThriftType:
    """Base of the type descriptors. ``wire_type`` is the Compact Protocol type id."""

    name: str = "?"
    wire_type: CompactType = CompactType.STOP

    def matches(self, wire_type: CompactType) -> bool:
        return wire_type == self.wire_type

    def write(self, writer: CompactWriter, value: Any) -> None:
        raise NotImplementedError

    def read(self, reader: CompactReader) -> Any:
        raise NotImplementedError

    def read_field(self, reader: CompactReader, where: str) -> Any:
        """Read the value of the struct field ``where`` (``Struct.field (field id)``)."""
        return self.read(reader)

    def __repr__(self) -> str:
        return self.name


class _Bool(ThriftType):
    """bool: folded into the field header as a field, one byte as an element."""

    name = "bool"
    wire_type = CompactType.BOOLEAN_TRUE

    def matches(self, wire_type: CompactType) -> bool:
        return wire_type in BOOL_ELEMENT_TYPES

    def write(self, writer: CompactWriter, value: Any) -> None:
        if not isinstance(value, bool):
            raise TypeError(f"bool expected, got {type(value).__name__}")
        writer.write_bool_element(value)

    def read(self, reader: CompactReader) -> bool:
        return reader.read_bool_element()


class _Integer(ThriftType):
    """i8, i16, i32, i64: signed integers of a fixed width."""

    def __init__(self, name: str, bits: int, wire_type: CompactType) -> None:
        self.name = name
        self.bits = bits
        self.wire_type = wire_type

    def write(self, writer: CompactWriter, value: Any) -> None:
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"{self.name} expected, got {type(value).__name__}")
        low, high = -(1 << (self.bits - 1)), (1 << (self.bits - 1)) - 1
        if not low <= value <= high:
            raise ValueError(f"{value} is outside the {self.name} range [{low}, {high}]")
        getattr(writer, f"write_{self.name}")(value)

    def read(self, reader: CompactReader) -> int:
        return getattr(reader, f"read_{self.name}")()


class _Double(ThriftType):
    name = "double"
    wire_type = CompactType.DOUBLE

    def write(self, writer: CompactWriter, value: Any) -> None:
        if not isinstance(value, float | int) or isinstance(value, bool):
            raise TypeError(f"double expected, got {type(value).__name__}")
        if isinstance(value, int) and float(value) != value:
            raise ValueError(f"{value} is not exactly representable as a double")
        writer.write_double(float(value))

    def read(self, reader: CompactReader) -> float:
        return reader.read_double()


class _Binary(ThriftType):
    name = "binary"
    wire_type = CompactType.BINARY

    def write(self, writer: CompactWriter, value: Any) -> None:
        if not isinstance(value, bytes | bytearray | memoryview):
            raise TypeError(f"binary expected (bytes), got {type(value).__name__}")
        writer.write_binary(bytes(value))

    def read(self, reader: CompactReader) -> bytes:
        return reader.read_binary()


class _String(ThriftType):
    name = "string"
    wire_type = CompactType.BINARY

    def write(self, writer: CompactWriter, value: Any) -> None:
        if not isinstance(value, str):
            raise TypeError(f"string expected (str), got {type(value).__name__}")
        writer.write_string(value)

    def read(self, reader: CompactReader) -> str:
        return reader.read_string()


KEY_VALUE_UTF8 = Rule(
    id="parquet.thrift.key-value-utf8",
    format="parquet",
    spec="parquet.thrift: struct KeyValue, KeyValue.value",
    sentence="2: optional string value",
    strength=Strength.MUST,
    reading="the value is kept as its bytes (a Thrift string is UTF-8; these bytes are the "
    "only reading of a value that is not, and a replacement character would lose them)",
    error=CorruptThrift,
)


class _StringOrBytes(_String):
    """string that, when its bytes are not UTF-8, is kept as those bytes (a breach of
    :data:`KEY_VALUE_UTF8`); writes a ``str`` as UTF-8 and ``bytes`` as they are."""

    def write(self, writer: CompactWriter, value: Any) -> None:
        if isinstance(value, bytes):
            writer.write_binary(value)
        else:
            super().write(writer, value)

    def read_field(self, reader: CompactReader, where: str) -> str | bytes:
        start = reader.offset()
        raw = reader.read_binary()
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            breach(KEY_VALUE_UTF8, f"{where}: not valid UTF-8 ({exc.reason})", start)
            return raw


TBool = _Bool()
TI8 = _Integer("i8", 8, CompactType.I8)
TI16 = _Integer("i16", 16, CompactType.I16)
TI32 = _Integer("i32", 32, CompactType.I32)
TI64 = _Integer("i64", 64, CompactType.I64)
TDouble = _Double()
TBinary = _Binary()
TString = _String()
TStringOrBytes = _StringOrBytes()


class UnknownEnumValue(int):
    """An enum ordinal the enum does not know, decoded: an ``int`` (it compares and
    encodes as its value) that keeps the enum's name and the value's byte offset,
    so the code that needs a known member can say what and where."""

    enum_name: str
    offset: int | None

    def __new__(cls, value: int, enum_name: str, offset: int | None) -> UnknownEnumValue:
        self = super().__new__(cls, value)
        self.enum_name = enum_name
        self.offset = offset
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return UnknownEnumValue, (int(self), self.enum_name, self.offset)

    @property
    def name(self) -> str:
        """What messages call it, where they would name a member."""
        return f"unknown {self.enum_name} {int(self)}"

    def __repr__(self) -> str:
        return repr(int(self))  # what messages showed before the class existed


class TEnum(ThriftType):
    """An enum, sent as its i32 ordinal. Unknown ordinals decode to UnknownEnumValue;
    negative ones, which no version of parquet.thrift defines, are CorruptMetadata."""

    wire_type = CompactType.I32

    def __init__(self, enum_class: type[IntEnum]) -> None:
        self.enum_class = enum_class
        self.name = enum_class.__name__

    def write(self, writer: CompactWriter, value: Any) -> None:
        TI32.write(writer, int(value) if isinstance(value, IntEnum) else value)

    def read(self, reader: CompactReader) -> IntEnum | UnknownEnumValue:
        offset = reader.offset()
        ordinal = reader.read_i32()
        if ordinal < 0:
            raise CorruptMetadata(
                f"enum {self.name} value {ordinal} is negative: parquet.thrift numbers every "
                f"enum's members from 0, so no version of the format defines it",
                offset,
            )
        try:
            return self.enum_class(ordinal)
        except ValueError:
            return UnknownEnumValue(ordinal, self.name, offset)  # maybe a newer spec's: kept


class TList(ThriftType):
    """list<element>: decoded as a Python list."""

    wire_type = CompactType.LIST

    def __init__(self, element: ThriftType | type[ThriftStruct]) -> None:
        self.element = as_thrift_type(element)
        self.name = f"list<{self.element.name}>"

    def write(self, writer: CompactWriter, value: Any) -> None:
        if not isinstance(value, list | tuple):
            raise TypeError(f"{self.name} expected (list), got {type(value).__name__}")
        writer.write_list_header(self.element.wire_type, len(value))
        for index, element in enumerate(value):
            _with_path(f"[{index}]", self.element.write, writer, element)

    def read(self, reader: CompactReader) -> list[Any]:
        reader.enter_container(self.name)
        header_offset = reader.offset()
        element_type, size = reader.read_list_header()
        if size and not self.element.matches(element_type):
            raise CorruptThrift(
                f"{self.name}: elements have wire type {element_type.name}, "
                f"expected {self.element.wire_type.name}",
                header_offset,
            )
        values = [self.element.read(reader) for _ in range(size)]
        reader.leave_container()
        return values


class TSet(TList):
    """set<element>: same encoding as a list; decoded as a list in wire order
    (Parquet declares no sets; this exists so the codec covers the protocol)."""

    wire_type = CompactType.SET

    def __init__(self, element: ThriftType | type[ThriftStruct]) -> None:
        super().__init__(element)
        self.name = f"set<{self.element.name}>"


class TMap(ThriftType):
    """map<key, value>: decoded as a dict."""

    wire_type = CompactType.MAP

    def __init__(
        self, key: ThriftType | type[ThriftStruct], value: ThriftType | type[ThriftStruct]
    ):
        self.key = as_thrift_type(key)
        self.value = as_thrift_type(value)
        self.name = f"map<{self.key.name},{self.value.name}>"

    def write(self, writer: CompactWriter, value: Any) -> None:
        if not isinstance(value, dict):
            raise TypeError(f"{self.name} expected (dict), got {type(value).__name__}")
        writer.write_map_header(self.key.wire_type, self.value.wire_type, len(value))
        for key, item in value.items():
            _with_path(f"[{key!r}] key", self.key.write, writer, key)
            _with_path(f"[{key!r}]", self.value.write, writer, item)

    def read(self, reader: CompactReader) -> dict[Any, Any]:
        reader.enter_container(self.name)
        header_offset = reader.offset()
        key_type, value_type, size = reader.read_map_header()
        if size and not (self.key.matches(key_type) and self.value.matches(value_type)):
            raise CorruptThrift(
                f"{self.name}: entries have wire types {key_type.name}/{value_type.name}",
                header_offset,
            )
        result: dict[Any, Any] = {}
        for _ in range(size):
            key_offset = reader.offset()
            key = self.key.read(reader)
            try:
                hash(key)
            except TypeError:
                raise CorruptThrift(f"{self.name}: key is not hashable", key_offset) from None
            result[key] = self.value.read(reader)
        reader.leave_container()
        return result


class TStruct(ThriftType):
    """A nested struct or union."""

    wire_type = CompactType.STRUCT

    def __init__(self, struct_class: type[ThriftStruct]) -> None:
        self.struct_class = struct_class
        self.name = struct_class.__name__

    def write(self, writer: CompactWriter, value: Any) -> None:
        if not isinstance(value, self.struct_class):
            raise TypeError(f"{self.name} expected, got {type(value).__name__}")
        encode_struct(value, writer)

    def read(self, reader: CompactReader) -> ThriftStruct:
        return decode_struct(self.struct_class, reader)


def as_thrift_type(declared: ThriftType | type[ThriftStruct] | type[IntEnum]) -> ThriftType:
    """Let declarations name a struct or enum class directly instead of
    TStruct(cls) or TEnum(cls)."""
    if isinstance(declared, ThriftType):
        return declared
    if isinstance(declared, type) and issubclass(declared, ThriftStruct):
        return TStruct(declared)
    if isinstance(declared, type) and issubclass(declared, IntEnum):
        return TEnum(declared)
    raise TypeError(f"not a Thrift type: {declared!r}")


# ---------------------------------------------------------------------------
# Declaring structs.
# ---------------------------------------------------------------------------

THRIFT_FIELD_KEY = "thrift"


@dataclass(frozen=True)
class FieldSpec:
    """One row of a struct's field table."""

    field_id: int
    name: str
    thrift_type: ThriftType
    required: bool


def thrift_field(
    field_id: int,
    thrift_type: ThriftType | type[ThriftStruct] | type[IntEnum],
    *,
    required: bool = False,
) -> Any:
    """Declare a dataclass attribute as Thrift field ``field_id`` of ``thrift_type``.

    Every field defaults to ``None`` ("not set"), required ones included, so a
    struct can be built up step by step; ``encode_struct`` refuses to write a
    struct whose required fields are still ``None``.
    """
    return dataclasses.field(
        default=None,
        metadata={THRIFT_FIELD_KEY: (field_id, as_thrift_type(thrift_type), required)},
    )


@dataclass
class ThriftStruct:
    """Base of every declared struct.

    ``skipped_fields`` records the headers (id, wire type, byte offset) of the
    fields that were present on the wire but unknown to this declaration (a
    newer writer, or extension bytes); it never takes part in equality and is
    never written back. ``extension_bytes``, when set, is written as the
    struct's binary protocol extension.
    """

    skipped_fields: tuple[FieldHeader, ...] = dataclasses.field(
        default=(), compare=False, repr=False, kw_only=True
    )
    # Written after the declared fields as BinaryProtocolExtensions.md appends them
    # (``metadata.binary_protocol_extensions``); never set by reading.
    extension_bytes: bytes | None = dataclasses.field(default=None, compare=False, repr=False, kw_only=True)

    is_union: ClassVar[bool] = False

    @property
    def skipped_field_ids(self) -> tuple[int, ...]:
        return tuple(header.field_id for header in self.skipped_fields)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # @dataclass does not replace a __repr__ already in the class body, so
        # installing it here gives every declared struct the short repr below.
        # mypy rejects assigning a method, and one typed for ThriftStruct
        # rather than object; cls is always a ThriftStruct subclass.
        cls.__repr__ = ThriftStruct._repr_set_fields  # type: ignore[method-assign, assignment]

    def _repr_set_fields(self) -> str:
        """``Name(field=value, ...)`` listing only the fields that are set."""
        parts = [
            f"{spec.name}={getattr(self, spec.name)!r}"
            for spec in field_table(type(self)).values()
            if getattr(self, spec.name) is not None
        ]
        return f"{type(self).__name__}({', '.join(parts)})"


@dataclass
class ThriftUnion(ThriftStruct):
    """Base of every declared union: a struct with at most one field set."""

    is_union: ClassVar[bool] = True

    @property
    def kind(self) -> str | None:
        """The name of the member that is set (``None`` if none, e.g. a member
        from a newer spec that was skipped while reading)."""
        for spec in field_table(type(self)).values():
            if getattr(self, spec.name) is not None:
                return spec.name
        return None

    @property
    def member(self) -> Any:
        """The value of the member that is set, or ``None``."""
        kind = self.kind
        return None if kind is None else getattr(self, kind)


_FIELD_TABLES: dict[type, dict[int, FieldSpec]] = {}


def field_table(struct_class: type[ThriftStruct]) -> dict[int, FieldSpec]:
    """``{field id: FieldSpec}`` of a declared struct, in ascending id order."""
    table = _FIELD_TABLES.get(struct_class)
    if table is None:
        specs = []
        for attribute in dataclasses.fields(struct_class):
            declared = attribute.metadata.get(THRIFT_FIELD_KEY)
            if declared is not None:
                field_id, thrift_type, required = declared
                specs.append(FieldSpec(field_id, attribute.name, thrift_type, required))
        ids = [spec.field_id for spec in specs]
        if len(set(ids)) != len(ids):
            raise TypeError(f"{struct_class.__name__} declares a field id twice: {ids}")
        table = {spec.field_id: spec for spec in sorted(specs, key=lambda s: s.field_id)}
        _FIELD_TABLES[struct_class] = table
    return table


# ---------------------------------------------------------------------------
# The generic encoder and decoder.
# ---------------------------------------------------------------------------


def _with_path(step: str, function: Any, *args: Any) -> None:
    """Call ``function``; prefix any TypeError/ValueError with where it happened."""
    try:
        function(*args)
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"{step}: {exc}") from None


def encode_struct(value: ThriftStruct, writer: CompactWriter) -> None:
    """Write ``value`` (any declared struct or union) to ``writer``."""
    struct_class = type(value)
    table = field_table(struct_class)
    present = [(spec, getattr(value, spec.name)) for spec in table.values()]
    present = [(spec, item) for spec, item in present if item is not None]
    for spec in table.values():
        if spec.required and getattr(value, spec.name) is None:
            raise ValueError(f"{struct_class.__name__}.{spec.name}: required field is not set")
    if struct_class.is_union and len(present) > 1:
        names = ", ".join(spec.name for spec, _ in present)
        raise ValueError(
            f"{struct_class.__name__} is a union but has {len(present)} members set: {names}"
        )
    writer.begin_struct()
    for spec, item in present:
        where = f"{struct_class.__name__}.{spec.name}"
        if spec.thrift_type is TBool:
            if not isinstance(item, bool):
                raise TypeError(f"{where}: bool expected, got {type(item).__name__}")
            writer.write_bool_field(spec.field_id, item)
        else:
            writer.write_field_header(spec.field_id, spec.thrift_type.wire_type)
            _with_path(where, spec.thrift_type.write, writer, item)
    if value.extension_bytes is not None:
        writer.append_extension(value.extension_bytes)
    writer.end_struct()


S = TypeVar("S", bound=ThriftStruct)


def decode_struct(struct_class: type[S], reader: CompactReader) -> S:
    """Read one ``struct_class`` from ``reader`` (which is positioned at its first field)."""
    table = field_table(struct_class)
    struct_offset = reader.offset()
    values: dict[str, Any] = {}
    seen: set[int] = set()
    skipped: list[FieldHeader] = []
    reader.begin_struct()
    while (header := reader.read_field_header()) is not None:
        if header.field_id in seen:
            raise CorruptThrift(
                f"{struct_class.__name__}: field id {header.field_id} appears twice",
                header.offset,
            )
        seen.add(header.field_id)
        spec = table.get(header.field_id)
        if spec is None:
            reader.skip_field_value(header)
            skipped.append(header)
            continue
        where = f"{struct_class.__name__}.{spec.name} (field {spec.field_id})"
        if not spec.thrift_type.matches(header.wire_type):
            _wrong_wire_type(spec, header, where)
            reader.skip_field_value(header)
            continue
        if spec.thrift_type is TBool:
            values[spec.name] = header.bool_value
        else:
            values[spec.name] = spec.thrift_type.read_field(reader, where)
    reader.end_struct()
    _check_decoded(struct_class, table, values, struct_offset)
    return struct_class(**values, skipped_fields=tuple(skipped))


FIELD_WIRE_TYPE = Rule(
    id="parquet.thrift.field-wire-type",
    format="parquet",
    spec="README.md: Metadata",
    sentence="All thrift structures are serialized using the TCompactProtocol.",
    strength=Strength.MUST,
    reading="the optional field is skipped, as if absent, as Apache Thrift's generated "
    "readers skip a field whose wire type is not the declared one",
    error=CorruptThrift,
)


def _wrong_wire_type(spec: FieldSpec, header: FieldHeader, where: str) -> None:
    """A known field arrived with another wire type: a required one cannot be done
    without (CorruptThrift); an optional one is skipped, as a breach."""
    problem = (
        f"{where}: expected wire type {spec.thrift_type.wire_type.name} "
        f"({spec.thrift_type.name}), found {header.wire_type.name}"
    )
    if spec.required:
        raise CorruptThrift(problem, header.offset)
    breach(FIELD_WIRE_TYPE, f"{problem}; skipped", header.offset)


def _check_decoded(
    struct_class: type[ThriftStruct],
    table: dict[int, FieldSpec],
    values: dict[str, Any],
    struct_offset: int,
) -> None:
    for spec in table.values():
        if spec.required and spec.name not in values:
            raise CorruptThrift(
                f"{struct_class.__name__}: required field {spec.name} "
                f"(id {spec.field_id}) is missing",
                struct_offset,
            )
    if struct_class.is_union and len(values) > 1:
        raise CorruptThrift(
            f"{struct_class.__name__} is a union but {len(values)} members are set: "
            + ", ".join(sorted(values)),
            struct_offset,
        )


def serialize(value: ThriftStruct) -> bytes:
    """The Compact Protocol bytes of one struct."""
    writer = CompactWriter()
    encode_struct(value, writer)
    return writer.getvalue()


def deserialize(
    struct_class: type[S],
    data: bytes | bytearray | memoryview | mmap,
    *,
    start: int = 0,
    end: int | None = None,
    base_offset: int = 0,
) -> tuple[S, int]:
    """Decode one ``struct_class`` from ``data[start:end]``.

    Returns the struct and the position just after it (callers such as the page
    reader need to know where the header ended).
    """
    reader = CompactReader(data, start=start, end=end, base_offset=base_offset)
    value = decode_struct(struct_class, reader)
    return value, reader.position
