"""How each third-party adapter maps the statistics / page index / bloom filter / CRC
write options, checked in the files they write (tests/engines/_metadata_probe.py)."""

from __future__ import annotations

import pytest

from conformance.cases import Case, WriteOptions
from conformance.engines import get_engine
from conformance.engines.base import Unsupported
from conformance.engines.parquet.spark_engine import SparkEngine
from conformance.values import Field, Schema
from conformance.values import types as T
from tests.engines._metadata_probe import chunk_metadata

SCHEMA = Schema((Field("i", T.integer(32)), Field("s", T.string()), Field("flag", T.boolean())))
ROWS = tuple((k, "x" * 40 + f"{k:02}", k % 2 == 0) for k in range(8))


def _case(**options) -> Case:
    options.setdefault("row_group_size", None)
    return Case("test/meta", "meta", (), SCHEMA, ROWS, WriteOptions(**options))


def _write(engine: str, tmp_path, **options):
    path = tmp_path / f"{engine}.parquet"
    get_engine(engine).write(_case(**options), path)
    return chunk_metadata(path)


# ---- pyarrow ---------------------------------------------------------------------

def test_pyarrow_writes_every_requested_structure(tmp_path):
    chunks = _write("pyarrow", tmp_path, statistics=True, page_index=True, page_checksum=True,
                    bloom_filter_columns=("i",), bloom_filter_ndv=8, bloom_filter_fpp=0.01)
    assert all(c.statistics and "min_value" in c.statistics for c in chunks)
    assert all(c.column_index and c.offset_index for c in chunks)
    assert {c.path for c in chunks if c.bloom_filter} == {"i"}
    assert all(crc is not None for c in chunks for crc in c.page_crcs)


def test_pyarrow_defaults_and_opt_outs(tmp_path):
    default = _write("pyarrow", tmp_path)
    assert all(c.statistics for c in default)
    assert not any(c.column_index or c.offset_index or c.bloom_filter for c in default)
    assert all(crc is None for c in default for crc in c.page_crcs)
    none = _write("pyarrow", tmp_path, statistics=False, page_index=False, page_checksum=False)
    assert all(c.statistics is None and not c.column_index for c in none)


@pytest.mark.parametrize(("options", "reason"), [
    ({"statistics_truncate_length": 16}, "no statistics truncation knob"),
    ({"statistics": False, "page_index": True}, "OffsetIndex only"),
    ({"bloom_filter_columns": ("flag",)}, "does not support boolean"),
    ({"lies": ("statistics",)}, "reference writer only"),
])
def test_pyarrow_unsupported(tmp_path, options, reason):
    if "lies" in options and "lies" not in WriteOptions.__dataclass_fields__:
        pytest.skip("WriteOptions.lies not in this tree")
    with pytest.raises(Unsupported, match=reason):
        get_engine("pyarrow").write(_case(**options), tmp_path / "x.parquet")


# ---- DuckDB ------------------------------------------------------------------------

def test_duckdb_statistics_are_truncated_to_256_bytes(tmp_path):
    schema = Schema((Field("s", T.string()),))
    case = Case("test/long", "long", (), schema, (("x" * 300,), ("y" * 300,)),
                WriteOptions(statistics=True, statistics_truncate_length=256))
    path = tmp_path / "long.parquet"
    get_engine("duckdb").write(case, path)
    (chunk,) = chunk_metadata(path)
    assert len(chunk.statistics["min_value"]) == len(chunk.statistics["max_value"]) == 256


def test_duckdb_bloom_filters_follow_its_dictionary_choice(tmp_path):
    schema = Schema((Field("low", T.integer(32)), Field("high", T.integer(32))))
    rows = tuple((k % 3, k) for k in range(100))
    ok = Case("test/bloom", "bloom", (), schema, rows,
              WriteOptions(encoding=None, bloom_filter_columns=("low",), bloom_filter_fpp=0.01))
    path = tmp_path / "bloom.parquet"
    get_engine("duckdb").write(ok, path)
    assert {c.path for c in chunk_metadata(path) if c.bloom_filter} == {"low"}
    wrong = Case("test/bloom", "bloom", (), schema, rows,
                 WriteOptions(encoding=None, bloom_filter_columns=("high",)))
    with pytest.raises(Unsupported, match=r"asked for \['high'\], it wrote them for \['low'\]"):
        get_engine("duckdb").write(wrong, tmp_path / "wrong.parquet")


@pytest.mark.parametrize(("options", "reason"), [
    ({"statistics": False}, "write_statistics"),
    ({"statistics_truncate_length": 16}, "256 bytes"),
    ({"page_index": True}, "no ColumnIndex/OffsetIndex"),
    ({"page_checksum": True}, "no PageHeader.crc"),
    ({"bloom_filter_columns": ("s",)}, "encoding PLAIN leaves none"),
    ({"encoding": None, "bloom_filter_columns": ("s",), "bloom_filter_ndv": 5}, "no NDV option"),
])
def test_duckdb_unsupported(tmp_path, options, reason):
    with pytest.raises(Unsupported, match=reason):
        get_engine("duckdb").write(_case(**options), tmp_path / "x.parquet")


def test_duckdb_writes_statistics_and_nothing_else_by_default(tmp_path):
    chunks = _write("duckdb", tmp_path, statistics=True, page_index=False, page_checksum=False)
    assert all(c.statistics for c in chunks)
    assert not any(c.column_index or c.offset_index for c in chunks)
    assert all(crc is None for c in chunks for crc in c.page_crcs)


# ---- fastparquet -------------------------------------------------------------------

def test_fastparquet_stats_switch(tmp_path):
    on = _write("fastparquet", tmp_path, statistics=True)
    assert all("min" in c.statistics for c in on)
    off = _write("fastparquet", tmp_path, statistics=False)
    assert all(c.statistics is None or "min" not in c.statistics for c in off)
    default = _write("fastparquet", tmp_path)  # "auto": numbers only
    assert {c.path for c in default if "min" in (c.statistics or {})} == {"i"}


@pytest.mark.parametrize(("options", "reason"), [
    ({"statistics_truncate_length": 16}, "no statistics truncation"),
    ({"page_index": True}, "no ColumnIndex"),
    ({"bloom_filter_columns": ("i",)}, "no bloom filters"),
    ({"page_checksum": True}, "no PageHeader.crc"),
])
def test_fastparquet_unsupported(tmp_path, options, reason):
    with pytest.raises(Unsupported, match=reason):
        get_engine("fastparquet").write(_case(**options), tmp_path / "x.parquet")


# ---- Spark --------------------------------------------------------------------------

def test_spark_options():
    case = _case(statistics=False, statistics_truncate_length=None, page_checksum=False,
                 bloom_filter_columns=("i", "s"), bloom_filter_ndv=100, bloom_filter_fpp=0.02)
    options = {k: v for k, v in SparkEngine._write_options(case).items()
               if "statistics" in k or "bloom" in k or "checksum" in k or "truncate" in k}
    assert options == {
        "parquet.column.statistics.enabled": "false",
        "parquet.bloom.filter.enabled#i": "true", "parquet.bloom.filter.expected.ndv#i": "100",
        "parquet.bloom.filter.fpp#i": "0.02",
        "parquet.bloom.filter.enabled#s": "true", "parquet.bloom.filter.expected.ndv#s": "100",
        "parquet.bloom.filter.fpp#s": "0.02",
        "parquet.page.write-checksum.enabled": "false"}
    truncated = SparkEngine._write_options(_case(statistics_truncate_length=10))
    assert truncated["parquet.statistics.truncate.length"] == "10"
    assert truncated["parquet.columnindex.truncate.length"] == "10"
    for options, reason in (({"page_index": False}, "no property turns the page index off"),
                            ({"page_index": True, "statistics": False}, "no ColumnIndex")):
        with pytest.raises(Unsupported, match=reason):
            SparkEngine._write_options(_case(**options))


@pytest.mark.spark
def test_spark_writes_what_the_options_say(spark, tmp_path):
    chunks = _write("spark", tmp_path, statistics=True, statistics_truncate_length=10,
                    page_index=True, page_checksum=True, bloom_filter_columns=("s",),
                    bloom_filter_ndv=8, bloom_filter_fpp=0.01)
    assert all(c.column_index and c.offset_index for c in chunks)
    assert all(crc is not None for c in chunks for crc in c.page_crcs)
    assert {c.path for c in chunks if c.bloom_filter} == {"s"}
    strings = [c for c in chunks if c.path == "s"]
    assert all(len(c.statistics["max_value"]) <= 10 for c in strings)
    plain = _write("spark", tmp_path, statistics=False, page_checksum=False)
    assert all(c.statistics is None and not c.column_index for c in plain)
    assert all(crc is None for c in plain for crc in c.page_crcs)
