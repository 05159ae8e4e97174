"""What every run-length decoder shares: a position in a buffer, one decoded run at a time.

ORCv1.md, 'Run Length Encoding': each encoding is a sequence of self-describing groups
(runs), so a reader can start at the first byte of any run. ORCv1.md, 'Row Group Index'
gives a row group's place in an RLE stream as the byte offset of a run plus a number of
values to skip inside it; a reader is therefore built at a byte offset (``start``) and
can ``skip``. At most one run is decoded ahead of what was asked for (the bound on what a
corrupt header can make it allocate). A run is decoded into a numpy array of the
reader's ``dtype`` and ``read`` returns one array: the values at array speed.

A compressed stream may be given as its decompressed chunks ('Compression'), which the
reader takes in turn (streams/stream_window.py): it holds WINDOW_BYTES of the stream from
its next run on (or the rest of the stream), not the whole stream beside its values.
Positions and offsets are the stream's all the same.

Integer streams hold 64-bit values (ORCv1.md, 'SmallInt, Int, and BigInt Columns'): a
decoded value outside the signed or unsigned 64-bit range can only come from corrupt
data, so it is :class:`CorruptRle` rather than a silently wrapped number.
"""

from __future__ import annotations

import numpy as np

from reference_impl.orc.errors import CorruptRle
from reference_impl.orc.streams.stream_window import REST, StreamData, StreamWindow

INT64_MIN = -(1 << 63)
INT64_MAX = (1 << 63) - 1
UINT64_MAX = (1 << 64) - 1
# A reader given a stream's chunks keeps this many of its bytes from the next run on:
# more than a run of any encoding takes (RLE v2's longest, Patched Base: 4 header bytes,
# an 8-byte base, 512 values and 31 patches of 64 bits, under 5 KB; and RLE v2's scan of
# Short Repeat headers, SCAN_BYTES), so a decoder finds the window's end only at the stream's.
WINDOW_BYTES = 1 << 16


def int64_bounds(signed: bool) -> tuple[int, int]:
    return (INT64_MIN, INT64_MAX) if signed else (0, UINT64_MAX)


def check_encodable(values: list[int], signed: bool) -> None:
    """ValueError unless every value fits a signed (or unsigned) 64-bit integer."""
    low, high = int64_bounds(signed)
    for index, value in enumerate(values):
        if not low <= value <= high:
            kind = "signed" if signed else "unsigned"
            raise ValueError(f"value {value} at index {index} is not a {kind} 64-bit integer")


class RunReader:
    """Values of a run-length encoded buffer, decoded one run at a time.

    Subclasses implement :meth:`_decode_run`, which decodes the run at ``self._pos``,
    advances ``self._pos`` past it and returns its values as an array of ``dtype``.
    """

    dtype: np.dtype = np.dtype(np.int64)

    def __init__(self, data: StreamData, *, base_offset: int = 0, start: int = 0) -> None:
        self._window = StreamWindow(data)
        self._data = self._window.data  # the stream's bytes from ``_window.start`` on
        if not 0 <= start <= len(self._data):
            raise CorruptRle(f"start {start} lies outside the {len(self._data)} bytes of the stream",
                             base_offset + start)
        self._base_offset = base_offset  # the offset of ``_data[0]``: moves with the window
        self._pos = start
        self._run_start = start  # byte offset of the run in self._run
        self._run: np.ndarray = np.empty(0, dtype=self.dtype)
        self._used = 0  # values of self._run already returned or skipped

    @property
    def position(self) -> int:
        """The byte offset in the stream of the next run not yet decoded."""
        return self._window.start + self._pos

    @property
    def run_position(self) -> tuple[int, int]:
        """Where the next value lies as a row index records it: the byte offset of its run
        and how many values of that run precede it."""
        if self._used == len(self._run):
            return self._window.start + self._pos, 0
        return self._window.start + self._run_start, self._used

    @property
    def exhausted(self) -> bool:
        """No byte and no buffered value left (the window moved on if it was used up)."""
        if self._used == len(self._run):
            self._refill()
        return self._used == len(self._run) and self._pos >= len(self._data)

    def leftover(self) -> tuple[str, int] | None:
        """What the reader has not consumed (values of the current run, else bytes) and the
        byte offset where that starts; None when nothing is left."""
        if self._used < len(self._run):
            left = len(self._run) - self._used
            start = self._window.start + self._run_start
            return f"{left} more values of the run at byte {start}", start
        self._refill(REST)
        left = len(self._data) - self._pos
        start = self._window.start + self._pos
        return (f"{left} bytes from byte {start}", start) if left else None

    def read(self, count: int) -> np.ndarray:
        """The next ``count`` values; CorruptRle if the stream holds fewer."""
        # Filled run by run: the runs are not held beside their join (a stripe's values twice).
        values = np.empty(count, dtype=self.dtype)
        done = 0
        while done < count:
            if self._used == len(self._run):
                self._refill()
            whole_runs = self._whole_runs(count - done) if self._used == len(self._run) else None
            if whole_runs is not None:
                values[done:done + len(whole_runs)] = whole_runs
                done += len(whole_runs)
                continue
            take = self._fill(count - done)
            values[done:done + take] = self._run[self._used:self._used + take]
            self._used += take
            done += take
        return values

    def skip(self, count: int) -> None:
        """Pass over ``count`` values; CorruptRle if the stream holds fewer."""
        while count:
            take = self._fill(count)
            self._used += take
            count -= take

    def _fill(self, wanted: int) -> int:
        """How many of ``wanted`` values the current run still gives, decoding a new run
        when it is used up."""
        if self._used == len(self._run):
            self._refill()
            if self._pos >= len(self._data):
                raise CorruptRle(f"the stream ends {wanted} values short", self._offset(self._pos))
            self._run_start = self._pos
            self._run = self._decode_run()
            self._used = 0
        return min(wanted, len(self._run) - self._used)

    def _refill(self, wanted: int = WINDOW_BYTES) -> None:
        """Hold ``wanted`` bytes of the stream (or all that is left) from ``_pos``, the next
        run's first byte, on; the bytes before it are dropped."""
        start = self._window.start
        self._pos = self._window.hold(self._pos, wanted)
        self._data = self._window.data
        self._base_offset += self._window.start - start

    def _decode_run(self) -> np.ndarray:
        raise NotImplementedError

    def _whole_runs(self, wanted: int) -> np.ndarray | None:
        """A subclass may decode several runs at ``self._pos`` at once, if all their values
        are wanted (so none is decoded ahead): their values, or None to go run by run."""
        return None

    def _offset(self, pos: int) -> int:
        return self._base_offset + pos

    def _byte(self, pos: int, what: str) -> int:
        """``data[pos]``, or CorruptRle naming ``what`` was cut off."""
        if pos >= len(self._data):
            raise CorruptRle(f"the stream ends inside {what}", self._offset(pos))
        return self._data[pos]

    def _checked(self, values: list[int], signed: bool, run_start: int) -> np.ndarray:
        """``values`` as an array if all fit 64 bits, else CorruptRle at the run's first byte."""
        low, high = int64_bounds(signed)
        for value in values:
            if not low <= value <= high:
                kind = "signed" if signed else "unsigned"
                raise CorruptRle(f"the run decodes to {value}, outside the {kind} 64-bit range",
                                 self._offset(run_start))
        return np.array(values, dtype=self.dtype)


def int_dtype(signed: bool) -> np.dtype:
    """The array type of a signed or unsigned 64-bit integer stream."""
    return np.dtype(np.int64 if signed else np.uint64)
