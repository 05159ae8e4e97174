"""The parquet-wasm adapter (adapters/js/parquet-wasm): its start answer, writes and reads
against the reference, what it declines, and the findings it reports.

Each `test_finding_*` pins a wrong outcome as measured with parquet-wasm 0.8.0 (parquet-rs
59.3.0 compiled to WebAssembly): when such a test fails, the library has changed (fixed?),
and the adapter's README.md and this test should say what it does now.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from conformance.cases import Case, case_by_id
from conformance.engines import Unsupported
from conformance.engines.protocol.external import AdapterError, ExternalEngine
from conformance.engines.protocol.messages import problems
from conformance.matrix.failures import failure_outcome
from conformance.values import diff_tables
from tests.adapters.both_ways import case_file
from tests.engines._parquet_probe import chunks, raw_chunks

NAME = "parquet-wasm"
JS_PACKAGES = Path(__file__).resolve().parents[2] / "adapters" / "js" / "package.json"
STATISTICS_FIELD = 12  # ColumnMetaData.statistics
COLUMN_INDEX_OFFSET_FIELD = 6  # ColumnChunk.column_index_offset
HADOOP_LZ4 = "LZ4"  # codec 5, the Hadoop-framed one

# Cases parquet-wasm writes as asked and the reference reads back right (protocol-check).
ROUND_TRIPS = ("encoding/delta_binary_packed-int64-optional-v2",
               "encoding/byte_stream_split-fixed5-optional-v2",
               "encoding/rle_dictionary-string-optional-v2", "codec/lz4-v1",
               "logical/float16-nan-payloads-optional", "logical/decimal-flba-optional",
               "logical/timestamp-nanos-utc-optional", "nested/map-string-int32")
READS = ("physical/int96-optional", "logical/float16-nan-payloads-optional",
         "logical/decimal-flba-optional", "logical/time-millis-utc-optional",
         "nested/list-of-structs", "nested/map-string-int32", "codec/zstd-v1")


@pytest.fixture(scope="module")
def wasm(bundled_engine) -> ExternalEngine:
    return bundled_engine(NAME)


def _with_options(case_id: str, **options) -> Case:
    case = case_by_id(case_id)
    return dataclasses.replace(case, options=dataclasses.replace(case.parquet_options, **options))


def test_start_answer(wasm):
    started = wasm.adapter.start()
    assert problems("start.response", started) == []
    assert started["version"] == json.loads(JS_PACKAGES.read_text())["dependencies"]["parquet-wasm"]
    assert started["name"] == NAME and started["language"] == "javascript"
    assert set(started["formats"]) == {"parquet"}
    declared = started["formats"]["parquet"]
    assert declared["reads"] == ["*"]
    assert set(declared["cannot_read"]) == {"encryption:*"}


@pytest.mark.parametrize("case_id", ROUND_TRIPS)
def test_write_read_back_by_reference(wasm, reference, case_id, tmp_path):
    case, path = case_file(wasm, case_id, tmp_path)
    assert diff_tables(case.expected, reference.read(path)) is None
    options = case.parquet_options
    for chunk in chunks(path):
        assert chunk.codec == (HADOOP_LZ4 if options.codec == "LZ4" else options.codec)
        assert chunk.page_types - {"DICTIONARY_PAGE"} == {
            "DATA_PAGE_V2" if options.page_version == 2 else "DATA_PAGE"}
        if options.encoding == "RLE_DICTIONARY":
            assert chunk.pages[0] == ("DICTIONARY_PAGE", "PLAIN")
            assert chunk.data_encodings == {"RLE_DICTIONARY"}
        elif options.encoding is not None:
            assert chunk.data_encodings == {options.encoding}


@pytest.mark.parametrize("case_id", READS)
def test_reads_reference_file(wasm, reference, case_id, tmp_path):
    case, path = case_file(reference, case_id, tmp_path)
    assert diff_tables(case.expected, wasm.read(path)) is None


def test_statistics_and_page_index_options(wasm, tmp_path):
    without = tmp_path / "no-statistics.parquet"
    wasm.write(_with_options("physical/int32-optional", statistics=False), without)
    with_index = tmp_path / "page-index.parquet"
    wasm.write(_with_options("physical/int32-optional", statistics=True, page_index=True), with_index)
    assert [STATISTICS_FIELD in md for _, _, md, _ in raw_chunks(without)] == [False]
    assert [(STATISTICS_FIELD in md, COLUMN_INDEX_OFFSET_FIELD in column)
            for _, column, md, _ in raw_chunks(with_index)] == [(True, True)]


def test_declines_what_arrow_rs_writes_otherwise(wasm, tmp_path):
    # Measured: arrow-rs picks a decimal's physical type by precision (DECIMAL(4) -> INT32).
    with pytest.raises(Unsupported, match="DECIMAL\\(4,4\\) as INT32"):
        wasm.write(case_by_id("logical/decimal-flba-short-required"), tmp_path / "d.parquet")
    # Measured: BOOLEAN columns are never dictionary-encoded.
    with pytest.raises(Unsupported, match="BOOLEAN with RLE_DICTIONARY"):
        wasm.write(case_by_id("encoding/rle_dictionary-boolean-required-v1"), tmp_path / "b.parquet")


def test_rejects_a_truncated_file(wasm, reference, tmp_path):
    _, path = case_file(reference, "physical/int32-required", tmp_path)
    data = path.read_bytes()
    path.write_bytes(data[:len(data) // 2])
    with pytest.raises(AdapterError, match="Corrupt footer"):
        wasm.read(path)


def test_finding_lzo_write_panics_and_the_adapter_recovers(wasm, tmp_path):
    """Declared cannot_write; asked anyway, the Rust panic traps the wasm (RuntimeError:
    unreachable), which the adapter answers as a Panic (a crash cell) and reloads the wasm
    instance, so the next request still works."""
    with pytest.raises(AdapterError, match="RuntimeError: unreachable") as error:
        wasm.write(case_by_id("codec/lzo-v1"), tmp_path / "lzo.parquet")
    assert type(error.value).__name__ == "Panic"
    assert failure_outcome(error.value)[0] == "crash"
    case = case_by_id("physical/int64-optional")
    wasm.write(case, tmp_path / "after.parquet")
    assert diff_tables(case.expected, wasm.read(tmp_path / "after.parquet")) is None


def test_finding_interval_months_dropped(wasm, reference, tmp_path):
    """arrow-rs reads INTERVAL as Arrow Interval(DayTime): the months field is lost."""
    case, path = case_file(reference, "logical/interval-required", tmp_path)
    assert case.expected.rows[1] == ((1, 2, 3),)
    assert wasm.read(path).rows[1] == ((0, 2, 3),)


@pytest.mark.parametrize(("case_id", "read_as"), [
    ("logical/enum-required", "BINARY"),
    ("logical/uuid-required", "FIXED_LEN_BYTE_ARRAY(16)"),
    ("logical/geometry-required", "BINARY"),
    ("logical/variant-required", "STRUCT<metadata: BINARY, value: BINARY>"),
])
def test_finding_annotation_dropped_on_read(wasm, reference, case_id, read_as, tmp_path):
    """This parquet-rs build reads these annotations as their storage type."""
    case, path = case_file(reference, case_id, tmp_path)
    diff = diff_tables(case.expected, wasm.read(path))
    assert diff is not None and f"got {read_as}" in diff


def test_finding_bit_packed_levels_misread(wasm, reference, tmp_path):
    """Data page v1 BIT_PACKED definition levels: values land on the wrong rows."""
    case, path = case_file(reference, "encoding/bit-packed-levels", tmp_path)
    assert case.expected.rows[:4] == ((None,), (1,), (2,), (3,))
    assert wasm.read(path).rows[:4] == ((1,), (2,), (3,), (None,))


def test_finding_lzo_not_read(wasm, reference, tmp_path):
    _, path = case_file(reference, "codec/lzo-v1", tmp_path)
    with pytest.raises(AdapterError, match="NYI: The codec type LZO is not supported yet"):
        wasm.read(path)


BAD = Path(__file__).resolve().parents[2] / "golden_files" / "bad"


@pytest.mark.parametrize("bad_file", ["framing/bad-leading-magic", "metadata/num-rows-mismatch",
                                      "schema/duplicate-sibling-names",
                                      "schema/group-without-children"])
def test_finding_accepts_bad_file(wasm, bad_file):
    """Files every reader must reject (golden_files/bad/index.json) are read as 10 rows."""
    assert len(wasm.read(BAD / f"{bad_file}.parquet").rows) == 10


def test_finding_trusts_file_num_rows_zero(wasm):
    """FileMetaData.num_rows is 0 while the row group holds 10 rows: nothing is read."""
    assert wasm.read(BAD / "lenient" / "file-num-rows-zero.parquet").rows == ()
