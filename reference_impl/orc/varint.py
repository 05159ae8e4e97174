"""Base 128 varints, unsigned and zigzag-signed (ORCv1.md, 'Base 128 Varint').

The same varint is protobuf's (the file tail's messages) and the one ORC streams use
for RLE v1 bases, decimals and dictionary-free integers, so it lives beside ``errors``,
below both ``metadata/`` and ``encodings/``. Values are Python ints of up to 128 bits:
ORC decimals are varints of that width. The varint itself is the neutral floor's
(``reference_impl/common/varint.py``); this module gives it ORC's width and error.
"""

from __future__ import annotations

from collections.abc import Callable

from reference_impl.common.varint import (
    CONTINUATION_BIT,
    decode_uleb128,
    encode_uleb128,
    zigzag_decode,
    zigzag_encode,
)
from reference_impl.orc.errors import CorruptStream

__all__ = ["read_svarint", "read_uvarint", "write_svarint", "write_uvarint", "zigzag_decode",
           "zigzag_encode"]

# The widest ORC varint: a DECIMAL(38)'s zigzagged unscaled value needs 128 bits, so a
# longer one is corrupt, not big.
VARINT_BITS = 128


def read_uvarint(data: bytes | memoryview, pos: int, base_offset: int = 0,
                 error: Callable[[str, int], Exception] = CorruptStream) -> tuple[int, int]:
    """The unsigned varint at ``data[pos:]`` and the position after it; ``base_offset`` is
    the file offset of ``data[0]``, for the error's offset."""
    if pos < len(data) and data[pos] < CONTINUATION_BIT:
        return data[pos], pos + 1  # a one-byte varint (small values, most lengths): nothing to check
    return decode_uleb128(data, pos, len(data), bits=VARINT_BITS, error=error, what="varint",
                          base_offset=base_offset)


def read_svarint(data: bytes | memoryview, pos: int, base_offset: int = 0,
                 error: Callable[[str, int], Exception] = CorruptStream) -> tuple[int, int]:
    value, pos = read_uvarint(data, pos, base_offset, error)
    return zigzag_decode(value), pos


def write_uvarint(value: int) -> bytes:
    return encode_uleb128(value)


def write_svarint(value: int) -> bytes:
    return encode_uleb128(zigzag_encode(value))
