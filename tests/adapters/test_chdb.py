"""The chdb adapter (adapters/python/chdb): its start answer, writes and reads against
the reference, what it declines, and the ClickHouse findings it reports.

Each `test_finding_*` pins a wrong outcome of ClickHouse as measured with chdb 4.4.0
(ClickHouse 26.9.2.1, Parquet reader v3): when such a test fails, ClickHouse has
changed (fixed?), and the adapter's README.md and this test should say what it does now.
"""

from __future__ import annotations

import importlib.metadata
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from conformance.cases import Case, WriteOptions, case_by_id
from conformance.engines import Unsupported
from conformance.engines.protocol.external import AdapterError, ExternalEngine
from conformance.engines.protocol.messages import problems
from conformance.values import Field, Schema, diff_tables
from conformance.values import types as T
from tests.adapters.both_ways import assert_read_back, case_file, native_declared, written_column

NAME = "chdb"

# Representative cases ClickHouse writes as asked and reads back right (protocol-check).
ROUND_TRIPS = ("physical/uint64-required", "physical/double-nan-payloads-optional",
               "physical/fixed4-optional", "logical/decimal-flba-required",
               "logical/uuid-optional", "logical/enum-required",
               "logical/timestamp-nanos-utc-optional", "encoding/rle_dictionary-string-required-v1",
               "codec/lz4_raw-v1", "pages/many-pages-v1", "nested/struct-required-fields")
READS = ("physical/binary-optional", "physical/int96-nanos-optional", "codec/lz4-v1",
         "encoding/delta_byte_array-string-optional-v2", "encoding/byte_stream_split-float-optional-v1")


@pytest.fixture(scope="module")
def chdb(bundled_engine) -> ExternalEngine:
    return bundled_engine(NAME)


def test_start_answer(chdb):
    started = chdb.adapter.start()
    assert problems("start.response", started) == []
    assert started["version"].startswith("ClickHouse 26.")
    assert started["version"].endswith(f"(chdb {importlib.metadata.version('chdb')})")
    assert started["language"] == "python"
    assert set(started["formats"]) == {"parquet", "orc"}


@pytest.mark.parametrize("case_id", ROUND_TRIPS)
def test_write_read_back_by_reference(chdb, reference, case_id, tmp_path):
    assert_read_back(chdb, reference, case_id, tmp_path)


@pytest.mark.parametrize("case_id", ROUND_TRIPS + READS)
def test_read_reference_file(chdb, reference, case_id, tmp_path):
    assert_read_back(reference, chdb, case_id, tmp_path)


def _own_case(options: WriteOptions, rows: int = 8) -> Case:
    schema = Schema((Field("id", T.integer(32, True), nullable=False), Field("name", T.string())))
    return Case(id="test/chdb-own", title="adapter test", spec=(), schema=schema,
                rows=tuple((i, f"n{i % 3}") for i in range(rows)), options=options)


def test_written_file_has_what_the_options_ask(chdb, tmp_path):
    path = tmp_path / "own.parquet"
    chdb.write(_own_case(WriteOptions(encoding="PLAIN", codec="SNAPPY", row_group_size=4,
                                      page_index=True, page_checksum=False)), path)
    metadata = pq.ParquetFile(path).metadata
    assert [metadata.row_group(i).num_rows for i in range(metadata.num_row_groups)] == [4, 4]
    column = metadata.row_group(0).column(1)
    assert column.compression == "SNAPPY"
    assert set(column.encodings) == {"PLAIN", "RLE"}  # RLE: the definition levels
    assert column.has_column_index and column.has_offset_index and column.is_stats_set
    assert pq.ParquetFile(path).schema.column(0).max_definition_level == 0  # REQUIRED


def test_row_groups_clickhouse_cannot_cut_are_unsupported(chdb, tmp_path):
    # 10 rows in groups of 3: ClickHouse balances them (measured: [4, 3, 3]), not [3, 3, 3, 1].
    with pytest.raises(Unsupported, match=r"row groups of 3 rows: .*ClickHouse wrote groups of"):
        chdb.write(_own_case(WriteOptions(row_group_size=3), rows=10), tmp_path / "own.parquet")


def test_optional_list_is_unsupported(chdb, tmp_path):
    with pytest.raises(Unsupported, match="cannot be inside Nullable type"):
        chdb.write(case_by_id("nested/list-int32"), tmp_path / "chdb.parquet")


def test_undeclared_features_are_cannot_write(chdb):
    gaps = {tag: chdb.capabilities.write_gap([tag]) for tag in
            ("page:v2", "encoding:DELTA_BINARY_PACKED", "type:INT96", "type:TIME(us,utc)",
             "type:TIMESTAMP(ms,local)", "codec:LZ4", "encryption:AES_GCM_V1")}
    assert all(gap and gap.startswith(f"cannot write {tag}:") for tag, gap in gaps.items())
    assert chdb.capabilities.read_gap(["encryption:AES_GCM_V1"])


def test_bad_file_is_rejected(chdb, reference, tmp_path):
    _, path = case_file(reference, "physical/int32-required", tmp_path)
    path.write_bytes(path.read_bytes()[:40])
    with pytest.raises(AdapterError, match="Not a Parquet file"):
        chdb.read(path)


# ---- findings: each asserts the wrong outcome measured with ClickHouse 26.9.2.1 -------

def test_finding_null_list_read_as_empty(chdb, reference, tmp_path):
    case, path = case_file(reference, "nested/list-int32", tmp_path)
    assert case.rows[2][1] is None
    assert chdb.read(path).rows[2][1] == [], "ClickHouse now reads a null LIST as null: fixed?"


def test_finding_null_struct_in_list_read_as_struct_of_nulls(chdb, reference, tmp_path):
    case, path = case_file(reference, "nested/list-of-structs", tmp_path)
    assert case.rows[0][1][1] is None
    assert chdb.read(path).rows[0][1][1] == {"x": None, "label": None}


def test_finding_dictionary_boolean_is_rejected(chdb, reference, tmp_path):
    _, path = case_file(reference, "encoding/rle_dictionary-boolean-required-v1", tmp_path)
    with pytest.raises(AdapterError, match=r"Incorrect dictionary page size: 1 != 2 \* 1"):
        chdb.read(path)


def test_finding_bit_packed_levels_are_rejected(chdb, reference, tmp_path):
    _, path = case_file(reference, "encoding/bit-packed-levels", tmp_path)
    with pytest.raises(AdapterError, match=r"Decompressed data is too short \(def\)"):
        chdb.read(path)


def test_finding_date_outside_date32_is_rejected(chdb, reference, tmp_path):
    _, path = case_file(reference, "logical/date-required", tmp_path)
    with pytest.raises(AdapterError, match="out of allowed Date32 range"):
        chdb.read(path)
    with pytest.raises(AdapterError, match="out of allowed Date32 range"):
        chdb.write(case_by_id("logical/date-required"), tmp_path / "chdb.parquet")


def test_finding_json_scalar_cannot_be_written(chdb, tmp_path):
    with pytest.raises(AdapterError, match="Cannot read JSON object from JSON element"):
        chdb.write(case_by_id("logical/json-required"), tmp_path / "chdb.parquet")


@pytest.mark.parametrize(("case_id", "got"), [
    ("logical/time-millis-utc-required", "TIMESTAMP(ms, utc=True)"),
    ("logical/timestamp-micros-local-required", "TIMESTAMP(us, utc=True)"),
    ("logical/interval-required", "FIXED_LEN_BYTE_ARRAY(12)"),
    ("logical/unknown", "INT(32, signed)"),
])
def test_finding_types_read_as_another_type(chdb, reference, case_id, got, tmp_path):
    case, path = case_file(reference, case_id, tmp_path)
    table = chdb.read(path)
    assert table.schema.fields[-1].type.describe() == got
    assert f"got {got}" in (diff_tables(case.expected, table) or "")


def test_finding_geometry_is_rejected(chdb, reference, tmp_path):
    _, path = case_file(reference, "logical/geometry-required", tmp_path)
    with pytest.raises(AdapterError, match="Unexpected logical/converted type"):
        chdb.read(path)


GOLDEN = Path(__file__).resolve().parents[2] / "golden_files"


def test_finding_fastparquet_compressed_v1_pages_are_rejected(chdb):
    path = GOLDEN / "cases/codec/snappy-v1/fastparquet/snappy-v1.parquet"
    with pytest.raises(AdapterError, match="Unexpected uncompressed page size"):
        chdb.read(path)


@pytest.mark.parametrize("bad", ["framing/bad-leading-magic", "metadata/num-rows-mismatch",
                                 "page/more-values-than-chunk",
                                 "schema/field-without-repetition-type"])
def test_finding_bad_file_is_accepted(chdb, bad):
    # Files every reader must reject (golden_files/bad/); ClickHouse reads their 10 rows.
    assert len(chdb.read(GOLDEN / "bad" / f"{bad}.parquet").rows) == 10


def test_start_answer_declares_exactly_the_native_types(chdb):
    started = chdb.adapter.start()
    assert native_declared(started) == {f"native:chdb:{n}" for n in (
        "LowCardinality", "ArrayOfNullable", "Tuple", "UnnamedTuple", "Int128", "UInt128",
        "Int256", "UInt256", "Int128Legacy", "Enum8", "Enum16", "FixedString",
        "MapLowCardinalityKey", "IPv4", "IPv6", "Date32", "DateTime64", "Decimal256")}


# A ClickHouse type as the file holds it (ClickHouse docs 'Parquet', data types matching;
# measured with chdb 4.4.0): (case, physical type, length, LogicalType member, precision).
@pytest.mark.parametrize(("case_id", "physical", "length", "logical", "precision"), [
    ("native/chdb/low-cardinality", "BYTE_ARRAY", None, "STRING", None),
    ("native/chdb/int128", "FIXED_LEN_BYTE_ARRAY", 17, "DECIMAL", 39),
    ("native/chdb/uint256", "FIXED_LEN_BYTE_ARRAY", 33, "DECIMAL", 78),
    ("native/chdb/int128-legacy", "FIXED_LEN_BYTE_ARRAY", 16, None, None),
    ("native/chdb/enum16", "BYTE_ARRAY", None, "ENUM", None),
    ("native/chdb/fixed-string", "FIXED_LEN_BYTE_ARRAY", 3, None, None),
    ("native/chdb/ipv4", "INT32", None, "INTEGER", None),
    ("native/chdb/ipv6", "FIXED_LEN_BYTE_ARRAY", 16, None, None),
    ("native/chdb/date32", "INT32", None, "DATE", None),
    ("native/chdb/datetime64-zone", "INT64", None, "TIMESTAMP", None),
])
def test_native_column_is_written_as_the_clickhouse_type(chdb, case_id, physical, length, logical,
                                                         precision, tmp_path):
    (leaf,) = written_column(chdb, case_id, tmp_path)
    assert (leaf["type"], leaf["type_length"], leaf["logical"], leaf["precision"]) == (
        physical, length, logical, precision)


def test_native_unnamed_tuple_elements_are_named_by_position(chdb, tmp_path):
    group, first, second = written_column(chdb, "native/chdb/tuple-unnamed", tmp_path)
    assert (group["type"], first["name"], second["name"]) == (None, "1", "2")


def test_native_wide_integers_read_back_exactly(chdb, reference, tmp_path):
    assert_read_back(chdb, reference, "native/chdb/int256", tmp_path)
