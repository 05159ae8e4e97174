"""Integer Run Length Encoding, version 1 (ORCv1.md, 'Integer Run Length Encoding, version 1').

A control byte 0x00..0x7f starts a run of control + 3 values: a signed delta byte
(-128..127) and the first value as a base 128 varint, each next value the previous plus
the delta. A control byte 0x80..0xff starts 256 - control literal varints. Varints are
zigzag encoded when the stream is signed (ORCv1.md, 'Base 128 Varint').

The writer does what ORC's writers do: three or more values with a constant delta that
fits a byte become a run (at most 130 values), everything else literal lists of at most
128 values.

A run whose values leave the 64-bit range (INT64_MIN, INT64_MAX, INT64_MAX - 1 as a run of
delta -1 from INT64_MIN) is what ORC Java and the C++ writer write for such values: they
compute each next value in 64-bit arithmetic, which wraps. The text says nothing of it;
the reference reads the run as they do, wrapped, under the lenient rule WRAPPING_RUN.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import numpy as np

from reference_impl.common.leniency import Rule, Strength, breach
from reference_impl.orc.encodings.run_reader import (
    RunReader,
    check_encodable,
    int64_bounds,
    int_dtype,
)
from reference_impl.orc.errors import CorruptRle
from reference_impl.orc.streams.stream_window import StreamData
from reference_impl.orc.varint import read_svarint, read_uvarint, write_svarint, write_uvarint

__all__ = ["IntRleV1Reader", "decode_ints_v1", "encode_ints_v1"]

MIN_RUN = 3
MAX_RUN = 127 + MIN_RUN  # control bytes 0x00..0x7f
MAX_LITERALS = 128  # control bytes 0x80..0xff
CONTROL_SIGN = 0x80
BYTE_VALUES = 256
MIN_DELTA, MAX_DELTA = -128, 127  # the delta is one signed byte
WORD = 1 << 64  # values are 64-bit words: a wrapped run is read modulo 2^64

WRAPPING_RUN = Rule(
    id="orc.rle-v1.wrapping-run",
    format="orc",
    spec="ORCv1.md: Integer Run Length Encoding, version 1",
    sentence="Runs start with an initial byte of 0x00 to 0x7f, which encodes the length of the run - 3. "
    "A second byte provides the fixed delta in the range of -128 to 127. Finally, the first value is "
    "encoded as a base 128 varint.",
    strength=Strength.SILENT,
    reading="a run whose next values leave the 64-bit range is read in 64-bit two's complement "
    "arithmetic, wrapping, as ORC Java and the C++ library write and read it",
    error=CorruptRle,
)


class IntRleV1Reader(RunReader):
    def __init__(self, data: StreamData, *, base_offset: int = 0, start: int = 0,
                 signed: bool) -> None:
        self.dtype = int_dtype(signed)
        super().__init__(data, base_offset=base_offset, start=start)
        self._signed = signed

    def _decode_run(self) -> np.ndarray:
        run_start = self._pos
        control = self._byte(run_start, "a control byte")
        if control < CONTROL_SIGN:
            delta = self._byte(run_start + 1, "a run's delta")
            delta -= BYTE_VALUES if delta >= CONTROL_SIGN else 0
            base, self._pos = self._varint(run_start + 2)
            values = self._wrapped([base + index * delta for index in range(control + MIN_RUN)], run_start)
        else:
            values = []
            self._pos = run_start + 1
            for _ in range(BYTE_VALUES - control):
                value, self._pos = self._varint(self._pos)
                values.append(value)
        return self._checked(values, self._signed, run_start)

    def _wrapped(self, values: list[int], run_start: int) -> list[int]:
        """A run's values in 64-bit words, under WRAPPING_RUN when they leave the range."""
        low, high = int64_bounds(self._signed)
        if all(low <= value <= high for value in values):
            return values
        breach(WRAPPING_RUN, "an integer run leaves the 64-bit range", self._offset(run_start))
        return [(value - low) % WORD + low for value in values]

    def _varint(self, pos: int) -> tuple[int, int]:
        read = read_svarint if self._signed else read_uvarint
        return read(self._data, pos, self._base_offset, CorruptRle)


def decode_ints_v1(data: bytes | memoryview, count: int, *, signed: bool,
                   base_offset: int = 0) -> list[int]:
    return IntRleV1Reader(data, base_offset=base_offset, signed=signed).read(count).tolist()


def encode_ints_v1(values: Sequence[int], *, signed: bool) -> bytes:
    values = list(values)
    check_encodable(values, signed)
    write = write_svarint if signed else write_uvarint
    out = bytearray()
    literals: list[int] = []
    for start, length, delta in _runs(values):
        if length >= MIN_RUN:
            out += _literal_lists(literals, write)
            literals = []
            out += bytes((length - MIN_RUN, delta % BYTE_VALUES)) + write(values[start])
        else:
            literals += values[start:start + length]
    out += _literal_lists(literals, write)
    return bytes(out)


def _runs(values: list[int]) -> Iterator[tuple[int, int, int]]:
    """(start, length, delta): a run of MIN_RUN..MAX_RUN values with one delta that fits
    a byte, or a single value (length 1) that starts no run."""
    start = 0
    while start < len(values):
        end = start + 1
        delta = values[end] - values[start] if end < len(values) else 0
        if MIN_DELTA <= delta <= MAX_DELTA:
            while (end < len(values) and end - start < MAX_RUN
                   and values[end] - values[end - 1] == delta):
                end += 1
        if end - start < MIN_RUN:
            end = start + 1
        yield start, end - start, delta
        start = end


def _literal_lists(literals: list[int], write: Callable[[int], bytes]) -> bytes:
    out = bytearray()
    for start in range(0, len(literals), MAX_LITERALS):
        chunk = literals[start:start + MAX_LITERALS]
        out.append(BYTE_VALUES - len(chunk))
        for value in chunk:
            out += write(value)
    return bytes(out)
