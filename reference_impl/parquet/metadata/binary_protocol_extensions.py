"""Extension bytes appended to a Thrift struct as the binary field 32767.

Spec: BinaryProtocolExtensions.md (its introduction, and 'Appending extensions
to thrift'). On the wire, for any struct (the text's example is FileMetaData)::

    N-1 bytes | Thrift compact protocol encoded struct (minus \\0 thrift stop field)
    4 bytes   | 08 FF FF 01 (long form header for 32767: binary)
    1-5 bytes | ULEB128(M) encoded size of the extension
    M bytes   | extension bytes
    1 byte    | \\0 (thrift stop field)

"Existing readers will ignore these extensions": every struct decoder here
skips a field it does not declare (``thrift_struct.decode_struct``) and keeps
where it was (``ThriftStruct.skipped_fields``), so a file with extensions reads
exactly as without them, and ``validate`` can say where they are.

The header's field id. The compact protocol writes a long-form field id as a
zigzag i16 varint (thrift_compact, 'Struct encoding'), so a Thrift library
asked for field 32767 writes ``08 FE FF 03``. The text's ``FF FF 01`` is
ULEB128(32767) without zigzag (its ``AppendUleb(32767, &thrift)``), which a
compact reader decodes as field id -16384. Neither id is declared by any
struct, so both are skipped alike; this module writes the text's bytes and
recognises either id as an extension.
"""

from __future__ import annotations

from reference_impl.common.varint import encode_uleb128, zigzag_decode

__all__ = [
    "EXTENSION_FIELD_IDS",
    "TEST_EXTENSION",
    "TEXT_HEADER",
    "append_extension",
    "extension_field",
    "is_extension",
]

EXTENSION_FIELD_ID = 32767
BINARY_WIRE_TYPE = 8  # the compact protocol's type id of binary (and string)
TEXT_HEADER = bytes([BINARY_WIRE_TYPE]) + encode_uleb128(EXTENSION_FIELD_ID)  # 08 FF FF 01
TEXT_HEADER_FIELD_ID = zigzag_decode(EXTENSION_FIELD_ID)  # -16384: what a compact reader reads there
EXTENSION_FIELD_IDS = frozenset({EXTENSION_FIELD_ID, TEXT_HEADER_FIELD_ID})
STOP = b"\x00"

# The reference writer's extension: "implementers MUST put enough unique state in their
# extension bytes for disambiguation ... adding a UUID at the start or end". TEST ONLY.
TEST_EXTENSION_UUID = bytes.fromhex("9ec5ed0ac4ea4d64aee831095ed1f2c0")
TEST_EXTENSION = b"columnar-conformance test extension" + TEST_EXTENSION_UUID


def extension_field(extension: bytes) -> bytes:
    """The field the text appends before the stop field: its header, ULEB128 size, the bytes."""
    return TEXT_HEADER + encode_uleb128(len(extension)) + extension


def append_extension(serialized: bytes, extension: bytes) -> bytes:
    """``serialized`` (one compact-encoded struct, ending with its stop field) with ``extension``
    appended as the text's ``AppendExtension`` does; ValueError without a final stop field."""
    if not serialized.endswith(STOP):
        raise ValueError("a serialized struct ends with its stop field (0x00)")
    return serialized[: -len(STOP)] + extension_field(extension) + STOP


def is_extension(field_id: int, wire_type: int) -> bool:
    """Whether a skipped field is extension bytes: binary, with either spelling of 32767."""
    return wire_type == BINARY_WIRE_TYPE and field_id in EXTENSION_FIELD_IDS
