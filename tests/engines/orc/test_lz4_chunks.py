"""LZ4 files whose chunks really are compressed (ORCv1.md, 'Compression': each chunk's
header says whether it is "original"): ORC C++ (pyarrow, pyorc) stores every LZ4 chunk
original, so the LZ4 cells would test nothing of LZ4 without the reference's and Spark's
files (docs/engine-notes.md, 'ORC writers and readers')."""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.cases import case_by_id
from conformance.engines import get_engine
from reference_impl.orc.metadata.file_tail import read_file_tail
from reference_impl.orc.metadata.orc_proto import StripeFooter, decode
from reference_impl.orc.metadata.proto_enums import CompressionKind
from reference_impl.orc.streams.compression import decompress_stream, read_chunks

LZ4_CASE = "orc/codecs/lz4"


def original_flags(data: bytes) -> list[bool]:
    """Whether each compression chunk of every stream of every stripe is stored original."""
    tail = read_file_tail(data, decompress_stream)
    kind = CompressionKind(tail.postscript.compression)
    block = tail.postscript.compression_block_size
    flags = []
    for stripe in tail.footer.stripes:
        footer_at = stripe.offset + stripe.index_length + stripe.data_length
        footer = decode(StripeFooter, decompress_stream(
            data[footer_at:footer_at + stripe.footer_length], kind, block, footer_at))
        at = stripe.offset
        for stream in footer.streams:
            flags += [chunk.original for chunk in read_chunks(data[at:at + stream.length], kind, block, at)]
            at += stream.length
    return flags


def _written(engine: str, tmp_path: Path) -> bytes:
    path = tmp_path / f"{engine}.orc"
    get_engine(engine, "orc").write(case_by_id(LZ4_CASE), path)
    return path.read_bytes()


def test_the_reference_writes_compressed_lz4_chunks(tmp_path):
    assert not all(original_flags(_written("reference", tmp_path)))


@pytest.mark.parametrize("engine", ["pyarrow", "pyorc"])
def test_orc_cpp_stores_every_lz4_chunk_original(tmp_path, engine):
    flags = original_flags(_written(engine, tmp_path))
    assert flags and all(flags)


@pytest.mark.spark
def test_spark_writes_compressed_lz4_chunks(spark, tmp_path):
    assert not all(original_flags(_written("spark", tmp_path)))
