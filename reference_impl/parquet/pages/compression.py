"""Page compression: the codecs of ``CompressionCodec``.

Spec: Compression.md, 'Overview', 'Codecs';
parquet.thrift ``enum CompressionCodec``. "For all compression codecs except the
deprecated LZ4 codec, the raw data of a (data or dictionary) page is fed as-is to
the underlying compression library, without any additional framing or padding.
The information required for precise allocation of compressed and decompressed
buffers is written in the PageHeader struct."

So the framing is ours (the Hadoop block framing of LZ4 and LZO, the member and
frame loops of GZIP and LZ4 frames, the size checks) and each block is the neutral
floor's size-capped raw codec (``reference_impl/common/raw_codecs.py``, which ORC's
chunks use too): cramjam (SNAPPY, ZSTD), the standard library's zlib (GZIP), brotli,
lz4 (LZ4, LZ4_RAW) and lzallright (LZO).

Safety (docs/architecture.md, 'Bad input'): ``decompress`` never produces more than the
page's ``uncompressed_page_size``. Each codec decompresses into a buffer of that
size or through a streaming decompressor with that cap, so a decompression bomb
raises instead of allocating; the one exception is LZO (see ``_lzo_chunk``). The
result must be exactly ``uncompressed_size`` bytes. Before anything is decompressed,
that size is charged to the decoded budget of the row group being read
(``reference_impl/common/decoded_budget.py``; docs/architecture.md, 'Memory budget'):
a truthful header of a decompression bomb is :class:`DecodedBudgetExceeded`, and
nothing is allocated for it. Every failure, including any
exception a library raises, is a :class:`DecompressionFailed` carrying the file
offset; a codec this module cannot handle is :class:`UnsupportedFeature`.
"""

from __future__ import annotations

import gzip
import struct
import zlib
from collections.abc import Callable
from dataclasses import dataclass

import lz4.frame

from reference_impl.common import raw_codecs as raw
from reference_impl.common.decoded_budget import charge
from reference_impl.common.raw_codecs import LZ4_MAX_EXPANSION, CodecError, capacity, too_large
from reference_impl.parquet.errors import DecodedBudgetExceeded, DecompressionFailed, UnsupportedFeature
from reference_impl.parquet.metadata.parquet_thrift import CompressionCodec

__all__ = ["CODECS", "Codec", "compress", "decompress"]

# ---------------------------------------------------------------------------
# Named constants
# ---------------------------------------------------------------------------

# GZIP: "the GZIP format (not the closely-related 'zlib' or 'deflate' formats)
# defined by RFC 1952". zlib's window bits + 16 accepts and writes only the gzip
# header and trailer (zlib manual, inflateInit2/deflateInit2).
GZIP_WBITS = zlib.MAX_WBITS | 16
# zlib's Z_DEFAULT_COMPRESSION level.
GZIP_DEFAULT_LEVEL = 6
# Brotli's own default (11) is very slow; Arrow C++ uses 8 as "the best trade-off
# for Parquet workload" (kBrotliDefaultCompressionLevel).
BROTLI_DEFAULT_QUALITY = 8
# Zstandard's ZSTD_CLEVEL_DEFAULT.
ZSTD_DEFAULT_LEVEL = 3

# The Hadoop block framing (org.apache.hadoop.io.compress.BlockCompressorStream,
# used by parquet-java for LZ4 through Hadoop's Lz4Codec and for LZO through
# hadoop-lzo's LzoCodec): every length is a 4-byte big-endian integer.
HADOOP_INT = struct.Struct(">I")
# Hadoop's Lz4Codec buffer (io.compression.codec.lz4.buffersize, 256 KiB) less the
# worst-case LZ4 expansion it reserves (bufferSize / 255 + 16): the most
# uncompressed bytes one compressed chunk holds, so a Hadoop reader's buffers fit.
HADOOP_LZ4_BUFFER_SIZE = 256 * 1024
HADOOP_LZ4_MAX_CHUNK = HADOOP_LZ4_BUFFER_SIZE - (HADOOP_LZ4_BUFFER_SIZE // 255 + 16)
# The LZO buffer of aircompressor's Hadoop LzoCodec (64 KiB) less the worst-case
# LZO1X expansion (n / 16 + 64 + 3): 61373 bytes, measured in its output. Smaller
# than hadoop-lzo's 256 KiB buffer, so both read what we write.
HADOOP_LZO_BUFFER_SIZE = 64 * 1024
HADOOP_LZO_MAX_CHUNK = HADOOP_LZO_BUFFER_SIZE - (HADOOP_LZO_BUFFER_SIZE // 16 + 64 + 3)

# ---------------------------------------------------------------------------
# UNCOMPRESSED: "No-op codec. Data is left uncompressed."
# ---------------------------------------------------------------------------


def _uncompressed_compress(data: bytes, level: int | None) -> bytes:
    return bytes(data)


def _uncompressed_decompress(data: bytes, limit: int) -> bytes:
    return bytes(data)


# ---------------------------------------------------------------------------
# SNAPPY: "A codec based on the Snappy compression format": raw Snappy (the
# block format of format_description.txt), not the framing format.
# ---------------------------------------------------------------------------


def _snappy_compress(data: bytes, level: int | None) -> bytes:
    return raw.snappy_compress(data)


def _snappy_decompress(data: bytes, limit: int) -> bytes:
    # The page header states the size exactly: a preamble that differs is refused
    # before anything is decompressed.
    stated = raw.snappy_stated_length(data)
    if stated != limit:
        raise CodecError(f"the Snappy preamble states {stated} uncompressed bytes, expected {limit}")
    return raw.snappy_decompress(data, limit)


# ---------------------------------------------------------------------------
# GZIP: RFC 1952. "Readers should support reading pages containing multiple
# GZIP members": the members are decompressed one after the other (RFC 1952,
# 2.2: "A gzip file consists of a series of 'members'").
# ---------------------------------------------------------------------------


def _gzip_compress(data: bytes, level: int | None) -> bytes:
    # One member (the spec recommends writers not to produce several); mtime 0
    # keeps the output deterministic.
    level = GZIP_DEFAULT_LEVEL if level is None else level
    return gzip.compress(data, compresslevel=level, mtime=0)


def _gzip_decompress(data: bytes, limit: int) -> bytes:
    out = bytearray()
    rest: bytes | memoryview = memoryview(data)
    while True:
        member_start = len(data) - len(rest)
        try:
            member, rest = raw.inflate(rest, limit - len(out), GZIP_WBITS)
        except CodecError as exc:
            raise CodecError(f"gzip member: {exc.message}", member_start) from exc
        out += member
        if not rest:
            return bytes(out)


# ---------------------------------------------------------------------------
# LZO: "A codec based on or interoperable with the LZO compression library".
# parquet-java, the only writer of it, compresses through hadoop-lzo's LzoCodec:
# LZO1X blocks inside the Hadoop block framing (see _hadoop_decompress).
# ---------------------------------------------------------------------------


def _lzo_compress(data: bytes, level: int | None) -> bytes:
    return _hadoop_compress(data, HADOOP_LZO_MAX_CHUNK, raw.lzo_compress)


def _lzo_decompress(data: bytes, limit: int) -> bytes:
    return _hadoop_decompress(data, limit, raw.lzo_decompress)


# ---------------------------------------------------------------------------
# BROTLI: RFC 7932.
# ---------------------------------------------------------------------------


def _brotli_compress(data: bytes, level: int | None) -> bytes:
    return raw.brotli_compress(data, BROTLI_DEFAULT_QUALITY if level is None else level)


# ---------------------------------------------------------------------------
# LZ4 (deprecated): "loosely based on the LZ4 compression algorithm, but with an
# additional undocumented framing scheme. The framing is part of the original
# Hadoop compression library and was historically copied first in parquet-mr,
# then emulated with mixed results by parquet-cpp."
# ---------------------------------------------------------------------------


def _lz4_frames(data: bytes, limit: int) -> bytes:
    """One or more LZ4 frames (the LZ4 frame format, magic 0x184D2204)."""
    out = bytearray()
    rest = bytes(data)
    while rest:
        frame = lz4.frame.LZ4FrameDecompressor()
        room = capacity(limit - len(out), rest, LZ4_MAX_EXPANSION)
        out += frame.decompress(rest, max_length=room + 1)
        if len(out) > limit:
            raise too_large(limit)
        if not frame.eof:
            raise CodecError("the LZ4 frame is truncated")
        rest = frame.unused_data
    return bytes(out)


def _lz4_compress(data: bytes, level: int | None) -> bytes:
    # The Hadoop framing, as parquet-java writes it; chunks no larger than
    # Hadoop's buffer, each in its own block so parquet-cpp reads them too.
    return _hadoop_compress(data, HADOOP_LZ4_MAX_CHUNK, lambda chunk: raw.lz4_block_compress(chunk, level))


def _lz4_decompress(data: bytes, limit: int) -> bytes:
    """The Hadoop framing first; then the forms older writers put under this codec.

    parquet-cpp (Arrow's Lz4HadoopCodec::Decompress) tries the Hadoop framing and
    "fall[s] back on raw LZ4 codec (for files produced by earlier versions of
    Parquet C++)"; fastparquet writes a raw LZ4 block under codec LZ4 too (it
    "switched to LZ4 block compression to ensure compatibility with parquet-cpp",
    PARQUET-1515; measured with fastparquet 2026.9). Last, an LZ4 frame, the
    format PARQUET-1241 proposed for this codec: its magic cannot be mistaken.
    """
    failures = []
    for form, attempt in (
        ("Hadoop-framed", lambda: _hadoop_decompress(data, limit, raw.lz4_block_decompress)),
        ("raw LZ4 block", lambda: raw.lz4_block_decompress(data, limit)),
        ("LZ4 frame", lambda: _lz4_frames(data, limit)),
    ):
        try:
            out = attempt()
        except Exception as exc:  # every failure means "not this form"
            failures.append(f"not {form} ({_reason(exc)})")
            continue
        if len(out) == limit:
            return out
        failures.append(f"not {form} ({len(out)} bytes instead of {limit})")
    raise CodecError("; ".join(failures))


# ---------------------------------------------------------------------------
# ZSTD: "the Zstandard format defined by RFC 8478" (now RFC 8878). A page may hold
# several frames, skippable frames, and frames whose header omits the content
# size (RFC 8878, 3.1: "Zstandard compressed data is made of one or more frames").
# ---------------------------------------------------------------------------


def _zstd_compress(data: bytes, level: int | None) -> bytes:
    return raw.zstd_compress(data, ZSTD_DEFAULT_LEVEL if level is None else level)


# ---------------------------------------------------------------------------
# LZ4_RAW: "A codec based on the LZ4 block format": one block, no size prefix.
# ---------------------------------------------------------------------------


# ---------------------------------------------------------------------------
# The Hadoop block framing (org.apache.hadoop.io.compress.BlockCompressorStream
# and BlockDecompressorStream), shared by LZ4 and LZO:
#
#   stream := block*
#   block  := <uncompressed length: 4 bytes BE> chunk+
#   chunk  := <compressed length: 4 bytes BE> <compressed bytes>
#
# A block's chunks decompress to its uncompressed length together: Hadoop splits
# one large write into several chunks under a single block header (measured:
# parquet-java 1.17 writes a 300000-byte LZ4 page as one block of two chunks).
# A block of uncompressed length 0 ends the stream ("EOF if originalBlockSize
# is 0", BlockDecompressorStream); parquet-java writes just that for an empty
# page, parquet-cpp writes [0][1][0x00].
# ---------------------------------------------------------------------------


def _hadoop_compress(data: bytes, max_chunk: int, compress_chunk: Callable[[bytes], bytes]) -> bytes:
    """One block of one chunk per ``max_chunk`` bytes (and one for empty input)."""
    out = bytearray()
    view = memoryview(data)
    for start in range(0, max(len(view), 1), max_chunk):
        piece = bytes(view[start : start + max_chunk])
        compressed = compress_chunk(piece)
        out += HADOOP_INT.pack(len(piece)) + HADOOP_INT.pack(len(compressed)) + compressed
    return bytes(out)


def _hadoop_int(data: bytes, position: int, what: str) -> int:
    if position + HADOOP_INT.size > len(data):
        raise CodecError(f"the Hadoop framing ends inside the {what}", position)
    return HADOOP_INT.unpack_from(data, position)[0]


def _hadoop_decompress(
    data: bytes, limit: int, decompress_chunk: Callable[[bytes, int], bytes]
) -> bytes:
    out = bytearray()
    position = 0
    while position < len(data):
        block_size = _hadoop_int(data, position, "block's uncompressed length")
        if block_size == 0:
            break
        if block_size > limit - len(out):
            raise CodecError(
                f"a block of {block_size} uncompressed bytes does not fit in the "
                f"{limit - len(out)} bytes left of {limit}",
                position,
            )
        position += HADOOP_INT.size
        block_end = len(out) + block_size
        while len(out) < block_end:
            chunk_size = _hadoop_int(data, position, "chunk's compressed length")
            chunk_start = position + HADOOP_INT.size
            if chunk_size > len(data) - chunk_start:
                raise CodecError(
                    f"a chunk of {chunk_size} compressed bytes runs past the end of the "
                    f"{len(data)}-byte buffer",
                    position,
                )
            chunk = data[chunk_start : chunk_start + chunk_size]
            try:
                out += decompress_chunk(chunk, block_end - len(out))
            except CodecError as exc:
                raise CodecError(exc.message, chunk_start) from exc
            except Exception as exc:  # the library's verdict on this chunk
                raise CodecError(_reason(exc), chunk_start) from exc
            position = chunk_start + chunk_size
    return bytes(out)


# ---------------------------------------------------------------------------
# The codec table and the public functions
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Codec:
    """``compress(data, level)`` and ``decompress(data, limit)`` of one codec.

    ``decompress`` returns at most ``limit`` bytes or raises; the caller checks
    that the length is exactly ``limit``.
    """

    compress: Callable[[bytes, int | None], bytes]
    decompress: Callable[[bytes, int], bytes]
    has_level: bool


CODECS: dict[CompressionCodec, Codec] = {
    CompressionCodec.UNCOMPRESSED: Codec(_uncompressed_compress, _uncompressed_decompress, False),
    CompressionCodec.SNAPPY: Codec(_snappy_compress, _snappy_decompress, False),
    CompressionCodec.GZIP: Codec(_gzip_compress, _gzip_decompress, True),
    CompressionCodec.LZO: Codec(_lzo_compress, _lzo_decompress, False),
    CompressionCodec.BROTLI: Codec(_brotli_compress, raw.brotli_decompress, True),
    CompressionCodec.LZ4: Codec(_lz4_compress, _lz4_decompress, True),
    CompressionCodec.ZSTD: Codec(_zstd_compress, raw.zstd_decompress, True),
    CompressionCodec.LZ4_RAW: Codec(raw.lz4_block_compress, raw.lz4_block_decompress, True),
}


def _codec(codec: CompressionCodec | int, offset: int | None) -> tuple[str, Codec]:
    try:
        known = CompressionCodec(codec)
    except ValueError:
        raise UnsupportedFeature(
            f"compression codec {codec}: not in the CompressionCodec enum this "
            f"implementation knows (a newer format version?)",
            offset,
        ) from None
    if known not in CODECS:
        raise UnsupportedFeature(f"compression codec {known.name}: no implementation", offset)
    return known.name, CODECS[known]


def _reason(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__


def compress(codec: CompressionCodec | int, data: bytes, *, level: int | None = None) -> bytes:
    """Compress one page's bytes with ``codec``.

    ``level`` is the codec's own level (GZIP 1-9, BROTLI quality 0-11, ZSTD, LZ4
    and LZ4_RAW: an LZ4 HC level); ``None`` is this module's default. Codecs
    without levels (UNCOMPRESSED, SNAPPY, LZO) reject one with ``ValueError``.
    """
    name, chosen = _codec(codec, None)
    if level is not None and not chosen.has_level:
        raise ValueError(f"compression codec {name} has no compression level (got {level})")
    return chosen.compress(bytes(data), level)


def decompress(
    codec: CompressionCodec | int, data: bytes, uncompressed_size: int, *, base_offset: int = 0
) -> bytes:
    """Decompress one page's bytes into exactly ``uncompressed_size`` bytes.

    ``base_offset`` is where ``data`` starts in the file; errors carry it (plus
    the position inside ``data`` where the framing is at fault). Raises
    :class:`DecompressionFailed` for anything malformed, including any error a
    compression library reports, output larger than ``uncompressed_size``
    (never allocated past it) and output of another length;
    :class:`DecodedBudgetExceeded` when ``uncompressed_size`` does not fit in the decoded
    budget; :class:`UnsupportedFeature` for a codec this module does not know.
    """
    name, chosen = _codec(codec, base_offset)
    if uncompressed_size < 0:
        raise DecompressionFailed(f"{name}: negative uncompressed size {uncompressed_size}", base_offset)
    if codec != CompressionCodec.UNCOMPRESSED:
        charge(uncompressed_size, what=f"{name} page", error=DecodedBudgetExceeded, offset=base_offset)
    if len(data) == 0 and uncompressed_size == 0:
        # Nothing was compressed. parquet-java 1.17 writes no bytes at all for an
        # empty page under SNAPPY (and under LZO through aircompressor's LzoCodec),
        # and reads that back (measured); accepted for every codec.
        return b""
    try:
        out = chosen.decompress(bytes(data), uncompressed_size)
    except CodecError as exc:
        raise DecompressionFailed(f"{name}: {exc.message}", base_offset + exc.position) from exc
    except Exception as exc:  # any library error means the bytes are bad
        raise DecompressionFailed(f"{name}: {_reason(exc)}", base_offset) from exc
    if len(out) != uncompressed_size:
        raise DecompressionFailed(
            f"{name}: decompressed to {len(out)} bytes, but the uncompressed size is "
            f"{uncompressed_size}",
            base_offset,
        )
    return out
