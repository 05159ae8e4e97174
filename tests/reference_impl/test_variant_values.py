"""The reader decodes every VARIANT metadata and value it returns (VariantEncoding.md,
'Variant in Parquet': "must be a valid Variant metadata", "When present, the `value`
field must be a valid Variant value"): a malformed one is InvalidVariant naming the
column, the row, the place inside the variant and the byte, with the row group's file
offset; ``validate`` reports each as ``variant.value_encoding``.

The bad bytes are written out from VariantEncoding.md's grammar, one fault each.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.engines.parquet.reference import ReferenceEngine
from reference_impl.common.leniency import reading
from reference_impl.parquet.errors import InvalidValue, InvalidVariant
from reference_impl.parquet.metadata import parquet_thrift as M
from reference_impl.parquet.reader import read_parquet
from reference_impl.parquet.schema.nested_types import list_node, records_from_logical
from reference_impl.parquet.schema.tree import SchemaNode, root
from reference_impl.parquet.schema.variant_shredding import variant_node
from reference_impl.parquet.schema.variant_values import FIELD_ORDER
from reference_impl.parquet.validation.validate import validate
from reference_impl.parquet.writer import write_table

from .test_variant_shredding import (
    EMPTY,
    EVENT_META,
    NULL,
    event,
    event_node,
    fields,
    metadata,
    obj,
    pair,
    tags_node,
)

OPTIONAL, REQUIRED = M.FieldRepetitionType.OPTIONAL, M.FieldRepetitionType.REQUIRED
# An object whose header (0x02: basic type 2, 1-byte ids and offsets) claims 7 fields,
# its bytes ending after two field ids.
SEVEN_FIELDS_CUT_SHORT = bytes([0x02, 7, 0, 1])
INT8_ONE = bytes([3 << 2, 1])  # int8 1
NOT_UTF8 = bytes([2 << 2 | 1]) + b"\xff\xfe"  # a short string of 2 bytes that are not UTF-8


def write(tmp_path: Path, variant: SchemaNode, rows: list, outer: SchemaNode | None = None) -> Path:
    top = outer or variant
    tree = root([top])
    path = tmp_path / "variant.parquet"
    write_table(path, tree, records_from_logical(tree, [{top.name: r} for r in rows]))
    return path


def value_encoding_findings(path: Path) -> list:
    return [f for f in validate(path) if f.kind.startswith("variant.")]


def test_an_unshredded_object_cut_short_is_refused_naming_row_and_byte(tmp_path):
    rows = [{"metadata": EMPTY, "value": INT8_ONE}, {"metadata": EMPTY, "value": SEVEN_FIELDS_CUT_SHORT}]
    path = write(tmp_path, variant_node("v", repetition=OPTIONAL), rows)
    with pytest.raises(InvalidVariant) as error:
        read_parquet(path)
    assert isinstance(error.value, InvalidValue) and error.value.offset is not None
    assert error.value.message == ("column v: row group 0, row 1, v: 7 fields of 1 bytes at byte 2 run past "
                                   "its 4 bytes")
    with pytest.raises(InvalidVariant):
        ReferenceEngine().read(path)
    assert read_parquet(path, decode_variants=False).records[1]["v"]["value"] == SEVEN_FIELDS_CUT_SHORT
    [finding] = value_encoding_findings(path)
    assert (finding.kind, finding.column, finding.row_group) == ("variant.value_encoding", "v", 0)
    assert finding.message.startswith("row 1: row 1, v: 7 fields of 1 bytes at byte 2 run past its 4 bytes")
    assert 'MUST: "The `metadata` field is `required` and must be a valid Variant metadata' in finding.message


def test_a_residual_value_or_an_element_value_is_decoded_where_it_is(tmp_path):
    """Every `value` of a shredded variant: an object's residual, an array element's."""
    residual = write(tmp_path, event_node(), [event(SEVEN_FIELDS_CUT_SHORT, fields())])
    with pytest.raises(InvalidVariant, match="row 0, event: 7 fields"):
        read_parquet(residual)
    (tmp_path / "e").mkdir()
    row = {"metadata": EMPTY, **pair(None, [pair(None, b"a"), pair(NOT_UTF8, None)])}
    element = write(tmp_path / "e", tags_node(), [row])
    with pytest.raises(InvalidVariant, match=r"row 0, tags\[1\]: a string that is not UTF-8 .* at byte 1"):
        read_parquet(element)
    assert [f.message.split(";")[0] for f in value_encoding_findings(element)] == [
        "row 0: row 0, tags[1]: a string that is not UTF-8 (invalid start byte at byte 1)"]


def test_a_metadata_whose_sorted_flag_lies_is_refused_even_beside_a_shredded_value(tmp_path):
    """'Metadata encoding': "If `sorted_strings` is set to 1, strings in the dictionary must
    be unique and sorted"; here "b", "a" with the flag (0x10) set, and only typed_value set."""
    lying = bytes([0x11, 2, 0, 1, 2]) + b"ba"
    path = write(tmp_path, event_node(), [{"metadata": lying, **pair(None, fields())}])
    with pytest.raises(InvalidVariant, match="event, variant metadata: sorted_strings is set"):
        read_parquet(path)
    assert [f.kind for f in value_encoding_findings(path)] == ["variant.value_encoding"]


def test_variants_inside_a_list_are_decoded_with_their_path(tmp_path):
    variant = variant_node("element", repetition=REQUIRED)
    outer = list_node("vs", variant, repetition=OPTIONAL)
    rows = [[{"metadata": EMPTY, "value": NULL}, {"metadata": EMPTY, "value": INT8_ONE + b"\x00"}]]
    path = write(tmp_path, variant, rows, outer)
    with pytest.raises(InvalidVariant, match="column vs: row group 0, row 0, element: 1 bytes after"):
        read_parquet(path)


def test_well_formed_variants_read_as_before(tmp_path):
    meta = EVENT_META
    path = write(tmp_path, variant_node("v", repetition=OPTIONAL),
                 [{"metadata": meta, "value": obj((0, INT8_ONE))}, None])
    assert read_parquet(path).records == read_parquet(path, decode_variants=False).records
    assert value_encoding_findings(path) == []


def test_an_object_with_ids_out_of_name_order_reads_by_name_and_is_named(tmp_path):
    """'Object field ID order and uniqueness': "field IDs and offsets must be listed in the
    order of the corresponding field names"; here {"b": 1, "a": 1} with ids [b, a]."""
    meta = metadata("a", "b")
    b_then_a = bytes([0x02, 2, 1, 0, 0, 2, 4]) + INT8_ONE + INT8_ONE  # ids 1 ("b"), 0 ("a")
    path = write(tmp_path, variant_node("v", repetition=OPTIONAL), [{"metadata": meta, "value": b_then_a}])
    table, breaches = ReferenceEngine().read_with_breaches(path)
    assert table.rows == (((meta, b_then_a),),)
    assert [(b.rule, b.where) for b in breaches] == [(FIELD_ORDER, "column v: row group 0, row 0, v")]
    with pytest.raises(InvalidVariant, match="parquet.variant.field-order"), reading(strict=True):
        read_parquet(path)
    [finding] = value_encoding_findings(path)
    assert finding.kind == "variant.field_order"
    assert finding.message.startswith("row 0, v: field ids out of the order of their names; MUST:")
