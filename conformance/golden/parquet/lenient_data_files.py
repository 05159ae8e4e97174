"""Files of the data path that break one rule but have exactly one reading.

Each is made like a bad file (``bad_files``): the reference writer writes a small
valid original, then exactly one thing is changed, located through the file's own
metadata. The reference reads each leniently, with the rows of its original and a
breach naming the rule (``reference_impl.common.leniency``); read strictly, it raises the
rule's documented error, the ``error_class`` of its entry.

* ``lenient/v2-num-rows``: parquet.thrift 'DataPageHeaderV2.num_rows' counts the
  page's rows, the repetition levels count them too (parquet-cpp-arrow 8.0 wrote
  the number of entries for repeated columns);
* ``lenient/file-num-rows-zero``: parquet.thrift 'FileMetaData.num_rows' is 0,
  the row groups hold rows;
* ``lenient/page-past-chunk``: a page runs past ``total_compressed_size``
  (parquet.thrift 'ColumnMetaData.total_compressed_size'), inside the data region;
* ``lenient/variant-optional-metadata`` and ``lenient/variant-optional-value``:
  VariantEncoding.md, 'Variant in Parquet': an OPTIONAL ``metadata``, an OPTIONAL
  ``value`` of an unshredded VARIANT, every row holding both.
"""

from __future__ import annotations

import io
from dataclasses import replace
from functools import cache
from typing import Any

from reference_impl.parquet.metadata import parquet_thrift as md
from reference_impl.parquet.pages.chunk_reader import PAGE_PAST_CHUNK, V2_NUM_ROWS
from reference_impl.parquet.reader import FILE_NUM_ROWS_ZERO
from reference_impl.parquet.schema.nested_types import list_node, records_from_logical
from reference_impl.parquet.schema.tree import group, leaf, root
from reference_impl.parquet.schema.variant_encoding import Primitive, encode_metadata, encode_primitive
from reference_impl.parquet.schema.variant_shredding import (
    OPTIONAL_METADATA,
    VALUE_REPETITION,
    VARIANT_SPEC_VERSION,
)
from reference_impl.parquet.writer import write_table
from reference_impl.parquet.writer_options import WriterOptions

from ..bad_file import ACCEPTABLE, BadFile
from .bad_files import (
    _pages,
    _with_chunk,
    _with_footer,
    _with_header,
    plain_required,
    read_footer,
)

__all__ = [
    "acceptable_files",
    "bad_files_of_rules",
    "file_num_rows_zero",
    "page_past_chunk",
    "repeated_v2",
    "v2_num_rows_counts_entries",
    "variant_optional",
    "variant_optional_metadata",
    "variant_optional_value",
]

REQUIRED = md.FieldRepetitionType.REQUIRED
OPTIONAL = md.FieldRepetitionType.OPTIONAL
LIST_COLUMN = "numbers"
# Rows of the repeated column: more entries than rows, and every count a one-byte varint.
LISTS = [[1, 2, 3], [], [4], [5, 6]]
VARIANT_COLUMN = "v"
VARIANT_ROWS = 3
SHORTFALL = 2  # bytes the mutated total_compressed_size falls short of the chunk's pages
PAGE_VERSION_2 = 2


def _write(tree: Any, records: list[dict[str, Any]], options: WriterOptions | None = None) -> bytes:
    sink = io.BytesIO()
    write_table(sink, tree, records, options or WriterOptions())
    return sink.getvalue()


# ---------------------------------------------------------------------------
# Originals
# ---------------------------------------------------------------------------


@cache
def repeated_v2() -> bytes:
    """A list of required INT32 in data pages v2."""
    element = leaf("element", md.Type.INT32, repetition=REQUIRED)
    tree = root([list_node(LIST_COLUMN, element, repetition=REQUIRED)])
    records = records_from_logical(tree, [{LIST_COLUMN: values} for values in LISTS])
    return _write(tree, records, WriterOptions(page_version=PAGE_VERSION_2))


def _variant_tree(metadata: md.FieldRepetitionType, value: md.FieldRepetitionType) -> Any:
    variant = md.LogicalType(VARIANT=md.VariantType(specification_version=VARIANT_SPEC_VERSION))
    children = [leaf("metadata", md.Type.BYTE_ARRAY, repetition=metadata),
                leaf("value", md.Type.BYTE_ARRAY, repetition=value)]
    return root([group(VARIANT_COLUMN, children, repetition=REQUIRED, logical_type=variant)])


def variant_optional(metadata: md.FieldRepetitionType, value: md.FieldRepetitionType) -> bytes:
    """An unshredded VARIANT column of small integers; every row holds metadata and value."""
    metadata_bytes = encode_metadata([])
    values = [encode_primitive(Primitive.INT8, bytes([row])) for row in range(VARIANT_ROWS)]
    records = [{VARIANT_COLUMN: {"metadata": metadata_bytes, "value": value}} for value in values]
    return _write(_variant_tree(metadata, value), records)


@cache
def variant_original() -> bytes:
    return variant_optional(REQUIRED, REQUIRED)


# ---------------------------------------------------------------------------
# Mutations
# ---------------------------------------------------------------------------


def v2_num_rows_counts_entries() -> bytes:
    """The v2 data page's num_rows set to its num_values, as parquet-cpp-arrow 8.0 wrote it."""
    raw = repeated_v2()
    page = next(p for p in _pages(raw) if p.header.type == md.PageType.DATA_PAGE_V2)
    inner = page.header.data_page_header_v2
    if inner is None:  # a DATA_PAGE_V2 of the reference writer has one
        raise AssertionError("the base file's DATA_PAGE_V2 has no data_page_header_v2")
    wrong = replace(inner, num_rows=inner.num_values)
    return _with_header(raw, page, replace(page.header, data_page_header_v2=wrong))


def file_num_rows_zero() -> bytes:
    raw = plain_required()
    footer, _ = read_footer(raw)
    return _with_footer(raw, replace(footer, num_rows=0))


def page_past_chunk() -> bytes:
    """The chunk's total_compressed_size ``SHORTFALL`` bytes short: its last page runs past it."""
    raw = plain_required()
    footer, _ = read_footer(raw)
    meta = footer.row_groups[0].columns[0].meta_data
    assert meta is not None  # the reference writer puts it in the footer
    return _with_chunk(raw, total_compressed_size=meta.total_compressed_size - SHORTFALL)


def variant_optional_metadata() -> bytes:
    return variant_optional(OPTIONAL, REQUIRED)


def variant_optional_value() -> bytes:
    return variant_optional(REQUIRED, OPTIONAL)


# ---------------------------------------------------------------------------
# The entries
# ---------------------------------------------------------------------------


def acceptable_files() -> list[BadFile]:
    """One file per lenient rule of the data path (see the module docstring)."""
    return [
        BadFile(
            "lenient/v2-num-rows",
            "The repeated column's DataPageHeaderV2.num_rows is its num_values (entries), not its rows.",
            V2_NUM_ROWS.error.__name__,
            (V2_NUM_ROWS.spec,),
            v2_num_rows_counts_entries,
            repeated_v2,
            verdict=ACCEPTABLE,
        ),
        BadFile(
            "lenient/file-num-rows-zero",
            "FileMetaData.num_rows is 0, its row group holds rows.",
            FILE_NUM_ROWS_ZERO.error.__name__,
            (FILE_NUM_ROWS_ZERO.spec,),
            file_num_rows_zero,
            plain_required,
            verdict=ACCEPTABLE,
        ),
        BadFile(
            "lenient/page-past-chunk",
            f"The column chunk's total_compressed_size is {SHORTFALL} bytes short of its pages: "
            f"the last page runs past it, inside the data region.",
            PAGE_PAST_CHUNK.error.__name__,
            (PAGE_PAST_CHUNK.spec,),
            page_past_chunk,
            plain_required,
            verdict=ACCEPTABLE,
        ),
        BadFile(
            "lenient/variant-optional-metadata",
            "The VARIANT group's metadata field is OPTIONAL; every row has one.",
            OPTIONAL_METADATA.error.__name__,
            (OPTIONAL_METADATA.spec,),
            variant_optional_metadata,
            variant_original,
            verdict=ACCEPTABLE,
        ),
        BadFile(
            "lenient/variant-optional-value",
            "The unshredded VARIANT group's value field is OPTIONAL; every row has one.",
            VALUE_REPETITION.error.__name__,
            (VALUE_REPETITION.spec,),
            variant_optional_value,
            variant_original,
            verdict=ACCEPTABLE,
        ),
    ]


def bad_files_of_rules() -> list[BadFile]:
    """The data path's rules that have no single reading: none beyond the bad-file corpus."""
    return []
