"""The fastparquet adapter: its mapping of cases to fastparquet.write (checked in the
files written) and its exact conversion of fastparquet's pandas output.

The write tests look at metadata and page headers; the read tests check the
adapter's conversion (NaN kept apart from null, trailing NUL bytes of fixed-length
values, units, structs), not whether fastparquet decodes every file correctly:
that is the matrix's business.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conformance.cases import Case, case_by_id
from conformance.engines.base import LossyConversion, Unsupported
from conformance.engines.parquet._pd_read import _to_unit, schema_type
from conformance.engines.parquet.fastparquet_engine import FastparquetEngine, build_frame
from conformance.values import DataType, Field, Schema, float_bits
from conformance.values import types as T
from tests.engines._helpers import single_column_case as _case
from tests.engines._helpers import write_case as _write
from tests.engines._parquet_probe import chunks


@pytest.fixture(scope="module")
def engine():
    return FastparquetEngine()


# ---- write --------------------------------------------------------------------

def test_uint8_required(engine, tmp_path):
    column = pq.ParquetFile(_write(engine, case_by_id("physical/uint8-required"),
                                   tmp_path)).schema.column(0)
    assert column.physical_type == "INT32"
    assert str(column.logical_type) in ("Int(bitWidth=8, isSigned=false)", "None")
    assert column.converted_type == "UINT_8"
    assert column.max_definition_level == 0


def test_optional_columns_are_optional(engine, tmp_path):
    schema = pq.ParquetFile(_write(engine, case_by_id("shape/one-row"), tmp_path)).schema
    assert all(schema.column(i).max_definition_level == 1 for i in range(len(schema)))


def test_nan_and_null_stay_apart_on_write(engine, tmp_path):
    case = _case(T.floating(64), [math.nan, None, 1.0, None])
    md = pq.ParquetFile(_write(engine, case, tmp_path)).metadata
    assert md.row_group(0).column(0).statistics.null_count == 2


def test_row_group_size(engine, tmp_path):
    md = pq.ParquetFile(_write(engine, case_by_id("shape/row-groups"), tmp_path)).metadata
    assert [md.row_group(i).num_rows for i in range(md.num_row_groups)] == [3, 3, 3, 1]


def test_page_v2_and_the_global_is_restored(engine, tmp_path):
    import fastparquet.writer

    before = fastparquet.writer.DATAPAGE_VERSION
    case = _case(T.integer(64), [1, None, 3], page_version=2)
    (chunk,) = chunks(_write(engine, case, tmp_path))
    assert chunk.page_types == {"DATA_PAGE_V2"}
    assert fastparquet.writer.DATAPAGE_VERSION == before


def test_plain_catalogue_case_has_only_plain_pages(engine, tmp_path):
    for chunk in chunks(_write(engine, case_by_id("shape/one-row"), tmp_path)):
        assert chunk.pages == [("DATA_PAGE", "PLAIN")], chunk
        assert chunk.codec == "UNCOMPRESSED"


def test_dictionary_encoding_through_categoricals(engine, tmp_path):
    case = _case(T.string(), ["a", "b", None, "a"], encoding="RLE_DICTIONARY")
    (chunk,) = chunks(_write(engine, case, tmp_path))
    assert chunk.pages == [("DICTIONARY_PAGE", "PLAIN"), ("DATA_PAGE", "RLE_DICTIONARY")]


@pytest.mark.parametrize(("codec", "footer"), [
    ("SNAPPY", "SNAPPY"), ("GZIP", "GZIP"), ("BROTLI", "BROTLI"), ("ZSTD", "ZSTD"),
    ("LZ4_RAW", "LZ4_RAW"), ("LZ4", "LZ4"),
])
def test_codecs(engine, tmp_path, codec, footer):
    (chunk,) = chunks(_write(engine, _case(T.integer(64), [1, 2, None], codec=codec), tmp_path))
    assert chunk.codec == footer


@pytest.mark.parametrize(("case_id", "physical", "length"), [
    ("physical/int96-required", "INT96", 0),
    ("physical/fixed4-optional", "FIXED_LEN_BYTE_ARRAY", 4),
    ("physical/string-required", "BYTE_ARRAY", 0),
])
def test_physical_types(engine, tmp_path, case_id, physical, length):
    column = pq.ParquetFile(_write(engine, case_by_id(case_id), tmp_path)).schema.column(0)
    assert column.physical_type == physical
    assert column.length == length or not length


@pytest.mark.parametrize(("t", "logical"), [
    (T.timestamp("ms", True), "Timestamp(isAdjustedToUTC=true, timeUnit=milliseconds"),
    (T.timestamp("ns", False), "Timestamp(isAdjustedToUTC=false, timeUnit=nanoseconds"),
    (T.time("us", True), "Time(isAdjustedToUTC=true, timeUnit=microseconds)"),
    (T.string(), "String"),
])
def test_logical_types(engine, tmp_path, t, logical):
    path = _write(engine, _case(t, [None]), tmp_path)
    assert str(pq.ParquetFile(path).schema.column(0).logical_type).startswith(logical)


def test_json_text_is_written_as_given(engine, tmp_path):
    path = _write(engine, _case(T.json_type(), ['{"a":[1,2]}', None]), tmp_path)
    assert pq.ParquetFile(path).schema.column(0).converted_type == "JSON"


@pytest.mark.parametrize(("case", "reason"), [
    (_case(T.integer(64), [1], encoding="DELTA_BINARY_PACKED"), "PLAIN"),
    (_case(T.integer(64), [1], codec="LZO"), "LZO"),
    (_case(T.decimal(9, 2, "INT32"), [1]), "DOUBLE"),
    (_case(T.floating(16), [1.0]), "FLOAT16"),
    (_case(T.uuid(), ["00112233-4455-6677-8899-aabbccddeeff"]), "UUID"),
    (_case(T.time("ms", True), [1]), "TIME_MICROS"),
    (_case(T.list_of(T.integer(32)), [[1]]), "JSON text"),
    (_case(T.json_type(), ['{"a": 1}']), "serialises JSON"),
    (_case(T.timestamp("us"), [-(2**63)]), "NaT"),
    (_case(T.floating(64), [0.0, -0.0], encoding="RLE_DICTIONARY"), "Categorical"),
    (_case(T.floating(64), [math.nan], encoding="RLE_DICTIONARY"), "Categorical"),
])
def test_unsupported(engine, tmp_path, case, reason):
    with pytest.raises(Unsupported, match=reason):
        engine.write(case, tmp_path / "never.parquet")
    assert not (tmp_path / "never.parquet").exists()


def test_int96_and_timestamps_cannot_be_mixed():
    schema = Schema((Field("a", T.int96()), Field("b", T.timestamp("us"))))
    with pytest.raises(Unsupported, match="INT96"):
        build_frame(Case("test/mix", "mix", (), schema, ((0, 0),)))


def test_frame_dtypes_hold_extremes():
    frame = build_frame(case_by_id("physical/uint64-optional"))
    assert str(frame.df["value"].dtype) == "UInt64"
    assert frame.df["value"].max() == 2**64 - 1
    assert frame.optional == ["value"]


# ---- read: the adapter's conversion of fastparquet's pandas output --------------

def _pyarrow_file(tmp_path, table: pa.Table):
    path = tmp_path / "in.parquet"
    pq.write_table(table, path, store_schema=False)
    return path


def test_nan_and_null_stay_apart_on_read(engine, tmp_path):
    path = _pyarrow_file(tmp_path, pa.table({"f": pa.array([math.nan, None, -0.0], pa.float64()),
                                             "g": pa.array([math.nan, None], pa.float32())
                                             .take([0, 1, 1])}))
    table = engine.read(path)
    f, g = table.column("f"), table.column("g")
    assert math.isnan(f[0]) and f[1] is None and float_bits(f[2]) == float_bits(-0.0)
    assert math.isnan(g[0]) and g[1:] == [None, None]


def test_fixed_length_values_keep_trailing_nul_bytes(engine, tmp_path):
    values = [b"\x00\x00\x00\x00", b"ab\x00\x00", None]
    path = _pyarrow_file(tmp_path, pa.table({"x": pa.array(values, pa.binary(4))}))
    table = engine.read(path)
    assert table.schema.fields[0].type == DataType("fixed", length=4)
    assert table.column("x") == values


def test_units_come_from_the_file(engine, tmp_path):
    storage = pa.array([1, -1, None], pa.int64())
    path = _pyarrow_file(tmp_path, pa.table({"ts": storage.view(pa.timestamp("ms")),
                                             "d": pa.array([3, None, 0], pa.int32())
                                             .view(pa.date32())}))
    table = engine.read(path)
    assert table.schema.fields[0].type == DataType("timestamp", unit="ms", utc=False)
    assert table.column("ts") == [1, -1, None]
    assert table.schema.fields[1].type == DataType("date")
    assert table.column("d") == [3, None, 0]


def test_conversion_into_a_coarser_unit_must_be_exact():
    assert _to_unit([2_000_000, None], "ns", "ms", "c") == [2, None]
    with pytest.raises(LossyConversion, match="whole number of ms"):
        _to_unit([1], "ns", "ms", "c")


def test_structs_are_nested_again(engine, tmp_path):
    t = pa.struct([pa.field("x", pa.int32(), False), pa.field("y", pa.string())])
    path = _pyarrow_file(tmp_path, pa.table({"s": pa.array([{"x": 1, "y": None}, None], t)}))
    table = engine.read(path)
    assert table.schema.names == ["s"]
    assert table.column("s") == [{"x": 1, "y": None}, None]


def test_null_struct_and_struct_of_nulls_are_indistinguishable(engine, tmp_path):
    t = pa.struct([pa.field("x", pa.int32())])
    path = _pyarrow_file(tmp_path, pa.table({"s": pa.array([{"x": None}, None], t)}))
    with pytest.raises(LossyConversion, match="null struct"):
        engine.read(path)


def test_json_documents_are_not_recoverable(engine, tmp_path):
    storage = pa.array(['{"a": 1}'])
    path = _pyarrow_file(tmp_path, pa.table({"j": pa.ExtensionArray.from_storage(pa.json_(),
                                                                                 storage)}))
    with pytest.raises(LossyConversion, match="JSON"):
        engine.read(path)


def test_schema_types(tmp_path):
    import fastparquet

    table = pa.table({
        "u8": pa.array([1], pa.uint8()), "dec": pa.array([1], pa.int8()).cast(pa.decimal128(9, 2)),
        "ts": pa.array([1], pa.int64()).view(pa.timestamp("us", tz="UTC")),
        "t": pa.array([1], pa.int32()).view(pa.time32("ms")),
        "l": pa.array([[1]], pa.list_(pa.int64())), "u": pa.ExtensionArray.from_storage(
            pa.uuid(), pa.array([bytes(16)], pa.binary(16))),
    })
    root = fastparquet.ParquetFile(str(_pyarrow_file(tmp_path, table))).schema.root["children"]
    assert schema_type(root["u8"]) == DataType("int", "INT32", bits=8, signed=False)
    assert schema_type(root["dec"]).precision == 9 and schema_type(root["dec"]).scale == 2
    assert schema_type(root["ts"]) == DataType("timestamp", "INT64", unit="us", utc=True)
    assert schema_type(root["t"]) == DataType("time", "INT32", unit="ms", utc=False)
    assert schema_type(root["l"]).element.type == DataType("int", "INT64", bits=64, signed=True)
    assert schema_type(root["u"]).kind == "uuid"


def test_categorical_columns_are_decoded():
    from conformance.engines.parquet._pd_read import _Reader

    class _Schema:
        @staticmethod
        def is_required(path):
            return False

    class _File:
        schema = _Schema()

    series = pd.Series(pd.Categorical.from_codes([1, -1, 0],
                                                 categories=pd.Index(np.array([5, 9], np.int16))))
    se = type("SE", (), {"num_children": 0, "type": 1, "converted_type": 16,
                         "logicalType": None, "type_length": None})()
    t, values = _Reader(_File(), pd.DataFrame({"c": series})).series("c", series, se)
    assert t == DataType("int", bits=16, signed=True)
    assert values == [9, None, 5]


def test_fastparquet_schema_names(engine, tmp_path):
    # Columns come back in schema order with the file's names.
    path = _write(engine, case_by_id("shape/one-row"), tmp_path)
    assert engine.read(path).schema.names == case_by_id("shape/one-row").schema.names


def test_zero_rows(engine, tmp_path):
    table = engine.read(_write(engine, case_by_id("shape/zero-rows"), tmp_path))
    assert table.rows == ()
    assert isinstance(table.schema, Schema) and len(table.schema) == 7
    assert all(isinstance(f, Field) for f in table.schema)
