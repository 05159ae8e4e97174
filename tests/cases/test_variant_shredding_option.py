"""`WriteOptions.variant_shredding` (VariantShredding.md, 'Value Shredding'): checked,
serialised, tagged; the reference writes each listed VARIANT column with the
shredding schema's typed_value and reads back the same variants; Spark gets it as
its shredding schema DDL."""

from __future__ import annotations

import json

import pytest

from conformance.cases import Case, WriteOptions, all_cases
from conformance.engines.parquet.reference import ReferenceEngine
from conformance.engines.parquet.spark_engine import SHREDDING_ENABLED, SHREDDING_SCHEMA, _variant_conf
from conformance.values import Field, Schema, diff_tables
from conformance.values import types as T
from reference_impl.parquet.reader import read_footer
from reference_impl.parquet.schema.tree import schema_text, schema_tree_from_elements
from tests.engines._helpers import write_case

NESTED = {"object": {"c": {"array": "string"}, "d": {"object": {"e": "int8"}}}}
SHREDDED_CASES = [c for c in all_cases() if c.id.startswith("logical/variant-shredded-")]


def test_the_option_round_trips_and_tags_the_case():
    options = WriteOptions(variant_shredding={"v": NESTED})
    assert WriteOptions.from_json(json.loads(json.dumps(options.to_json()))) == options
    assert "variant:shredded" in options.tags(1)
    assert "variant_shredding" not in WriteOptions().to_json()  # older documents unchanged


@pytest.mark.parametrize(("shredding", "message"), [
    ("int9", r"variant_shredding\['v'\]: 'int9' is not one of"),
    ({"object": {}}, "with at least one field"),
    ({"array": "int8", "object": {"a": "int8"}}, "a shredding schema is a primitive name"),
])
def test_a_bad_shredding_schema_is_refused(shredding, message):
    with pytest.raises(ValueError, match=message):
        WriteOptions(variant_shredding={"v": shredding})


def test_only_a_top_level_variant_column_can_be_shredded():
    with pytest.raises(ValueError, match="not a top-level VARIANT column"):
        Case("x/y", "t", (), Schema((Field("v", T.integer(32)),)), ((1,),),
             WriteOptions(variant_shredding={"v": "int8"}))


@pytest.mark.parametrize("case", SHREDDED_CASES, ids=lambda c: c.id)
def test_the_reference_writes_typed_value_and_reads_the_same_variants(case, tmp_path):
    path = write_case(ReferenceEngine(), case, tmp_path)
    metadata, _ = read_footer(path.read_bytes())
    assert "typed_value" in schema_text(schema_tree_from_elements(metadata.schema))
    assert diff_tables(case.expected, ReferenceEngine().read(path)) is None


def test_spark_gets_the_shredding_schema_as_ddl_and_no_shredding_without_it():
    [nested] = [c for c in SHREDDED_CASES if c.id.endswith("nested")]
    assert _variant_conf(nested) == {
        SHREDDING_ENABLED: "true",
        SHREDDING_SCHEMA: "struct<`c`: array<string>, `d`: struct<`e`: tinyint>>"}
    [unshredded] = [c for c in all_cases() if c.id == "logical/variant-optional"]
    assert _variant_conf(unshredded) == {SHREDDING_ENABLED: "false"}
