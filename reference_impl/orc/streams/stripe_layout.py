"""Where a stripe's streams lie, found without decompressing any of them.

ORCv1.md, 'Stripes': "the streams field in the StripeFooter described below is the single
source of truth" for where each stream is: the streams lie back to back in the listed
order, each ``length`` bytes, from the stripe's offset; 'Stripe Footer' gives the
messages. A reader that seeks through the row index ('Row Group Index') needs the
places first: it decompresses a stream only from the compression chunk a position names.
The index streams (ROW_INDEX, BLOOM_FILTER, BLOOM_FILTER_UTF8) are read from here too.

Checks (naming the stripe and the byte offset): the stripe lies between the 3-byte
header and the file tail and its footer is one ColumnEncoding per column
(:class:`CorruptMetadata`); a
stream that reaches past the stripe's index and data areas is :class:`CorruptStream`.
streams/stripe.py's ``read_stripe`` makes the full set of checks, and the columns'
readers decompress the data streams as they read them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from reference_impl.common.mapped_file import FileBytes
from reference_impl.orc.errors import CorruptMetadata, CorruptStream
from reference_impl.orc.metadata.file_tail import DEFAULT_COMPRESSION_BLOCK_SIZE, FileTail
from reference_impl.orc.metadata.orc_proto import StripeFooter, StripeInformation, decode
from reference_impl.orc.metadata.proto_enums import CompressionKind, StreamKind
from reference_impl.orc.streams.compression import Chunk, ChunkedStream, decompress_stream, read_chunks
from reference_impl.orc.streams.stripe import HEADER_LENGTH

__all__ = ["Decompress", "StreamCodec", "StreamPlace", "read_index_streams", "read_stripe_footer",
           "stream_places"]

Decompress = Callable[[bytes, int], bytes]  # (stored bytes, their file offset) -> decompressed


@dataclass(frozen=True)
class StreamPlace:
    """One stream as the stripe footer lists it: its column, kind and stored bytes."""

    column: int
    kind: int
    offset: int  # absolute file offset of its first stored byte
    length: int

    def stored(self, data: FileBytes) -> bytes:
        return data[self.offset:self.offset + self.length]


@dataclass(frozen=True)
class StreamCodec:
    """The file's 'Compression' (PostScript.compression and compressionBlockSize)."""

    kind: CompressionKind
    block_size: int

    @classmethod
    def of(cls, tail: FileTail) -> StreamCodec:
        return cls(CompressionKind(tail.postscript.compression or CompressionKind.NONE),
                   tail.postscript.compression_block_size or DEFAULT_COMPRESSION_BLOCK_SIZE)

    @property
    def compressed(self) -> bool:
        return self.kind != CompressionKind.NONE

    def decompress(self, stored: bytes, offset: int) -> bytes:
        """A stream's (or a footer's) bytes, from its stored bytes at file ``offset``."""
        return decompress_stream(stored, self.kind, self.block_size, offset)

    def decompress_lazily(self, stored: memoryview, offset: int) -> memoryview | ChunkedStream:
        """A data stream as its reader takes it: without a codec its stored bytes (a view of the
        file), else decompressed a chunk at a time as it is read (:class:`ChunkedStream`)."""
        if not self.compressed:
            return stored
        return ChunkedStream(stored, self.kind, self.block_size, offset)

    def chunks(self, stored: bytes, offset: int) -> list[Chunk]:
        return read_chunks(stored, self.kind, self.block_size, offset)


def read_stripe_footer(data: FileBytes, tail: FileTail, number: int, decompress: Decompress) -> StripeFooter:
    """The StripeFooter of stripe ``number`` of the file ``data``."""
    information = tail.footer.stripes[number]
    start = information.offset or 0
    footer_start = start + (information.index_length or 0) + (information.data_length or 0)
    end = footer_start + (information.footer_length or 0)
    if start < HEADER_LENGTH or end > tail.encrypted_statistics_offset:
        raise CorruptMetadata(f"stripe {number} spans bytes {start} to {end}; stripes lie between the "
                              f"{HEADER_LENGTH}-byte header and the file tail at "
                              f"{tail.encrypted_statistics_offset}", start)
    footer = decode(StripeFooter, decompress(data[footer_start:end], footer_start), base_offset=footer_start)
    if len(footer.columns) != len(tail.footer.types):
        raise CorruptMetadata(f"stripe {number}'s footer has {len(footer.columns)} column encodings for "
                              f"{len(tail.footer.types)} columns", footer_start)
    return footer


def stream_places(information: StripeInformation, footer: StripeFooter, number: int) -> list[StreamPlace]:
    """Every stream of stripe ``number``, in the footer's order."""
    places: list[StreamPlace] = []
    offset = information.offset or 0
    end = offset + (information.index_length or 0) + (information.data_length or 0)
    for stream in footer.streams:
        kind = StreamKind.PRESENT if stream.kind is None else int(stream.kind)  # proto2's default
        place = StreamPlace(stream.column or 0, kind, offset, stream.length or 0)
        if place.offset + place.length > end:
            raise CorruptStream(f"stripe {number}, stream {len(places)} (kind {place.kind} of column "
                                f"{place.column}) ends at {place.offset + place.length}, past the stripe's "
                                f"data at {end}", place.offset)
        places.append(place)
        offset += place.length
    return places


def read_index_streams(data: FileBytes, places: list[StreamPlace], kind: StreamKind,
                       decompress: Decompress) -> dict[int, tuple[StreamPlace, bytes]]:
    """By column id, each ``kind`` stream's place and decompressed bytes."""
    return {place.column: (place, decompress(place.stored(data), place.offset))
            for place in places if place.kind == kind}
