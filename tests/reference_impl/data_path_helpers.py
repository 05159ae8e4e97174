"""Shared helpers of the data path tests: write with the reference, walk pages.

``walk_pages`` is deliberately independent of the reader: it follows
``PageHeader.compressed_page_size`` from the chunk's first page, so tests can
inspect what the writer put in each page header and body.
"""

from __future__ import annotations

import io
import struct
from dataclasses import dataclass
from typing import Any

from reference_impl.parquet.metadata import parquet_thrift as md
from reference_impl.parquet.metadata.thrift_struct import deserialize, serialize
from reference_impl.parquet.reader import read_footer
from reference_impl.parquet.schema.tree import (
    SchemaNode,
    leaf,
    leaf_columns,
    root,
    schema_tree_to_elements,
)
from reference_impl.parquet.writer import write_table
from reference_impl.parquet.writer_options import WriterOptions

REQUIRED = md.FieldRepetitionType.REQUIRED
OPTIONAL = md.FieldRepetitionType.OPTIONAL
REPEATED = md.FieldRepetitionType.REPEATED


@dataclass
class WalkedPage:
    offset: int  # of the header
    header: md.PageHeader
    body_start: int
    body: bytes

    @property
    def encoding(self) -> md.Encoding:
        inner = (
            self.header.data_page_header
            or self.header.data_page_header_v2
            or self.header.dictionary_page_header
        )
        return inner.encoding


def write(tree: SchemaNode, records: list[dict[str, Any]], **options: Any) -> bytes:
    sink = io.BytesIO()
    write_table(sink, tree, records, WriterOptions(**options))
    return sink.getvalue()


def one_column(node: SchemaNode, values: list[Any], **options: Any) -> bytes:
    """A file of the single top-level field ``node`` holding ``values`` (raw tree values)."""
    return write(root([node]), [{node.name: v} for v in values], **options)


def chunk_meta(raw: bytes, column: int = 0, row_group: int = 0) -> md.ColumnMetaData:
    footer, _ = read_footer(raw)
    return footer.row_groups[row_group].columns[column].meta_data


def walk_pages(raw: bytes, column: int = 0, row_group: int = 0) -> list[WalkedPage]:
    meta = chunk_meta(raw, column, row_group)
    position = meta.dictionary_page_offset or meta.data_page_offset
    end = position + meta.total_compressed_size
    pages = []
    while position < end:
        header, body_start = deserialize(md.PageHeader, raw, start=position, end=end)
        body_end = body_start + header.compressed_page_size
        pages.append(WalkedPage(position, header, body_start, raw[body_start:body_end]))
        position = body_end
    assert position == end, "the pages must fill the chunk exactly"
    return pages


def file_with_chunk(
    tree: SchemaNode,
    pages: list[tuple[md.PageHeader, bytes]],
    *,
    num_rows: int,
    num_values: int,
    codec: md.CompressionCodec = md.CompressionCodec.UNCOMPRESSED,
) -> bytes:
    """A one-leaf, one-row-group file whose chunk is exactly ``pages`` (headers may lie)."""
    [only] = leaf_columns(tree)
    chunk = b"".join(serialize(header) + body for header, body in pages)
    meta = md.ColumnMetaData(
        type=only.node.physical_type,
        encodings=[md.Encoding.PLAIN],
        path_in_schema=list(only.path),
        codec=codec,
        num_values=num_values,
        total_uncompressed_size=len(chunk),
        total_compressed_size=len(chunk),
        data_page_offset=4,
    )
    footer = md.FileMetaData(
        version=1,
        schema=schema_tree_to_elements(tree),
        num_rows=num_rows,
        row_groups=[
            md.RowGroup(
                columns=[md.ColumnChunk(file_offset=0, meta_data=meta)],
                total_byte_size=len(chunk),
                num_rows=num_rows,
            )
        ],
    )
    encoded = serialize(footer)
    return b"PAR1" + chunk + encoded + LENGTH.pack(len(encoded)) + b"PAR1"


def int32(name: str = "x", repetition: md.FieldRepetitionType = OPTIONAL) -> SchemaNode:
    return leaf(name, md.Type.INT32, repetition=repetition)


LENGTH = struct.Struct("<I")
