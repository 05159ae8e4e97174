"""Writing flat Parquet files: PLAIN values, data page v1, no compression.

parquet-format-docs.txt, '3 - File Format' gives the layout written here::

    "PAR1" | column chunks, row group by row group | FileMetaData | length | "PAR1"

Each column chunk ('3.7.5 - Column Chunks') is one or more data pages written
back to back, each a PageHeader followed by the page. A data page v1 of a flat
column is (parquet.thrift 'DataPageHeader'; 'Run Length Encoding / Bit-Packing
Hybrid', table "Prepend length?"):

    [definition levels: 4-byte length + RLE hybrid, OPTIONAL columns only]
    [the non-null values, PLAIN encoded]

('3.8 - Nulls': nulls appear only in the definition levels.)

Metadata written beyond the required fields: LogicalType *and* ConvertedType
(LogicalTypes.md, 'Compatibility'), column_orders with TypeDefinedOrder for
every leaf (needed for min/max statistics to be meaningful; parquet.thrift
'FileMetaData.column_orders'), encoding_stats, row group ordinal, created_by.
``ColumnChunk.file_offset`` is 0, as the current parquet.thrift asks of writers
that store no ColumnMetaData outside the footer.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import metadata as package_metadata
from typing import BinaryIO

from .encodings.plain import encode_plain
from .encodings.rle_hybrid import bit_width_for, encode_rle_hybrid_length_prefixed
from .errors import UnsupportedFeature
from .file_layout import FOOTER_LENGTH, MAGIC
from .metadata import (
    ColumnChunk,
    ColumnMetaData,
    ColumnOrder,
    CompressionCodec,
    DataPageHeader,
    Encoding,
    FieldRepetitionType,
    FileMetaData,
    KeyValue,
    PageEncodingStats,
    PageHeader,
    PageType,
    RowGroup,
    Type,
    TypeDefinedOrder,
)
from .schema import ColumnSpec, max_definition_level, schema_elements
from .thrift_struct import serialize

__all__ = ["DEFAULT_CREATED_BY", "write_parquet"]


def _package_version() -> str:
    try:
        return package_metadata.version("columnar-conformance")
    except package_metadata.PackageNotFoundError:
        return "0+unknown"


# parquet.thrift 'created_by': "<Application> version <App Version> (build <App Build Hash>)".
DEFAULT_CREATED_BY = f"columnar-conformance reference version {_package_version()}"

# The file format version: the current parquet.thrift says writers should always write 1.
FORMAT_VERSION = 1
MAX_I32 = (1 << 31) - 1  # page sizes and value counts are i32 in PageHeader
MAX_I16 = (1 << 15) - 1  # RowGroup.ordinal is an i16
INT_BITS = {Type.INT32: 32, Type.INT64: 64}
INT96_BYTES = 12
FLOAT32 = struct.Struct("<f")
FLOAT64 = struct.Struct("<d")


def write_parquet(
    sink: BinaryIO | str | os.PathLike[str],
    columns: Sequence[ColumnSpec],
    data: Mapping[str, Sequence[object]],
    *,
    row_group_size: int | None = None,
    created_by: str = DEFAULT_CREATED_BY,
    key_value_metadata: Mapping[str, str] | None = None,
    rows_per_page: int | None = None,
) -> None:
    """Write a flat Parquet file.

    ``data`` maps each column name to its physical values (``None`` for null).
    ``row_group_size`` is rows per row group (``None``: one row group);
    ``rows_per_page`` is rows per data page (``None``: one page per column chunk).
    Bad arguments raise ``ValueError`` naming the column and row; a feature this
    writer does not produce raises :class:`UnsupportedFeature`.
    """
    columns = list(columns)
    num_rows = _validate(columns, data)
    row_group_size = _positive_or_none(row_group_size, "row_group_size") or max(num_rows, 1)
    rows_per_page = _positive_or_none(rows_per_page, "rows_per_page")

    out = bytearray(MAGIC)
    row_groups = []
    for ordinal, first_row in enumerate(range(0, num_rows, row_group_size)):
        rows = range(first_row, min(first_row + row_group_size, num_rows))
        row_groups.append(_write_row_group(out, columns, data, rows, ordinal, rows_per_page))

    footer = FileMetaData(
        version=FORMAT_VERSION,
        schema=schema_elements(columns),
        num_rows=num_rows,
        row_groups=row_groups,
        key_value_metadata=_key_values(key_value_metadata),
        created_by=created_by,
        column_orders=[ColumnOrder(TYPE_ORDER=TypeDefinedOrder()) for _ in columns],
    )
    footer_bytes = serialize(footer)
    out += footer_bytes
    out += FOOTER_LENGTH.pack(len(footer_bytes))
    out += MAGIC
    _emit(sink, bytes(out))


# ---------------------------------------------------------------------------
# Validation of the caller's arguments
# ---------------------------------------------------------------------------


def _validate(columns: list[ColumnSpec], data: Mapping[str, Sequence[object]]) -> int:
    """Check schema and values; return the number of rows."""
    if not columns:
        raise ValueError("a Parquet file needs at least one column")
    for column in columns:
        if not isinstance(column, ColumnSpec):
            raise ValueError(f"columns must be ColumnSpec, got {type(column).__name__}")
    names = [column.name for column in columns]
    if len(set(names)) != len(names):
        raise ValueError(f"duplicate column names: {names}")
    if set(data) != set(names):
        missing, extra = set(names) - set(data), set(data) - set(names)
        raise ValueError(f"data does not match the columns: missing {missing}, unexpected {extra}")
    lengths = {name: len(data[name]) for name in names}
    if len(set(lengths.values())) != 1:
        raise ValueError(f"columns have different numbers of rows: {lengths}")
    for column in columns:
        if column.repetition not in (FieldRepetitionType.REQUIRED, FieldRepetitionType.OPTIONAL):
            raise UnsupportedFeature(
                f"column {column.name!r}: repetition {column.repetition.name} (nested data)"
            )
        for row, value in enumerate(data[column.name]):
            _check_value(column, row, value)
    return lengths[names[0]]


def _check_value(column: ColumnSpec, row: int, value: object) -> None:
    problem = _value_problem(column, value)
    if problem:
        raise ValueError(f"column {column.name!r}, row {row}: {problem}, got {value!r:.80}")


def _value_problem(column: ColumnSpec, value: object) -> str | None:
    """What is wrong with ``value`` as a physical value of ``column``, or None."""
    physical_type = column.physical_type
    if value is None:
        if column.repetition == FieldRepetitionType.REQUIRED:
            return "None (null) in a REQUIRED column"
        return None
    if physical_type == Type.BOOLEAN:
        return None if isinstance(value, bool) else "expected bool"
    if physical_type in INT_BITS:
        if not isinstance(value, int) or isinstance(value, bool):
            return f"expected int for {physical_type.name}"
        bits = INT_BITS[physical_type]
        if not -(1 << (bits - 1)) <= value < 1 << (bits - 1):
            return f"out of the signed {bits}-bit range of {physical_type.name}"
        return None
    if physical_type == Type.INT96:
        if not isinstance(value, bytes | bytearray) or len(value) != INT96_BYTES:
            return f"expected bytes of length {INT96_BYTES} for INT96"
        return None
    if physical_type == Type.FLOAT:
        if not isinstance(value, float):
            return "expected float"
        return None if _exact_float32(value) else "not exactly representable as a 32-bit float"
    if physical_type == Type.DOUBLE:
        return None if isinstance(value, float) else "expected float"
    if physical_type == Type.BYTE_ARRAY:
        if not isinstance(value, bytes | bytearray):
            return "expected bytes for BYTE_ARRAY"
        return None if len(value) <= MAX_I32 else "longer than a page can hold"
    if physical_type == Type.FIXED_LEN_BYTE_ARRAY:
        if not isinstance(value, bytes | bytearray) or len(value) != column.type_length:
            return f"expected bytes of length {column.type_length} for FIXED_LEN_BYTE_ARRAY"
        return None
    return f"unknown physical type {physical_type!r}"


def _exact_float32(value: float) -> bool:
    """True if packing ``value`` as a float32 loses nothing (bits included, so NaN
    payloads and -0.0 count); a value that rounds or overflows is refused rather
    than silently changed."""
    try:
        packed = FLOAT32.pack(value)
    except OverflowError:
        return False
    (back,) = FLOAT32.unpack(packed)
    return FLOAT64.pack(back) == FLOAT64.pack(value)


def _positive_or_none(value: int | None, name: str) -> int | None:
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{name} must be a positive int or None, got {value!r}")
    return value


def _key_values(pairs: Mapping[str, str] | None) -> list[KeyValue] | None:
    if not pairs:
        return None
    for key, value in pairs.items():
        if not isinstance(key, str) or not (value is None or isinstance(value, str)):
            raise ValueError(f"key_value_metadata must map str to str, got {key!r}: {value!r}")
    return [KeyValue(key=key, value=value) for key, value in pairs.items()]


# ---------------------------------------------------------------------------
# Row groups, column chunks, pages
# ---------------------------------------------------------------------------


def _write_row_group(
    out: bytearray,
    columns: list[ColumnSpec],
    data: Mapping[str, Sequence[object]],
    rows: range,
    ordinal: int,
    rows_per_page: int | None,
) -> RowGroup:
    first_page_offset = len(out)
    chunks = [
        _write_column_chunk(out, column, data[column.name][rows.start : rows.stop], rows_per_page)
        for column in columns
    ]
    total_size = sum(chunk.meta_data.total_compressed_size for chunk in chunks)
    return RowGroup(
        columns=chunks,
        total_byte_size=sum(chunk.meta_data.total_uncompressed_size for chunk in chunks),
        num_rows=len(rows),
        file_offset=first_page_offset,
        total_compressed_size=total_size,
        ordinal=ordinal if ordinal <= MAX_I16 else None,
    )


@dataclass
class _EncodedPage:
    header: PageHeader
    body: bytes


def _write_column_chunk(
    out: bytearray, column: ColumnSpec, values: Sequence[object], rows_per_page: int | None
) -> ColumnChunk:
    chunk_start = len(out)
    page_size = rows_per_page or len(values)
    page_count = 0
    for first in range(0, len(values), page_size):
        page = _data_page_v1(column, values[first : first + page_size])
        out += serialize(page.header)
        out += page.body
        page_count += 1
    chunk_size = len(out) - chunk_start
    encodings = [Encoding.PLAIN]
    if max_definition_level(column) > 0:
        encodings.append(Encoding.RLE)  # the definition levels
    meta_data = ColumnMetaData(
        type=column.physical_type,
        encodings=encodings,
        path_in_schema=[column.name],
        codec=CompressionCodec.UNCOMPRESSED,
        num_values=len(values),
        total_uncompressed_size=chunk_size,  # no compression: both sizes are equal
        total_compressed_size=chunk_size,
        data_page_offset=chunk_start,
        encoding_stats=[
            PageEncodingStats(
                page_type=PageType.DATA_PAGE, encoding=Encoding.PLAIN, count=page_count
            )
        ],
    )
    return ColumnChunk(file_offset=0, meta_data=meta_data)


def _data_page_v1(column: ColumnSpec, values: Sequence[object]) -> _EncodedPage:
    max_level = max_definition_level(column)
    body = b""
    if max_level > 0:
        levels = [0 if value is None else max_level for value in values]
        body += encode_rle_hybrid_length_prefixed(levels, bit_width_for(max_level))
    present = [value for value in values if value is not None]
    body += encode_plain(column.physical_type, present, column.type_length)
    if len(body) > MAX_I32:
        raise ValueError(
            f"column {column.name!r}: a data page of {len(body)} bytes exceeds the i32 "
            "page size; pass a smaller rows_per_page"
        )
    header = PageHeader(
        type=PageType.DATA_PAGE,
        uncompressed_page_size=len(body),
        compressed_page_size=len(body),
        data_page_header=DataPageHeader(
            num_values=len(values),  # including nulls
            encoding=Encoding.PLAIN,
            definition_level_encoding=Encoding.RLE,
            repetition_level_encoding=Encoding.RLE,
        ),
    )
    return _EncodedPage(header, body)


def _emit(sink: BinaryIO | str | os.PathLike[str], content: bytes) -> None:
    if isinstance(sink, str | os.PathLike):
        with open(sink, "wb") as file:
            file.write(content)
    else:
        sink.write(content)
