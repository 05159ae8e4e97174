"""FLOAT16 values keep their 16 bits (LogicalTypes.md, 'FLOAT16'; docs/canonical-values.md):
every half is a distinct double, NaN payloads and signs included, and a round trip
through the reference engine writes back the same two bytes."""

from __future__ import annotations

import struct

import pyarrow.parquet as pq
import pytest

from conformance.engines import get_engine
from conformance.engines.arrow_values import arrow_to_table
from conformance.values import diff_tables
from conformance.values import types as T
from reference_impl.parquet.reader import read_parquet
from reference_impl.parquet.schema.logical_values import float16_from_bytes, float16_to_bytes
from tests.engines._helpers import single_column_case, write_case

REFERENCE = get_engine("reference")
QUIET_NAN = 0x7E00  # what struct and numpy make of float("nan")
# A payload in the low bit, every payload bit set, a negative NaN, a signalling NaN.
OTHER_NANS = (0x7E01, 0x7FFF, 0xFE00, 0x7C01)
HALF_COUNT = 1 << 16


def half(pattern: int) -> bytes:
    return struct.pack("<H", pattern)


def double_bits(value: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", value))[0]


def test_every_half_is_its_own_double_and_writes_back_as_itself() -> None:
    doubles = [float16_from_bytes(half(pattern)) for pattern in range(HALF_COUNT)]
    assert len({double_bits(value) for value in doubles}) == HALF_COUNT
    assert [float16_to_bytes(value) for value in doubles] == [half(p) for p in range(HALF_COUNT)]


def test_a_nan_payload_becomes_the_top_mantissa_bits_of_the_double() -> None:
    # The widening arrow_values.widen_float_bits does for the Arrow-based peers.
    assert double_bits(float16_from_bytes(half(0x7E01))) == 0x7FF8040000000000
    assert double_bits(float16_from_bytes(half(0xFE00))) == 0xFFF8000000000000
    assert double_bits(float16_from_bytes(half(0x7C01))) == 0x7FF0040000000000  # still signalling


@pytest.mark.parametrize("other", OTHER_NANS)
def test_a_nan_of_another_payload_or_sign_is_another_canonical_value(other: int) -> None:
    quiet = single_column_case(T.floating(16), [float16_from_bytes(half(QUIET_NAN))])
    changed = single_column_case(T.floating(16), [float16_from_bytes(half(other))])
    assert diff_tables(quiet.expected, changed.expected) is not None


def test_a_round_trip_through_the_reference_keeps_the_bits(tmp_path) -> None:
    patterns = (QUIET_NAN, *OTHER_NANS, 0x8000, 0x3E00)  # and -0.0, 1.5
    values = [float16_from_bytes(half(pattern)) for pattern in patterns]
    case = single_column_case(T.floating(16), [*values, None])
    path = write_case(REFERENCE, case, tmp_path)
    stored = [record["value"] for record in read_parquet(path).records]
    assert stored == [*(half(pattern) for pattern in patterns), None]
    back = REFERENCE.read(path)
    assert diff_tables(case.expected, back) is None
    assert [double_bits(row[0]) for row in back.rows[:-1]] == [double_bits(v) for v in values]
    # pyarrow reads the same bits from the reference's file.
    assert diff_tables(case.expected, arrow_to_table(pq.read_table(path))) is None


@pytest.mark.parametrize(
    "value",
    [0.1, 65520.0, struct.unpack("<d", struct.pack("<Q", 0x7FF8000000000001))[0]],
    ids=["rounds", "overflows", "nan-payload-below-the-top-10-bits"],
)
def test_a_double_without_an_exact_half_is_refused(value: float) -> None:
    with pytest.raises(ValueError, match="no exact FLOAT16 form"):
        float16_to_bytes(value)
