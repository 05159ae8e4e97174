"""The fixed bit widths of RLE v2 and its big-endian bit packing.

ORCv1.md, 'Integer Run Length Encoding, version 2', 'Direct': "The 5 bit width encoding
table for RLEv2" maps a 5-bit code to a width in bits: codes 0..23 are 1..24 bits (code 0
is 0 bits in a Delta header), then 26, 28, 30, 32, 40, 48, 56 and 64. Writers only use the
widths of that table, rounding a value's bit length up to the next one (the "closest fixed
bits"); the table marks some widths deprecated, but ORC's writers still emit them unless
told to align widths to bytes.

They are, by default: ORC's C++ writer always, and the Java writer under its default
"speed" encoding strategy, write Direct and Delta values at an aligned width (1, 2, 4, or
a whole number of bytes), the non-deprecated rows of the table; Patched Base keeps the
exact width, since its patches go right above the packed bits. The spec's Direct and
Delta examples are written that way.

Values are packed "W * L bits (padded to the next byte) encoded in big endian format":
the first value's most significant bit is the first byte's most significant bit.

Two readers of the packing: :func:`unpack` takes the values one by one off a big integer,
the specification's steps; it is the test oracle (tests/reference_impl/orc/encodings/
test_array_decoding.py checks bit for bit that both agree). :func:`unpack_array` is what
the readers use: numpy spreads the bytes into bits, cuts them ``width`` at a time and
packs each value into a big-endian 64-bit word.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from reference_impl.orc.errors import CorruptRle

BITS_PER_BYTE = 8
WIDTH_CODE_BITS = 5
# Codes 0..23 stand for 1..24 bits; the codes from 24 on for these wider widths.
SMALL_WIDTH_CODES = 24
WIDE_WIDTHS = (26, 28, 30, 32, 40, 48, 56, 64)
FIXED_WIDTHS = tuple(range(1, SMALL_WIDTH_CODES + 1)) + WIDE_WIDTHS
MAX_WIDTH = FIXED_WIDTHS[-1]
ALIGNED_WIDTHS = (1, 2, 4) + tuple(range(BITS_PER_BYTE, MAX_WIDTH + 1, BITS_PER_BYTE))
DELTA_ZERO_WIDTH_CODE = 0  # in a Delta header, code 0 means "no delta bits at all"


def decode_width(code: int, *, delta: bool = False) -> int:
    """The width in bits of a 5-bit width code (a Delta header reads code 0 as 0 bits)."""
    if delta and code == DELTA_ZERO_WIDTH_CODE:
        return 0
    return FIXED_WIDTHS[code]


def encode_width(width: int) -> int:
    """The 5-bit code of a width from the table (ValueError for a width outside it)."""
    try:
        return FIXED_WIDTHS.index(width)
    except ValueError:
        raise ValueError(f"{width} bits is not a width of the RLE v2 width table") from None


def closest_fixed_width(bits: int) -> int:
    """The narrowest width of the table holding ``bits`` bits (0 bits take 1)."""
    return _narrowest(FIXED_WIDTHS, bits)


def closest_aligned_width(bits: int) -> int:
    """The narrowest aligned width holding ``bits`` bits (0 bits take 1)."""
    return _narrowest(ALIGNED_WIDTHS, bits)


def _narrowest(widths: tuple[int, ...], bits: int) -> int:
    for width in widths:
        if width >= bits:
            return width
    raise ValueError(f"{bits} bits is wider than {MAX_WIDTH}")


def value_width(value: int) -> int:
    """The table width an unsigned ``value`` needs ("findClosestNumBits" in ORC's writers)."""
    return closest_fixed_width(value.bit_length())


def packed_size(width: int, count: int) -> int:
    """Bytes taken by ``count`` values of ``width`` bits, padded to the byte."""
    return -(-width * count // BITS_PER_BYTE)


def pack(values: Sequence[int], width: int) -> bytes:
    """``values`` (each below ``2**width``) packed big endian, the last byte zero padded."""
    packed = 0
    for value in values:
        packed = (packed << width) | value
    size = packed_size(width, len(values))
    padding = size * BITS_PER_BYTE - width * len(values)
    return (packed << padding).to_bytes(size, "big")


def _checked_end(data: bytes | memoryview, pos: int, width: int, count: int, base_offset: int,
                 what: str) -> int:
    """The end of ``count`` values of ``width`` bits from ``pos``; CorruptRle (at the packed
    bytes' offset) if the data ends first."""
    end = pos + packed_size(width, count)
    if end > len(data):
        raise CorruptRle(f"{count} {what} of {width} bits need {end - pos} bytes, "
                         f"{len(data) - pos} remain", base_offset + pos)
    return end


def unpack(data: bytes | memoryview, pos: int, width: int, count: int, *,
           base_offset: int = 0, what: str = "values") -> tuple[list[int], int]:
    """``count`` values of ``width`` bits packed at ``data[pos:]``, and the position after
    their padding byte. CorruptRle (at the packed bytes' offset) if the data ends first."""
    end = _checked_end(data, pos, width, count, base_offset, what)
    if width == 0:
        return [0] * count, end
    packed = int.from_bytes(data[pos:end], "big")
    shift = (end - pos) * BITS_PER_BYTE
    mask = (1 << width) - 1
    values = []
    for _ in range(count):
        shift -= width
        values.append((packed >> shift) & mask)
    return values, end


WORD_BITS = 64
WORD_BYTES = WORD_BITS // BITS_PER_BYTE
# The byte widths numpy reads as one big-endian integer each, and their dtypes (made once:
# numpy parses a dtype's name on every call given one)
NATIVE_WORD_DTYPES = {size: np.dtype(f">u{size}") for size in (1, 2, 4, 8)}
# A value of at most this many bits lies within the 8 bytes from its first byte, however
# many bits of that byte precede it.
GATHERED_WIDTH = WORD_BITS - BITS_PER_BYTE + 1


def unpack_array(data: bytes | memoryview, pos: int, width: int, count: int, *,
                 base_offset: int = 0, what: str = "values") -> tuple[np.ndarray, int]:
    """:func:`unpack` as a numpy array of uint64, with the same errors.

    A width of whole native bytes is read as big-endian integers; another width up to
    GATHERED_WIDTH (every other width of the table) by taking the 8 bytes from each
    value's first byte as one big-endian word, shifting out the bits before the value,
    then the bits after it."""
    end = _checked_end(data, pos, width, count, base_offset, what)
    if width == 0 or count == 0:
        return np.zeros(count, dtype=np.uint64), end
    if width % BITS_PER_BYTE == 0 and width // BITS_PER_BYTE in NATIVE_WORD_DTYPES:
        packed = np.frombuffer(data, dtype=NATIVE_WORD_DTYPES[width // BITS_PER_BYTE], count=count,
                               offset=pos)
        return packed.astype(np.uint64), end
    if width > GATHERED_WIDTH:  # no such width in the table
        return np.array(unpack(data, pos, width, count)[0], dtype=np.uint64), end
    first_bytes, skipped_bits, windows_needed = _gather_plan(width, count)
    source, start = data, pos
    if pos + windows_needed + WORD_BYTES - 1 > len(data):  # the last windows pass the data's end
        source, start = bytes(data[pos:end]) + bytes(WORD_BYTES), 0
    # every byte's 8-byte window as one big-endian word: a view with a stride of one byte
    windows = np.ndarray((windows_needed,), dtype=">u8", buffer=source, offset=start, strides=(1,))
    return (windows[first_bytes] << skipped_bits) >> np.uint64(WORD_BITS - width), end


@lru_cache(maxsize=len(FIXED_WIDTHS) * 4)
def _gather_plan(width: int, count: int) -> tuple[np.ndarray, np.ndarray, int]:
    """For ``count`` values of ``width`` bits: each one's first byte, the bits before it in
    that byte, and the windows those bytes need. The same for every run of that width
    and length (most runs have 512 values), so made once; read-only, as they are shared."""
    first_bits = np.arange(count, dtype=np.uint64) * np.uint64(width)
    first_bytes = (first_bits // np.uint64(BITS_PER_BYTE)).astype(np.intp)
    skipped_bits = first_bits % np.uint64(BITS_PER_BYTE)
    first_bytes.flags.writeable = skipped_bits.flags.writeable = False
    return first_bytes, skipped_bits, int(first_bytes[-1]) + 1
