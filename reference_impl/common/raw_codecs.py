"""The raw compression formats both file formats use, each capped at a size.

Parquet (Compression.md, 'Codecs') and ORC (ORCv1.md, 'Compression') hand their bytes
to the same compression libraries, and frame the results their own way: Parquet one
page per call (with the Hadoop block framing under LZ4 and LZO, and several gzip
members or LZ4 frames allowed), ORC a stream of chunks, each behind a 3-byte header.
The framing stays with each format (``parquet/pages/compression.py``,
``orc/streams/compression.py``); what lies inside it is here, once:

==========  =================================================  ===================
format      what a block is                                    library
==========  =================================================  ===================
Snappy      a raw block (format_description.txt), no framing   cramjam
deflate     one RFC 1951 stream, raw or in a gzip member       zlib (standard)
LZ4         one raw block of the LZ4 block format              lz4.block
LZO         one LZO1X block                                    lzallright
Zstandard   one or more frames (RFC 8878)                      cramjam
Brotli      one stream (RFC 7932)                              brotli
==========  =================================================  ===================

Bad input (docs/architecture.md, 'Bad input'): every ``*_decompress(data, limit)``
returns at most ``limit`` bytes and never allocates more than ``limit``, nor more than
the compressed bytes could fill (each format's greatest expansion per input byte,
below), so a lying length field allocates nothing. The one exception is LZO, whose
library takes no cap: there LZO1X's own bound (255 bytes per input byte) holds.
Output past the limit, a truncated block and every error a library reports are a
:class:`CodecError`; each format turns it into its own documented error with the
file offset.
"""

from __future__ import annotations

import zlib

import brotli
import cramjam
import lz4.block
import lzallright

from reference_impl.common.varint import decode_uleb128

__all__ = [
    "CodecError",
    "OutputTooLarge",
    "brotli_compress",
    "brotli_decompress",
    "capacity",
    "deflate_compress",
    "inflate",
    "lz4_block_compress",
    "lz4_block_decompress",
    "lzo_compress",
    "lzo_decompress",
    "snappy_compress",
    "snappy_decompress",
    "snappy_stated_length",
    "too_large",
    "zstd_compress",
    "zstd_decompress",
]

# The most output one compressed byte can yield in each format.
# Snappy: a 3-byte copy element yields at most 64 bytes (measured: 21.3-fold).
SNAPPY_MAX_EXPANSION = 22
# LZ4 block: each extra match-length byte adds at most 255 (measured: 255-fold).
LZ4_MAX_EXPANSION = 255
# LZO1X: likewise 255 per extra match-length byte (measured: 186-fold for zeros).
LZO_MAX_EXPANSION = 255
# Zstandard: an RLE block, a 3-byte header and 1 byte, regenerates up to the
# 128 KiB Block_Maximum_Size (RFC 8878, 3.1.1.2; measured: 32342-fold).
ZSTD_MAX_EXPANSION = 128 * 1024 // 4

# Snappy's preamble: "the uncompressed length (up to a maximum of 2^32 - 1),
# stored as a little-endian varint" (google/snappy format_description.txt).
SNAPPY_LENGTH_BITS = 32
# How cramjam reports a zstd output that does not fit the buffer it was given.
ZSTD_BUFFER_FULL = "failed to write whole buffer"


class CodecError(Exception):
    """Bytes a codec cannot turn into at most ``limit`` bytes; ``position`` is relative
    to the start of the compressed bytes given."""

    def __init__(self, message: str, position: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.position = position


class OutputTooLarge(CodecError):
    """The bytes decompress to more than ``limit`` (what was decompressed is dropped)."""


def too_large(limit: int) -> CodecError:
    return OutputTooLarge(f"output exceeds the uncompressed size of {limit} bytes")


def capacity(limit: int, compressed: bytes | memoryview, max_expansion: int) -> int:
    """The output buffer for ``compressed``: ``limit``, unless it cannot fill that."""
    return min(limit, len(compressed) * max_expansion)


# ---- Snappy -----------------------------------------------------------------------------

def snappy_compress(data: bytes) -> bytes:
    return bytes(cramjam.snappy.compress_raw(data))


def snappy_stated_length(data: bytes) -> int:
    """The uncompressed length a raw Snappy block's preamble states."""
    stated, _ = decode_uleb128(data, 0, len(data), bits=SNAPPY_LENGTH_BITS, error=CodecError,
                               what="Snappy preamble")
    return stated


def snappy_decompress(data: bytes, limit: int) -> bytes:
    # The preamble states the output size: check it before allocating anything.
    stated = snappy_stated_length(data)
    if stated > limit:
        raise too_large(limit)
    out = bytearray(capacity(stated, data, SNAPPY_MAX_EXPANSION))
    written = cramjam.snappy.decompress_raw_into(data, out)
    if written != stated:
        raise CodecError(f"the Snappy block gives {written} bytes, its preamble states {stated}")
    return bytes(out)


# ---- deflate (raw, or inside a gzip member) ---------------------------------------------

def deflate_compress(data: bytes, level: int, wbits: int) -> bytes:
    compressor = zlib.compressobj(level, zlib.DEFLATED, wbits)
    return compressor.compress(data) + compressor.flush()


def inflate(data: bytes | memoryview, limit: int, wbits: int) -> tuple[bytes, bytes]:
    """One deflate stream (framed as ``wbits`` says: negative for raw, +16 for gzip) of
    at most ``limit`` bytes, and the bytes after it."""
    inflater = zlib.decompressobj(wbits)
    try:
        # One byte more than the limit proves the stream too large without inflating more.
        out = inflater.decompress(data, limit + 1)
    except zlib.error as exc:
        raise CodecError(f"deflate: {exc}") from exc
    if len(out) > limit:
        raise too_large(limit)
    if not inflater.eof:
        raise CodecError("the deflate stream is truncated")
    return out, inflater.unused_data


# ---- LZ4 block --------------------------------------------------------------------------

def lz4_block_compress(data: bytes, level: int | None = None) -> bytes:
    """One raw block, no size prefix; ``level`` is an LZ4 HC level (None: the fast mode)."""
    if level is None:
        return bytes(lz4.block.compress(data, mode="default", store_size=False))
    return bytes(lz4.block.compress(data, mode="high_compression", compression=level,
                                    store_size=False))


def lz4_block_decompress(data: bytes, limit: int) -> bytes:
    # The destination holds what the block may fill (lz4 refuses a zero-sized one, so one
    # byte then): a block that needs more fails inside LZ4.
    out = lz4.block.decompress(data, uncompressed_size=max(capacity(limit, data, LZ4_MAX_EXPANSION), 1))
    if len(out) > limit:
        raise too_large(limit)
    return bytes(out)


# ---- LZO1X ------------------------------------------------------------------------------

def lzo_compress(data: bytes) -> bytes:
    return bytes(lzallright.LZOCompressor().compress(data))


def lzo_decompress(data: bytes, limit: int) -> bytes:
    """lzallright has no output cap (``output_size_hint`` only preallocates): LZO1X's own
    bound (255 output bytes per input byte) caps the damage, and the size is checked at once."""
    out = lzallright.LZOCompressor.decompress(data, output_size_hint=capacity(limit, data, LZO_MAX_EXPANSION))
    if len(out) > limit:
        raise too_large(limit)
    return bytes(out)


# ---- Zstandard --------------------------------------------------------------------------

def zstd_compress(data: bytes, level: int) -> bytes:
    return bytes(cramjam.zstd.compress(data, level=level))


def zstd_decompress(data: bytes, limit: int) -> bytes:
    # libzstd decodes every frame into the fixed buffer and fails on a frame that does
    # not fit, a truncated frame or trailing bytes.
    out = bytearray(capacity(limit, data, ZSTD_MAX_EXPANSION))
    try:
        written = cramjam.zstd.decompress_into(data, out)
    except cramjam.DecompressionError as exc:
        if ZSTD_BUFFER_FULL in str(exc):
            raise too_large(limit) from exc
        raise
    return bytes(out[:written])


# ---- Brotli -----------------------------------------------------------------------------

def brotli_compress(data: bytes, quality: int) -> bytes:
    return bytes(brotli.compress(data, quality=quality))


def brotli_decompress(data: bytes, limit: int) -> bytes:
    decompressor = brotli.Decompressor()
    # The output buffer stops growing at limit + 1 bytes (brotli may overshoot by one
    # internal step); any output past the limit is a failure.
    out = decompressor.process(data, output_buffer_limit=limit + 1)
    if len(out) > limit or not decompressor.can_accept_more_data():
        raise too_large(limit)
    if not decompressor.is_finished():
        raise CodecError("the Brotli stream is truncated (no final meta-block)")
    return bytes(out)
