"""The row group index the writer writes: one ROW_INDEX stream per column per stripe.

ORCv1.md, 'Row Group Index' (orc_proto.proto message RowIndexEntry, message RowIndex):
every ``rowIndexStride`` rows of a stripe start a row group, and each column's
RowIndex holds one RowIndexEntry per row group: the positions at which each of the
column's streams starts the row group, and the row group's ColumnStatistics
(column_statistics.py). A child column's row group is what its parent's row group
gives it (a null struct, list, map or union gives nothing).

Positions, per stream, concatenated in the order of the streams in 'Column Encodings'
(PRESENT only when the stripe has it; none for a dictionary's DICTIONARY_DATA and
LENGTH, "because dictionaries are accessed randomly"; row_index_positions.py, which the
reader's seek and check share):

* a stream of raw bytes (floats, string and binary contents, decimal varints): the
  byte offset;
* a Byte or Integer RLE stream: the byte offset of the run and the values of the run
  to skip; a Boolean RLE stream: the same for its bytes, then the bits to skip.

With a codec the byte offset becomes two numbers, "the start of the compression chunk
in the stream, followed by the number of decompressed bytes that need to be consumed".
The runs are those the encoders wrote (no run is cut at a row group), so a position
may fall inside a run. :class:`StreamColumn` finds positions in any stripe's decompressed
streams: this writer's, and any file's for row_index_check.py.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Mapping, Sequence, Sized
from dataclasses import dataclass
from itertools import accumulate
from typing import cast

from reference_impl.orc.column_statistics import column_statistics
from reference_impl.orc.columns.column_streams import V2_ENCODINGS
from reference_impl.orc.columns.float_columns import BITS_PER_BYTE, FLOAT_BITS
from reference_impl.orc.columns.registry import ColumnStreamsOut
from reference_impl.orc.encodings.byte_rle import ByteRleReader
from reference_impl.orc.encodings.int_rle_v1 import IntRleV1Reader
from reference_impl.orc.encodings.int_rle_v2 import IntRleV2Reader
from reference_impl.orc.encodings.run_reader import RunReader
from reference_impl.orc.lies import false_statistics
from reference_impl.orc.metadata.orc_proto import RowIndex, RowIndexEntry, encode
from reference_impl.orc.metadata.proto_enums import ColumnEncodingKind, CompressionKind, StreamKind, TypeKind
from reference_impl.orc.metadata.type_tree import TypeNode
from reference_impl.orc.row_index_positions import PositionUnit, positioned_streams
from reference_impl.orc.streams.compression import Chunk, read_chunks
from reference_impl.orc.streams.stripe import StreamOutput
from reference_impl.orc.varint import read_uvarint
from reference_impl.orc.writer_options import OrcWriterOptions

__all__ = ["ChunkMap", "RowGroup", "StreamColumn", "row_groups", "row_index_streams"]

S = StreamKind
T = TypeKind
# The DATA streams whose values are Signed Integer RLE (the others' are unsigned).
SIGNED_DATA = frozenset({T.SHORT, T.INT, T.LONG, T.DATE, T.TIMESTAMP, T.TIMESTAMP_INSTANT})
BYTE_RLE_DATA = frozenset({T.BOOLEAN, T.BYTE, T.UNION})  # Boolean RLE is Byte RLE underneath


# A locator walks one stream forward: called with ever larger value counts, it gives the
# position of value number ``count``, its byte offset (in the decompressed stream) first.
Locator = Callable[[int], list[int]]


def _runs(reader: RunReader) -> Locator:
    done = 0

    def locate(count: int) -> list[int]:
        nonlocal done
        reader.skip(count - done)
        done = count
        return list(reader.run_position)
    return locate


def _booleans(byte_reader: ByteRleReader) -> Locator:
    byte_runs = _runs(byte_reader)

    def locate(count: int) -> list[int]:
        whole_bytes, bits = divmod(count, BITS_PER_BYTE)
        return [*byte_runs(whole_bytes), bits]
    return locate


def _fixed_width(width: int) -> Locator:
    return lambda count: [count * width]


def _length_prefixed(lengths: RunReader) -> Locator:
    """The contents of the values so far are as long as their LENGTH says."""
    done = offset = 0

    def locate(count: int) -> list[int]:
        nonlocal done, offset
        offset += sum(lengths.read(count - done).tolist())
        done = count
        return [offset]
    return locate


def _varints(data: bytes) -> Locator:
    done = offset = 0

    def locate(count: int) -> list[int]:
        nonlocal done, offset
        for _ in range(count - done):
            _, offset = read_uvarint(data, offset)
        done = count
        return [offset]
    return locate


@dataclass(frozen=True)
class StreamColumn:
    """One column's decompressed streams in one stripe, as its positions are read from
    them (row_index_positions.py says which streams record one and what it counts)."""

    node: TypeNode
    encoding: ColumnEncodingKind
    streams: Mapping[StreamKind, bytes]

    def run_reader(self, kind: StreamKind, start: int = 0) -> ByteRleReader | IntRleV1Reader | IntRleV2Reader:
        """The Byte or Integer RLE reader of a RUN or BITS stream, from byte ``start``."""
        data = self.streams[kind]
        if kind == S.PRESENT or kind == S.DATA and self.node.kind in BYTE_RLE_DATA:
            return ByteRleReader(data, start=start)
        if kind == S.DATA:
            signed = self.node.kind in SIGNED_DATA
        else:  # LENGTH (unsigned); SECONDARY: a decimal's scales (signed), a timestamp's nanos
            signed = kind == S.SECONDARY and self.node.kind == T.DECIMAL
        if self.encoding in V2_ENCODINGS:
            return IntRleV2Reader(data, signed=signed, start=start)
        return IntRleV1Reader(data, signed=signed, start=start)

    def locators(self) -> list[tuple[StreamKind, Locator]]:
        """The column's positioned streams, each with its locator, in the entries' order."""
        found: list[tuple[StreamKind, Locator]] = []
        for kind, unit in positioned_streams(self.node, self.encoding, S.PRESENT in self.streams):
            if unit == PositionUnit.BITS:
                found.append((kind, _booleans(cast(ByteRleReader, self.run_reader(kind)))))
            elif unit == PositionUnit.RUN:
                found.append((kind, _runs(self.run_reader(kind))))
            else:
                found.append((kind, self._bytes_locator()))
        return found

    def _bytes_locator(self) -> Locator:
        """A DATA stream of raw bytes: fixed-width floats, decimal varints or contents."""
        if self.node.kind in FLOAT_BITS:
            return _fixed_width(FLOAT_BITS[self.node.kind] // BITS_PER_BYTE)
        if self.node.kind == T.DECIMAL:
            return _varints(self.streams[S.DATA])
        return _length_prefixed(self.run_reader(S.LENGTH))


@dataclass(frozen=True)
class ChunkMap:
    """Where a stream's compression chunks start: in the stored stream, and in its
    decompressed bytes; each list ends with the stream's end."""

    stored: list[int]
    decompressed: list[int]

    @classmethod
    def of(cls, chunks: Sequence[Chunk], stored_length: int, base: int = 0) -> ChunkMap:
        """The map of a stream of ``stored_length`` bytes whose chunks (read_chunks) were
        read at file offset ``base``."""
        return cls([chunk.offset - base for chunk in chunks] + [stored_length],
                   [0, *accumulate(len(chunk.data) for chunk in chunks)])

    def position(self, position: list[int]) -> list[int]:
        """``position`` with its byte offset as (chunk start, decompressed bytes into the
        chunk); an offset at a chunk's end is given as the next chunk's start (ORC C++ records
        the end of the chunk before: the same place, docs/orc-spec-notes.md note 17)."""
        chunk = bisect_right(self.decompressed, position[0]) - 1
        return [self.stored[chunk], position[0] - self.decompressed[chunk], *position[1:]]

    def decompressed_offset(self, chunk: int, inside: int) -> int | None:
        """The offset in the decompressed stream of ``inside`` bytes into the chunk that
        starts at ``chunk``; None unless a chunk starts there and holds that many bytes
        (the stream's end counts as the start of an empty chunk)."""
        if chunk not in self.stored:
            return None
        number = self.stored.index(chunk)
        start, end = self.decompressed[number], self.decompressed[min(number + 1, len(self.decompressed) - 1)]
        return start + inside if start + inside <= end else None


def _chunk_map(stored: bytes, options: OrcWriterOptions) -> ChunkMap:
    """The chunks of a stream as the writer compressed it."""
    chunks = read_chunks(stored, options.compression, options.compression_block_size, 0)
    return ChunkMap.of(chunks, len(stored))


def _value_starts(entries: list[object], starts: list[int]) -> list[int]:
    """How many of ``entries`` before each start are not null."""
    nonnull = [0, *accumulate(entry is not None for entry in entries)]
    return [nonnull[start] for start in starts]


def _child_starts(node: TypeNode, values: list[object], value_starts: list[int], child: int) -> list[int]:
    """Where each row group starts in child number ``child``: the entries the parent's
    non-null values before it gave that child."""
    given: list[int]
    if node.kind == T.STRUCT:
        given = [1] * len(values)
    elif node.kind == T.UNION:  # a (tag, value) pair
        given = [int(cast(tuple[int, object], value)[0] == child) for value in values]
    else:  # LIST, MAP: one entry per element
        given = [len(cast(Sized, value)) for value in values]
    totals = [0, *accumulate(given)]
    return [totals[start] for start in value_starts]


def _row_index(node: TypeNode, out: ColumnStreamsOut, written: Mapping[tuple[int, StreamKind], bytes],
               groups: list[RowGroup], options: OrcWriterOptions) -> RowIndex:
    column_id = node.column_id
    streams = {kind: data for column, kind, data in out.streams if column == column_id}
    locators = StreamColumn(node, out.encodings[column_id][0], streams).locators()
    compressed = options.compression != CompressionKind.NONE
    chunks = ({kind: _chunk_map(written[column_id, kind], options) for kind, _ in locators}
              if compressed else {})
    values = out.values[column_id]
    index = RowIndex()
    for group in groups:
        positions: list[int] = []
        for kind, locate in locators:
            position = locate(group.start if kind == S.PRESENT else group.value_start)
            positions += chunks[kind].position(position) if compressed else position
        group_values = values[group.value_start:group.value_end]
        statistics = column_statistics(node, group_values, len(group_values) != group.end - group.start,
                                       options.writer_timezone, options.calendar)
        if "row_index" in options.lies:
            statistics = false_statistics(statistics)
        index.entry.append(RowIndexEntry(positions=positions, statistics=statistics))
    return index


@dataclass(frozen=True)
class RowGroup:
    """One row group of one column: its entries (nulls included) ``start`` to ``end`` and
    its non-null values ``value_start`` to ``value_end``, in the column's stripe."""

    start: int
    end: int
    value_start: int
    value_end: int


def row_groups(root: TypeNode, out: ColumnStreamsOut, stride: int) -> dict[int, list[RowGroup]]:
    """By column id, the row groups of the stripe ``out`` wrote, one per ``stride`` rows of
    ``root`` (the root STRUCT, whose entries are the stripe's rows)."""
    starts = {root.column_id: list(range(0, len(out.entries[root.column_id]), stride))}
    groups = {}
    for node in root.walk():  # parents before children
        entries, values = out.entries[node.column_id], out.values[node.column_id]
        column_starts = starts[node.column_id]
        value_starts = _value_starts(entries, column_starts)
        for number, child in enumerate(node.children):
            starts[child.column_id] = _child_starts(node, values, value_starts, number)
        groups[node.column_id] = [RowGroup(*bounds) for bounds in zip(
            column_starts, [*column_starts[1:], len(entries)], value_starts, [*value_starts[1:], len(values)],
            strict=True)]
    return groups


def row_index_streams(root: TypeNode, out: ColumnStreamsOut, groups: Mapping[int, list[RowGroup]],
                      written: Sequence[StreamOutput], options: OrcWriterOptions) -> list[StreamOutput]:
    """The ROW_INDEX stream of every column of the stripe ``out`` wrote (``root`` is the
    root STRUCT), one entry per row group of ``groups`` (:func:`row_groups`); ``written``
    holds the stripe's data streams as the writer compressed them, for the chunk positions."""
    written_by = {(output.column, output.kind): output.data for output in written}
    return [StreamOutput(node.column_id, S.ROW_INDEX,
                         encode(_row_index(node, out, written_by, groups[node.column_id], options)))
            for node in root.walk()]
