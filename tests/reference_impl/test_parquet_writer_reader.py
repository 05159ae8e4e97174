"""write_parquet / read_parquet on flat schemas: round trips, the metadata the
writer must set, and refusal of bad arguments."""

from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.parquet.errors import UnsupportedFeature
from reference_impl.parquet.metadata import parquet_thrift as md
from reference_impl.parquet.metadata.parquet_thrift import (
    ConvertedType,
    Encoding,
    FieldRepetitionType,
    LogicalType,
    Type,
)
from reference_impl.parquet.metadata.thrift_struct import deserialize
from reference_impl.parquet.reader import read_footer, read_parquet
from reference_impl.parquet.schema.flat import ColumnSpec
from reference_impl.parquet.schema.type_rules import converted_type_for
from reference_impl.parquet.writer import DEFAULT_CREATED_BY, write_parquet
from tests.reference_impl.parquet_helpers import budget, canonical, flat_tables

REQUIRED = FieldRepetitionType.REQUIRED
OPTIONAL = FieldRepetitionType.OPTIONAL


def write_bytes(columns, data, **options) -> bytes:
    sink = io.BytesIO()
    write_parquet(sink, columns, data, **options)
    return sink.getvalue()


@given(
    flat_tables(),
    st.none() | st.integers(1, 15),
    st.none() | st.integers(1, 7),
)
@budget(60)
def test_round_trip(table, row_group_size, rows_per_page) -> None:
    columns, data = table
    raw = write_bytes(columns, data, row_group_size=row_group_size, rows_per_page=rows_per_page)
    result = read_parquet(raw)
    assert result.columns == [column.resolved() for column in columns]
    assert {name: canonical(values) for name, values in result.data.items()} == {
        name: canonical(values) for name, values in data.items()
    }
    num_rows = len(next(iter(data.values())))
    assert result.metadata.num_rows == num_rows
    expected_groups = 0 if num_rows == 0 else -(-num_rows // (row_group_size or num_rows))
    assert len(result.metadata.row_groups) == expected_groups


def test_edge_values_round_trip() -> None:
    columns = [
        ColumnSpec("i32", Type.INT32, REQUIRED),
        ColumnSpec("i64", Type.INT64, OPTIONAL),
        ColumnSpec("f", Type.FLOAT, OPTIONAL),
        ColumnSpec("d", Type.DOUBLE, REQUIRED),
        ColumnSpec("s", Type.BYTE_ARRAY, OPTIONAL),
        ColumnSpec("b", Type.BOOLEAN, OPTIONAL),
    ]
    data = {
        "i32": [-(2**31), 2**31 - 1, 0, -1],
        "i64": [-(2**63), None, 2**63 - 1, None],
        "f": [float("nan"), -0.0, float("-inf"), 3.4028234663852886e38],
        "d": [float("nan"), -0.0, 5e-324, -float("inf")],
        "s": [b"", None, b"\x00" * 1000, "ünï".encode()],
        "b": [None, None, None, None],
    }
    result = read_parquet(write_bytes(columns, data))
    for name, values in data.items():
        assert canonical(result.data[name]) == canonical(values), name


def test_zero_rows() -> None:
    columns = [ColumnSpec("a", Type.INT32, OPTIONAL)]
    result = read_parquet(write_bytes(columns, {"a": []}))
    assert result.data == {"a": []}
    assert result.metadata.num_rows == 0
    assert result.metadata.row_groups == []


def test_path_and_file_sinks(tmp_path: Path) -> None:
    columns = [ColumnSpec("a", Type.INT64, REQUIRED)]
    path = tmp_path / "a.parquet"
    write_parquet(path, columns, {"a": [1, 2]})
    write_parquet(os.fspath(tmp_path / "b.parquet"), columns, {"a": [1, 2]})
    assert read_parquet(path).data == {"a": [1, 2]}
    assert read_parquet(str(tmp_path / "b.parquet")).data == {"a": [1, 2]}
    assert path.read_bytes() == write_bytes(columns, {"a": [1, 2]})  # deterministic


# ---------------------------------------------------------------------------
# The metadata the writer sets
# ---------------------------------------------------------------------------


def test_footer_contents() -> None:
    columns = [
        ColumnSpec("a", Type.INT32, OPTIONAL),
        ColumnSpec("b", Type.FIXED_LEN_BYTE_ARRAY, REQUIRED, type_length=2),
    ]
    data = {"a": [1, None, 3, None, 5], "b": [b"ab"] * 5}
    raw = write_bytes(
        columns, data, row_group_size=3, rows_per_page=2, key_value_metadata={"k": "v"}
    )
    footer, footer_start = read_footer(raw)
    assert footer.version == 1
    assert footer.created_by == DEFAULT_CREATED_BY
    assert footer.key_value_metadata == [md.KeyValue(key="k", value="v")]
    assert footer.column_orders == [md.ColumnOrder(TYPE_ORDER=md.TypeDefinedOrder())] * 2
    assert [element.name for element in footer.schema] == ["schema", "a", "b"]
    assert footer.schema[0].num_children == 2
    assert footer.schema[2].type_length == 2
    assert [group.num_rows for group in footer.row_groups] == [3, 2]
    assert [group.ordinal for group in footer.row_groups] == [0, 1]

    previous_end = 4  # after the leading magic
    for group in footer.row_groups:
        assert group.file_offset == previous_end
        for chunk in group.columns:
            meta = chunk.meta_data
            assert chunk.file_offset == 0
            assert meta.data_page_offset == previous_end  # chunks are back to back
            assert meta.codec == md.CompressionCodec.UNCOMPRESSED
            assert meta.num_values == group.num_rows
            assert meta.total_compressed_size == meta.total_uncompressed_size
            pages = -(-group.num_rows // 2)
            assert meta.encoding_stats == [
                md.PageEncodingStats(
                    page_type=md.PageType.DATA_PAGE, encoding=Encoding.PLAIN, count=pages
                )
            ]
            # The chunk's size covers exactly its page headers and pages.
            position, seen = meta.data_page_offset, 0
            while position < meta.data_page_offset + meta.total_compressed_size:
                header, body = deserialize(md.PageHeader, raw, start=position)
                position = body + header.compressed_page_size
                seen += 1
            assert position == meta.data_page_offset + meta.total_compressed_size
            assert seen == pages
            previous_end = position
        assert group.total_byte_size == sum(
            c.meta_data.total_compressed_size for c in group.columns
        )
        assert group.total_compressed_size == group.total_byte_size
    assert previous_end == footer_start
    assert footer.row_groups[0].columns[0].meta_data.encodings == [Encoding.PLAIN, Encoding.RLE]
    assert footer.row_groups[0].columns[1].meta_data.encodings == [Encoding.PLAIN]


UNITS = {"MILLIS": md.MilliSeconds, "MICROS": md.MicroSeconds, "NANOS": md.NanoSeconds}


def _unit(name: str) -> md.TimeUnit:
    return md.TimeUnit(**{name: UNITS[name]()})


LOGICAL_CASES = [
    # (physical type, type_length, logical type, ConvertedType the writer must add)
    (Type.BYTE_ARRAY, None, LogicalType(STRING=md.StringType()), ConvertedType.UTF8),
    (Type.BYTE_ARRAY, None, LogicalType(ENUM=md.EnumType()), ConvertedType.ENUM),
    (Type.BYTE_ARRAY, None, LogicalType(JSON=md.JsonType()), ConvertedType.JSON),
    (Type.BYTE_ARRAY, None, LogicalType(BSON=md.BsonType()), ConvertedType.BSON),
    (Type.INT32, None, LogicalType(DATE=md.DateType()), ConvertedType.DATE),
    (
        Type.INT32,
        None,
        LogicalType(DECIMAL=md.DecimalType(scale=2, precision=9)),
        ConvertedType.DECIMAL,
    ),
    (
        Type.FIXED_LEN_BYTE_ARRAY,
        5,
        LogicalType(DECIMAL=md.DecimalType(scale=0, precision=11)),
        ConvertedType.DECIMAL,
    ),
    *[
        (
            Type.INT64 if width == 64 else Type.INT32,
            None,
            LogicalType(INTEGER=md.IntType(bitWidth=width, isSigned=signed)),
            ConvertedType[f"{'' if signed else 'U'}INT_{width}"],
        )
        for width in (8, 16, 32, 64)
        for signed in (True, False)
    ],
    *[
        (
            Type.INT32 if unit == "MILLIS" else Type.INT64,
            None,
            LogicalType(TIME=md.TimeType(isAdjustedToUTC=utc, unit=_unit(unit))),
            {"MILLIS": ConvertedType.TIME_MILLIS, "MICROS": ConvertedType.TIME_MICROS}.get(unit),
        )
        for unit in ("MILLIS", "MICROS", "NANOS")
        for utc in (True, False)
    ],
    *[
        (
            Type.INT64,
            None,
            LogicalType(TIMESTAMP=md.TimestampType(isAdjustedToUTC=utc, unit=_unit(unit))),
            {
                "MILLIS": ConvertedType.TIMESTAMP_MILLIS,
                "MICROS": ConvertedType.TIMESTAMP_MICROS,
            }.get(unit),
        )
        for unit in ("MILLIS", "MICROS", "NANOS")
        for utc in (True, False)
    ],
    (Type.FIXED_LEN_BYTE_ARRAY, 16, LogicalType(UUID=md.UUIDType()), None),
    (Type.FIXED_LEN_BYTE_ARRAY, 2, LogicalType(FLOAT16=md.Float16Type()), None),
    (Type.INT32, None, LogicalType(UNKNOWN=md.NullType()), None),
    (Type.BYTE_ARRAY, None, LogicalType(GEOMETRY=md.GeometryType()), None),
    (
        Type.BYTE_ARRAY,
        None,
        LogicalType(
            GEOGRAPHY=md.GeographyType(
                crs="OGC:CRS84", algorithm=md.EdgeInterpolationAlgorithm.KARNEY
            )
        ),
        None,
    ),
]


@pytest.mark.parametrize(
    ("physical_type", "type_length", "logical", "converted"),
    LOGICAL_CASES,
    ids=[f"{case[2].kind}-{case[3].name if case[3] else None}" for case in LOGICAL_CASES],
)
def test_logical_and_converted_types_are_both_written(
    physical_type, type_length, logical, converted
) -> None:
    assert converted_type_for(logical) == converted
    column = ColumnSpec("c", physical_type, OPTIONAL, type_length, logical_type=logical)
    result = read_parquet(write_bytes([column], {"c": [None]}))
    element = result.metadata.schema[1]
    assert element.logicalType == logical
    assert element.converted_type == converted
    if logical.kind == "DECIMAL":
        assert (element.scale, element.precision) == (
            logical.DECIMAL.scale,
            logical.DECIMAL.precision,
        )
    else:
        assert element.scale is None and element.precision is None
    assert result.columns == [column.resolved()]


def test_explicit_converted_type_is_kept() -> None:
    # Legacy-only annotation (no LogicalType), as old writers produce.
    column = ColumnSpec(
        "c", Type.FIXED_LEN_BYTE_ARRAY, REQUIRED, 12, converted_type=ConvertedType.INTERVAL
    )
    result = read_parquet(write_bytes([column], {"c": [bytes(12)]}))
    assert result.metadata.schema[1].converted_type == ConvertedType.INTERVAL
    assert result.metadata.schema[1].logicalType is None
    assert result.columns == [column]


# ---------------------------------------------------------------------------
# Bad arguments
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("column", "value", "message"),
    [
        (ColumnSpec("x", Type.INT32, REQUIRED), None, "None \\(null\\) in a REQUIRED"),
        (ColumnSpec("x", Type.INT32, OPTIONAL), 2**31, "signed 32-bit range"),
        (ColumnSpec("x", Type.INT64, OPTIONAL), -(2**63) - 1, "signed 64-bit range"),
        (ColumnSpec("x", Type.INT32, OPTIONAL), True, "expected int"),
        (ColumnSpec("x", Type.INT64, OPTIONAL), 1.0, "expected int"),
        (ColumnSpec("x", Type.BOOLEAN, OPTIONAL), 1, "expected bool"),
        (ColumnSpec("x", Type.FLOAT, OPTIONAL), 0.1, "32-bit float"),
        (ColumnSpec("x", Type.FLOAT, OPTIONAL), 1e300, "32-bit float"),
        (ColumnSpec("x", Type.FLOAT, OPTIONAL), 1, "expected float"),
        (ColumnSpec("x", Type.DOUBLE, OPTIONAL), "1", "expected float"),
        (ColumnSpec("x", Type.BYTE_ARRAY, OPTIONAL), "text", "expected bytes"),
        (ColumnSpec("x", Type.INT96, OPTIONAL), bytes(11), "length 12"),
        (ColumnSpec("x", Type.FIXED_LEN_BYTE_ARRAY, OPTIONAL, 4), b"abc", "length 4"),
    ],
)
def test_bad_values_name_column_and_row(column: ColumnSpec, value, message: str) -> None:
    good = {
        Type.INT32: 1,
        Type.INT64: 1,
        Type.BOOLEAN: True,
        Type.FLOAT: 1.0,
        Type.DOUBLE: 1.0,
        Type.BYTE_ARRAY: b"",
        Type.INT96: bytes(12),
        Type.FIXED_LEN_BYTE_ARRAY: b"abcd",
    }[column.physical_type]
    with pytest.raises(ValueError, match=f"column 'x', row 2: .*{message}"):
        write_bytes([column], {"x": [good, good, value]})


def test_bad_arguments() -> None:
    a = ColumnSpec("a", Type.INT32, REQUIRED)
    with pytest.raises(ValueError, match="different numbers of rows"):
        write_bytes([a, ColumnSpec("b", Type.INT32, REQUIRED)], {"a": [1], "b": [1, 2]})
    with pytest.raises(ValueError, match="missing"):
        write_bytes([a], {"b": [1]})
    with pytest.raises(ValueError, match="duplicate"):
        write_bytes([a, a], {"a": [1]})
    with pytest.raises(ValueError, match="at least one column"):
        write_bytes([], {})
    with pytest.raises(ValueError, match="row_group_size"):
        write_bytes([a], {"a": [1]}, row_group_size=0)
    with pytest.raises(ValueError, match="key_value_metadata"):
        write_bytes([a], {"a": [1]}, key_value_metadata={"k": 1})
    with pytest.raises(UnsupportedFeature, match="REPEATED"):
        write_bytes([ColumnSpec("r", Type.INT32, FieldRepetitionType.REPEATED)], {"r": [1]})
    with pytest.raises(ValueError, match="type_length"):
        ColumnSpec("f", Type.FIXED_LEN_BYTE_ARRAY, REQUIRED)
    with pytest.raises(ValueError, match="type_length"):
        ColumnSpec("f", Type.INT32, REQUIRED, type_length=4)
