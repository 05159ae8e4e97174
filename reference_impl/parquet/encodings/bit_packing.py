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

Two readings of the stream. :func:`unpack_bits_by_bit` is the definition above
step by step: every bit of the stream is taken apart (``numpy.unpackbits``) and
value ``i`` is the sum of its bits times their weights. It is the test oracle
(tests/reference_impl/encodings/test_bit_unpacking.py checks, with Hypothesis,
that both readings agree bit for bit); it needs 8 bytes of memory per stream
bit. :func:`unpack_bits_at`, which the decoders use, reads each value straight
from the bytes that hold it: value ``i``, at stream bit ``k`` with width ``w``,
lies in bytes ``k // 8`` to ``(k + w - 1) // 8``; those bytes, read as one
little-endian integer and shifted right by ``k % 8``, hold it in their low ``w``
bits. It takes any bit position and width per value, so that
DELTA_BINARY_PACKED can unpack the miniblocks of a whole page, each of its own
width, in one call. :func:`unpack_bits`, for equal widths back to back (the hybrid's
bit-packed runs), reads the same way a group of 8 values at a time, every group at once,
from 64-bit words rather than from bytes.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = ["MAX_BIT_WIDTH", "pack_bits", "packed_size", "unpack_bits", "unpack_bits_at", "unpack_bits_by_bit"]

BITS_PER_BYTE = 8
# Wide enough for levels, dictionary indices (at most 32) and 64-bit deltas.
MAX_BIT_WIDTH = 64
VALUES_PER_GROUP = 8  # 8 values of w bits are w whole bytes
WORD_BITS = 64  # values are assembled in uint64
WORD_BYTES = WORD_BITS // BITS_PER_BYTE
ALL_ONES = np.uint64((1 << WORD_BITS) - 1)


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
    Works a group of 8 values (``bit_width`` whole bytes) at a time, every group at
    once: a group's bytes are read as little-endian 64-bit words, and value ``j``, at
    bit ``k = j * bit_width`` of its group, is word ``k // 64`` shifted right by
    ``k % 64``, with the low bits of the next word above it when it crosses into that.
    """
    needed = _checked_size(data, bit_width, count)
    if bit_width == 0 or count == 0:
        return np.zeros(count, dtype=np.uint64)
    groups = -(-count // VALUES_PER_GROUP)
    packed = np.zeros(groups * bit_width, dtype=np.uint8)  # the last group padded with zeros
    packed[:needed] = np.frombuffer(data, dtype=np.uint8, count=needed)
    # Row g: the bytes of values 8g to 8g + 7, then zero bytes up to a whole word and one
    # word more, which a value in the group's last word reads as its next.
    group_words = -(-bit_width // WORD_BYTES) + 1
    rows = np.zeros((groups, group_words * WORD_BYTES), dtype=np.uint8)
    rows[:, :bit_width] = packed.reshape(groups, bit_width)
    words = rows.view("<u8")
    first_bits = np.arange(VALUES_PER_GROUP) * bit_width  # of each value in its group
    word, shifts = first_bits // WORD_BITS, (first_bits % WORD_BITS).astype(np.uint64)
    values = words[:, word] >> shifts
    # The next word's low bits above the value's first ones, shifted in two steps since a
    # shift by 64 (a value starting on a word boundary) is undefined.
    values |= (words[:, word + 1] << np.uint64(1)) << (np.uint64(WORD_BITS - 1) - shifts)
    values &= ALL_ONES >> np.uint64(WORD_BITS - bit_width)
    return values.reshape(-1)[:count]


def unpack_bits_at(data: bytes | bytearray | memoryview, bit_positions: np.ndarray,
                   bit_widths: np.ndarray) -> np.ndarray:
    """Value ``i``: the ``bit_widths[i]`` bits at stream bit ``bit_positions[i]`` of ``data``.

    Every value must lie inside ``data`` (the callers check the bytes first).
    Returns uint64; a width of 0 gives 0.
    """
    if len(bit_positions) == 0:
        return np.zeros(0, dtype=np.uint64)
    widest = int(bit_widths.max())
    _check_width(widest)
    span = _span(BITS_PER_BYTE - 1, widest)  # the most bytes a value can touch
    # Only the bytes holding the values (``data`` may be a whole file), then zero bytes
    # so that every value can read `span` bytes.
    first_byte = bit_positions >> 3
    low = int(first_byte.min())
    high = -(-int((bit_positions + bit_widths).max()) // BITS_PER_BYTE)
    held = np.frombuffer(data, dtype=np.uint8, count=high - low, offset=low)
    padded = np.concatenate([held, np.zeros(span, dtype=np.uint8)])
    first_byte = first_byte - low
    shifts = (bit_positions & (BITS_PER_BYTE - 1)).astype(np.uint64)
    return _assemble(lambda k: padded[first_byte + k], shifts, span, bit_widths.astype(np.uint64))


def _span(shift: int, width: int) -> int:
    """The bytes a value of ``width`` bits starting at bit ``shift`` of its first byte touches."""
    return -(-(shift + width) // BITS_PER_BYTE)


def _assemble(
    byte: Callable[[int], np.ndarray], shifts: int | np.ndarray, span: int, widths: np.uint64 | np.ndarray
) -> np.ndarray:
    """Values from their bytes: ``byte(k)`` is byte ``k`` of each value's first bytes, a
    value starts at bit ``shifts`` of its byte 0, has ``widths`` bits and lies in its first
    ``span`` bytes."""
    word = np.zeros(len(byte(0)), dtype=np.uint64)
    for k in range(min(span, WORD_BYTES)):
        word |= byte(k).astype(np.uint64) << np.uint64(k * BITS_PER_BYTE)
    word >>= np.asarray(shifts, dtype=np.uint64)
    if span > WORD_BYTES:
        # A 64-bit value that starts at bit s > 0 ends in a ninth byte, whose low s bits are its
        # top bits; shifted in two steps, since a shift by 64 (s = 0) is undefined.
        ninth = byte(WORD_BYTES).astype(np.uint64) << np.uint64(1)
        word |= ninth << (np.uint64(WORD_BITS - 1) - np.asarray(shifts, dtype=np.uint64))
    masks = np.where(widths == 0, np.uint64(0), ALL_ONES >> (np.uint64(WORD_BITS) - np.maximum(widths, 1)))
    return word & masks


def unpack_bits_by_bit(data: bytes | memoryview, bit_width: int, count: int) -> np.ndarray:
    """:func:`unpack_bits` bit by bit, as the module docstring defines it: the test oracle."""
    needed = _checked_size(data, bit_width, count)
    if bit_width == 0 or count == 0:
        return np.zeros(count, dtype=np.uint64)
    packed = np.frombuffer(data, dtype=np.uint8, count=needed)
    bits = np.unpackbits(packed, count=count * bit_width, bitorder="little")
    rows = bits.reshape(count, bit_width).astype(np.uint64)  # row i: value i's bits, LSB first
    weights = np.left_shift(np.uint64(1), np.arange(bit_width, dtype=np.uint64))
    # Sum of bit * 2**j; the bits are disjoint so the sum cannot overflow 64 bits.
    return (rows * weights).sum(axis=1, dtype=np.uint64)


def _checked_size(data: bytes | memoryview, bit_width: int, count: int) -> int:
    """The bytes ``count`` values of ``bit_width`` take; ValueError if ``data`` is shorter."""
    _check_width(bit_width)
    needed = packed_size(count, bit_width)
    if len(data) < needed:
        raise ValueError(f"{count} values of {bit_width} bits need {needed} bytes, got {len(data)}")
    return needed


def _check_width(bit_width: int) -> None:
    if not 0 <= bit_width <= MAX_BIT_WIDTH:
        raise ValueError(f"bit width must be in [0, {MAX_BIT_WIDTH}], got {bit_width}")
