"""The hyparquet adapter (adapters/js/hyparquet): its start answer, writes (hyparquet-writer)
and reads (hyparquet) against the reference, what it declines, and the findings it reports.

Each `test_finding_*` pins a wrong outcome as measured with hyparquet 1.31.5 and
hyparquet-writer 0.17.0: when such a test fails, the library has changed (fixed?), and the
adapter's README.md and this test should say what it does now.
"""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from conformance.cases import Case, WriteOptions, case_by_id
from conformance.engines import Unsupported, get_engine
from conformance.engines.base import LossyConversion
from conformance.engines.protocol.external import AdapterError, ExternalEngine
from conformance.engines.protocol.messages import problems
from conformance.values import DataType, Field, Schema, diff_tables
from conformance.values import types as T
from tests.adapters.both_ways import assert_read_back, case_file
from tests.engines._parquet_probe import chunks, raw_chunks

NAME = "hyparquet"
JS_PACKAGES = Path(__file__).resolve().parents[2] / "adapters" / "js" / "package.json"
STATISTICS_FIELD = 12  # ColumnMetaData.statistics
BLOOM_FILTER_OFFSET_FIELD = 14  # ColumnMetaData.bloom_filter_offset
CRC_FIELD = 4  # PageHeader.crc

# Cases hyparquet-writer writes as asked and hyparquet reads back right (protocol-check).
ROUND_TRIPS = ("encoding/rle-boolean-optional-v2", "encoding/delta_binary_packed-int64-optional-v2",
               "encoding/delta_byte_array-string-optional-v2",
               "encoding/byte_stream_split-fixed5-optional-v2",
               "encoding/rle_dictionary-string-optional-v2", "codec/gzip-v2", "codec/brotli-v2")
READS = ("physical/int96-optional", "logical/decimal-flba-optional",
         "logical/float16-nan-payloads-optional",
         "logical/timestamp-nanos-utc-optional", "logical/json-optional", "logical/variant-optional",
         "logical/uuid-optional",
         "nested/map-string-int32", "nested/list-of-structs", "codec/zstd-v1")


@pytest.fixture(scope="module")
def hyparquet(bundled_engine) -> ExternalEngine:
    return bundled_engine(NAME)


def test_start_answer(hyparquet):
    started = hyparquet.adapter.start()
    assert problems("start.response", started) == []
    pinned = json.loads(JS_PACKAGES.read_text())["dependencies"]
    assert started["version"] == f"{pinned['hyparquet']} (hyparquet-writer {pinned['hyparquet-writer']})"
    assert started["language"] == "javascript"
    assert set(started["formats"]) == {"parquet"}
    assert started["formats"]["parquet"]["reads"] == ["*"]


@pytest.mark.parametrize("case_id", ROUND_TRIPS)
def test_write_read_back_by_reference(hyparquet, reference, case_id, tmp_path):
    case, path = case_file(hyparquet, case_id, tmp_path)
    assert diff_tables(case.expected, reference.read(path)) is None
    options = case.parquet_options
    for chunk in chunks(path):  # what the options ask, in the page headers
        assert chunk.page_types <= {"DATA_PAGE_V2", "DICTIONARY_PAGE"}
        assert chunk.codec == options.codec
        assert options.encoding is None or chunk.data_encodings == {options.encoding}


@pytest.mark.parametrize("case_id", ROUND_TRIPS + READS)
def test_read_reference_file(hyparquet, reference, case_id, tmp_path):
    assert_read_back(reference, hyparquet, case_id, tmp_path)


INT32 = T.integer(32, True)  # needs no annotation


def _own_case(options: WriteOptions, small: DataType = INT32) -> Case:
    schema = Schema((Field("id", T.integer(32, True), nullable=False), Field("name", T.string()),
                     Field("small", small)))
    rows = tuple((i, None if i % 3 else f"n{i}", i * 50) for i in range(5))
    return Case(id="test/hyparquet-own", title="adapter test", spec=(), schema=schema, rows=rows,
                options=options)


def test_written_file_has_what_the_options_ask(hyparquet, tmp_path):
    path = tmp_path / "own.parquet"
    case = _own_case(WriteOptions(encoding="PLAIN", codec="SNAPPY", page_version=2, row_group_size=2,
                                  statistics=False, bloom_filter_columns=("name",)))
    hyparquet.write(case, path)
    metadata = pq.ParquetFile(path).metadata
    assert [metadata.row_group(i).num_rows for i in range(metadata.num_row_groups)] == [2, 2, 1]
    assert all(chunk.pages == [("DATA_PAGE_V2", "PLAIN")] and chunk.codec == "SNAPPY"
               for chunk in chunks(path))
    raw = list(raw_chunks(path))
    assert not any(STATISTICS_FIELD in meta for _, _, meta, _ in raw)
    assert [BLOOM_FILTER_OFFSET_FIELD in meta for _, _, meta, _ in raw[:3]] == [False, True, False]
    assert not any(CRC_FIELD in header for _, _, _, headers in raw for header in headers)
    assert diff_tables(case.expected, get_engine("reference", "parquet").read(path)) is None


def test_statistics_are_truncated(hyparquet, tmp_path):
    path = tmp_path / "own.parquet"
    options = WriteOptions(page_version=2, statistics=True, statistics_truncate_length=1)
    hyparquet.write(_own_case(options), path)
    statistics = pq.ParquetFile(path).metadata.row_group(0).column(1).statistics
    assert (statistics.min, statistics.max) == ("n", "o")


def test_encodings_it_cannot_write_are_unsupported(hyparquet, tmp_path):
    with pytest.raises(Unsupported, match="DELTA_BYTE_ARRAY for BYTE_ARRAY only"):
        hyparquet.write(case_by_id("encoding/delta_byte_array-fixed5-required-v2"), tmp_path / "a.parquet")
    with pytest.raises(Unsupported, match="no dictionary for BOOLEAN"):
        hyparquet.write(case_by_id("encoding/rle_dictionary-boolean-required-v2"), tmp_path / "b.parquet")


def test_undeclared_features_are_cannot_write(hyparquet):
    gaps = {tag: hyparquet.capabilities.write_gap([tag]) for tag in
            ("page:v1", "pages:multiple", "page_index", "crc", "codec:ZSTD", "type:INT96",
             "type:VARIANT", "legacy:two_level", "encryption:AES_GCM_V1")}
    assert all(gap and gap.startswith(f"cannot write {tag}:") for tag, gap in gaps.items())
    assert hyparquet.capabilities.read_gap(["codec:LZO"]).startswith("cannot read codec:LZO:")


def test_bad_file_is_rejected(hyparquet, reference, tmp_path):
    _, path = case_file(reference, "physical/int32-required", tmp_path)
    path.write_bytes(path.read_bytes()[:40])
    with pytest.raises(AdapterError, match=r"parquet file invalid \(footer != PAR1\)"):
        hyparquet.read(path)


def test_shredded_variant_is_a_lossy_conversion(hyparquet, reference, tmp_path):
    _, path = case_file(reference, "logical/variant-shredded-int64", tmp_path)
    with pytest.raises(LossyConversion, match="is shredded"):
        hyparquet.read(path)


# ---- findings (hyparquet 1.31.5, hyparquet-writer 0.17.0) -----------------------------

def _read_diff(hyparquet, reference, case_id: str, tmp_path: Path) -> str:
    case, path = case_file(reference, case_id, tmp_path)
    diff = diff_tables(case.expected, hyparquet.read(path))
    assert diff is not None, f"hyparquet now reads {case_id} right: update README.md's findings"
    return diff


def _read_error(hyparquet, reference, case_id: str, tmp_path: Path, message: str) -> str:
    _, path = case_file(reference, case_id, tmp_path)
    with pytest.raises(AdapterError, match=message) as raised:
        hyparquet.read(path)
    return type(raised.value).__name__


@pytest.mark.parametrize(("case_id", "error", "message"), [
    ("encoding/rle_dictionary-boolean-required-v1", "RangeError",
     "Offset is outside the bounds of the DataView"),
    ("encoding/bit-packed-levels", "RangeError", "Invalid typed array length: 188"),
    ("logical/interval-required", "Error", "parquet interval not supported"),
    ("logical/bson-required", "Error", "parquet bson not supported"),
    ("nested/legacy-misnamed-map", "Error", "parquet map column missing keys"),
    ("encryption/explicit-aes-gcm-v1-encrypted-footer-uniform", "Error", r"footer != PAR1"),
    ("encryption/explicit-aes-gcm-v1-plaintext-footer-uniform", "Error",
     "parquet unsupported page type: undefined"),
])
def test_finding_read_fails(hyparquet, reference, case_id, error, message, tmp_path):
    assert _read_error(hyparquet, reference, case_id, tmp_path, message) == error


@pytest.mark.parametrize(("case_id", "wrong"), [
    ("encoding/rle_dictionary-boolean-optional-v1", "row 0, column 'value': expected true, got null"),
    ("nested/legacy-two-level-list", "row 1, column 'l': expected [], got null"),
    ("physical/float-nan-payloads-required",
     'row 0, column \'value\': expected "nan:0x7ff0000020000000", got "nan:0x7ff8000020000000"'),
    ("regression/3aadbffeb3fd73a9",
     "expected [[-2147483648, null], [2147483647, null]], got [[2147483647, null], [-2147483648, null]]"),
])
def test_finding_read_wrong_values(hyparquet, reference, case_id, wrong, tmp_path):
    assert wrong in _read_diff(hyparquet, reference, case_id, tmp_path)


@pytest.mark.parametrize(("case_id", "message"), [
    ("nested/legacy-unannotated-repeated", "hyparquet returned null for REQUIRED field l"),
    ("nested/legacy-map-key-value",  # a MAP_KEY_VALUE map comes back as the struct {map: [...]}
     r'hyparquet returned object \[\{"key":"a","value":1\}\] for int field value'),
])
def test_finding_read_values_without_canonical_form(hyparquet, reference, case_id, message, tmp_path):
    _, path = case_file(reference, case_id, tmp_path)
    with pytest.raises(LossyConversion, match=message):
        hyparquet.read(path)


BAD_FILES = Path(__file__).resolve().parents[2] / "golden_files" / "bad"


def test_finding_annotation_invalid_for_its_physical_type_accepted(hyparquet):
    table = hyparquet.read(BAD_FILES / "type-rule" / "date-on-int64.parquet")
    assert table.schema.fields[0].type.kind == "date", "hyparquet now rejects DATE on INT64: update README.md"
    with pytest.raises(LossyConversion, match="hyparquet returned boolean true for date field c"):
        hyparquet.read(BAD_FILES / "type-rule" / "date-on-boolean.parquet")


def test_finding_dictionary_merges_negative_zero(hyparquet, reference, tmp_path):
    case = case_by_id("encoding/rle_dictionary-double-required-v2")
    path = tmp_path / "hyparquet.parquet"
    hyparquet.write(case, path)
    diff = diff_tables(case.expected, reference.read(path))
    assert diff is not None and 'row 1, column \'value\': expected "-0.0", got "0.0"' in diff


def test_finding_integer_logical_type_bit_width_written_as_i32(hyparquet, reference, tmp_path):
    """parquet.thrift IntType: `1: required i8 bitWidth`; thrift.js writes every integer as i32."""
    path = tmp_path / "uint8.parquet"
    hyparquet.write(_own_case(WriteOptions(page_version=2), small=T.integer(8, False)), path)
    with pytest.raises(Exception, match=r"IntType.bitWidth \(field 1\): expected wire type I8 \(i8\), "
                                        r"found I32") as raised:
        reference.read(path)
    assert type(raised.value).__name__ == "CorruptThrift"
