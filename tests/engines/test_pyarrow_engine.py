"""The pyarrow adapter's mapping of cases to pq.write_table (checked in the files it writes).

These tests look at the metadata and page headers pyarrow produced for the
options the adapter passed; whether pyarrow then reads files correctly is the
matrix's business.
"""

from __future__ import annotations

import pyarrow.parquet as pq
import pytest

from conformance.cases import Case, case_by_id
from conformance.engines.base import Unsupported
from conformance.engines.parquet.pyarrow_engine import PyArrowEngine, write_kwargs
from conformance.values import Field, Schema
from conformance.values import types as T
from tests.engines._helpers import single_column_case as _case
from tests.engines._helpers import write_case as _write
from tests.engines._parquet_probe import chunks


@pytest.fixture(scope="module")
def engine():
    return PyArrowEngine()


def test_uint8_required_is_annotated_int8_unsigned(engine, tmp_path):
    path = _write(engine, case_by_id("physical/uint8-required"), tmp_path)
    column = pq.ParquetFile(path).schema.column(0)
    assert column.physical_type == "INT32"
    assert str(column.logical_type) == "Int(bitWidth=8, isSigned=false)"
    assert column.max_definition_level == 0  # REQUIRED


def test_no_arrow_schema_is_stored(engine, tmp_path):
    path = _write(engine, case_by_id("physical/int64-optional"), tmp_path)
    assert b"ARROW:schema" not in (pq.ParquetFile(path).metadata.metadata or {})


def test_row_group_size(engine, tmp_path):
    case = case_by_id("shape/row-groups")
    md = pq.ParquetFile(_write(engine, case, tmp_path)).metadata
    assert [md.row_group(i).num_rows for i in range(md.num_row_groups)] == [3, 3, 3, 1]


def test_single_row_group_by_default(engine, tmp_path):
    md = pq.ParquetFile(_write(engine, case_by_id("physical/string-optional"), tmp_path)).metadata
    assert md.num_row_groups == 1


def test_int96(engine, tmp_path):
    path = _write(engine, case_by_id("physical/int96-nanos-required"), tmp_path)
    assert pq.ParquetFile(path).schema.column(0).physical_type == "INT96"


def test_plain_booleans_in_v2_pages(engine, tmp_path):
    # Without column_encoding pyarrow would RLE-encode booleans in v2 pages.
    case = _case(T.boolean(), [True, None, False], page_version=2)
    (chunk,) = chunks(_write(engine, case, tmp_path))
    assert chunk.page_types == {"DATA_PAGE_V2"}
    assert chunk.data_encodings == {"PLAIN"}


def test_plain_catalogue_case_has_only_plain_pages(engine, tmp_path):
    for chunk in chunks(_write(engine, case_by_id("shape/one-row"), tmp_path)):
        assert chunk.pages == [("DATA_PAGE", "PLAIN")], chunk
        assert chunk.codec == "UNCOMPRESSED"


@pytest.mark.parametrize(("t", "values", "encoding"), [
    (T.integer(64), [1, 5, None, -3], "DELTA_BINARY_PACKED"),
    (T.string(), ["a", "bb", None], "DELTA_LENGTH_BYTE_ARRAY"),
    (T.fixed(2), [b"ab", b"ac", None], "DELTA_BYTE_ARRAY"),
    (T.floating(32), [1.5, None, -2.0], "BYTE_STREAM_SPLIT"),
    (T.boolean(), [True, False, None], "RLE"),
])
def test_value_encodings(engine, tmp_path, t, values, encoding):
    (chunk,) = chunks(_write(engine, _case(t, values, encoding=encoding), tmp_path))
    assert chunk.data_encodings == {encoding}
    assert "DICTIONARY_PAGE" not in chunk.page_types


def test_dictionary_encoding(engine, tmp_path):
    case = _case(T.integer(32), [7, 7, 8, None] * 10, encoding="RLE_DICTIONARY")
    (chunk,) = chunks(_write(engine, case, tmp_path))
    assert chunk.pages[0] == ("DICTIONARY_PAGE", "PLAIN")
    assert chunk.data_encodings == {"RLE_DICTIONARY"}


@pytest.mark.parametrize(("codec", "footer"), [
    ("SNAPPY", "SNAPPY"), ("GZIP", "GZIP"), ("BROTLI", "BROTLI"), ("ZSTD", "ZSTD"),
    ("LZ4_RAW", "LZ4_RAW"),
])
def test_codecs(engine, tmp_path, codec, footer):
    (chunk,) = chunks(_write(engine, _case(T.integer(64), [1, 2, None], codec=codec), tmp_path))
    assert chunk.codec == footer


def test_nested_leaves_get_the_encoding(engine, tmp_path):
    t = T.struct_of(Field("a", T.integer(32)), Field("b", T.list_of(T.integer(64))))
    case = _case(t, [{"a": 1, "b": [2, None]}, None], encoding="DELTA_BINARY_PACKED")
    found = {c.path: c.data_encodings for c in chunks(_write(engine, case, tmp_path))}
    assert found == {"value.a": {"DELTA_BINARY_PACKED"},
                     "value.b.list.element": {"DELTA_BINARY_PACKED"}}


def test_decimal_on_int32_and_flba(engine, tmp_path):
    on_int = _write(engine, _case(T.decimal(9, 2, "INT32"), [123, None]), tmp_path)
    assert pq.ParquetFile(on_int).schema.column(0).physical_type == "INT32"
    on_flba = _write(engine, _case(T.decimal(9, 2), [123, None]), tmp_path)
    column = pq.ParquetFile(on_flba).schema.column(0)
    assert (column.physical_type, column.length) == ("FIXED_LEN_BYTE_ARRAY", 4)


@pytest.mark.parametrize(("t", "logical"), [
    (T.timestamp("ms", True), "Timestamp(isAdjustedToUTC=true, timeUnit=milliseconds"),
    (T.timestamp("ns", False), "Timestamp(isAdjustedToUTC=false, timeUnit=nanoseconds"),
    (T.time("ns", False), "Time(isAdjustedToUTC=false, timeUnit=nanoseconds)"),
    (T.time("us", True), "Time(isAdjustedToUTC=true, timeUnit=microseconds)"),
    (T.uuid(), "UUID"),
    (T.floating(16), "Float16"),
    (T.json_type(), "JSON"),
])
def test_logical_types(engine, tmp_path, t, logical):
    path = _write(engine, _case(t, [None]), tmp_path)
    assert str(pq.ParquetFile(path).schema.column(0).logical_type).startswith(logical)


@pytest.mark.parametrize(("case", "reason"), [
    (_case(T.integer(32), [1], encoding="RLE"), "RLE"),
    (_case(T.boolean(), [True], encoding="RLE_DICTIONARY"), "BOOLEAN"),
    (_case(T.integer(32), [1], codec="LZO"), "LZO"),
    (_case(T.integer(32), [1], codec="LZ4"), "LZ4_RAW"),
    (_case(T.enum(), ["A"]), "enum"),
    (_case(T.interval(), [(1, 2, 3)]), "month_day_nano_interval"),
    (Case("test/times", "t", (), Schema((Field("a", T.time("us", True)),
                                         Field("b", T.time("us", False)))), ((0, 0),)),
     "write_time_adjusted_to_utc"),
    (_case(T.decimal(5, 1, "BYTE_ARRAY"), [1]), "DECIMAL"),
    (_case(T.decimal(5, 1, "INT64"), [1]), "INT32"),
    (_case(T.integer(16, physical="INT64"), [1]), "INT32"),
])
def test_unsupported(case, reason):
    with pytest.raises(Unsupported, match=reason):
        write_kwargs(case)


def test_int96_and_timestamps_cannot_be_mixed():
    schema = Schema((Field("a", T.int96()), Field("b", T.timestamp("us"))))
    case = Case("test/mix", "mix", (), schema, ((0, 0),))
    with pytest.raises(Unsupported, match="INT96"):
        write_kwargs(case)


def test_declared_capabilities_agree_with_write(engine):
    assert engine.capabilities.write_gap(_case(T.enum(), ["A"]).features)
    assert engine.capabilities.write_gap(case_by_id("physical/uint64-optional").features) is None
