"""Enum ids outside what this code knows (docs/unknown-enum-values.md): a negative id
can be from no version of parquet.thrift and is CorruptMetadata; an id above the
highest known may be a newer version's member and is UnsupportedFeature."""

from __future__ import annotations

import struct

import pytest

from reference_impl.parquet.errors import CorruptMetadata, UnsupportedFeature
from reference_impl.parquet.metadata import parquet_thrift as md
from reference_impl.parquet.metadata.parquet_thrift import Encoding, FieldRepetitionType, PageType, Type
from reference_impl.parquet.metadata.thrift_struct import serialize
from reference_impl.parquet.reader import read_footer, read_parquet

MAGIC = b"PAR1"
NEWER_TYPE = max(Type) + 1
ZIGZAG_MINUS_ONE = 0x01  # the compact protocol's varint of the i32 -1


def file_of(chunk: bytes, physical_type: int, meta: md.ColumnMetaData | None = None) -> bytes:
    """A one-column file, built byte by byte: magic, ``chunk``, a footer whose leaf has ``physical_type``."""
    schema = [
        md.SchemaElement(name="schema", num_children=1),
        md.SchemaElement(name="x", type=physical_type, repetition_type=FieldRepetitionType.REQUIRED),
    ]
    row_groups = []
    if meta is not None:
        row_groups = [
            md.RowGroup(
                columns=[md.ColumnChunk(file_offset=0, meta_data=meta)],
                total_byte_size=len(chunk),
                num_rows=meta.num_values,
            )
        ]
    rows = meta.num_values if meta is not None else 0
    footer = serialize(md.FileMetaData(version=1, schema=schema, num_rows=rows, row_groups=row_groups))
    return MAGIC + chunk + footer + struct.pack("<I", len(footer)) + MAGIC


def test_a_negative_physical_type_is_corrupt_metadata_at_its_byte() -> None:
    raw = file_of(b"", -1)
    with pytest.raises(CorruptMetadata, match="enum Type value -1 is negative") as caught:
        read_footer(raw)
    assert raw[caught.value.offset] == ZIGZAG_MINUS_ONE


def test_a_physical_type_above_the_known_ones_is_unsupported() -> None:
    raw = file_of(b"", NEWER_TYPE)
    metadata, _ = read_footer(raw)  # the footer decodes: the id is kept
    assert metadata.schema[1].type == NEWER_TYPE
    with pytest.raises(UnsupportedFeature, match=f"physical type {NEWER_TYPE}"):
        read_parquet(raw)


def test_a_negative_encoding_in_a_page_header_is_corrupt_metadata() -> None:
    body = struct.pack("<i", 7)
    header = md.PageHeader(
        type=PageType.DATA_PAGE,
        uncompressed_page_size=len(body),
        compressed_page_size=len(body),
        data_page_header=md.DataPageHeader(
            num_values=1,
            encoding=-1,
            definition_level_encoding=Encoding.RLE,
            repetition_level_encoding=Encoding.RLE,
        ),
    )
    chunk = serialize(header) + body
    meta = md.ColumnMetaData(
        type=Type.INT32,
        encodings=[Encoding.PLAIN],
        path_in_schema=["x"],
        codec=md.CompressionCodec.UNCOMPRESSED,
        num_values=1,
        total_uncompressed_size=len(chunk),
        total_compressed_size=len(chunk),
        data_page_offset=len(MAGIC),
    )
    raw = file_of(chunk, Type.INT32, meta)
    with pytest.raises(CorruptMetadata, match="enum Encoding value -1") as caught:
        read_parquet(raw)
    assert len(MAGIC) <= caught.value.offset < len(MAGIC) + len(chunk)
