"""One stripe: its streams located from the StripeFooter, and the same written.

ORCv1.md, 'Stripes': a stripe is its index streams, then its data streams, then the
stripe footer; "the streams field in the StripeFooter described below is the single
source of truth" for where each stream is: the streams lie back to back in the listed
order, each ``length`` bytes, starting at the stripe's offset. 'Stripe Footer' gives the
messages; 'Compression': every stream and the StripeFooter are compressed with the
file's codec (chunked), the PostScript is not.

Checks (each names the stripe and the absolute byte offset):

* the stripe (its index, data and footer) lies after the 3-byte header and before the
  file tail (:class:`CorruptMetadata`);
* the streams tile the stripe's index and data areas exactly as the footer lists them:
  index streams one after the other from the stripe's first byte to the end of its
  index area, then data streams from there to the end of its data area; a stream of
  one area that begins or ends in the other, lengths that do not add up to
  index_length + data_length, a (column, kind) listed twice or a column id that is not
  one of the file's is :class:`CorruptStream`;
* there is one ColumnEncoding per column (:class:`CorruptMetadata`);
* the stripe's number_of_rows is no more than its streams can hold (see
  MAX_VALUES_PER_BYTE): no reader allocates for rows the bytes do not back
  (:class:`CorruptMetadata`).

After the columns have read the stripe's rows, :meth:`StripeStreams.check_consumed`
checks that every stream a column read was consumed exactly (ORCv1.md, 'Column
Encodings': the values of a stream are those of its column's rows, and nothing
else): bytes after the last value, or values left in the last run, are
:class:`CorruptStream`. The one padding the text allows is a Boolean RLE stream's
last byte ('Boolean Run Length Encoding': eight values to a byte), whose bits past
the last value are not read. A column under a UNION that holds values past those its
union's tags select is refused too: ORC C++ writes one for every null union, among the
others, so such a file has two readings (docs/orc-spec-notes.md, note 15).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from reference_impl.common.mapped_file import FileBytes
from reference_impl.orc.errors import CorruptMetadata, CorruptStream
from reference_impl.orc.metadata.orc_proto import (
    ColumnEncoding,
    Stream,
    StripeEncryptionVariant,
    StripeFooter,
    StripeInformation,
    decode,
    encode,
)
from reference_impl.orc.metadata.proto_enums import StreamKind
from reference_impl.orc.streams.compression import ChunkedStream
from reference_impl.orc.streams.stream_window import StreamData

__all__ = ["HEADER_LENGTH", "INDEX_STREAM_KINDS", "Consumable", "StreamBytes", "StreamOutput",
           "StripeStreams", "read_stripe", "write_stripe"]

HEADER_LENGTH = 3  # 'File Tail': the file starts with the magic "ORC"
# 'Stripes': "Index streams are always placed together in the beginning of the stripe."
INDEX_STREAM_KINDS = frozenset({StreamKind.ROW_INDEX, StreamKind.BLOOM_FILTER,
                                StreamKind.BLOOM_FILTER_UTF8, StreamKind.ENCRYPTED_INDEX})
# 'Stripe Footer': the space of the encryption variants' streams, kept as stored (encrypted;
# encryption/encryption_variants.py reads the variants' streams in it).
VIRTUAL_KINDS = frozenset({StreamKind.ENCRYPTED_INDEX, StreamKind.ENCRYPTED_DATA})

# No run length encoding stores more than this many values per byte (a Byte RLE run of
# 130 bytes in 2 bytes is 1040 booleans): the bound a list's or map's lengths must keep.
MAX_VALUES_PER_BYTE = 1024

# decompress_stream(data, kind, block_size, offset) and compress_stream(data, kind, block_size,
# keep_original): 'Compression', streams/compression.py. A data stream may be left to its
# reader instead (StreamCodec.decompress_lazily): a view of the file's bytes, or a
# ChunkedStream that the reader decompresses a chunk at a time.
Decompress = Callable[[bytes, int], bytes]
DecompressLazily = Callable[[memoryview, int], bytes | memoryview | ChunkedStream]
Compress = Callable[[bytes], bytes]


@dataclass(frozen=True)
class StreamBytes:
    """One stream of a stripe: where it lies in the file and its decompressed bytes."""

    column: int
    kind: int
    offset: int  # absolute file offset of its first (compressed) byte
    # a memoryview: read in place; a ChunkedStream: decompressed as read (read_stripe's ``lazily``)
    data: bytes | memoryview | ChunkedStream
    compressed: bool
    # Values to pass over before the first one is read: a row index position's values (or
    # bits) into the run that ``data`` starts with ('Row Group Index'); 0 from a stream's start.
    skip: int = 0

    def readable(self) -> StreamData:
        """What a reader takes: its bytes, or a stream left to it as its chunks in turn."""
        return self.data.chunks() if isinstance(self.data, ChunkedStream) else self.data

    def whole(self) -> bytes | memoryview:
        """Its decompressed bytes at once (a stream left to its reader is decompressed now)."""
        return self.data.whole() if isinstance(self.data, ChunkedStream) else self.data

    def file_offset(self, position: int | None) -> int:
        """The file offset of ``position`` in :attr:`data`: exact when the stream is stored
        uncompressed; the stream's start when it is compressed."""
        return self.offset + position if position is not None and not self.compressed else self.offset


StreamsByKey = dict[tuple[int, int], StreamBytes]  # by (column, kind)


class Consumable(Protocol):
    """A reader over one stream that knows what it has not consumed yet."""

    def leftover(self) -> tuple[str, int] | None:
        """None when every byte and value was consumed, else what is left and the position
        in the stream's (decompressed) bytes where it starts."""


class StripeStreams:
    """The located, decompressed streams and column encodings of one stripe."""

    def __init__(self, index: int, information: StripeInformation, footer: StripeFooter,
                 streams: StreamsByKey, index_streams: StreamsByKey) -> None:
        self.index = index
        self.information = information
        self.footer = footer
        self._streams = streams
        self.index_streams = index_streams
        self._opened: list[tuple[str, StreamBytes, Consumable]] = []
        self.values_read: dict[int, int] = {}  # non-null values read, by column id

    @property
    def value_budget(self) -> int:
        """More values than any column of this stripe can hold (see MAX_VALUES_PER_BYTE)."""
        return self.row_budget + (self.information.number_of_rows or 0)

    @property
    def row_budget(self) -> int:
        """More rows than this stripe's streams and footer can hold (see MAX_VALUES_PER_BYTE).
        A stream left to its reader counts its chunks' stored bodies (``body_bytes``): a
        compressed chunk gives more, so a count that exceeds this may still fit the
        decompressed sizes, which :meth:`decompress_whole` makes exact."""
        stored = sum(_least_length(stream.data) for stream in self._streams.values())
        return MAX_VALUES_PER_BYTE * (stored + (self.information.footer_length or 0) + 1)

    def decompress_whole(self) -> None:
        """Decompress every stream left to its reader (a ChunkedStream) at once."""
        for key, stream in self._streams.items():
            if isinstance(stream.data, ChunkedStream):
                self._streams[key] = replace(stream, data=stream.data.whole())

    def streams_of(self, column: int) -> list[StreamBytes]:
        """The streams the footer lists for ``column``, index streams included; in a stripe
        with encryption variants, the virtual ENCRYPTED_INDEX and ENCRYPTED_DATA are no
        column's (elsewhere, one is a stream no column has: CorruptStream when read)."""
        virtual = VIRTUAL_KINDS if self.footer.encryption else frozenset()
        return [stream for stream in (*self._streams.values(), *self.index_streams.values())
                if stream.column == column and stream.kind not in virtual]

    def count_values(self, column: int, count: int) -> None:
        self.values_read[column] = self.values_read.get(column, 0) + count

    def opened(self, where: str, stream: StreamBytes, reader: Consumable) -> None:
        """Record that a column reads ``stream`` with ``reader`` (for check_consumed)."""
        self._opened.append((where, stream, reader))

    def check_consumed(self) -> None:
        """CorruptStream unless every stream a column read was consumed exactly."""
        for where, stream, reader in self._opened:
            left = reader.leftover()
            if left is not None:
                what, position = left
                raise CorruptStream(f"{where}, {_kind_name(stream.kind)} stream: the stripe's "
                                    f"{self.information.number_of_rows or 0} rows leave {what} unread",
                                    stream.file_offset(position))

    @property
    def writer_timezone(self) -> str | None:
        return self.footer.writer_timezone

    def has(self, column: int, kind: StreamKind) -> bool:
        return (column, kind) in self._streams

    def stream(self, column: int, kind: StreamKind) -> StreamBytes:
        """The stream, or an empty one at the stripe's data area when it is absent (writers
        leave out streams with no bytes; a reader that needs values from it then finds none)."""
        found = self._streams.get((column, kind))
        if found is not None:
            return found
        data_start = (self.information.offset or 0) + (self.information.index_length or 0)
        return StreamBytes(column, kind, data_start, b"", compressed=False)

    def encoding(self, column: int) -> ColumnEncoding:
        return self.footer.columns[column]

    def virtual_stream(self, kind: StreamKind) -> StreamBytes | None:
        """The stripe's ENCRYPTED_INDEX or ENCRYPTED_DATA space, as stored."""
        found = [s for (_, k), s in (*self._streams.items(), *self.index_streams.items()) if k == kind]
        return found[0] if found else None

    def replace_columns(self, columns: Sequence[int], streams: StreamsByKey,
                        encodings: Sequence[ColumnEncoding]) -> None:
        """Read ``columns`` from ``streams`` with ``encodings`` (an encryption variant's,
        decrypted) instead of what the StripeFooter lists for them."""
        wanted = set(columns)
        for found in (self._streams, self.index_streams):
            for key in [key for key in found if key[0] in wanted]:
                del found[key]
        for key, stream in streams.items():
            (self.index_streams if key[1] in INDEX_STREAM_KINDS else self._streams)[key] = stream
        replaced = list(self.footer.columns)
        for column, encoding in zip(columns, encodings, strict=True):
            replaced[column] = encoding
        self.footer = replace(self.footer, columns=replaced)


def read_stripe(data: FileBytes, information: StripeInformation, index: int, column_count: int,
                tail_start: int, decompress: Decompress, compressed: bool,
                lazily: DecompressLazily | None = None, unread: frozenset[int] = frozenset()
                ) -> StripeStreams:
    """Stripe number ``index`` of ``data`` (the whole file), whose tail starts at ``tail_start``.
    The data streams are left to their readers by ``lazily`` when given (so they may view
    ``data``, which then stays open while they are held), else decompressed with
    ``decompress`` as the footer and the index streams are. Index streams of the kinds
    ``unread`` (which the caller does not read) are kept as stored, a view of ``data``."""
    where = f"stripe {index}"
    start, index_length, data_length, footer_length = _bounds(information, tail_start, where)
    footer_start = start + index_length + data_length
    footer = decode(StripeFooter, decompress(data[footer_start:footer_start + footer_length], footer_start),
                    base_offset=footer_start)
    if len(footer.columns) != column_count:
        raise CorruptMetadata(f"{where}'s footer has {len(footer.columns)} column encodings for "
                              f"{column_count} columns", footer_start)
    def copied(stored: memoryview, offset: int) -> bytes:
        return decompress(bytes(stored), offset)

    streams, index_streams = _locate(data, footer.streams, start, index_length, data_length, column_count,
                                     where, (lazily or copied, copied), compressed, unread)
    stripe = StripeStreams(index, information, footer, streams, index_streams)
    rows = information.number_of_rows or 0
    if rows > stripe.row_budget:  # perhaps by the stored sizes only: then by the decompressed ones
        stripe.decompress_whole()
        if rows > stripe.row_budget:
            raise CorruptMetadata(f"{where} claims {rows} rows; its streams and footer can hold at "
                                  f"most {stripe.row_budget}", start)
    return stripe


def _bounds(information: StripeInformation, tail_start: int, where: str) -> tuple[int, int, int, int]:
    start = information.offset or 0
    lengths = (information.index_length or 0, information.data_length or 0, information.footer_length or 0)
    end = start + sum(lengths)
    if start < HEADER_LENGTH or end > tail_start:
        raise CorruptMetadata(f"{where} spans bytes {start} to {end}; stripes lie between the "
                              f"{HEADER_LENGTH}-byte header and the file tail at {tail_start}", start)
    return (start, *lengths)


def _locate(data: FileBytes, listed: Sequence[Stream], start: int, index_length: int, data_length: int,
            column_count: int, where: str, decompressors: tuple[DecompressLazily, DecompressLazily],
            compressed: bool, unread: frozenset[int]) -> tuple[StreamsByKey, StreamsByKey]:
    """(data streams, index streams), each checked to lie in its area; ``decompressors``
    are those of the data and of the index streams, in that order (as ``found``); the
    ``unread`` index kinds are kept as stored, in place."""
    found: tuple[StreamsByKey, StreamsByKey] = ({}, {})
    view = memoryview(data)
    position = start
    data_start = start + index_length
    end = data_start + data_length
    for number, stream in enumerate(listed):
        kind, column, length = _kind_number(stream.kind), stream.column or 0, stream.length or 0
        what = f"{where}, stream {number} ({_kind_name(kind)} of column {column})"
        in_index = kind in INDEX_STREAM_KINDS
        area_start, area_end = (start, data_start) if in_index else (data_start, end)
        if position < area_start or position + length > area_end:
            raise CorruptStream(f"{what} spans bytes {position} to {position + length}; the stripe's "
                                f"{'index' if in_index else 'data'} area is bytes {area_start} to "
                                f"{area_end}", position)
        if column >= column_count:
            raise CorruptStream(f"{what}: the file has {column_count} columns", position)
        streams = found[in_index]
        if (column, kind) in streams:
            raise CorruptStream(f"{what} is listed twice", position)
        stored = view[position:position + length]
        streams[(column, kind)] = (
            StreamBytes(column, kind, position, bytes(stored), compressed=False) if kind in VIRTUAL_KINDS
            else StreamBytes(column, kind, position, stored, compressed=False) if in_index and kind in unread
            else StreamBytes(column, kind, position, decompressors[in_index](stored, position), compressed))
        position += length
    if position != end:
        raise CorruptStream(f"{where}'s streams add up to {position - start} bytes; index_length + "
                            f"data_length is {end - start}", start)
    data_streams, index_streams = found
    return data_streams, index_streams


def _least_length(data: bytes | memoryview | ChunkedStream) -> int:
    """A stream's length, or the least a stream left to its reader decompresses to."""
    return data.body_bytes() if isinstance(data, ChunkedStream) else len(data)


def _kind_number(kind: int | None) -> int:
    """Stream.kind; orc_proto.proto declares it optional, and 0 (PRESENT) is its default."""
    return int(kind) if kind is not None else StreamKind.PRESENT


def _kind_name(kind: int) -> str:
    return StreamKind(kind).name if kind in StreamKind._value2member_map_ else f"kind {kind}"


@dataclass(frozen=True)
class StreamOutput:
    """One stream to write: its column, kind and bytes."""

    column: int
    kind: StreamKind
    data: bytes


def write_stripe(outputs: Sequence[StreamOutput], encodings: Sequence[ColumnEncoding],
                 writer_timezone: str | None, offset: int, number_of_rows: int,
                 compress: Compress,
                 variants: Sequence[tuple[Sequence[StreamOutput], Sequence[ColumnEncoding]]] = ()
                 ) -> tuple[bytes, StripeInformation]:
    """The stripe's bytes (index streams, data streams, compressed footer) and its
    StripeInformation, for a stripe starting at file offset ``offset``. ``outputs`` hold
    the streams as written (compressed already: the row index needs their chunk
    offsets); ``compress`` compresses the StripeFooter. ``variants`` are the encryption
    variants' streams (encrypted already) and encodings: each area's unencrypted streams
    come first, then the variants' in turn under one virtual ENCRYPTED_INDEX or
    ENCRYPTED_DATA stream ('Stripes')."""
    listed: list[Stream] = []
    chunks: list[bytes] = []
    lengths = {}
    for in_index in (True, False):
        unencrypted = [o for o in outputs if _in_index(o) == in_index]
        encrypted = [o for streams, _ in variants for o in streams if _in_index(o) == in_index]
        listed += [Stream(kind=o.kind, column=o.column, length=len(o.data)) for o in unencrypted]
        chunks += [o.data for o in (*unencrypted, *encrypted)]
        hidden = sum(len(o.data) for o in encrypted)
        if hidden:
            listed.append(Stream(kind=StreamKind.ENCRYPTED_INDEX if in_index else StreamKind.ENCRYPTED_DATA,
                                 length=hidden))
        lengths[in_index] = sum(len(o.data) for o in (*unencrypted, *encrypted))
    described = [StripeEncryptionVariant(
        streams=[Stream(kind=o.kind, column=o.column, length=len(o.data))
                 for in_index in (True, False) for o in streams if _in_index(o) == in_index],
        encoding=list(variant_encodings)) for streams, variant_encodings in variants]
    footer = compress(encode(StripeFooter(streams=listed, columns=list(encodings),
                                          writer_timezone=writer_timezone, encryption=described)))
    body = b"".join(chunks)
    information = StripeInformation(offset=offset, index_length=lengths[True],
                                    data_length=lengths[False], footer_length=len(footer),
                                    number_of_rows=number_of_rows)
    return body + footer, information


def _in_index(output: StreamOutput) -> bool:
    return output.kind in INDEX_STREAM_KINDS
