"""Pages in and out of real Parquet files, to cross-check the encodings with pyarrow.

``pyarrow_pages`` writes a one-column table with pyarrow (no compression, data
page v1, one forced encoding) and returns each page's header fields and raw
payload, walked with the reference Thrift codec. With a non-nullable field the
data page payload is exactly the encoded values (no levels).

``single_column_file`` does the opposite: it frames payloads that *we* encoded
as pages of a minimal file (README.md, 'File format'), so
that pyarrow can be asked to read them.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

import pyarrow as pa
import pyarrow.parquet as pq

from reference_impl.parquet.metadata.file_layout import FOOTER_LENGTH, MAGIC
from reference_impl.parquet.metadata.parquet_thrift import (
    ColumnChunk,
    ColumnMetaData,
    CompressionCodec,
    DataPageHeader,
    DictionaryPageHeader,
    Encoding,
    FieldRepetitionType,
    FileMetaData,
    PageHeader,
    PageType,
    RowGroup,
)
from reference_impl.parquet.metadata.thrift_struct import deserialize, serialize
from reference_impl.parquet.reader import read_footer
from reference_impl.parquet.schema.flat import ColumnSpec, schema_elements

COLUMN = "c"


@dataclass
class Page:
    kind: PageType
    encoding: Encoding
    num_values: int
    payload: bytes
    level_encoding: Encoding = Encoding.RLE  # of a data page's levels, if it has any


def required_table(values: pa.Array) -> pa.Table:
    """A one-column table whose field is non-nullable: its pages carry no levels."""
    return pa.table({COLUMN: values}, schema=pa.schema([pa.field(COLUMN, values.type, nullable=False)]))


def pyarrow_pages(table: pa.Table, encoding: str | None, **options: object) -> list[Page]:
    """Write ``table`` with pyarrow forcing ``encoding`` on column "c"; return its pages."""
    settings: dict[str, object] = {
        "use_dictionary": False,
        "compression": "NONE",
        "data_page_version": "1.0",
        "write_statistics": False,
    }
    if encoding is not None:
        settings["column_encoding"] = {COLUMN: encoding}
    settings.update(options)
    sink = io.BytesIO()
    pq.write_table(table, sink, **settings)
    file = sink.getvalue()
    metadata, _ = read_footer(file)
    pages = []
    for row_group in metadata.row_groups:
        chunk = row_group.columns[0].meta_data
        position = chunk.dictionary_page_offset or chunk.data_page_offset
        end = position + chunk.total_compressed_size
        while position < end:
            header, body = deserialize(PageHeader, file, start=position, end=end)
            position = body + header.compressed_page_size
            page_header = header.data_page_header or header.dictionary_page_header
            pages.append(Page(header.type, page_header.encoding, page_header.num_values, file[body:position]))
    return pages


def single_column_file(column: ColumnSpec, pages: list[Page], num_rows: int) -> bytes:
    """A file of one row group holding ``pages`` (dictionary page first, if any).

    Data pages are v1, their levels (if any, already inside the payload) declared
    with ``Page.level_encoding``; no compression, no statistics.
    """
    out = bytearray(MAGIC)
    chunk_start = len(out)
    dictionary_offset = data_offset = None
    for page in pages:
        if page.kind == PageType.DICTIONARY_PAGE:
            dictionary_offset = len(out)
            header = PageHeader(
                type=PageType.DICTIONARY_PAGE,
                uncompressed_page_size=len(page.payload),
                compressed_page_size=len(page.payload),
                dictionary_page_header=DictionaryPageHeader(
                    num_values=page.num_values, encoding=page.encoding
                ),
            )
        else:
            data_offset = len(out) if data_offset is None else data_offset
            header = PageHeader(
                type=PageType.DATA_PAGE,
                uncompressed_page_size=len(page.payload),
                compressed_page_size=len(page.payload),
                data_page_header=DataPageHeader(
                    num_values=page.num_values,
                    encoding=page.encoding,
                    definition_level_encoding=page.level_encoding,
                    repetition_level_encoding=page.level_encoding,
                ),
            )
        out += serialize(header) + page.payload
    chunk_size = len(out) - chunk_start
    meta_data = ColumnMetaData(
        type=column.physical_type,
        encodings=sorted({page.encoding for page in pages} | {Encoding.RLE}),
        path_in_schema=[column.name],
        codec=CompressionCodec.UNCOMPRESSED,
        num_values=num_rows,
        total_uncompressed_size=chunk_size,
        total_compressed_size=chunk_size,
        data_page_offset=data_offset,
        dictionary_page_offset=dictionary_offset,
    )
    footer = FileMetaData(
        version=1,
        schema=schema_elements([column]),
        num_rows=num_rows,
        row_groups=[
            RowGroup(
                columns=[ColumnChunk(file_offset=0, meta_data=meta_data)],
                total_byte_size=chunk_size,
                num_rows=num_rows,
            )
        ],
    )
    footer_bytes = serialize(footer)
    out += footer_bytes + FOOTER_LENGTH.pack(len(footer_bytes)) + MAGIC
    return bytes(out)


def read_with_pyarrow(file: bytes) -> list[object]:
    return read_column_with_pyarrow(file).to_pylist()


def read_column_with_pyarrow(file: bytes) -> pa.ChunkedArray:
    """Column "c" as Arrow data (``to_numpy()`` keeps float bits, unlike ``to_pylist()``)."""
    return pq.read_table(io.BytesIO(file)).column(COLUMN)


REQUIRED = FieldRepetitionType.REQUIRED
OPTIONAL = FieldRepetitionType.OPTIONAL
