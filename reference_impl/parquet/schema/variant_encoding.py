"""The Variant binary encoding: the metadata dictionary and the value bytes.

Spec: VariantEncoding.md, 'Metadata encoding', 'Value encoding', 'Encoding
types', 'Object field ID order and uniqueness'.

Reading takes a value apart as far as shredding needs: its kind
(:func:`primitive_type`, :func:`is_object`, :func:`is_array`), an object's
fields and an array's elements as the encoded bytes of each (copied, never
re-encoded). :func:`decode_variant` goes all the way, to the value a variant
*means*, free of its layout: each primitive as its Variant type and value, an
object as its fields by name, an array as its elements in order (see
:class:`VariantPrimitive`). Writing builds objects and arrays, and the primitives of the
'Encoding types' table, in one fixed form (the "reassembly form" of
docs/canonical-values.md): ``is_large`` only when more than 255 elements, the
smallest ``field_id_size`` and ``field_offset_size`` that hold the ids and
offsets, values laid out in field-id order, strings shorter than 64 bytes as
short strings. The spec allows wider fields ("It is valid for an
implementation to use a larger value than necessary"); fixing one choice makes
the reassembled value a function of the variant alone.

Bad bytes raise :class:`InvalidVariant` naming ``where`` and the byte inside
the variant's value or metadata. Two things are not bad bytes but a newer
specification's ('Versions and extensions'), and raise
:class:`UnsupportedFeature`: a metadata version above 1 ("An implementation is
not expected to parse a Variant value whose metadata version is higher than the
version supported by the implementation") and a primitive type id the *Variant
primitive types* table does not list ("new types may be added to the
specification without incrementing the version ID"; a primitive carries no size,
so the rest of the value cannot be read past it).
"""

from __future__ import annotations

import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum

from reference_impl.parquet.errors import InvalidVariant, UnsupportedFeature

__all__ = [
    "VARIANT_NULL",
    "BasicType",
    "Primitive",
    "VariantArray",
    "VariantMetadata",
    "VariantObject",
    "VariantPrimitive",
    "VariantValue",
    "array_elements",
    "decode_value",
    "decode_variant",
    "encode_array",
    "encode_metadata",
    "encode_object",
    "encode_primitive",
    "encode_string",
    "is_array",
    "is_object",
    "object_fields",
    "parse_metadata",
    "primitive_payload",
    "primitive_type",
]

METADATA_VERSION = 1
VERSION_MASK = 0x0F
SORTED_STRINGS_BIT = 0x10
OFFSET_SIZE_SHIFT = 6
BASIC_TYPE_MASK = 0x03
HEADER_SHIFT = 2
MAX_SHORT_STRING = 63  # "strings less than 64 bytes"
MAX_SMALL_COUNT = 255  # "When more than 255 elements are present, is_large must be set"
LARGE_COUNT_SIZE = 4
IS_LARGE_OBJECT_BIT = 0x10  # object_header: is_large << 4
IS_LARGE_ARRAY_BIT = 0x04  # array_header: is_large << 2
FIELD_ID_SIZE_SHIFT = 2
SIZE_FIELD = 4  # the 4-byte size before binary and string bytes
MAX_INT_SIZE = 4
MAX_DECIMAL_SCALE = 38  # "1-byte scale in range [0, 38]"
MAX_NESTING = 200  # deeper values are refused (UnsupportedFeature) before Python's recursion limit


class BasicType(IntEnum):
    """'Encoding types', *Variant basic types*."""

    PRIMITIVE = 0
    SHORT_STRING = 1
    OBJECT = 2
    ARRAY = 3


class Primitive(IntEnum):
    """'Encoding types', *Variant primitive types* (the Type ID column)."""

    NULL = 0
    TRUE = 1
    FALSE = 2
    INT8 = 3
    INT16 = 4
    INT32 = 5
    INT64 = 6
    DOUBLE = 7
    DECIMAL4 = 8
    DECIMAL8 = 9
    DECIMAL16 = 10
    DATE = 11
    TIMESTAMP_MICROS = 12
    TIMESTAMP_NTZ_MICROS = 13
    FLOAT = 14
    BINARY = 15
    STRING = 16
    TIME_NTZ_MICROS = 17
    TIMESTAMP_NANOS = 18
    TIMESTAMP_NTZ_NANOS = 19
    UUID = 20


# Members by number (an enum call per header byte is a third of the decoding time).
_BASIC_TYPES = tuple(BasicType)
_PRIMITIVES = {member.value: member for member in Primitive}

# Bytes of value_data after the header byte; None: a 4-byte size, then that many bytes.
_PRIMITIVE_SIZES: dict[Primitive, int | None] = {
    Primitive.NULL: 0, Primitive.TRUE: 0, Primitive.FALSE: 0, Primitive.INT8: 1,
    Primitive.INT16: 2, Primitive.INT32: 4, Primitive.INT64: 8, Primitive.DOUBLE: 8,
    Primitive.DECIMAL4: 5, Primitive.DECIMAL8: 9, Primitive.DECIMAL16: 17, Primitive.DATE: 4,
    Primitive.TIMESTAMP_MICROS: 8, Primitive.TIMESTAMP_NTZ_MICROS: 8, Primitive.FLOAT: 4,
    Primitive.BINARY: None, Primitive.STRING: None, Primitive.TIME_NTZ_MICROS: 8,
    Primitive.TIMESTAMP_NANOS: 8, Primitive.TIMESTAMP_NTZ_NANOS: 8, Primitive.UUID: 16,
}

VARIANT_NULL = bytes([Primitive.NULL << HEADER_SHIFT | BasicType.PRIMITIVE])
"""'Value encoding': basic type 0 (primitive) and physical type 0 (null)."""


# ---------------------------------------------------------------------------
# Metadata
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class VariantMetadata:
    """A decoded metadata: the dictionary strings in order."""

    names: tuple[str, ...]

    def field_id(self, name: str, where: str) -> int:
        """The id of ``name`` (its first entry when the dictionary is not unique).
        VariantShredding.md, 'Variant Metadata': "All field names of a Variant,
        whether shredded or not, must be present in the metadata"."""
        try:
            return self.names.index(name)
        except ValueError:
            raise InvalidVariant(f"{where}: field name {name!r} is not in the variant metadata") from None

    def name(self, field_id: int, where: str) -> str:
        if field_id >= len(self.names):
            raise InvalidVariant(f"{where}: field id {field_id} past the metadata's {len(self.names)} names")
        return self.names[field_id]


def parse_metadata(data: bytes, where: str) -> VariantMetadata:
    """'Metadata encoding': header, dictionary_size, dictionary_size + 1 offsets, bytes.
    "The first `offset` value will always be `0`, and the last `offset` value will
    always be the total length of `bytes`"; with ``sorted_strings`` set, "strings in
    the dictionary must be unique and sorted in lexicographic order"."""
    where = f"{where}, variant metadata"
    cursor = _Cursor(data, where)
    header = cursor.unsigned(1)
    version = header & VERSION_MASK
    if version > METADATA_VERSION:
        raise UnsupportedFeature(f"{where}: version {version} at byte 0 (only 1 is defined)")
    if version != METADATA_VERSION:
        raise InvalidVariant(f"{where}: version {version} at byte 0; 'Metadata encoding': \"The "
                             f"`version` is a 4-bit value that must always contain the value `1`\"")
    offset_size = (header >> OFFSET_SIZE_SHIFT) + 1
    count = cursor.unsigned(offset_size)
    offsets_start = cursor.position
    offsets = [cursor.unsigned(offset_size) for _ in range(cursor.bounded(count + 1, offset_size))]
    start = cursor.position
    if offsets[0] != 0 or offsets != sorted(offsets) or start + offsets[-1] != len(data):
        raise InvalidVariant(f"{where}: string offsets {offsets[:8]} at byte {offsets_start} are not "
                             f"0, ascending, ending at its {len(data) - start} bytes of strings")
    strings = [data[start + a : start + b] for a, b in zip(offsets, offsets[1:], strict=False)]
    if header & SORTED_STRINGS_BIT and any(a >= b for a, b in zip(strings, strings[1:], strict=False)):
        raise InvalidVariant(f"{where}: sorted_strings is set (byte 0), but its strings are not unique "
                             f"and sorted: {strings[:8]}")
    return VariantMetadata(tuple(_utf8(s, where, start + a) for s, a in zip(strings, offsets, strict=False)))


# ---------------------------------------------------------------------------
# Values: reading
# ---------------------------------------------------------------------------


def basic_type(value: bytes, where: str) -> BasicType:
    if not value:
        raise InvalidVariant(f"{where}: an empty variant value (it needs at least its header byte)")
    return _BASIC_TYPES[value[0] & BASIC_TYPE_MASK]


def is_object(value: bytes, where: str) -> bool:
    return basic_type(value, where) is BasicType.OBJECT


def is_array(value: bytes, where: str) -> bool:
    return basic_type(value, where) is BasicType.ARRAY


def primitive_type(value: bytes, where: str) -> Primitive | None:
    """The primitive type of a value (a short string is ``STRING``), or None for
    an object or an array; an unknown type id raises."""
    kind = basic_type(value, where)
    if kind is BasicType.SHORT_STRING:
        return Primitive.STRING
    if kind is not BasicType.PRIMITIVE:
        return None
    return _known_primitive(value[0] >> HEADER_SHIFT, 0, where)


def primitive_payload(value: bytes, where: str) -> bytes:
    """The value_data of a primitive (a string's or binary's bytes without their size)."""
    if primitive_type(value, where) is None:
        raise InvalidVariant(f"{where}: a variant object or array where a primitive was expected")
    size = value_size(value, 0, len(value), where)
    skip = 1 + (SIZE_FIELD if _sized(value[0]) else 0)
    return value[skip:size]


def _known_primitive(type_id: int, at: int, where: str) -> Primitive:
    """A type id of the *Variant primitive types* table; another is a newer
    specification's type ('Versions and extensions'), whose size this reader cannot know."""
    known = _PRIMITIVES.get(type_id)
    if known is None:
        raise UnsupportedFeature(f"{where}: variant primitive type id {type_id} at byte {at} is not in "
                                 f"'Encoding types' (a type added later?)")
    return known


def _sized(head: int) -> bool:
    """A binary or long string: a 4-byte size precedes its bytes."""
    basic = head & BASIC_TYPE_MASK
    return basic == BasicType.PRIMITIVE and _PRIMITIVE_SIZES.get(Primitive(head >> HEADER_SHIFT), 0) is None


def object_fields(value: bytes, metadata: VariantMetadata, where: str) -> dict[str, bytes]:
    """'Value Data for Object': each field's name and encoded value, in field-id order.
    Raises for duplicate names ("Field names are required to be unique")."""
    layout = _Container.of(value, 0, len(value), where)
    cursor = _Cursor(value, where, layout.ids_start)
    ids = [(cursor.position, cursor.unsigned(layout.id_size)) for _ in range(layout.count)]
    fields: dict[str, bytes] = {}
    for (at, field_id), child in zip(ids, layout.children(value, where), strict=True):
        name = metadata.name(field_id, f"{where}, field id at byte {at}")
        if name in fields:
            raise InvalidVariant(f"{where}: variant object has field {name!r} twice")
        fields[name] = child
    return fields


def array_elements(value: bytes, where: str) -> list[bytes]:
    """'Value Data for Array': each element's encoded value, in order."""
    return _Container.of(value, 0, len(value), where).children(value, where)


@dataclass(frozen=True)
class _Container:
    """Where the parts of an object or array start ('Value Header for Object',
    'Value Header for Array'); ``id_size`` is 0 for an array."""

    count: int
    ids_start: int
    id_size: int
    offsets: tuple[int, ...]
    values_start: int

    @classmethod
    def of(cls, data: bytes, start: int, end: int, where: str) -> _Container:
        header = data[start] >> HEADER_SHIFT
        offset_size = (header & BASIC_TYPE_MASK) + 1
        if data[start] & BASIC_TYPE_MASK == BasicType.OBJECT:
            id_size = ((header >> FIELD_ID_SIZE_SHIFT) & BASIC_TYPE_MASK) + 1
            large = header & IS_LARGE_OBJECT_BIT
        else:
            id_size, large = 0, header & IS_LARGE_ARRAY_BIT
        cursor = _Cursor(data[:end], where, start + 1)
        count = cursor.unsigned(LARGE_COUNT_SIZE if large else 1)
        ids_start = cursor.position
        cursor.skip(cursor.bounded(count, id_size) * id_size)
        offsets = tuple(cursor.unsigned(offset_size) for _ in range(cursor.bounded(count + 1, offset_size)))
        if cursor.position + offsets[-1] > end or any(o >= offsets[-1] for o in offsets[:-1]):
            raise InvalidVariant(f"{where}: variant field offsets {list(offsets[:8])} run past the "
                                 f"{end - cursor.position} bytes of values (at byte {cursor.position})")
        return cls(count, ids_start, id_size, offsets, cursor.position)

    @property
    def size(self) -> int:
        return self.values_start + self.offsets[-1]

    def children(self, data: bytes, where: str) -> list[bytes]:
        end = self.size
        starts = [self.values_start + o for o in self.offsets[:-1]]
        return [data[s : s + value_size(data, s, end, where)] for s in starts]


def value_size(data: bytes, start: int, end: int, where: str) -> int:
    """The size of the encoded value at ``start``, which must end by ``end``."""
    head = data[start]
    kind = _BASIC_TYPES[head & BASIC_TYPE_MASK]
    if kind is BasicType.SHORT_STRING:
        size = 1 + (head >> HEADER_SHIFT)
    elif kind is BasicType.PRIMITIVE:
        size = _primitive_size(data, start, end, where)
    else:
        size = _Container.of(data, start, end, where).size - start
    if start + size > end:
        raise InvalidVariant(f"{where}: a variant value at byte {start} needs {size} bytes, "
                             f"{end - start} remain")
    return size


def _primitive_size(data: bytes, start: int, end: int, where: str) -> int:
    size = _PRIMITIVE_SIZES[_known_primitive(data[start] >> HEADER_SHIFT, start, where)]
    if size is None:
        return 1 + SIZE_FIELD + _Cursor(data[:end], where, start + 1).unsigned(SIZE_FIELD)
    return 1 + size


# ---------------------------------------------------------------------------
# Values: decoding to what they mean
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class VariantPrimitive:
    """A primitive ('Encoding types', *Variant primitive types*): its type and value.

    ``value`` is None for null, true and false (the type says which); an int for
    the integers, date, times and timestamps; the IEEE bit pattern for float and
    double (so -0.0 differs from 0.0 and a NaN keeps its payload); ``(scale,
    unscaled)`` for the decimals; ``str`` for a string, short or long (one type,
    two encodings: 'Value Data for Short string'); ``bytes`` for binary and uuid.
    """

    type: Primitive
    value: object


@dataclass(frozen=True)
class VariantObject:
    """An object: its fields by name, sorted by name (unsigned UTF-8 bytes) whatever
    order the values had in the bytes ("The `value` list can be in any order")."""

    fields: tuple[tuple[str, VariantValue], ...]


@dataclass(frozen=True)
class VariantArray:
    """An array: "An ordered sequence of variant values"."""

    elements: tuple[VariantValue, ...]


VariantValue = VariantPrimitive | VariantObject | VariantArray


def decode_variant(metadata: bytes, value: bytes, where: str) -> VariantValue:
    """What ``(metadata, value)`` means; bad bytes raise :class:`InvalidVariant`,
    among them bytes after the value (its sizes then lie)."""
    return decode_value(value, parse_metadata(metadata, where), where)


def decode_value(value: bytes, metadata: VariantMetadata, where: str,
                 unordered: list[str] | None = None) -> VariantValue:
    """What ``value`` means with an already parsed ``metadata`` (see :func:`decode_variant`).
    ``unordered`` collects where an object lists its field ids out of the order of their
    names ('Object field ID order and uniqueness': "field IDs and offsets must be listed
    in the order of the corresponding field names, sorted lexicographically (using
    unsigned byte ordering for UTF-8)"), which leaves its meaning, fields by name, whole."""
    size = value_size(value, 0, len(value), where) if value else 0
    if size != len(value):
        raise InvalidVariant(f"{where}: {len(value) - size} bytes after the {size}-byte variant value")
    return _decode(value, metadata, where, 0, [] if unordered is None else unordered)


def _decode(value: bytes, metadata: VariantMetadata, where: str, depth: int,
            unordered: list[str]) -> VariantValue:
    if depth > MAX_NESTING:
        raise UnsupportedFeature(f"{where}: a variant nested deeper than {MAX_NESTING} levels")
    if is_object(value, where):
        fields = object_fields(value, metadata, where)  # in field-id order
        names = sorted(fields, key=lambda n: n.encode("utf-8"))
        if names != list(fields):
            unordered.append(where)
        return VariantObject(tuple((name, _decode(fields[name], metadata, f"{where}.{name}", depth + 1,
                                                  unordered)) for name in names))
    if is_array(value, where):
        return VariantArray(tuple(_decode(e, metadata, f"{where}[{i}]", depth + 1, unordered)
                                  for i, e in enumerate(array_elements(value, where))))
    kind = primitive_type(value, where)
    assert kind is not None  # neither object nor array
    return VariantPrimitive(kind, _primitive_value(kind, value, where))


# value_data read as one little-endian number ('Encoding types', *Binary format*);
# float and double as unsigned: their bit patterns.
_NUMBER_FORMATS = {Primitive.INT8: "<b", Primitive.INT16: "<h", Primitive.INT32: "<i",
                   Primitive.INT64: "<q", Primitive.DATE: "<i", Primitive.FLOAT: "<I",
                   Primitive.DOUBLE: "<Q", Primitive.TIMESTAMP_MICROS: "<q",
                   Primitive.TIMESTAMP_NTZ_MICROS: "<q", Primitive.TIME_NTZ_MICROS: "<q",
                   Primitive.TIMESTAMP_NANOS: "<q", Primitive.TIMESTAMP_NTZ_NANOS: "<q"}
_DECIMALS = (Primitive.DECIMAL4, Primitive.DECIMAL8, Primitive.DECIMAL16)


def _primitive_value(kind: Primitive, value: bytes, where: str) -> object:
    payload = primitive_payload(value, where)
    if kind in _NUMBER_FORMATS:
        return struct.unpack(_NUMBER_FORMATS[kind], payload)[0]
    if kind in _DECIMALS:
        scale = payload[0]
        if scale > MAX_DECIMAL_SCALE:
            raise InvalidVariant(f"{where}: variant {kind.name.lower()} scale {scale} is outside "
                                 f"[0, {MAX_DECIMAL_SCALE}]")
        return scale, int.from_bytes(payload[1:], "little", signed=True)
    if kind is Primitive.STRING:
        return _utf8(payload, where, at=len(value) - len(payload))
    if kind in (Primitive.BINARY, Primitive.UUID):
        return payload
    return None  # null, true and false: the type is the whole value


# ---------------------------------------------------------------------------
# Values: writing (the reassembly form, see the module docstring)
# ---------------------------------------------------------------------------


def encode_metadata(names: Sequence[str]) -> bytes:
    """'Metadata encoding' of a dictionary of ``names`` in their order, ``sorted_strings``
    set when they are unique and sorted, the smallest offset size that holds the offsets."""
    strings = [name.encode("utf-8") for name in names]
    ends = [0]
    for string in strings:
        ends.append(ends[-1] + len(string))
    size = _int_size(max(ends[-1], len(strings)))
    is_sorted = strings == sorted(set(strings))
    header = METADATA_VERSION | (SORTED_STRINGS_BIT if is_sorted else 0) | (size - 1) << OFFSET_SIZE_SHIFT
    return (bytes([header]) + _uint(len(strings), size) + b"".join(_uint(e, size) for e in ends)
            + b"".join(strings))


def encode_primitive(kind: Primitive, payload: bytes = b"") -> bytes:
    """A primitive value: its header byte, then ``payload`` (with the 4-byte size
    first for binary and string)."""
    size = _PRIMITIVE_SIZES[kind]
    if size is None:
        payload = struct.pack("<I", len(payload)) + payload
    elif len(payload) != size:
        raise ValueError(f"variant {kind.name} takes {size} bytes of value_data, not {len(payload)}")
    return bytes([kind << HEADER_SHIFT | BasicType.PRIMITIVE]) + payload


def encode_string(text: bytes) -> bytes:
    """A UTF-8 string: a short string when shorter than 64 bytes, else a STRING primitive."""
    if len(text) <= MAX_SHORT_STRING:
        return bytes([len(text) << HEADER_SHIFT | BasicType.SHORT_STRING]) + text
    return encode_primitive(Primitive.STRING, text)


def encode_object(fields: Mapping[str, bytes], metadata: VariantMetadata, where: str) -> bytes:
    """An object of encoded ``fields``, ids and offsets "in lexicographical order of
    the corresponding field names" (unsigned UTF-8 byte order), values in that order."""
    names = sorted(fields, key=lambda name: name.encode("utf-8"))
    ids = [metadata.field_id(name, where) for name in names]
    values = [fields[name] for name in names]
    id_size = _int_size(max(ids, default=0))
    offsets, offset_size, large = _layout(values)
    header = (IS_LARGE_OBJECT_BIT if large else 0) | (id_size - 1) << FIELD_ID_SIZE_SHIFT | (offset_size - 1)
    return (bytes([header << HEADER_SHIFT | BasicType.OBJECT]) + _count(len(values), large)
            + b"".join(_uint(i, id_size) for i in ids) + offsets + b"".join(values))


def encode_array(elements: Sequence[bytes]) -> bytes:
    """An array of encoded ``elements``, in order."""
    offsets, offset_size, large = _layout(elements)
    header = (IS_LARGE_ARRAY_BIT if large else 0) | (offset_size - 1)
    return (bytes([header << HEADER_SHIFT | BasicType.ARRAY]) + _count(len(elements), large)
            + offsets + b"".join(elements))


def _layout(values: Sequence[bytes]) -> tuple[bytes, int, bool]:
    """The offsets list of ``values`` laid out in order, its field size, is_large."""
    ends = [0]
    for v in values:
        ends.append(ends[-1] + len(v))
    size = _int_size(ends[-1])
    return b"".join(_uint(e, size) for e in ends), size, len(values) > MAX_SMALL_COUNT


def _count(count: int, large: bool) -> bytes:
    return _uint(count, LARGE_COUNT_SIZE if large else 1)


def _int_size(largest: int) -> int:
    """The fewest bytes (1 to 4) that hold ``largest`` unsigned."""
    size = max(1, (largest.bit_length() + 7) // 8)
    if size > MAX_INT_SIZE:
        raise ValueError(f"{largest} does not fit the 4-byte ids and offsets of the variant encoding")
    return size


def _uint(value: int, size: int) -> bytes:
    return value.to_bytes(size, "little")


# ---------------------------------------------------------------------------
# Bounds-checked reading
# ---------------------------------------------------------------------------


class _Cursor:
    def __init__(self, data: bytes, where: str, position: int = 0) -> None:
        self.data, self.where, self.position = data, where, position

    def unsigned(self, size: int) -> int:
        end = self.position + size
        if end > len(self.data):
            raise InvalidVariant(f"{self.where}: {size}-byte field at byte {self.position} runs past "
                                 f"its {len(self.data)} bytes")
        value = int.from_bytes(self.data[self.position : end], "little")
        self.position = end
        return value

    def skip(self, size: int) -> None:
        if self.position + size > len(self.data):
            raise InvalidVariant(f"{self.where}: {size} bytes at byte {self.position} run past its "
                                 f"{len(self.data)} bytes")
        self.position += size

    def bounded(self, count: int, size: int) -> int:
        """``count``, after checking that ``count`` fields of ``size`` bytes fit."""
        if self.position + count * size > len(self.data):
            raise InvalidVariant(f"{self.where}: {count} fields of {size} bytes at byte {self.position} "
                                 f"run past its {len(self.data)} bytes")
        return count


def _utf8(data: bytes, where: str, at: int) -> str:
    """``data`` (which starts at byte ``at``) as UTF-8: "All strings within the Variant
    binary format must be UTF-8 encoded" ('String values must be UTF-8 encoded')."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InvalidVariant(f"{where}: a string that is not UTF-8 ({error.reason} at byte "
                             f"{at + error.start})") from None
