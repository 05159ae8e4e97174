"""One-fault files of the footer's Thrift encoding and of the schema, each with its verdict.

The issue "Every file from the wild gets an honest verdict" (docs/architecture.md,
'Verdicts'): a file that breaks a rule but has exactly one reading is read, the
rule named (:func:`acceptable_files`); a file whose fault leaves more than one
reading is rejected with a documented error (:func:`bad_files_of_rules`).

* Acceptable: an optional ``ColumnMetaData`` field sent with another wire type
  (README.md, 'Metadata'; Apache Thrift's generated readers skip it); a
  ``KeyValue.value`` that is not UTF-8 (parquet.thrift ``struct KeyValue``);
  a schema root with a repetition type or a physical type (parquet.thrift
  ``SchemaElement.repetition_type``, ``SchemaElement.type``).
* Rejected: a non-root field without a repetition type (any of three, each
  giving other levels), duplicate sibling names (two columns, one
  ``path_in_schema``), an OPTIONAL group without children (no column says
  whether it is present).

Each file is the reference writer's valid file with exactly one thing changed
in its footer, found through the decoded footer, as in ``bad_files``.
"""

from __future__ import annotations

import dataclasses
import io
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from reference_impl.common.leniency import Rule
from reference_impl.parquet.metadata import parquet_thrift as md
from reference_impl.parquet.metadata.thrift_struct import (
    FIELD_WIRE_TYPE,
    KEY_VALUE_UTF8,
    TI32,
    TList,
    serialize,
    thrift_field,
)
from reference_impl.parquet.reader import read_footer
from reference_impl.parquet.schema.tree import ROOT_PHYSICAL_TYPE, ROOT_REPETITION, leaf, root
from reference_impl.parquet.writer import write_table
from reference_impl.parquet.writer_options import WriterOptions

from ..bad_file import BadFile
from .bad_files import (
    COLUMN,
    REQUIRED,
    ROWS,
    _with_footer,
    _with_footer_bytes,
    plain_required,
)

__all__ = ["acceptable_files", "bad_files_of_rules"]

OTHER_COLUMN = "y"  # as long as COLUMN, so renaming it keeps the footer's length
NOTE_KEY = "note"
NOTE_VALUE = "plain"
NOT_UTF8 = b"\xff\xfe\xfd\xfc\xfb"  # bytes no UTF-8 sequence starts with; len(NOTE_VALUE)
PRE_RELEASE_LIST = [0]  # what stands in field 15 instead of an i32
EMPTY_GROUP = "g"
SPEC_REPETITION = "parquet.thrift: struct SchemaElement, SchemaElement.repetition_type"
SPEC_NAME = "parquet.thrift: struct SchemaElement, SchemaElement.name"
SPEC_PATH = "parquet.thrift: struct ColumnMetaData, ColumnMetaData.path_in_schema"
SPEC_NUM_CHILDREN = "parquet.thrift: struct SchemaElement, SchemaElement.num_children"


@dataclass
class _PreReleaseColumnMetaData(md.ColumnMetaData):
    """ColumnMetaData as a pre-release parquet-mr 1.12 wrote it: field 15 a list."""

    bloom_filter_length: Any = thrift_field(15, TList(TI32))


# ---------------------------------------------------------------------------
# Valid originals
# ---------------------------------------------------------------------------


def _int32_columns(names: list[str], **options: Any) -> bytes:
    tree = root([leaf(name, md.Type.INT32, repetition=REQUIRED) for name in names])
    records = [dict.fromkeys(names, row) for row in range(ROWS)]
    sink = io.BytesIO()
    write_table(sink, tree, records, WriterOptions(**options))
    return sink.getvalue()


@cache
def with_key_value() -> bytes:
    """Column x, and the footer's key-value pair note=plain."""
    return _int32_columns([COLUMN], key_value_metadata={NOTE_KEY: NOTE_VALUE})


@cache
def two_columns() -> bytes:
    """Columns x and y, INT32 0..ROWS-1 each."""
    return _int32_columns([COLUMN, OTHER_COLUMN])


# ---------------------------------------------------------------------------
# Mutations
# ---------------------------------------------------------------------------


def _with_schema(raw: bytes, schema: list[md.SchemaElement]) -> bytes:
    footer, _ = read_footer(raw)
    return _with_footer_bytes(raw, serialize(replace(footer, schema=schema)))


def field_with_other_wire_type() -> bytes:
    raw = plain_required()
    footer, _ = read_footer(raw)
    column = footer.row_groups[0].columns[0]
    fields = {f.name: getattr(column.meta_data, f.name) for f in dataclasses.fields(md.ColumnMetaData)}
    column.meta_data = _PreReleaseColumnMetaData(**{**fields, "bloom_filter_length": PRE_RELEASE_LIST})
    return _with_footer_bytes(raw, serialize(footer))


def key_value_not_utf8() -> bytes:
    raw = with_key_value()
    footer, _ = read_footer(raw)
    footer.key_value_metadata = [md.KeyValue(key=NOTE_KEY, value=NOT_UTF8)]
    return _with_footer(raw, footer)


def root_with_repetition() -> bytes:
    raw = plain_required()
    schema = read_footer(raw)[0].schema
    optional_root = replace(schema[0], repetition_type=md.FieldRepetitionType.OPTIONAL)
    return _with_schema(raw, [optional_root, *schema[1:]])


def root_with_physical_type() -> bytes:
    raw = plain_required()
    schema = read_footer(raw)[0].schema
    return _with_schema(raw, [replace(schema[0], type=md.Type.INT32), *schema[1:]])


def field_without_repetition() -> bytes:
    raw = plain_required()
    root_element, column = read_footer(raw)[0].schema
    return _with_schema(raw, [root_element, replace(column, repetition_type=None)])


def duplicate_sibling_names() -> bytes:
    raw = two_columns()
    footer, _ = read_footer(raw)
    root_element, first, second = footer.schema
    return _with_footer(raw, replace(footer, schema=[root_element, first, replace(second, name=COLUMN)]))


def group_without_children() -> bytes:
    raw = plain_required()
    root_element, column = read_footer(raw)[0].schema
    empty = md.SchemaElement(
        name=EMPTY_GROUP, repetition_type=md.FieldRepetitionType.OPTIONAL, num_children=0
    )
    return _with_schema(raw, [replace(root_element, num_children=2), column, empty])


# ---------------------------------------------------------------------------
# The entries
# ---------------------------------------------------------------------------


def _acceptable(name: str, fault: str, rule: Rule, make: Any, original: Any) -> BadFile:
    return BadFile(
        f"lenient/{name}", fault, rule.error.__name__, (rule.spec,), make, original,
        verdict="acceptable",
    )


def acceptable_files() -> list[BadFile]:
    """One file per rule of the footer and schema read leniently."""
    return [
        _acceptable(
            "thrift-field-wire-type",
            "ColumnMetaData field 15 (bloom_filter_length, an i32) is sent as a list<i32>, "
            "as a pre-release parquet-mr 1.12 wrote it.",
            FIELD_WIRE_TYPE, field_with_other_wire_type, plain_required,
        ),
        _acceptable(
            "key-value-not-utf8",
            "The footer's KeyValue.value is 5 bytes that are not UTF-8.",
            KEY_VALUE_UTF8, key_value_not_utf8, with_key_value,
        ),
        _acceptable(
            "root-repetition-type",
            "The schema root has repetition_type OPTIONAL.",
            ROOT_REPETITION, root_with_repetition, plain_required,
        ),
        _acceptable(
            "root-physical-type",
            "The schema root (num_children 1) also has the physical type INT32.",
            ROOT_PHYSICAL_TYPE, root_with_physical_type, plain_required,
        ),
    ]


def bad_files_of_rules() -> list[BadFile]:
    """The schema faults that leave more than one reading: rejected."""
    return [
        BadFile(
            "schema/field-without-repetition-type",
            "The column's SchemaElement has no repetition_type.",
            "CorruptMetadata", (SPEC_REPETITION,), field_without_repetition, plain_required,
        ),
        BadFile(
            "schema/duplicate-sibling-names",
            "The root's two columns are both named 'x'.",
            "CorruptMetadata", (SPEC_NAME, SPEC_PATH), duplicate_sibling_names, two_columns,
        ),
        BadFile(
            "schema/group-without-children",
            "The root gains an OPTIONAL group with num_children 0.",
            "CorruptMetadata", (SPEC_NUM_CHILDREN,), group_without_children, plain_required,
        ),
    ]
