"""Row Group Index positions: which of a column's streams record one, and what its numbers mean.

ORCv1.md, 'Row Group Index': "To record positions, each stream needs a sequence of
numbers. For uncompressed streams, the position is the byte offset of the RLE run's
start location followed by the number of values that need to be consumed from the run.
In compressed streams, the first number is the start of the compression chunk in the
stream, followed by the number of decompressed bytes that need to be consumed, and
finally the number of values consumed in the RLE." "For columns with multiple streams,
the sequences of positions in each stream are concatenated", in "the same [order] as
[the] Column Encodings section"; "there is not a position to record for the dictionary".

What the text leaves to the files (docs/orc-spec-notes.md, note 17), as every writer
measured does it (ORC Java, ORC C++ through pyarrow and pyorc, the reference):

* PRESENT comes first, and only when the stripe has a PRESENT stream for the column;
* a Boolean RLE stream (PRESENT, a BOOLEAN column's DATA) records its byte run's
  position and then the bits to skip in the next byte (:attr:`PositionUnit.BITS`);
* a stream of raw bytes (FLOAT and DOUBLE values, a DECIMAL's varints, a direct
  string's or binary's contents, a GEOMETRY's or GEOGRAPHY's WKB, whose DATA stream is
  binary contents by ORCv2.md, 'Geometry & Geography Columns') records a byte offset only
  (:attr:`PositionUnit.BYTES`);
* every other stream (Byte RLE, Integer RLE v1 and v2) a run and values
  (:attr:`PositionUnit.RUN`); a dictionary column's DICTIONARY_DATA and LENGTH none.

A ROW_INDEX stream holds one RowIndexEntry per row group of the stripe; every column,
the root STRUCT and the columns under compound ones included, has its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from reference_impl.common.mapped_file import FileBytes
from reference_impl.orc.columns.column_streams import DICTIONARY_ENCODINGS
from reference_impl.orc.columns.registry import column_kind
from reference_impl.orc.errors import CorruptMetadata, CorruptStream
from reference_impl.orc.metadata.orc_proto import RowIndex, RowIndexEntry, decode
from reference_impl.orc.metadata.proto_enums import ColumnEncodingKind, StreamKind, TypeKind
from reference_impl.orc.metadata.type_tree import TypeNode
from reference_impl.orc.streams.stripe_layout import Decompress, StreamPlace, read_index_streams

__all__ = ["PositionUnit", "StreamPosition", "positioned_streams", "read_row_indexes", "row_group_count",
           "split_positions"]

S = StreamKind
T = TypeKind
# 'Row Group Index': "there is not a position to record for the dictionary".
DICTIONARY_STREAMS = frozenset({S.DICTIONARY_DATA, S.LENGTH})
RAW_DATA_KINDS = frozenset({T.FLOAT, T.DOUBLE, T.DECIMAL})
# DATA is the values' bytes
CONTENTS_KINDS = frozenset({T.STRING, T.VARCHAR, T.CHAR, T.BINARY, T.GEOMETRY, T.GEOGRAPHY})
BITS_PER_BYTE = 8
CHUNK_NUMBERS = 1  # a codec turns the byte offset into (chunk start, bytes into the chunk)


class PositionUnit(IntEnum):
    """What a stream's position counts; the value is how many numbers it has without a codec."""

    BYTES = 1  # a byte offset
    RUN = 2  # the byte offset of a run, values of the run to skip
    BITS = 3  # the byte offset of a Byte RLE run, bytes of the run to skip, bits to skip

    def width(self, compressed: bool) -> int:
        return self.value + (CHUNK_NUMBERS if compressed else 0)


def _unit(node: TypeNode, kind: StreamKind, dictionary: bool) -> PositionUnit:
    if kind == S.PRESENT or (kind == S.DATA and node.kind == T.BOOLEAN):
        return PositionUnit.BITS
    if kind == S.DATA and (node.kind in RAW_DATA_KINDS or node.kind in CONTENTS_KINDS and not dictionary):
        return PositionUnit.BYTES
    return PositionUnit.RUN


def positioned_streams(node: TypeNode, encoding: ColumnEncodingKind | int,
                       has_present: bool) -> list[tuple[StreamKind, PositionUnit]]:
    """The streams of ``node``'s column that record a position, in the order of its entries."""
    known = encoding in ColumnEncodingKind._value2member_map_
    streams = column_kind(node).streams.get(ColumnEncodingKind(encoding)) if known else None
    if streams is None:
        raise CorruptMetadata(f"{node.describe()}: a {node.kind.name} column has no encoding {encoding}")
    dictionary = encoding in DICTIONARY_ENCODINGS
    return [(kind, _unit(node, kind, dictionary)) for kind in streams
            if (kind != S.PRESENT or has_present) and not (dictionary and kind in DICTIONARY_STREAMS)]


@dataclass(frozen=True)
class StreamPosition:
    """One stream's part of a RowIndexEntry's positions."""

    kind: StreamKind
    unit: PositionUnit
    numbers: tuple[int, ...]  # as recorded
    compressed: bool

    @property
    def chunk(self) -> int:
        """The compression chunk's offset in the stored stream (0 without a codec)."""
        return self.numbers[0] if self.compressed else 0

    @property
    def byte_offset(self) -> int:
        """Bytes into the decompressed chunk (into the stream, without a codec)."""
        return self.numbers[CHUNK_NUMBERS if self.compressed else 0]

    @property
    def values(self) -> int:
        """What to pass over from ``byte_offset`` on: values of the run (bits, for BITS)."""
        counts = self.numbers[CHUNK_NUMBERS + 1 if self.compressed else 1:]
        if self.unit == PositionUnit.BITS:
            return counts[0] * BITS_PER_BYTE + counts[1]
        return counts[0] if counts else 0

    def describe(self) -> str:
        where = f"chunk at byte {self.chunk}, {self.byte_offset} bytes in" if self.compressed \
            else f"byte {self.byte_offset}"
        counts = self.numbers[CHUNK_NUMBERS + 1 if self.compressed else 1:]
        if self.unit == PositionUnit.RUN:
            return f"{where}, {counts[0]} values into the run"
        if self.unit == PositionUnit.BITS:
            return f"{where}, {counts[0]} bytes into the run and {counts[1]} bits"
        return where


def split_positions(entry: RowIndexEntry, layout: list[tuple[StreamKind, PositionUnit]], compressed: bool,
                    where: str, offset: int) -> dict[StreamKind, StreamPosition]:
    """Each stream's position in ``entry``; CorruptStream (at file ``offset``) unless the
    entry has exactly the numbers ``layout`` needs."""
    numbers = list(entry.positions)
    needed = sum(unit.width(compressed) for _, unit in layout)
    if len(numbers) != needed:
        raise CorruptStream(f"{where}: {len(numbers)} position numbers; the column's streams "
                            f"{[kind.name for kind, _ in layout]} need {needed}", offset)
    found, at = {}, 0
    for kind, unit in layout:
        width = unit.width(compressed)
        found[kind] = StreamPosition(kind, unit, tuple(numbers[at:at + width]), compressed)
        at += width
    return found


def read_row_indexes(data: FileBytes, places: list[StreamPlace],
                     decompress: Decompress) -> dict[int, RowIndex]:
    """By column id, the ROW_INDEX of each column of a stripe that has one."""
    return {column: decode(RowIndex, stream, base_offset=place.offset)
            for column, (place, stream) in read_index_streams(data, places, S.ROW_INDEX, decompress).items()}


def row_group_count(rows: int, stride: int) -> int:
    """'Row Group Index': an entry for each row group, one every ``stride`` rows."""
    return -(-rows // stride)
