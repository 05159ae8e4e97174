"""A STRING value that is not UTF-8 (LogicalTypes.md, 'STRING'): InvalidValue from the
reader naming column, row group, page, value and byte, and a ``string.utf8`` finding
from ``validate``; for each encoding that can carry a STRING column's values.
Pages built byte by byte (the reference's encoders only frame the values)."""

from __future__ import annotations

import struct

import pytest

from reference_impl.parquet.encodings.delta_byte_array import encode_delta_byte_array
from reference_impl.parquet.encodings.delta_length_byte_array import encode_delta_length_byte_array
from reference_impl.parquet.encodings.dictionary import encode_indices
from reference_impl.parquet.errors import InvalidValue
from reference_impl.parquet.metadata import parquet_thrift as md
from reference_impl.parquet.metadata.thrift_struct import serialize
from reference_impl.parquet.reader import read_parquet
from reference_impl.parquet.schema.tree import leaf, root
from reference_impl.parquet.validation.string_checks import KIND
from reference_impl.parquet.validation.validate import validate
from tests.reference_impl.data_path_helpers import file_with_chunk

LONE_CONTINUATION = b"\x80"  # a UTF-8 continuation byte with no lead byte
VALUES = [b"ok", b"ab" + LONE_CONTINUATION, b"fine"]
BAD_VALUE, BAD_BYTE = 1, 2
FIRST_PAGE = 4  # just after the magic


def plain(values: list[bytes]) -> bytes:
    return b"".join(struct.pack("<I", len(value)) + value for value in values)


def page(
    page_type: md.PageType, body: bytes, encoding: md.Encoding, count: int
) -> tuple[md.PageHeader, bytes]:
    header = md.PageHeader(type=page_type, uncompressed_page_size=len(body), compressed_page_size=len(body))
    if page_type == md.PageType.DICTIONARY_PAGE:
        header.dictionary_page_header = md.DictionaryPageHeader(num_values=count, encoding=encoding)
    else:
        header.data_page_header = md.DataPageHeader(
            num_values=count,
            encoding=encoding,
            definition_level_encoding=md.Encoding.RLE,
            repetition_level_encoding=md.Encoding.RLE,
        )
    return header, body


def data_page(body: bytes, encoding: md.Encoding) -> tuple[md.PageHeader, bytes]:
    return page(md.PageType.DATA_PAGE, body, encoding, len(VALUES))


def dictionary_pages() -> list[tuple[md.PageHeader, bytes]]:
    dictionary = sorted(set(VALUES))
    indices = encode_indices([dictionary.index(v) for v in VALUES], len(dictionary))  # bit width first
    return [
        page(md.PageType.DICTIONARY_PAGE, plain(dictionary), md.Encoding.PLAIN, len(dictionary)),
        data_page(indices, md.Encoding.RLE_DICTIONARY),
    ]


PAGES = {
    "PLAIN": [data_page(plain(VALUES), md.Encoding.PLAIN)],
    "RLE_DICTIONARY": dictionary_pages(),
    "DELTA_LENGTH_BYTE_ARRAY": [
        data_page(encode_delta_length_byte_array(VALUES), md.Encoding.DELTA_LENGTH_BYTE_ARRAY)
    ],
    "DELTA_BYTE_ARRAY": [data_page(encode_delta_byte_array(VALUES), md.Encoding.DELTA_BYTE_ARRAY)],
}


def string_file(pages: list[tuple[md.PageHeader, bytes]]) -> bytes:
    tree = root([leaf("s", md.Type.BYTE_ARRAY, repetition=md.FieldRepetitionType.REQUIRED,
                      logical_type=md.LogicalType(STRING=md.StringType()))])
    return file_with_chunk(tree, pages, num_rows=len(VALUES), num_values=len(VALUES))


def data_page_offset(pages: list[tuple[md.PageHeader, bytes]]) -> int:
    """Where the (last, only) data page's header starts."""
    return FIRST_PAGE + sum(len(serialize(header)) + len(body) for header, body in pages[:-1])


@pytest.mark.parametrize("encoding", PAGES)
def test_the_reader_names_every_location_of_the_bad_value(encoding: str) -> None:
    pages = PAGES[encoding]
    with pytest.raises(InvalidValue) as caught:
        read_parquet(string_file(pages))
    page_ordinal = len(pages) - 1  # a dictionary page comes first
    assert caught.value.message.startswith(
        f"column s, row group 0, page {page_ordinal}: value {BAD_VALUE} is not UTF-8: byte {BAD_BYTE} "
    )
    assert "LogicalTypes.md, 'STRING'" in caught.value.message
    assert caught.value.offset == data_page_offset(pages)


@pytest.mark.parametrize("encoding", PAGES)
def test_validate_reports_the_bad_value_quoting_the_string_rule(encoding: str) -> None:
    [finding] = validate(string_file(PAGES[encoding]))
    assert (finding.kind, finding.column, finding.row_group, finding.page) == (KIND, "s", 0, 0)
    assert finding.message.startswith(f"value {BAD_VALUE} is not UTF-8: byte {BAD_BYTE} ")
    assert "should be interpreted as a UTF-8 encoded character string" in finding.message


def test_a_byte_array_without_the_string_annotation_is_not_checked() -> None:
    tree = root([leaf("b", md.Type.BYTE_ARRAY, repetition=md.FieldRepetitionType.REQUIRED)])
    raw = file_with_chunk(tree, PAGES["PLAIN"], num_rows=len(VALUES), num_values=len(VALUES))
    assert read_parquet(raw).data == {"b": VALUES}
    assert validate(raw) == []
