"""Integer Run Length Encoding, version 2: reading (ORCv1.md, 'Integer Run Length Encoding, version 2').

Every run starts with a header whose first two bits name its sub-encoding:

* 'Short Repeat' (0): one byte, then one value of 1..8 bytes repeated 3..10 times;
* 'Direct' (1): two bytes, then 1..512 values bit packed at one width;
* 'Patched Base' (2): four bytes, a base value, 1..512 bit packed values added to the
  base, then a patch list that supplies the high bits of the few values too wide for the
  packed width;
* 'Delta' (3): two bytes, a base varint, a first delta varint, then 1..512 values in all,
  further deltas bit packed (their magnitudes: the first delta's sign gives the direction,
  so only monotonic sequences can be written), or no packed deltas at all (width 0)
  when every delta equals the first.

Values are zigzag encoded in signed streams (Short Repeat, Direct, the Delta base),
except in Patched Base, whose base carries its own sign bit. The writer is in
``int_rle_v2_writer``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import cast

import numpy as np

from reference_impl.orc.encodings.bit_packing import (
    BITS_PER_BYTE,
    DELTA_ZERO_WIDTH_CODE,
    MAX_WIDTH,
    closest_aligned_width,
    closest_fixed_width,
    decode_width,
    encode_width,
    pack,
    unpack,
    unpack_array,
    value_width,
)
from reference_impl.orc.encodings.run_reader import (
    INT64_MAX,
    INT64_MIN,
    RunReader,
    check_encodable,
    int64_bounds,
    int_dtype,
)
from reference_impl.orc.errors import CorruptRle
from reference_impl.orc.streams.stream_window import StreamData
from reference_impl.orc.varint import (
    read_svarint,
    read_uvarint,
    write_svarint,
    write_uvarint,
    zigzag_decode,
    zigzag_encode,
)

__all__ = ["IntRleV2Reader", "SubEncoding", "decode_ints_v2", "encode_ints_v2", "sub_encodings",
           "zigzag_decoded_words"]


class SubEncoding(IntEnum):
    """The two high bits of a run's first byte."""

    SHORT_REPEAT = 0
    DIRECT = 1
    PATCHED_BASE = 2
    DELTA = 3


# The header fields, from the most significant bit of the first byte on.
ENCODING_SHIFT = 6  # 2 bits of sub-encoding
WIDTH_SHIFT = 1  # then 5 bits of width code (Direct, Patched Base, Delta)
WIDTH_CODE_MASK = 0x1F
LENGTH_HIGH_BIT = 0x01  # then 9 bits of length - 1: this bit and the whole second byte
LENGTH_HIGH_SHIFT = 8
BYTE_MASK = 0xFF
MAX_RUN = 512
SHORT_REPEAT_WIDTH_SHIFT = 3  # Short Repeat: 3 bits of value bytes - 1, 3 bits of count - 3
SHORT_REPEAT_FIELD_MASK = 0x07
MIN_REPEAT = 3
MAX_REPEAT = 10
MAX_VALUE_BYTES = 8  # Short Repeat: a value of 1 to 8 bytes
# Scanning consecutive Short Repeat runs (_short_repeat_chain): the bytes scanned at once,
# the runs taken in one loop turn (2^JUMP_LEVELS), and a count no read wants. The bytes
# scanned start small and double while the chain runs to their end, so that a lone Short
# Repeat run among runs of other kinds costs a scan of its own size, not of SCAN_BYTES.
SCAN_BYTES = 1 << 16  # its tables hold some 8-byte numbers per byte: a few MB
FIRST_SCAN_BYTES = 1 << 8
JUMP_LEVELS = 4
JUMP_RUNS = 1 << JUMP_LEVELS
NO_RUN = 1 << 40
PATCH_FIELD_SHIFT = 5  # Patched Base bytes 3 and 4: 3 bits, then 5 bits
PATCH_LIST_LENGTH_MASK = 0x1F
SHORT_REPEAT_HEADER = 1
TWO_BYTE_HEADER = 2
PATCHED_BASE_HEADER = 4
WORD = 1 << 64  # the arrays hold values as 64-bit words, whose arithmetic is modulo this
# A run's at most MAX_RUN (2^9) deltas of at most this many bits sum below 2^63: the
# sum of such a run is exact in uint64 words.
EXACT_SUM_WIDTH = 54


class IntRleV2Reader(RunReader):
    """The runs of an RLE v2 stream, each decoded into an array.

    With ``stepwise``, a run's values are built one by one as the text describes them,
    in Python ints (:func:`bit_packing.unpack`, the running sum of the deltas, each patch
    or-ed in): the test oracle, which tests/reference_impl/orc/encodings/
    test_array_decoding.py holds the array form to, bit for bit. Otherwise they are built
    with numpy, in 64-bit words whose arithmetic wraps; so a run is first shown to stay in
    the 64-bit range (its extremes are computed in Python ints), and a run that does not
    is decoded stepwise, which raises the error the stepwise reader raises.
    """

    def __init__(self, data: StreamData, *, base_offset: int = 0, start: int = 0,
                 signed: bool, stepwise: bool = False) -> None:
        self.dtype = int_dtype(signed)
        super().__init__(data, base_offset=base_offset, start=start)
        self._signed = signed
        self._bounds = int64_bounds(signed)
        self._stepwise = stepwise
        self._scan_bytes = FIRST_SCAN_BYTES

    @property
    def buffered(self) -> int:
        """Values of the run decoded last not yet read or skipped."""
        return len(self._run) - self._used

    def _decode_run(self) -> np.ndarray:
        run_start = self._pos
        decode = _DECODERS[self._byte(run_start, "a run header") >> ENCODING_SHIFT]
        if not self._stepwise:
            words = decode(self, run_start, False)
            if words is not None:
                return cast(np.ndarray, words)
            self._pos = run_start  # a run the words may not hold: decoded stepwise
        values = decode(self, run_start, True)
        return values if isinstance(values, np.ndarray) else self._checked(cast(list[int], values),
                                                                            self._signed, run_start)

    def _header(self, run_start: int, size: int, name: str) -> bytes:
        if run_start + size > len(self._data):
            raise CorruptRle(f"the stream ends inside a {size}-byte {name} header",
                             self._offset(run_start))
        return bytes(self._data[run_start:run_start + size])

    def _short_repeat(self, run_start: int, stepwise: bool) -> np.ndarray:
        (first,) = self._header(run_start, SHORT_REPEAT_HEADER, "Short Repeat")
        size = (first >> SHORT_REPEAT_WIDTH_SHIFT & SHORT_REPEAT_FIELD_MASK) + 1
        count = (first & SHORT_REPEAT_FIELD_MASK) + MIN_REPEAT
        value_start = run_start + SHORT_REPEAT_HEADER
        if value_start + size > len(self._data):
            raise CorruptRle(f"the stream ends inside a {size}-byte Short Repeat value",
                             self._offset(value_start))
        value = int.from_bytes(self._data[value_start:value_start + size], "big")
        self._pos = value_start + size
        return np.full(count, self._unzigzag(value), dtype=self.dtype)  # 8 bytes at most: a word

    def _whole_runs(self, wanted: int) -> np.ndarray | None:
        """Consecutive Short Repeat runs, all of whose values are wanted, at once (at most
        SCAN_BYTES of them; ``read`` asks again for more): a run of a few values costs no
        loop turn of its own (``_short_repeat_chain``) and no arrays of its own."""
        if self._stepwise or not self._at_short_repeat():
            return None
        start = self._pos
        starts, self._pos = _short_repeat_chain(self._data, start, wanted, self._scan_bytes)
        cut_by_scan = self._pos - start > self._scan_bytes - SHORT_REPEAT_HEADER - MAX_VALUE_BYTES
        self._scan_bytes = min(2 * self._scan_bytes, SCAN_BYTES) if cut_by_scan else FIRST_SCAN_BYTES
        if not len(starts):
            return None
        words, counts = _short_repeat_words(np.frombuffer(self._data, dtype=np.uint8), starts)
        # Decoded once per run, then repeated: no arrays of the values' size but theirs.
        return np.repeat(zigzag_decoded_words(words) if self._signed else words, counts)

    def _at_short_repeat(self) -> bool:
        data, pos = self._data, self._pos
        return pos < len(data) and data[pos] >> ENCODING_SHIFT == SubEncoding.SHORT_REPEAT

    def _direct(self, run_start: int, stepwise: bool) -> list[int] | np.ndarray:
        header = self._header(run_start, TWO_BYTE_HEADER, "Direct")
        width = decode_width(header[0] >> WIDTH_SHIFT & WIDTH_CODE_MASK)
        place = (self._data, run_start + TWO_BYTE_HEADER, width, _run_length(header))
        if stepwise:
            values, self._pos = unpack(*place, base_offset=self._base_offset, what="Direct values")
            return [self._unzigzag(value) for value in values]
        words, self._pos = unpack_array(*place, base_offset=self._base_offset, what="Direct values")
        return zigzag_decoded_words(words) if self._signed else words

    def _patched_base(self, run_start: int, stepwise: bool) -> list[int] | np.ndarray | None:
        header = self._header(run_start, PATCHED_BASE_HEADER, "Patched Base")
        width = decode_width(header[0] >> WIDTH_SHIFT & WIDTH_CODE_MASK)
        base_size = (header[2] >> PATCH_FIELD_SHIFT) + 1
        patch_width = decode_width(header[2] & WIDTH_CODE_MASK)
        gap_width = (header[3] >> PATCH_FIELD_SHIFT) + 1
        patch_count = header[3] & PATCH_LIST_LENGTH_MASK
        if gap_width + patch_width > MAX_WIDTH:
            raise CorruptRle(f"a patch gap of {gap_width} bits and a patch of {patch_width} bits "
                             f"exceed {MAX_WIDTH} bits", self._offset(run_start))
        base = self._patched_base_value(run_start + PATCHED_BASE_HEADER, base_size)
        place = (self._data, self._pos, width, _run_length(header))
        what = "Patched Base values"
        if stepwise:
            values, pos = unpack(*place, base_offset=self._base_offset, what=what)
        else:
            words, pos = unpack_array(*place, base_offset=self._base_offset, what=what)
        entries, self._pos = unpack(self._data, pos, closest_fixed_width(gap_width + patch_width),
                                    patch_count, base_offset=self._base_offset, what="patch entries")
        patches = self._patches(_run_length(header), entries, width, patch_width, pos)
        if not stepwise:
            return self._patched_words(base, words, patches, width + patch_width)
        for index, high_bits in patches:
            values[index] |= high_bits
        return [base + value for value in values]

    def _patched_base_value(self, pos: int, size: int) -> int:
        """'Patched Base': "a big endian value with negative values marked by the most
        significant bit set. If it that bit is set, the entire value is negated"."""
        if pos + size > len(self._data):
            raise CorruptRle(f"the stream ends inside a {size}-byte Patched Base base value",
                             self._offset(pos))
        stored = int.from_bytes(self._data[pos:pos + size], "big")
        self._pos = pos + size
        sign = 1 << (size * BITS_PER_BYTE - 1)
        return -(stored ^ sign) if stored & sign else stored

    def _patches(self, count: int, entries: list[int], width: int, patch_width: int,
                 list_start: int) -> list[tuple[int, int]]:
        """(index, bits to or in) of each entry: a gap (from the previous patched index)
        over a patch whose bits go above the value's ``width`` bits. Entries with patch 0
        only carry the index past gaps too wide for the gap field; or-ing them in changes
        nothing."""
        patch_mask = (1 << patch_width) - 1
        index = 0
        patches = []
        for entry in entries:
            index += entry >> patch_width
            if index >= count:
                raise CorruptRle(f"a patch lands on index {index} of a run of {count} values",
                                 self._offset(list_start))
            patches.append((index, (entry & patch_mask) << width))
        return patches

    def _patched_words(self, base: int, values: np.ndarray, patches: list[tuple[int, int]],
                       patched_width: int) -> np.ndarray | None:
        """Base plus the patched values in words; None unless all lie in the 64-bit range.
        ``values`` (a fresh array) becomes the words; the patched values are below
        2^``patched_width``, so their extremes need not be looked for when the whole range
        from the base up fits."""
        patched: dict[int, int] = {}
        for index, high_bits in patches:
            patched[index] = patched.get(index, int(values[index])) | high_bits
        if not self._fit(base, base + (1 << patched_width) - 1):
            largest = max([int(values.max()), *patched.values()])
            if not self._fit(base + int(values.min()), base + largest):
                return None
        words = np.add(values, np.uint64(base % WORD), out=values)
        if patched:
            words[list(patched)] = [(base + value) % WORD for value in patched.values()]
        return words.view(self.dtype)

    def _delta(self, run_start: int, stepwise: bool) -> list[int] | np.ndarray | None:
        header = self._header(run_start, TWO_BYTE_HEADER, "Delta")
        width = decode_width(header[0] >> WIDTH_SHIFT & WIDTH_CODE_MASK, delta=True)
        length = _run_length(header)
        read_base = read_svarint if self._signed else read_uvarint
        base, pos = read_base(self._data, run_start + TWO_BYTE_HEADER, self._base_offset, CorruptRle)
        first_delta, pos = read_svarint(self._data, pos, self._base_offset, CorruptRle)
        self._pos = pos
        if width == 0:
            if stepwise:
                return [base + index * first_delta for index in range(length)]
            return self._arithmetic_words(base, first_delta, length)
        if length < TWO_BYTE_HEADER or first_delta == 0:
            # 'Delta': "The first two numbers in the sequence can not be identical,
            # because the encoding is using the sign of the first delta".
            raise CorruptRle(f"a Delta run of {length} values with {width}-bit deltas has first "
                             f"delta {first_delta}; it needs 2 values and a nonzero first delta",
                             self._offset(run_start))
        place = (self._data, pos, width, length - 2)
        direction = 1 if first_delta > 0 else -1
        if not stepwise:
            words, self._pos = unpack_array(*place, base_offset=self._base_offset, what="Delta deltas")
            return self._monotonic_words(base, first_delta, direction, words, width)
        deltas, self._pos = unpack(*place, base_offset=self._base_offset, what="Delta deltas")
        values = [base, base + first_delta]
        for delta in deltas:
            values.append(values[-1] + direction * delta)
        return values

    def _arithmetic_words(self, base: int, delta: int, length: int) -> np.ndarray | None:
        """base, base + delta, ... (``length`` values) in words; None unless in range."""
        if not self._fit(base, base + (length - 1) * delta):
            return None
        steps = np.arange(length, dtype=np.uint64) * np.uint64(delta % WORD)
        return (steps + np.uint64(base % WORD)).view(self.dtype)

    def _monotonic_words(self, base: int, first_delta: int, direction: int, deltas: np.ndarray,
                         width: int) -> np.ndarray | None:
        """The running sum of base, first delta and ``direction`` × deltas in words; None
        unless in range. The sequence is monotonic: its ends are its extremes."""
        words = np.empty(len(deltas) + 2, dtype=np.uint64)
        sums = np.add.accumulate(deltas, out=words[2:])  # the deltas' running sums, in words
        if width > EXACT_SUM_WIDTH:
            total = sum(deltas.tolist())  # the words may have wrapped
        else:
            total = int(sums[-1]) if len(sums) else 0
        second = base + first_delta
        if not self._fit(base, second + direction * total):
            return None
        words[0], words[1] = base % WORD, second % WORD
        if direction > 0:
            np.add(sums, np.uint64(second % WORD), out=sums)
        else:
            np.subtract(np.uint64(second % WORD), sums, out=sums)
        return words.view(self.dtype)

    def _fit(self, one: int, other: int) -> bool:
        """Both values lie in the 64-bit range of the stream's integers."""
        low, high = self._bounds
        return low <= one <= high and low <= other <= high

    def _unzigzag(self, value: int) -> int:
        return zigzag_decode(value) if self._signed else value


# By SubEncoding: a tuple, since the header's two bits index it without an enum lookup.
_DECODERS: tuple[Callable[[IntRleV2Reader, int, bool], list[int] | np.ndarray | None], ...] = (
    IntRleV2Reader._short_repeat,
    IntRleV2Reader._direct,
    IntRleV2Reader._patched_base,
    IntRleV2Reader._delta,
)


def zigzag_decoded_words(values: np.ndarray) -> np.ndarray:
    """'Base 128 Varint' zigzag decoding of uint64 words: (n >> 1) ^ -(n & 1), as int64."""
    one = np.uint64(1)
    return ((values >> one) ^ (np.uint64(0) - (values & one))).view(np.int64)


def _short_repeat_chain(data: bytes | memoryview, pos: int, wanted: int,
                        scan_bytes: int = SCAN_BYTES) -> tuple[np.ndarray, int]:
    """The header places of the consecutive Short Repeat runs from ``pos`` whose values
    are all wanted and that end in the stream, and the place after them.

    Each header gives where the next run starts (its value takes 1 to 8 bytes), so the
    runs form a chain. A table gives, for every byte of the scanned bytes, the run that
    would follow a header there and its count (none where a header cannot start: another
    sub-encoding, or a value cut off); tables of 2, 4, ... JUMP_RUNS runs are made from it
    by doubling (a jump of 2k runs is two of k). The chain is walked JUMP_RUNS runs a
    turn, then one run a turn for the last few; the runs inside each jump are then
    followed all at once. The bytes scanned: at most ``scan_bytes``, and no more than the
    wanted values' runs can take, so that a small read scans little."""
    most = (wanted // MIN_REPEAT) * (SHORT_REPEAT_HEADER + MAX_VALUE_BYTES)
    headers = np.frombuffer(data, dtype=np.uint8)[pos:pos + min(most, scan_bytes)]
    size = len(headers)
    following = (np.arange(size) + SHORT_REPEAT_HEADER + 1
                 + (headers >> SHORT_REPEAT_WIDTH_SHIFT & SHORT_REPEAT_FIELD_MASK))
    starts_run = (headers >> ENCODING_SHIFT == SubEncoding.SHORT_REPEAT) & (following <= size)
    # The place ``size`` stands for "no run": it follows itself and counts more than wanted.
    step = np.append(np.where(starts_run, following, size), size)
    count = np.append(np.where(starts_run, (headers & SHORT_REPEAT_FIELD_MASK).astype(np.int64) + MIN_REPEAT,
                               NO_RUN), NO_RUN)
    jump, jump_count = step, count
    for _ in range(JUMP_LEVELS):
        jump, jump_count = jump[jump], jump_count + jump_count[jump]
    here, left = 0, wanted
    jumps: list[int] = []
    singles: list[int] = []
    for table, counts, found in ((jump, jump_count, jumps), (step, count, singles)):
        while (taken := counts.item(here)) <= left:
            found.append(here)
            left -= taken
            here = table.item(here)
    inside = [np.array(jumps, dtype=np.int64)]
    for _ in range(JUMP_RUNS - 1):
        inside.append(step[inside[-1]])
    starts = np.concatenate([np.stack(inside, axis=1).ravel(), np.array(singles, dtype=np.int64)])
    return starts + pos, pos + here


def _short_repeat_words(data: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The value and the count of each Short Repeat run whose header lies at ``starts`` in
    ``data``, the values as uint64 words: each value's big-endian bytes (1 to 8, after its
    header) shifted in one byte place at a time."""
    headers = data[starts]
    sizes = (headers >> SHORT_REPEAT_WIDTH_SHIFT & SHORT_REPEAT_FIELD_MASK) + 1
    values = np.zeros(len(starts), dtype=np.uint64)
    for place in range(MAX_VALUE_BYTES):
        longer = sizes > place
        byte = data[starts[longer] + SHORT_REPEAT_HEADER + place].astype(np.uint64)
        values[longer] = values[longer] << np.uint64(BITS_PER_BYTE) | byte
    return values, (headers & SHORT_REPEAT_FIELD_MASK) + MIN_REPEAT


def _run_length(header: bytes) -> int:
    """The 9-bit length field (stored as length - 1) of a Direct, Patched Base or Delta header."""
    return ((header[0] & LENGTH_HIGH_BIT) << LENGTH_HIGH_SHIFT | header[1]) + 1


def decode_ints_v2(data: bytes | memoryview, count: int, *, signed: bool,
                   base_offset: int = 0) -> list[int]:
    return IntRleV2Reader(data, base_offset=base_offset, signed=signed).read(count).tolist()


def sub_encodings(data: bytes | memoryview, count: int, *, signed: bool) -> list[SubEncoding]:
    """The sub-encoding of each run that holds the first ``count`` values."""
    reader = IntRleV2Reader(data, signed=signed)
    encodings = []
    decoded = 0
    while decoded < count:
        run_start = reader.position
        reader.skip(1)  # decodes the run at run_start
        encodings.append(SubEncoding(data[run_start] >> ENCODING_SHIFT))
        decoded += 1 + reader.buffered
        reader.skip(reader.buffered)
    return encodings


# ---------------------------------------------------------------------------
# Writing
#
# The runs and their sub-encodings are chosen as ORC's writers choose them (Java's
# RunLengthIntegerWriterV2 and the C++ RleEncoderV2, which pyarrow and pyorc use), so
# a file written here has the runs a real file has:
#
# * values are cut into runs as they arrive: 3 or more equal values make a repeat run
#   (ending the variable run before them), any other values a variable run; either
#   kind of run is closed at 512 values;
# * a repeat run of 3..10 values is Short Repeat, a longer one Delta with delta 0;
# * a variable run of at most 3 values is Direct; else Delta if its deltas are all
#   equal, or if it is monotonic with a nonzero first delta; else Patched Base if the
#   100th percentile width of its (zigzag) values exceeds the 90th by more than 1 and
#   the base-reduced values have outliers above their 95th percentile width; else
#   Direct. ('Patched Base' speaks of the 90th percentile: the writers use it to decide
#   and the 95th for the packed width.)
# * Direct and Delta values are packed at aligned widths (see ``bit_packing``).
# ---------------------------------------------------------------------------

MIN_DELTA_WIDTH = 2
DECIDING_PERCENTILE = 0.9  # the fractions as the writers compute with them, in doubles
PACKED_PERCENTILE = 0.95
MAX_PATCH_GAP_WIDTH = 8  # 3 bits of gap width - 1
MAX_PATCH_GAP = (1 << MAX_PATCH_GAP_WIDTH) - 1  # wider gaps take (255, patch 0) entries first
MAX_BASE_BYTES = 8  # 3 bits of base value bytes - 1
# A patch as wide as 64 bits cannot share an entry with its gap: writers then pack the
# values 8 bits wide under 56-bit patches.
WIDEST_PATCH, PACKED_WIDTH_UNDER_WIDEST_PATCH = 56, 8


def encode_ints_v2(values: Sequence[int], *, signed: bool, force: SubEncoding | None = None) -> bytes:
    """The runs of ``values`` as ORC's writers write them; with ``force``, runs cut so
    that every one uses that sub-encoding (ValueError if the values do not allow it)."""
    values = list(values)
    check_encodable(values, signed)
    if force is None:
        runs = [(_choose(run, repeat, signed), run) for run, repeat in _writer_runs(values)]
    else:
        runs = [(force, run) for run in _FORCED_RUNS[force](values, signed)]
    return b"".join(_ENCODERS[encoding](run, signed) for encoding, run in runs)


def _writer_runs(values: list[int]) -> list[tuple[list[int], bool]]:
    """(run, is a repeat run) in order, cut as the writers cut them."""
    runs: list[tuple[list[int], bool]] = []
    buffer: list[int] = []
    repeating = False  # the buffer holds equal values only
    for value in values:
        if not buffer:
            buffer, repeating = [value], True
        elif repeating and value == buffer[0]:
            buffer.append(value)
        elif repeating and len(buffer) >= MIN_REPEAT:
            runs.append((buffer, True))
            buffer = [value]
        else:
            buffer.append(value)
            repeating = False
            if len(buffer) > MIN_REPEAT and buffer[-1] == buffer[-2] == buffer[-3]:
                runs.append((buffer[:-MIN_REPEAT], False))
                buffer, repeating = buffer[-MIN_REPEAT:], True
        if len(buffer) == MAX_RUN:
            runs.append((buffer, repeating))
            buffer = []
    if buffer:
        runs.append((buffer, repeating and len(buffer) >= MIN_REPEAT))
    return runs


def _choose(run: list[int], repeat: bool, signed: bool) -> SubEncoding:
    if repeat:
        return SubEncoding.SHORT_REPEAT if len(run) <= MAX_REPEAT else SubEncoding.DELTA
    if len(run) <= MIN_REPEAT or max(run) - min(run) > INT64_MAX:
        return SubEncoding.DIRECT
    if _delta_expressible(run):
        return SubEncoding.DELTA
    widths = [value_width(value) for value in _zigzagged(run, signed)]
    if _percentile(widths, 1.0) - _percentile(widths, DECIDING_PERCENTILE) > 1 and _has_outliers(run):
        return SubEncoding.PATCHED_BASE
    return SubEncoding.DIRECT


def _percentile(widths: list[int], fraction: float) -> int:
    """The width that all but ``len * (1 - fraction)`` (rounded down) of ``widths`` fit."""
    allowed_wider = int(len(widths) * (1.0 - fraction))
    return sorted(widths)[len(widths) - 1 - allowed_wider]


def _delta_expressible(run: list[int]) -> bool:
    return _delta_run_end(run, 0, len(run)) == len(run)


def _delta_run_end(values: list[int], start: int, limit: int) -> int:
    """The end of the longest run from ``start`` (at most ``limit`` values) that 'Delta'
    can express: all deltas equal (no packed deltas), or monotonic from a nonzero first
    delta. Each delta must be a signed 64-bit value: readers add them up in 64 bits."""
    end = min(start + 1, len(values))
    first: int | None = None
    fixed = True  # every delta so far equals the first
    while end < min(len(values), start + limit):
        delta = values[end] - values[end - 1]
        if not INT64_MIN <= delta <= INT64_MAX:
            break
        if first is None:
            first = delta
        else:
            fixed = fixed and delta == first
            if not fixed and (first == 0 or delta * first < 0):
                break
        end += 1
    return end


# ---------------------------------------------------------------------------
# The four sub-encodings, written
# ---------------------------------------------------------------------------


def _zigzagged(run: list[int], signed: bool) -> list[int]:
    return [zigzag_encode(value) for value in run] if signed else run


def _length_header(encoding: SubEncoding, width_code: int, length: int) -> bytes:
    stored = length - 1
    return bytes((encoding << ENCODING_SHIFT | width_code << WIDTH_SHIFT | stored >> LENGTH_HIGH_SHIFT,
                  stored & BYTE_MASK))


def _write_short_repeat(run: list[int], signed: bool) -> bytes:
    (value,) = set(_zigzagged(run, signed))
    size = -(-value_width(value) // BITS_PER_BYTE)
    header = (size - 1) << SHORT_REPEAT_WIDTH_SHIFT | (len(run) - MIN_REPEAT)
    return bytes((header,)) + value.to_bytes(size, "big")


def _write_direct(run: list[int], signed: bool) -> bytes:
    values = _zigzagged(run, signed)
    width = closest_aligned_width(max(values).bit_length())
    return _length_header(SubEncoding.DIRECT, encode_width(width), len(run)) + pack(values, width)


def _write_delta(run: list[int], signed: bool) -> bytes:
    deltas = [b - a for a, b in zip(run, run[1:], strict=False)] or [0]
    write_base = write_svarint if signed else write_uvarint
    if len(set(deltas)) == 1:
        header = _length_header(SubEncoding.DELTA, DELTA_ZERO_WIDTH_CODE, len(run))
        return header + write_base(run[0]) + write_svarint(deltas[0])
    magnitudes = [abs(delta) for delta in deltas[1:]]
    # Width code 0 means no deltas here, so 1-bit deltas take the 2-bit width.
    width = max(closest_aligned_width(max(magnitudes).bit_length()), MIN_DELTA_WIDTH)
    header = _length_header(SubEncoding.DELTA, encode_width(width), len(run))
    return header + write_base(run[0]) + write_svarint(deltas[0]) + pack(magnitudes, width)


@dataclass(frozen=True)
class _PatchedRun:
    """A run laid out for Patched Base: base, packed low bits, (gap, patch) entries."""

    base: int
    width: int
    low_bits: list[int]
    patch_width: int
    gap_width: int
    entries: list[tuple[int, int]]


def _has_outliers(run: list[int]) -> bool:
    base = min(run)
    widths = [value_width(value - base) for value in run]
    return (_percentile(widths, 1.0) > _percentile(widths, PACKED_PERCENTILE)
            and _base_bytes(base) <= MAX_BASE_BYTES)


def _base_bytes(base: int) -> int:
    """Bytes for the base's magnitude and its sign bit."""
    return -(-(value_width(abs(base)) + 1) // BITS_PER_BYTE)


def _patched_layout(run: list[int]) -> _PatchedRun:
    """The writers' layout: values packed at their 95th percentile width, the bits above
    it patched (the few values wider than that: at most 5% of them)."""
    base = min(run)
    reduced = [value - base for value in run]
    widths = [value_width(value) for value in reduced]
    width = _percentile(widths, PACKED_PERCENTILE)
    patch_width = closest_fixed_width(_percentile(widths, 1.0) - width)
    if patch_width == MAX_WIDTH:
        patch_width, width = WIDEST_PATCH, PACKED_WIDTH_UNDER_WIDEST_PATCH
    low_mask = (1 << width) - 1
    entries: list[tuple[int, int]] = []
    previous = 0
    for index, value in enumerate(reduced):
        if value > low_mask:
            gap = index - previous
            previous = index
            while gap > MAX_PATCH_GAP:
                entries.append((MAX_PATCH_GAP, 0))
                gap -= MAX_PATCH_GAP
            entries.append((gap, value >> width))
    gap_width = value_width(max(gap for gap, _ in entries))
    return _PatchedRun(base, width, [value & low_mask for value in reduced], patch_width, gap_width,
                       entries)


def _write_patched_base(run: list[int], signed: bool) -> bytes:
    layout = _patched_layout(run)
    base_bytes = _base_bytes(layout.base)
    sign = 1 << (base_bytes * BITS_PER_BYTE - 1) if layout.base < 0 else 0
    entry_width = closest_fixed_width(layout.gap_width + layout.patch_width)
    entries = [gap << layout.patch_width | patch for gap, patch in layout.entries]
    header = _length_header(SubEncoding.PATCHED_BASE, encode_width(layout.width), len(run))
    header += bytes(((base_bytes - 1) << PATCH_FIELD_SHIFT | encode_width(layout.patch_width),
                     (layout.gap_width - 1) << PATCH_FIELD_SHIFT | len(entries)))
    return (header + (abs(layout.base) | sign).to_bytes(base_bytes, "big")
            + pack(layout.low_bits, layout.width) + pack(entries, entry_width))


_ENCODERS: dict[SubEncoding, Callable[[list[int], bool], bytes]] = {
    SubEncoding.SHORT_REPEAT: _write_short_repeat,
    SubEncoding.DIRECT: _write_direct,
    SubEncoding.PATCHED_BASE: _write_patched_base,
    SubEncoding.DELTA: _write_delta,
}


# ---------------------------------------------------------------------------
# Forced sub-encodings: runs cut so that each can use the one asked for
# ---------------------------------------------------------------------------


def _short_repeat_runs(values: list[int], signed: bool) -> list[list[int]]:
    """Each stretch of equal values, split evenly into runs of 3..10."""
    runs = []
    start = 0
    while start < len(values):
        end = start
        while end < len(values) and values[end] == values[start]:
            end += 1
        if end - start < MIN_REPEAT:
            raise ValueError(f"Short Repeat needs {MIN_REPEAT}..{MAX_REPEAT} equal values: "
                             f"{values[start]} at index {start} repeats {end - start} times")
        pieces = -(-(end - start) // MAX_REPEAT)
        bounds = [start + (end - start) * piece // pieces for piece in range(pieces + 1)]
        runs += [values[low:high] for low, high in zip(bounds, bounds[1:], strict=False)]
        start = end
    return runs


def _direct_runs(values: list[int], signed: bool) -> list[list[int]]:
    return [values[start:start + MAX_RUN] for start in range(0, len(values), MAX_RUN)]


def _patched_base_runs(values: list[int], signed: bool) -> list[list[int]]:
    runs = _direct_runs(values, signed)
    for number, run in enumerate(runs):
        if not _has_outliers(run):
            raise ValueError(f"Patched Base needs outliers: run {number} (values {number * MAX_RUN}.. "
                             f"{number * MAX_RUN + len(run) - 1}) has none wider than its 95th "
                             f"percentile width, or its minimum needs more than {MAX_BASE_BYTES} bytes")
    return runs


def _delta_runs(values: list[int], signed: bool) -> list[list[int]]:
    """Runs as long as 'Delta' allows."""
    runs = []
    start = 0
    while start < len(values):
        end = _delta_run_end(values, start, MAX_RUN)
        runs.append(values[start:end])
        start = end
    return runs


_FORCED_RUNS: dict[SubEncoding, Callable[[list[int], bool], list[list[int]]]] = {
    SubEncoding.SHORT_REPEAT: _short_repeat_runs,
    SubEncoding.DIRECT: _direct_runs,
    SubEncoding.PATCHED_BASE: _patched_base_runs,
    SubEncoding.DELTA: _delta_runs,
}
