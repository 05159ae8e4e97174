"""Variable-length integers: unsigned LEB128 ("varint") and zigzag.

Used by both formats and by three of their texts, so it lives on the neutral floor:

* Thrift Compact Protocol (apache/thrift doc/specs/thrift-compact-protocol.md,
  'Integer encoding'): i16/i32/i64 are zigzag-mapped, then written as ULEB128;
  sizes and lengths are plain ULEB128 (Parquet's metadata).
* Encodings.md, 'Run Length Encoding / Bit-Packing Hybrid (RLE = 3)':
  "varint-encode() is ULEB-128 encoding"; and 'Delta Encoding
  (DELTA_BINARY_PACKED = 5)', which also uses zigzag.
* ORCv1.md, 'Base 128 Varint': protobuf's varint, which ORC's streams use too, of
  up to 128 bits (a DECIMAL(38)'s unscaled value).

Each reader names the width its value must fit (``bits``) and the error class of its
format, so a corrupt varint is that format's documented error, never an unbounded
integer.

ULEB128: the value is cut into 7-bit groups, least significant group first;
every byte except the last has its high bit (0x80) set.

Zigzag folds signed integers onto unsigned ones so that small magnitudes stay
small: 0 -> 0, -1 -> 1, 1 -> 2, -2 -> 3, ...
"""

from __future__ import annotations

from collections.abc import Callable
from mmap import mmap

__all__ = [
    "MAX_VARINT_BYTES_32",
    "MAX_VARINT_BYTES_64",
    "decode_uleb128",
    "encode_uleb128",
    "zigzag_decode",
    "zigzag_encode",
]

# Each byte carries 7 payload bits, so a 32-bit value needs at most
# ceil(32 / 7) = 5 bytes and a 64-bit value ceil(64 / 7) = 10 bytes.
PAYLOAD_BITS_PER_BYTE = 7
PAYLOAD_MASK = 0x7F
CONTINUATION_BIT = 0x80
MAX_VARINT_BYTES_32 = 5
MAX_VARINT_BYTES_64 = 10


def encode_uleb128(value: int) -> bytes:
    """Encode a non-negative integer as unsigned LEB128."""
    if value < 0:
        raise ValueError(f"ULEB128 encodes non-negative integers only, got {value}")
    out = bytearray()
    while True:
        group = value & PAYLOAD_MASK
        value >>= PAYLOAD_BITS_PER_BYTE
        if value == 0:
            out.append(group)
            return bytes(out)
        out.append(group | CONTINUATION_BIT)


def decode_uleb128(
    data: bytes | bytearray | memoryview | mmap,
    pos: int,
    end: int,
    *,
    bits: int,
    error: Callable[[str, int], Exception],
    what: str,
    base_offset: int = 0,
) -> tuple[int, int]:
    """Decode one ULEB128 value starting at ``data[pos]``, not reading at or past ``end``.

    ``bits`` is the width of the integer the varint must fit (32 or 64): a longer
    encoding, or a value that does not fit, raises ``error`` (so that a corrupt
    stream can never produce an unbounded integer). ``what`` names the value in the
    error message; ``base_offset`` is added to positions so errors carry file offsets.

    Returns ``(value, position after the varint)``.
    """
    max_bytes = (bits + PAYLOAD_BITS_PER_BYTE - 1) // PAYLOAD_BITS_PER_BYTE
    start = pos
    value = 0
    for index in range(max_bytes):
        if pos >= end:
            raise error(
                f"{what}: varint runs past the end of the data "
                f"({index} byte(s) read, continuation bit still set)",
                base_offset + start,
            )
        byte = data[pos]
        pos += 1
        value |= (byte & PAYLOAD_MASK) << (PAYLOAD_BITS_PER_BYTE * index)
        if not byte & CONTINUATION_BIT:
            if value >> bits:
                raise error(
                    f"{what}: varint value {value} does not fit in {bits} bits",
                    base_offset + start,
                )
            return value, pos
    raise error(
        f"{what}: varint longer than the {max_bytes} bytes a {bits}-bit value can need",
        base_offset + start,
    )


def zigzag_encode(value: int, bits: int | None = None) -> int:
    """Map a signed integer onto an unsigned one (0,-1,1,-2 -> 0,1,2,3); with ``bits``,
    the value must fit that signed width (without, any width: ORC's decimals)."""
    if bits is not None:
        low, high = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
        if not low <= value <= high:
            raise ValueError(f"{value} is outside the signed {bits}-bit range [{low}, {high}]")
    return value << 1 if value >= 0 else (-value << 1) - 1


def zigzag_decode(value: int) -> int:
    """Inverse of :func:`zigzag_encode` (the width is implied by the value)."""
    return (value >> 1) ^ -(value & 1)
