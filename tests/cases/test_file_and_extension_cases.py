"""The FILE cases and the extension cases (LogicalTypes.md 'FILE'; BinaryProtocolExtensions.md):
FILE is a struct annotated FILE in canonical form (its JSON, tags and values are the struct's),
`WriteOptions.thrift_extensions` round-trips and tags its cases, and the reference writes and
reads back every case of both families with the annotation and the extension bytes in place."""

from __future__ import annotations

import json

import pytest

from conformance.cases import WriteOptions, all_cases
from conformance.engines.parquet.reference import ReferenceEngine
from conformance.values import DataType, Field, Schema, Table, diff_tables
from conformance.values import types as T
from reference_impl.parquet.metadata.binary_protocol_extensions import TEST_EXTENSION
from reference_impl.parquet.reader import read_footer
from reference_impl.parquet.schema.file_type import FIELD_TYPES

FAMILIES = [c for c in all_cases() if c.id.startswith(("file/", "extension/"))]


def test_the_canonical_fields_are_the_texts_table():
    assert list(T.file_fields()) == list(FIELD_TYPES)
    assert T.file_of("uri", "size").describe() == "FILE<uri: STRING, size: INT(64, signed)>"
    with pytest.raises(ValueError, match="some of"):
        T.file_of("path")
    with pytest.raises(ValueError, match="only a struct"):
        DataType("list", element=Field("element", T.string(), True), annotation="FILE")


def test_a_file_column_round_trips_as_json_and_compares_as_its_struct():
    schema = Schema((Field("f", T.file_of("uri", "inline"), True),))
    table = Table(schema, (({"uri": "s3://b/x", "inline": None},), (None,)))
    again = Table.from_json_text(table.to_json_text())
    assert again == table and again.schema.fields[0].type.annotation == "FILE"
    # A reader that does not know FILE returns the struct of its fields: the same values.
    plain = Schema((Field("f", T.struct_of(*T.file_of("uri", "inline").fields), True),))
    assert diff_tables(table, Table(plain, table.rows)) is None


def test_the_option_round_trips_and_tags_the_case():
    options = WriteOptions(thrift_extensions=("file_metadata", "page_header"))
    assert WriteOptions.from_json(json.loads(json.dumps(options.to_json()))) == options
    assert "thrift:extension" in options.tags(1)
    assert "thrift_extensions" not in WriteOptions().to_json()  # older documents unchanged
    with pytest.raises(ValueError, match="thrift_extensions must be a tuple of"):
        WriteOptions(thrift_extensions=("row_group",))


@pytest.mark.parametrize("case", FAMILIES, ids=lambda c: c.id)
def test_the_reference_writes_and_reads_back_every_case(case, tmp_path):
    path = tmp_path / "f.parquet"
    engine = ReferenceEngine()
    engine.write(case, path)
    table = engine.read(path)
    assert diff_tables(case.expected, table) is None
    data = path.read_bytes()
    if case.id.startswith("file/"):
        assert "type:FILE" in case.features
        assert table.schema.fields[1].type.annotation == "FILE"
        assert any(e.logicalType is not None and e.logicalType.FILE is not None
                   for e in read_footer(data)[0].schema)
    else:
        assert "thrift:extension" in case.features and TEST_EXTENSION in data
