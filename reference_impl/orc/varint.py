"""Base 128 varints, unsigned and zigzag-signed (ORCv1.md, 'Base 128 Varint').

The same varint is protobuf's (the file tail's messages) and the one ORC streams use
for RLE v1 bases, decimals and dictionary-free integers, so it lives beside ``errors``,
below both ``metadata/`` and ``encodings/``. Values are unbounded Python ints: ORC
decimals are varints of up to 128 bits. Writing a varint and undoing zigzag are
Parquet's ULEB128 and zigzag (``reference_impl/parquet/varint.py``), whose own reading
is bounded to 32 or 64 bits.
"""

from __future__ import annotations

from reference_impl.orc.errors import CorruptStream
from reference_impl.parquet.varint import (
    CONTINUATION_BIT,
    PAYLOAD_BITS_PER_BYTE,
    PAYLOAD_MASK,
    encode_uleb128,
    zigzag_decode,
)

__all__ = ["read_svarint", "read_uvarint", "write_svarint", "write_uvarint", "zigzag_decode",
           "zigzag_encode"]

# A varint longer than this holds more than 128 bits: no ORC value is that wide (a
# DECIMAL(38) needs 127), so a longer run of continuation bytes is corrupt, not big.
MAX_VARINT_BYTES = 19


def read_uvarint(data: bytes | memoryview, pos: int, base_offset: int = 0,
                 error: type[Exception] = CorruptStream) -> tuple[int, int]:
    """The unsigned varint at ``data[pos:]`` and the position after it; ``base_offset`` is
    the file offset of ``data[0]``, for the error's offset."""
    value = shift = 0
    for index in range(pos, min(len(data), pos + MAX_VARINT_BYTES)):
        byte = data[index]
        value |= (byte & PAYLOAD_MASK) << shift
        if not byte & CONTINUATION_BIT:
            return value, index + 1
        shift += PAYLOAD_BITS_PER_BYTE
    if len(data) - pos < MAX_VARINT_BYTES:
        raise error("varint runs past the end of its data", base_offset + pos)
    raise error(f"varint longer than {MAX_VARINT_BYTES} bytes", base_offset + pos)


def zigzag_encode(value: int) -> int:
    """'Base 128 Varint': signed values are zigzag encoded, 0, -1, 1, -2 ... as 0, 1, 2, 3
    ..., of any width (Parquet's `zigzag_encode` is bounded to 32 or 64 bits)."""
    return value << 1 if value >= 0 else (-value << 1) - 1


def read_svarint(data: bytes | memoryview, pos: int, base_offset: int = 0,
                 error: type[Exception] = CorruptStream) -> tuple[int, int]:
    value, pos = read_uvarint(data, pos, base_offset, error)
    return zigzag_decode(value), pos


def write_uvarint(value: int) -> bytes:
    return encode_uleb128(value)


def write_svarint(value: int) -> bytes:
    return encode_uleb128(zigzag_encode(value))
