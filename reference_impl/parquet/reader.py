"""Reading flat Parquet files: PLAIN values in data page v1, uncompressed.

The reader follows the format, not our writer: it starts from the footer
('3 - File Format': "Readers are expected to first read the file metadata to
find all the column chunks"), walks every page of every column chunk by its
PageHeader ('3.7.5 - Column Chunks': "Column chunks are composed of pages
written back to back"), accepts any number of pages per chunk, statistics or
not, and unknown footer fields; it skips page types it does not know
('3.2 - Extensibility': "Additional page types can be added and safely
skipped").

Anything valid but outside this slice is refused with
:class:`UnsupportedFeature` naming it (dictionary pages, data page v2, any
encoding but PLAIN, compression, nested schemas, encryption) instead of being
misread. Anything malformed raises the specific error of ``errors`` with the
byte offset. Every length and count is checked against the bytes that hold it
before it is used.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import BinaryIO

import numpy as np

from .encodings.plain import decode_plain
from .encodings.rle_hybrid import bit_width_for, decode_rle_hybrid_length_prefixed
from .errors import (
    BadMagic,
    CorruptMetadata,
    CorruptPage,
    FooterLengthOutOfRange,
    TruncatedFile,
    UnsupportedFeature,
)
from .file_layout import ENCRYPTED_FOOTER_MAGIC, FOOTER_LENGTH, MAGIC, MIN_FILE_SIZE
from .metadata import (
    ColumnChunk,
    ColumnMetaData,
    CompressionCodec,
    Encoding,
    FileMetaData,
    PageHeader,
    PageType,
    RowGroup,
)
from .schema import ColumnSpec, columns_from_schema, max_definition_level
from .thrift_struct import deserialize

__all__ = ["ParquetContents", "read_footer", "read_parquet"]


@dataclass
class ParquetContents:
    """What :func:`read_parquet` returns."""

    columns: list[ColumnSpec]  # derived from the footer schema
    data: dict[str, list[object]]  # physical values per column, None for null
    metadata: FileMetaData


def read_parquet(
    source: str | os.PathLike[str] | bytes | bytearray | memoryview | BinaryIO,
) -> ParquetContents:
    """Read a whole flat Parquet file into physical values."""
    file = _load(source)
    metadata, footer_start = read_footer(file)
    columns = columns_from_schema(metadata.schema, footer_start)
    _check_row_groups(metadata, columns, footer_start)
    data: dict[str, list[object]] = {column.name: [] for column in columns}
    for row_group in metadata.row_groups:
        for column, chunk in zip(columns, row_group.columns, strict=True):
            data[column.name] += _read_column_chunk(file, column, chunk, row_group, footer_start)
    return ParquetContents(columns=columns, data=data, metadata=metadata)


def _load(source: str | os.PathLike[str] | bytes | bytearray | memoryview | BinaryIO) -> bytes:
    if isinstance(source, bytes | bytearray | memoryview):
        return bytes(source)
    if isinstance(source, str | os.PathLike):
        with open(source, "rb") as file:
            return file.read()
    return source.read()


# ---------------------------------------------------------------------------
# The footer ('3 - File Format')
# ---------------------------------------------------------------------------


def read_footer(file: bytes) -> tuple[FileMetaData, int]:
    """Check the framing and decode the FileMetaData; return it and where it starts."""
    size = len(file)
    if size < MIN_FILE_SIZE:
        raise TruncatedFile(
            f"a Parquet file has at least {MIN_FILE_SIZE} bytes (magic, footer length, "
            f"magic), this one has {size}",
            size,
        )
    trailing_magic_at = size - len(MAGIC)
    for magic, at in ((file[:4], 0), (file[trailing_magic_at:], trailing_magic_at)):
        if magic == ENCRYPTED_FOOTER_MAGIC:
            raise UnsupportedFeature("encrypted footer (magic 'PARE')", at)
        if magic != MAGIC:
            raise BadMagic(f"expected the magic {MAGIC!r}, found {magic!r}", at)

    length_at = trailing_magic_at - FOOTER_LENGTH.size
    (footer_length,) = FOOTER_LENGTH.unpack_from(file, length_at)
    # The footer must fit between the leading magic and the length field.
    room = length_at - len(MAGIC)
    if not 0 < footer_length <= room:
        raise FooterLengthOutOfRange(
            f"footer length is {footer_length}, but it must be between 1 and {room} "
            f"(the bytes between the leading magic and the length field)",
            length_at,
        )
    footer_start = length_at - footer_length
    metadata, footer_end = deserialize(FileMetaData, file, start=footer_start, end=length_at)
    if metadata.encryption_algorithm is not None:
        raise UnsupportedFeature("encrypted columns (plaintext footer mode)", footer_start)
    if footer_end != length_at:
        raise CorruptMetadata(
            f"the footer length says {footer_length} bytes, but FileMetaData ends after "
            f"{footer_end - footer_start}",
            footer_end,
        )
    return metadata, footer_start


def _check_row_groups(metadata: FileMetaData, columns: list[ColumnSpec], footer_start: int) -> None:
    total_rows = 0
    for index, row_group in enumerate(metadata.row_groups):
        if len(row_group.columns) != len(columns):
            raise CorruptMetadata(
                f"row group {index} has {len(row_group.columns)} column chunks, "
                f"the schema has {len(columns)} columns",
                footer_start,
            )
        if row_group.num_rows < 0:
            raise CorruptMetadata(f"row group {index} has {row_group.num_rows} rows", footer_start)
        total_rows += row_group.num_rows
    if total_rows != metadata.num_rows:
        raise CorruptMetadata(
            f"FileMetaData.num_rows is {metadata.num_rows}, the row groups hold {total_rows}",
            footer_start,
        )


# ---------------------------------------------------------------------------
# Column chunks ('3.7.5 - Column Chunks')
# ---------------------------------------------------------------------------


def _read_column_chunk(
    file: bytes, column: ColumnSpec, chunk: ColumnChunk, row_group: RowGroup, footer_start: int
) -> list[object]:
    meta = _chunk_metadata(column, chunk, row_group, footer_start)
    if meta.num_values == 0:
        # Nothing to read. Writers differ in what offsets they give an empty
        # chunk (pyarrow writes data_page_offset 0 and no pages), so none are used.
        return []
    start = _chunk_start(meta)
    end = start + meta.total_compressed_size
    if not (len(MAGIC) <= start and meta.total_compressed_size >= 0 and end <= footer_start):
        raise CorruptMetadata(
            f"column {column.name!r}: chunk [{start}, {end}) lies outside the data region "
            f"[{len(MAGIC)}, {footer_start})",
            footer_start,
        )
    values: list[object] = []
    position = start
    # Pages until the chunk's values are all read; every header consumes at
    # least one byte, so this cannot loop forever.
    while len(values) < meta.num_values:
        if position >= end:
            raise CorruptPage(
                f"column {column.name!r}: the chunk ends after {len(values)} of its "
                f"{meta.num_values} values",
                position,
            )
        position = _read_page(file, column, position, end, meta.num_values - len(values), values)
    return values


def _chunk_metadata(
    column: ColumnSpec, chunk: ColumnChunk, row_group: RowGroup, footer_start: int
) -> ColumnMetaData:
    where = f"column {column.name!r}"
    if chunk.crypto_metadata is not None or chunk.encrypted_column_metadata is not None:
        raise UnsupportedFeature(f"{where}: column encryption", footer_start)
    if chunk.file_path is not None:
        raise UnsupportedFeature(
            f"{where}: column chunk stored in another file ({chunk.file_path!r})", footer_start
        )
    meta = chunk.meta_data
    if meta is None:
        raise CorruptMetadata(f"{where}: column chunk without meta_data", footer_start)
    if meta.codec != CompressionCodec.UNCOMPRESSED:
        raise UnsupportedFeature(f"{where}: compression codec {_name(meta.codec)}", footer_start)
    if meta.type != column.physical_type:
        raise CorruptMetadata(
            f"{where}: chunk type {_name(meta.type)} differs from the schema's "
            f"{column.physical_type.name}",
            footer_start,
        )
    if meta.path_in_schema != [column.name]:
        raise CorruptMetadata(
            f"{where}: chunk path_in_schema is {meta.path_in_schema}", footer_start
        )
    # A flat column has exactly one value (possibly null) per row.
    if meta.num_values != row_group.num_rows:
        raise CorruptMetadata(
            f"{where}: chunk has {meta.num_values} values, its row group {row_group.num_rows} rows",
            footer_start,
        )
    return meta


def _chunk_start(meta: ColumnMetaData) -> int:
    """The first page: the dictionary page if there is one, else the first data page.

    Some writers store dictionary_page_offset = 0 to mean "none"; offset 0 is the
    magic, never a page, so it is treated as absent.
    """
    if meta.dictionary_page_offset:
        return meta.dictionary_page_offset
    return meta.data_page_offset


# ---------------------------------------------------------------------------
# Pages
# ---------------------------------------------------------------------------


def _read_page(
    file: bytes,
    column: ColumnSpec,
    position: int,
    chunk_end: int,
    wanted: int,
    values: list[object],
) -> int:
    """Read the page at ``position``, append its values; return where the next page starts."""
    header, body_start = deserialize(PageHeader, file, start=position, end=chunk_end)
    size = header.compressed_page_size
    if size < 0 or header.uncompressed_page_size < 0:
        raise CorruptPage(
            f"page sizes are negative ({header.compressed_page_size}, "
            f"{header.uncompressed_page_size})",
            position,
        )
    body_end = body_start + size
    if body_end > chunk_end:
        raise CorruptPage(
            f"page body of {size} bytes runs {body_end - chunk_end} byte(s) past the end "
            f"of its column chunk",
            position,
        )
    if header.uncompressed_page_size != size:
        # Without compression the page is stored as is, so both sizes must agree.
        raise CorruptPage(
            f"uncompressed page with compressed_page_size {size} but "
            f"uncompressed_page_size {header.uncompressed_page_size}",
            position,
        )
    if header.type == PageType.DATA_PAGE:
        values += _read_data_page_v1(file, column, header, position, body_start, body_end, wanted)
    elif header.type == PageType.DICTIONARY_PAGE:
        raise UnsupportedFeature("dictionary page (dictionary encoding)", position)
    elif header.type == PageType.DATA_PAGE_V2:
        raise UnsupportedFeature("page type DATA_PAGE_V2", position)
    # INDEX_PAGE and page types from newer specs carry no values: skip them.
    return body_end


def _read_data_page_v1(
    file: bytes,
    column: ColumnSpec,
    header: PageHeader,
    page_offset: int,
    body_start: int,
    body_end: int,
    wanted: int,
) -> list[object]:
    page = header.data_page_header
    if page is None:
        raise CorruptPage("DATA_PAGE header without data_page_header", page_offset)
    if not 0 <= page.num_values <= wanted:
        raise CorruptPage(
            f"data page claims {page.num_values} values, the column chunk has {wanted} left",
            page_offset,
        )
    if page.encoding != Encoding.PLAIN:
        raise UnsupportedFeature(f"encoding {_name(page.encoding)}", page_offset)

    position = body_start
    max_level = max_definition_level(column)
    if max_level > 0:
        if page.definition_level_encoding != Encoding.RLE:
            raise UnsupportedFeature(
                f"definition level encoding {_name(page.definition_level_encoding)}", page_offset
            )
        levels, position = decode_rle_hybrid_length_prefixed(
            file, bit_width_for(max_level), page.num_values, start=position, end=body_end
        )
        present = levels == max_level
    else:
        # A REQUIRED flat column stores no levels: every value is present.
        present = np.ones(page.num_values, dtype=bool)

    non_null, position = decode_plain(
        column.physical_type,
        file,
        int(present.sum()),
        type_length=column.type_length,
        start=position,
        end=body_end,
    )
    # Bytes after the last value are not read: the header's counts define the page
    # (fastparquet pads each page with 8 zero bytes; parquet-java, Arrow C++ and
    # DuckDB ignore such padding too).
    if max_level == 0:
        return non_null
    present_values = iter(non_null)
    return [next(present_values) if is_present else None for is_present in present.tolist()]


def _name(value: object) -> str:
    """An enum member's name, or the raw number of a value this code does not know."""
    return getattr(value, "name", str(value))
