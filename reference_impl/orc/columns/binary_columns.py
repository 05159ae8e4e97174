"""BINARY columns, and the length-prefixed byte values strings share with them.

ORCv1.md, 'Binary Columns': "Binary data is encoded with a PRESENT stream, a DATA stream
that records the contents, and a LENGTH stream that records the number of bytes per a
value": DIRECT (LENGTH: Unsigned Integer RLE v1) and DIRECT_V2 (LENGTH: v2). A LENGTH
that reaches past the DATA stream is :class:`CorruptStream`.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from reference_impl.orc.columns.column_streams import ColumnOutput, ColumnStreams, WriteSettings
from reference_impl.orc.columns.present import ColumnReader
from reference_impl.orc.errors import InvalidValue
from reference_impl.orc.metadata.proto_enums import StreamKind
from reference_impl.orc.metadata.type_tree import TypeNode

__all__ = ["BinaryReader", "LengthPrefixedValues", "length_prefixed_streams", "write_binary"]

INT64_LIMIT = 1 << 63  # the lengths are added in int64


class LengthPrefixedValues:
    """Byte values cut from a contents stream by the lengths of the LENGTH stream."""

    def __init__(self, streams: ColumnStreams, contents: StreamKind) -> None:
        self._lengths = streams.integers(StreamKind.LENGTH, signed=False)
        self._contents = streams.cursor(contents)

    def read(self, count: int) -> list[bytes]:
        block, starts = self.read_block(count)
        return [block[start:end] for start, end in zip(starts[:-1], starts[1:], strict=True)]

    def read_block(self, count: int) -> tuple[bytes, list[int]]:
        """The contents of the next ``count`` values at once, and where each starts in it
        (``count + 1`` offsets, the last the end)."""
        lengths = self._lengths.read(count)
        if count and int(lengths.max()) * count >= INT64_LIMIT:  # an int64 sum could wrap
            starts = [0, *itertools.accumulate(lengths.tolist())]
        else:
            starts = np.concatenate(([0], np.cumsum(lengths, dtype=np.int64))).tolist()
        if starts[-1] > self._contents.remaining:
            for length in lengths.tolist():  # taken one by one: the error names the first too long
                self._contents.take(length)
        return self._contents.take(starts[-1]), starts


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
