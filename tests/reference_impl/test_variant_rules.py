"""Each shredding rule has the strength of its sentence (VariantShredding.md,
VariantEncoding.md, LogicalTypes.md 'VARIANT'), and what has one reading is read.

* a ``typed_value`` whose annotation is not its table row's own but denotes the same
  values (INT(32, true) on INT32, INT(64, true) on INT64, a ConvertedType without its
  LogicalType, as DuckDB writes) is read as that row, named by the reader and reported
  by ``validate`` as ambiguous;
* a VARIANT group without ``value`` breaks LogicalTypes.md's MUST; an array element
  without it does not ('Arrays': "The `value` field may be omitted when shredding
  elements as a specific type"); an object field group without it is ambiguous.

Files are written by the reference writer; expected values are Variant bytes written
out from VariantEncoding.md's grammar.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.engines.parquet.reference import ReferenceEngine
from reference_impl.common.leniency import Strength, reading
from reference_impl.parquet.errors import CorruptMetadata
from reference_impl.parquet.metadata import parquet_thrift as M
from reference_impl.parquet.reader import read_parquet
from reference_impl.parquet.schema.nested_types import list_node, records_from_logical
from reference_impl.parquet.schema.tree import SchemaNode, group, leaf, root
from reference_impl.parquet.schema.variant_shredding import (
    MUST,
    RULES,
    SHOULD,
    SILENT,
    TYPED_VALUE_ANNOTATION,
    shredded_primitive,
    variant_node,
)
from reference_impl.parquet.validation.validate import validate
from reference_impl.parquet.writer import write_table

from .test_variant_shredding import EMPTY, arr, metadata, obj, pair, primitive, short_string

OPTIONAL, REQUIRED = M.FieldRepetitionType.OPTIONAL, M.FieldRepetitionType.REQUIRED
VARIANT = M.LogicalType(VARIANT=M.VariantType(specification_version=1))
STRING = M.LogicalType(STRING=M.StringType())
INT32_ID, INT64_ID, INT8_ID = 5, 6, 3  # VariantEncoding.md, 'Encoding types'


def signed(bits: int) -> M.LogicalType:
    return M.LogicalType(INTEGER=M.IntType(bitWidth=bits, isSigned=True))


def write(tmp_path: Path, variant: SchemaNode, rows: list) -> Path:
    tree = root([variant])
    path = tmp_path / "variant.parquet"
    write_table(path, tree, records_from_logical(tree, [{variant.name: r} for r in rows]))
    return path


def variant_findings(path: Path) -> list:
    return [f for f in validate(path) if f.kind.startswith("variant.")]


# ---- (a) an annotation denoting the row's own values ------------------------------------

@pytest.mark.parametrize(("typed", "value", "expected", "annotation"), [
    (shredded_primitive(M.Type.INT32, logical_type=signed(32)), 7,
     primitive(INT32_ID, (7).to_bytes(4, "little")), "LogicalType INTEGER(32, true) on INT32"),
    (shredded_primitive(M.Type.INT64, logical_type=signed(64)), -2,
     primitive(INT64_ID, (-2).to_bytes(8, "little", signed=True)), "LogicalType INTEGER(64, true) on INT64"),
    (shredded_primitive(M.Type.INT64, converted_type=M.ConvertedType.INT_64), 9,
     primitive(INT64_ID, (9).to_bytes(8, "little")), "ConvertedType INT_64 alone"),
    (shredded_primitive(M.Type.INT32, converted_type=M.ConvertedType.INT_8), -1,
     primitive(INT8_ID, b"\xff"), "ConvertedType INT_8 alone"),
    (shredded_primitive(M.Type.BYTE_ARRAY, converted_type=M.ConvertedType.UTF8), b"hi",
     short_string("hi"), "ConvertedType UTF8 alone"),
], ids=["INT(32, true) on INT32", "INT(64, true) on INT64", "INT_64 alone", "INT_8 alone", "UTF8 alone"])
def test_an_annotation_with_the_rows_values_is_read_as_the_row_and_named(tmp_path, typed, value,
                                                                         expected, annotation):
    path = write(tmp_path, variant_node("v", repetition=OPTIONAL, typed_value=typed),
                 [{"metadata": EMPTY, **pair(None, value)}])
    table, breaches = ReferenceEngine().read_with_breaches(path)
    assert table.rows == (((EMPTY, expected),),)
    assert [(b.rule, b.rule.strength) for b in breaches] == [(TYPED_VALUE_ANNOTATION, Strength.SILENT)]
    assert annotation in breaches[0].where
    [finding] = variant_findings(path)
    assert (finding.kind, finding.severity) == ("variant.typed_value_annotation", "ambiguous")
    assert f"v.typed_value: {annotation}, read as the table's" in finding.message
    assert 'silent: "Shredded values must use the following Parquet types"' in finding.message
    with pytest.raises(CorruptMetadata, match="typed-value-annotation"), reading(strict=True):
        read_parquet(path)


def test_the_tables_own_annotations_are_named_by_nobody(tmp_path):
    """int8 as INT(8, true) with its ConvertedType INT_8 beside it: the table's row exactly."""
    node = variant_node("v", repetition=OPTIONAL,
                        typed_value=shredded_primitive(M.Type.INT32, logical_type=signed(8)))
    path = write(tmp_path, node, [{"metadata": EMPTY, **pair(None, 3)}])
    assert ReferenceEngine().read_with_breaches(path)[1] == []
    assert variant_findings(path) == []


# ---- (c) every rule has its sentence's strength ------------------------------------------

def test_every_rule_has_a_strength_and_an_ambiguous_one_names_its_readings():
    assert {rule.strength for rule in RULES.values()} <= {MUST, SHOULD, SILENT}
    ambiguous = {kind for kind, rule in RULES.items() if rule.strength == SILENT}
    assert ambiguous == {"typed_value_annotation", "field_value", "unexpected_field"}
    assert all(RULES[kind].readings for kind in ambiguous)
    assert RULES["value_field"].strength == MUST


def variant_group(*fields: SchemaNode) -> SchemaNode:
    """A VARIANT group ``v``: its required metadata, then ``fields``."""
    return group("v", [leaf("metadata", M.Type.BYTE_ARRAY, repetition=REQUIRED), *fields],
                 repetition=OPTIONAL, logical_type=VARIANT)


def test_a_variant_group_without_value_breaks_logical_types_must(tmp_path):
    """LogicalTypes.md, 'VARIANT': "The group must contain a field named `metadata` and a
    field named `value`" (parquet-testing's shredded_variant cases 41, 131 and 138, which
    omit it, are marked INVALID). Readable: the value is the typed_value's."""
    node = variant_group(shredded_primitive(M.Type.INT64))
    path = write(tmp_path, node, [{"metadata": EMPTY, "typed_value": 5}])
    assert ReferenceEngine().read(path).rows == (((EMPTY, primitive(INT64_ID, (5).to_bytes(8, "little"))),),)
    [finding] = variant_findings(path)
    assert (finding.kind, finding.severity) == ("variant.value_field", "nonconforming")
    assert 'MUST: "The group must contain a field named `metadata` and a field named `value`"' in (
        finding.message)


def test_an_array_element_without_value_is_no_finding(tmp_path):
    """'Arrays': "The `value` field may be omitted when shredding elements as a specific type"."""
    typed = shredded_primitive(M.Type.BYTE_ARRAY, logical_type=STRING)
    element = group("element", [typed], repetition=REQUIRED)
    node = variant_group(leaf("value", M.Type.BYTE_ARRAY, repetition=OPTIONAL),
                         list_node("typed_value", element, repetition=OPTIONAL))
    path = write(tmp_path, node, [{"metadata": EMPTY, **pair(None, [{"typed_value": b"a"}])}])
    assert ReferenceEngine().read(path).rows == (((EMPTY, arr(short_string("a"))),),)
    assert variant_findings(path) == []


def test_an_object_field_without_value_is_ambiguous_and_read(tmp_path):
    """'Objects' lets only `typed_value` be omitted (parquet-testing's case 132 is marked
    INVALID); the field reads from its typed_value."""
    field = group("a", [shredded_primitive(M.Type.INT32, logical_type=signed(8))], repetition=REQUIRED)
    node = variant_group(leaf("value", M.Type.BYTE_ARRAY, repetition=OPTIONAL),
                         group("typed_value", [field], repetition=OPTIONAL))
    meta = metadata("a")
    path = write(tmp_path, node, [{"metadata": meta, **pair(None, {"a": {"typed_value": 4}})}])
    assert ReferenceEngine().read(path).rows == (((meta, obj((0, primitive(INT8_ID, b"\x04")))),),)
    [finding] = variant_findings(path)
    assert (finding.kind, finding.severity) == ("variant.field_value", "ambiguous")
    assert finding.message.startswith("schema: v.typed_value.a: no field `value`; silent:")


def test_an_unexpected_field_is_ambiguous_and_refused(tmp_path):
    """VariantEncoding.md, 'Variant in Parquet': "represented by a group with 2 fields"; what
    a third holds is unknown."""
    node = variant_group(*(leaf(n, M.Type.BYTE_ARRAY, repetition=REQUIRED) for n in ("value", "extra")))
    path = write(tmp_path, node, [{"metadata": EMPTY, "value": b"\x00", "extra": b"?"}])
    with pytest.raises(CorruptMetadata, match="unexpected field"):
        ReferenceEngine().read(path)
    [finding] = variant_findings(path)
    assert finding.kind == "variant.unexpected_field" and "silent:" in finding.message


def test_a_shredded_variant_duckdb_writes_is_read_and_its_annotation_named(tmp_path):
    """DuckDB shreds a column of BIGINTs cast to VARIANT as INT64 with ConvertedType INT_64
    and no LogicalType (measured with DuckDB 2.0.1): read as the int64 row."""
    duckdb = pytest.importorskip("duckdb")
    path = tmp_path / "duckdb.parquet"
    duckdb.connect().sql(f"COPY (SELECT i::VARIANT AS v FROM range(3) t(i)) TO '{path}' (FORMAT parquet)")
    table, breaches = ReferenceEngine().read_with_breaches(path)
    assert [value for (value,) in table.rows] == [
        (EMPTY, primitive(INT64_ID, i.to_bytes(8, "little"))) for i in range(3)]
    with reading():
        typed = read_parquet(path).schema.children[0].children[-1]  # type: ignore[index]
    int64_alone = ("typed_value", None, M.ConvertedType.INT_64)
    assert (typed.name, typed.logical_type, typed.converted_type) == int64_alone
    assert [b.rule for b in breaches] == [TYPED_VALUE_ANNOTATION]
