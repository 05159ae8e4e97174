"""RLE_DICTIONARY (= 8) and PLAIN_DICTIONARY (= 2): dictionary indices in a data page.

Encodings.md, "Dictionary Encoding
(PLAIN_DICTIONARY = 2 and RLE_DICTIONARY = 8)": "Data page format: the bit
width used to encode the entry ids stored as 1 byte (max bit width = 32),
followed by the values encoded using the RLE/Bit-Packing described above
(with the given bit width)." The spec's table says dictionary indices never have the
4-byte length prefix. The grammar::

    dictionary-indices := <bit width> <encoded-data>
    bit width          := 1 byte, at most 32
    encoded-data       := the RLE/bit-packing hybrid runs (:mod:`.rle_hybrid`)

The two enum values share this data page format; PLAIN_DICTIONARY is
deprecated ("use `RLE_DICTIONARY` in a data page and `PLAIN` in a dictionary
page for new Parquet files"). The dictionary page itself is PLAIN (:mod:`.plain`).

Every index must name a dictionary entry: an index at or beyond the dictionary
size is :class:`CorruptPage`, with the offset of the byte holding it (the
repeated value of an RLE run, or the byte where a bit-packed value starts).

A page with no values may have no bytes at all (Arrow reads such a page
without its bit-width byte); that is accepted.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from reference_impl.common.varint import decode_uleb128
from reference_impl.parquet.encodings._cursor import Cursor, errors_prefixed
from reference_impl.parquet.encodings.rle_hybrid import (
    BIT_PACKED_FLAG,
    VALUES_PER_GROUP,
    bit_width_for,
    decode_rle_hybrid,
    encode_rle_hybrid,
)
from reference_impl.parquet.errors import CorruptPage

__all__ = ["decode_dictionary_indices", "encode_dictionary_indices"]

ENCODING = "RLE_DICTIONARY"
MAX_INDEX_BIT_WIDTH = 32  # "max bit width = 32"
BITS_PER_BYTE = 8


def encode_dictionary_indices(indices: Sequence[int] | np.ndarray, *, bit_width: int | None = None) -> bytes:
    """The bit-width byte, then the hybrid runs.

    By default the bit width is the smallest that holds the largest index
    (Arrow and parquet-java size it from the dictionary instead; pass
    ``bit_width`` to do the same).
    """
    array = np.asarray(indices, dtype=np.int64)
    if len(array) and array.min() < 0:
        raise ValueError("dictionary indices must be non-negative")
    minimal = bit_width_for(array.max()) if len(array) else 0
    if bit_width is None:
        bit_width = minimal
    if not minimal <= bit_width <= MAX_INDEX_BIT_WIDTH:
        raise ValueError(f"bit width must be in [{minimal}, {MAX_INDEX_BIT_WIDTH}], got {bit_width}")
    return bytes([bit_width]) + encode_rle_hybrid(array, bit_width)


def decode_dictionary_indices(
    data: bytes | bytearray | memoryview,
    count: int,
    *,
    dictionary_size: int,
    start: int = 0,
    end: int | None = None,
    base_offset: int = 0,
) -> tuple[np.ndarray, int]:
    """Decode ``count`` indices, each below ``dictionary_size``, from ``data[start:end]``.

    Returns an unsigned numpy array and the position after the last run read.
    """
    cursor = Cursor(data, start, end, base_offset=base_offset, error=CorruptPage, encoding=ENCODING)
    cursor.check_count(count)
    if count == 0 and cursor.remaining() == 0:
        return np.zeros(0, dtype=np.uint8), start
    width_at = cursor.position
    bit_width = cursor.byte("the bit-width byte")
    if bit_width > MAX_INDEX_BIT_WIDTH:
        raise cursor.fail(f"bit width {bit_width}, the maximum is {MAX_INDEX_BIT_WIDTH}", width_at)
    runs_start = cursor.position
    with errors_prefixed(ENCODING):
        indices, position = decode_rle_hybrid(
            data,
            bit_width,
            count,
            start=runs_start,
            end=cursor.end,
            base_offset=base_offset,
            error=CorruptPage,
        )
    too_large = np.flatnonzero(indices >= dictionary_size)
    if len(too_large):
        index = int(too_large[0])
        raise cursor.fail(
            f"value {index} is dictionary index {indices[index]}, expected an index below the "
            f"dictionary size {dictionary_size}",
            _position_of_value(data, bit_width, index, runs_start),
        )
    return indices, position


def _position_of_value(data: bytes | bytearray | memoryview, bit_width: int, target: int, start: int) -> int:
    """The position of the byte holding value ``target`` of hybrid runs starting at
    ``start``. Only called after those runs decoded without error, so it walks
    headers that are known to be well formed."""
    first_value = 0  # the number of the first value of the run at `position`
    position = start
    while True:
        header, position = decode_uleb128(
            data, position, len(data), bits=32, error=CorruptPage, what="run header"
        )
        if header & BIT_PACKED_FLAG:
            groups = header >> 1
            if target < first_value + groups * VALUES_PER_GROUP:
                return position + (target - first_value) * bit_width // BITS_PER_BYTE
            position += groups * bit_width  # 8 values of bit_width bits: bit_width bytes
            first_value += groups * VALUES_PER_GROUP
        else:
            if target < first_value + (header >> 1):
                return position  # the run's repeated value
            position += -(-bit_width // BITS_PER_BYTE)
            first_value += header >> 1
