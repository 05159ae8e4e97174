"""The one table of type rules (LogicalTypes.md, each type's section): which physical
type each annotation may annotate.

For every row and every physical type (or FIXED_LEN_BYTE_ARRAY length) the row
forbids, a one-fault file (the reference writer's file of that physical type, the
annotation edited into its footer) is CorruptMetadata naming the column, the
annotation and the physical type, and ``validate`` reports the rule; the allowed
pairs read. The parameter rules (INTEGER bit width, DECIMAL precision and scale)
likewise. docs/type-rules.md starts with the table's ``markdown()``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.golden.parquet.type_rule_files import (
    COLUMN,
    LEAF_ROWS,
    WRONG_LENGTH,
    annotated_file,
    annotations_of,
    forbidden_types,
)
from reference_impl.parquet.errors import CorruptMetadata
from reference_impl.parquet.metadata import parquet_thrift as md
from reference_impl.parquet.metadata.parquet_thrift import ConvertedType, LogicalType, Type
from reference_impl.parquet.reader import read_footer, read_parquet
from reference_impl.parquet.schema.type_rules import (
    TYPE_RULES,
    decimal_max_precision,
    markdown,
)
from reference_impl.parquet.validation.validate import validate

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "type-rules.md"
SECTIONS = ROOT / "docs" / "spec-sections.json"
FAULTS = [
    pytest.param(physical, length, name, annotations, row,
                 id=f"{name}-on-{physical.name}{'' if length is None else f'({length})'}")
    for row in LEAF_ROWS
    for name, annotations in annotations_of(row)
    for physical, length in forbidden_types(row)
]


@pytest.mark.parametrize(("physical", "length", "name", "annotations", "row"), FAULTS)
def test_a_forbidden_pair_is_refused_and_reported(physical, length, name, annotations, row) -> None:
    raw = annotated_file(physical, length, **annotations)
    with pytest.raises(CorruptMetadata) as caught:
        read_parquet(raw)
    message = str(caught.value)
    assert f"column {COLUMN}: {name}" in message and physical.name in message
    assert caught.value.offset == read_footer(raw)[1]
    kind = "type.type_length" if physical in row.physical_types else "type.physical_type"
    reported = [f for f in validate(raw) if f.kind == kind]
    assert len(reported) == 1 and reported[0].column == COLUMN
    citation = row.rule if name.startswith("LogicalType") else row.rule_of_converted
    assert citation.quote() in reported[0].message


ALLOWED = [
    pytest.param(physical, row.type_length or WRONG_LENGTH, annotations, id=f"{name}-on-{physical.name}")
    for row in LEAF_ROWS
    for name, annotations in annotations_of(row)
    for physical in sorted(row.physical_types)
]


@pytest.mark.parametrize(("physical", "length", "annotations"), ALLOWED)
def test_an_allowed_pair_reads_without_a_finding(physical, length, annotations) -> None:
    raw = annotated_file(physical, length if physical == Type.FIXED_LEN_BYTE_ARRAY else None, **annotations)
    assert read_parquet(raw).leaves[0].values
    assert not [f for f in validate(raw) if f.kind.startswith("type.")]


INT_32 = {"converted_type": ConvertedType.DECIMAL, "scale": 0}


@pytest.mark.parametrize(("physical", "length", "annotations", "kind"), [
    (Type.INT32, None, {"logicalType": LogicalType(INTEGER=md.IntType(bitWidth=7, isSigned=True))},
     "type.bit_width"),
    (Type.INT32, None, {**INT_32, "precision": 10}, "type.decimal_precision"),
    (Type.INT64, None, {**INT_32, "precision": 19}, "type.decimal_precision"),
    (Type.FIXED_LEN_BYTE_ARRAY, WRONG_LENGTH, {**INT_32, "precision": 7}, "type.decimal_precision"),
    (Type.BYTE_ARRAY, None, {**INT_32, "precision": 0}, "type.decimal_precision"),
    (Type.BYTE_ARRAY, None, {"converted_type": ConvertedType.DECIMAL}, "type.decimal_precision"),
    (Type.INT32, None, {**INT_32, "precision": 5, "scale": 6}, "type.decimal_scale"),
    (Type.INT32, None, {"logicalType": LogicalType(DECIMAL=md.DecimalType(scale=-1, precision=5))},
     "type.decimal_scale"),
])
def test_a_broken_parameter_is_refused_and_reported(physical, length, annotations, kind) -> None:
    raw = annotated_file(physical, length, **annotations)
    with pytest.raises(CorruptMetadata, match=f"column {COLUMN}: "):
        read_parquet(raw)
    assert [f.kind for f in validate(raw) if f.kind.startswith("type.")] == [kind]


def test_the_widest_decimal_of_a_fixed_length_matches_the_spec_formula() -> None:
    for length in range(1, 40):
        exact = len(str(2 ** (8 * length - 1) - 1)) - 1  # floor(log_10(2^(8*n - 1) - 1))
        assert decimal_max_precision(Type.FIXED_LEN_BYTE_ARRAY, length) == exact
    assert decimal_max_precision(Type.BYTE_ARRAY, None) is None
    assert decimal_max_precision(Type.INT64, None) == 18


def test_every_rule_cites_a_logical_types_section() -> None:
    index = json.loads(SECTIONS.read_text())["specs"]["LogicalTypes.md"]
    headings = {heading.lstrip("#").strip() for heading in index["headings"]}
    citations = [c for row in TYPE_RULES for c in (row.rule, row.converted_rule) if c is not None]
    assert {c.section for c in citations} <= headings


def test_every_converted_type_has_one_row() -> None:
    rows = [row.converted_type for row in TYPE_RULES if row.converted_type is not None]
    assert sorted(rows) == sorted(ConvertedType)


def test_the_committed_page_starts_with_the_table() -> None:
    assert DOCS.read_text().startswith(markdown())
