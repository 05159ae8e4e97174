"""Writing Parquet files: any schema tree, every encoding, codec and page layout.

README.md, 'File format' gives the layout written here::

    "PAR1" | column chunks, row group by row group | FileMetaData | length | "PAR1"

Two entry points:

* :func:`write_table` takes a schema tree (``schema_tree.SchemaNode``; build
  it with ``schema_tree.leaf``/``group``/``root`` and ``nested_logical.list_node``/
  ``map_node``), the records as raw physical records (``shredding`` says what
  they look like; ``nested_logical.records_from_logical`` makes them from lists
  and maps) and :class:`~reference_impl.parquet.writer_options.WriterOptions`,
  which reach every knob: encoding (per column), dictionary with size limit and
  fallback, codec (per column) and level, data page v1 or v2, v2
  ``is_compressed``, page limits in records and bytes, row group size, RLE or
  BIT_PACKED levels, ``created_by``, key-value metadata.
* :func:`write_parquet` is the flat convenience: ``ColumnSpec`` columns and a
  list of values per column.

Per row group, the records are shredded ('3.5 - Nested Encoding') and each leaf
column becomes a column chunk (``chunk_writer``: pages, dictionary, levels,
compression, ColumnMetaData).

Metadata written beyond the required fields: the schema exactly as the tree
says (``leaf``, ``group``, ``list_node`` and ``map_node`` set LogicalType *and*
the ConvertedType LogicalTypes.md defines for it, 'Compatibility'; a node built
with ``converted_type=None`` is written without one, which is how the
reference produces LogicalType-only files), column_orders for every leaf
(parquet.thrift 'FileMetaData.column_orders'): the member ``WriterOptions.column_orders``
names, else TypeDefinedOrder, and Int96TimestampOrder for INT96
(``chunk_statistics.leaf_column_order``), encoding_stats,
row group ordinal, created_by. ``ColumnChunk.file_offset`` is 0, as the current
parquet.thrift asks of writers that store no ColumnMetaData outside the footer.

Metadata for skipping data, as WriterOptions asks: chunk statistics and size
statistics (``chunk_statistics``, ``statistics``, ``size_statistics``), page
header statistics and CRCs (``chunk_writer``, ``checksum``), Bloom filters
after all row groups or between them and the page index after the row groups
(``footer_indexes``), and, for tests only, deliberate lies (``lies``).
Output is deterministic: the same arguments give the same bytes (with
encryption only under the test-only ``DeterministicRandomness``).

Encryption ('3.7.3 - Parquet Modular Encryption', ``WriterOptions.encryption``,
``encryption``): every module of an encrypted column is encrypted with its key
as it is written (pages and headers in ``chunk_writer``, page index and Bloom
filters in ``footer_indexes``); at the footer, each encrypted chunk gets its
crypto_metadata and, where '5.3' asks, its ColumnMetaData as an encrypted
module, and the file ends with an encrypted ("PARE") or a signed plaintext
footer (``encryption.encryptor``). ``RowGroup.ordinal`` is always set then.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, BinaryIO

from reference_impl.common.ieee_float import narrow_float_bits
from reference_impl.parquet.encodings.plain import FLOAT_BITS
from reference_impl.parquet.encodings.values import check_value_encoding
from reference_impl.parquet.encryption.encryptor import FileEncryptor
from reference_impl.parquet.errors import UnsupportedFeature
from reference_impl.parquet.indexes.footer_indexes import write_bloom_filters, write_page_indexes
from reference_impl.parquet.lies import false_geospatial_statistics, false_nan_count, false_statistics
from reference_impl.parquet.metadata.binary_protocol_extensions import TEST_EXTENSION
from reference_impl.parquet.metadata.file_layout import ENCRYPTED_FOOTER_MAGIC, FOOTER_LENGTH, MAGIC
from reference_impl.parquet.metadata.parquet_thrift import (
    ColumnMetaData,
    FieldRepetitionType,
    FileMetaData,
    KeyValue,
    RowGroup,
    Type,
)
from reference_impl.parquet.metadata.thrift_struct import serialize
from reference_impl.parquet.nested.shredding import shred_records
from reference_impl.parquet.pages.chunk_writer import WrittenChunk, write_column_chunk
from reference_impl.parquet.schema.flat import ColumnSpec, schema_tree_of
from reference_impl.parquet.schema.tree import LeafColumn, SchemaNode, leaf_columns, schema_tree_to_elements
from reference_impl.parquet.statistics.chunk_statistics import leaf_column_order
from reference_impl.parquet.statistics.sort_order import column_order_problem, written_column_order
from reference_impl.parquet.writer_options import DEFAULT_CREATED_BY, WriterOptions

__all__ = ["DEFAULT_CREATED_BY", "WriterOptions", "write_parquet", "write_table"]

# The file format version: the current parquet.thrift says writers should always write 1.
FORMAT_VERSION = 1
MAX_I32 = (1 << 31) - 1  # page sizes and value counts are i32 in PageHeader
MAX_I16 = (1 << 15) - 1  # RowGroup.ordinal is an i16
INT_BITS = {Type.INT32: 32, Type.INT64: 64}
INT96_BYTES = 12

Sink = BinaryIO | str | os.PathLike[str]


def write_table(
    sink: Sink,
    tree: SchemaNode,
    records: Sequence[Mapping[str, Any]],
    options: WriterOptions | None = None,
) -> FileMetaData:
    """Write ``records`` (raw physical records of ``tree``) to ``sink``; return the footer.

    Bad arguments raise ``ValueError`` naming the record, field or column: a
    record that does not fit the tree, a leaf value of the wrong physical type,
    an encoding that does not apply to a column's type, a per-column option for
    a column that does not exist.
    """
    options = options or WriterOptions()
    leaves = _check_tree(tree, options)
    encryptor = FileEncryptor(options.encryption, leaves) if options.encryption is not None else None
    records = list(records)
    row_group_size = options.row_group_size or max(len(records), 1)
    # '3.7.3', 5.3: an encrypted footer changes the magic at both ends.
    encrypted_footer = encryptor is not None and not encryptor.properties.plaintext_footer
    out = bytearray(ENCRYPTED_FOOTER_MAGIC if encrypted_footer else MAGIC)
    row_groups = []
    written: list[list[WrittenChunk]] = []
    for ordinal, (first, group_records) in enumerate(_row_group_spans(records, row_group_size, options)):
        row_group, chunks = _write_row_group(
            out, leaves, tree, group_records, first, ordinal, options, encryptor
        )
        if options.bloom_filter_placement == "between_row_groups":
            write_bloom_filters(out, leaves, chunks, options)
        row_groups.append(row_group)
        written.append(chunks)
    if options.bloom_filter_placement == "after_row_groups":
        for chunks in written:
            write_bloom_filters(out, leaves, chunks, options)
    if options.page_index:
        write_page_indexes(out, leaves, written, options)
    footer = FileMetaData(
        version=FORMAT_VERSION,
        schema=schema_tree_to_elements(tree),
        num_rows=len(records),
        row_groups=row_groups,
        key_value_metadata=_key_values(options.key_value_metadata),
        created_by=options.created_by,
        column_orders=[
            written_column_order(leaf_column_order(leaf, options.for_column(leaf.dotted_path)))
            for leaf in leaves
        ],
    )
    if "file_metadata" in options.thrift_extensions:
        footer.extension_bytes = TEST_EXTENSION
    if encryptor is not None:
        for ordinal, chunks in enumerate(written):
            for leaf, chunk in zip(leaves, chunks, strict=True):
                encryptor.seal_column_metadata(chunk.chunk, leaf, ordinal)
        footer, tail = encryptor.file_tail(footer)
        out += tail
    else:
        footer_bytes = serialize(footer)
        out += footer_bytes
        out += FOOTER_LENGTH.pack(len(footer_bytes))
        out += MAGIC
    _emit(sink, bytes(out))
    return footer


def _row_group_spans(records: list, size: int, options: WriterOptions) -> list[tuple[int, list]]:
    """(first record, records) of each row group; with ``empty_row_groups``, one of no
    records before the first, between every two and after the last."""
    spans = [(first, records[first : first + size]) for first in range(0, len(records), size)]
    if not options.empty_row_groups:
        return spans
    out: list[tuple[int, list]] = [(0, [])]
    for first, group in spans:
        out += [(first, group), (first + len(group), [])]
    return out


def write_parquet(
    sink: Sink,
    columns: Sequence[ColumnSpec],
    data: Mapping[str, Sequence[object]],
    *,
    row_group_size: int | None = None,
    created_by: str | None = None,
    key_value_metadata: Mapping[str, str] | None = None,
    rows_per_page: int | None = None,
    options: WriterOptions | None = None,
) -> FileMetaData:
    """Write a flat Parquet file.

    ``data`` maps each column name to its physical values (``None`` for null).
    ``row_group_size`` is rows per row group (``None``: one row group);
    ``rows_per_page`` is rows per data page (``None``: one page per column chunk);
    ``options`` sets every other knob (the keyword arguments given here win).
    Bad arguments raise ``ValueError`` naming the column and row; a REPEATED
    column raises :class:`UnsupportedFeature` (use :func:`write_table`).
    """
    columns = list(columns)
    num_rows = _validate(columns, data)
    options = options or WriterOptions()
    overrides: dict[str, Any] = {}
    if row_group_size is not None:
        overrides["row_group_size"] = _positive(row_group_size, "row_group_size")
    if rows_per_page is not None:
        overrides["page_row_limit"] = _positive(rows_per_page, "rows_per_page")
    if created_by is not None:
        overrides["created_by"] = created_by
    if key_value_metadata is not None:
        overrides["key_value_metadata"] = _checked_pairs(key_value_metadata)
    options = replace(options, **overrides)
    names = [column.name for column in columns]
    records = [{name: data[name][row] for name in names} for row in range(num_rows)]
    return write_table(sink, schema_tree_of(columns), records, options)


# ---------------------------------------------------------------------------
# Validation of the caller's arguments
# ---------------------------------------------------------------------------


def _check_tree(tree: SchemaNode, options: WriterOptions) -> list[LeafColumn]:
    if not isinstance(tree, SchemaNode) or tree.is_leaf:
        raise ValueError("the schema must be a root group (schema_tree.root)")
    leaves = leaf_columns(tree)
    if not leaves:
        raise ValueError("a Parquet file needs at least one column")
    fields = {".".join(leaf.path[:length]) for leaf in leaves for length in range(1, len(leaf.path) + 1)}
    unknown = sorted(options.column_keys - fields)
    if unknown:
        raise ValueError(f"per-column options name no column or group of the schema: {unknown}")
    for leaf in leaves:
        settings = options.for_column(leaf.dotted_path)
        problem = check_value_encoding(settings.encoding, leaf.node.leaf_type)
        if problem:
            which = "fallback encoding" if settings.dictionary is not None else "encoding"
            raise ValueError(f"column {leaf.dotted_path}: {which} {problem}")
        order = leaf_column_order(leaf, settings)
        problem = column_order_problem(order, leaf.node.leaf_type, leaf.node.logical_type)
        if problem:
            raise ValueError(f"column {leaf.dotted_path}: column order {problem}")
    return leaves


def _validate(columns: list[ColumnSpec], data: Mapping[str, Sequence[object]]) -> int:
    """Check the flat schema and values; return the number of rows."""
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
                f"column {column.name!r}: repetition {column.repetition.name} (nested data: use write_table)"
            )
        for row, value in enumerate(data[column.name]):
            if value is None:
                if column.repetition == FieldRepetitionType.REQUIRED:
                    raise ValueError(f"column {column.name!r}, row {row}: None (null) in a REQUIRED column")
                continue
            problem = value_problem(column.physical_type, column.type_length, value)
            if problem:
                raise ValueError(f"column {column.name!r}, row {row}: {problem}, got {value!r:.80}")
    return lengths[names[0]]


def _check_leaf_values(leaf: LeafColumn, values: Sequence[object], first_record: int) -> None:
    node = leaf.node
    for index, value in enumerate(values):
        problem = value_problem(node.physical_type, node.type_length, value)  # type: ignore[arg-type]
        if problem:
            raise ValueError(
                f"column {leaf.dotted_path}, value {index} of the row group starting at record "
                f"{first_record}: {problem}, got {value!r:.80}"
            )


def value_problem(physical_type: Type, type_length: int | None, value: object) -> str | None:
    """What is wrong with non-null ``value`` as a physical value of the type, or None."""
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
        if not isinstance(value, bytes | bytearray) or len(value) != type_length:
            return f"expected bytes of length {type_length} for FIXED_LEN_BYTE_ARRAY"
        return None
    return f"unknown physical type {physical_type!r}"


def _exact_float32(value: float) -> bool:
    """True if ``value`` is the double of a FLOAT, bits included (``ieee_float``: -0.0,
    NaN payloads and signalling NaNs count); a value that would round or overflow is
    refused rather than silently changed."""
    try:
        narrow_float_bits([value], FLOAT_BITS)
    except ValueError:
        return False
    return True


def _positive(value: int, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{name} must be a positive int or None, got {value!r}")
    return value


def _checked_pairs(pairs: Mapping[str, str]) -> Mapping[str, str]:
    for key, value in pairs.items():
        if not isinstance(key, str) or not (value is None or isinstance(value, str)):
            raise ValueError(f"key_value_metadata must map str to str, got {key!r}: {value!r}")
    return pairs


def _key_values(pairs: Mapping[str, str | None] | None) -> list[KeyValue] | None:
    if not pairs:
        return None
    return [KeyValue(key=key, value=value) for key, value in pairs.items()]


# ---------------------------------------------------------------------------
# Row groups
# ---------------------------------------------------------------------------


def _write_row_group(
    out: bytearray,
    leaves: list[LeafColumn],
    tree: SchemaNode,
    records: list[Mapping[str, Any]],
    first_record: int,
    ordinal: int,
    options: WriterOptions,
    encryptor: FileEncryptor | None = None,
) -> tuple[RowGroup, list[WrittenChunk]]:
    first_page_offset = len(out)
    try:
        columns = shred_records(tree, records)
    except ValueError as error:
        raise ValueError(f"{error} (record numbers count from record {first_record})") from error
    written = []
    for leaf, column in zip(leaves, columns, strict=True):
        _check_leaf_values(leaf, column.values, first_record)
        crypto = encryptor.column(leaf, ordinal) if encryptor is not None else None
        chunk = write_column_chunk(out, leaf, column, options.for_column(leaf.dotted_path), crypto)
        meta = _chunk_metadata(chunk)
        if "statistics" in options.lies and meta.statistics is not None:
            meta.statistics = false_statistics(meta.statistics)
        if "nan_count" in options.lies and meta.statistics is not None:
            meta.statistics = false_nan_count(meta.statistics)
        if "statistics" in options.lies and meta.geospatial_statistics is not None:
            meta.geospatial_statistics = false_geospatial_statistics(meta.geospatial_statistics)
        if "column_metadata" in options.thrift_extensions:
            meta.extension_bytes = TEST_EXTENSION
        written.append(chunk)
    metas = [_chunk_metadata(chunk) for chunk in written]
    row_group = RowGroup(
        columns=[chunk.chunk for chunk in written],
        total_byte_size=sum(meta.total_uncompressed_size for meta in metas),
        num_rows=len(records),
        file_offset=first_page_offset,
        total_compressed_size=sum(meta.total_compressed_size for meta in metas),
        # Encrypted files always have it ('3.7.3', 5.2; the AADs refuse more than MAX_I16 + 1).
        ordinal=ordinal if ordinal <= MAX_I16 or encryptor is not None else None,
    )
    return row_group, written


def _chunk_metadata(chunk: WrittenChunk) -> ColumnMetaData:
    """A written chunk's ColumnMetaData, which write_column_chunk always sets."""
    if chunk.chunk.meta_data is None:
        raise ValueError("a written chunk without its ColumnMetaData")
    return chunk.chunk.meta_data


def _emit(sink: Sink, content: bytes) -> None:
    if isinstance(sink, str | os.PathLike):
        with open(sink, "wb") as file:
            file.write(content)
    else:
        sink.write(content)
