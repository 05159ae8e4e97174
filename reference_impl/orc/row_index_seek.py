"""Reading a range of rows through the row index, without decoding what lies before it.

ORCv1.md, 'Row Group Index': the index streams "are only loaded when either predicate
push down is being used or the reader seeks to a particular row"; each RowIndexEntry
gives "the position of each stream for the column" at the start of its row group
(row_index_positions.py says what the numbers mean). 'Compression': a position's first
number is the start of a compression chunk, so a stream is decompressed from that chunk
on and nothing of it before.

:func:`read_row_range` reads rows ``start`` to ``start + count`` of a file. For each
stripe the range overlaps, it finds the row group holding the range's first row of that
stripe, starts every column's streams at that row group's positions (a column under a
STRUCT, LIST, MAP or UNION from its own entry for the same row group: the entries of a
row group start it in every column), decodes the rows of the row group before the range
and drops them, then reads the range. A dictionary's streams, which have no position,
are read whole. A stripe without a row index (Footer.rowIndexStride 0, or a column
without a ROW_INDEX stream) is read from its first row; :attr:`StripeSeek.row_group` is
then None.

The positions are trusted as a seeking reader trusts them: row_index_check.py tells
whether they lead where they should. A position outside its stream, or an entry with the
wrong count of numbers, is :class:`CorruptStream`. Row numbers in a column's error
messages count from the row group's first row.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from reference_impl.orc.columns.calendar import file_calendar
from reference_impl.orc.columns.registry import build_reader
from reference_impl.orc.errors import CorruptStream, InvalidValue, UnsupportedFeature
from reference_impl.orc.metadata.file_tail import FileTail, file_version, read_file_tail
from reference_impl.orc.metadata.orc_proto import RowIndex, StripeFooter
from reference_impl.orc.metadata.proto_enums import CalendarKind, ColumnEncodingKind, StreamKind
from reference_impl.orc.metadata.type_tree import TypeNode, from_types
from reference_impl.orc.row_index_positions import (
    StreamPosition,
    positioned_streams,
    read_row_indexes,
    split_positions,
)
from reference_impl.orc.streams.compression import decompress_stream
from reference_impl.orc.streams.stripe import INDEX_STREAM_KINDS, StreamBytes, StripeStreams
from reference_impl.orc.streams.stripe_layout import (
    StreamCodec,
    StreamPlace,
    read_stripe_footer,
    stream_places,
)

__all__ = ["RowRange", "StripeSeek", "read_row_range"]

OLDEST_VERSION = (0, 11)  # 'Postscript': files of version 0.11 are ORCv0.md's


@dataclass(frozen=True)
class StripeSeek:
    """How one stripe of the range was read."""

    stripe: int
    row_group: int | None  # the row group it started at; None: no row index, from row 0
    rows_dropped: int  # rows decoded between that start and the range's first row


@dataclass(frozen=True)
class RowRange:
    """Rows ``start`` on of a file, as read_orc's ``rows[start:start + count]`` gives them."""

    start: int
    rows: list[dict[str, object]]
    stripes: list[StripeSeek]

    @property
    def through_index(self) -> bool:
        """Every stripe was entered through its row index."""
        return all(seek.row_group is not None for seek in self.stripes)


@dataclass(frozen=True)
class _File:
    data: bytes
    tail: FileTail
    root: TypeNode
    codec: StreamCodec
    version: str
    calendar: CalendarKind | None


def read_row_range(source: bytes | bytearray | memoryview | str | os.PathLike[str], start: int,
                   count: int) -> RowRange:
    """Rows ``start`` to ``start + count`` (fewer at the file's end) of ``source`` (its bytes, or a path)."""
    if start < 0 or count < 0:
        raise ValueError(f"a row range starts at row 0 or later and counts 0 or more rows, not {start}, "
                         f"{count}")
    file = _open(source)
    rows: list[dict[str, object]] = []
    seeks = []
    first_row = 0
    end = start + count
    for number, information in enumerate(file.tail.footer.stripes):
        stripe_rows = information.number_of_rows or 0
        if first_row < end and start < first_row + stripe_rows:
            local_start = max(start - first_row, 0)
            seek, values = _read_stripe_range(file, number, local_start, min(end - first_row, stripe_rows))
            seeks.append(seek)
            rows += [_row(value, number, local_start + row) for row, value in enumerate(values)]
        first_row += stripe_rows
    return RowRange(start, rows, seeks)


def _open(source: bytes | bytearray | memoryview | str | os.PathLike[str]) -> _File:
    data = bytes(source) if isinstance(source, (bytes, bytearray, memoryview)) else Path(source).read_bytes()
    tail = read_file_tail(data, decompress_stream)
    if tail.footer.encryption is not None:
        raise UnsupportedFeature("the file has encrypted columns ('Column Encryption')", tail.footer_offset)
    return _File(data, tail, from_types(tail.footer.types, tail.footer_offset), StreamCodec.of(tail),
                 "0.11" if file_version(tail.postscript) == OLDEST_VERSION else "0.12",
                 file_calendar(tail.footer.calendar))


def _read_stripe_range(file: _File, number: int, local_start: int,
                       local_end: int) -> tuple[StripeSeek, list[object]]:
    """The values of the root column for rows ``local_start`` to ``local_end`` of stripe ``number``."""
    information = file.tail.footer.stripes[number]
    footer = read_stripe_footer(file.data, file.tail, number, file.codec.decompress)
    all_places = stream_places(information, footer, number)
    places = [place for place in all_places if place.kind not in INDEX_STREAM_KINDS]
    indexes = read_row_indexes(file.data, all_places, file.codec.decompress)
    stride = file.tail.footer.row_index_stride or 0
    columns = list(file.root.walk())
    if stride and all(node.column_id in indexes for node in columns):
        group = local_start // stride
        positions = _group_positions(file, number, footer, indexes, columns, group)
        streams = {(place.column, place.kind): _seek_stream(file, number, place, positions)
                   for place in places}
        group_start: int | None = group * stride
    else:
        streams = {(place.column, place.kind): _whole_stream(file, place) for place in places}
        group, group_start = None, None
    first = group_start or 0
    # The index streams were read above; the column readers need only the data streams.
    reader = build_reader(file.root, StripeStreams(number, information, footer, streams, index_streams={}),
                          file.version, file.calendar)
    reader.read(local_start - first)
    return StripeSeek(number, group, local_start - first), reader.read(local_end - local_start)


def _group_positions(file: _File, number: int, footer: StripeFooter, indexes: dict[int, RowIndex],
                     columns: list[TypeNode], group: int) -> dict[tuple[int, int], StreamPosition]:
    """By (column, stream kind), where row group ``group`` starts in each positioned stream."""
    present = {stream.column or 0 for stream in footer.streams
               if (stream.kind or StreamKind.PRESENT) == StreamKind.PRESENT}  # kind's default is PRESENT
    found: dict[tuple[int, int], StreamPosition] = {}
    for node in columns:
        where = f"stripe {number}, {node.describe()}, ROW_INDEX entry {group}"
        entries = indexes[node.column_id].entry
        if group >= len(entries):
            raise CorruptStream(f"{where}: the column's ROW_INDEX has {len(entries)} entries",
                                file.tail.footer.stripes[number].offset)
        encoding = footer.columns[node.column_id].kind
        layout = positioned_streams(node, ColumnEncodingKind.DIRECT if encoding is None else encoding,
                                    node.column_id in present)
        split = split_positions(entries[group], layout, file.codec.compressed, where,
                                file.tail.footer.stripes[number].offset or 0)
        found.update({(node.column_id, kind): position for kind, position in split.items()})
    return found


def _whole_stream(file: _File, place: StreamPlace) -> StreamBytes:
    return StreamBytes(place.column, place.kind, place.offset, file.codec.decompress(place.stored(file.data),
                                                                                      place.offset),
                       file.codec.compressed)


def _seek_stream(file: _File, number: int, place: StreamPlace,
                 positions: dict[tuple[int, int], StreamPosition]) -> StreamBytes:
    """The stream from its position on: decompressed from the chunk it names, cut at its
    byte offset, with its values (or bits) into the run left to skip."""
    position = positions.get((place.column, place.kind))
    if position is None:  # a dictionary's streams: read whole
        return _whole_stream(file, place)
    stored = place.stored(file.data)
    where = (f"stripe {number}, column {place.column}, {StreamKind(place.kind).name} stream ({place.length} "
             f"bytes at {place.offset}): the row index position {position.describe()}")
    if position.chunk > len(stored):
        raise CorruptStream(f"{where} lies past the stream's end", place.offset)
    chunk_offset = place.offset + position.chunk
    data = file.codec.decompress(stored[position.chunk:], chunk_offset) if file.codec.compressed \
        else stored
    if position.byte_offset > len(data):
        raise CorruptStream(f"{where} lies past the {len(data)} bytes from there", chunk_offset)
    start = chunk_offset if file.codec.compressed else place.offset + position.byte_offset
    return StreamBytes(place.column, place.kind, start, data[position.byte_offset:], file.codec.compressed,
                       position.values)


def _row(value: object, stripe: int, row: int) -> dict[str, object]:
    if not isinstance(value, dict):
        raise InvalidValue(f"stripe {stripe}, row {row}: the root struct is null")
    return value
