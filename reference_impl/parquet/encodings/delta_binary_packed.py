"""DELTA_BINARY_PACKED (= 5): integers as deltas, bit packed per miniblock.

Encodings.md, "Delta Encoding
(DELTA_BINARY_PACKED = 5)". Supported types: INT32, INT64. The grammar::

    delta-binary-packed := <header> <block>*
    header := <block size in values> <number of miniblocks in a block>
              <total value count> <first value>
    block  := <min delta> <list of bitwidths of miniblocks> <miniblocks>

* block size: ULEB128, "a multiple of 128";
* miniblocks per block: ULEB128, "a divisor of the block size such that their
  quotient, the number of values in a miniblock, is a multiple of 32";
* total value count: ULEB128; first value: zigzag ULEB128;
* min delta: zigzag ULEB128; then one bit-width byte per miniblock;
* each miniblock: its values' ``delta - min delta``, bit packed at the
  miniblock's width. The spec does not name the bit order; parquet-java and
  Arrow use the hybrid's LSB-first order (:mod:`.bit_packing`), and so do we.

Decoding therefore is ``value[0] = first value`` and
``value[i] = value[i - 1] + min delta + relative delta[i]``, every addition
wrapping around at the type's width ("Overflow should be allowed and handled as
wrapping around in 2's complement notation"). Here all arithmetic is done on
unsigned numpy integers, where wrap-around is the native behaviour, and the
result is reinterpreted as signed at the end.

What a reader must accept (the spec's words):

* "If there are not enough values to fill the last miniblock, we pad the
  miniblock ... readers must accept paddings consisting of arbitrary bits";
* in the last block, the bit widths of unneeded miniblocks "should be zero,
  but readers must accept arbitrary values as well", and those miniblocks have
  no bytes at all.

What this reader refuses (:class:`CorruptPage`, with the offset of the field):
a block size or miniblock count that breaks the rules above, a miniblock bit
width wider than the type (a relative delta modulo ``2**bits`` never needs
more), a varint wider than its field, a header value count that differs from
the count the caller expects, and data that ends early (including a last
miniblock without its padding: the spec says its length is "always the number
of values in a full miniblock multiplied by the bit width").

The spec's worked examples use a block size of 8 "to keep the examples short,
but in real cases it would be invalid"; ``allow_example_sizes=True`` accepts
(and produces) such blocks, whose miniblocks still hold a multiple of 8 values
so that each one ends on a byte boundary.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from reference_impl.common.varint import encode_uleb128, zigzag_encode
from reference_impl.parquet.encodings._cursor import Cursor
from reference_impl.parquet.encodings.bit_packing import BITS_PER_BYTE, pack_bits, packed_size, unpack_bits_at
from reference_impl.parquet.errors import CorruptPage

__all__ = [
    "DEFAULT_BLOCK_SIZE",
    "DEFAULT_MINIBLOCKS_PER_BLOCK",
    "decode_delta_binary_packed",
    "encode_delta_binary_packed",
]

ENCODING = "DELTA_BINARY_PACKED"
TYPE_BITS = (32, 64)  # INT32 and INT64
BLOCK_SIZE_MULTIPLE = 128  # "the block size is a multiple of 128"
MINIBLOCK_SIZE_MULTIPLE = 32  # "the number of values in a miniblock, is a multiple of 32"
# The examples' relaxed rule: a miniblock of a multiple of 8 values is whole bytes at any width.
EXAMPLE_SIZE_MULTIPLE = 8
# The spec fixes only the rules above, not the values. parquet-java writes 128
# values per block in 4 miniblocks of 32 for both types; Arrow writes that for
# INT32 and 256 values in 4 miniblocks of 64 for INT64. Pass block_size=256 to
# reproduce Arrow's INT64 bytes exactly.
DEFAULT_BLOCK_SIZE = 128
DEFAULT_MINIBLOCKS_PER_BLOCK = 4
# The spec gives no width for the header's three unsigned fields; parquet-java and
# Arrow read them as 32-bit integers (a page holds at most 2**31 - 1 values anyway).
HEADER_FIELD_BITS = 32


@dataclass(frozen=True)
class Header:
    """The four header fields, in stream order."""

    block_size: int
    miniblocks_per_block: int
    total_value_count: int
    first_value: int

    @property
    def values_per_miniblock(self) -> int:
        return self.block_size // self.miniblocks_per_block


# ---------------------------------------------------------------------------
# Encoding
# ---------------------------------------------------------------------------


def encode_delta_binary_packed(
    values: Sequence[int] | np.ndarray,
    *,
    bits: int,
    block_size: int = DEFAULT_BLOCK_SIZE,
    miniblocks_per_block: int = DEFAULT_MINIBLOCKS_PER_BLOCK,
    allow_example_sizes: bool = False,
) -> bytes:
    """Encode signed ``bits``-bit integers (``bits`` is 32 for INT32, 64 for INT64).

    The steps are the spec's "To encode a block": deltas from the previous value
    (wrapping around), minus the block's minimum delta, bit packed per miniblock
    at the smallest width that holds the miniblock's largest value. Padding bits
    and the widths of unused miniblocks are zero, as the spec recommends.
    """
    _check_type_bits(bits, ValueError)
    problem = _size_problem(block_size, miniblocks_per_block, allow_example_sizes)
    if problem:
        raise ValueError(problem)
    unsigned = _as_unsigned(values, bits)
    first_value = _to_signed(unsigned[:1], bits).tolist()[0] if len(unsigned) else 0
    out = bytearray()
    out += encode_uleb128(block_size)
    out += encode_uleb128(miniblocks_per_block)
    out += encode_uleb128(len(unsigned))
    out += encode_uleb128(zigzag_encode(first_value, bits))
    # Step 1: value[i] - value[i - 1]; uint64 subtraction wraps modulo 2**64,
    # and masking reduces that to modulo 2**bits.
    deltas = np.diff(unsigned) & _mask(bits)
    for block_start in range(0, len(deltas), block_size):
        block = deltas[block_start : block_start + block_size]
        out += _encode_block(block, bits, block_size // miniblocks_per_block, miniblocks_per_block)
    return bytes(out)


def _encode_block(
    deltas: np.ndarray, bits: int, values_per_miniblock: int, miniblocks_per_block: int
) -> bytes:
    """One block: min delta, the miniblocks' bit widths, the miniblocks."""
    # Step 2: the frame of reference is the smallest delta as a *signed* number.
    min_delta = int(_to_signed(deltas, bits).min())
    relative = (deltas - np.uint64(min_delta & int(_mask(bits)))) & _mask(bits)
    widths = bytearray()
    bodies = bytearray()
    for index in range(miniblocks_per_block):
        miniblock = relative[index * values_per_miniblock : (index + 1) * values_per_miniblock]
        if len(miniblock) == 0:
            widths.append(0)  # an unneeded miniblock of the last block: width 0, no bytes
            continue
        width = int(miniblock.max()).bit_length()
        padded = np.zeros(values_per_miniblock, dtype=np.uint64)  # zero padding bits
        padded[: len(miniblock)] = miniblock
        widths.append(width)
        bodies += pack_bits(padded, width)
    # Step 3.
    return encode_uleb128(zigzag_encode(min_delta, bits)) + bytes(widths) + bytes(bodies)


def _as_unsigned(values: Sequence[int] | np.ndarray, bits: int) -> np.ndarray:
    """The values as uint64 holding their two's complement modulo ``2**bits``."""
    if isinstance(values, np.ndarray) and values.dtype.kind == "u":
        values = values.tolist()  # so that a uint64 above INT64_MAX is refused, not wrapped
    try:
        signed = np.asarray(values, dtype=np.int64)
    except OverflowError:
        raise ValueError(f"values must be signed {bits}-bit integers") from None
    if signed.ndim != 1:
        raise ValueError("values must be one-dimensional")
    low, high = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    if len(signed) and (signed.min() < low or signed.max() > high):
        raise ValueError(f"values must be in the signed {bits}-bit range [{low}, {high}]")
    return signed.view(np.uint64) & _mask(bits)


# ---------------------------------------------------------------------------
# Decoding
# ---------------------------------------------------------------------------


def decode_delta_binary_packed(
    data: bytes | bytearray | memoryview,
    count: int,
    *,
    bits: int,
    start: int = 0,
    end: int | None = None,
    base_offset: int = 0,
    allow_example_sizes: bool = False,
) -> tuple[np.ndarray, int]:
    """Decode ``count`` signed ``bits``-bit integers from ``data[start:end]``.

    Returns an ``int32`` or ``int64`` numpy array and the position just after the
    last miniblock read (the end of the encoded data; DELTA_LENGTH_BYTE_ARRAY's
    bytes start there).
    """
    _check_type_bits(bits, ValueError)
    cursor = Cursor(data, start, end, base_offset=base_offset, error=CorruptPage, encoding=ENCODING)
    cursor.check_count(count)
    header = _read_header(cursor, bits, allow_example_sizes)
    if header.total_value_count != count:
        raise cursor.fail(
            f"the header's total value count is {header.total_value_count}, expected {count}", start
        )
    # The first value stands alone; every further value needs one delta. The blocks
    # are read in turn (their headers and sizes are checked as they come), their
    # miniblocks unpacked all at once afterwards.
    plan = _Miniblocks(header.values_per_miniblock)
    missing = max(count - 1, 0)
    while missing:  # each block yields at least one delta, so this ends
        missing -= _read_block(cursor, header, bits, min(missing, header.block_size), plan)
    return _accumulate(header.first_value, plan.deltas(data, bits), bits, count), cursor.position


def _read_header(cursor: Cursor, bits: int, allow_example_sizes: bool) -> Header:
    at = cursor.position
    block_size = cursor.uleb128(HEADER_FIELD_BITS, "block size")
    miniblocks_per_block = cursor.uleb128(HEADER_FIELD_BITS, "number of miniblocks in a block")
    problem = _size_problem(block_size, miniblocks_per_block, allow_example_sizes)
    if problem:
        raise cursor.fail(problem, at)
    total_value_count = cursor.uleb128(HEADER_FIELD_BITS, "total value count")
    first_value = cursor.zigzag(bits, "first value")
    return Header(block_size, miniblocks_per_block, total_value_count, first_value)


class _Miniblocks:
    """The blocks read so far: for each, where its first miniblock starts in ``data``, the
    bit widths of the miniblocks holding wanted values, how many values it holds that are
    wanted, and its min delta (modulo ``2**bits``). Every miniblock holds ``per_miniblock``."""

    def __init__(self, per_miniblock: int) -> None:
        self.per_miniblock = per_miniblock
        self.starts: list[int] = []
        self.widths: list[bytes] = []
        self.counts: list[int] = []
        self.min_deltas: list[int] = []

    def add(self, start: int, widths: bytes, count: int, min_delta: int) -> None:
        self.starts.append(start)
        self.widths.append(widths)
        self.counts.append(count)
        self.min_deltas.append(min_delta)

    def deltas(self, data: bytes | bytearray | memoryview, bits: int) -> np.ndarray:
        """Every delta (uint64, modulo ``2**bits``): min delta + the miniblock's relative delta.
        Value ``j`` of a miniblock at byte ``s`` of width ``w`` is at stream bit ``8 s + j w``;
        a block's miniblocks follow one another, ``per_miniblock * w / 8`` bytes each."""
        if not self.counts:
            return np.zeros(0, dtype=np.uint64)
        per_miniblock = self.per_miniblock
        block_counts = np.array(self.counts, dtype=np.int64)
        miniblocks = np.array([len(widths) for widths in self.widths], dtype=np.int64)
        first_miniblock = np.cumsum(miniblocks) - miniblocks  # each block's, among all miniblocks
        widths = np.frombuffer(b"".join(self.widths), dtype=np.uint8).astype(np.int64)
        sizes = widths * (per_miniblock // BITS_PER_BYTE)
        before = np.cumsum(sizes) - sizes  # bytes of all miniblocks before each
        block_starts = np.array(self.starts, dtype=np.int64)
        starts = np.repeat(block_starts - before[first_miniblock], miniblocks) + before
        # Full miniblocks but the last of each block, which holds the block's remaining values.
        counts = np.full(len(widths), per_miniblock, dtype=np.int64)
        last = first_miniblock + miniblocks - 1
        counts[last] = block_counts - (miniblocks - 1) * per_miniblock
        value_widths = np.repeat(widths, counts)
        index_in_miniblock = np.arange(len(value_widths), dtype=np.int64) - np.repeat(
            np.cumsum(counts) - counts, counts)
        bit_positions = np.repeat(starts * BITS_PER_BYTE, counts) + index_in_miniblock * value_widths
        relative = unpack_bits_at(data, bit_positions, value_widths)
        min_deltas = np.array(self.min_deltas, dtype=np.uint64)
        return (relative + np.repeat(min_deltas, block_counts)) & _mask(bits)


def _read_block(cursor: Cursor, header: Header, bits: int, wanted: int, plan: _Miniblocks) -> int:
    """Read one block, add its miniblocks holding the first ``wanted`` deltas to ``plan``;
    return ``wanted``."""
    min_delta = cursor.zigzag(bits, "block min delta") & int(_mask(bits))
    widths_at = cursor.position
    widths = cursor.take(header.miniblocks_per_block, "the bit widths of the block's miniblocks")
    per_miniblock = header.values_per_miniblock
    # Only the miniblocks holding wanted values are present; the rest of a last
    # block has widths (arbitrary, never checked) but no bytes.
    used = bytes(widths[: -(-wanted // per_miniblock)])
    if max(used) > bits:
        index = next(index for index, width in enumerate(used) if width > bits)
        raise cursor.fail(
            f"miniblock {index} has bit width {used[index]}, at most {bits} fit a {bits}-bit delta",
            widths_at + index,
        )
    # A miniblock always has the bytes of a full miniblock (the padding included).
    start = cursor.position
    if packed_size(per_miniblock, sum(used)) > cursor.remaining():
        for index, width in enumerate(used):  # the first miniblock cut short is the error
            what = f"miniblock {index} ({per_miniblock} values of {width} bits)"
            cursor.take(packed_size(per_miniblock, width), what)
    cursor.take(packed_size(per_miniblock, sum(used)), "the block's miniblocks")
    plan.add(start, used, wanted, min_delta)  # padding values are never unpacked
    return wanted


def _accumulate(first_value: int, deltas: np.ndarray, bits: int, count: int) -> np.ndarray:
    """value[i] = first value + delta[1] + ... + delta[i], modulo ``2**bits``, as signed."""
    if count == 0:
        return np.zeros(0, dtype=_signed_dtype(bits))
    first = np.array([first_value & int(_mask(bits))], dtype=np.uint64)
    # An unsigned running sum wraps around exactly as the spec asks.
    unsigned = np.cumsum(np.concatenate([first, deltas]), dtype=np.uint64) & _mask(bits)
    return _to_signed(unsigned, bits)


# ---------------------------------------------------------------------------
# Shared rules
# ---------------------------------------------------------------------------


def _size_problem(block_size: int, miniblocks_per_block: int, allow_example_sizes: bool) -> str | None:
    """What is wrong with a block size / miniblock count pair, or ``None``."""
    block_multiple = EXAMPLE_SIZE_MULTIPLE if allow_example_sizes else BLOCK_SIZE_MULTIPLE
    miniblock_multiple = EXAMPLE_SIZE_MULTIPLE if allow_example_sizes else MINIBLOCK_SIZE_MULTIPLE
    if block_size <= 0 or block_size % block_multiple:
        return f"block size must be a positive multiple of {block_multiple}, got {block_size}"
    if miniblocks_per_block <= 0 or block_size % miniblocks_per_block:
        return (
            f"the number of miniblocks in a block must divide the block size {block_size}, "
            f"got {miniblocks_per_block}"
        )
    per_miniblock = block_size // miniblocks_per_block
    if per_miniblock % miniblock_multiple:
        return (
            f"values per miniblock must be a multiple of {miniblock_multiple}, got {per_miniblock} "
            f"({block_size} / {miniblocks_per_block})"
        )
    return None


def _check_type_bits(bits: int, error: type[Exception]) -> None:
    if bits not in TYPE_BITS:
        raise error(f"{ENCODING} is defined for 32- and 64-bit integers, not {bits}-bit")


def _mask(bits: int) -> np.uint64:
    return np.uint64((1 << bits) - 1)


def _signed_dtype(bits: int) -> np.dtype:
    return np.dtype(np.int32) if bits == 32 else np.dtype(np.int64)


def _to_signed(unsigned: np.ndarray, bits: int) -> np.ndarray:
    """Reinterpret uint64 values below ``2**bits`` as signed ``bits``-bit integers."""
    if bits == 32:
        return unsigned.astype(np.uint32).view(np.int32)
    return unsigned.view(np.int64)
