"""Cross-checks against pyarrow (an engine, allowed here in the tests only):
pyarrow reads our files with the same values and metadata, and we read
pyarrow's PLAIN / uncompressed / data page v1 files identically (every other
encoding, codec, page version and nesting: test_reference_data_path_interop)."""

from __future__ import annotations

import io

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.parquet.metadata import parquet_thrift as md
from reference_impl.parquet.metadata.parquet_thrift import (
    ConvertedType,
    FieldRepetitionType,
    LogicalType,
    Type,
)
from reference_impl.parquet.reader import read_parquet
from reference_impl.parquet.schema.flat import ColumnSpec
from reference_impl.parquet.writer import write_parquet
from tests.reference_impl.parquet_helpers import (
    budget,
    canonical,
    flat_tables,
    float32_bits,
    int96_from_nanos,
)

REQUIRED = FieldRepetitionType.REQUIRED
OPTIONAL = FieldRepetitionType.OPTIONAL


def ours(columns, data, **options) -> bytes:
    sink = io.BytesIO()
    write_parquet(sink, columns, data, **options)
    return sink.getvalue()


def physical_from_arrow(array: pa.ChunkedArray, physical_type: Type) -> list:
    """The Parquet physical values behind an Arrow column (as our reader returns them)."""
    arrow_type = array.type
    if physical_type == Type.INT96:
        nanos = array.cast(pa.int64()).to_pylist()
        return [None if v is None else int96_from_nanos(v) for v in nanos]
    if pa.types.is_string(arrow_type):
        return [None if v is None else v.encode() for v in array.to_pylist()]
    if pa.types.is_temporal(arrow_type):
        width = pa.int32() if physical_type == Type.INT32 else pa.int64()
        return array.cast(width).to_pylist()
    if pa.types.is_unsigned_integer(arrow_type):
        # Unsigned values are stored in the signed physical type, two's complement.
        bits = 32 if physical_type == Type.INT32 else 64
        return [
            None if v is None else (v - (1 << bits) if v >= 1 << (bits - 1) else v)
            for v in array.to_pylist()
        ]
    return array.to_pylist()


def compare(physical_type: Type, actual: list, expected: list) -> None:
    if physical_type == Type.FLOAT:
        assert [None if v is None else float32_bits(v) for v in actual] == [
            None if v is None else float32_bits(v) for v in expected
        ]
    else:
        assert canonical(actual) == canonical(expected)


# ---------------------------------------------------------------------------
# pyarrow reads what we write
# ---------------------------------------------------------------------------


@given(flat_tables(int96_timestamps=True), st.none() | st.integers(1, 9), st.integers(1, 5))
@budget(40)
def test_pyarrow_reads_our_files(table, row_group_size, rows_per_page) -> None:
    columns, data = table
    raw = ours(columns, data, row_group_size=row_group_size, rows_per_page=rows_per_page)
    arrow = pq.read_table(io.BytesIO(raw))
    for column in columns:
        actual = physical_from_arrow(arrow.column(column.name), column.physical_type)
        compare(column.physical_type, actual, data[column.name])
        field = arrow.schema.field(column.name)
        assert field.nullable == (column.repetition == OPTIONAL)


def test_pyarrow_sees_our_column_chunk_metadata() -> None:
    columns = [
        ColumnSpec("a", Type.INT64, OPTIONAL),
        ColumnSpec(
            "b", Type.BYTE_ARRAY, REQUIRED, logical_type=LogicalType(STRING=md.StringType())
        ),
    ]
    data = {"a": [1, None, 3, 4, None], "b": [b"x", b"y", b"", b"zz", b"w"]}
    raw = ours(columns, data, row_group_size=2, key_value_metadata={"origin": "test"})
    ours_footer = read_parquet(raw).metadata
    theirs = pq.ParquetFile(io.BytesIO(raw)).metadata
    assert theirs.num_rows == 5
    assert theirs.num_row_groups == 3
    assert theirs.created_by == ours_footer.created_by
    assert theirs.metadata == {b"origin": b"test"}
    for g, group in enumerate(ours_footer.row_groups):
        assert theirs.row_group(g).num_rows == group.num_rows
        for c, chunk in enumerate(group.columns):
            view = theirs.row_group(g).column(c)
            assert view.num_values == chunk.meta_data.num_values
            assert view.data_page_offset == chunk.meta_data.data_page_offset
            assert view.total_compressed_size == chunk.meta_data.total_compressed_size
            assert view.total_uncompressed_size == chunk.meta_data.total_uncompressed_size
            assert view.compression == "UNCOMPRESSED"
            assert not view.has_dictionary_page
            assert view.path_in_schema == columns[c].name


ARROW_LOGICAL_CASES = [
    # (our column, a value, pyarrow's logical type name, pyarrow's converted type, arrow type)
    (
        ColumnSpec(
            "c", Type.BYTE_ARRAY, OPTIONAL, logical_type=LogicalType(STRING=md.StringType())
        ),
        "String",
        "UTF8",
        pa.string(),
    ),
    (
        ColumnSpec("c", Type.INT32, OPTIONAL, logical_type=LogicalType(DATE=md.DateType())),
        "Date",
        "DATE",
        pa.date32(),
    ),
    (
        ColumnSpec(
            "c",
            Type.INT32,
            OPTIONAL,
            logical_type=LogicalType(INTEGER=md.IntType(bitWidth=16, isSigned=False)),
        ),
        "Int(bitWidth=16, isSigned=false)",
        "UINT_16",
        pa.uint16(),
    ),
    (
        ColumnSpec(
            "c",
            Type.INT64,
            OPTIONAL,
            logical_type=LogicalType(
                TIMESTAMP=md.TimestampType(
                    isAdjustedToUTC=True, unit=md.TimeUnit(MILLIS=md.MilliSeconds())
                )
            ),
        ),
        "Timestamp(isAdjustedToUTC=true, timeUnit=milliseconds",
        "TIMESTAMP_MILLIS",
        pa.timestamp("ms", tz="UTC"),
    ),
    (
        ColumnSpec(
            "c",
            Type.INT64,
            OPTIONAL,
            logical_type=LogicalType(
                TIME=md.TimeType(isAdjustedToUTC=False, unit=md.TimeUnit(NANOS=md.NanoSeconds()))
            ),
        ),
        "Time(isAdjustedToUTC=false, timeUnit=nanoseconds",
        "NONE",
        pa.time64("ns"),
    ),
    (
        ColumnSpec(
            "c",
            Type.FIXED_LEN_BYTE_ARRAY,
            OPTIONAL,
            type_length=4,
            logical_type=LogicalType(DECIMAL=md.DecimalType(scale=2, precision=9)),
        ),
        "Decimal(precision=9, scale=2)",
        "DECIMAL",
        pa.decimal128(9, 2),
    ),
    (
        ColumnSpec(
            "c",
            Type.FIXED_LEN_BYTE_ARRAY,
            OPTIONAL,
            type_length=2,
            logical_type=LogicalType(FLOAT16=md.Float16Type()),
        ),
        "Float16",
        "NONE",
        pa.float16(),
    ),
]


@pytest.mark.parametrize(
    ("column", "logical_name", "converted_name", "arrow_type"),
    ARROW_LOGICAL_CASES,
    ids=[case[2] + "/" + str(case[3]) for case in ARROW_LOGICAL_CASES],
)
def test_pyarrow_interprets_our_logical_types(column, logical_name, converted_name, arrow_type):
    raw = ours([column], {"c": [None]})
    parquet_file = pq.ParquetFile(io.BytesIO(raw))
    described = parquet_file.schema.column(0)
    assert str(described.logical_type).startswith(logical_name)
    assert described.converted_type == converted_name
    assert parquet_file.schema_arrow.field("c").type == arrow_type


# ---------------------------------------------------------------------------
# We read what pyarrow writes (PLAIN, uncompressed, data page v1)
# ---------------------------------------------------------------------------

# (arrow type, physical type, element strategy)
ARROW_COLUMNS = [
    (pa.bool_(), Type.BOOLEAN, st.booleans()),
    (pa.int8(), Type.INT32, st.integers(-128, 127)),
    (pa.uint16(), Type.INT32, st.integers(0, 2**16 - 1)),
    (pa.int32(), Type.INT32, st.integers(-(2**31), 2**31 - 1)),
    (pa.uint32(), Type.INT32, st.integers(0, 2**32 - 1)),
    (pa.int64(), Type.INT64, st.integers(-(2**63), 2**63 - 1)),
    (pa.uint64(), Type.INT64, st.integers(0, 2**64 - 1)),
    (pa.float32(), Type.FLOAT, st.floats(width=32)),
    (pa.float64(), Type.DOUBLE, st.floats()),
    (pa.binary(), Type.BYTE_ARRAY, st.binary(max_size=10)),
    (pa.string(), Type.BYTE_ARRAY, st.text(max_size=6)),
    (pa.binary(3), Type.FIXED_LEN_BYTE_ARRAY, st.binary(min_size=3, max_size=3)),
    (pa.date32(), Type.INT32, st.integers(-(2**31), 2**31 - 1)),
    (pa.time64("us"), Type.INT64, st.integers(0, 86_400_000_000 - 1)),
    # Every timestamp becomes a legacy INT96 (use_deprecated_int96_timestamps).
    (pa.timestamp("ns"), Type.INT96, st.integers(-(2**62), 2**62)),
]


@st.composite
def arrow_tables(draw: st.DrawFn):
    picks = draw(st.lists(st.sampled_from(range(len(ARROW_COLUMNS))), min_size=1, max_size=5))
    num_rows = draw(st.integers(0, 30))
    arrays, physical = {}, {}
    for index, pick in enumerate(picks):
        arrow_type, physical_type, elements = ARROW_COLUMNS[pick]
        nullable = draw(st.booleans())
        element = st.none() | elements if nullable else elements
        values = draw(st.lists(element, min_size=num_rows, max_size=num_rows))
        name = f"c{index}"
        arrays[name] = pa.array(values, arrow_type)
        physical[name] = physical_type
    schema = pa.schema(
        [
            pa.field(name, array.type, nullable=array.null_count > 0)
            for name, array in arrays.items()
        ]
    )
    return pa.table(arrays, schema=schema), physical


@given(
    arrow_tables(),
    st.integers(1, 12),
    st.sampled_from([1, 64, 1 << 20]),
    st.booleans(),
    st.booleans(),
)
@budget(40)
def test_we_read_pyarrow_files(table_and_types, row_group_size, page_size, stats, page_index):
    table, physical = table_and_types
    sink = io.BytesIO()
    pq.write_table(
        table,
        sink,
        use_dictionary=False,
        column_encoding="PLAIN",
        compression="NONE",
        data_page_version="1.0",
        row_group_size=row_group_size,
        data_page_size=page_size,
        write_batch_size=4,  # lets the small page size actually split pages
        write_statistics=stats,
        write_page_index=page_index,
        use_deprecated_int96_timestamps=True,
    )
    result = read_parquet(sink.getvalue())
    for name, physical_type in physical.items():
        expected = physical_from_arrow(table.column(name), physical_type)
        compare(physical_type, result.data[name], expected)
    described = pq.ParquetFile(io.BytesIO(sink.getvalue())).schema
    for index, column in enumerate(result.columns):
        assert column.physical_type.name == described.column(index).physical_type
        assert column.type_length == (described.column(index).length or None)


def test_we_read_pyarrow_logical_annotations() -> None:
    table = pa.table(
        {
            "s": pa.array(["a"], pa.string()),
            "u8": pa.array([200], pa.uint8()),
            "ts": pa.array([1], pa.timestamp("us", tz="UTC")),
            "dec": pa.array([1], pa.decimal128(5, 2)),
        }
    )
    sink = io.BytesIO()
    pq.write_table(table, sink, use_dictionary=False, compression="NONE", data_page_version="1.0")
    columns = {column.name: column for column in read_parquet(sink.getvalue()).columns}
    assert columns["s"].logical_type == LogicalType(STRING=md.StringType())
    assert columns["s"].converted_type == ConvertedType.UTF8
    assert columns["u8"].logical_type == LogicalType(INTEGER=md.IntType(bitWidth=8, isSigned=False))
    assert columns["u8"].converted_type == ConvertedType.UINT_8
    assert columns["ts"].logical_type.TIMESTAMP.isAdjustedToUTC is True
    assert columns["ts"].converted_type == ConvertedType.TIMESTAMP_MICROS
    assert columns["dec"].logical_type == LogicalType(DECIMAL=md.DecimalType(scale=2, precision=5))
    assert (columns["dec"].scale, columns["dec"].precision) == (2, 5)


# ---------------------------------------------------------------------------
# Beyond PLAIN / uncompressed / v1 / flat: read like pyarrow reads them
# ---------------------------------------------------------------------------


def _pyarrow_file(table: pa.Table, **options) -> bytes:
    sink = io.BytesIO()
    settings_ = {"compression": "NONE", "use_dictionary": False, "data_page_version": "1.0"}
    settings_.update(options)
    pq.write_table(table, sink, **settings_)
    return sink.getvalue()


SIMPLE = pa.table({"a": pa.array([1, 2, 2, 3], pa.int64())})


@pytest.mark.parametrize(
    "raw",
    [
        _pyarrow_file(SIMPLE, use_dictionary=True),
        _pyarrow_file(SIMPLE, compression="SNAPPY"),
        _pyarrow_file(SIMPLE, compression="ZSTD"),
        _pyarrow_file(SIMPLE, data_page_version="2.0"),
        _pyarrow_file(SIMPLE, column_encoding="DELTA_BINARY_PACKED"),
        _pyarrow_file(
            pa.table({"f": pa.array([1.5], pa.float64())}), column_encoding="BYTE_STREAM_SPLIT"
        ),
        _pyarrow_file(pa.table({"l": pa.array([[1, 2]])})),
        _pyarrow_file(pa.table({"s": pa.array([{"x": 1}])})),
    ],
    ids=["dictionary", "snappy", "zstd", "v2", "delta", "byte_stream_split", "list", "struct"],
)
def test_features_beyond_the_first_slice_are_read(raw: bytes) -> None:
    """These were refused by name before the reader handled them (UnsupportedFeature);
    now they read as pyarrow reads them."""
    assert read_parquet(raw).logical_rows() == pq.read_table(io.BytesIO(raw)).to_pylist()
