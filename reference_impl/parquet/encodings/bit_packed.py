"""BIT_PACKED (= 4, deprecated): levels bit packed back to back, most significant bit first.

Encodings.md, "Bit-packed (Deprecated)
(BIT_PACKED = 4)": "Each value is encoded back to back using a fixed width.
There is no padding between values (except for the last byte, which is padded
with 0s)." and "this implementation packs values from the most significant bit
to the least significant bit, which is not the same as the RLE/bit-packing
hybrid" (:mod:`.bit_packing` is the hybrid's LSB-first order). The grammar, for
``count`` values of ``bit_width`` bits::

    bit-packed := <value 0> <value 1> ... <value count-1> <zero bits up to a byte boundary>
    value i    := bit_width bits, most significant first

The spec's example: 0..7 at width 3 pack to ``00000101 00111001 01110111``.

"the BIT_PACKED encoding method is only supported for encoding repetition and
definition levels", so errors are :class:`InvalidLevelData`. There is no length
prefix: the size, ``ceil(count * bit_width / 8)`` bytes, follows from the count.

In numpy terms: row i of a ``count x bit_width`` bit matrix holds value i's bits
most significant first, and ``packbits(..., bitorder="big")`` of the flattened
matrix is the encoding.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from reference_impl.parquet.encodings._cursor import Cursor
from reference_impl.parquet.errors import InvalidLevelData

__all__ = ["decode_bit_packed", "encode_bit_packed"]

ENCODING = "BIT_PACKED"
BITS_PER_BYTE = 8
MAX_BIT_WIDTH = 32  # levels are 32-bit integers at most


def encode_bit_packed(values: Sequence[int] | np.ndarray, *, bit_width: int) -> bytes:
    """Pack ``values`` (each in ``[0, 2**bit_width)``) MSB first; the last byte is zero padded."""
    _check_bit_width(bit_width, ValueError)
    array = np.asarray(values, dtype=np.int64)
    if array.ndim != 1:
        raise ValueError("values must be one-dimensional")
    if len(array) and (array.min() < 0 or array.max() >> bit_width):
        raise ValueError(f"values must be in [0, {1 << bit_width}) for bit width {bit_width}")
    if bit_width == 0:
        return b""
    most_significant_first = np.arange(bit_width - 1, -1, -1, dtype=np.int64)
    bits = ((array[:, np.newaxis] >> most_significant_first) & 1).astype(np.uint8)
    return np.packbits(bits.ravel(), bitorder="big").tobytes()


def decode_bit_packed(
    data: bytes | bytearray | memoryview,
    count: int,
    *,
    bit_width: int,
    start: int = 0,
    end: int | None = None,
    base_offset: int = 0,
) -> tuple[np.ndarray, int]:
    """Decode ``count`` values of ``bit_width`` bits from ``data[start:end]``.

    Returns an unsigned numpy array and the position after the last (padded) byte.
    The padding bits are not checked.
    """
    cursor = Cursor(data, start, end, base_offset=base_offset, error=InvalidLevelData, encoding=ENCODING)
    cursor.check_count(count)
    _check_bit_width(bit_width, cursor.fail)
    size = -(-count * bit_width // BITS_PER_BYTE)  # whole bytes, the last one padded
    packed = np.frombuffer(cursor.take(size, f"{count} values of {bit_width} bit(s)"), dtype=np.uint8)
    bits = np.unpackbits(packed, count=count * bit_width, bitorder="big").reshape(count, bit_width)
    weights = np.left_shift(np.uint64(1), np.arange(bit_width - 1, -1, -1, dtype=np.uint64))
    values = (bits.astype(np.uint64) * weights).sum(axis=1, dtype=np.uint64)
    return values.astype(np.min_scalar_type((1 << bit_width) - 1)), cursor.position


def _check_bit_width(bit_width: int, error: Callable[[str], Exception]) -> None:
    if not 0 <= bit_width <= MAX_BIT_WIDTH:
        raise error(f"bit width must be in [0, {MAX_BIT_WIDTH}], got {bit_width}")
