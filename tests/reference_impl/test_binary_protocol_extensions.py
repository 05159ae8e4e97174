"""Binary protocol extensions (BinaryProtocolExtensions.md): the text's bytes, skipped by every
struct decoder (top-level and nested), written by the reference writer for a case, read as if
absent by the reference and by pyarrow, and reported by `validate` where they are."""

from __future__ import annotations

import io

import pyarrow.parquet as pq
import pytest

from reference_impl.common.varint import encode_uleb128
from reference_impl.parquet.metadata import parquet_thrift as md
from reference_impl.parquet.metadata.binary_protocol_extensions import (
    TEST_EXTENSION,
    TEXT_HEADER,
    append_extension,
)
from reference_impl.parquet.metadata.thrift_struct import deserialize, serialize
from reference_impl.parquet.reader import read_parquet
from reference_impl.parquet.schema.tree import leaf, root
from reference_impl.parquet.validation.validate import validate
from reference_impl.parquet.writer import write_table
from reference_impl.parquet.writer_options import WriterOptions
from tests.reference_impl.data_path_helpers import OPTIONAL, REQUIRED

EXTENSION = b"ext" + bytes(range(16))  # a label and 16 bytes standing for a UUID
TEXT_ID = -16384  # what a compact reader reads in the text's header 08 FF FF 01
ZIGZAG_HEADER = b"\x08\xfe\xff\x03"  # field 32767 as a Thrift library writes it


def test_the_header_is_the_texts_four_bytes() -> None:
    assert TEXT_HEADER == bytes.fromhex("08ffff01")


def test_append_extension_as_the_text_lays_it_out() -> None:
    page = md.PageHeader(type=md.PageType.DATA_PAGE, uncompressed_page_size=3, compressed_page_size=3)
    plain = serialize(page)
    # N-1 bytes | 08 FF FF 01 | ULEB128(M) | M bytes | \0
    assert append_extension(plain, EXTENSION) == plain[:-1] + TEXT_HEADER + bytes([len(EXTENSION)]) + \
        EXTENSION + b"\x00"
    page.extension_bytes = EXTENSION
    assert serialize(page) == append_extension(plain, EXTENSION)  # the writer's path, same bytes
    with pytest.raises(ValueError, match="stop field"):
        append_extension(plain[:-1], EXTENSION)


def _column_metadata() -> md.ColumnMetaData:
    return md.ColumnMetaData(type=md.Type.INT64, encodings=[md.Encoding.PLAIN], path_in_schema=["a"],
                             codec=md.CompressionCodec.UNCOMPRESSED, num_values=1, total_uncompressed_size=9,
                             total_compressed_size=9, data_page_offset=4,
                             statistics=md.Statistics(null_count=0))


def _file_metadata() -> md.FileMetaData:
    return md.FileMetaData(version=2, schema=[md.SchemaElement(name="schema", num_children=1),
                                              md.SchemaElement(name="a", type=md.Type.INT64,
                                                               repetition_type=REQUIRED)],
                           num_rows=1, row_groups=[md.RowGroup(columns=[md.ColumnChunk(
                               file_offset=0, meta_data=_column_metadata())], total_byte_size=9, num_rows=1)])


STRUCTS = {
    "FileMetaData": _file_metadata,
    "ColumnMetaData": _column_metadata,
    "PageHeader": lambda: md.PageHeader(type=md.PageType.DATA_PAGE, uncompressed_page_size=3,
                                        compressed_page_size=3, data_page_header=md.DataPageHeader(
                                            num_values=1, encoding=md.Encoding.PLAIN,
                                            definition_level_encoding=md.Encoding.RLE,
                                            repetition_level_encoding=md.Encoding.RLE)),
    "Statistics": lambda: md.Statistics(null_count=2, min_value=b"a", max_value=b"z"),
    "SchemaElement": lambda: md.SchemaElement(name="x", type=md.Type.INT32, repetition_type=OPTIONAL),
    "LogicalType (a union)": lambda: md.LogicalType(FILE=md.FileType()),
}


@pytest.mark.parametrize("header", [TEXT_HEADER, ZIGZAG_HEADER], ids=["text bytes", "zigzag 32767"])
@pytest.mark.parametrize("name", list(STRUCTS))
def test_every_struct_skips_the_extension_field(name, header) -> None:
    value = STRUCTS[name]()
    plain = serialize(value)
    extended = plain[:-1] + header + encode_uleb128(len(EXTENSION)) + EXTENSION + b"\x00"
    decoded, used = deserialize(type(value), extended)
    assert decoded == value and used == len(extended)
    (skipped,) = decoded.skipped_fields
    assert skipped.field_id in (TEXT_ID, 32767) and skipped.offset == len(plain) - 1


def test_extensions_nested_inside_a_struct_are_skipped_where_they_are() -> None:
    footer = _file_metadata()
    meta = footer.row_groups[0].columns[0].meta_data
    meta.extension_bytes = EXTENSION
    meta.statistics.extension_bytes = EXTENSION
    footer.schema[1].extension_bytes = EXTENSION
    decoded, _ = deserialize(md.FileMetaData, serialize(footer))
    assert decoded == footer
    inner = decoded.row_groups[0].columns[0].meta_data
    assert [s.skipped_field_ids for s in (decoded, decoded.schema[1], inner, inner.statistics)] == [
        (), (TEXT_ID,), (TEXT_ID,), (TEXT_ID,)]


ROWS = [{"a": i, "b": None if i % 3 else f"v{i}".encode()} for i in range(7)]


def _written(extensions: tuple[str, ...]) -> bytes:
    tree = root([leaf("a", md.Type.INT64, repetition=REQUIRED),
                 leaf("b", md.Type.BYTE_ARRAY, repetition=OPTIONAL)])
    out = io.BytesIO()
    write_table(out, tree, ROWS, WriterOptions(thrift_extensions=frozenset(extensions), page_row_limit=3))
    return out.getvalue()


@pytest.mark.parametrize(("structs", "places"), [
    (("file_metadata",), [("", None, "FileMetaData")]),
    (("column_metadata",), [("", None, "FileMetaData.row_groups[0].columns[0].meta_data"),
                            ("", None, "FileMetaData.row_groups[0].columns[1].meta_data")]),
    (("page_header",), [(c, p, "PageHeader") for c in "ab" for p in range(3)]),
])
def test_the_writer_appends_them_readers_ignore_them_validate_says_where(structs, places) -> None:
    data = _written(structs)
    assert TEST_EXTENSION in data and len(data) > len(_written(()))
    assert read_parquet(data).records == ROWS
    assert pq.read_table(io.BytesIO(data)).to_pylist() == pq.read_table(io.BytesIO(_written(()))).to_pylist()
    findings = validate(data)
    assert {f.kind for f in findings} == {"thrift.extension"}
    assert [(f.column, f.page, f.message.split(" carries")[0]) for f in findings] == places
    assert all("at byte offset" in f.message and "BinaryProtocolExtensions.md" in f.message
               and f.severity == "advisory" for f in findings)


def test_an_unknown_struct_name_is_refused() -> None:
    with pytest.raises(ValueError, match="no such struct"):
        WriterOptions(thrift_extensions=frozenset({"row_group"}))
