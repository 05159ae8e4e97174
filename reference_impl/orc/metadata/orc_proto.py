"""Every message of orc_proto.proto as a Python dataclass, and the ONE generic codec.

Each message is declared once, field by field, with the number, type and label that
orc_proto.proto gives it, so a class reads like the .proto::

    message Stream {                        @dataclass
      optional Kind kind = 1;               class Stream(ProtoMessage):
      optional uint32 column = 2;               kind: ... = proto_field(1, StreamKind)
      optional uint64 length = 3;               column: ... = proto_field(2, UINT32)
    }                                           length: ... = proto_field(3, UINT64)

:func:`field_table` reads those declarations back; :func:`encode` and :func:`decode`
walk the table and there is no per-message code. What decoding derives from a
declaration (its wire type, its name in errors) is derived once, as the table is: one
file's tail and stripes decode the same fields thousands of times. The semantics are proto2's
(orc_proto.proto starts ``syntax = "proto2"``), in the protobuf wire format of
``protobuf_wire``:

* an optional field that is absent is ``None`` (proto2 fields have presence), a repeated
  field is a list, empty when absent;
* encoding writes fields in field-number order (as protobuf's own serializers do),
  omits ``None`` and empty lists, and packs exactly the fields the .proto marks
  ``[packed = true]``;
* decoding takes fields in any order, skips unknown field numbers (a newer writer's
  fields), accepts a repeated scalar packed or not (proto2 parsers must), lets the last
  of a repeated singular scalar win and merges a repeated singular message (as protobuf
  parsers do); a known field with a wire type its declared type cannot have is
  :class:`CorruptProtobuf` naming the field, except where the caller decodes
  leniently (``lenient=True``: the stripe statistics, which no row needs), where the
  field is skipped as protobuf-generated parsers skip it, under the rule
  :data:`FIELD_WIRE_TYPE`;
* an enum number this code does not know is kept as a plain int (a newer version's
  value: orc_proto.proto ``Type.Kind`` gained GEOMETRY and GEOGRAPHY, for one);
* a repeated message field declared ``compact`` (the Metadata's StripeStatistics,
  ORCv1.md 'File Metadata': one record a stripe, each a ColumnStatistics a column)
  decodes to a :class:`RecordSequence`: each record is decoded as it is met, so a bad
  one is refused as in a list, then dropped, and decoded again when it is asked for. A
  file of many stripes and columns then holds the statistics' bytes, not millions of
  messages (docs/architecture.md, 'Memory budget').
"""

from __future__ import annotations

import dataclasses
import operator
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum, IntEnum
from functools import cached_property
from typing import Any, TypeVar, overload

from reference_impl.common.leniency import Rule, Strength, breach, reading
from reference_impl.orc.errors import CorruptProtobuf
from reference_impl.orc.metadata.proto_enums import (
    CalendarKind,
    ColumnEncodingKind,
    CompressionKind,
    EdgeInterpolationAlgorithm,
    EncryptionAlgorithm,
    KeyProviderKind,
    StreamKind,
    TypeKind,
)
from reference_impl.orc.metadata.protobuf_wire import (
    LEN,
    Record,
    ScalarType,
    ScalarValue,
    WireType,
    decode_packed,
    decode_scalar,
    encode_len_field,
    encode_packed_field,
    encode_scalar_field,
    iter_records,
)

__all__ = [
    "BinaryStatistics",
    "BloomFilter",
    "BloomFilterIndex",
    "BoundingBox",
    "BucketStatistics",
    "CollectionStatistics",
    "ColumnEncoding",
    "ColumnStatistics",
    "ColumnarStripeStatistics",
    "DataMask",
    "DateStatistics",
    "DecimalStatistics",
    "DoubleStatistics",
    "Encryption",
    "EncryptionKey",
    "EncryptionVariant",
    "FieldSpec",
    "FileStatistics",
    "FileTail",
    "Footer",
    "GeospatialStatistics",
    "IntegerStatistics",
    "Label",
    "MESSAGES",
    "Metadata",
    "PostScript",
    "ProtoMessage",
    "RecordSequence",
    "RowIndex",
    "RowIndexEntry",
    "Stream",
    "StringPair",
    "StringStatistics",
    "StripeEncryptionVariant",
    "StripeFooter",
    "StripeInformation",
    "StripeStatistics",
    "TimestampStatistics",
    "Type",
    "UserMetadataItem",
    "decode",
    "encode",
    "field_table",
]

PROTO_METADATA_KEY = "orc_proto"

UINT32 = ScalarType.UINT32
UINT64 = ScalarType.UINT64
INT32 = ScalarType.INT32
SINT32 = ScalarType.SINT32
SINT64 = ScalarType.SINT64
BOOL = ScalarType.BOOL
FIXED64 = ScalarType.FIXED64
DOUBLE = ScalarType.DOUBLE
STRING = ScalarType.STRING
BYTES = ScalarType.BYTES


class Label(Enum):
    OPTIONAL = "optional"
    REPEATED = "repeated"


class ProtoMessage:
    """Base of the message dataclasses (a marker: the codec is :func:`encode`/:func:`decode`)."""


ProtoType = ScalarType | type[IntEnum] | type[ProtoMessage]
M = TypeVar("M", bound=ProtoMessage)


@dataclass(frozen=True)
class FieldSpec:
    """One line of a message's declaration in orc_proto.proto; what the codec derives from
    it is derived once (cached: a file's tail and stripes decode the same fields by the
    thousand)."""

    number: int
    name: str
    proto_type: ProtoType
    label: Label
    packed: bool
    compact: bool  # decoded to a RecordSequence, not a list
    message: str  # the declaring message's name, for errors

    @cached_property
    def message_type(self) -> type[ProtoMessage] | None:
        proto_type = self.proto_type
        return proto_type if isinstance(proto_type, type) and issubclass(proto_type, ProtoMessage) else None

    @cached_property
    def enum_type(self) -> type[IntEnum] | None:
        proto_type = self.proto_type
        return proto_type if isinstance(proto_type, type) and issubclass(proto_type, IntEnum) else None

    @cached_property
    def scalar(self) -> ScalarType:
        """The wire-level scalar type (an enum is an int32); not for message fields."""
        if isinstance(self.proto_type, ScalarType):
            return self.proto_type
        return ScalarType.ENUM

    @cached_property
    def wire_type(self) -> WireType:
        """The wire type of one value (a packed field's values come in one LEN record)."""
        return LEN if self.message_type is not None else self.scalar.wire_type

    @cached_property
    def repeated(self) -> bool:
        return self.label is Label.REPEATED

    @cached_property
    def where(self) -> str:
        """The field as errors name it."""
        return f"{self.message}.{self.name} (field {self.number})"


def proto_field(number: int, proto_type: ProtoType, *, repeated: bool = False, packed: bool = False,
                compact: bool = False) -> Any:
    """A dataclass field declared as in orc_proto.proto: ``optional`` (default None) or
    ``repeated`` (default an empty list), ``packed`` as ``[packed = true]`` says;
    ``compact``: a repeated message field decoded to a :class:`RecordSequence`."""
    label = Label.REPEATED if repeated else Label.OPTIONAL
    metadata = {PROTO_METADATA_KEY: (number, proto_type, label, packed, compact)}
    if repeated:
        return dataclasses.field(default_factory=list, metadata=metadata)
    return dataclasses.field(default=None, metadata=metadata)


_FIELD_TABLES: dict[type[ProtoMessage], dict[int, FieldSpec]] = {}


def field_table(cls: type[ProtoMessage]) -> dict[int, FieldSpec]:
    """``cls``'s fields by number, in field-number order."""
    table = _FIELD_TABLES.get(cls)
    if table is None:
        table = _FIELD_TABLES[cls] = _read_declarations(cls)
    return table


def _read_declarations(cls: type[ProtoMessage]) -> dict[int, FieldSpec]:
    specs = []
    for field in dataclasses.fields(cls):  # type: ignore[arg-type]
        number, proto_type, label, packed, compact = field.metadata[PROTO_METADATA_KEY]
        spec = FieldSpec(number, field.name, proto_type, label, packed, compact, cls.__name__)
        if packed and (label is not Label.REPEATED or spec.message_type or not spec.scalar.packable):
            raise TypeError(f"{cls.__name__}.{field.name}: only repeated numeric fields are packed")
        if compact and (label is not Label.REPEATED or not spec.message_type):
            raise TypeError(f"{cls.__name__}.{field.name}: only repeated message fields are compact")
        specs.append(spec)
    return {spec.number: spec for spec in sorted(specs, key=lambda spec: spec.number)}


# -- encoding -----------------------------------------------------------------------


def encode(message: ProtoMessage) -> bytes:
    """The wire bytes of ``message``."""
    out = bytearray()
    for spec in field_table(type(message)).values():
        value = getattr(message, spec.name)
        where = f"{type(message).__name__}.{spec.name}"
        if spec.label is Label.OPTIONAL:
            if value is not None:
                out += _encode_one(spec, value, where)
        elif value and spec.packed:
            out += encode_packed_field(spec.number, spec.scalar, value, where)
        else:
            for item in value:
                out += _encode_one(spec, item, where)
    return bytes(out)


def _encode_one(spec: FieldSpec, value: Any, where: str) -> bytes:
    if spec.message_type is not None:
        return encode_len_field(spec.number, encode(value))
    return encode_scalar_field(spec.number, spec.scalar, value, where)


# -- decoding -----------------------------------------------------------------------


FIELD_WIRE_TYPE = Rule(
    id="orc.protobuf.statistics-field-wire-type",
    format="orc",
    spec="ORCv1.md: File Metadata",
    sentence="The file Metadata section contains column statistics at the stripe level granularity.",
    strength=Strength.MUST,
    reading="a known field of the stripe statistics written with another wire type is skipped, as if "
    "absent, as protobuf-generated parsers skip it: the statistics are then incomplete, and no row "
    "depends on them",
    error=CorruptProtobuf,
)


def decode(cls: type[M], data: bytes | memoryview, base_offset: int = 0, *, lenient: bool = False) -> M:
    """The ``cls`` message that is all of ``data``; ``base_offset`` is the file offset of
    ``data[0]`` (for the offsets of errors). ``lenient``: a known field of another wire
    type is skipped under :data:`FIELD_WIRE_TYPE` (in nested messages too)."""
    table = field_table(cls)
    values: dict[str, Any] = {}
    has_compact = False  # whether a compact field's bounds are among the values
    for record in iter_records(data, base_offset):
        spec = table.get(record[0])  # the record's field number
        if spec is None:
            continue  # a field of a newer version of orc_proto.proto
        try:
            value = _decode_record(spec, record, lenient)
        except WrongWireType as error:
            if not lenient:
                raise CorruptProtobuf(error.message, error.offset) from None
            breach(FIELD_WIRE_TYPE, f"{error.message}; skipped", error.offset)
            continue
        previous = values.get(spec.name)
        if spec.repeated:  # each record's list is a new one: the first is extended in place
            if spec.compact:  # checked above; only where its value lies is kept
                if previous is None:
                    previous = values[spec.name] = _bounds_array(len(data))
                    has_compact = True
                previous.extend(_value_bounds(record, base_offset))
            elif previous is None:
                values[spec.name] = value
            else:
                previous += value
        elif previous is not None and spec.message_type is not None:
            values[spec.name] = _merge(previous, value)
        else:
            values[spec.name] = value
    if has_compact:
        _compact_sequences(table, values, bytes(data), base_offset, lenient)
    return cls(**values)


def _compact_sequences(table: dict[int, FieldSpec], values: dict[str, Any], data: bytes, base_offset: int,
                       lenient: bool) -> None:
    """Each compact field's bounds in ``values`` made its RecordSequence over ``data`` (bytes,
    not a view: a view would hold what it views)."""
    for spec in table.values():
        if spec.compact and spec.name in values:
            assert spec.message_type is not None  # only message fields are compact
            bounds = values[spec.name]
            values[spec.name] = RecordSequence(spec.message_type, data, base_offset, bounds, lenient)


def _value_bounds(record: Record, base_offset: int) -> tuple[int, int]:
    """Where a LEN record's value starts and ends in the message's bytes."""
    _, _, raw, _, value_offset = record
    assert isinstance(raw, bytes)  # LEN values are bytes
    start = value_offset - base_offset
    return start, start + len(raw)


# Offsets inside a message, in the narrowest array type they fit (a section's length is a
# uint64, but few reach 4 GiB).
NARROW_BOUND, WIDE_BOUND = "I", "Q"
NARROW_BOUND_LIMIT = 1 << 32


def _bounds_array(length: int) -> array[int]:
    """An empty array for offsets into a message of ``length`` bytes."""
    return array(NARROW_BOUND if length < NARROW_BOUND_LIMIT else WIDE_BOUND)


class RecordSequence(Sequence[M]):
    """The messages of a compact repeated field, as their records' bytes: ``data`` is the
    message that held them, ``bounds`` each record's value's start and end in it, in
    turn. :func:`decode` decoded each once (raising or noting what was wrong); an item is
    decoded again each time it is asked for. Equal to a list of the same messages."""

    __slots__ = ("_base_offset", "_bounds", "_data", "_lenient", "_message_type")

    def __init__(self, message_type: type[M], data: bytes, base_offset: int, bounds: array[int],
                 lenient: bool) -> None:
        self._message_type, self._data, self._base_offset = message_type, data, base_offset
        self._bounds, self._lenient = bounds, lenient

    def __len__(self) -> int:
        return len(self._bounds) // 2

    @overload
    def __getitem__(self, index: int) -> M: ...

    @overload
    def __getitem__(self, index: slice) -> list[M]: ...

    def __getitem__(self, index: int | slice) -> M | list[M]:
        if isinstance(index, slice):
            return [self._item(number) for number in range(len(self))[index]]
        return self._item(range(len(self))[index])  # IndexError as a list's

    def __iter__(self) -> Iterator[M]:
        return map(self._item, range(len(self)))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RecordSequence | list):
            return NotImplemented
        return len(self) == len(other) and all(map(operator.eq, self, other))

    __hash__ = None  # type: ignore[assignment]  # equal to a list, which has none

    def __repr__(self) -> str:
        return repr(list(self))

    def _item(self, number: int) -> M:
        start, end = self._bounds[2 * number], self._bounds[2 * number + 1]
        value = self._data[start:end]
        if not self._lenient:
            return decode(self._message_type, value, self._base_offset + start)
        # What a lenient decode skips was noted when the field was decoded first.
        with reading():
            return decode(self._message_type, value, self._base_offset + start, lenient=True)


class WrongWireType(CorruptProtobuf):
    """A known field arrived with a wire type its declared type cannot have."""


def _decode_record(spec: FieldSpec, record: Record, lenient: bool) -> Any:
    """The value of one record: a (new) list of values for a repeated field."""
    _, wire_type, raw, offset, value_offset = record
    message_type, enum_type = spec.message_type, spec.enum_type
    if message_type is None and spec.repeated and spec.scalar.packable and wire_type is LEN:
        assert isinstance(raw, bytes)  # LEN values are bytes
        packed = decode_packed(spec.scalar, raw, value_offset, spec.where)
        return [_as_enum(enum_type, value) for value in packed] if enum_type else packed
    if wire_type is not spec.wire_type:
        raise WrongWireType(f"{spec.where}: wire type {wire_type.name}, its type needs "
                            f"{spec.wire_type.name}", offset)
    value: Any
    if message_type is not None:
        assert isinstance(raw, bytes)  # LEN values are bytes
        value = decode(message_type, raw, value_offset, lenient=lenient)
    else:
        value = decode_scalar(spec.scalar, raw, spec.where, value_offset)
        if enum_type is not None:
            value = _as_enum(enum_type, value)
    return [value] if spec.repeated else value


def _as_enum(enum_type: type[IntEnum], value: ScalarValue) -> Any:
    """The member numbered ``value``; a number a newer version added is kept as an int."""
    return enum_type._value2member_map_.get(value, value)


def _merge(old: M, new: M) -> M:
    """A singular message field seen twice: the protobuf merge of the two."""
    merged: dict[str, Any] = {}
    for spec in field_table(type(old)).values():
        before, after = getattr(old, spec.name), getattr(new, spec.name)
        if spec.label is Label.REPEATED:
            merged[spec.name] = [*before, *after]
        elif before is not None and after is not None and spec.message_type is not None:
            merged[spec.name] = _merge(before, after)
        else:
            merged[spec.name] = before if after is None else after
    return type(old)(**merged)


# -- the messages, in the order of orc_proto.proto ----------------------------------


@dataclass
class IntegerStatistics(ProtoMessage):
    minimum: int | None = proto_field(1, SINT64)
    maximum: int | None = proto_field(2, SINT64)
    sum: int | None = proto_field(3, SINT64)


@dataclass
class DoubleStatistics(ProtoMessage):
    minimum: float | None = proto_field(1, DOUBLE)
    maximum: float | None = proto_field(2, DOUBLE)
    sum: float | None = proto_field(3, DOUBLE)


@dataclass
class StringStatistics(ProtoMessage):
    minimum: str | None = proto_field(1, STRING)
    maximum: str | None = proto_field(2, STRING)
    sum: int | None = proto_field(3, SINT64)
    lower_bound: str | None = proto_field(4, STRING)
    upper_bound: str | None = proto_field(5, STRING)


@dataclass
class BucketStatistics(ProtoMessage):
    count: list[int] = proto_field(1, UINT64, repeated=True, packed=True)


@dataclass
class DecimalStatistics(ProtoMessage):
    minimum: str | None = proto_field(1, STRING)
    maximum: str | None = proto_field(2, STRING)
    sum: str | None = proto_field(3, STRING)


@dataclass
class DateStatistics(ProtoMessage):
    minimum: int | None = proto_field(1, SINT32)
    maximum: int | None = proto_field(2, SINT32)


@dataclass
class TimestampStatistics(ProtoMessage):
    minimum: int | None = proto_field(1, SINT64)
    maximum: int | None = proto_field(2, SINT64)
    minimum_utc: int | None = proto_field(3, SINT64)
    maximum_utc: int | None = proto_field(4, SINT64)
    minimum_nanos: int | None = proto_field(5, INT32)
    maximum_nanos: int | None = proto_field(6, INT32)


@dataclass
class BinaryStatistics(ProtoMessage):
    sum: int | None = proto_field(1, SINT64)


@dataclass
class CollectionStatistics(ProtoMessage):
    min_children: int | None = proto_field(1, UINT64)
    max_children: int | None = proto_field(2, UINT64)
    total_children: int | None = proto_field(3, UINT64)


@dataclass
class BoundingBox(ProtoMessage):
    xmin: float | None = proto_field(1, DOUBLE)
    xmax: float | None = proto_field(2, DOUBLE)
    ymin: float | None = proto_field(3, DOUBLE)
    ymax: float | None = proto_field(4, DOUBLE)
    zmin: float | None = proto_field(5, DOUBLE)
    zmax: float | None = proto_field(6, DOUBLE)
    mmin: float | None = proto_field(7, DOUBLE)
    mmax: float | None = proto_field(8, DOUBLE)


@dataclass
class GeospatialStatistics(ProtoMessage):
    bbox: BoundingBox | None = proto_field(1, BoundingBox)
    geospatial_types: list[int] = proto_field(2, INT32, repeated=True)  # not packed


@dataclass
class ColumnStatistics(ProtoMessage):
    number_of_values: int | None = proto_field(1, UINT64)
    int_statistics: IntegerStatistics | None = proto_field(2, IntegerStatistics)
    double_statistics: DoubleStatistics | None = proto_field(3, DoubleStatistics)
    string_statistics: StringStatistics | None = proto_field(4, StringStatistics)
    bucket_statistics: BucketStatistics | None = proto_field(5, BucketStatistics)
    decimal_statistics: DecimalStatistics | None = proto_field(6, DecimalStatistics)
    date_statistics: DateStatistics | None = proto_field(7, DateStatistics)
    binary_statistics: BinaryStatistics | None = proto_field(8, BinaryStatistics)
    timestamp_statistics: TimestampStatistics | None = proto_field(9, TimestampStatistics)
    has_null: bool | None = proto_field(10, BOOL)
    bytes_on_disk: int | None = proto_field(11, UINT64)
    collection_statistics: CollectionStatistics | None = proto_field(12, CollectionStatistics)
    geospatial_statistics: GeospatialStatistics | None = proto_field(13, GeospatialStatistics)


@dataclass
class RowIndexEntry(ProtoMessage):
    positions: list[int] = proto_field(1, UINT64, repeated=True, packed=True)
    statistics: ColumnStatistics | None = proto_field(2, ColumnStatistics)


@dataclass
class RowIndex(ProtoMessage):
    entry: list[RowIndexEntry] = proto_field(1, RowIndexEntry, repeated=True)


@dataclass
class BloomFilter(ProtoMessage):
    num_hash_functions: int | None = proto_field(1, UINT32)
    bitset: list[int] = proto_field(2, FIXED64, repeated=True)  # not packed
    utf8bitset: bytes | None = proto_field(3, BYTES)


@dataclass
class BloomFilterIndex(ProtoMessage):
    bloom_filter: list[BloomFilter] = proto_field(1, BloomFilter, repeated=True)


@dataclass
class Stream(ProtoMessage):
    kind: StreamKind | int | None = proto_field(1, StreamKind)
    column: int | None = proto_field(2, UINT32)
    length: int | None = proto_field(3, UINT64)


@dataclass
class ColumnEncoding(ProtoMessage):
    kind: ColumnEncodingKind | int | None = proto_field(1, ColumnEncodingKind)
    dictionary_size: int | None = proto_field(2, UINT32)
    bloom_encoding: int | None = proto_field(3, UINT32)


@dataclass
class StripeEncryptionVariant(ProtoMessage):
    streams: list[Stream] = proto_field(1, Stream, repeated=True)
    encoding: list[ColumnEncoding] = proto_field(2, ColumnEncoding, repeated=True)


@dataclass
class StripeFooter(ProtoMessage):
    streams: list[Stream] = proto_field(1, Stream, repeated=True)
    columns: list[ColumnEncoding] = proto_field(2, ColumnEncoding, repeated=True)
    writer_timezone: str | None = proto_field(3, STRING)
    encryption: list[StripeEncryptionVariant] = proto_field(4, StripeEncryptionVariant, repeated=True)


@dataclass
class StringPair(ProtoMessage):
    key: str | None = proto_field(1, STRING)
    value: str | None = proto_field(2, STRING)


@dataclass
class Type(ProtoMessage):
    kind: TypeKind | int | None = proto_field(1, TypeKind)
    subtypes: list[int] = proto_field(2, UINT32, repeated=True, packed=True)
    field_names: list[str] = proto_field(3, STRING, repeated=True)
    maximum_length: int | None = proto_field(4, UINT32)
    precision: int | None = proto_field(5, UINT32)
    scale: int | None = proto_field(6, UINT32)
    attributes: list[StringPair] = proto_field(7, StringPair, repeated=True)
    crs: str | None = proto_field(8, STRING)
    algorithm: EdgeInterpolationAlgorithm | int | None = proto_field(9, EdgeInterpolationAlgorithm)


@dataclass
class StripeInformation(ProtoMessage):
    offset: int | None = proto_field(1, UINT64)
    index_length: int | None = proto_field(2, UINT64)
    data_length: int | None = proto_field(3, UINT64)
    footer_length: int | None = proto_field(4, UINT64)
    number_of_rows: int | None = proto_field(5, UINT64)
    encrypt_stripe_id: int | None = proto_field(6, UINT64)
    encrypted_local_keys: list[bytes] = proto_field(7, BYTES, repeated=True)


@dataclass
class UserMetadataItem(ProtoMessage):
    name: str | None = proto_field(1, STRING)
    value: bytes | None = proto_field(2, BYTES)


@dataclass
class StripeStatistics(ProtoMessage):
    col_stats: list[ColumnStatistics] = proto_field(1, ColumnStatistics, repeated=True)


@dataclass
class Metadata(ProtoMessage):
    stripe_stats: Sequence[StripeStatistics] = proto_field(1, StripeStatistics, repeated=True, compact=True)


@dataclass
class ColumnarStripeStatistics(ProtoMessage):
    col_stats: list[ColumnStatistics] = proto_field(1, ColumnStatistics, repeated=True)


@dataclass
class FileStatistics(ProtoMessage):
    column: list[ColumnStatistics] = proto_field(1, ColumnStatistics, repeated=True)


@dataclass
class DataMask(ProtoMessage):
    name: str | None = proto_field(1, STRING)
    mask_parameters: list[str] = proto_field(2, STRING, repeated=True)
    columns: list[int] = proto_field(3, UINT32, repeated=True, packed=True)


@dataclass
class EncryptionKey(ProtoMessage):
    key_name: str | None = proto_field(1, STRING)
    key_version: int | None = proto_field(2, UINT32)
    algorithm: EncryptionAlgorithm | int | None = proto_field(3, EncryptionAlgorithm)


@dataclass
class EncryptionVariant(ProtoMessage):
    root: int | None = proto_field(1, UINT32)
    key: int | None = proto_field(2, UINT32)
    encrypted_key: bytes | None = proto_field(3, BYTES)
    stripe_statistics: list[Stream] = proto_field(4, Stream, repeated=True)
    file_statistics: bytes | None = proto_field(5, BYTES)


@dataclass
class Encryption(ProtoMessage):
    mask: list[DataMask] = proto_field(1, DataMask, repeated=True)
    key: list[EncryptionKey] = proto_field(2, EncryptionKey, repeated=True)
    variants: list[EncryptionVariant] = proto_field(3, EncryptionVariant, repeated=True)
    key_provider: KeyProviderKind | int | None = proto_field(4, KeyProviderKind)


@dataclass
class Footer(ProtoMessage):
    header_length: int | None = proto_field(1, UINT64)
    content_length: int | None = proto_field(2, UINT64)
    stripes: list[StripeInformation] = proto_field(3, StripeInformation, repeated=True)
    types: list[Type] = proto_field(4, Type, repeated=True)
    metadata: list[UserMetadataItem] = proto_field(5, UserMetadataItem, repeated=True)
    number_of_rows: int | None = proto_field(6, UINT64)
    statistics: list[ColumnStatistics] = proto_field(7, ColumnStatistics, repeated=True)
    row_index_stride: int | None = proto_field(8, UINT32)
    writer: int | None = proto_field(9, UINT32)
    encryption: Encryption | None = proto_field(10, Encryption)
    calendar: CalendarKind | int | None = proto_field(11, CalendarKind)
    software_version: str | None = proto_field(12, STRING)


@dataclass
class PostScript(ProtoMessage):
    """orc_proto.proto message PostScript; it is never compressed and its serialized
    length must fit the file's last byte (ORCv1.md, 'Postscript')."""

    footer_length: int | None = proto_field(1, UINT64)
    compression: CompressionKind | int | None = proto_field(2, CompressionKind)
    compression_block_size: int | None = proto_field(3, UINT64)
    version: list[int] = proto_field(4, UINT32, repeated=True, packed=True)
    metadata_length: int | None = proto_field(5, UINT64)
    writer_version: int | None = proto_field(6, UINT32)
    stripe_statistics_length: int | None = proto_field(7, UINT64)
    magic: str | None = proto_field(8000, STRING)


@dataclass
class FileTail(ProtoMessage):
    """orc_proto.proto message FileTail: the tail as a split or a footer cache stores it,
    never written in an ORC file (``file_tail.FileTail`` is the tail as read)."""

    postscript: PostScript | None = proto_field(1, PostScript)
    footer: Footer | None = proto_field(2, Footer)
    file_length: int | None = proto_field(3, UINT64)
    postscript_length: int | None = proto_field(4, UINT64)


MESSAGES: tuple[type[ProtoMessage], ...] = (
    IntegerStatistics, DoubleStatistics, StringStatistics, BucketStatistics, DecimalStatistics,
    DateStatistics, TimestampStatistics, BinaryStatistics, CollectionStatistics, BoundingBox,
    GeospatialStatistics, ColumnStatistics, RowIndexEntry, RowIndex, BloomFilter, BloomFilterIndex,
    Stream, ColumnEncoding, StripeEncryptionVariant, StripeFooter, StringPair, Type,
    StripeInformation, UserMetadataItem, StripeStatistics, Metadata, ColumnarStripeStatistics,
    FileStatistics, DataMask, EncryptionKey, EncryptionVariant, Encryption, Footer, PostScript,
    FileTail,
)
