"""Boolean Run Length Encoding (ORCv1.md, 'Boolean Run Length Encoding').

Eight booleans to a byte, "from most significant to least significant", and the bytes
in Byte Run Length Encoding. The last byte is padded (writers use false bits; the text
gives them no value, so a reader does not look at them); the stream does not say how
many values it holds, so a reader is told.

A row group's position in a boolean stream is the byte RLE position plus a number of
bits to skip (ORCv1.md, 'Row Group Index'), which ``start`` and ``skip`` cover.

numpy's ``unpackbits`` spreads the bytes into bits in the order the text gives (most
significant first, its default "big" bit order); values are read as a bool array.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from reference_impl.orc.encodings.byte_rle import ByteRleReader, encode_bytes
from reference_impl.orc.streams.stream_window import StreamData

__all__ = ["BooleanRleReader", "decode_booleans", "encode_booleans"]

BITS_PER_BYTE = 8
HIGH_BIT = BITS_PER_BYTE - 1


class BooleanRleReader:
    def __init__(self, data: StreamData, *, base_offset: int = 0, start: int = 0) -> None:
        self._bytes = ByteRleReader(data, base_offset=base_offset, start=start)
        self._bits = np.empty(0, dtype=bool)  # the unread bits of the last byte read

    @property
    def exhausted(self) -> bool:
        """No byte left; the unread bits of the last byte are its padding."""
        return self._bytes.exhausted

    def leftover(self) -> tuple[str, int] | None:
        """What is left of the bytes; the unread bits of the last byte are its padding."""
        return self._bytes.leftover()

    def read(self, count: int) -> np.ndarray:
        """The next ``count`` booleans; CorruptRle if the stream holds fewer."""
        taken = self._bits[:count]
        self._bits = self._bits[count:]
        missing = count - len(taken)
        if missing:
            bits = np.unpackbits(self._bytes.read(-(-missing // BITS_PER_BYTE))).view(bool)
            # No copy when no bit was buffered (a whole column read at once): a view of the bits.
            taken = np.concatenate((taken, bits[:missing])) if len(taken) else bits[:missing]
            self._bits = bits[missing:]
        return taken

    def skip(self, count: int) -> None:
        """Pass over ``count`` booleans; CorruptRle if the stream holds fewer."""
        buffered = min(count, len(self._bits))
        self._bits = self._bits[buffered:]
        whole_bytes, rest = divmod(count - buffered, BITS_PER_BYTE)
        self._bytes.skip(whole_bytes)
        self.read(rest)


def decode_booleans(data: bytes | memoryview, count: int, base_offset: int = 0) -> list[bool]:
    return BooleanRleReader(data, base_offset=base_offset).read(count).tolist()


def encode_booleans(values: Sequence[bool]) -> bytes:
    packed = []
    for start in range(0, len(values), BITS_PER_BYTE):
        byte = 0
        for index, value in enumerate(values[start:start + BITS_PER_BYTE]):
            byte |= bool(value) << (HIGH_BIT - index)
        packed.append(byte)
    return encode_bytes(packed)
