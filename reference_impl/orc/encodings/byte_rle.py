"""Byte Run Length Encoding (ORCv1.md, 'Byte Run Length Encoding').

Each group starts with a control byte read as a signed byte: 0..127 is a run of the next
byte repeated control + 3 times, -128..-1 a list of -control literal bytes. So a run holds
3..130 values and a literal list 1..128. Values are the bytes as unsigned ints 0..255
(a TinyInt column reads them as signed; that is the column's business).

The writer does what ORC's writers do: a value repeated at least 3 times becomes a run,
everything else goes in literal lists.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from reference_impl.orc.encodings.run_reader import RunReader
from reference_impl.orc.errors import CorruptRle

__all__ = ["ByteRleReader", "decode_bytes", "encode_bytes"]

MIN_RUN = 3  # "Run - a sequence of at least 3 identical values"
MAX_RUN = 127 + MIN_RUN  # control bytes 0..127
MAX_LITERALS = 128  # control bytes -1..-128
CONTROL_SIGN = 0x80  # a control byte with this bit set is negative: a literal list
BYTE_VALUES = 256


class ByteRleReader(RunReader):
    dtype = np.dtype(np.uint8)

    def _decode_run(self) -> np.ndarray:
        control = self._byte(self._pos, "a control byte")
        if control < CONTROL_SIGN:
            value = self._byte(self._pos + 1, "a run's value")
            self._pos += 2
            return np.full(control + MIN_RUN, value, dtype=self.dtype)
        count = BYTE_VALUES - control
        end = self._pos + 1 + count
        if end > len(self._data):
            raise CorruptRle(f"a literal list of {count} bytes has {len(self._data) - self._pos - 1}",
                             self._offset(self._pos))
        values = np.frombuffer(self._data, dtype=self.dtype, count=count, offset=self._pos + 1)
        self._pos = end
        return values


def decode_bytes(data: bytes | memoryview, count: int, base_offset: int = 0) -> list[int]:
    return ByteRleReader(data, base_offset=base_offset).read(count).tolist()


def encode_bytes(values: Sequence[int]) -> bytes:
    """Runs for values repeated 3 times or more, literal lists between them."""
    for index, value in enumerate(values):
        if not 0 <= value < BYTE_VALUES:
            raise ValueError(f"value {value} at index {index} is not a byte (0..255)")
    out = bytearray()
    literals: list[int] = []
    for value, length in _groups(values):
        if length >= MIN_RUN:
            out += _literal_lists(literals)
            literals = []
            out += bytes((length - MIN_RUN, value))
        else:
            literals += [value] * length
    out += _literal_lists(literals)
    return bytes(out)


def _groups(values: Sequence[int]) -> Iterator[tuple[int, int]]:
    """(value, length) for each stretch of equal values, at most MAX_RUN long."""
    start = 0
    while start < len(values):
        end = start + 1
        while end < len(values) and end - start < MAX_RUN and values[end] == values[start]:
            end += 1
        yield values[start], end - start
        start = end


def _literal_lists(literals: list[int]) -> bytes:
    out = bytearray()
    for start in range(0, len(literals), MAX_LITERALS):
        chunk = literals[start:start + MAX_LITERALS]
        out.append(BYTE_VALUES - len(chunk))
        out += bytes(chunk)
    return bytes(out)
