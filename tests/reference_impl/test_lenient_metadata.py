"""Lenient readings of the footer's Thrift encoding and of the schema (docs/architecture.md,
'Verdicts'): a file with one reading is read with its breach named; strictly, it is the
rule's documented error; a fault with more than one reading is refused either way."""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import replace

import pytest

from conformance.golden.bad_file import BadFile
from conformance.golden.parquet import lenient_metadata_files as files
from conformance.golden.parquet.bad_files import COLUMN, ROWS, footer_bad_field_type, plain_required
from reference_impl.common.leniency import Breach, Rule, reading
from reference_impl.parquet.errors import CorruptMetadata, CorruptThrift
from reference_impl.parquet.metadata import parquet_thrift as md
from reference_impl.parquet.metadata.thrift_compact import LOW_NIBBLE, CompactType
from reference_impl.parquet.metadata.thrift_struct import (
    FIELD_WIRE_TYPE,
    KEY_VALUE_UTF8,
    deserialize,
    serialize,
)
from reference_impl.parquet.reader import read_footer, read_parquet
from reference_impl.parquet.schema.tree import ROOT_PHYSICAL_TYPE, ROOT_REPETITION

TAIL = struct.Struct("<I4s")  # footer length, trailing magic
ROWS_OF_X = [{COLUMN: row} for row in range(ROWS)]  # what plain_required and with_key_value hold


def _footer_start(raw: bytes) -> int:
    """From the framing alone (README.md, 'File format'), not from the reader under test."""
    length, _ = TAIL.unpack(raw[-TAIL.size :])
    return len(raw) - TAIL.size - length


def _lenient_read(make: Callable[[], bytes]) -> tuple[list[dict[str, object]], list[Breach]]:
    with reading() as breaches:
        records = read_parquet(make()).records
    return records, breaches


def _only_breach(breaches: list[Breach], rule: Rule) -> Breach:
    assert [found.rule for found in breaches] == [rule]
    return breaches[0]


def test_every_acceptable_file_breaks_its_rule_only_when_read_strictly() -> None:
    for entry in files.acceptable_files():
        assert entry.verdict == "acceptable"
        read_parquet(entry.original())  # the original is conforming
        with reading(strict=True), pytest.raises((CorruptThrift, CorruptMetadata)) as info:
            read_parquet(entry.make())
        assert type(info.value).__name__ == entry.error_class
        assert "read strictly" in str(info.value)


def test_optional_field_with_other_wire_type_is_skipped() -> None:
    records, breaches = _lenient_read(files.field_with_other_wire_type)
    assert records == ROWS_OF_X
    found = _only_breach(breaches, FIELD_WIRE_TYPE)
    assert found.where.startswith("ColumnMetaData.bloom_filter_length (field 15)")
    raw = files.field_with_other_wire_type()
    assert found.offset is not None and found.offset > _footer_start(raw)
    assert raw[found.offset] & LOW_NIBBLE == CompactType.LIST  # the field header of the list


def test_optional_field_with_other_wire_type_strictly_is_corrupt_thrift() -> None:
    with reading(strict=True), pytest.raises(CorruptThrift, match=FIELD_WIRE_TYPE.id):
        read_footer(files.field_with_other_wire_type())


def test_required_field_with_other_wire_type_stays_corrupt() -> None:
    # KeyValue.key (field 1, a required string) sent as an i32: it cannot be done without.
    with reading() as breaches, pytest.raises(CorruptThrift, match=r"KeyValue.key \(field 1\)"):
        deserialize(md.KeyValue, b"\x15\x02\x00")
    assert breaches == []


def test_unknown_compact_type_stays_corrupt_when_lenient() -> None:
    # footer/thrift-unknown-field-type: type 15 is no wire type at all, not another one.
    with reading() as breaches, pytest.raises(CorruptThrift, match="unknown field type 15"):
        read_footer(footer_bad_field_type())
    assert breaches == []


def test_key_value_not_utf8_is_kept_as_its_bytes() -> None:
    raw = files.key_value_not_utf8()
    with reading() as breaches:
        contents = read_parquet(raw)
    assert contents.records == ROWS_OF_X
    assert contents.metadata.key_value_metadata == [
        md.KeyValue(key=files.NOTE_KEY, value=files.NOT_UTF8)
    ]
    found = _only_breach(breaches, KEY_VALUE_UTF8)
    assert found.where.startswith("KeyValue.value (field 2): not valid UTF-8")
    assert found.offset is not None
    # the offset is the value's length prefix, followed by the value itself
    assert raw[found.offset] == len(files.NOT_UTF8)
    assert raw[found.offset + 1 : found.offset + 1 + len(files.NOT_UTF8)] == files.NOT_UTF8


def test_key_value_bytes_are_written_back_unchanged() -> None:
    encoded = serialize(md.KeyValue(key=files.NOTE_KEY, value=files.NOT_UTF8))
    with reading():
        decoded, _ = deserialize(md.KeyValue, encoded)
    assert serialize(decoded) == encoded


def test_key_value_not_utf8_strictly_is_corrupt_thrift() -> None:
    with reading(strict=True), pytest.raises(CorruptThrift, match=KEY_VALUE_UTF8.id):
        read_footer(files.key_value_not_utf8())


def test_key_not_utf8_stays_corrupt() -> None:
    # KeyValue.key is a required string; only the optional value has the bytes reading.
    with reading(), pytest.raises(CorruptThrift, match="not valid UTF-8"):
        deserialize(md.KeyValue, b"\x18\x01\xff\x00")


@pytest.mark.parametrize(
    ("make", "rule", "what"),
    [
        (files.root_with_repetition, ROOT_REPETITION, "the root has repetition_type OPTIONAL"),
        (files.root_with_physical_type, ROOT_PHYSICAL_TYPE, "the root has physical type INT32"),
    ],
)
def test_root_breaches_are_read_as_the_plain_root(
    make: Callable[[], bytes], rule: Rule, what: str
) -> None:
    records, breaches = _lenient_read(make)
    assert records == ROWS_OF_X
    found = _only_breach(breaches, rule)
    assert found.where == f"schema element 0 ('schema'): {what}"
    assert found.offset == _footer_start(make())  # the FileMetaData: the schema has no finer place
    with reading(strict=True), pytest.raises(CorruptMetadata, match=rule.id):
        read_parquet(make())


def test_required_root_is_no_breach() -> None:
    # Arrow C++ writes REQUIRED on every root; REQUIRED adds no level, so absent and
    # REQUIRED read the same.
    raw = plain_required()
    root_element, column = read_footer(raw)[0].schema
    required = replace(root_element, repetition_type=md.FieldRepetitionType.REQUIRED)
    required_root = files._with_schema(raw, [required, column])
    with reading(strict=True) as breaches:
        assert read_parquet(required_root).records == ROWS_OF_X
    assert breaches == []


def test_root_with_type_and_no_children_count_stays_corrupt() -> None:
    raw = plain_required()
    footer, _ = read_footer(raw)
    leaf_root = md.SchemaElement(name="schema", type=md.Type.INT32)
    with reading() as breaches, pytest.raises(CorruptMetadata, match="the root must be a group"):
        read_parquet(files._with_schema(raw, [leaf_root]))
    assert breaches == []


@pytest.mark.parametrize("entry", files.bad_files_of_rules(), ids=lambda entry: entry.id)
def test_faults_with_more_than_one_reading_are_refused_even_leniently(entry: BadFile) -> None:
    read_parquet(entry.original())
    with reading() as breaches, pytest.raises(CorruptMetadata) as info:
        read_parquet(entry.make())
    assert type(info.value).__name__ == entry.error_class
    assert info.value.offset == _footer_start(entry.make())
    assert breaches == []
