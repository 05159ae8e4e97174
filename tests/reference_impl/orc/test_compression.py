"""ORCv1.md, 'Compression': the chunk headers of the spec's examples, each codec's round
trip, corrupt and oversized chunks, and the compressed tails and streams of files written
by pyarrow.orc and pyorc."""

from __future__ import annotations

import os

import pyarrow as pa
import pyorc
import pytest

from reference_impl.orc.encodings.int_rle_v2 import decode_ints_v2
from reference_impl.orc.errors import CorruptMetadata, DecompressionFailed, UnsupportedFeature
from reference_impl.orc.metadata.orc_proto import Footer, decode
from reference_impl.orc.metadata.proto_enums import CompressionKind, StreamKind
from reference_impl.orc.streams.compression import compress_stream, decompress_stream, read_chunks
from tests.reference_impl.orc.orc_file_streams import file_streams, postscript_of, pyarrow_orc, pyorc_file

CODECS = [kind for kind in CompressionKind if kind is not CompressionKind.NONE]
BLOCK = 1000
FILE_OFFSET = 300
DATA = b"".join(b"row %d of some repetitive text; " % (i % 40) for i in range(200)) + os.urandom(700)


def test_spec_header_of_a_compressed_chunk() -> None:
    """"the header for a chunk that compressed to 100,000 bytes would be [0x40, 0x0d, 0x03]"."""
    header = bytes([0x40, 0x0D, 0x03])
    assert int.from_bytes(header, "little") == 100_000 * 2 + 0
    with pytest.raises(DecompressionFailed, match="chunk of 100000 bytes runs past") as caught:
        read_chunks(header + bytes(10), CompressionKind.ZLIB, 1 << 18, FILE_OFFSET)
    assert caught.value.offset == FILE_OFFSET


def test_spec_header_of_an_original_chunk() -> None:
    """"The header for 5 bytes that did not compress would be [0x0b, 0x00, 0x00]"."""
    stream = bytes([0x0B, 0x00, 0x00]) + b"hello"
    assert compress_stream(b"hello", CompressionKind.ZLIB, BLOCK) == stream
    (chunk,) = read_chunks(stream, CompressionKind.ZLIB, BLOCK, FILE_OFFSET)
    assert (chunk.offset, chunk.original, chunk.data) == (FILE_OFFSET, True, b"hello")


@pytest.mark.parametrize("kind", CODECS)
def test_round_trip(kind: CompressionKind) -> None:
    stream = compress_stream(DATA, kind, BLOCK)
    chunks = read_chunks(stream, kind, BLOCK, FILE_OFFSET)
    assert b"".join(chunk.data for chunk in chunks) == DATA
    assert [len(chunk.data) for chunk in chunks] == [BLOCK] * (len(DATA) // BLOCK) + [len(DATA) % BLOCK]
    assert not chunks[0].original and chunks[-1].original  # text compresses, random bytes do not
    assert decompress_stream(stream, kind, BLOCK, FILE_OFFSET) == DATA
    # each chunk's offset is its header's, and the header gives the next one
    next_offset = FILE_OFFSET
    for chunk in chunks:
        assert chunk.offset == next_offset
        header = stream[chunk.offset - FILE_OFFSET:chunk.offset - FILE_OFFSET + 3]
        assert int.from_bytes(header, "little") & 1 == chunk.original
        next_offset += 3 + (int.from_bytes(header, "little") >> 1)


@pytest.mark.parametrize("kind", CODECS)
def test_keep_original(kind: CompressionKind) -> None:
    stream = compress_stream(DATA, kind, BLOCK, keep_original=True)
    chunks = read_chunks(stream, kind, BLOCK, 0)
    assert all(chunk.original for chunk in chunks)
    assert len(stream) == len(DATA) + 3 * len(chunks)


def test_none_has_no_chunk_headers() -> None:
    assert compress_stream(DATA, CompressionKind.NONE, BLOCK) == DATA
    assert read_chunks(DATA, CompressionKind.NONE, 0, 7)[0].data == DATA
    assert read_chunks(b"", CompressionKind.NONE, 0, 7) == []


@pytest.mark.parametrize("kind", CODECS)
def test_chunk_expanding_past_the_block_size(kind: CompressionKind) -> None:
    stream = compress_stream(bytes(5000), kind, 5000)
    with pytest.raises(DecompressionFailed, match=kind.name) as caught:
        read_chunks(stream, kind, 4999, FILE_OFFSET)
    assert caught.value.offset == FILE_OFFSET


@pytest.mark.parametrize("kind", CODECS)
def test_corrupt_chunk_body(kind: CompressionKind) -> None:
    good = compress_stream(DATA[:BLOCK], kind, BLOCK)
    body = good[3:]
    damaged = good[:3] + body[:len(body) // 2] + bytes(len(body) - len(body) // 2)
    stream = compress_stream(b"x" * 50, kind, BLOCK, keep_original=True) + damaged
    with pytest.raises(DecompressionFailed, match=kind.name) as caught:
        decompress_stream(stream, kind, BLOCK, FILE_OFFSET)
    assert caught.value.offset == FILE_OFFSET + 53  # the second chunk's header


def test_truncated_header_and_oversized_original_chunk() -> None:
    with pytest.raises(DecompressionFailed, match="3-byte chunk header") as caught:
        read_chunks(b"\x0b\x00", CompressionKind.ZSTD, BLOCK, 40)
    assert caught.value.offset == 40
    original = compress_stream(b"abcdef", CompressionKind.LZ4, 6, keep_original=True)
    with pytest.raises(DecompressionFailed, match="exceeds the compression block size 5"):
        read_chunks(original, CompressionKind.LZ4, 5, 0)


def test_unknown_kind_and_missing_block_size() -> None:
    with pytest.raises(UnsupportedFeature, match="compression kind 9"):
        read_chunks(b"", 9, BLOCK, 0)
    with pytest.raises(UnsupportedFeature):
        compress_stream(b"", 9, BLOCK)
    with pytest.raises(CorruptMetadata):
        read_chunks(b"\x0b\x00\x00hello", CompressionKind.ZLIB, 0, 0)


ROWS = 3000
VALUES = [(i * 7919) % 10007 for i in range(ROWS)]


def _check_file(file: bytes, kind: CompressionKind) -> None:
    """The Footer decompresses and decodes; the int column's DATA stream holds VALUES."""
    postscript, postscript_start = postscript_of(file)
    assert postscript.compression == kind
    block = postscript.compression_block_size
    assert block is not None and postscript.footer_length is not None
    footer_start = postscript_start - postscript.footer_length
    chunks = read_chunks(file[footer_start:postscript_start], kind, block, footer_start)
    assert chunks and all(len(chunk.data) <= block for chunk in chunks)
    footer = decode(Footer, b"".join(chunk.data for chunk in chunks))
    assert footer.number_of_rows == ROWS
    (data,) = [s.data for s in file_streams(file) if s.column == 1 and s.kind == StreamKind.DATA]
    assert decode_ints_v2(data, ROWS, signed=True) == VALUES


@pytest.mark.parametrize(("name", "kind"), [
    ("zlib", CompressionKind.ZLIB), ("snappy", CompressionKind.SNAPPY),
    ("lz4", CompressionKind.LZ4), ("zstd", CompressionKind.ZSTD),
])
def test_pyarrow_files(name: str, kind: CompressionKind) -> None:
    _check_file(pyarrow_orc(pa.table({"x": pa.array(VALUES, pa.int64())}), compression=name), kind)


@pytest.mark.parametrize("kind", [CompressionKind.ZLIB, CompressionKind.SNAPPY, CompressionKind.LZ4,
                                  CompressionKind.ZSTD])
def test_pyorc_files_with_small_blocks(kind: CompressionKind) -> None:
    file = pyorc_file("struct<x:bigint>", [(value,) for value in VALUES],
                      compression=pyorc.CompressionKind(int(kind)), compression_block_size=1024,
                      memory_block_size=1024)
    _check_file(file, kind)
