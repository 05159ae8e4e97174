"""The file tail (reference_impl/orc/metadata/file_tail.py): ORCv1.md, 'File Tail',
'Postscript', 'Footer' and 'File Metadata'.

Files built byte by byte, round trips through write_file_tail, the tails of real files
written by pyarrow.orc and pyorc (uncompressed and ZLIB), and a file of ours read by them.
"""

from __future__ import annotations

import dataclasses
import io
import zlib

import pyarrow as pa
import pyarrow.orc as pa_orc
import pyorc
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.orc.errors import BadMagic, CorruptProtobuf, CorruptTail, OrcError, UnsupportedFeature
from reference_impl.orc.metadata.file_tail import (
    DEFAULT_COMPRESSION_BLOCK_SIZE,
    FileTail,
    file_version,
    read_file_tail,
    write_file_tail,
)
from reference_impl.orc.metadata.orc_proto import (
    ColumnStatistics,
    Footer,
    IntegerStatistics,
    Metadata,
    PostScript,
    StripeStatistics,
    Type,
    encode,
)
from reference_impl.orc.metadata.proto_enums import CompressionKind, TypeKind
from reference_impl.orc.streams.compression import decompress_stream

MAGIC = b"ORC"

# -- codecs for the tests: identity, and ZLIB chunks framed by hand -------------------
# ORCv1.md, 'Compression': each chunk has a 3-byte little-endian header holding
# compressedLength * 2 + isOriginal; ZLIB chunks are raw deflate.
CHUNK_HEADER_BYTES = 3
RAW_DEFLATE = -15


def identity_decompress(data: bytes, kind: CompressionKind, block_size: int, offset: int) -> bytes:
    assert kind == CompressionKind.NONE
    return data


def identity_compress(data: bytes, kind: CompressionKind, block_size: int) -> bytes:
    assert kind == CompressionKind.NONE
    return data


def zlib_decompress(data: bytes, kind: CompressionKind, block_size: int, offset: int) -> bytes:
    if kind == CompressionKind.NONE:
        return data
    assert kind == CompressionKind.ZLIB
    out, pos = bytearray(), 0
    while pos < len(data):
        header = int.from_bytes(data[pos:pos + CHUNK_HEADER_BYTES], "little")
        length, original = header >> 1, header & 1
        chunk = data[pos + CHUNK_HEADER_BYTES:pos + CHUNK_HEADER_BYTES + length]
        out += chunk if original else zlib.decompress(chunk, RAW_DEFLATE)
        pos += CHUNK_HEADER_BYTES + length
    return bytes(out)


def zlib_compress(data: bytes, kind: CompressionKind, block_size: int) -> bytes:
    assert kind == CompressionKind.ZLIB
    out = bytearray()
    for start in range(0, len(data), block_size):
        compressor = zlib.compressobj(wbits=RAW_DEFLATE)
        chunk = compressor.compress(data[start:start + block_size]) + compressor.flush()
        out += (len(chunk) << 1).to_bytes(CHUNK_HEADER_BYTES, "little") + chunk
    return bytes(out)


def test_the_chunk_header_examples_of_the_spec():
    # 'Compression': "the header for a chunk that compressed to 100,000 bytes would be
    # [0x40, 0x0d, 0x03]. The header for 5 bytes that did not compress would be
    # [0x0b, 0x00, 0x00]."
    assert (100_000 << 1).to_bytes(CHUNK_HEADER_BYTES, "little") == bytes([0x40, 0x0D, 0x03])
    assert zlib_decompress(bytes([0x0B, 0x00, 0x00]) + b"hello", CompressionKind.ZLIB, 8, 0) == b"hello"


# -- a file built byte by byte ------------------------------------------------------

FOOTER_BYTES = bytes([
    0x08, 0x03,                    # 1: header_length 3
    0x10, 0x03,                    # 2: content_length 3 (no stripes)
    0x22, 0x02, 0x08, 0x0C,        # 4: types [{kind: STRUCT}]
    0x30, 0x00,                    # 6: number_of_rows 0
])
POSTSCRIPT_BYTES = bytes([
    0x08, len(FOOTER_BYTES),       # 1: footer_length
    0x10, 0x00,                    # 2: compression NONE
    0x22, 0x02, 0x00, 0x0C,        # 4: version [0, 12]
    0x28, 0x00,                    # 5: metadata_length 0
    0x82, 0xF4, 0x03, 0x03,        # 8000: magic
]) + MAGIC
MINIMAL_FILE = MAGIC + FOOTER_BYTES + POSTSCRIPT_BYTES + bytes([len(POSTSCRIPT_BYTES)])


def test_a_minimal_file_built_byte_by_byte():
    tail = read_file_tail(MINIMAL_FILE, identity_decompress)
    assert tail.postscript == PostScript(footer_length=10, compression=CompressionKind.NONE, version=[0, 12],
                                         metadata_length=0, magic="ORC")
    assert tail.footer == Footer(header_length=3, content_length=3, types=[Type(kind=TypeKind.STRUCT)],
                                 number_of_rows=0)
    assert tail.metadata is None
    assert (tail.file_length, tail.footer_offset, tail.metadata_offset) == (len(MINIMAL_FILE), 3, 3)
    assert file_version(tail.postscript) == (0, 12)


def test_write_file_tail_writes_the_same_bytes():
    postscript = PostScript(compression=CompressionKind.NONE, version=[0, 12], magic="ORC")
    footer = Footer(header_length=3, content_length=3, types=[Type(kind=TypeKind.STRUCT)], number_of_rows=0)
    written = write_file_tail(footer, None, postscript, identity_compress)
    assert MAGIC + written == MINIMAL_FILE
    assert postscript.footer_length is None  # the caller's PostScript is not changed


def _schema_footer(rows: int) -> Footer:
    return Footer(header_length=3, content_length=3, number_of_rows=rows,
                  types=[Type(kind=TypeKind.STRUCT, subtypes=[1], field_names=["x"]),
                         Type(kind=TypeKind.LONG)],
                  statistics=[ColumnStatistics(number_of_values=0),
                              ColumnStatistics(number_of_values=0, int_statistics=IntegerStatistics(sum=0))])


@pytest.mark.parametrize(("kind", "compress", "decompress"), [
    (CompressionKind.NONE, identity_compress, identity_decompress),
    (CompressionKind.ZLIB, zlib_compress, zlib_decompress),
], ids=["none", "zlib"])
def test_round_trip_with_metadata(kind, compress, decompress):
    metadata = Metadata(stripe_stats=[StripeStatistics(col_stats=[ColumnStatistics(number_of_values=7)])])
    postscript = PostScript(compression=kind, compression_block_size=16, version=[0, 12], writer_version=6,
                            magic="ORC")
    data = MAGIC + write_file_tail(_schema_footer(0), metadata, postscript, compress)
    tail = read_file_tail(data, decompress)
    assert tail.footer == _schema_footer(0) and tail.metadata == metadata
    footer_length = len(data) - 1 - data[-1] - tail.footer_offset
    assert tail.metadata_offset == 3 < tail.footer_offset
    assert tail.postscript == dataclasses.replace(postscript, footer_length=footer_length,
                                                  metadata_length=tail.footer_offset - tail.metadata_offset)


@given(st.integers(0, 1 << 40), st.lists(st.text(max_size=8), max_size=5), st.integers(1, 64))
def test_round_trips(rows, names, block_size):
    footer = Footer(header_length=3, number_of_rows=rows,
                    types=[Type(kind=TypeKind.STRUCT, field_names=names)])
    postscript = PostScript(compression=CompressionKind.ZLIB, compression_block_size=block_size,
                            version=[0, 12])
    data = MAGIC + write_file_tail(footer, None, postscript, zlib_compress)
    tail = read_file_tail(data, zlib_decompress)
    assert tail.footer == footer and tail.metadata is None
    assert tail.postscript.footer_length == tail.file_length - 1 - data[-1] - tail.footer_offset


# -- real files ---------------------------------------------------------------------

TABLE = pa.table({"i": pa.array([5, None, -3], pa.int64()), "s": ["x", None, "zz"]})


def _pyarrow_file(compression: str, file_version: str = "0.12") -> bytes:
    sink = io.BytesIO()
    pa_orc.write_table(TABLE, sink, compression=compression, file_version=file_version)
    return sink.getvalue()


PYARROW_UNCOMPRESSED = _pyarrow_file("UNCOMPRESSED")


def _pyorc_file(compression: pyorc.CompressionKind) -> bytes:
    sink = io.BytesIO()
    with pyorc.Writer(sink, "struct<i:bigint,s:string>", compression=compression,
                      compression_block_size=4096, memory_block_size=4096) as writer:
        writer.writerows([(5, "x"), (None, None), (-3, "zz")])
    return sink.getvalue()


@pytest.mark.parametrize(("data", "kind"), [
    (PYARROW_UNCOMPRESSED, CompressionKind.NONE),
    (_pyarrow_file("ZLIB"), CompressionKind.ZLIB),
    (_pyorc_file(pyorc.CompressionKind.NONE), CompressionKind.NONE),
    (_pyorc_file(pyorc.CompressionKind.ZLIB), CompressionKind.ZLIB),
], ids=["pyarrow-none", "pyarrow-zlib", "pyorc-none", "pyorc-zlib"])
def test_real_files(data, kind):
    tail = read_file_tail(data, zlib_decompress)
    assert tail.postscript.compression == kind and tail.postscript.magic == "ORC"
    assert file_version(tail.postscript) == (0, 12)
    assert tail.footer.number_of_rows == 3 and tail.footer.header_length == 3
    assert [t.kind for t in tail.footer.types] == [TypeKind.STRUCT, TypeKind.LONG, TypeKind.STRING]
    assert tail.footer.types[0].field_names == ["i", "s"]
    assert tail.footer.statistics[1].int_statistics == IntegerStatistics(minimum=-3, maximum=5, sum=2)
    assert tail.metadata is not None and len(tail.metadata.stripe_stats) == len(tail.footer.stripes) == 1
    stripe = tail.footer.stripes[0]
    assert stripe.offset == 3  # the body ends where the tail begins:
    stripe_end = stripe.offset + stripe.index_length + stripe.data_length + stripe.footer_length
    assert stripe_end == tail.metadata_offset
    # ORCv1.md, 'Footer' has content_length count "the file header and body"; the ORC C++
    # writer (both pyarrow and pyorc) counts the body alone.
    assert tail.footer.content_length == tail.metadata_offset - tail.footer.header_length


@pytest.mark.parametrize("codec", ["SNAPPY", "LZ4", "ZSTD", "ZLIB"])
def test_real_files_through_the_compression_module(codec):
    data = _pyarrow_file(codec)
    tail = read_file_tail(data, decompress_stream)
    assert tail.postscript.compression == CompressionKind[codec]
    assert tail.footer.number_of_rows == 3 and tail.metadata is not None
    if codec == "ZLIB":  # the module agrees with this file's own chunk framing
        assert tail == read_file_tail(data, zlib_decompress)


def test_a_version_0_11_file():
    tail = read_file_tail(_pyarrow_file("UNCOMPRESSED", "0.11"), identity_decompress)
    assert tail.postscript.version == [0, 11] and file_version(tail.postscript) == (0, 11)


@pytest.mark.parametrize("kind", [CompressionKind.NONE, CompressionKind.ZLIB], ids=["none", "zlib"])
def test_real_readers_read_our_tail(kind):
    # A file with no stripes is a header and a tail: what engines make of it tests the tail.
    postscript = PostScript(compression=kind, compression_block_size=4096, version=[0, 12], writer_version=6,
                            magic="ORC")
    compress = zlib_compress if kind == CompressionKind.ZLIB else identity_compress
    data = MAGIC + write_file_tail(_schema_footer(0), None, postscript, compress)
    assert pa_orc.ORCFile(io.BytesIO(data)).schema == pa.schema([("x", pa.int64())])
    reader = pyorc.Reader(io.BytesIO(data))
    assert str(reader.schema) == "struct<x:bigint>" and len(reader) == 0


# -- bad input ----------------------------------------------------------------------


def _with_postscript(postscript: PostScript, body: bytes = FOOTER_BYTES) -> bytes:
    ps_bytes = encode(postscript)
    return MAGIC + body + ps_bytes + bytes([len(ps_bytes)])


GOOD = PostScript(footer_length=len(FOOTER_BYTES), compression=CompressionKind.NONE, version=[0, 12],
                  metadata_length=0, magic="ORC")


@pytest.mark.parametrize(("data", "error", "offset", "fragment"), [
    (b"", BadMagic, 0, "starts with b''"),
    (b"ORX" + MINIMAL_FILE[3:], BadMagic, 0, "not b'ORC'"),
    (b"ORC", CorruptTail, 3, "no room for a PostScript"),
    (MINIMAL_FILE[:-1] + bytes([0]), CorruptTail, len(MINIMAL_FILE) - 1, "PostScript length 0"),
    (MINIMAL_FILE[:-1] + bytes([200]), CorruptTail, len(MINIMAL_FILE) - 1, "PostScript length 200"),
    (_with_postscript(dataclasses.replace(GOOD, footer_length=11)), CorruptTail, 13,
     "the Footer of 11 bytes"),
    (_with_postscript(dataclasses.replace(GOOD, metadata_length=1)), CorruptTail, 3,
     "the Metadata of 1 bytes"),
    (_with_postscript(dataclasses.replace(GOOD, stripe_statistics_length=1)), CorruptTail, 3,
     "encrypted stripe statistics"),
    (_with_postscript(dataclasses.replace(GOOD, footer_length=None)), CorruptTail, 13, "no footer_length"),
    (_with_postscript(dataclasses.replace(GOOD, magic="ORK")), BadMagic, 13, "PostScript.magic is 'ORK'"),
    (_with_postscript(dataclasses.replace(GOOD, version=[1, 0])), UnsupportedFeature, 13, "file version 1.0"),
    (_with_postscript(dataclasses.replace(GOOD, compression=99)), UnsupportedFeature, 13, "compression 99"),
    (MAGIC + FOOTER_BYTES + bytes([0x0A, 0x09]) + bytes([2]), CorruptProtobuf, 15, "9 byte(s) claimed"),
    (_with_postscript(GOOD, FOOTER_BYTES[:-1] + bytes([0x80])), CorruptProtobuf, 12, "varint runs past"),
], ids=["empty", "magic", "header-only", "ps-0", "ps-long", "footer-long", "metadata-long",
        "encrypted-stats-long", "no-footer-length", "ps-magic", "version-1", "compression", "ps-len",
        "footer-bytes"])
def test_bad_tails(data, error, offset, fragment):
    with pytest.raises(error) as raised:
        read_file_tail(data, identity_decompress)
    assert raised.value.offset == offset
    assert fragment in raised.value.message


def test_a_corrupt_compressed_footer_names_its_section():
    footer = zlib_compress(b"\x08", CompressionKind.ZLIB, 64)  # a varint key with no value
    ps = encode(dataclasses.replace(GOOD, compression=CompressionKind.ZLIB, footer_length=len(footer)))
    data = MAGIC + footer + ps + bytes([len(ps)])
    with pytest.raises(CorruptProtobuf, match="Footer .decompressed from the section at offset 3") as raised:
        read_file_tail(data, zlib_decompress)
    assert raised.value.offset == 3


def test_defaults_of_an_old_postscript():
    # No version, no compression_block_size, no magic: 0.11, the spec's default chunk size.
    seen = []

    def decompress(data, kind, block_size, offset):
        seen.append((kind, block_size, offset))
        return data

    tail = read_file_tail(_with_postscript(PostScript(footer_length=len(FOOTER_BYTES))), decompress)
    assert file_version(tail.postscript) == (0, 11)
    assert seen == [(CompressionKind.NONE, DEFAULT_COMPRESSION_BLOCK_SIZE, 3)]


def test_a_postscript_too_long_for_its_length_byte():
    postscript = PostScript(version=list(range(200)), magic="ORC")
    with pytest.raises(CorruptTail, match="must fit one byte"):
        write_file_tail(_schema_footer(0), None, postscript, identity_compress)


@given(st.data())
def test_corrupted_real_tails_fail_cleanly(data):
    original = PYARROW_UNCOMPRESSED
    position = data.draw(st.integers(len(original) - 120, len(original) - 1))
    value = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(0, 3))
    mutated = (original[:position] + bytes([value]) + original[position + 1:])[:len(original) - cut]
    try:
        # Any codec the damaged PostScript names: only the layout is under test.
        tail = read_file_tail(mutated, lambda raw, kind, block_size, offset: raw)
    except OrcError as error:
        assert error.offset is None or 0 <= error.offset <= len(mutated)
    else:
        assert isinstance(tail, FileTail) and tail.footer_offset <= tail.file_length
