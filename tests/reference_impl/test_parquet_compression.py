"""Tests of reference_impl.parquet.pages.compression ('3.7.1 - Compression', 'Codecs').

Round trips per codec; the framings built byte by byte (multi-member GZIP, the
Hadoop LZ4 blocks and chunks, several ZSTD frames); pages as parquet-java
compresses them; bad input (corrupt bytes, wrong sizes, decompression bombs);
and interoperability with pyarrow (its compressed pages decompress to its
uncompressed pages, and it reads pages we compress) and fastparquet (its 'LZ4'
is a raw block under codec LZ4).
"""

from __future__ import annotations

import base64
import dataclasses
import gzip
import io
import struct
import tracemalloc
import zlib

import brotli
import fastparquet
import lz4.block
import lz4.frame
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import zstandard
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.common.varint import encode_uleb128
from reference_impl.parquet.errors import DecompressionFailed, UnsupportedFeature
from reference_impl.parquet.metadata.parquet_thrift import (
    CompressionCodec,
    FileMetaData,
    PageHeader,
    PageType,
)
from reference_impl.parquet.metadata.thrift_struct import deserialize, serialize
from reference_impl.parquet.pages.compression import CODECS, HADOOP_LZ4_MAX_CHUNK, compress, decompress
from tests.reference_impl.parquet_helpers import budget

ALL_CODECS = list(CompressionCodec)
COMPRESSING_CODECS = [codec for codec in ALL_CODECS if codec != CompressionCodec.UNCOMPRESSED]
BASE = 1000  # a file offset for the compressed bytes, to check that errors carry it


def be32(value: int) -> bytes:
    """A 4-byte big-endian integer, as the Hadoop framing writes its lengths."""
    return struct.pack(">I", value)


def raw_lz4(data: bytes) -> bytes:
    """One LZ4 block, no size prefix (LZ4_RAW), made by the lz4 library directly."""
    return lz4.block.compress(data, store_size=False)


def compressible(draw_bytes: bytes, repeat: int) -> bytes:
    return draw_bytes * repeat


payloads = st.one_of(
    st.binary(max_size=3000),
    st.builds(compressible, st.binary(min_size=1, max_size=40), st.integers(1, 200)),
)


# ---------------------------------------------------------------------------
# Round trips
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("codec", ALL_CODECS, ids=lambda c: c.name)
@given(data=payloads)
@budget(25)
def test_round_trip(codec: CompressionCodec, data: bytes) -> None:
    assert decompress(codec, compress(codec, data), len(data)) == data


@pytest.mark.parametrize("codec", ALL_CODECS, ids=lambda c: c.name)
def test_round_trip_empty(codec: CompressionCodec) -> None:
    assert decompress(codec, compress(codec, b""), 0) == b""
    # Zero bytes for an empty page decompress to nothing under every codec
    # (parquet-java writes exactly that under SNAPPY and LZO).
    assert decompress(codec, b"", 0) == b""


@pytest.mark.parametrize(
    ("codec", "level"),
    [
        (CompressionCodec.GZIP, 1),
        (CompressionCodec.GZIP, 9),
        (CompressionCodec.BROTLI, 0),
        (CompressionCodec.BROTLI, 11),
        (CompressionCodec.ZSTD, 1),
        (CompressionCodec.ZSTD, 19),
        (CompressionCodec.LZ4, 9),
        (CompressionCodec.LZ4_RAW, 12),
    ],
    ids=str,
)
def test_levels(codec: CompressionCodec, level: int) -> None:
    data = b"".join(b"value %d;" % (i % 300) for i in range(5000))
    assert decompress(codec, compress(codec, data, level=level), len(data)) == data


@pytest.mark.parametrize(
    "codec", [CompressionCodec.UNCOMPRESSED, CompressionCodec.SNAPPY, CompressionCodec.LZO]
)
def test_codecs_without_levels_reject_one(codec: CompressionCodec) -> None:
    with pytest.raises(ValueError, match=codec.name):
        compress(codec, b"abc", level=3)


def test_every_codec_of_the_enum_has_an_implementation() -> None:
    assert set(CODECS) == set(CompressionCodec)


def test_compressed_output_is_the_plain_library_format() -> None:
    # "the raw data of a (data or dictionary) page is fed as-is to the underlying
    # compression library, without any additional framing or padding"
    data = b"parquet page " * 50
    assert gzip.decompress(compress(CompressionCodec.GZIP, data)) == data
    assert brotli.decompress(compress(CompressionCodec.BROTLI, data)) == data
    assert zstandard.ZstdDecompressor().decompress(compress(CompressionCodec.ZSTD, data)) == data
    raw = compress(CompressionCodec.LZ4_RAW, data)
    assert lz4.block.decompress(raw, uncompressed_size=len(data)) == data
    # Deterministic: the gzip header carries no time stamp.
    assert compress(CompressionCodec.GZIP, data) == compress(CompressionCodec.GZIP, data)


# ---------------------------------------------------------------------------
# GZIP: "Readers should support reading pages containing multiple GZIP members"
# ---------------------------------------------------------------------------


def test_gzip_multiple_members() -> None:
    first, second, third = b"first member;", b"", b"third member" * 20
    stream = gzip.compress(first) + gzip.compress(second) + gzip.compress(third)
    assert decompress(CompressionCodec.GZIP, stream, 13 + 240) == first + second + third


def test_gzip_rejects_garbage_after_a_member_at_its_offset() -> None:
    member = gzip.compress(b"abc")
    with pytest.raises(DecompressionFailed) as info:
        decompress(CompressionCodec.GZIP, member + b"not gzip", 3, base_offset=BASE)
    assert info.value.offset == BASE + len(member)


def test_gzip_rejects_zlib_and_raw_deflate() -> None:
    # RFC 1952 only: "not the closely-related 'zlib' or 'deflate' formats".
    data = b"zlib is not gzip" * 4
    for wbits in (zlib.MAX_WBITS, -zlib.MAX_WBITS):
        packer = zlib.compressobj(wbits=wbits)
        other = packer.compress(data) + packer.flush()
        with pytest.raises(DecompressionFailed, match="^GZIP: "):
            decompress(CompressionCodec.GZIP, other, len(data))


def test_gzip_truncated_member() -> None:
    stream = gzip.compress(b"abc" * 100)
    with pytest.raises(DecompressionFailed, match="truncated"):
        decompress(CompressionCodec.GZIP, stream[:-8], 300, base_offset=BASE)


# ---------------------------------------------------------------------------
# LZ4 (deprecated): the Hadoop framing, and the fallbacks
# ---------------------------------------------------------------------------


def test_lz4_hadoop_framing_two_blocks() -> None:
    first, second = b"hello, hadoop " * 10, b"second block!"
    first_block, second_block = raw_lz4(first), raw_lz4(second)
    page = (
        be32(len(first))  # block 1: uncompressed length, 4 bytes big-endian
        + be32(len(first_block))  # block 1, chunk 1: compressed length, 4 bytes big-endian
        + first_block  # block 1, chunk 1: a raw LZ4 block
        + be32(len(second))  # block 2: uncompressed length
        + be32(len(second_block))  # block 2, chunk 1: compressed length
        + second_block  # block 2, chunk 1: a raw LZ4 block
    )
    assert decompress(CompressionCodec.LZ4, page, len(first) + len(second)) == first + second


def test_lz4_hadoop_block_of_several_chunks() -> None:
    # Hadoop's BlockCompressorStream splits one large write into several chunks
    # under a single block header (its BlockDecompressorStream reads chunks until
    # the block's uncompressed length is reached).
    first, second = b"a" * 300, b"b" * 200
    first_chunk, second_chunk = raw_lz4(first), raw_lz4(second)
    page = (
        be32(500)  # the block: 500 uncompressed bytes, in two chunks
        + be32(len(first_chunk))  # chunk 1: compressed length
        + first_chunk  # chunk 1: 300 bytes once decompressed
        + be32(len(second_chunk))  # chunk 2: compressed length
        + second_chunk  # chunk 2: the remaining 200 bytes
        + be32(0)  # a block of length 0: the end of the stream
    )
    assert decompress(CompressionCodec.LZ4, page, 500) == first + second


@pytest.mark.parametrize(
    "page",
    [
        be32(0),  # parquet-java: one block header of length 0 (Hadoop's end of stream)
        be32(0) + be32(1) + b"\x00",  # parquet-cpp: a 0-byte block holding the empty LZ4 block
    ],
    ids=["parquet-java", "parquet-cpp"],
)
def test_lz4_hadoop_empty_page(page: bytes) -> None:
    assert decompress(CompressionCodec.LZ4, page, 0) == b""


def test_lz4_written_in_hadoop_blocks_no_larger_than_hadoop_buffers() -> None:
    data = bytes(range(256)) * 2000  # 512000 bytes: two blocks
    page = compress(CompressionCodec.LZ4, data)
    position, sizes = 0, []
    while position < len(page):
        uncompressed, compressed = struct.unpack_from(">II", page, position)
        position += 8 + compressed
        sizes.append(uncompressed)
    assert sizes == [HADOOP_LZ4_MAX_CHUNK, len(data) - HADOOP_LZ4_MAX_CHUNK]
    assert decompress(CompressionCodec.LZ4, page, len(data)) == data


def test_lz4_fallback_raw_block() -> None:
    # Not Hadoop-framed: its first 8 bytes are no plausible lengths.
    data = b"fastparquet writes a raw block " * 30
    assert decompress(CompressionCodec.LZ4, raw_lz4(data), len(data)) == data


def test_lz4_fallback_lz4_frame() -> None:
    data = b"an LZ4 frame under the LZ4 codec " * 30
    assert decompress(CompressionCodec.LZ4, lz4.frame.compress(data), len(data)) == data
    two = lz4.frame.compress(data) + lz4.frame.compress(b"tail")
    assert decompress(CompressionCodec.LZ4, two, len(data) + 4) == data + b"tail"


def test_lz4_hadoop_lengths_that_do_not_add_up_fall_back_then_fail() -> None:
    data = b"x" * 100
    block = raw_lz4(data)
    page = be32(100) + be32(len(block) + 5) + block  # the chunk length runs past the end
    with pytest.raises(DecompressionFailed) as info:
        decompress(CompressionCodec.LZ4, page, 100, base_offset=BASE)
    message = info.value.message
    assert message.startswith("LZ4: not Hadoop-framed")
    assert "not raw LZ4 block" in message and "not LZ4 frame" in message
    assert info.value.offset == BASE


# Pages compressed by parquet-java 1.17 (CodecFactory, as Spark 4.3 bundles it)
# from PARQUET_JAVA_INPUT. LZ4: Hadoop's Lz4Codec with
# io.compression.codec.lz4.buffersize=1024, so one block of three chunks and an
# end-of-stream block of length 0. LZO: through aircompressor's Hadoop LzoCodec
# under hadoop-lzo's class name com.hadoop.compression.lzo.LzoCodec.
PARQUET_JAVA_INPUT = b"".join(f"row {i:04d} v{i * 7919 % 1000:03d};".encode() for i in range(160))
PARQUET_JAVA_LZ4 = base64.b64decode(
    """
    AAAIwAAAAnTjcm93IDAwMDAgdjAwMDsOAGQxIHY5MTkOAGQyIHY4MzgOAGQzIHY3NTcOAGQ0IHY2NzYOAGQ1IHY1OTUOAGQ2
    IHY1MTQOAGQ3IHY0MzMOAGQ4IHYzNTIOAGM5IHYyNzEOAGQxMCB2MTmMAGQxMSB2MTCMAGQxMiB2MDKMAGQxMyB2OTSMAGQx
    NCB2ODaMAGQxNSB2NziMAGQxNiB2NzCMAGQxNyB2NjKMAGQxOCB2NTSMAGQxOSB2NDaMAGQyMCB2MziMAGQyMSB2MjmMAGQy
    MiB2MjGMAHMyMyB2MTM3xABkMjQgdjA1jABkMjUgdjk3jABkMjYgdjg5jABkMjcgdjgxjABkMjggdjczjABkMjkgdjY1jABk
    MzAgdjU3jABkMzEgdjQ4jABkMzIgdjQwjABkMzMgdjMyjABkMzQgdjI0jABkMzUgdjE2jABkMzYgdjA4jAAgMzcGAgSMAHMz
    OCB2OTIy0gBkMzkgdjg0jABkNDAgdjc2jAAgNDEGAgSMACA0MgYCBIwAIDQzBgIEjAAgNDQGAgSMACA0NQYCBIwAIDQ2BgIE
    jAAgNDcGAgSMAGQ0OCB2MTGMAGQ0OSB2MDOMAGQ1MCB2OTWMACA1MQYCBIwAIDUyBgIEjAAgNTMGAgSMABA1vAIUMowAEDW8
    AhQ0jAAgNTYGAgSMACA1NwYCBIwAEDW8AhQwjAAQNbwCFDKMABA2vAIUNIwAIDYxBgIEjAAgNjIGAgSMACA2MwYCBIwAEDa8
    AhQxjAAQNrwCFDOMACA2NgYCBIwAIDY3BgIEjABkNjggdjQ5jAAQNrwCFDGMABA3vAITM4wAUDA3MSB2AAACgvQCMjQ5O3Jv
    dyAwMDcyIHYxNjgOAGQzIHYwODcOAGQ0IHYwMDYOAGQ1IHY5MjUOAGQ2IHY4NDQOAGQ3IHY3NjMOAGQ4IHY2ODIOAGM5IHY2
    MDEOAHQ4MCB2NTIwDgBUMSB2NDOMAGQ4MiB2MzWMAGQ4MyB2MjeMAGQ4NCB2MTmMAGQ4NSB2MTGMAGQ4NiB2MDOMAGQ4NyB2
    OTWMAGQ4OCB2ODeMAGQ4OSB2NzmMAGQ5MCB2NzGMAGQ5MSB2NjKMAGQ5MiB2NTSMAGQ5MyB2NDaMAGQ5NCB2MziMAGQ5NSB2
    MzCMAGQ5NiB2MjKMAGQ5NyB2MTSMAGQ5OCB2MDaMAGM5OSB2OTiMAHMxMDAgdjkwjABzMTAxIHY4MYwAczEwMiB2NzOMAHMx
    MDMgdjY1jABzMTA0IHY1N4wAczEwNSB2NDmMAHMxMDYgdjQxjABzMTA3IHYzM4wAczEwOCB2MjWMAHQxMDkgdjE3jABkMTAg
    djA5jAAgMTEGAgSMACAxMgYCBIwAIDEzBgIEjAAgMTQGAgSMACAxNQYCBIwAIDE2BgIEjAAgMTcGAgSMAGQxOCB2NDSMAGQx
    OSB2MzaMAGQyMCB2MjiMACAyMQYCBIwAIDIyBgIEjAAQMrwCFDOMACAyNAYCBIwAIDI1BgIEjAAgMjYGAgSMABAyvAIUMYwA
    EDK8AhQzjABkMjkgdjU1jABjMzAgdjQ3vAIwMTMxBgIEjAAgMzIGAgSMABAzvAIUMowAEDO8AhQ0jAAgMzUGAgSMACAzNgYC
    BIwAEDO8AhQwjAAQM7wCFDKMABAzvAIUNIwAZDQwIHY2NowAIDQxBgIEjAAgNDIGAoA4O3JvdyAwMQAAAKD0BjQzIHY0MTc7
    cm93IDAxNDQgdjMzNg4AZDUgdjI1NQ4AZDYgdjE3NA4AZDcgdjA5Mw4AZDggdjAxMg4AYzkgdjkzMQ4AdDUwIHY4NTAOAGQx
    IHY3NjkOAGQyIHY2ODgOAFQzIHY2MIwAZDU0IHY1MowAZDU1IHY0NIwAZDU2IHYzNowAZDU3IHYyOIwAZDU4IHYyMIwAgDU5
    IHYxMjE7AAAAAA==
    """
)
PARQUET_JAVA_LZO = base64.b64decode(
    """
    AAAIwAAABbEfcm93IDAwMDAgdjAwMDvUAQMxIHY5MTn0AQMyIHY4Mzj0AQMzIHY3NTf0AQM0IHY2Nzb0AQM1IHY1OTX0AQM2
    IHY1MTT0AQM3IHY0MzP0AQM4IHYzNTL0AQM5IHYyNzHUAQMxMCB2MTnsEQMxMSB2MTDsEQMxMiB2MDLsEQMxMyB2OTTsEQMx
    NCB2ODbsEQMxNSB2NzjsEQMxNiB2NzDsEQMxNyB2NjLsEQMxOCB2NTTsEQMxOSB2NDbsEQMyMCB2MzjsEQMyMSB2MjnsEQMy
    MiB2MjHsEQMyMyB2MTPsEQMyNCB2MDXsEQMyNSB2OTfsEQMyNiB2ODnsEQMyNyB2ODHsEQMyOCB2NzPsEQMyOSB2NjXsEQMz
    MCB2NTfsEQMzMSB2NDjsEQMzMiB2NDDsEQMzMyB2MzLsEQMzNCB2MjTsEQMzNSB2MTbsEQMzNiB2MDjsEQMzNyB2MDDsEQMz
    OCB2OTLsEQMzOSB2ODTsEQM0MCB2NzbsEQM0MSB2NjfsEQM0MiB2NTnsEQM0MyB2NTHsEQM0NCB2NDPsEQM0NSB2MzXsEQM0
    NiB2MjfsEQM0NyB2MTnsEQM0OCB2MTHsEQM0OSB2MDPsEQM1MCB2OTXsEQM1MSB2ODbsEQM1MiB2NzjsEQM1MyB2NzDsEQM1
    NCB2NjLsEQM1NSB2NTTsEQM1NiB2NDbsEQM1NyB2MzjsEQM1OCB2MzDsEQM1OSB2MjLsEQM2MCB2MTTsEQM2MSB2MDXsEQM2
    MiB2OTfsEQM2MyB2ODnsEQM2NCB2ODHsEQM2NSB2NzPsEQM2NiB2NjXsEQM2NyB2NTfsEQM2OCB2NDnsEQM2OSB2NDHsEQM3
    MCB2MzPsEQM3MSB2MjTsEQM3MiB2MTbsEQM3MyB2MDjsEQM3NCB2MDDsEQM3NSB2OTLsEQM3NiB2ODTsEQM3NyB2NzbsEQM3
    OCB2NjjsEQM3OSB2NjDsEQM4MCB2NTLsEQM4MSB2NDPsEQM4MiB2MzXsEQM4MyB2MjfsEQM4NCB2MTnsEQM4NSB2MTHsEQM4
    NiB2MDPsEQM4NyB2OTXsEQM4OCB2ODfsEQM4OSB2NznsEQM5MCB2NzHsEQM5MSB2NjLsEQM5MiB2NTTsEQM5MyB2NDbsEQM5
    NCB2MzjsEQM5NSB2MzDsEQQ5NiB2MjI0xJgDOTcgdjE07BEDOTggdjA27BEDOTkgdjk4zBEDMTAwIHY5/K4DMTAxIHY4/K4D
    MTAyIHY3/K4DMTAzIHY2/K4DMTA0IHY1/K4DMTA1IHY0/K4DMTA2IHY0/K4DMTA3IHYz/K4DMTA4IHYy/K4DMTA5IHYx/K4D
    MTEwIHYw/K4DMTExIHYw/K4DMTEyIHY5/K4DMTEzIHY4/K4EMTE0IHY3NtwiAzExNSB2NvyuAzExNiB2NvyuAzExNyB2Nfyu
    AzExOCB2NPyuAzExOSB2M/yuAzEyMCB2MvyuAzEyMSB2MfyuAzEyMiB2MfyuAzEyMyB2MPyuAzEyNCB2OfyuAzEyNSB2OPyu
    AzEyNiB2N/yuAzEyNyB2N/yuAzEyOCB2NvyuAzEyOSB2NfyuAzEzMCB2NPyuAzEzMSB2M/yuBDEzMiB2MzDcRQMxMzMgdjL8
    rgMxMzQgdjH8rgMxMzUgdjD8rgMxMzYgdjn8rgMxMzcgdjn8rgMxMzggdjj8rgQxMzkgdjc0/EUCNDAgdjb8rgQxNDEgdjU3
    zFcEMTQyIHY0OewRAjQzIHY0/K4EMTQ0IHYzM+w0AjQ1IHYy/K4DMTQ2IHYx/K4DMTQ3IHYw/K4EMTQ4IHYwMcxXAzE0OSB2
    OfyuAzE1MCB2OPyuAzE1MSB2N/yuAzE1MiB2NvyuAzE1MyB2NvyuAzE1NCB2NfyuAzE1NSB2NPyuAzE1NiB2M/yuAzE1NyB2
    MvyuAzE1OCB2MvyuBjE1OSB2MTIxOxEAAA==
    """
)


def test_lz4_as_parquet_java_writes_it() -> None:
    block_size, first_chunk = struct.unpack_from(">II", PARQUET_JAVA_LZ4)
    assert block_size == len(PARQUET_JAVA_INPUT) and first_chunk < len(PARQUET_JAVA_LZ4) - 8
    page = decompress(CompressionCodec.LZ4, PARQUET_JAVA_LZ4, len(PARQUET_JAVA_INPUT))
    assert page == PARQUET_JAVA_INPUT


def test_lzo_as_parquet_java_writes_it() -> None:
    page = decompress(CompressionCodec.LZO, PARQUET_JAVA_LZO, len(PARQUET_JAVA_INPUT))
    assert page == PARQUET_JAVA_INPUT


def test_lzo_written_in_hadoop_framing() -> None:
    data = PARQUET_JAVA_INPUT
    page = compress(CompressionCodec.LZO, data)
    assert struct.unpack_from(">I", page)[0] == len(data)
    assert struct.unpack_from(">I", page, 4)[0] == len(page) - 8


# ---------------------------------------------------------------------------
# ZSTD: several frames, skippable frames, frames without a content size
# ---------------------------------------------------------------------------


def test_zstd_multiple_frames() -> None:
    with_size = zstandard.ZstdCompressor().compress(b"frame one;")
    without_size = zstandard.ZstdCompressor(write_content_size=False).compress(b"frame two" * 9)
    assert zstandard.get_frame_parameters(without_size).content_size == zstandard.CONTENTSIZE_UNKNOWN
    skippable = struct.pack("<II", 0x184D2A50, 3) + b"pad"  # magic, length, user data
    stream = with_size + skippable + without_size + with_size
    expected = b"frame one;" + b"frame two" * 9 + b"frame one;"
    assert decompress(CompressionCodec.ZSTD, stream, len(expected)) == expected


def test_zstd_truncated_frame() -> None:
    frame = zstandard.ZstdCompressor(write_checksum=True).compress(b"abc" * 100)
    with pytest.raises(DecompressionFailed, match="^ZSTD: "):
        decompress(CompressionCodec.ZSTD, frame[:-2], 300)


# ---------------------------------------------------------------------------
# Bad input: corrupt bytes, wrong sizes, bombs, unknown codecs
# ---------------------------------------------------------------------------

SAMPLE = b"".join(b"sample row %05d, " % i for i in range(400))


@pytest.mark.parametrize("codec", COMPRESSING_CODECS, ids=lambda c: c.name)
def test_corrupt_bytes(codec: CompressionCodec) -> None:
    page = bytearray(compress(codec, SAMPLE))
    corrupt = [bytes(page[: len(page) // 2]), b"\xff" * 64]
    for bad in corrupt:
        with pytest.raises(DecompressionFailed) as info:
            decompress(codec, bad, len(SAMPLE), base_offset=BASE)
        assert info.value.message.startswith(f"{codec.name}: ")
        assert BASE <= info.value.offset < BASE + len(bad)


@pytest.mark.parametrize("codec", ALL_CODECS, ids=lambda c: c.name)
@pytest.mark.parametrize("delta", [-1, +1, -len(SAMPLE) // 2, +len(SAMPLE)], ids=str)
def test_wrong_uncompressed_size(codec: CompressionCodec, delta: int) -> None:
    page = compress(codec, SAMPLE)
    with pytest.raises(DecompressionFailed) as info:
        decompress(codec, page, len(SAMPLE) + delta, base_offset=BASE)
    assert info.value.message.startswith(f"{codec.name}: ")
    assert info.value.offset is not None and info.value.offset >= BASE


BOMB_SIZE = 20_000_000  # bytes a bomb expands to; the page header claims CLAIMED
CLAIMED = 1000

BOMB_NAMES = [
    "SNAPPY",
    "GZIP",
    "BROTLI",
    "ZSTD",
    "ZSTD-no-content-size",
    "LZ4-hadoop-block-lies",
    "LZ4-raw-block",
    "LZ4-frame",
    "LZ4_RAW",
]


@pytest.fixture(scope="module")
def bombs() -> dict[str, tuple[CompressionCodec, bytes]]:
    """Small pages (under 100 KB) that expand to 20 MB (Snappy: 2 MB), under a
    page header claiming 1000 bytes."""
    zeros = b"\0" * BOMB_SIZE
    # Snappy expands at most 21-fold, so its bomb is a preamble that lies: it
    # states the claimed size, the elements after it expand to 2 MB.
    true_preamble = encode_uleb128(2_000_000)
    snappy_elements = compress(CompressionCodec.SNAPPY, zeros[:2_000_000])[len(true_preamble) :]
    snappy = encode_uleb128(CLAIMED) + snappy_elements
    zstd_no_size = zstandard.ZstdCompressor(write_content_size=False).compress(zeros)
    hadoop_lz4 = be32(CLAIMED) + be32(len(raw_lz4(zeros))) + raw_lz4(zeros)
    return {
        "SNAPPY": (CompressionCodec.SNAPPY, snappy),
        "GZIP": (CompressionCodec.GZIP, compress(CompressionCodec.GZIP, zeros)),
        "BROTLI": (CompressionCodec.BROTLI, compress(CompressionCodec.BROTLI, zeros, level=1)),
        "ZSTD": (CompressionCodec.ZSTD, compress(CompressionCodec.ZSTD, zeros)),
        "ZSTD-no-content-size": (CompressionCodec.ZSTD, zstd_no_size),
        "LZ4-hadoop-block-lies": (CompressionCodec.LZ4, hadoop_lz4),
        "LZ4-raw-block": (CompressionCodec.LZ4, raw_lz4(zeros)),
        "LZ4-frame": (CompressionCodec.LZ4, lz4.frame.compress(zeros)),
        "LZ4_RAW": (CompressionCodec.LZ4_RAW, raw_lz4(zeros)),
    }


@pytest.mark.parametrize("name", BOMB_NAMES)
def test_decompression_bomb_raises_without_allocating(name: str, bombs) -> None:
    codec, page = bombs[name]
    assert len(page) < 100_000
    tracemalloc.start()
    try:
        with pytest.raises(DecompressionFailed) as info:
            decompress(codec, page, CLAIMED, base_offset=BASE)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert info.value.offset is not None and info.value.offset >= BASE
    # Python-visible allocations stay near the claimed size, far from 20 MB.
    assert peak < 2_000_000


def test_lzo_bomb_raises() -> None:
    # lzallright has no output cap: LZO1X's ~255-fold bound limits the damage.
    page = compress(CompressionCodec.LZO, b"\0" * 60_000)
    with pytest.raises(DecompressionFailed, match="^LZO: ") as info:
        decompress(CompressionCodec.LZO, page, CLAIMED, base_offset=BASE)
    assert info.value.offset == BASE  # the block header already claims too much


def test_a_length_field_alone_allocates_nothing() -> None:
    # A page header claiming 1 GiB for 20 bytes: every buffer is sized by what
    # 20 compressed bytes can fill, not by the claim.
    tracemalloc.start()
    try:
        for codec in COMPRESSING_CODECS:
            page = compress(codec, b"tiny")
            with pytest.raises(DecompressionFailed):
                decompress(codec, page, 1 << 30)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2_000_000


def test_snappy_preamble_checked_before_decompressing() -> None:
    page = compress(CompressionCodec.SNAPPY, b"abc" * 10)
    with pytest.raises(DecompressionFailed, match="preamble states 30"):
        decompress(CompressionCodec.SNAPPY, page, 31, base_offset=BASE)


def test_unknown_codec_is_unsupported() -> None:
    with pytest.raises(UnsupportedFeature, match="compression codec 8") as info:
        decompress(8, b"abc", 3, base_offset=BASE)
    assert info.value.offset == BASE
    with pytest.raises(UnsupportedFeature, match="compression codec 9"):
        compress(9, b"abc")


def test_negative_uncompressed_size() -> None:
    with pytest.raises(DecompressionFailed, match="negative"):
        decompress(CompressionCodec.GZIP, compress(CompressionCodec.GZIP, b"a"), -1)


# ---------------------------------------------------------------------------
# Interoperability with pyarrow and fastparquet
# ---------------------------------------------------------------------------

MAGIC = b"PAR1"
FOOTER_TAIL = struct.Struct("<I4s")  # footer length, then the magic


def footer(file: bytes) -> FileMetaData:
    length, magic = FOOTER_TAIL.unpack_from(file, len(file) - FOOTER_TAIL.size)
    assert magic == MAGIC
    end = len(file) - FOOTER_TAIL.size
    metadata, _ = deserialize(FileMetaData, file, start=end - length, end=end)
    return metadata


def only_data_page(file: bytes) -> tuple[FileMetaData, PageHeader, bytes]:
    """The footer, header and body of the single page of the single column chunk."""
    metadata = footer(file)
    (row_group,) = metadata.row_groups
    (chunk,) = row_group.columns
    meta = chunk.meta_data
    assert meta.dictionary_page_offset is None
    header, body_start = deserialize(PageHeader, file, start=meta.data_page_offset)
    assert header.type == PageType.DATA_PAGE
    body_end = body_start + header.compressed_page_size
    assert body_end == meta.data_page_offset + meta.total_compressed_size  # one page
    return metadata, header, file[body_start:body_end]


def with_page_recompressed(file: bytes, codec: CompressionCodec, page_bytes: bytes) -> bytes:
    """An uncompressed single-page file rebuilt with ``page_bytes`` as its page
    body under ``codec``: the page header sizes, the ColumnMetaData codec, sizes
    and offsets and the row group's sizes patched, the footer re-serialized."""
    metadata, header, _ = only_data_page(file)
    header = dataclasses.replace(header, compressed_page_size=len(page_bytes), crc=None)
    page = serialize(header) + page_bytes
    (row_group,) = metadata.row_groups
    (chunk,) = row_group.columns
    chunk.file_offset = len(MAGIC)
    chunk.offset_index_offset = chunk.offset_index_length = None
    chunk.column_index_offset = chunk.column_index_length = None
    meta = chunk.meta_data
    meta.codec = codec
    meta.data_page_offset = len(MAGIC)
    meta.total_compressed_size = len(page)
    meta.total_uncompressed_size = len(page) - len(page_bytes) + header.uncompressed_page_size
    row_group.file_offset = len(MAGIC)
    row_group.total_compressed_size = len(page)
    footer_bytes = serialize(metadata)
    return MAGIC + page + footer_bytes + FOOTER_TAIL.pack(len(footer_bytes), MAGIC)


def arrow_table(rows: int = 3000) -> pa.Table:
    return pa.table(
        {"s": [None if i % 7 == 0 else f"value {i % 113} of {i}" for i in range(rows)]}
    )


def arrow_file(table: pa.Table, compression: str) -> bytes:
    sink = io.BytesIO()
    pq.write_table(
        table, sink, compression=compression, use_dictionary=False, data_page_version="1.0"
    )
    return sink.getvalue()


@pytest.fixture(scope="module")
def table() -> pa.Table:
    return arrow_table()


@pytest.fixture(scope="module")
def plain_file(table) -> bytes:
    return arrow_file(table, "none")


ARROW_CODECS = {
    "snappy": CompressionCodec.SNAPPY,
    "gzip": CompressionCodec.GZIP,
    "brotli": CompressionCodec.BROTLI,
    "zstd": CompressionCodec.ZSTD,
    "lz4": CompressionCodec.LZ4_RAW,  # pyarrow's 'lz4' is LZ4_RAW
}


@pytest.mark.parametrize("name", list(ARROW_CODECS))
def test_pyarrow_pages_decompress_to_its_uncompressed_page(name, table, plain_file) -> None:
    _, plain_header, plain_page = only_data_page(plain_file)
    file = arrow_file(table, name)
    metadata, header, body = only_data_page(file)
    assert metadata.row_groups[0].columns[0].meta_data.codec == ARROW_CODECS[name]
    assert header.uncompressed_page_size == len(plain_page)
    codec = ARROW_CODECS[name]
    assert decompress(codec, body, header.uncompressed_page_size) == plain_page


@pytest.mark.parametrize(
    "codec",
    [c for c in COMPRESSING_CODECS if c != CompressionCodec.LZO],  # pyarrow has no LZO
    ids=lambda c: c.name,
)
def test_pyarrow_reads_pages_we_compress(codec, table, plain_file) -> None:
    _, _, plain_page = only_data_page(plain_file)
    file = with_page_recompressed(plain_file, codec, compress(codec, plain_page))
    assert footer(file).row_groups[0].columns[0].meta_data.codec == codec
    assert pq.read_table(io.BytesIO(file)).equals(table)


def test_pyarrow_reads_lz4_pages_of_several_hadoop_blocks() -> None:
    # A page larger than Hadoop's LZ4 buffer: we write it as two blocks.
    # Few rows, long values: one page (pyarrow also cuts pages by row count).
    table = pa.table({"s": [bytes(range(i, 256)) * 40 for i in range(40)]})
    plain = arrow_file(table, "none")
    _, _, plain_page = only_data_page(plain)
    assert len(plain_page) > HADOOP_LZ4_MAX_CHUNK
    page = compress(CompressionCodec.LZ4, plain_page)
    file = with_page_recompressed(plain, CompressionCodec.LZ4, page)
    assert pq.read_table(io.BytesIO(file)).equals(table)


def test_our_recompressed_uncompressed_file_is_unchanged(table, plain_file) -> None:
    # The rebuilding helper itself: re-framing the uncompressed page changes nothing.
    _, _, plain_page = only_data_page(plain_file)
    file = with_page_recompressed(plain_file, CompressionCodec.UNCOMPRESSED, plain_page)
    assert pq.read_table(io.BytesIO(file)).equals(table)


def fastparquet_file(frame: pd.DataFrame, compression: str | None, tmp_path) -> bytes:
    path = tmp_path / f"{compression}.parquet"
    fastparquet.write(str(path), frame, compression=compression)
    return path.read_bytes()


def test_fastparquet_lz4_is_a_raw_block_read_through_the_fallback(tmp_path) -> None:
    frame = pd.DataFrame({"a": list(range(2000)), "b": [f"v{i % 50}" for i in range(2000)]})
    plain = footer_pages(fastparquet_file(frame, None, tmp_path))
    lz4_file = fastparquet_file(frame, "LZ4", tmp_path)
    compressed = footer_pages(lz4_file)
    assert [meta.codec for meta, _, _ in compressed] == [CompressionCodec.LZ4] * 2
    for (_, _, plain_body), (_, header, body) in zip(plain, compressed, strict=True):
        # Measured: a raw LZ4 block, not the Hadoop framing, under codec LZ4.
        assert lz4.block.decompress(body, uncompressed_size=header.uncompressed_page_size) == plain_body
        assert decompress(CompressionCodec.LZ4, body, header.uncompressed_page_size) == plain_body


def footer_pages(file: bytes) -> list[tuple[object, PageHeader, bytes]]:
    """(ColumnMetaData, header, body) of the first page of every column chunk."""
    pages = []
    for chunk in footer(file).row_groups[0].columns:
        meta = chunk.meta_data
        header, start = deserialize(PageHeader, file, start=meta.data_page_offset)
        pages.append((meta, header, file[start : start + header.compressed_page_size]))
    return pages
