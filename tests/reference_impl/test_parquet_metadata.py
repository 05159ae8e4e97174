"""parquet.thrift declarations: round trips, agreement with the thrift package,
forward compatibility (unknown fields, enum values, union members)."""

from __future__ import annotations

import io
import struct

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st
from thrift.Thrift import TType

from reference_impl.parquet.metadata import parquet_thrift as md
from reference_impl.parquet.metadata.thrift_struct import (
    ThriftStruct,
    deserialize,
    field_table,
    serialize,
)
from tests.reference_impl.parquet_helpers import (
    as_plain,
    budget,
    structs,
    thrift_deserialize,
    thrift_serialize,
)

ALL_STRUCTS = sorted(
    (
        value
        for value in vars(md).values()
        if isinstance(value, type)
        and issubclass(value, ThriftStruct)
        and value.__module__ == md.__name__
    ),
    key=lambda cls: cls.__name__,
)


def test_every_declaration_has_a_consistent_field_table() -> None:
    for struct_class in ALL_STRUCTS:
        table = field_table(struct_class)
        assert list(table) == sorted(table), struct_class  # written in id order


def test_logical_type_members_and_ids_match_the_current_parquet_thrift() -> None:
    ids = {spec.name: spec.field_id for spec in field_table(md.LogicalType).values()}
    assert ids == {
        "STRING": 1,
        "MAP": 2,
        "LIST": 3,
        "ENUM": 4,
        "DECIMAL": 5,
        "DATE": 6,
        "TIME": 7,
        "TIMESTAMP": 8,
        "INTEGER": 10,
        "UNKNOWN": 11,
        "JSON": 12,
        "BSON": 13,
        "UUID": 14,
        "FLOAT16": 15,
        "VARIANT": 16,
        "GEOMETRY": 17,
        "GEOGRAPHY": 18,
        "FILE": 19,
    }


@pytest.mark.parametrize("struct_class", ALL_STRUCTS, ids=lambda cls: cls.__name__)
@budget(15)
@given(data=st.data())
def test_round_trip_and_agreement_with_the_thrift_package(struct_class, data) -> None:
    value = data.draw(structs(struct_class))
    encoded = serialize(value)
    decoded, end = deserialize(struct_class, encoded)
    assert end == len(encoded)
    assert as_plain(decoded) == as_plain(value)
    # Byte-identical with the thrift package's TCompactProtocol ...
    assert thrift_serialize(value) == encoded
    # ... which also reads our bytes back to the same values.
    theirs, consumed = thrift_deserialize(struct_class, encoded)
    assert theirs == as_plain(value)
    assert consumed == len(encoded)


def test_page_header_byte_by_byte() -> None:
    header = md.PageHeader(
        type=md.PageType.DATA_PAGE,
        uncompressed_page_size=100,
        compressed_page_size=100,
        data_page_header=md.DataPageHeader(
            num_values=10,
            encoding=md.Encoding.PLAIN,
            definition_level_encoding=md.Encoding.RLE,
            repetition_level_encoding=md.Encoding.RLE,
        ),
    )
    expected = b"".join(
        [
            b"\x15\x00",  # field 1 type (i32, delta 1): DATA_PAGE = 0, zigzag 0
            b"\x15\xc8\x01",  # field 2 uncompressed_page_size: zigzag(100) = 200 = c8 01
            b"\x15\xc8\x01",  # field 3 compressed_page_size
            b"\x2c",  # field 5 data_page_header (struct, delta 2: no crc)
            b"\x15\x14",  # field 1 num_values: zigzag(10) = 20
            b"\x15\x00",  # field 2 encoding: PLAIN = 0
            b"\x15\x06",  # field 3 definition_level_encoding: RLE = 3, zigzag 6
            b"\x15\x06",  # field 4 repetition_level_encoding: RLE
            b"\x00",  # stop (DataPageHeader)
            b"\x00",  # stop (PageHeader)
        ]
    )
    assert serialize(header) == expected
    assert deserialize(md.PageHeader, expected) == (header, len(expected))


def test_timestamp_logical_type_byte_by_byte() -> None:
    logical = md.LogicalType(
        TIMESTAMP=md.TimestampType(isAdjustedToUTC=True, unit=md.TimeUnit(NANOS=md.NanoSeconds()))
    )
    expected = b"".join(
        [
            b"\x8c",  # field 8 TIMESTAMP, struct
            b"\x11",  # field 1 isAdjustedToUTC: BOOLEAN_TRUE
            b"\x1c",  # field 2 unit, struct (the TimeUnit union)
            b"\x3c\x00",  # field 3 NANOS: an empty struct
            b"\x00",  # stop (TimeUnit)
            b"\x00",  # stop (TimestampType)
            b"\x00",  # stop (LogicalType)
        ]
    )
    assert serialize(logical) == expected
    assert deserialize(md.LogicalType, expected)[0] == logical


def test_new_logical_types_byte_by_byte() -> None:
    cases = {
        b"\xfc\x00\x00": md.LogicalType(FLOAT16=md.Float16Type()),  # field 15: delta 15
        b"\x0c\x20\x13\x01\x00\x00": md.LogicalType(  # field 16: long form, zigzag 32
            VARIANT=md.VariantType(specification_version=1)
        ),
        b"\x0c\x22\x18\x03abc\x00\x00": md.LogicalType(GEOMETRY=md.GeometryType(crs="abc")),
        b"\x0c\x24\x25\x02\x00\x00": md.LogicalType(  # field 18, algorithm VINCENTY = 1
            GEOGRAPHY=md.GeographyType(algorithm=md.EdgeInterpolationAlgorithm.VINCENTY)
        ),
    }
    for expected, logical in cases.items():
        assert serialize(logical) == expected
        assert deserialize(md.LogicalType, expected)[0] == logical


def test_unknown_enum_values_are_kept_as_ints() -> None:
    element = md.SchemaElement(name="x", type=99, repetition_type=7, converted_type=1000)
    decoded, _ = deserialize(md.SchemaElement, serialize(element))
    assert decoded.type == 99 and not isinstance(decoded.type, md.Type)
    assert decoded.repetition_type == 7
    assert decoded.converted_type == 1000
    page = md.PageHeader(type=42, uncompressed_page_size=0, compressed_page_size=0)
    assert deserialize(md.PageHeader, serialize(page))[0].type == 42


def test_unknown_union_member_decodes_to_an_empty_union() -> None:
    # LogicalType field 20 (a member from a newer spec), an empty struct.
    data = b"\x0c\x28\x00\x00"
    logical, _ = deserialize(md.LogicalType, data)
    assert logical.kind is None
    assert logical.skipped_field_ids == (20,)
    # ColumnOrder with a member we do not know (field 4; 1 to 3 are TYPE_ORDER,
    # IEEE_754_TOTAL_ORDER and INT96_TIMESTAMP_ORDER).
    order, _ = deserialize(md.ColumnOrder, b"\x4c\x00\x00")
    assert order.kind is None and order.skipped_field_ids == (4,)
    total, _ = deserialize(md.ColumnOrder, b"\x2c\x00\x00")
    assert total.kind == "IEEE_754_TOTAL_ORDER"


def _footer() -> md.FileMetaData:
    column = md.ColumnMetaData(
        type=md.Type.INT64,
        encodings=[md.Encoding.PLAIN, md.Encoding.RLE],
        path_in_schema=["a"],
        codec=md.CompressionCodec.UNCOMPRESSED,
        num_values=3,
        total_uncompressed_size=40,
        total_compressed_size=40,
        data_page_offset=4,
        statistics=md.Statistics(null_count=1, min_value=b"\x01" * 8, max_value=b"\x02" * 8),
    )
    return md.FileMetaData(
        version=1,
        schema=[
            md.SchemaElement(name="schema", num_children=1),
            md.SchemaElement(
                name="a",
                type=md.Type.INT64,
                repetition_type=md.FieldRepetitionType.OPTIONAL,
                logicalType=md.LogicalType(INTEGER=md.IntType(bitWidth=64, isSigned=False)),
                converted_type=md.ConvertedType.UINT_64,
            ),
        ],
        num_rows=3,
        row_groups=[
            md.RowGroup(
                columns=[md.ColumnChunk(file_offset=0, meta_data=column)],
                total_byte_size=40,
                num_rows=3,
                ordinal=0,
            )
        ],
        key_value_metadata=[md.KeyValue(key="k", value="v"), md.KeyValue(key="only-key")],
        created_by="test",
        column_orders=[md.ColumnOrder(TYPE_ORDER=md.TypeDefinedOrder())],
    )


def test_footer_with_unknown_fields_from_a_newer_writer() -> None:
    extra = [
        (20, TType.I64, lambda p: p.writeI64(5)),
        (
            21,
            TType.LIST,
            lambda p: (p.writeListBegin(TType.STRING, 1), p.writeString("z"), p.writeListEnd()),
        ),
        (22, TType.BOOL, lambda p: p.writeBool(True)),
        (23, TType.DOUBLE, lambda p: p.writeDouble(1.5)),
    ]
    footer = _footer()
    decoded, end = deserialize(md.FileMetaData, thrift_serialize(footer, extra))
    assert decoded == footer
    assert decoded.skipped_field_ids == (20, 21, 22, 23)


def test_pyarrow_footer_decodes_and_re_encodes_byte_for_byte() -> None:
    table = pa.table(
        {
            "i": pa.array([1, None, 3], pa.int8()),
            "s": pa.array(["a", "b", None]),
            "t": pa.array([1, 2, 3], pa.timestamp("ms", tz="UTC")),
            "d": pa.array([1.5, None, -0.0]),
        }
    )
    sink = io.BytesIO()
    pq.write_table(table, sink, row_group_size=2, write_page_index=True)
    raw = sink.getvalue()
    (length,) = struct.unpack("<I", raw[-8:-4])
    footer_bytes = raw[-8 - length : -8]
    footer, end = deserialize(md.FileMetaData, footer_bytes)
    assert end == length
    assert footer.schema[1].logicalType == md.LogicalType(
        INTEGER=md.IntType(bitWidth=8, isSigned=True)
    )
    assert footer.schema[1].converted_type == md.ConvertedType.INT_8
    # Every field pyarrow writes is declared, so nothing is lost in a re-encode.
    assert serialize(footer) == footer_bytes
