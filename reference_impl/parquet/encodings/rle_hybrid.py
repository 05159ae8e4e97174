"""The Run Length Encoding / Bit-Packing Hybrid (RLE = 3).

Encodings.md, 'Run Length Encoding /
Bit-Packing Hybrid (RLE = 3)'. The grammar, for a bit width known in advance::

    rle-bit-packed-hybrid: <length> <encoded-data>
    length := length of the <encoded-data> in bytes stored as 4 bytes little endian
    encoded-data := <run>*
    run := <bit-packed-run> | <rle-run>
    bit-packed-run := <bit-packed-header> <bit-packed-values>
    bit-packed-header := varint-encode(<bit-pack-scaled-run-len> << 1 | 1)
    bit-pack-scaled-run-len := (bit-packed-run-len) / 8
    rle-run := <rle-header> <repeated-value>
    rle-header := varint-encode( (rle-run-len) << 1)
    repeated-value := value that is repeated, using a fixed-width of
                      round-up-to-next-byte(bit-width)

Run lengths must be in [1, 2**31 - 1]. Whether the 4-byte ``<length>`` is
present depends on the use (the spec's table): it is for definition and
repetition levels in data page v1 (``*_length_prefixed``), it is not in data
page v2 nor for dictionary indices (plain ``encode``/``decode``).

The bit width for levels is the number of bits needed for the maximum level
(:func:`bit_width_for`).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

import numpy as np

from reference_impl.common.varint import decode_uleb128, encode_uleb128
from reference_impl.parquet.encodings.bit_packing import pack_bits, unpack_bits
from reference_impl.parquet.errors import InvalidLevelData, ParquetError

__all__ = [
    "bit_width_for",
    "decode_rle_hybrid",
    "decode_rle_hybrid_length_prefixed",
    "encode_rle_hybrid",
    "encode_rle_hybrid_length_prefixed",
]

LENGTH_PREFIX = struct.Struct("<I")  # 'length ... stored as 4 bytes little endian'
BIT_PACKED_FLAG = 1  # low bit of a run header: 1 = bit-packed run, 0 = RLE run
VALUES_PER_GROUP = 8  # "we always bit-pack a multiple of 8 values at a time"
MAX_RUN_LENGTH = (1 << 31) - 1  # runs are "in the range [1, 2**31 - 1]"
MAX_GROUPS_PER_RUN = MAX_RUN_LENGTH // VALUES_PER_GROUP
MAX_HYBRID_BIT_WIDTH = 32  # levels and dictionary indices both fit in 32 bits
VARINT_CONTINUES = 0x80  # a ULEB128 byte at or above this is followed by another
# A run of equal values shorter than this is cheaper inside a bit-packed run
# (at most bit_width bits per value) than as an RLE run (a header byte plus a
# whole-byte value); 8 is also the bit-packing group size, which keeps
# bit-packed runs aligned without padding in the middle of the data.
MIN_RLE_RUN = VALUES_PER_GROUP


def bit_width_for(max_value: int) -> int:
    """Bits needed to represent ``max_value`` (0 for a maximum of 0)."""
    return int(max_value).bit_length()


# ---------------------------------------------------------------------------
# Encoding
# ---------------------------------------------------------------------------


def encode_rle_hybrid(values: Sequence[int] | np.ndarray, bit_width: int) -> bytes:
    """Encode ``values`` (each in ``[0, 2**bit_width)``) as hybrid runs, no length prefix.

    Strategy: a run of at least ``MIN_RLE_RUN`` equal values becomes an RLE run;
    everything else is collected into bit-packed runs of whole groups of 8. The
    last bit-packed group is padded with zeros, which a reader never sees because
    it stops after the number of values it was told to expect.
    """
    values = _checked_values(values, bit_width)
    out = bytearray()
    pending: list[int] = []  # values waiting for a bit-packed run
    for value, length in _runs_of_equal_values(values):
        # Top up a partial group first, so bit-packed runs stay whole groups.
        partial = len(pending) % VALUES_PER_GROUP
        if partial:
            top_up = min(length, VALUES_PER_GROUP - partial)
            pending.extend([value] * top_up)
            length -= top_up
        if length >= MIN_RLE_RUN:
            out += _bit_packed_runs(pending, bit_width)
            pending = []
            out += _rle_runs(value, length, bit_width)
        else:
            pending.extend([value] * length)
    out += _bit_packed_runs(pending, bit_width)
    return bytes(out)


def encode_rle_hybrid_length_prefixed(values: Sequence[int] | np.ndarray, bit_width: int) -> bytes:
    """The data page v1 form: 4-byte little-endian length, then the runs."""
    encoded = encode_rle_hybrid(values, bit_width)
    return LENGTH_PREFIX.pack(len(encoded)) + encoded


def _checked_values(values: Sequence[int] | np.ndarray, bit_width: int) -> np.ndarray:
    if not 0 <= bit_width <= MAX_HYBRID_BIT_WIDTH:
        raise ValueError(f"bit width must be in [0, {MAX_HYBRID_BIT_WIDTH}], got {bit_width}")
    array = np.asarray(values, dtype=np.int64)
    if array.ndim != 1:
        raise ValueError("values must be one-dimensional")
    if len(array) and (array.min() < 0 or array.max() >= 1 << bit_width):
        raise ValueError(f"values must be in [0, {1 << bit_width}) for bit width {bit_width}")
    return array


def _runs_of_equal_values(values: np.ndarray) -> list[tuple[int, int]]:
    """``[(value, length), ...]`` for maximal runs of equal adjacent values."""
    if len(values) == 0:
        return []
    run_starts = np.concatenate(([0], np.flatnonzero(np.diff(values)) + 1))
    run_ends = np.concatenate((run_starts[1:], [len(values)]))
    return [(int(values[s]), int(e - s)) for s, e in zip(run_starts, run_ends, strict=True)]


def _rle_runs(value: int, length: int, bit_width: int) -> bytes:
    """One RLE run, split if it exceeds the maximum run length."""
    value_bytes = value.to_bytes(_repeated_value_width(bit_width), "little")
    out = bytearray()
    while length:
        run = min(length, MAX_RUN_LENGTH)
        out += encode_uleb128(run << 1)
        out += value_bytes
        length -= run
    return bytes(out)


def _bit_packed_runs(values: list[int], bit_width: int) -> bytes:
    """Bit-packed runs holding ``values``, zero-padded to a whole number of groups."""
    if not values:
        return b""
    padding = -len(values) % VALUES_PER_GROUP
    padded = np.array(values + [0] * padding, dtype=np.uint64)
    out = bytearray()
    for start in range(0, len(padded), MAX_GROUPS_PER_RUN * VALUES_PER_GROUP):
        chunk = padded[start : start + MAX_GROUPS_PER_RUN * VALUES_PER_GROUP]
        groups = len(chunk) // VALUES_PER_GROUP
        out += encode_uleb128(groups << 1 | BIT_PACKED_FLAG)
        out += pack_bits(chunk, bit_width)
    return bytes(out)


def _repeated_value_width(bit_width: int) -> int:
    """'round-up-to-next-byte(bit-width)', in bytes."""
    return -(-bit_width // 8)


# ---------------------------------------------------------------------------
# Decoding
# ---------------------------------------------------------------------------


def decode_rle_hybrid(
    data: bytes | bytearray | memoryview,
    bit_width: int,
    count: int,
    *,
    start: int = 0,
    end: int | None = None,
    base_offset: int = 0,
    error: type[ParquetError] = InvalidLevelData,
) -> tuple[np.ndarray, int]:
    """Decode exactly ``count`` values from runs in ``data[start:end]`` (no length prefix).

    Returns the values (an unsigned numpy array) and the position after the last
    run read. Extra values at the end of the last run (bit-packing padding, or an
    RLE run longer than needed) are ignored. Raises ``error`` if a run claims more
    bytes than remain, a run is empty, a repeated value does not fit the bit
    width, or the runs end before ``count`` values.

    The runs are read one after the other (each header says where the next one
    starts), and their values made at the end, all runs at once (:class:`_Runs`).
    """
    end = len(data) if end is None else end
    if not 0 <= bit_width <= MAX_HYBRID_BIT_WIDTH:
        raise error(f"RLE hybrid: bit width {bit_width} outside [0, {MAX_HYBRID_BIT_WIDTH}]")
    runs = _Runs()
    produced = 0
    position = start
    while produced < count:
        if position >= end:
            raise error(
                f"RLE hybrid: expected {count} values, the data ended after {produced}",
                base_offset + position,
            )
        header_at = position
        if data[position] < VARINT_CONTINUES:  # most headers are one byte: read it directly
            header, position = data[position], position + 1
        else:
            header, position = decode_uleb128(
                data,
                position,
                end,
                bits=32,
                error=error,
                what="RLE hybrid run header",
                base_offset=base_offset,
            )
        wanted = count - produced
        if header & BIT_PACKED_FLAG:
            take, position = _read_bit_packed_run(
                runs, header >> 1, bit_width, wanted, position, end, base_offset + header_at, error
            )
        else:
            take, position = _read_rle_run(
                data, runs, header >> 1, bit_width, wanted, position, end, base_offset + header_at, error
            )
        produced += take
    dtype = np.min_scalar_type((1 << bit_width) - 1)
    return runs.values(data, bit_width).astype(dtype, copy=False), position


class _Runs:
    """The runs read so far, in order: for each, whether it is bit-packed, where its values
    start (bit-packed) or its repeated value (RLE), and how many of its values are wanted."""

    def __init__(self) -> None:
        self.packed: list[bool] = []
        self.starts_or_values: list[int] = []
        self.counts: list[int] = []

    def add(self, packed: bool, start_or_value: int, count: int) -> None:
        self.packed.append(packed)
        self.starts_or_values.append(start_or_value)
        self.counts.append(count)

    def values(self, data: bytes | bytearray | memoryview, bit_width: int) -> np.ndarray:
        """Every wanted value: an RLE run's repeated, a bit-packed run's unpacked. Only the
        last run can be cut short (it ends the values asked for), so every other bit-packed
        run is whole groups of 8: their bytes joined are one bit-packed stream, whose values
        are the bit-packed runs' values in order, unpacked in one step (``unpack_bits``)."""
        if all(self.packed):  # only bit-packed runs: Arrow writes most pages of indices so
            return self._unpacked(data, bit_width)
        counts = np.array(self.counts, dtype=np.int64)
        packed = np.array(self.packed, dtype=bool)
        values = np.repeat(np.array(self.starts_or_values, dtype=np.uint64), counts)
        if packed.any():
            values[np.repeat(packed, counts)] = self._unpacked(data, bit_width)
        return values

    def _unpacked(self, data: bytes | bytearray | memoryview, bit_width: int) -> np.ndarray:
        """The values of every bit-packed run, back to back: each run's wanted groups of 8
        (``bit_width`` bytes each) cut from ``data`` and joined."""
        view = memoryview(data)
        runs = [(start, count) for packed, start, count
                in zip(self.packed, self.starts_or_values, self.counts, strict=True) if packed]
        joined = b"".join(
            view[start : start + -(-count // VALUES_PER_GROUP) * bit_width] for start, count in runs
        )
        return unpack_bits(joined, bit_width, sum(count for _, count in runs))


def _read_bit_packed_run(
    runs: _Runs,
    groups: int,
    bit_width: int,
    wanted: int,
    position: int,
    end: int,
    header_offset: int,
    error: type[ParquetError],
) -> tuple[int, int]:
    if groups == 0:
        raise error("RLE hybrid: bit-packed run of zero groups", header_offset)
    run_values = groups * VALUES_PER_GROUP
    run_bytes = groups * bit_width  # 8 values of bit_width bits = bit_width bytes per group
    if run_bytes > end - position:
        raise error(
            f"RLE hybrid: bit-packed run of {run_values} values needs {run_bytes} byte(s), "
            f"only {end - position} remain",
            header_offset,
        )
    take = min(run_values, wanted)
    runs.add(True, position, take)
    return take, position + run_bytes


def _read_rle_run(
    data: bytes | bytearray | memoryview,
    runs: _Runs,
    run_length: int,
    bit_width: int,
    wanted: int,
    position: int,
    end: int,
    header_offset: int,
    error: type[ParquetError],
) -> tuple[int, int]:
    if run_length == 0:
        raise error("RLE hybrid: RLE run of length zero", header_offset)
    width = _repeated_value_width(bit_width)
    if width > end - position:
        raise error(
            f"RLE hybrid: RLE run needs a {width}-byte value, only {end - position} remain",
            header_offset,
        )
    value = int.from_bytes(data[position : position + width], "little")
    if value >> bit_width:
        raise error(
            f"RLE hybrid: repeated value {value} does not fit in {bit_width} bit(s)",
            header_offset,
        )
    # Only the values still wanted are materialised: a run may legitimately be
    # longer than the values left, and its length is never trusted for allocation.
    take = min(run_length, wanted)
    runs.add(False, value, take)
    return take, position + width


def decode_rle_hybrid_length_prefixed(
    data: bytes | bytearray | memoryview,
    bit_width: int,
    count: int,
    *,
    start: int = 0,
    end: int | None = None,
    base_offset: int = 0,
    error: type[ParquetError] = InvalidLevelData,
) -> tuple[np.ndarray, int]:
    """The data page v1 form: read the 4-byte length, then decode within it.

    Returns the values and the position just after the length-delimited data.
    """
    end = len(data) if end is None else end
    if LENGTH_PREFIX.size > end - start:
        raise error(
            f"RLE hybrid: expected a 4-byte length prefix, "
            f"only {max(end - start, 0)} byte(s) remain",
            base_offset + start,
        )
    (length,) = LENGTH_PREFIX.unpack_from(data, start)
    body_start = start + LENGTH_PREFIX.size
    if length > end - body_start:
        raise error(
            f"RLE hybrid: length prefix claims {length} byte(s), only {end - body_start} remain",
            base_offset + start,
        )
    values, _ = decode_rle_hybrid(
        data,
        bit_width,
        count,
        start=body_start,
        end=body_start + length,
        base_offset=base_offset,
        error=error,
    )
    return values, body_start + length
