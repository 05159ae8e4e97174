"""`validate` reports each breach of the shredding rules (VariantShredding.md) as a
finding that quotes the rule with its strength and names column, row group and row.

Files are written by the reference writer from rows that break one rule each.
"""

from __future__ import annotations

from pathlib import Path

from reference_impl.parquet.metadata import parquet_thrift as M
from reference_impl.parquet.schema.nested_types import records_from_logical
from reference_impl.parquet.schema.tree import SchemaNode, group, leaf, root
from reference_impl.parquet.schema.variant_shredding import shredded_object, shredded_primitive, variant_node
from reference_impl.parquet.validation.validate import validate
from reference_impl.parquet.writer import write_table
from reference_impl.parquet.writer_options import WriterOptions

from .test_variant_shredding import (
    EMPTY,
    NULL,
    TYPE,
    event,
    event_node,
    fields,
    obj,
    pair,
    short_string,
    tags_node,
)

OPTIONAL, REQUIRED = M.FieldRepetitionType.OPTIONAL, M.FieldRepetitionType.REQUIRED
ROWS_PER_GROUP = 2


def variant_findings(tmp_path: Path, variant: SchemaNode, rows: list) -> list:
    """Write one VARIANT column, two rows per row group, and validate it."""
    tree = root([variant])
    path = tmp_path / "variant.parquet"
    records = records_from_logical(tree, [{variant.name: r} for r in rows])
    write_table(path, tree, records, WriterOptions(row_group_size=ROWS_PER_GROUP))
    return [f for f in validate(path) if f.kind.startswith("variant.")]


def test_a_correctly_shredded_file_has_no_findings(tmp_path):
    rows = [event(None, fields(pair(None, b"noop"), pair(None, 1))), event(short_string("x"), None),
            event(obj((TYPE + 2, short_string("e"))), fields()), None]
    assert variant_findings(tmp_path, event_node(), rows) == []


def test_a_field_in_typed_value_and_in_the_residual_value_is_found_with_its_row(tmp_path):
    good = event(None, fields())
    both = event(obj((TYPE, short_string("login"))), fields(pair(None, b"login")))
    [finding] = variant_findings(tmp_path, event_node(), [good, good, good, both])
    assert (finding.kind, finding.severity, finding.column, finding.row_group) == (
        "variant.field_in_both", "nonconforming", "event", 1)
    assert finding.message.startswith("row 1, event: field(s) ['event_type']")
    assert 'MUST: "The `value` column of a partially shredded object must never contain' in finding.message
    assert "(VariantShredding.md, 'Objects')" in finding.message


def test_value_and_typed_value_both_set_are_found(tmp_path):
    rows = [event(None, fields(pair(NULL, b"x"))), event(short_string("a"), fields())]
    found = variant_findings(tmp_path, event_node(), rows)
    assert [(f.kind, f.row_group, f.message.split(":")[0]) for f in found] == [
        ("variant.value_and_typed_value", 0, "row 0, event.event_type"),
        ("variant.residual_not_object", 0, "row 1, event"),
    ]


def test_an_object_or_array_left_in_value_is_found(tmp_path):
    """'Objects': "If the value is an object, `typed_value` must be non-null";
    'Arrays': "If the value is an array, `value` must be null"."""
    assert [f.kind for f in variant_findings(tmp_path, event_node(), [event(obj(), None)])] == [
        "variant.object_in_value"]
    array_in_value = {"metadata": EMPTY, **pair(bytes([0x03, 0, 0]), None)}
    assert [f.kind for f in variant_findings(tmp_path, tags_node(), [array_in_value])] == [
        "variant.array_in_value"]


def test_a_missing_array_element_is_found(tmp_path):
    row = {"metadata": EMPTY, **pair(None, [pair(None, b"a"), pair(None, None), pair(NULL, b"b")])}
    found = variant_findings(tmp_path, tags_node(), [row])
    assert [(f.kind, f.message.split(":")[0]) for f in found] == [
        ("variant.missing_element", "row 0, tags[1]"), ("variant.value_and_typed_value", "row 0, tags[2]")]


def test_a_typed_value_type_outside_the_table_is_found_once(tmp_path):
    millis = M.LogicalType(
        TIMESTAMP=M.TimestampType(isAdjustedToUTC=True, unit=M.TimeUnit(MILLIS=M.MilliSeconds())))
    node = variant_node("v", repetition=OPTIONAL, typed_value=shredded_object({
        "t": shredded_primitive(M.Type.INT64, logical_type=millis)}))
    row = {"metadata": EMPTY, **pair(None, {"t": pair(None, 1)})}
    [finding] = variant_findings(tmp_path, node, [row, row, row])
    assert finding.kind == "variant.typed_value_type"
    where = "schema: v.typed_value.t.typed_value"
    assert finding.message.startswith(f"{where}: INT64 (TIMESTAMP) is not in the table")
    assert 'MUST: "Shredded values must use the following Parquet types"' in finding.message


def test_optional_metadata_and_value_of_an_unshredded_group_are_found(tmp_path):
    """VariantEncoding.md, 'Variant in Parquet': metadata is required, and value is
    required for unshredded Variant values (pyarrow 21-23 write both optional)."""
    binary = [leaf(n, M.Type.BYTE_ARRAY, repetition=OPTIONAL) for n in ("metadata", "value")]
    node = group("v", binary, repetition=OPTIONAL,
                 logical_type=M.LogicalType(VARIANT=M.VariantType(specification_version=1)))
    found = variant_findings(tmp_path, node, [{"metadata": EMPTY, "value": NULL}])
    assert [f.kind for f in found] == ["variant.metadata_repetition", "variant.value_repetition"]


def test_bytes_that_are_no_variant_value_are_found(tmp_path):
    """A residual object whose offsets run past its bytes."""
    row = event(bytes([0x02, 1, 0, 0, 9]), fields())
    [finding] = variant_findings(tmp_path, event_node(), [row])
    assert finding.kind == "variant.value_encoding"
    assert "row 0" in finding.message and "When present, the `value` field must be a valid Variant value" in (
        finding.message)
