"""Compression chunks (ORCv1.md, 'Compression').

With a codec, a stream (and the Footer and Metadata) is a sequence of chunks, each a
3-byte little-endian header "(compressedLength * 2 + isOriginal)" and that many bytes:
compressed, or the original bytes when compressing did not make them smaller. Each
chunk is compressed on its own, and "no chunk will expand to more than the compression
chunk size" (the PostScript's compressionBlockSize). Without a codec (NONE) there are no
headers: the stream is its bytes.

The codecs (orc_proto.proto ``CompressionKind``) are the libraries', through the neutral
floor's size-capped raw codecs (``reference_impl/common/raw_codecs.py``, which Parquet's
pages use too); the chunk framing is this module's:

=======  =========================================  ==================================
kind     chunk body                                 library
=======  =========================================  ==================================
ZLIB     raw deflate (no zlib header or checksum)   zlib, window bits -15
SNAPPY   a raw Snappy block                         cramjam
LZO      an LZO1X block                             lzallright
LZ4      a raw LZ4 block (not the frame format)     lz4.block
ZSTD     a Zstandard frame                          cramjam (it decompresses into a
                                                    fixed buffer and rejects a
                                                    truncated frame)
BROTLI   a Brotli stream                            brotli
=======  =========================================  ==================================

Bad input (docs/architecture.md, 'Bad input'): a header that runs past the stream, an
original chunk larger than the block size, a chunk that decompresses to more than the
block size, and any codec error are :class:`DecompressionFailed` with the chunk header's
file offset. Output buffers are never larger than the block size, nor than the chunk's
bytes could expand to, so a lying header allocates nothing. An unknown kind number is
:class:`UnsupportedFeature`.

A stream may also be left to its reader (:class:`ChunkedStream`): the readers take its
chunks in turn as they move through it (encodings/run_reader.py, columns/column_streams.py),
so that a reader need not hold a compressed stream whole beside its values.

The decoded budget (``reference_impl/common/decoded_budget.py``; docs/architecture.md,
'Memory budget'): neither the block size (any uint64 the PostScript says) nor the number
of chunks of a stream is bounded by the format, so each chunk is decompressed with at
most the room left in the budget of the stripe being read (a stream read alone is its
own unit) as its cap, and charged what it gave; a chunk the room cannot hold is
:class:`DecodedBudgetExceeded` at its header's offset.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Final

import numpy as np

from reference_impl.common import raw_codecs as raw
from reference_impl.common.decoded_budget import budget_unit, charge, room
from reference_impl.orc.errors import (
    CorruptMetadata,
    DecodedBudgetExceeded,
    DecompressionFailed,
    UnsupportedFeature,
)
from reference_impl.orc.metadata.proto_enums import CompressionKind

__all__ = ["Chunk", "ChunkedStream", "compress_stream", "decompress_stream", "decompressed_in_place",
           "read_chunks"]

HEADER_BYTES = 3
HEADER_BYTE_ORDER: Final = "little"
ORIGINAL_FLAG = 1  # the header's low bit
RAW_DEFLATE_WBITS = -zlib.MAX_WBITS  # negative: no zlib header nor trailer
# Compression levels: each library's default, except Brotli's (11 is very slow; ORC's
# C++ writer and Arrow use lower qualities by default).
ZLIB_LEVEL = zlib.Z_DEFAULT_COMPRESSION
ZSTD_LEVEL = 3
BROTLI_QUALITY = 8
GROWTH = 1.25  # a stream's buffer grows by this factor at least: few reallocations, little room over


@dataclass(frozen=True)
class Chunk:
    offset: int  # file offset of the chunk's header (of the stream, without a codec)
    original: bool
    data: bytes  # decompressed bytes


def read_chunks(data: bytes | memoryview, kind: CompressionKind | int, block_size: int,
                offset: int) -> list[Chunk]:
    """The chunks of a stream whose first byte is at file ``offset``."""
    kind = _known_kind(kind)
    if kind is CompressionKind.NONE:
        return [Chunk(offset, True, bytes(data))] if len(data) else []
    return list(_decompressed_chunks(data, kind, block_size, offset))


def decompress_stream(data: bytes | memoryview, kind: CompressionKind | int, block_size: int,
                      offset: int) -> bytes:
    """The stream's bytes, its chunks decompressed and joined."""
    return b"".join(chunk.data for chunk in read_chunks(data, kind, block_size, offset))


def decompressed_in_place(data: memoryview, kind: CompressionKind | int, block_size: int,
                          offset: int) -> bytes | memoryview:
    """:func:`decompress_stream` with no second copy of the stream: without a codec,
    ``data`` itself (a view of the file stays one); else each chunk decompressed onto the
    end of one buffer, viewed read-only (the chunks are not held beside their join), which
    grows by GROWTH and is cut to the stream's size at the end."""
    kind = _known_kind(kind)
    if kind is CompressionKind.NONE:
        return data
    joined = np.empty(0, dtype=np.uint8)
    size = 0
    for chunk in _decompressed_chunks(data, kind, block_size, offset):
        end = size + len(chunk.data)
        if end > len(joined):  # grown in place where the allocator can (realloc), never past the budget
            joined.resize(max(end, min(int(len(joined) * GROWTH), end + room())), refcheck=False)
        joined[size:end] = np.frombuffer(chunk.data, dtype=np.uint8)
        size = end
    joined.resize(size, refcheck=False)  # no room left over beside the stream while it is read
    joined.flags.writeable = False
    return joined.data


@dataclass(frozen=True)
class ChunkedStream:
    """A compressed stream decompressed a chunk at a time as its reader moves through it
    (:meth:`chunks`), so that no more than a window of it is held beside its values."""

    stored: memoryview  # the stream's stored bytes, chunk headers included
    kind: CompressionKind
    block_size: int
    offset: int  # the file offset of stored[0]

    def chunks(self) -> Iterator[bytes]:
        """Each chunk's decompressed bytes in turn, charged to the decoded budget's open unit."""
        return (chunk.data for chunk in _decompressed_chunks(self.stored, self.kind, self.block_size,
                                                             self.offset))

    def whole(self) -> bytes | memoryview:
        """All its bytes at once (:func:`decompressed_in_place`)."""
        return decompressed_in_place(self.stored, self.kind, self.block_size, self.offset)

    def body_bytes(self) -> int:
        """Its chunks' stored bodies, from their headers alone: what an original chunk holds,
        and less than a compressed one gives when it is smaller than its original (as
        writers store it)."""
        pos, total = 0, 0
        while pos < len(self.stored):
            length, _ = _header(self.stored, pos, self.offset)
            total += length
            pos += HEADER_BYTES + length
        return total


def _decompressed_chunks(data: bytes | memoryview, kind: CompressionKind, block_size: int,
                         offset: int) -> Iterator[Chunk]:
    """The chunks of a stream of codec ``kind`` in turn, the stream one unit of the
    decoded budget."""
    if block_size < 1:
        raise CorruptMetadata(f"a {kind.name} file needs a compression block size, found {block_size}")
    pos = 0
    with budget_unit(f"the stream at byte {offset}"):
        while pos < len(data):
            chunk, pos = _read_chunk(data, pos, kind, block_size, offset)
            yield chunk


def compress_stream(data: bytes, kind: CompressionKind | int, block_size: int, *,
                    keep_original: bool = False) -> bytes:
    """Chunks of at most ``block_size`` bytes; a chunk is stored original when compressing
    does not make it smaller (ORC's Java writer), or always with ``keep_original``."""
    kind = _known_kind(kind)
    if kind is CompressionKind.NONE:
        return bytes(data)
    if block_size < 1:
        raise ValueError(f"the compression block size must be positive, not {block_size}")
    out = bytearray()
    for start in range(0, len(data), block_size):
        piece = bytes(data[start:start + block_size])
        body = piece if keep_original else _COMPRESSORS[kind](piece)
        original = len(body) >= len(piece)
        if original:
            body = piece
        out += (len(body) << 1 | original).to_bytes(HEADER_BYTES, HEADER_BYTE_ORDER) + body
    return bytes(out)


def _known_kind(kind: CompressionKind | int) -> CompressionKind:
    try:
        return CompressionKind(kind)
    except ValueError:
        raise UnsupportedFeature(f"compression kind {kind} is not one of orc_proto.proto's") from None


def _header(data: bytes | memoryview, pos: int, offset: int) -> tuple[int, bool]:
    """(body length, is original) of the chunk header at ``data[pos:]``."""
    if pos + HEADER_BYTES > len(data):
        raise DecompressionFailed(f"a {HEADER_BYTES}-byte chunk header is cut off after "
                                  f"{len(data) - pos} bytes", offset + pos)
    value = int.from_bytes(data[pos:pos + HEADER_BYTES], HEADER_BYTE_ORDER)
    length = value >> 1
    if pos + HEADER_BYTES + length > len(data):
        raise DecompressionFailed(f"a chunk of {length} bytes runs past the stream's "
                                  f"{len(data) - pos - HEADER_BYTES} remaining bytes", offset + pos)
    return length, bool(value & ORIGINAL_FLAG)


def _read_chunk(data: bytes | memoryview, pos: int, kind: CompressionKind, block_size: int,
                offset: int) -> tuple[Chunk, int]:
    """The chunk at ``data[pos:]`` and the position after it."""
    length, original = _header(data, pos, offset)
    end = pos + HEADER_BYTES + length
    body = bytes(data[pos + HEADER_BYTES:end])
    if original:
        if length > block_size:
            raise DecompressionFailed(f"an original chunk of {length} bytes exceeds the "
                                      f"compression block size {block_size}", offset + pos)
        return Chunk(offset + pos, True, body), end
    what = f"{kind.name} chunk of {length} bytes"
    cap = min(block_size, room())
    try:
        out = _DECOMPRESSORS[kind](body, cap)
    except raw.OutputTooLarge as error:
        if cap < block_size:  # the budget, not the block size, was the cap
            charge(cap + 1, what=f"{what} (it decompresses to more than the {cap} bytes left)",
                   error=DecodedBudgetExceeded, offset=offset + pos)
        raise DecompressionFailed(f"{what} does not decompress (block size {block_size}): {error}",
                                  offset + pos) from error
    except Exception as error:  # every library reports corrupt input its own way
        raise DecompressionFailed(f"{what} does not decompress (block size {block_size}): {error}",
                                  offset + pos) from error
    charge(len(out), what=what, error=DecodedBudgetExceeded, offset=offset + pos)
    return Chunk(offset + pos, False, out), end


def _raw_deflate(data: bytes) -> bytes:
    return raw.deflate_compress(data, ZLIB_LEVEL, RAW_DEFLATE_WBITS)


def _raw_inflate(body: bytes, limit: int) -> bytes:
    out, unused = raw.inflate(body, limit, RAW_DEFLATE_WBITS)
    if unused:
        raise raw.CodecError(f"{len(unused)} bytes follow the deflate stream")
    return out


_COMPRESSORS: dict[CompressionKind, Callable[[bytes], bytes]] = {
    CompressionKind.ZLIB: _raw_deflate,
    CompressionKind.SNAPPY: raw.snappy_compress,
    CompressionKind.LZO: raw.lzo_compress,
    CompressionKind.LZ4: raw.lz4_block_compress,
    CompressionKind.ZSTD: lambda data: raw.zstd_compress(data, ZSTD_LEVEL),
    CompressionKind.BROTLI: lambda data: raw.brotli_compress(data, BROTLI_QUALITY),
}
_DECOMPRESSORS: dict[CompressionKind, Callable[[bytes, int], bytes]] = {
    CompressionKind.ZLIB: _raw_inflate,
    CompressionKind.SNAPPY: raw.snappy_decompress,
    CompressionKind.LZO: raw.lzo_decompress,
    CompressionKind.LZ4: raw.lz4_block_decompress,
    CompressionKind.ZSTD: raw.zstd_decompress,
    CompressionKind.BROTLI: raw.brotli_decompress,
}
