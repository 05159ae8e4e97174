"""Is every row index position true? Each checked against the stripe's full read.

ORCv1.md, 'Row Group Index': a ROW_INDEX stream "has an entry for each row group", each
giving "the position of each stream for the column" where the row group starts
(row_index_positions.py). For every stripe, column, row group and positioned stream,
:func:`check_row_index_positions` compares the recorded position with where the row
group's first value lies: found by reading the stripe in full (reader.py), counting each
column's entries and non-null values before the row group (a child column's from its
parent's values: row_group_index.row_groups), and walking the decompressed stream to that
value (row_group_index.StreamColumn, the locators the reference writer records with).

Both positions are compared as a reader that seeks with them would stand: the byte offset
in the decompressed stream (a chunk offset must be a chunk's start, and the bytes into it
no more than it holds), then, for a run, the run a reader reaches after skipping the
values (so "the end of a run" and "the start of the next" are the same place), and for
Boolean RLE the bits. Equal means that seeking there yields the row group's first value
and those after it. Structural checks come first: a ROW_INDEX stream for every column,
ceil(stripe rows / stride) entries ('Row Group Index': "an entry for each row group"),
and in each entry exactly the numbers the column's encoding and the codec need.

The results are plain records, passed and failed, for a caller to count or to turn into
findings. A file whose Footer.rowIndexStride is 0 has no row index: no results. A file
the reader refuses raises the reader's error.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from reference_impl.common.mapped_file import FileBytes
from reference_impl.orc.column_values import column_values
from reference_impl.orc.columns.registry import ColumnStreamsOut
from reference_impl.orc.errors import CorruptStream, OrcError
from reference_impl.orc.metadata.file_tail import FileTail, read_file_tail
from reference_impl.orc.metadata.orc_proto import RowIndex
from reference_impl.orc.metadata.proto_enums import ColumnEncodingKind, StreamKind
from reference_impl.orc.metadata.type_tree import TypeNode
from reference_impl.orc.reader import iter_stripes, root_of, root_values
from reference_impl.orc.row_group_index import ChunkMap, RowGroup, StreamColumn, row_groups
from reference_impl.orc.row_index_positions import (
    BITS_PER_BYTE,
    PositionUnit,
    StreamPosition,
    positioned_streams,
    read_row_indexes,
    row_group_count,
    split_positions,
)
from reference_impl.orc.streams.compression import decompress_stream
from reference_impl.orc.streams.stripe import INDEX_STREAM_KINDS, VIRTUAL_KINDS
from reference_impl.orc.streams.stripe_layout import (
    StreamCodec,
    StreamPlace,
    read_stripe_footer,
    stream_places,
)

__all__ = ["ENTRY_COUNT", "POSITION", "POSITION_COUNT", "ROW_INDEX_STREAM", "PositionCheck",
           "check_positions", "check_row_index_positions", "check_stripe_positions"]

S = StreamKind
ROW_INDEX_STREAM = "row index stream"  # the column has a ROW_INDEX stream
ENTRY_COUNT = "entry count"  # one entry per row group
POSITION_COUNT = "position count"  # the numbers the column's streams need
POSITION = "position"  # where the row group starts in one stream


@dataclass(frozen=True)
class PositionCheck:
    """One check of one stripe's row index: passed, or what was expected and what was found."""

    stripe: int
    column: int
    row_group: int | None  # None: a check of the column's whole ROW_INDEX
    stream: str | None  # the stream kind's name, for a POSITION check
    check: str
    passed: bool
    expected: str
    found: str


Source = bytes | bytearray | memoryview | str | os.PathLike[str]


def check_row_index_positions(source: Source) -> list[PositionCheck]:
    """Every check of the row index of ``source`` (its bytes, or a path)."""
    data = bytes(source) if isinstance(source, (bytes, bytearray, memoryview)) else Path(source).read_bytes()
    tail = read_file_tail(data, decompress_stream)
    if not tail.footer.row_index_stride:
        return []
    root = root_of(tail)
    return check_positions(data, tail, (root_values(root, rows) for rows in iter_stripes(data, tail)))


def check_positions(data: bytes, tail: FileTail, stripes: Iterable[Sequence[object]]) -> list[PositionCheck]:
    """The checks of :func:`check_row_index_positions` for the file ``data`` whose stripes
    hold the values of type 0 ``stripes`` (reader.py, ``root_values``; a caller that has
    read them already passes them, so the file is decoded once)."""
    return [check for number, rows in enumerate(stripes)
            for check in check_stripe_positions(data, tail, number, rows)]


def check_stripe_positions(data: FileBytes, tail: FileTail, number: int,
                           rows: Sequence[object]) -> list[PositionCheck]:
    """The checks of :func:`check_positions` for stripe ``number``, whose values of type 0
    are ``rows``."""
    stride = tail.footer.row_index_stride or 0
    if not stride:
        return []
    root, codec = root_of(tail), StreamCodec.of(tail)
    information = tail.footer.stripes[number]
    footer = read_stripe_footer(data, tail, number, codec.decompress)
    places = stream_places(information, footer, number)
    indexes = read_row_indexes(data, places, codec.decompress)
    groups = row_groups(root, _column_entries(root, rows), stride)
    results: list[PositionCheck] = []
    for node in root.walk():
        encoding = footer.columns[node.column_id].kind
        column = _StripeColumn(number, node, ColumnEncodingKind.DIRECT if encoding is None else encoding,
                               [place for place in places if place.column == node.column_id
                                and place.kind not in INDEX_STREAM_KINDS | VIRTUAL_KINDS], data, codec)
        results += column.check(indexes.get(node.column_id), groups[node.column_id], len(rows), stride)
    return results


def _column_entries(root: TypeNode, rows: Sequence[object]) -> ColumnStreamsOut:
    """Every column's entries (nulls included) and non-null values, as the stripe's rows
    give them (column_values.py)."""
    out = ColumnStreamsOut()
    for column_id, column in column_values(root, rows).items():
        out.entries[column_id], out.values[column_id] = column.entries, column.values
    return out


class _StripeColumn:
    """One column of one stripe: its streams, decompressed, and their chunks."""

    def __init__(self, stripe: int, node: TypeNode, encoding: ColumnEncodingKind | int,
                 places: list[StreamPlace], data: FileBytes, codec: StreamCodec) -> None:
        self.stripe = stripe
        self.node = node
        self.codec = codec
        stored = {StreamKind(place.kind): (place, place.stored(data)) for place in places
                  if place.kind in StreamKind._value2member_map_}
        self.layout = positioned_streams(node, encoding, S.PRESENT in stored)
        chunks = {kind: codec.chunks(raw, place.offset) for kind, (place, raw) in stored.items()}
        self.maps = {kind: ChunkMap.of(chunks[kind], len(stored[kind][1]), stored[kind][0].offset)
                     for kind in chunks}
        streams = {kind: b"".join(chunk.data for chunk in found) for kind, found in chunks.items()}
        # A stream the layout positions but the stripe leaves out is empty (writers omit empty streams).
        self.streams = StreamColumn(node, ColumnEncodingKind(encoding),
                                    {**{kind: b"" for kind, _ in self.layout}, **streams})

    def result(self, group: int | None, stream: str | None, check: str, expected: str,
               found: str) -> PositionCheck:
        return PositionCheck(self.stripe, self.node.column_id, group, stream, check, expected == found,
                             expected, found)

    def check(self, index: RowIndex | None, groups: list[RowGroup], rows: int,
              stride: int) -> list[PositionCheck]:
        if index is None:
            return [self.result(None, None, ROW_INDEX_STREAM, "a ROW_INDEX stream", "none")]
        results = [self.result(None, None, ENTRY_COUNT, f"{row_group_count(rows, stride)} entries",
                               f"{len(index.entry)} entries")]
        locators = self.streams.locators()
        needed = sum(unit.width(self.codec.compressed) for _, unit in self.layout)
        for number, (entry, group) in enumerate(zip(index.entry, groups, strict=False)):
            where = f"stripe {self.stripe}, {self.node.describe()}, row group {number}"
            try:
                positions = split_positions(entry, self.layout, self.codec.compressed, where, 0)
            except CorruptStream:
                results.append(self.result(number, None, POSITION_COUNT, f"{needed} numbers",
                                           f"{len(entry.positions)} numbers"))
                continue
            results.append(self.result(number, None, POSITION_COUNT, f"{needed} numbers",
                                       f"{len(entry.positions)} numbers"))
            for kind, locate in locators:
                expected = locate(group.start if kind == S.PRESENT else group.value_start)
                results.append(self.result(number, kind.name, POSITION, self._describe(kind, expected),
                                           self._found(positions[kind])))
        return results

    def _found(self, position: StreamPosition) -> str:
        """Where a reader seeking with ``position`` stands, or why it cannot."""
        kind = position.kind
        offset = position.byte_offset
        if position.compressed:
            found = self.maps[kind].decompressed_offset(position.chunk, position.byte_offset)
            if found is None:
                return (f"{list(position.numbers)}: no chunk of the stream starts at byte {position.chunk} "
                        f"and holds {position.byte_offset} bytes (chunks start at {self.maps[kind].stored})")
            offset = found
        if position.unit == PositionUnit.BYTES:
            return self._describe(kind, [offset])
        try:
            reader = self.streams.run_reader(kind, start=offset)
            if position.unit == PositionUnit.RUN:
                reader.skip(position.values)
                return self._describe(kind, list(reader.run_position))
            whole_bytes, bits = divmod(position.values, BITS_PER_BYTE)
            reader.skip(whole_bytes)
            return self._describe(kind, [*reader.run_position, bits])
        except OrcError as error:
            return f"{list(position.numbers)}: {error.message}"

    def _describe(self, kind: StreamKind, position: list[int]) -> str:
        """A position in the decompressed stream, and as the file would record it."""
        compressed = self.codec.compressed and kind in self.maps
        recorded = self.maps[kind].position(position) if compressed else position
        text = f"{recorded} (byte {position[0]} of the decompressed stream"
        if len(position) > 1:
            text += f", {position[1]} values into its run"
        if len(position) > 2:
            text += f", {position[2]} bits into the next byte"
        return text + ")"

