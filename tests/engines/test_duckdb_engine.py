"""The DuckDB adapter's mapping of cases to COPY ... TO (checked in the files it writes).

These tests look at the metadata and page headers DuckDB produced for the options
the adapter passed; whether DuckDB then reads files correctly is the matrix's
business.
"""

from __future__ import annotations

import pyarrow.parquet as pq
import pytest

from conformance.cases import Case, case_by_id
from conformance.engines.base import Unsupported
from conformance.engines.parquet.duckdb_engine import DuckDBEngine, copy_options
from conformance.values import Field, Schema
from conformance.values import types as T
from tests.engines._helpers import single_column_case as _case
from tests.engines._helpers import write_case as _write
from tests.engines._parquet_probe import chunks


@pytest.fixture(scope="module")
def engine():
    return DuckDBEngine()


def test_uint8_required(engine, tmp_path):
    column = pq.ParquetFile(_write(engine, case_by_id("physical/uint8-required"),
                                   tmp_path)).schema.column(0)
    assert column.physical_type == "INT32"
    assert str(column.logical_type) == "Int(bitWidth=8, isSigned=false)"
    assert column.max_definition_level == 0


def test_optional_columns_stay_optional(engine, tmp_path):
    # shape/one-row has no null at all: written from a query, the columns stay OPTIONAL.
    schema = pq.ParquetFile(_write(engine, case_by_id("shape/one-row"), tmp_path)).schema
    assert all(schema.column(i).max_definition_level == 1 for i in range(len(schema)))


def test_plain_even_for_a_single_distinct_value(engine, tmp_path):
    # DICTIONARY_SIZE_LIMIT 1 would still dictionary-encode a one-value column.
    case = _case(T.integer(64), [7] * 20)
    (chunk,) = chunks(_write(engine, case, tmp_path))
    assert chunk.pages == [("DATA_PAGE", "PLAIN")]
    assert chunk.codec == "UNCOMPRESSED"


def test_plain_catalogue_case_has_only_plain_pages(engine, tmp_path):
    for chunk in chunks(_write(engine, case_by_id("shape/one-row"), tmp_path)):
        assert chunk.pages == [("DATA_PAGE", "PLAIN")], chunk


@pytest.mark.parametrize(("t", "values", "encoding"), [
    (T.integer(64), [1, 5, None, -3], "DELTA_BINARY_PACKED"),
    (T.date(), [1, 5, None], "DELTA_BINARY_PACKED"),
    (T.string(), ["a", "bb", None], "DELTA_LENGTH_BYTE_ARRAY"),
    (T.floating(32), [1.5, None, -2.0], "BYTE_STREAM_SPLIT"),
])
def test_v2_value_encodings(engine, tmp_path, t, values, encoding):
    (chunk,) = chunks(_write(engine, _case(t, values, encoding=encoding), tmp_path))
    assert chunk.data_encodings == {encoding}
    assert chunk.page_types == {"DATA_PAGE"}


def test_row_groups_in_whole_vectors(engine, tmp_path):
    case = _case(T.integer(32), list(range(5000)), row_group_size=2048)
    md = pq.ParquetFile(_write(engine, case, tmp_path)).metadata
    assert [md.row_group(i).num_rows for i in range(md.num_row_groups)] == [2048, 2048, 904]


def test_int96(engine, tmp_path):
    path = _write(engine, case_by_id("physical/int96-required"), tmp_path)
    assert pq.ParquetFile(path).schema.column(0).physical_type == "INT96"


@pytest.mark.parametrize(("t", "logical"), [
    (T.timestamp("ms", True), "Timestamp(isAdjustedToUTC=true, timeUnit=milliseconds"),
    (T.timestamp("ms", False), "Timestamp(isAdjustedToUTC=false, timeUnit=milliseconds"),
    (T.timestamp("ns", True), "Timestamp(isAdjustedToUTC=true, timeUnit=nanoseconds"),
    (T.time("us", True), "Time(isAdjustedToUTC=true, timeUnit=microseconds)"),
    (T.time("ns", False), "Time(isAdjustedToUTC=false, timeUnit=nanoseconds)"),
    (T.uuid(), "UUID"),
    (T.json_type(), "JSON"),
    (T.interval(), "Interval"),
    (T.unknown(), "Null"),
    (T.decimal(15, 2, "INT64"), "Decimal(precision=15, scale=2)"),
])
def test_logical_types(engine, tmp_path, t, logical):
    path = _write(engine, _case(t, [None]), tmp_path)
    assert str(pq.ParquetFile(path).schema.column(0).logical_type).startswith(logical)


def test_large_millisecond_utc_timestamps(engine, tmp_path):
    # Staged as TIMESTAMP_MS, not through DuckDB's microsecond TIMESTAMPTZ.
    path = _write(engine, _case(T.timestamp("ms", True), [2**62, None]), tmp_path)
    assert pq.ParquetFile(path).metadata.num_rows == 2


@pytest.mark.parametrize(("codec", "footer"), [
    ("SNAPPY", "SNAPPY"), ("GZIP", "GZIP"), ("BROTLI", "BROTLI"), ("ZSTD", "ZSTD"),
    ("LZ4_RAW", "LZ4_RAW"),
])
def test_codecs(engine, tmp_path, codec, footer):
    (chunk,) = chunks(_write(engine, _case(T.integer(64), [1, 2, None], codec=codec), tmp_path))
    assert chunk.codec == footer


@pytest.mark.parametrize(("case", "reason"), [
    (_case(T.integer(32), [1], page_version=2), "data page v1 only"),
    (_case(T.integer(32), [1], encoding="RLE_DICTIONARY"), "heuristic"),
    (_case(T.string(), ["a"], encoding="DELTA_BYTE_ARRAY"), "DELTA_BYTE_ARRAY"),
    (_case(T.string(), ["a"], encoding="DELTA_BINARY_PACKED"), "DELTA_LENGTH_BYTE_ARRAY"),
    (_case(T.integer(32), [1], codec="LZ4"), "lz4_raw"),
    (_case(T.integer(32), list(range(10)), row_group_size=3), "2048"),
])
def test_unsupported_options(case, reason):
    with pytest.raises(Unsupported, match=reason):
        copy_options(case)


@pytest.mark.parametrize(("case", "reason"), [
    (_case(T.fixed(4), [b"abcd"]), "fixed-length"),
    (_case(T.floating(16), [1.0]), "Arrow Type e"),
    (_case(T.enum(), ["A"]), "ENUM"),
    (_case(T.time("ms", False), [1]), "millisecond"),
    (_case(T.decimal(20, 2), [1]), r"FIXED_LEN_BYTE_ARRAY\(16\)"),
    (_case(T.list_of(T.integer(32), element_nullable=False), [[1]]), "NOT NULL"),
])
def test_unsupported_types(engine, tmp_path, case, reason):
    with pytest.raises(Unsupported, match=reason):
        engine.write(case, tmp_path / "never.parquet")
    assert not (tmp_path / "never.parquet").exists()


def test_timestamp_flags_cannot_split_a_file():
    schema = Schema((Field("a", T.timestamp("ms", True)), Field("b", T.timestamp("us", False))))
    with pytest.raises(Unsupported, match="TIMESTAMP_IS_ADJUSTED_TO_UTC"):
        copy_options(Case("test/mix", "mix", (), schema, ((0, 0),)))
    schema = Schema((Field("a", T.int96()), Field("b", T.timestamp("us", False))))
    with pytest.raises(Unsupported, match="INT96"):
        copy_options(Case("test/mix", "mix", (), schema, ((0, 0),)))


def test_declared_capabilities_agree_with_write(engine):
    assert engine.capabilities.write_gap(case_by_id("physical/fixed4-optional").features)
    assert engine.capabilities.write_gap(_case(T.integer(8), [1], page_version=2).features)
    assert engine.capabilities.write_gap(case_by_id("physical/uint64-optional").features) is None
