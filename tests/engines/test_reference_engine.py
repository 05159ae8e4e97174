"""The reference engine adapter: canonical <-> Parquet annotations and physical values.

Types the catalogue does not cover yet (DECIMAL on every physical type, FLOAT16,
UUID, INTERVAL, TIME, TIMESTAMP in every unit) round-trip through the reference
writer and reader here, and pyarrow (an independent implementation) must read
the same values; ConvertedType-only files (old writers) are read by the
LogicalTypes.md compatibility rules.
"""

from __future__ import annotations

import pyarrow.parquet as pq
import pytest

from conformance.cases import all_cases
from conformance.engines import get_engine
from conformance.engines.arrow_values import arrow_to_table
from conformance.values import diff_tables
from conformance.values import types as T
from reference_impl.parquet.metadata import ConvertedType, FieldRepetitionType, Type
from reference_impl.parquet.schema import ColumnSpec
from reference_impl.parquet.writer import write_parquet
from tests.engines._helpers import single_column_case, write_case

REFERENCE = get_engine("reference")


@pytest.mark.parametrize("case", all_cases(), ids=lambda c: c.id)
def test_every_catalogue_case_round_trips(case, tmp_path):
    assert diff_tables(case.expected, REFERENCE.read(write_case(REFERENCE, case, tmp_path))) is None


@pytest.mark.parametrize(("t", "values"), [
    (T.decimal(9, 2, "INT32"), [-99999999, 0, 12345, None]),
    (T.decimal(18, 4, "INT64"), [-(10**18 - 1), 10**18 - 1, None]),
    (T.decimal(38, 10, "FIXED_LEN_BYTE_ARRAY"), [-(10**38 - 1), 10**38 - 1, -1, 0, None]),
    (T.decimal(20, 0, "BYTE_ARRAY"), [-(10**20 - 1), 127, 128, -128, -129, 0, None]),
    (T.floating(16), [0.0, -0.0, 1.5, 65504.0, float("inf"), float("nan"), None]),
    (T.uuid(), ["00112233-4455-6677-8899-aabbccddeeff", None]),
    (T.date(), [-(2**31), 0, 19000, 2**31 - 1, None]),
    (T.time("ms", False), [0, 86_399_999, None]),
    (T.time("ns", True), [0, 86_399_999_999_999, None]),
    (T.timestamp("ms", True), [-(2**63), 0, 2**63 - 1, None]),
    (T.timestamp("ns", False), [-1, 1, None]),
    (T.json_type(), ['{"a": 1}', None]),
])
def test_logical_types_round_trip_and_pyarrow_agrees(t, values, tmp_path):
    case = single_column_case(t, values)
    path = write_case(REFERENCE, case, tmp_path)
    assert diff_tables(case.expected, REFERENCE.read(path)) is None
    # An independent implementation reads the same values from the reference's file.
    assert diff_tables(case.expected, arrow_to_table(pq.read_table(path))) is None


@pytest.mark.parametrize(("t", "values"), [
    # pyarrow reads these as plain binary (its own view, a finding for the matrix).
    (T.interval(), [(1, 2, 3), (2**32 - 1, 0, 86_400_000), None]),
    (T.enum(), ["A", "", None]),
])
def test_types_without_an_arrow_counterpart_round_trip(t, values, tmp_path):
    case = single_column_case(t, values)
    assert diff_tables(case.expected, REFERENCE.read(write_case(REFERENCE, case, tmp_path))) is None


@pytest.mark.parametrize(("physical", "converted", "extra", "values", "expected"), [
    (Type.BYTE_ARRAY, ConvertedType.UTF8, {}, [b"h\xc3\xa9"], (T.string(), ["hé"])),
    (Type.INT32, ConvertedType.INT_8, {}, [-128], (T.integer(8), [-128])),
    (Type.INT64, ConvertedType.UINT_64, {}, [-1], (T.integer(64, False), [2**64 - 1])),
    (Type.INT64, ConvertedType.TIMESTAMP_MILLIS, {}, [5], (T.timestamp("ms", True), [5])),
    (Type.INT32, ConvertedType.TIME_MILLIS, {}, [7], (T.time("ms", True), [7])),
    (Type.INT32, ConvertedType.DATE, {}, [3], (T.date(), [3])),
    (Type.FIXED_LEN_BYTE_ARRAY, ConvertedType.DECIMAL, {"type_length": 2, "scale": 1,
                                                        "precision": 4},
     [b"\xff\x85"], (T.decimal(4, 1, "FIXED_LEN_BYTE_ARRAY"), [-123])),
])
def test_converted_type_only_files_follow_the_compatibility_rules(
        physical, converted, extra, values, expected, tmp_path):
    """LogicalTypes.md, "Compatibility": a file from a writer that set only ConvertedType."""
    path = tmp_path / "old.parquet"
    spec = ColumnSpec("value", physical, FieldRepetitionType.REQUIRED, converted_type=converted,
                      **extra)
    write_parquet(path, [spec], {"value": values})
    want = single_column_case(expected[0], expected[1], nullable=False).expected
    assert diff_tables(want, REFERENCE.read(path)) is None
