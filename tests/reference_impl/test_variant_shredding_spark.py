"""Cross-check: Spark 4 writes shredded VARIANT (`spark.sql.variant.writeShredding.enabled`,
shredding schema from `spark.sql.variant.forceShreddingSchemaForTest`); the reference
reads it into the same Variant values as Spark's unshredded file of the same rows.

The shredding schema uses the Variant types Spark's `parse_json` gives these values
(tinyint for small integers): a value shredded into another type would come back in
that type (VariantShredding.md, 'Shredded Value Types'). Values compare by structure:
an object as its fields by name, an array as its elements, a primitive as its bytes,
since Spark lays out an object's values in insertion order where the reassembly form
(docs/canonical-values.md) lays them out in field-name order; both are valid
(VariantEncoding.md: "The field values are not required to be in the same order as
the field IDs").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.engines.parquet.reference import ReferenceEngine
from reference_impl.parquet.reader import read_footer
from reference_impl.parquet.schema.tree import schema_text, schema_tree_from_elements
from reference_impl.parquet.schema.variant_encoding import (
    VariantMetadata,
    array_elements,
    is_array,
    is_object,
    object_fields,
    parse_metadata,
)

pytestmark = pytest.mark.spark

JSON_ROWS = ['{"a": 1, "b": "x", "z": 2.5}', '{"a": 1000, "c": ["p", 3], "d": {"e": 4, "f": null}}',
             '{"a": "no", "b": "' + "y" * 70 + '"}', '[1, 2]', "7", "null", None,
             '{"d": "not an object", "c": []}']
SHREDDING_SCHEMA = "a tinyint, b string, c array<string>, d struct<e: tinyint>"


def _write(spark, path: Path, shredded: bool) -> Path:
    settings = {"spark.sql.variant.writeShredding.enabled": str(shredded).lower(),
                "spark.sql.variant.forceShreddingSchemaForTest": SHREDDING_SCHEMA if shredded else ""}
    previous = {key: spark.conf.get(key, None) for key in settings}
    try:
        for key, value in settings.items():
            spark.conf.set(key, value)
        frame = spark.createDataFrame([(j,) for j in JSON_ROWS], "j string")
        frame.selectExpr("parse_json(j) as v").coalesce(1).write.parquet(str(path))
    finally:
        for key, value in previous.items():
            spark.conf.unset(key) if value is None else spark.conf.set(key, value)
    [file] = path.glob("*.parquet")
    return file


def test_spark_shredded_variant_reads_as_spark_unshredded_variant(spark, tmp_path):
    shredded = _write(spark, tmp_path / "shredded", shredded=True)
    plain = _write(spark, tmp_path / "plain", shredded=False)
    metadata, _ = read_footer(shredded.read_bytes())
    assert "typed_value" in schema_text(schema_tree_from_elements(metadata.schema))
    reference = ReferenceEngine()
    got, expected = reference.read(shredded).rows, reference.read(plain).rows
    assert [_structure(row[0]) for row in got] == [_structure(row[0]) for row in expected]
    assert sum(row != other for row, other in zip(got, expected, strict=True)) == 1  # JSON_ROWS[7]


def _structure(variant: tuple[bytes, bytes] | None) -> object:
    if variant is None:
        return None
    metadata, value = variant
    return (metadata, _value(parse_metadata(metadata, "test"), value))


def _value(metadata: VariantMetadata, value: bytes) -> object:
    if is_object(value, "test"):
        return {name: _value(metadata, v) for name, v in object_fields(value, metadata, "test").items()}
    if is_array(value, "test"):
        return [_value(metadata, v) for v in array_elements(value, "test")]
    return value
