"""The datafusion adapter (adapters/python/datafusion): its start answer, writes and reads
against the reference, the options it writes as asked, what it declines, and the
DataFusion findings it reports.

Each `test_finding_*` pins a wrong outcome of DataFusion as measured with datafusion
55.0.0 (DataFusion 55.2.0, arrow-rs parquet 59.3.0 inside): when such a test fails,
DataFusion has changed (fixed?), and the adapter's README.md and this test should say
what it does now.
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import datafusion
import pytest

from conformance.cases import Case, WriteOptions, case_by_id
from conformance.engines import Unsupported
from conformance.engines.protocol.external import AdapterError, ExternalEngine
from conformance.engines.protocol.messages import problems
from conformance.values import Field, Schema, diff_tables
from conformance.values import types as T
from tests.adapters.both_ways import assert_read_back, case_file, native_declared, written_column
from tests.engines._parquet_probe import _Compact, chunks, raw_chunks

NAME = "datafusion"
GOLDEN = Path(__file__).resolve().parents[2] / "golden_files" / "cases"
BAD = Path(__file__).resolve().parents[2] / "golden_files" / "bad"

# Representative cases DataFusion writes as asked and reads back right (protocol-check).
ROUND_TRIPS = ("physical/boolean-optional", "logical/decimal-flba-required",
               "logical/float16-nan-payloads-optional", "encoding/delta_byte_array-string-optional-v1",
               "encoding/byte_stream_split-float-required-v2", "codec/lz4-v1", "nested/list-many-pages",
               "pages/row-groups-and-pages", "bloom_filter/string")
READS = ("logical/time-millis-utc-optional", "nested/map-string-int32", "physical/int96-required")


@pytest.fixture(scope="module")
def engine(bundled_engine) -> ExternalEngine:
    return bundled_engine(NAME)


def test_start_answer(engine):
    started = engine.adapter.start()
    assert problems("start.response", started) == []
    assert started["version"] == datafusion.__version__
    assert (started["name"], started["language"]) == (NAME, "python")
    assert set(started["formats"]) == {"parquet"}


@pytest.mark.parametrize("case_id", ROUND_TRIPS)
def test_write_read_back_by_reference(engine, reference, case_id, tmp_path):
    case = case_by_id(case_id)
    path = tmp_path / "datafusion.parquet"
    engine.write(case, path)
    assert path.is_file()  # one file, not a directory of parts
    assert diff_tables(case.expected, reference.read(path)) is None


@pytest.mark.parametrize("case_id", ROUND_TRIPS + READS)
def test_read_reference_file(engine, reference, case_id, tmp_path):
    assert_read_back(reference, engine, case_id, tmp_path)


def _own_case(options: WriteOptions) -> Case:
    schema = Schema((Field("id", T.integer(32, True), nullable=False), Field("name", T.string())))
    rows = tuple((i, None if i % 3 else f"n{i}") for i in range(7))
    return Case(id="test/datafusion-own", title="adapter test", spec=(), schema=schema, rows=rows,
                options=options)


def test_written_pages_have_what_the_options_ask(engine, tmp_path):
    path = tmp_path / "own.parquet"
    engine.write(_own_case(WriteOptions(encoding="PLAIN", codec="ZSTD", page_version=2,
                                        row_group_size=4, page_row_limit=2)), path)
    found = [(c.row_group, c.path, c.codec, c.pages) for c in chunks(path)]
    v2_plain = ("DATA_PAGE_V2", "PLAIN")
    assert found == [(0, "id", "ZSTD", [v2_plain] * 2), (0, "name", "ZSTD", [v2_plain] * 2),
                     (1, "id", "ZSTD", [v2_plain] * 2), (1, "name", "ZSTD", [v2_plain] * 2)]


def test_metadata_options_are_written(engine, tmp_path):
    path = tmp_path / "own.parquet"
    engine.write(_own_case(WriteOptions(statistics=True, page_index=True,
                                        bloom_filter_columns=("name",))), path)
    by_column = {md[3][0].decode(): (column, md) for _, column, md, _ in raw_chunks(path)}
    column, md = by_column["name"]
    assert 12 in md and 14 in md  # ColumnMetaData.statistics, bloom_filter_offset
    assert 4 in column and 6 in column  # ColumnChunk offset_index_offset, column_index_offset
    assert 14 not in by_column["id"][1]  # no bloom filter where none was asked


def test_page_row_limit_is_exact_for_lists(engine, tmp_path):
    """arrow-rs checks the limit per write batch of levels: the adapter's batches of one
    level keep every page of a list column at the limit (read from the OffsetIndex)."""
    case = case_by_id("nested/list-many-pages")
    path = tmp_path / "list.parquet"
    engine.write(case, path)
    data = path.read_bytes()
    for _, column, _, _ in raw_chunks(path):
        first_rows = [location[3] for location in _Compact(data, column[4]).struct()[1]]
        assert max(b - a for a, b in pairwise(first_rows)) == case.options.page_row_limit


@pytest.mark.parametrize(("case_id", "reason"), [
    ("encoding/rle_dictionary-boolean-required-v1", "does not encode BOOLEAN with RLE_DICTIONARY"),
    ("logical/decimal-flba-short-required", "stores this type on INT32, not FIXED_LEN_BYTE_ARRAY"),
    ("codec/snappy-v2-is-compressed-false", "no is_compressed option"),
])
def test_what_arrow_rs_cannot_be_told_is_unsupported(engine, case_id, reason, tmp_path):
    path = tmp_path / "datafusion.parquet"
    with pytest.raises(Unsupported, match=reason):
        engine.write(case_by_id(case_id), path)
    assert not path.exists()


def test_declared_gaps(engine):
    for tag in ("type:INT96", "type:UUID", "type:TIME(ms,utc)", "encoding:PLAIN_DICTIONARY",
                "codec:LZO", "crc", "levels:BIT_PACKED", "encryption:AES_GCM_V1"):
        assert engine.capabilities.write_gap([tag]).startswith(f"cannot write {tag}:")
    assert engine.capabilities.read_gap(["encryption:AES_GCM_V1"]) is not None
    assert engine.capabilities.read_gap(["type:UUID", "levels:BIT_PACKED"]) is None


def test_bad_file_is_rejected(engine, reference, tmp_path):
    _, path = case_file(reference, "physical/int32-required", tmp_path)
    path.write_bytes(path.read_bytes()[:40])
    with pytest.raises(AdapterError, match="Corrupt footer") as raised:
        engine.read(path)
    assert type(raised.value).__name__ == "Exception"  # datafusion-python's own error class


# ---- findings (datafusion 55.0.0) -------------------------------------------------------

def _read_diff(engine, path: Path, case_id: str) -> str:
    diff = diff_tables(case_by_id(case_id).expected, engine.read(path))
    assert diff is not None, f"DataFusion now reads {case_id} right: update README.md's findings"
    return diff


def test_finding_values_taken_from_statistics(engine):
    """min == max == +0.0 in the footer (DuckDB's statistics): DataFusion returns +0.0 for
    the -0.0 row, although parquet.thrift says 'If the min is +0, the row group may
    contain -0 values as well'."""
    path = next((GOLDEN / "statistics/float-zeros-only/duckdb").glob("*.parquet"))
    diff = _read_diff(engine, path, "statistics/float-zeros-only")
    assert diff == "row 1, column 'x': expected \"-0.0\", got \"0.0\""


def test_finding_bit_packed_levels_misread(engine, reference, tmp_path):
    _, path = case_file(reference, "encoding/bit-packed-levels", tmp_path)
    diff = _read_diff(engine, path, "encoding/bit-packed-levels")
    assert diff.startswith("row 0, column 'value': expected null, got 1\n"
                           "row 1, column 'value': expected 1, got 2")


def test_finding_bit_packed_repetition_levels_rejected(engine, reference, tmp_path):
    _, path = case_file(reference, "regression/93faa26e862f7359", tmp_path)
    with pytest.raises(AdapterError, match="first repetition level of batch must be 0"):
        engine.read(path)


def test_finding_interval_read_as_day_time(engine, reference, tmp_path):
    _, path = case_file(reference, "logical/interval-required", tmp_path)
    with pytest.raises(Exception, match="Arrow type day_time_interval has no canonical form") as raised:
        engine.read(path)
    assert type(raised.value).__name__ == "LossyConversion"


def test_finding_empty_row_group_list_rejected(engine):
    path = next((GOLDEN / "shape/zero-rows/fastparquet").glob("*.parquet"))
    with pytest.raises(AdapterError, match="Expected list element type of Struct but got Byte"):
        engine.read(path)


@pytest.mark.parametrize(("case_id", "wrong"), [
    ("logical/uuid-required", "expected UUID, got FIXED_LEN_BYTE_ARRAY(16)"),
    ("logical/enum-required", "expected ENUM, got BINARY"),
    ("logical/geometry-required", "expected GEOMETRY, got BINARY"),
    ("logical/variant-required", "expected VARIANT, got STRUCT<metadata: BINARY, value: BINARY>"),
])
def test_finding_annotation_dropped_on_read(engine, reference, case_id, wrong, tmp_path):
    _, path = case_file(reference, case_id, tmp_path)
    assert _read_diff(engine, path, case_id) == f"column 'value' type: {wrong}"


def test_finding_bad_footer_length_panics(engine):
    with pytest.raises(AdapterError, match="range start must not be greater than end") as raised:
        engine.read(BAD / "footer/length-larger-than-file.parquet")
    assert type(raised.value).__name__ == "PanicException"


def test_finding_bad_leading_magic_accepted(engine):
    table = engine.read(BAD / "framing/bad-leading-magic.parquet")
    assert len(table.rows) == 10, "DataFusion now rejects a bad leading magic: update README.md"


def test_start_answer_declares_the_native_types(engine):
    assert native_declared(engine.adapter.start()) == {f"native:datafusion:{n}" for n in (
        "Dictionary", "Utf8View", "BinaryView", "LargeUtf8", "LargeBinary", "Date64",
        "Duration", "Decimal256", "FixedSizeList")}


# An Arrow type as arrow-rs writes it (measured, DataFusion 55.0.0): (case, physical type,
# LogicalType member). date64 loses its meaning: unannotated INT64 (the case's finding,
# conformance/cases/parquet/native/datafusion_types.py).
@pytest.mark.parametrize(("case_id", "physical", "logical"), [
    ("native/datafusion/dictionary-string", "BYTE_ARRAY", "STRING"),
    ("native/datafusion/utf8-view", "BYTE_ARRAY", "STRING"),
    ("native/datafusion/binary-view", "BYTE_ARRAY", None),
    ("native/datafusion/decimal256", "FIXED_LEN_BYTE_ARRAY", "DECIMAL"),
    ("native/datafusion/duration", "INT64", None),
    ("native/datafusion/date64", "INT64", None),
])
def test_native_column_is_written_as_the_arrow_type(engine, case_id, physical, logical, tmp_path):
    (leaf,) = written_column(engine, case_id, tmp_path)
    assert (leaf["type"], leaf["logical"]) == (physical, logical)


def test_native_view_types_read_back_exactly(engine, reference, tmp_path):
    assert_read_back(engine, reference, "native/datafusion/binary-view", tmp_path)
