"""BINARY columns, and the length-prefixed byte values strings share with them.

ORCv1.md, 'Binary Columns': "Binary data is encoded with a PRESENT stream, a DATA stream
that records the contents, and a LENGTH stream that records the number of bytes per a
value": DIRECT (LENGTH: Unsigned Integer RLE v1) and DIRECT_V2 (LENGTH: v2). A LENGTH
that reaches past the DATA stream is :class:`CorruptStream`.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TypeVar

import numpy as np

from reference_impl.orc.columns.column_streams import ColumnOutput, ColumnStreams, WriteSettings
from reference_impl.orc.columns.present import ColumnReader
from reference_impl.orc.errors import InvalidValue
from reference_impl.orc.metadata.proto_enums import StreamKind
from reference_impl.orc.metadata.type_tree import TypeNode

__all__ = ["BinaryReader", "LengthPrefixedValues", "cut", "length_prefixed_streams", "write_binary"]

INT64_LIMIT = 1 << 63  # the lengths are added in int64
# Offsets made Python ints at once when a block is cut into values: all of them would be
# some 36 bytes a value beside the values (docs/architecture.md, 'Memory budget').
CUT_BATCH = 1 << 16

Block = TypeVar("Block", bytes, str)


def cut(block: Block, starts: np.ndarray) -> list[Block]:
    """``block`` cut at ``starts`` (each value's start, then the end), in order."""
    values: list[Block] = []
    for first in range(0, len(starts) - 1, CUT_BATCH):
        bounds = starts[first:first + CUT_BATCH + 1].tolist()
        values += [block[start:end] for start, end in itertools.pairwise(bounds)]
    return values


class LengthPrefixedValues:
    """Byte values cut from a contents stream by the lengths of the LENGTH stream."""

    def __init__(self, streams: ColumnStreams, contents: StreamKind) -> None:
        self._lengths = streams.integers(StreamKind.LENGTH, signed=False)
        self._contents = streams.cursor(contents)

    def read(self, count: int) -> list[bytes]:
        return cut(*self.read_block(count))

    def read_block(self, count: int) -> tuple[bytes, np.ndarray]:
        """The contents of the next ``count`` values at once, and where each starts in it
        (``count + 1`` offsets, the last the end, as int64)."""
        lengths = self._lengths.read(count)
        wraps = bool(count) and int(lengths.max()) * count >= INT64_LIMIT  # an int64 sum could wrap
        end = sum(lengths.tolist()) if wraps else int(lengths.sum(dtype=np.int64))
        if not self._contents.has(end):
            for length in lengths.tolist():  # taken one by one: the error names the first too long
                self._contents.take(length)
        # The stream holds them all: their sum is below 2^63.
        return self._contents.take(end), np.concatenate(([0], np.cumsum(lengths, dtype=np.int64)))


class BinaryReader(ColumnReader):
    def __init__(self, streams: ColumnStreams) -> None:
        super().__init__(streams)
        self._values = LengthPrefixedValues(streams, StreamKind.DATA)

    def read_values(self, count: int) -> list[object]:
        return list(self._values.read(count))


def length_prefixed_streams(values: Sequence[bytes], contents: StreamKind,
                            settings: WriteSettings) -> dict[StreamKind, bytes]:
    """The contents and LENGTH streams of ``values``."""
    return {contents: b"".join(values),
            StreamKind.LENGTH: settings.integers([len(value) for value in values], signed=False)}


def write_binary(node: TypeNode, values: list[object], settings: WriteSettings) -> ColumnOutput:
    blobs: list[bytes] = []
    for value in values:
        if not isinstance(value, (bytes, bytearray, memoryview)):
            raise InvalidValue(f"{node.describe()}: {value!r} is not bytes")
        blobs.append(bytes(value))
    return ColumnOutput(settings.direct, length_prefixed_streams(blobs, StreamKind.DATA, settings))
