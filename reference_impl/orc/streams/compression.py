"""Compression chunks (ORCv1.md, 'Compression').

With a codec, a stream (and the Footer and Metadata) is a sequence of chunks, each a
3-byte little-endian header "(compressedLength * 2 + isOriginal)" and that many bytes:
compressed, or the original bytes when compressing did not make them smaller. Each
chunk is compressed on its own, and "no chunk will expand to more than the compression
chunk size" (the PostScript's compressionBlockSize). Without a codec (NONE) there are no
headers: the stream is its bytes.

The codecs (orc_proto.proto ``CompressionKind``) are the libraries'; the framing and the
bounds are ours:

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
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

import brotli
import cramjam
import lz4.block
import lzallright

from reference_impl.orc.errors import CorruptMetadata, DecompressionFailed, UnsupportedFeature
from reference_impl.orc.metadata.proto_enums import CompressionKind
from reference_impl.orc.varint import read_uvarint

__all__ = ["Chunk", "compress_stream", "decompress_stream", "read_chunks"]

HEADER_BYTES = 3
HEADER_BYTE_ORDER: Final = "little"
ORIGINAL_FLAG = 1  # the header's low bit
RAW_DEFLATE_WBITS = -zlib.MAX_WBITS  # negative: no zlib header nor trailer
# Compression levels: each library's default, except Brotli's (11 is very slow; ORC's
# C++ writer and Arrow use lower qualities by default).
ZLIB_LEVEL = zlib.Z_DEFAULT_COMPRESSION
ZSTD_LEVEL = 3
BROTLI_QUALITY = 8
# The most output one compressed byte can yield, per format: a buffer sized by the block
# size is first capped by what the chunk's bytes could fill.
LZ4_MAX_EXPANSION = 255  # each extra match-length byte adds up to 255 bytes
LZO_MAX_EXPANSION = 255  # likewise
ZSTD_MAX_EXPANSION = 128 * 1024 // 4  # a 4-byte RLE block regenerates up to 128 KiB


@dataclass(frozen=True)
class Chunk:
    offset: int  # file offset of the chunk's header (of the stream, without a codec)
    original: bool
    data: bytes  # decompressed bytes


class _CodecError(Exception):
    """A chunk body the codec rejects; read_chunks adds the codec name and offset."""


def read_chunks(data: bytes | memoryview, kind: CompressionKind | int, block_size: int,
                offset: int) -> list[Chunk]:
    """The chunks of a stream whose first byte is at file ``offset``."""
    kind = _known_kind(kind)
    if kind is CompressionKind.NONE:
        return [Chunk(offset, True, bytes(data))] if len(data) else []
    if block_size < 1:
        raise CorruptMetadata(f"a {kind.name} file needs a compression block size, found {block_size}")
    chunks = []
    pos = 0
    while pos < len(data):
        chunk, pos = _read_chunk(data, pos, kind, block_size, offset)
        chunks.append(chunk)
    return chunks


def decompress_stream(data: bytes | memoryview, kind: CompressionKind | int, block_size: int,
                      offset: int) -> bytes:
    """The stream's bytes, its chunks decompressed and joined."""
    return b"".join(chunk.data for chunk in read_chunks(data, kind, block_size, offset))


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
    try:
        out = _DECOMPRESSORS[kind](body, block_size)
    except Exception as error:  # every library reports corrupt input its own way
        raise DecompressionFailed(f"{kind.name} chunk of {length} bytes does not decompress "
                                  f"(block size {block_size}): {error}", offset + pos) from error
    return Chunk(offset + pos, False, out), end


def _too_large(limit: int) -> _CodecError:
    return _CodecError(f"it expands past {limit} bytes")


# ---------------------------------------------------------------------------
# The codecs: compress one chunk; decompress one chunk body to at most ``limit`` bytes
# ---------------------------------------------------------------------------


def _zlib_compress(data: bytes) -> bytes:
    compressor = zlib.compressobj(ZLIB_LEVEL, zlib.DEFLATED, RAW_DEFLATE_WBITS)
    return compressor.compress(data) + compressor.flush()


def _zlib_decompress(body: bytes, limit: int) -> bytes:
    inflater = zlib.decompressobj(RAW_DEFLATE_WBITS)
    out = inflater.decompress(body, limit + 1)  # one byte more proves it too large
    if len(out) > limit:
        raise _too_large(limit)
    if not inflater.eof:
        raise _CodecError("the deflate stream is truncated")
    if inflater.unused_data:
        raise _CodecError(f"{len(inflater.unused_data)} bytes follow the deflate stream")
    return out


def _snappy_decompress(body: bytes, limit: int) -> bytes:
    # A raw Snappy block starts with its uncompressed length as a varint: check it
    # before allocating.
    stated, _ = read_uvarint(body, 0, error=_CodecError)
    if stated > limit:
        raise _too_large(limit)
    out = bytearray(stated)
    written = cramjam.snappy.decompress_raw_into(body, out)
    if written != stated:
        raise _CodecError(f"it gives {written} bytes, its preamble says {stated}")
    return bytes(out)


def _lzo_decompress(body: bytes, limit: int) -> bytes:
    # lzallright takes only a size hint, not a cap: LZO1X's own bound (each byte adds at
    # most 255 output bytes) caps the damage, and the result is checked at once.
    hint = min(limit, len(body) * LZO_MAX_EXPANSION)
    out = lzallright.LZOCompressor.decompress(body, output_size_hint=hint)
    if len(out) > limit:
        raise _too_large(limit)
    return bytes(out)


def _lz4_compress(data: bytes) -> bytes:
    return bytes(lz4.block.compress(data, store_size=False))


def _lz4_decompress(body: bytes, limit: int) -> bytes:
    # The block decompresses into a buffer of this size and fails if it needs more.
    capacity = max(1, min(limit, len(body) * LZ4_MAX_EXPANSION))
    return bytes(lz4.block.decompress(body, uncompressed_size=capacity))


def _zstd_compress(data: bytes) -> bytes:
    return bytes(cramjam.zstd.compress(data, level=ZSTD_LEVEL))


def _zstd_decompress(body: bytes, limit: int) -> bytes:
    out = bytearray(min(limit, len(body) * ZSTD_MAX_EXPANSION))
    written = cramjam.zstd.decompress_into(body, out)
    return bytes(out[:written])


def _brotli_compress(data: bytes) -> bytes:
    return bytes(brotli.compress(data, quality=BROTLI_QUALITY))


def _brotli_decompress(body: bytes, limit: int) -> bytes:
    decompressor = brotli.Decompressor()
    out = decompressor.process(body, output_buffer_limit=limit + 1)
    if len(out) > limit or not decompressor.can_accept_more_data():
        raise _too_large(limit)
    if not decompressor.is_finished():
        raise _CodecError("the Brotli stream is truncated")
    return bytes(out)


_COMPRESSORS: dict[CompressionKind, Callable[[bytes], bytes]] = {
    CompressionKind.ZLIB: _zlib_compress,
    CompressionKind.SNAPPY: lambda data: bytes(cramjam.snappy.compress_raw(data)),
    CompressionKind.LZO: lambda data: bytes(lzallright.LZOCompressor().compress(data)),
    CompressionKind.LZ4: _lz4_compress,
    CompressionKind.ZSTD: _zstd_compress,
    CompressionKind.BROTLI: _brotli_compress,
}
_DECOMPRESSORS: dict[CompressionKind, Callable[[bytes, int], bytes]] = {
    CompressionKind.ZLIB: _zlib_decompress,
    CompressionKind.SNAPPY: _snappy_decompress,
    CompressionKind.LZO: _lzo_decompress,
    CompressionKind.LZ4: _lz4_decompress,
    CompressionKind.ZSTD: _zstd_decompress,
    CompressionKind.BROTLI: _brotli_decompress,
}
