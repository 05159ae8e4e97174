"""Bit packing in the order of the RLE/bit-packing hybrid (and of DELTA_BINARY_PACKED).

Encodings.md, 'Run Length Encoding / Bit-Packing Hybrid (RLE = 3)',
note 1: "The values are packed from the least significant bit of each byte to
the most significant bit, though the order of the bits in each value remains in
the usual order of most significant to least significant."

Equivalently: think of the output as one little-endian bit stream. Value ``i``
occupies stream bits ``[i * width, (i + 1) * width)``, its least significant bit
first, and stream bit ``k`` is bit ``k % 8`` of byte ``k // 8``. That is exactly
what ``numpy.packbits(..., bitorder="little")`` produces from a matrix whose row
``i`` holds the bits of value ``i``, least significant first, so both directions
are one reshape away from numpy.

The spec's example, 0..7 with width 3, packs to ``10001000 11000110 11111010``.
(The deprecated BIT_PACKED = 4 encoding packs most significant bit first and is
not handled here.)
"""

from __future__ import annotations

import numpy as np

__all__ = ["MAX_BIT_WIDTH", "pack_bits", "packed_size", "unpack_bits"]

BITS_PER_BYTE = 8
# Wide enough for levels, dictionary indices (at most 32) and 64-bit deltas.
MAX_BIT_WIDTH = 64


def packed_size(count: int, bit_width: int) -> int:
    """Bytes needed to pack ``count`` values of ``bit_width`` bits (rounded up)."""
    return -(-count * bit_width // BITS_PER_BYTE)


def pack_bits(values: np.ndarray, bit_width: int) -> bytes:
    """Pack non-negative integers (each below ``2**bit_width``) LSB first."""
    _check_width(bit_width)
    if bit_width == 0 or len(values) == 0:
        return b""
    values = np.asarray(values, dtype=np.uint64)
    shifts = np.arange(bit_width, dtype=np.uint64)
    # bits[i, j] is bit j (least significant first) of value i.
    bits = ((values[:, np.newaxis] >> shifts) & np.uint64(1)).astype(np.uint8)
    return np.packbits(bits.ravel(), bitorder="little").tobytes()


def unpack_bits(data: bytes | memoryview, bit_width: int, count: int) -> np.ndarray:
    """Unpack ``count`` values of ``bit_width`` bits; ``data`` must hold enough bytes.

    Returns an unsigned numpy array (uint64). The caller checks ``len(data)``
    against :func:`packed_size` first, so no length here comes from a file.
    """
    _check_width(bit_width)
    if bit_width == 0 or count == 0:
        return np.zeros(count, dtype=np.uint64)
    needed = packed_size(count, bit_width)
    if len(data) < needed:
        raise ValueError(f"{count} values of {bit_width} bits need {needed} bytes, got {len(data)}")
    packed = np.frombuffer(data, dtype=np.uint8, count=needed)
    bits = np.unpackbits(packed, count=count * bit_width, bitorder="little")
    rows = bits.reshape(count, bit_width).astype(np.uint64)  # row i: value i's bits, LSB first
    weights = np.left_shift(np.uint64(1), np.arange(bit_width, dtype=np.uint64))
    # Sum of bit * 2**j; the bits are disjoint so the sum cannot overflow 64 bits.
    return (rows * weights).sum(axis=1, dtype=np.uint64)


def _check_width(bit_width: int) -> None:
    if not 0 <= bit_width <= MAX_BIT_WIDTH:
        raise ValueError(f"bit width must be in [0, {MAX_BIT_WIDTH}], got {bit_width}")
