"""The FILE logical type (LogicalTypes.md 'FILE'): its annotation's bytes, the schema rules,
the 'Resolution' table row by row, the field rules and what `validate` reports of each."""

from __future__ import annotations

import io
import zlib
from pathlib import Path

import pytest

from reference_impl.parquet.errors import CorruptMetadata
from reference_impl.parquet.file_references import file_references
from reference_impl.parquet.metadata import parquet_thrift as md
from reference_impl.parquet.metadata.thrift_struct import deserialize, serialize
from reference_impl.parquet.reader import read_parquet
from reference_impl.parquet.schema.file_type import (
    FILE_RULES,
    checksum_problems,
    file_node,
    resolve,
    schema_problems,
    value_problems,
)
from reference_impl.parquet.schema.nested_types import StructShape, logical_shape, records_to_logical
from reference_impl.parquet.schema.tree import group, leaf, root
from reference_impl.parquet.schema.type_rules import type_problems
from reference_impl.parquet.validation.validate import UNTRUE, validate
from reference_impl.parquet.writer import write_table
from tests.reference_impl.data_path_helpers import OPTIONAL, REQUIRED

FILE = md.LogicalType(FILE=md.FileType())
MAGIC = b"PAR1"


def test_the_annotation_is_logical_type_member_19_an_empty_struct() -> None:
    # Compact protocol: 0x0c = long-form header of a struct, then zigzag(19) = 38 = 0x26;
    # the empty FileType's stop field, then the union's.
    data = b"\x0c\x26\x00\x00"
    assert serialize(FILE) == data
    logical, used = deserialize(md.LogicalType, data)
    assert logical.kind == "FILE" and used == len(data)


def test_file_node_builds_the_table_types_each_optional() -> None:
    fields = ["uri", "offset", "size", "content_type", "checksum", "inline"]
    node = file_node("f", fields, repetition=OPTIONAL)
    assert node.logical_type == FILE and node.converted_type is None  # 'FILE': no ConvertedType
    types = {c.name: (c.physical_type, c.logical_type) for c in node.children}
    assert types["uri"] == (md.Type.BYTE_ARRAY, md.LogicalType(STRING=md.StringType()))
    assert types["offset"] == (md.Type.INT64, None) and types["inline"] == (md.Type.BYTE_ARRAY, None)
    assert {c.repetition for c in node.children} == {OPTIONAL}
    assert schema_problems(node) == []
    with pytest.raises(ValueError, match="some of"):
        file_node("f", ["URI"], repetition=OPTIONAL)


def test_a_reader_that_does_not_know_file_reads_the_group_as_its_fields() -> None:
    shape = logical_shape(root([file_node("f", ["uri", "size"], repetition=OPTIONAL)]))
    assert isinstance(shape.fields[0], StructShape)
    assert records_to_logical(shape, [{"f": {"uri": b"s3://b/x", "size": 3}}]) == [
        {"f": {"uri": b"s3://b/x", "size": 3}}]


def test_schema_rules_names_case_sensitively_repetition_and_type() -> None:
    node = group("f", [leaf("URI", md.Type.BYTE_ARRAY, repetition=OPTIONAL),
                       leaf("offset", md.Type.INT32, repetition=OPTIONAL),
                       leaf("size", md.Type.INT64, repetition=REQUIRED),
                       leaf("checksum", md.Type.BYTE_ARRAY, repetition=OPTIONAL),
                       leaf("inline", md.Type.BYTE_ARRAY, repetition=OPTIONAL)],
                 repetition=OPTIONAL, logical_type=FILE)
    found = [(p.kind, p.found.split(" ")[1]) for p in schema_problems(node)]
    assert found == [("file.field_name", "'URI'"), ("file.field_type", "'offset'"),
                     ("file.field_repetition", "'size'"), ("file.field_type", "'checksum'")]


def test_file_on_a_leaf_breaks_its_type_rule() -> None:
    node = leaf("f", md.Type.BYTE_ARRAY, repetition=OPTIONAL, logical_type=FILE)
    assert [p.kind for p in type_problems(node)] == ["type.physical_type"]


# 'Resolution', one row each: (inline, uri, offset, size) set or not -> what it resolves to.
RESOLUTION = [
    ({"inline": b"ab"}, "inline"),
    ({"uri": "s3://b/f"}, "external"),
    ({"uri": "s3://b/f", "offset": 1}, "invalid"),
    ({"uri": "s3://b/f", "size": 2}, "external"),
    ({"uri": "s3://b/f", "offset": 1, "size": 2}, "external"),
    ({"offset": 1}, "invalid"),
    ({"size": 2}, "invalid"),
    ({"offset": 1, "size": 2}, "self"),
    ({}, "invalid"),
]


@pytest.mark.parametrize(("value", "kind"), RESOLUTION)
def test_each_row_of_the_resolution_table(value, kind) -> None:
    assert resolve(value, b"PAR1....PAR1").kind == kind


def test_resolved_bytes_ranges_and_provenance() -> None:
    assert resolve({"offset": 1, "size": 2}, b"PAR1").data == b"AR"
    assert resolve({"offset": 3, "size": 2}, b"PAR1").data is None  # outside the file
    external = resolve({"uri": b"s3://b/f", "size": 9})
    assert (external.uri, external.offset, external.size) == ("s3://b/f", 0, 9)  # "[0, size)"
    # "If `inline` is set, it supplies the bytes and any locator fields ... are provenance only."
    assert resolve({"inline": b"x", "uri": "s3://b/f", "offset": 5, "size": 1}).data == b"x"
    # An empty string is not set ('Fields'): an empty uri is a self-reference.
    assert resolve({"uri": "", "offset": 0, "size": 1}, b"PAR1").kind == "self"


@pytest.mark.parametrize(("value", "kinds"), [
    ({"offset": -1, "size": 1}, ["file.offset_negative"]),
    ({"uri": "u", "size": -2}, ["file.size_negative"]),
    ({"uri": "u", "offset": 3}, ["file.offset_without_size"]),
    ({"size": 3}, ["file.self_reference_offset"]),
    ({}, ["file.self_reference_offset"]),
    ({"offset": 2, "size": 3}, ["file.self_reference_range"]),
    ({"uri": "", "offset": 0, "size": 1}, ["file.empty_string"]),
    ({"uri": "u", "offset": 2, "size": 3}, []),
    ({"offset": 0, "size": 4}, []),
    ({"inline": b""}, []),
])
def test_field_rules(value, kinds) -> None:
    assert [p.kind for p in value_problems(value, file_length=len(MAGIC))] == kinds


def test_checksums_from_the_texts_table() -> None:
    empty = {"inline": b"", "checksum": "MD5:d41d8cd98f00b204e9800998ecf8427e"}  # the text's example
    assert checksum_problems(empty, resolve(empty)) == []
    wrong = {"inline": b"x", "checksum": "MD5:d41d8cd98f00b204e9800998ecf8427e"}
    assert [p.kind for p in checksum_problems(wrong, resolve(wrong))] == ["file.checksum"]
    upper = {"inline": b"", "checksum": "MD5:D41D8CD98F00B204E9800998ECF8427E"}
    assert [p.kind for p in checksum_problems(upper, resolve(upper))] == ["file.checksum_format"]
    for token in ("XXH3:0123", 'ETAG:"abc"'):  # unknown algorithms are ignored; an eTag is opaque
        value = {"inline": b"x", "checksum": token}
        assert checksum_problems(value, resolve(value)) == []


def _file(values: list[dict | None], fields=("uri", "offset", "size", "checksum", "inline")) -> bytes:
    tree = root([leaf("id", md.Type.INT32, repetition=REQUIRED), file_node("f", fields, repetition=OPTIONAL)])
    out = io.BytesIO()
    records = [{"id": i, "f": None if v is None else {f: v.get(f) for f in fields}}
               for i, v in enumerate(values)]
    write_table(out, tree, records)
    return out.getvalue()


def test_a_conforming_file_has_no_finding_and_its_references_resolve() -> None:
    crc = f"CRC32:{zlib.crc32(MAGIC):08x}".encode()
    data = _file([{"offset": 0, "size": 4, "checksum": crc}, {"inline": b"abc"},
                  {"uri": b"s3://b/f", "offset": 7, "size": 1}, None])
    assert validate(data) == []
    refs = [(r.row, r.resolution.kind, r.resolution.data) for r in file_references(data)]
    assert refs == [(0, "self", MAGIC), (1, "inline", b"abc"), (2, "external", None)]
    assert read_parquet(data).records[0]["f"]["offset"] == 0  # the reader reads on


def test_a_path_is_validated_and_resolved_as_its_bytes(tmp_path: Path) -> None:
    # A path is mapped (reference_impl/common/mapped_file.py); validate's FILE check reads
    # that map again, and a self-reference's bytes are cut from it.
    data = _file([{"offset": 0, "size": 4, "checksum": b"CRC32:00000000"}, {"offset": 10**9, "size": 1}])
    path = tmp_path / "file.parquet"
    path.write_bytes(data)
    assert [f.kind for f in validate(path)] == [f.kind for f in validate(data)] == [
        "file.checksum", "file.self_reference_range"]
    refs = [(r.row, r.resolution.kind, r.resolution.data) for r in file_references(path)]
    assert refs == [(0, "self", MAGIC), (1, "self", None)]


def test_validate_names_the_rule_the_row_and_the_sentence() -> None:
    data = _file([{"offset": 0, "size": 4, "checksum": b"CRC32:00000000"}, {"offset": -1},
                  {"offset": 10**9, "size": 1}])
    findings = {(f.kind, f.severity, f.message.split(":")[0]) for f in validate(data)}
    assert findings == {("file.checksum", UNTRUE, "row 0"),
                        ("file.offset_negative", "nonconforming", "row 1"),
                        ("file.offset_without_size", "nonconforming", "row 1"),
                        ("file.self_reference_range", UNTRUE, "row 2")}
    message = next(f.message for f in validate(data) if f.kind == "file.offset_negative")
    assert "MUST: \"`offset` must not be < 0.\" (LogicalTypes.md, 'offset')" in message


def test_a_field_of_the_wrong_type_is_reported_and_its_values_not_read() -> None:
    # The BYTE_ARRAY "offset" is not the table's offset: the value sets no field ("nothing - invalid").
    tree = root([group("f", [leaf("offset", md.Type.BYTE_ARRAY, repetition=OPTIONAL)],
                       repetition=OPTIONAL, logical_type=FILE)])
    out = io.BytesIO()
    write_table(out, tree, [{"f": {"offset": b"-1"}}])
    assert [f.kind for f in validate(out.getvalue())] == ["file.field_type", "file.self_reference_offset"]


def test_every_rule_has_a_strength_and_a_section_of_file() -> None:
    sections = {"FILE", "Fields", "offset", "size", "checksum", "Resolution"}
    assert {c.section for c in FILE_RULES.values()} <= sections
    assert {c.strength for c in FILE_RULES.values()} == {"MUST", "fact", "silent"}


def test_a_corrupt_file_group_layout_is_not_a_list_or_map_error() -> None:
    # FILE does not make the group a LIST or MAP: a FILE group holding a repeated field
    # is a struct with a list (the reader's rules do not apply to it).
    node = group("f", [leaf("uri", md.Type.BYTE_ARRAY, repetition=md.FieldRepetitionType.REPEATED)],
                 repetition=OPTIONAL, logical_type=FILE)
    try:
        logical_shape(root([node]))
    except CorruptMetadata as error:  # pragma: no cover - the assertion says why
        pytest.fail(f"a FILE group read as a LIST or MAP: {error}")
    assert [p.kind for p in schema_problems(node)] == ["file.field_repetition", "file.field_type"]


def test_a_self_reference_in_an_encrypted_file_is_reported_once_per_column() -> None:
    """'Resolution': "Parquet files containing self-references must not use Parquet modular
    encryption." [0, 4), the leading magic, is inside any file."""
    from reference_impl.parquet.encryption.properties import (
        FileDecryptionProperties,
        FileEncryptionProperties,
    )
    from reference_impl.parquet.writer_options import WriterOptions

    key = bytes(range(16))
    tree = root([file_node("f", ("offset", "size"), repetition=OPTIONAL)])
    out = io.BytesIO()
    write_table(out, tree, [{"f": {"offset": 0, "size": 4}}, {"f": {"offset": 1, "size": 2}}],
                WriterOptions(encryption=FileEncryptionProperties("AES_GCM_V1", key)))
    findings = validate(out.getvalue(), decryption=FileDecryptionProperties(footer_key=key))
    assert [(f.kind, f.column) for f in findings] == [("file.self_reference_encrypted", "f")]
