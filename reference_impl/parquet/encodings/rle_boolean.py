"""RLE (= 3) for BOOLEAN values in data pages.

Encodings.md, "Run Length Encoding /
Bit-Packing Hybrid (RLE = 3)": the RLE encoding is supported for "Boolean
values in data pages, as an alternative to PLAIN encoding", and the spec's
table says the four-byte length is prepended for boolean values in both data
page v1 and v2. The grammar::

    rle-boolean := <length> <encoded-data>
    length       := length of the <encoded-data> in bytes, 4 bytes little endian
    encoded-data := the RLE/bit-packing hybrid runs (:mod:`.rle_hybrid`), bit width 1

with 1 meaning true and 0 false (parquet.thrift, ``RLE``: "Booleans (on one
bit: 0 is false; 1 is true.)"). Malformed runs are :class:`CorruptPage`: these
are values, not levels.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from reference_impl.parquet.encodings._cursor import errors_prefixed
from reference_impl.parquet.encodings.rle_hybrid import (
    decode_rle_hybrid_length_prefixed,
    encode_rle_hybrid_length_prefixed,
)
from reference_impl.parquet.errors import CorruptPage

__all__ = ["decode_rle_boolean", "encode_rle_boolean"]

ENCODING = "RLE (BOOLEAN)"
BOOLEAN_BIT_WIDTH = 1


def encode_rle_boolean(values: Sequence[bool] | np.ndarray) -> bytes:
    """The 4-byte length, then the hybrid runs of the values as bits."""
    bits = np.asarray(values, dtype=bool).astype(np.uint8)
    return encode_rle_hybrid_length_prefixed(bits, BOOLEAN_BIT_WIDTH)


def decode_rle_boolean(
    data: bytes | bytearray | memoryview,
    count: int,
    *,
    start: int = 0,
    end: int | None = None,
    base_offset: int = 0,
) -> tuple[np.ndarray, int]:
    """Decode ``count`` booleans; returns a ``bool`` numpy array and the position
    just after the length-delimited runs."""
    if count < 0:
        raise CorruptPage(
            f"{ENCODING}: expected a non-negative value count, got {count}", base_offset + start
        )
    with errors_prefixed(ENCODING):
        bits, position = decode_rle_hybrid_length_prefixed(
            data, BOOLEAN_BIT_WIDTH, count, start=start, end=end, base_offset=base_offset, error=CorruptPage
        )
    return bits.astype(bool), position
