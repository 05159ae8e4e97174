"""Where each integer of a Thrift Compact Protocol struct lies, for the mutators.

Thrift's compact protocol ('Struct encoding', 'Integer encoding'): an i16, i32 or i64
value is a zigzag ULEB128 varint after its field header (or as a list element). The
walk uses the reference's own reader (``reference_impl.parquet.metadata.thrift_compact``)
and records each integer's byte range and its path of field ids, so a mutator can
rewrite exactly one value: ``with_integer`` re-encodes it at any width, ``padded`` at the
width it had (so that nothing after it moves).
"""

from __future__ import annotations

from dataclasses import dataclass

from reference_impl.common.varint import encode_uleb128, zigzag_decode, zigzag_encode
from reference_impl.parquet.metadata.thrift_compact import CompactReader, CompactType, FieldHeader
from reference_impl.parquet.metadata.thrift_struct import (
    ThriftStruct,
    ThriftType,
    TList,
    TStruct,
    field_table,
)

INTEGER_BITS = {CompactType.I16: 16, CompactType.I32: 32, CompactType.I64: 64}
PAYLOAD_BITS = 7
CONTINUATION = 0x80
ELEMENT = -1  # the path step of a list or map element


@dataclass(frozen=True)
class IntegerField:
    """One integer: ``data[start:end]`` is its varint; ``path`` the field ids to it."""

    start: int
    end: int
    path: tuple[int, ...]
    bits: int
    value: int

    def describe(self, struct_class: type[ThriftStruct]) -> str:
        """The path by parquet.thrift's field names (ids where a name is unknown)."""
        names: list[str] = []
        declared: type[ThriftStruct] | None = struct_class
        for step in self.path:
            if step == ELEMENT:
                names[-1] += "[]"
                continue
            spec = field_table(declared).get(step) if declared is not None else None
            names.append(spec.name if spec is not None else str(step))
            declared = _struct_of(spec.thrift_type) if spec is not None else None
        return ".".join(names)

    def fits(self, value: int) -> bool:
        return -(1 << (self.bits - 1)) <= value < (1 << (self.bits - 1))


def _struct_of(thrift_type: ThriftType) -> type[ThriftStruct] | None:
    """The struct a field holds, itself or as its list's elements."""
    if isinstance(thrift_type, TList):
        thrift_type = thrift_type.element
    return thrift_type.struct_class if isinstance(thrift_type, TStruct) else None


def integer_fields(data: bytes, start: int = 0, end: int | None = None) -> list[IntegerField]:
    """Every integer of the struct at ``data[start:]`` (CorruptThrift if it is not one)."""
    reader = CompactReader(data, start=start, end=end)
    found: list[IntegerField] = []
    _struct(reader, (), found)
    return found


def struct_end(data: bytes, start: int = 0, end: int | None = None) -> int:
    """Where the struct at ``data[start:]`` ends."""
    reader = CompactReader(data, start=start, end=end)
    _struct(reader, (), [])
    return reader.position


def _struct(reader: CompactReader, path: tuple[int, ...], found: list[IntegerField]) -> None:
    reader.begin_struct()
    while (header := reader.read_field_header()) is not None:
        if header.wire_type not in (CompactType.BOOLEAN_TRUE, CompactType.BOOLEAN_FALSE):
            _value(reader, header.wire_type, (*path, header.field_id), found)
    reader.end_struct()


def _value(reader: CompactReader, wire_type: CompactType, path: tuple[int, ...],
           found: list[IntegerField]) -> None:
    if wire_type in INTEGER_BITS:
        start = reader.position
        bits = INTEGER_BITS[wire_type]
        value = {16: reader.read_i16, 32: reader.read_i32, 64: reader.read_i64}[bits]()
        found.append(IntegerField(start, reader.position, path, bits, value))
    elif wire_type == CompactType.STRUCT:
        _struct(reader, path, found)
    elif wire_type in (CompactType.LIST, CompactType.SET):
        reader.enter_container("list")
        element_type, size = reader.read_list_header()
        for _ in range(size):
            _element(reader, element_type, (*path, ELEMENT), found)
        reader.leave_container()
    elif wire_type == CompactType.MAP:
        reader.enter_container("map")
        key_type, value_type, size = reader.read_map_header()
        for _ in range(size):
            _element(reader, key_type, (*path, ELEMENT), found)
            _element(reader, value_type, (*path, ELEMENT), found)
        reader.leave_container()
    else:  # a double, binary or uuid: nothing to mutate inside
        reader.skip_field_value(FieldHeader(path[-1], wire_type, reader.offset()))


def _element(reader: CompactReader, wire_type: CompactType, path: tuple[int, ...],
              found: list[IntegerField]) -> None:
    if wire_type in (CompactType.BOOLEAN_TRUE, CompactType.BOOLEAN_FALSE):
        reader.read_bool_element()
    else:
        _value(reader, wire_type, path, found)


def varint(value: int, bits: int) -> bytes:
    """The zigzag varint of ``value`` as an integer of ``bits`` bits."""
    return encode_uleb128(zigzag_encode(value, bits))


def padded(value: int, bits: int, width: int) -> bytes | None:
    """``value``'s zigzag varint in exactly ``width`` bytes (continuation bits on all but
    the last, as 'Integer encoding' allows), or None when it needs more."""
    encoded = zigzag_encode(value, bits)
    if encoded >> (PAYLOAD_BITS * width):
        return None
    groups = [(encoded >> (PAYLOAD_BITS * i)) & (CONTINUATION - 1) for i in range(width)]
    return bytes(group | CONTINUATION for group in groups[:-1]) + bytes([groups[-1]])


def largest_padded(field: IntegerField) -> int:
    """The largest value whose zigzag varint fits ``field``'s width (and its bits)."""
    width = field.end - field.start
    return min(zigzag_decode((1 << (PAYLOAD_BITS * width)) - 2), (1 << (field.bits - 1)) - 1)
