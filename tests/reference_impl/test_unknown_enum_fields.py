"""One policy for enum values the reference does not know (``metadata.unknown_enum_values``;
docs/unknown-enum-values.md): kept and reported by ``validate`` where the value
only describes, UnsupportedFeature naming field and byte offset where it decides how
bytes are read. Byte-built footers, as an old parquet-cpp wrote them."""

from __future__ import annotations

import pickle
import struct
from collections.abc import Callable

import pytest

from conformance.engines.parquet.reference import ReferenceEngine
from conformance.values import types as T
from reference_impl.parquet.encodings.rle_hybrid import encode_rle_hybrid_length_prefixed
from reference_impl.parquet.errors import UnsupportedFeature
from reference_impl.parquet.metadata import parquet_thrift as md
from reference_impl.parquet.metadata.thrift_struct import UnknownEnumValue, serialize
from reference_impl.parquet.metadata.unknown_enum_values import UNKNOWN_CONVERTED_TYPE
from reference_impl.parquet.reader import read_footer, read_parquet
from reference_impl.parquet.schema.tree import leaf, root
from reference_impl.parquet.validation.unknown_enum_checks import KIND
from reference_impl.parquet.validation.validate import validate
from tests.reference_impl.data_path_helpers import LENGTH, file_with_chunk

OLD_PARQUET_CPP_CONVERTED_TYPE = 24  # past INTERVAL = 21, the last ConvertedType
NEWER_ENCODING = max(md.Encoding) + 1
NEWER_CODEC = max(md.CompressionCodec) + 1
ROWS = 3


def data_page(body: bytes, encoding: md.Encoding = md.Encoding.PLAIN) -> tuple[md.PageHeader, bytes]:
    header = md.PageHeader(
        type=md.PageType.DATA_PAGE,
        uncompressed_page_size=len(body),
        compressed_page_size=len(body),
        data_page_header=md.DataPageHeader(
            num_values=ROWS,
            encoding=encoding,
            definition_level_encoding=md.Encoding.RLE,
            repetition_level_encoding=md.Encoding.RLE,
        ),
    )
    return header, body


def nulls_file(converted_type: int | None, **chunk: object) -> bytes:
    """An optional INT32 column of ``ROWS`` nulls: one page of definition levels 0."""
    x = leaf("x", md.Type.INT32, repetition=md.FieldRepetitionType.OPTIONAL, converted_type=converted_type)  # type: ignore[arg-type]
    tree = root([x])
    levels = encode_rle_hybrid_length_prefixed([0] * ROWS, 1)
    return file_with_chunk(tree, [data_page(levels)], num_rows=ROWS, num_values=ROWS, **chunk)  # type: ignore[arg-type]


def values_file(converted_type: int) -> bytes:
    """A required INT32 column of 1, 2, 3 with chunk statistics, no LogicalType."""
    x = leaf("x", md.Type.INT32, repetition=md.FieldRepetitionType.REQUIRED, converted_type=converted_type)  # type: ignore[arg-type]
    tree = root([x])
    raw = file_with_chunk(tree, [data_page(struct.pack("<3i", 1, 2, 3))], num_rows=ROWS, num_values=ROWS)

    def add_statistics(meta: md.ColumnMetaData) -> None:
        meta.statistics = md.Statistics(min_value=struct.pack("<i", 1), max_value=struct.pack("<i", 3))

    return with_chunk_metadata(raw, add_statistics)


def with_chunk_metadata(raw: bytes, edit: Callable[[md.ColumnMetaData], None]) -> bytes:
    """``raw`` with its footer re-encoded after ``edit`` of the only ColumnMetaData."""
    metadata, footer_start = read_footer(raw)
    edit(metadata.row_groups[0].columns[0].meta_data)
    footer = serialize(metadata)
    return raw[:footer_start] + footer + LENGTH.pack(len(footer)) + b"PAR1"


def unknown_findings(raw: bytes) -> list[str]:
    return [finding.message for finding in validate(raw) if finding.kind == KIND]


def test_converted_type_24_on_a_column_of_nulls_reads_and_is_reported() -> None:
    raw = nulls_file(OLD_PARQUET_CPP_CONVERTED_TYPE)
    assert read_parquet(raw).data == {"x": [None] * ROWS}
    [message] = unknown_findings(raw)
    assert "SchemaElement 'x'.converted_type is ConvertedType 24" in message


def test_converted_type_24_on_a_column_with_values_reads_its_physical_values(tmp_path) -> None:
    # The physical type decides how the bytes decode; the converted type only
    # what they mean, which is unknown: statistics are not judged, the value is
    # reported, and the reference engine reads the physical values, naming the
    # annotation it does not read (refused only when reading strictly).
    raw = values_file(OLD_PARQUET_CPP_CONVERTED_TYPE)
    contents = read_parquet(raw)
    assert contents.data == {"x": [1, 2, 3]}
    kinds = [f.kind for f in validate(raw)]
    assert kinds == ["statistics.undefined_order", KIND]  # bounds of an order nobody knows
    path = tmp_path / "na.parquet"
    path.write_bytes(raw)
    table, breaches = ReferenceEngine().read_with_breaches(path)
    assert table.schema.fields[0].type == T.integer(32)
    assert table.rows == ((1,), (2,), (3,))
    [found] = breaches
    assert (found.rule, found.where) == (UNKNOWN_CONVERTED_TYPE, "column 'x': unknown ConvertedType 24")
    assert found.offset is not None
    assert raw[found.offset : found.offset + 1] == bytes([OLD_PARQUET_CPP_CONVERTED_TYPE << 1])  # zigzag
    assert "SHOULD" in found.describe() and "This enum should not be extended." in found.describe()
    with pytest.raises(UnsupportedFeature, match="parquet.schema.unknown-converted-type"):
        ReferenceEngine().read_with_breaches(path, strict=True)


def test_converted_type_24_on_a_column_of_nulls_reads_as_its_physical_type(tmp_path) -> None:
    path = tmp_path / "na.parquet"
    path.write_bytes(nulls_file(OLD_PARQUET_CPP_CONVERTED_TYPE))
    table, breaches = ReferenceEngine().read_with_breaches(path)
    assert (table.schema.fields[0].type, table.rows) == (T.integer(32), ((None,),) * ROWS)
    assert [found.rule for found in breaches] == [UNKNOWN_CONVERTED_TYPE]


def test_an_unknown_encoding_in_page_encoding_stats_reads_and_is_reported() -> None:
    def add_stats(meta: md.ColumnMetaData) -> None:
        stats = md.PageEncodingStats(page_type=md.PageType.DATA_PAGE, encoding=NEWER_ENCODING, count=1)
        meta.encoding_stats = [stats]

    raw = with_chunk_metadata(nulls_file(None), add_stats)
    assert read_parquet(raw).data == {"x": [None] * ROWS}
    [message] = unknown_findings(raw)
    assert f"ColumnMetaData.encoding_stats[0].encoding is Encoding {NEWER_ENCODING}" in message


def test_an_unknown_codec_is_unsupported_naming_the_field_and_its_byte() -> None:
    raw = nulls_file(None, codec=NEWER_CODEC)
    expected = f"ColumnMetaData.codec: CompressionCodec value {NEWER_CODEC} is not one this reader knows"
    with pytest.raises(UnsupportedFeature, match=expected) as caught:
        read_parquet(raw)
    assert "column x, row group 0" in caught.value.message
    zigzag_varint_of_codec = bytes([NEWER_CODEC << 1])
    assert raw[caught.value.offset : caught.value.offset + 1] == zigzag_varint_of_codec


def test_an_unknown_value_survives_a_copy_with_its_offset() -> None:
    value = UnknownEnumValue(OLD_PARQUET_CPP_CONVERTED_TYPE, "ConvertedType", 50)
    copied = pickle.loads(pickle.dumps(value))
    assert (copied, copied.enum_name, copied.offset) == (24, "ConvertedType", 50)
