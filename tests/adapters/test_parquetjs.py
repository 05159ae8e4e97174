"""The @dsnp/parquetjs adapter (adapters/js/parquetjs): its start answer, cases both ways
against the reference, a bad file, and the findings (adapters/js/parquetjs/README.md).

Each finding test asserts the library's exact wrong outcome today: when parquetjs is
fixed the test fails, and says so; then move the case out of the findings.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest

from conformance.cases import Case, case_by_id
from conformance.cases.model import WriteOptions
from conformance.engines.base import LossyConversion, Unsupported
from conformance.engines.protocol.external import AdapterError, ExternalEngine
from conformance.values import Field, Schema
from conformance.values import types as T
from tests.adapters.both_ways import assert_read_back, written
from tests.engines._parquet_probe import chunks

PACKAGE_JSON = Path(__file__).resolve().parents[2] / "adapters" / "js" / "package.json"
FIXED = "parquetjs is fixed: move this case out of the README's findings"


@pytest.fixture(scope="module")
def engine(bundled_engine) -> ExternalEngine:
    return bundled_engine("parquetjs")


def test_start_names_the_library_and_its_installed_version(engine):
    started = engine.adapter.start()
    assert started["name"] == "@dsnp/parquetjs"
    # the version installed from the lockfile, as pinned (1.9.x needs node >= 24.18)
    assert started["version"] == json.loads(PACKAGE_JSON.read_text())["dependencies"]["@dsnp/parquetjs"]
    assert started["version"] == "1.8.7"
    assert started["language"] == "javascript"
    assert list(started["formats"]) == ["parquet"]
    assert engine.capabilities.reads == ("*",)
    assert engine.capabilities.cannot_read == {}
    assert "codec:ZSTD" in engine.capabilities.cannot_write


ROUND_TRIPS = ["physical/int64-optional", "physical/string-required", "logical/decimal-flba-required",
               "logical/time-micros-utc-optional", "nested/map-string-int32", "nested/list-of-structs",
               "nested/legacy-unannotated-repeated", "codec/gzip-v2", "pages/row-groups-and-pages"]


@pytest.mark.parametrize("case_id", ROUND_TRIPS)
def test_written_by_parquetjs_reads_back_in_the_reference(engine, reference, case_id, tmp_path):
    assert_read_back(engine, reference, case_id, tmp_path)


@pytest.mark.parametrize("case_id", ROUND_TRIPS)
def test_parquetjs_reads_the_references_file(engine, reference, case_id, tmp_path):
    assert_read_back(reference, engine, case_id, tmp_path)


def test_write_options_reach_the_file(engine, tmp_path):
    """Row group size and page row limit are rows; data page v2 and the codec per column."""
    layout = written(engine, case_by_id("pages/row-groups-and-pages"), tmp_path)
    first = [c for c in chunks(layout) if c.path == "n"]
    assert [len(c.pages) for c in first] == [4, 4, 4, 2]  # 30-row groups of 8-row pages; 10 rows left
    codec = written(engine, case_by_id("codec/gzip-v2"), tmp_path)
    assert {(c.codec, kind) for c in chunks(codec) for kind in c.page_types} == {("GZIP", "DATA_PAGE_V2")}


def test_a_logical_type_parquetjs_cannot_annotate_is_unsupported(engine, tmp_path):
    case = case_by_id("logical/timestamp-millis-local-required")
    gap = engine.capabilities.write_gap(case.write_features)
    assert gap is not None and "isAdjustedToUTC=true" in gap


def test_a_truncated_file_is_rejected(engine, reference, tmp_path):
    good = written(reference, case_by_id("physical/int32-required"), tmp_path)
    bad = tmp_path / "truncated.parquet"
    bad.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    with pytest.raises(AdapterError, match="not a valid parquet file"):
        engine.read(bad)


# ---- findings ---------------------------------------------------------------------------

def test_finding_uint32_upper_half_fails_to_write(engine, tmp_path):
    message = r"It must be >= -2147483648 and <= 2147483647\. Received 2147483648"
    with pytest.raises(AdapterError, match=message) as err:
        written(engine, case_by_id("physical/uint32-required"), tmp_path)
    assert type(err.value).__name__ == "RangeError", FIXED


def test_finding_uint64_reads_as_signed(engine, reference, tmp_path):
    path = written(reference, case_by_id("physical/uint64-required"), tmp_path)
    with pytest.raises(LossyConversion, match="returned -9223372036854775808n, outside INT.64, unsigned."):
        engine.read(path)


def test_finding_negative_timestamp_micros_fails_to_write(engine, tmp_path):
    with pytest.raises(AdapterError, match="TIMESTAMP_MICROS value is out of bounds: -1"):
        written(engine, case_by_id("logical/timestamp-micros-utc-required"), tmp_path)


def test_finding_interval_with_a_zero_field_fails_to_write(engine, tmp_path):
    with pytest.raises(AdapterError, match=r"value for INTERVAL must be object"):
        written(engine, case_by_id("logical/interval-required"), tmp_path)


def test_finding_timestamp_micros_reads_truncated_to_millis(engine, reference, tmp_path):
    case = case_by_id("logical/timestamp-micros-local-required")
    got = engine.read(written(reference, case, tmp_path))
    assert [r[0] for r in got.rows[1:3]] == [0, 1700000000123000], FIXED  # -1 and ...123456 expected


def test_finding_int96_reads_truncated_to_millis(engine, reference, tmp_path):
    got = engine.read(written(reference, case_by_id("physical/int96-nanos-required"), tmp_path))
    assert [r[0] for r in got.rows[:3]] == [0, 0, -1000000], FIXED  # 1, 999, -1 ns expected


def test_finding_rle_booleans_of_other_writers_read_as_false(engine, reference, tmp_path):
    case = case_by_id("encoding/rle-boolean-required-v1")
    got = engine.read(written(reference, case, tmp_path))
    assert any(r[0] for r in case.rows) and not any(r[0] for r in got.rows), FIXED


def test_finding_decimal_9_on_int64_reads_as_32_bit_values(engine, reference, tmp_path):
    case = case_by_id("statistics/decimal-int64-mixed-sign")
    got = engine.read(written(reference, case, tmp_path))
    assert [r[0] for r in got.rows[:3]] == [12345, 0, -12345], FIXED  # 123.45, -123.45, 0.00 expected


def test_finding_decimal_int64_reads_as_a_rounded_number(engine, reference, tmp_path):
    path = written(reference, case_by_id("logical/decimal-int64-required"), tmp_path)
    with pytest.raises(LossyConversion, match="as the JS number -1000000000000,"):
        engine.read(path)


def test_finding_decimal_int64_write_floors_the_scaled_number(engine, reference, tmp_path):
    """0.29 * 100 is 28.999999999999996 in doubles; codec/plain.js takes its Math.floor."""
    case = Case("adhoc/decimal-int64-floor", "DECIMAL(9,2) on INT64", (),
                Schema((Field("d", T.decimal(9, 2, physical="INT64"), False),)), ((29,),),
                WriteOptions())
    got = reference.read(written(engine, case, tmp_path))
    assert got.rows == ((28,),), FIXED  # 0.28 written for 0.29


def test_finding_signalling_nans_are_quieted(engine, reference, tmp_path):
    """The values pass through JS arrays: V8 sets the quiet bit, and once its optimizing
    compiler has compiled the decoder (e.g. after a few hundred doubles) it stores every
    NaN as the canonical 0x7ff8000000000000, so which of the two comes back depends on
    what the adapter read before (measured)."""
    for case_id, signalling in (("physical/float-nan-payloads-required", 0x7FF0000020000000),
                                ("physical/double-nan-payloads-required", 0x7FF0000000000001)):
        got = _bits(engine.read(written(reference, case_by_id(case_id), tmp_path)).rows[0][0])
        assert got in (signalling | QUIET_BIT, CANONICAL_NAN), FIXED


QUIET_BIT, CANONICAL_NAN = 1 << 51, 0x7FF8000000000000


def _bits(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


@pytest.mark.parametrize(("case_id", "message"), [
    ("encoding/delta_binary_packed-int32-required-v1", "invalid encoding: DELTA_BINARY_PACKED"),
    ("encoding/byte_stream_split-double-required-v1", "invalid encoding: BYTE_STREAM_SPLIT"),
    ("encoding/bit-packed-levels", "invalid encoding: BIT_PACKED"),
    ("codec/zstd-v1", "invalid compression method: ZSTD"),
])
def test_finding_encodings_and_codecs_parquetjs_cannot_read(engine, reference, case_id, message, tmp_path):
    with pytest.raises(AdapterError, match=message):
        engine.read(written(reference, case_by_id(case_id), tmp_path))


def test_finding_json_is_returned_parsed(engine, reference, tmp_path):
    path = written(reference, case_by_id("logical/json-required"), tmp_path)
    with pytest.raises(LossyConversion, match="returns JSON values parsed"):
        engine.read(path)


def test_finding_newer_logical_types_read_as_physical(engine, reference, tmp_path):
    """Its thrift definitions have no FLOAT16 (nor VARIANT, GEOMETRY, GEOGRAPHY)."""
    got = engine.read(written(reference, case_by_id("logical/float16-required"), tmp_path))
    assert got.schema.fields[0].type.kind == "fixed", FIXED


def test_dates_outside_a_js_date_are_unsupported_to_write(engine, tmp_path):
    case = case_by_id("logical/date-required")
    with pytest.raises(Unsupported, match="outside a JS Date"):
        written(engine, case, tmp_path)
