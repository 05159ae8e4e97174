"""The Thrift Compact Protocol: the wire format of every Parquet metadata structure.

README.md, 'Metadata': "All thrift structures are serialized
using the TCompactProtocol." The protocol itself is specified in
apache/thrift doc/specs/thrift-compact-protocol.md; the section names quoted
below ('Integer encoding', 'Struct encoding', 'List and Set', 'Map', ...) are
from that document.

This module is the protocol only: bytes in, primitive values and headers out
(and the reverse). It knows nothing of Parquet's structs; ``thrift_struct``
drives it from field tables, and ``metadata`` declares the tables.

Reading is defensive (docs/architecture.md, 'Bad input'): every length and count is
checked against the bytes that remain before anything is allocated, nesting is
limited, and any malformation raises :class:`CorruptThrift` with the absolute
byte offset of the offending item.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from enum import IntEnum
from mmap import mmap

from reference_impl.common.varint import (
    decode_uleb128,
    encode_uleb128,
    zigzag_decode,
    zigzag_encode,
)
from reference_impl.parquet.errors import CorruptThrift
from reference_impl.parquet.metadata.binary_protocol_extensions import extension_field

__all__ = [
    "DEFAULT_MAX_DEPTH",
    "CompactReader",
    "CompactType",
    "CompactWriter",
    "FieldHeader",
]


class CompactType(IntEnum):
    """Field and element type ids ('Struct encoding' and 'List and Set').

    A boolean *field* carries its value in the type id (BOOLEAN_TRUE or
    BOOLEAN_FALSE) and has no value bytes. A boolean *element* of a list, set
    or map is one byte.
    """

    STOP = 0
    BOOLEAN_TRUE = 1
    BOOLEAN_FALSE = 2
    I8 = 3
    I16 = 4
    I32 = 5
    I64 = 6
    DOUBLE = 7
    BINARY = 8  # binary and string
    LIST = 9
    SET = 10
    MAP = 11
    STRUCT = 12  # structs and unions
    UUID = 13


# 'List and Set' lists BOOL as element type 2, but the reference libraries
# (Java, C++, Python) write 1 for a list of booleans, and write a false element
# as the byte 2 where the spec text says 0. A reader must accept both spellings;
# our writer emits the form every deployed Thrift library writes, so that bytes
# are identical to theirs.
BOOL_ELEMENT_TYPES = frozenset({CompactType.BOOLEAN_TRUE, CompactType.BOOLEAN_FALSE})
BOOL_ELEMENT_WRITTEN = CompactType.BOOLEAN_TRUE
BOOL_ELEMENT_TRUE = 1
BOOL_ELEMENT_FALSE_WRITTEN = 2
BOOL_ELEMENT_FALSE_BYTES = frozenset({0, 2})

# 'Struct encoding': the short form packs a field-id delta of 1..15 into the
# high nibble; otherwise the long form writes the type alone and the field id
# as a zigzag i16.
MAX_SHORT_FORM_DELTA = 15
NIBBLE_BITS = 4
LOW_NIBBLE = 0x0F

# 'List and Set': sizes 0..14 fit in the high nibble; 15 (all ones) announces a
# following varint size.
MAX_SHORT_LIST_SIZE = 14
LONG_LIST_SIZE_MARKER = 0x0F
EMPTY_LIST_WITHOUT_TYPE = 0x00  # size 0, element type 0 (not a valid type on its own)

# Sizes and lengths are int32 varints that must be non-negative.
MAX_SIZE = (1 << 31) - 1

DOUBLE_FORMAT = struct.Struct("<d")  # 'Double encoding': little endian
DOUBLE_BYTES = 8
UUID_BYTES = 16

# Nesting limit for structs and containers. Parquet metadata nests at most
# about six levels deep; the limit exists so a hostile input cannot exhaust
# the stack (the Thrift libraries use the same default).
DEFAULT_MAX_DEPTH = 64

VALID_ELEMENT_TYPES = frozenset(CompactType) - {CompactType.STOP}


@dataclass(frozen=True)
class FieldHeader:
    """One decoded field header: which field, which wire type, where."""

    field_id: int
    wire_type: CompactType
    offset: int  # absolute offset of the header's first byte

    @property
    def bool_value(self) -> bool:
        """The value of a boolean field, folded into the type id."""
        return self.wire_type == CompactType.BOOLEAN_TRUE


class CompactWriter:
    """Appends Compact Protocol items to a buffer.

    Struct field ids are written as deltas from the previous field of the same
    struct, so the writer keeps one "last field id" per open struct.
    """

    def __init__(self) -> None:
        self._buffer = bytearray()
        self._last_field_id = 0
        self._enclosing_last_field_ids: list[int] = []

    def getvalue(self) -> bytes:
        if self._enclosing_last_field_ids:
            raise RuntimeError("a struct is still open")
        return bytes(self._buffer)

    # -- structs ('Struct encoding') -------------------------------------------------

    def begin_struct(self) -> None:
        self._enclosing_last_field_ids.append(self._last_field_id)
        self._last_field_id = 0

    def end_struct(self) -> None:
        self._buffer.append(CompactType.STOP)
        self._last_field_id = self._enclosing_last_field_ids.pop()

    def write_field_header(self, field_id: int, wire_type: CompactType) -> None:
        delta = field_id - self._last_field_id
        if 0 < delta <= MAX_SHORT_FORM_DELTA:
            self._buffer.append(delta << NIBBLE_BITS | wire_type)
        else:
            self._buffer.append(wire_type)
            self._buffer += encode_uleb128(zigzag_encode(field_id, 16))
        self._last_field_id = field_id

    def append_extension(self, extension: bytes) -> None:
        """Extension bytes as the open struct's last field, in the bytes of
        BinaryProtocolExtensions.md (see ``binary_protocol_extensions``)."""
        self._buffer += extension_field(extension)

    def write_bool_field(self, field_id: int, value: bool) -> None:
        """A boolean field is only a header; the type id is the value."""
        wire_type = CompactType.BOOLEAN_TRUE if value else CompactType.BOOLEAN_FALSE
        self.write_field_header(field_id, wire_type)

    # -- containers ('List and Set', 'Map') ------------------------------------------

    def write_list_header(self, element_type: CompactType, size: int) -> None:
        """List and set headers are identical."""
        element_type = _written_element_type(element_type)
        if size <= MAX_SHORT_LIST_SIZE:
            self._buffer.append(size << NIBBLE_BITS | element_type)
        else:
            self._buffer.append(LONG_LIST_SIZE_MARKER << NIBBLE_BITS | element_type)
            self._buffer += encode_uleb128(_checked_size(size))

    write_set_header = write_list_header

    def write_map_header(self, key_type: CompactType, value_type: CompactType, size: int) -> None:
        """An empty map is the single byte 0; otherwise size, then both types in one byte."""
        if size == 0:
            self._buffer.append(0)
            return
        self._buffer += encode_uleb128(_checked_size(size))
        key_type = _written_element_type(key_type)
        value_type = _written_element_type(value_type)
        self._buffer.append(key_type << NIBBLE_BITS | value_type)

    # -- values ('Base types') -------------------------------------------------------

    def write_bool_element(self, value: bool) -> None:
        self._buffer.append(BOOL_ELEMENT_TRUE if value else BOOL_ELEMENT_FALSE_WRITTEN)

    def write_i8(self, value: int) -> None:
        """int8 "simply uses a single byte" (two's complement)."""
        self._buffer += struct.pack("<b", value)

    def write_i16(self, value: int) -> None:
        self._buffer += encode_uleb128(zigzag_encode(value, 16))

    def write_i32(self, value: int) -> None:
        self._buffer += encode_uleb128(zigzag_encode(value, 32))

    def write_i64(self, value: int) -> None:
        self._buffer += encode_uleb128(zigzag_encode(value, 64))

    def write_double(self, value: float) -> None:
        self._buffer += DOUBLE_FORMAT.pack(value)

    def write_binary(self, value: bytes) -> None:
        self._buffer += encode_uleb128(_checked_size(len(value)))
        self._buffer += value

    def write_string(self, value: str) -> None:
        """'String encoding': UTF-8, then sent as binary."""
        self.write_binary(value.encode("utf-8"))

    def write_uuid(self, value: bytes) -> None:
        if len(value) != UUID_BYTES:
            raise ValueError(f"a uuid is {UUID_BYTES} bytes, got {len(value)}")
        self._buffer += value


def _written_element_type(element_type: CompactType) -> CompactType:
    if element_type in BOOL_ELEMENT_TYPES:
        return BOOL_ELEMENT_WRITTEN
    return element_type


def _checked_size(size: int) -> int:
    if not 0 <= size <= MAX_SIZE:
        raise ValueError(f"a Thrift size must be in [0, {MAX_SIZE}], got {size}")
    return size


class CompactReader:
    """Reads Compact Protocol items from ``data[start:end]``.

    Positions are indexes into ``data``; ``base_offset`` is added to them in
    errors, so that when ``data`` is a slice of a file the offsets reported are
    file offsets. ``position`` is the index of the next unread byte.
    """

    def __init__(
        self,
        data: bytes | bytearray | memoryview | mmap,
        *,
        start: int = 0,
        end: int | None = None,
        base_offset: int = 0,
        max_depth: int = DEFAULT_MAX_DEPTH,
    ) -> None:
        if start < 0:
            # A negative index would wrap to the end of the data in Python: a
            # position computed from a corrupt offset must fail here instead.
            raise CorruptThrift(f"a structure cannot start at position {start}, before the data", base_offset)
        self._data = data
        self.position = start
        self.end = len(data) if end is None else min(end, len(data))
        self.base_offset = base_offset
        self._max_depth = max_depth
        self._depth = 0
        self._last_field_id = 0
        self._enclosing_last_field_ids: list[int] = []

    # -- helpers ---------------------------------------------------------------------

    @property
    def remaining(self) -> int:
        return self.end - self.position

    def offset(self, position: int | None = None) -> int:
        """Absolute offset (for errors) of ``position``, default the current one."""
        return self.base_offset + (self.position if position is None else position)

    def _take(self, count: int, what: str) -> bytes:
        if count > self.remaining:
            raise CorruptThrift(
                f"{what}: expected {count} byte(s), only {self.remaining} remain",
                self.offset(),
            )
        start = self.position
        self.position += count
        return bytes(self._data[start : self.position])

    def _read_byte(self, what: str) -> int:
        if self.position >= self.end:
            raise CorruptThrift(f"{what}: expected 1 byte, the data has ended", self.offset())
        byte = self._data[self.position]
        self.position += 1
        return byte

    def _read_varint(self, bits: int, what: str) -> int:
        value, self.position = decode_uleb128(
            self._data,
            self.position,
            self.end,
            bits=bits,
            error=CorruptThrift,
            what=what,
            base_offset=self.base_offset,
        )
        return value

    def _read_size(self, what: str) -> int:
        start = self.position
        size = self._read_varint(32, what)
        if size > MAX_SIZE:
            raise CorruptThrift(f"{what}: size {size} is negative as an int32", self.offset(start))
        return size

    def _enter(self, what: str) -> None:
        if self._depth >= self._max_depth:
            raise CorruptThrift(
                f"{what}: nesting deeper than the limit of {self._max_depth}", self.offset()
            )
        self._depth += 1

    def _leave(self) -> None:
        self._depth -= 1

    # -- structs ('Struct encoding') -------------------------------------------------

    def begin_struct(self) -> None:
        self._enter("struct")
        self._enclosing_last_field_ids.append(self._last_field_id)
        self._last_field_id = 0

    def end_struct(self) -> None:
        self._last_field_id = self._enclosing_last_field_ids.pop()
        self._leave()

    def read_field_header(self) -> FieldHeader | None:
        """The next field header of the open struct, or ``None`` at its stop field."""
        header_position = self.position
        byte = self._read_byte("field header")
        if byte == CompactType.STOP:
            return None
        delta, type_id = byte >> NIBBLE_BITS, byte & LOW_NIBBLE
        if type_id not in VALID_ELEMENT_TYPES:
            # Includes type 0 with a non-zero delta: the stop field is exactly 0x00.
            raise CorruptThrift(
                f"field header: unknown field type {type_id} (byte 0x{byte:02x})",
                self.offset(header_position),
            )
        if delta:
            field_id = self._last_field_id + delta
        else:
            field_id = zigzag_decode(self._read_varint(16, "long-form field id"))
        self._last_field_id = field_id
        return FieldHeader(field_id, CompactType(type_id), self.offset(header_position))

    # -- containers ('List and Set', 'Map') ------------------------------------------

    def read_list_header(self) -> tuple[CompactType, int]:
        """``(element type, size)`` of a list or set; the size is bounded by the data."""
        header_position = self.position
        byte = self._read_byte("list header")
        short_size, type_id = byte >> NIBBLE_BITS, byte & LOW_NIBBLE
        if byte == EMPTY_LIST_WITHOUT_TYPE:
            # An empty list whose element type nibble is 0: fastparquet writes these,
            # and Apache Thrift's own compact readers accept them. Nothing follows,
            # so nothing can be misread.
            return CompactType.STOP, 0
        element_type = self._element_type(type_id, header_position, "list header")
        if short_size == LONG_LIST_SIZE_MARKER:
            size = self._read_size("list size")
        else:
            size = short_size
        # Every element occupies at least one byte, so a size larger than the
        # remaining bytes is a lie; refuse before anyone allocates for it.
        if size > self.remaining:
            raise CorruptThrift(
                f"list header: {size} elements claimed, only {self.remaining} byte(s) remain",
                self.offset(header_position),
            )
        return element_type, size

    read_set_header = read_list_header

    def read_map_header(self) -> tuple[CompactType, CompactType, int]:
        """``(key type, value type, size)``; an empty map has no type byte."""
        header_position = self.position
        size = self._read_size("map size")
        if size == 0:
            return CompactType.STOP, CompactType.STOP, 0
        types = self._read_byte("map key/value types")
        key_type = self._element_type(types >> NIBBLE_BITS, header_position, "map key type")
        value_type = self._element_type(types & LOW_NIBBLE, header_position, "map value type")
        # Each entry is at least two bytes (a key and a value).
        if 2 * size > self.remaining:
            raise CorruptThrift(
                f"map header: {size} entries claimed, only {self.remaining} byte(s) remain",
                self.offset(header_position),
            )
        return key_type, value_type, size

    def _element_type(self, type_id: int, header_position: int, what: str) -> CompactType:
        if type_id not in VALID_ELEMENT_TYPES:
            raise CorruptThrift(
                f"{what}: unknown element type {type_id}", self.offset(header_position)
            )
        return CompactType(type_id)

    # -- values ('Base types') -------------------------------------------------------

    def read_bool_element(self) -> bool:
        start = self.position
        byte = self._read_byte("bool element")
        if byte == BOOL_ELEMENT_TRUE:
            return True
        if byte in BOOL_ELEMENT_FALSE_BYTES:
            return False
        raise CorruptThrift(
            f"bool element: expected 1 (true) or 0/2 (false), found {byte}", self.offset(start)
        )

    def read_i8(self) -> int:
        byte = self._read_byte("i8")
        return byte - 256 if byte >= 128 else byte

    def read_i16(self) -> int:
        return zigzag_decode(self._read_varint(16, "i16"))

    def read_i32(self) -> int:
        return zigzag_decode(self._read_varint(32, "i32"))

    def read_i64(self) -> int:
        return zigzag_decode(self._read_varint(64, "i64"))

    def read_double(self) -> float:
        (value,) = DOUBLE_FORMAT.unpack(self._take(DOUBLE_BYTES, "double"))
        return value

    def read_binary(self) -> bytes:
        length_position = self.position
        length = self._read_size("binary length")
        if length > self.remaining:
            raise CorruptThrift(
                f"binary: length {length} claimed, only {self.remaining} byte(s) remain",
                self.offset(length_position),
            )
        return self._take(length, "binary")

    def read_string(self) -> str:
        start = self.position
        raw = self.read_binary()
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise CorruptThrift(
                f"string: not valid UTF-8 ({exc.reason})", self.offset(start)
            ) from None

    def read_uuid(self) -> bytes:
        return self._take(UUID_BYTES, "uuid")

    # -- skipping (forward compatibility) --------------------------------------------

    def skip_field_value(self, header: FieldHeader) -> None:
        """Skip the value of a field this reader does not know.

        'Struct': "it is also possible to handle unknown fields while decoding;
        these are simply ignored." A boolean field has no value bytes.
        """
        if header.wire_type in BOOL_ELEMENT_TYPES:
            return
        self._skip(header.wire_type)

    def _skip(self, wire_type: CompactType) -> None:
        """Skip one value that is not a boolean field header (elements, values)."""
        if wire_type in BOOL_ELEMENT_TYPES:
            self.read_bool_element()
        elif wire_type == CompactType.I8:
            self.read_i8()
        elif wire_type == CompactType.I16:
            self.read_i16()
        elif wire_type == CompactType.I32:
            self.read_i32()
        elif wire_type == CompactType.I64:
            self.read_i64()
        elif wire_type == CompactType.DOUBLE:
            self._take(DOUBLE_BYTES, "double")
        elif wire_type == CompactType.BINARY:
            self.read_binary()
        elif wire_type == CompactType.UUID:
            self.read_uuid()
        elif wire_type in (CompactType.LIST, CompactType.SET):
            self._skip_list()
        elif wire_type == CompactType.MAP:
            self._skip_map()
        elif wire_type == CompactType.STRUCT:
            self._skip_struct()
        else:  # pragma: no cover - headers are validated before we get here
            raise CorruptThrift(f"cannot skip wire type {wire_type}", self.offset())

    def _skip_list(self) -> None:
        self._enter("list")
        element_type, size = self.read_list_header()
        for _ in range(size):
            self._skip(element_type)
        self._leave()

    def _skip_map(self) -> None:
        self._enter("map")
        key_type, value_type, size = self.read_map_header()
        for _ in range(size):
            self._skip(key_type)
            self._skip(value_type)
        self._leave()

    def _skip_struct(self) -> None:
        self.begin_struct()
        while (header := self.read_field_header()) is not None:
            self.skip_field_value(header)
        self.end_struct()

    # Containers of containers enter/leave through these so the depth limit
    # covers them as well as structs.
    def enter_container(self, what: str) -> None:
        self._enter(what)

    def leave_container(self) -> None:
        self._leave()
