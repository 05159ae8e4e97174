"""The polars adapter (adapters/python/polars): its start answer, writes and reads
against the reference, what it declines, and the polars findings it reports.

Each `test_finding_*` pins a wrong outcome of polars as measured with polars 2.1.0:
when such a test fails, polars has changed (fixed?), and the adapter's README.md and
this test should say what it does now.
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

NAME = "polars"

# Representative cases polars writes as asked and reads back right (protocol-check).
ROUND_TRIPS = ("physical/boolean-required", "physical/fixed4-optional",
               "logical/decimal-flba-required", "logical/float16-nan-payloads-optional",
               "encoding/rle_dictionary-string-required-v1", "codec/lz4_raw-v1",
               "statistics/uint64-extremes", "statistics/timestamp-micros")
READS = ("physical/int32-required", "logical/time-millis-utc-optional", "nested/map-string-int32",
         "nested/list-of-structs", "encoding/delta_byte_array-string-optional-v1")


@pytest.fixture(scope="module")
def polars(bundled_engine) -> ExternalEngine:
    return bundled_engine(NAME)


def test_start_answer(polars):
    started = polars.adapter.start()
    assert problems("start.response", started) == []
    assert started["version"] == importlib.metadata.version("polars")
    assert started["language"] == "python"
    assert set(started["formats"]) == {"parquet"}


@pytest.mark.parametrize("case_id", ROUND_TRIPS)
def test_write_read_back_by_reference(polars, reference, case_id, tmp_path):
    assert_read_back(polars, reference, case_id, tmp_path)


@pytest.mark.parametrize("case_id", ROUND_TRIPS + READS)
def test_read_reference_file(polars, reference, case_id, tmp_path):
    assert_read_back(reference, polars, case_id, tmp_path)


def _own_case(options: WriteOptions) -> Case:
    schema = Schema((Field("id", T.integer(32, True), nullable=False), Field("name", T.string())))
    rows = tuple((i, None if i % 3 else f"n{i}") for i in range(5))
    return Case(id="test/polars-own", title="adapter test", spec=(), schema=schema, rows=rows,
                options=options)


def test_written_file_has_what_the_options_ask(polars, tmp_path):
    path = tmp_path / "own.parquet"
    case = _own_case(WriteOptions(encoding=None, codec="LZ4_RAW", row_group_size=2,
                                  statistics=False))
    polars.write(case, path)
    metadata = pq.ParquetFile(path).metadata
    assert [metadata.row_group(i).num_rows for i in range(metadata.num_row_groups)] == [2, 2, 1]
    column = metadata.row_group(0).column(0)
    assert (column.compression, column.is_stats_set) == ("LZ4", False)  # pyarrow's name for LZ4_RAW
    assert pq.ParquetFile(path).schema.column(0).max_definition_level == 0  # REQUIRED


def test_statistics_and_page_index_are_written(polars, tmp_path):
    path = tmp_path / "own.parquet"
    polars.write(_own_case(WriteOptions(encoding=None, statistics=True, page_index=True)), path)
    column = pq.ParquetFile(path).metadata.row_group(0).column(0)
    assert (column.statistics.min, column.statistics.max) == (0, 4)
    assert column.has_column_index and column.has_offset_index


def test_an_encoding_polars_did_not_choose_is_unsupported(polars, tmp_path):
    path = tmp_path / "polars.parquet"
    with pytest.raises(Unsupported, match="wrote RLE_DICTIONARY data pages in column 'value'"):
        polars.write(case_by_id("physical/int32-required"), path)  # asks for PLAIN
    assert not path.exists()


def test_undeclared_features_are_cannot_write(polars):
    gaps = {tag: polars.capabilities.write_gap([tag]) for tag in
            ("page:v2", "encoding:DELTA_BINARY_PACKED", "type:INT96", "bloom", "encryption:AES_GCM_V1")}
    assert all(gap and gap.startswith(f"cannot write {tag}:") for tag, gap in gaps.items())


def test_bad_file_is_rejected(polars, reference, tmp_path):
    _, path = case_file(reference, "physical/int32-required", tmp_path)
    path.write_bytes(path.read_bytes()[:40])
    with pytest.raises(AdapterError, match="must end with PAR1"):
        polars.read(path)


# ---- findings (polars 2.1.0) ------------------------------------------------------------

def _read_diff(polars, reference, case_id: str, tmp_path: Path) -> str:
    case, path = case_file(reference, case_id, tmp_path)
    diff = diff_tables(case.expected, polars.read(path))
    assert diff is not None, f"polars now reads {case_id} right: update README.md's findings"
    return diff


def test_finding_boolean_dictionary_pages_not_supported(polars, reference, tmp_path):
    _, path = case_file(reference, "encoding/rle_dictionary-boolean-required-v1", tmp_path)
    with pytest.raises(AdapterError, match='Decoding Boolean "RleDictionary"-encoded required '
                                           'parquet pages not yet supported') as raised:
        polars.read(path)
    assert type(raised.value).__name__ == "ComputeError"


def test_finding_interval_read_panics(polars, reference, tmp_path):
    _, path = case_file(reference, "logical/interval-required", tmp_path)
    with pytest.raises(AdapterError, match="could not import from `month_day_millisecond_interval`") \
            as raised:
        polars.read(path)
    assert type(raised.value).__name__ == "PanicException"


def test_finding_an_alp_page_panics(polars, reference, tmp_path):
    """ALP (encoding 10, in Preview) is unknown to polars: the footer's Thrift enum panics
    (a crash cell) instead of a clean error (docs/engine-notes.md, 'ALP (encoding 10, in
    Preview): who writes it, what readers do with it')."""
    _, path = case_file(reference, "encoding/alp-double-required-v1", tmp_path)
    with pytest.raises(AdapterError, match="Thrift out of range") as raised:
        polars.read(path)
    assert type(raised.value).__name__ == "PanicException"


@pytest.mark.parametrize(("case_id", "wrong"), [
    ("logical/unknown", "expected UNKNOWN, got INT(32, signed)"),
    ("logical/uuid-required", "expected UUID, got BINARY"),
    ("logical/json-required", "expected JSON, got BINARY"),
])
def test_finding_annotated_columns_read_as_another_type(polars, reference, case_id, wrong, tmp_path):
    assert wrong in _read_diff(polars, reference, case_id, tmp_path)


def test_finding_int96_below_int64_nanoseconds_read_as_max(polars, reference, tmp_path):
    diff = _read_diff(polars, reference, "regression/5ab3233cc1422c6b", tmp_path)
    assert 'expected {"a": "-9223372036854775808"}' in diff
    assert 'got {"a": "9223372036854775807"}' in diff


def test_finding_map_key_negative_zero_entry_dropped(polars, reference, tmp_path):
    diff = _read_diff(polars, reference, "regression/8a101a491dcf866c", tmp_path)
    assert 'expected [["0.0", null], ["-0.0", null]], got [["0.0", null]]' in diff


def test_finding_geometry_logical_type_rejected(polars, reference, tmp_path):
    _, path = case_file(reference, "logical/geometry-required", tmp_path)
    with pytest.raises(AdapterError, match="LogicalType union has no variant set"):
        polars.read(path)


BAD_FILES = Path(__file__).resolve().parents[2] / "golden_files" / "bad"


def test_finding_bad_leading_magic_accepted(polars):
    table = polars.read(BAD_FILES / "framing" / "bad-leading-magic.parquet")
    assert len(table.rows) == 10, "polars now rejects a file starting 'PAR0': update README.md"


NATIVE = {"Categorical", "Enum", "Int128", "UInt128", "Array", "Decimal", "Duration"}


def test_start_answer_declares_the_native_types(polars):
    assert native_declared(polars.adapter.start()) == {f"native:polars:{n}" for n in NATIVE}


# A polars dtype as the file holds it (measured, polars 2.1.0): (case, leaf physical type,
# FIXED_LEN_BYTE_ARRAY length, LogicalType member). Int128 and UInt128 lose their meaning:
# unannotated bytes (the cases' finding, conformance/cases/parquet/native/polars_types.py).
@pytest.mark.parametrize(("case_id", "physical", "length", "logical"), [
    ("native/polars/categorical", "BYTE_ARRAY", None, "STRING"),
    ("native/polars/enum", "BYTE_ARRAY", None, "STRING"),
    ("native/polars/int128", "FIXED_LEN_BYTE_ARRAY", 16, None),
    ("native/polars/uint128", "FIXED_LEN_BYTE_ARRAY", 16, None),
    ("native/polars/decimal-38", "FIXED_LEN_BYTE_ARRAY", 16, "DECIMAL"),
    ("native/polars/duration", "INT64", None, None),
])
def test_native_column_is_written_as_the_polars_dtype(polars, case_id, physical, length, logical,
                                                      tmp_path):
    (leaf,) = written_column(polars, case_id, tmp_path)
    assert (leaf["type"], leaf["type_length"], leaf["logical"]) == (physical, length, logical)


def test_native_array_is_written_as_a_list(polars, tmp_path):
    group, repeated, element = written_column(polars, "native/polars/array", tmp_path)
    assert (group["logical"], repeated["name"], element["type"]) == ("LIST", "list", "INT32")
