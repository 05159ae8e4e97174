"""Statistics (parquet.thrift 'struct Statistics', ColumnOrder comment, FileMetaData.column_orders)."""

from __future__ import annotations

import io
import math
import struct
from dataclasses import replace

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.parquet.errors import CorruptMetadata
from reference_impl.parquet.metadata.parquet_thrift import (
    ConvertedType,
    DecimalType,
    Float16Type,
    IntType,
    LogicalType,
    Statistics,
    StringType,
    Type,
)
from reference_impl.parquet.reader import read_parquet
from reference_impl.parquet.statistics.column_statistics import (
    column_statistics,
    decode_bound,
    encode_bound,
    statistics_bounds,
    truncate_lower_bound,
    truncate_upper_bound,
)

STRING = LogicalType(STRING=StringType())
FLOAT16 = LogicalType(FLOAT16=Float16Type())
UINT64 = LogicalType(INTEGER=IntType(bitWidth=64, isSigned=False))
UINT32 = LogicalType(INTEGER=IntType(bitWidth=32, isSigned=False))
DECIMAL_4_2 = LogicalType(DECIMAL=DecimalType(scale=2, precision=4))

NEG_ZERO_DOUBLE = b"\x00\x00\x00\x00\x00\x00\x00\x80"
POS_ZERO_DOUBLE = bytes(8)
F16_NEG_ZERO, F16_POS_ZERO, F16_ONE, F16_NAN = b"\x00\x80", b"\x00\x00", b"\x00\x3c", b"\x00\x7e"


# -- encode_bound: PLAIN, "except that variable-length byte arrays do not include a length prefix"


def test_encode_bound_boolean_is_one_bit_packed_byte():
    assert encode_bound(Type.BOOLEAN, True) == b"\x01"  # bit 0 = the value, bits 1-7 padding
    assert encode_bound(Type.BOOLEAN, False) == b"\x00"


def test_encode_bound_int32_little_endian_twos_complement():
    assert encode_bound(Type.INT32, -2) == bytes(
        [
            0xFE,  # least significant byte of 0xFFFFFFFE
            0xFF,
            0xFF,
            0xFF,  # most significant byte
        ]
    )


def test_encode_bound_int64():
    assert encode_bound(Type.INT64, 0x0102030405060708) == bytes(
        [0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01]  # little endian: low byte first
    )


def test_encode_bound_int96_is_its_twelve_bytes():
    value = bytes(range(12))  # nanoseconds (8 bytes LE) then Julian day (4 bytes LE), opaque here
    assert encode_bound(Type.INT96, value) == value


def test_encode_bound_float_and_double():
    assert encode_bound(Type.FLOAT, 1.0) == bytes([0x00, 0x00, 0x80, 0x3F])  # 0x3F800000 LE
    assert encode_bound(Type.DOUBLE, -0.0) == bytes([0, 0, 0, 0, 0, 0, 0, 0x80])  # sign bit only


def test_encode_bound_byte_array_has_no_length_prefix():
    assert encode_bound(Type.BYTE_ARRAY, b"ab") == bytes([0x61, 0x62])  # 'a', 'b'; no 02 00 00 00
    assert encode_bound(Type.BYTE_ARRAY, b"") == b""


def test_encode_bound_fixed_len_byte_array():
    assert encode_bound(Type.FIXED_LEN_BYTE_ARRAY, b"\xff\x9c", 2) == bytes([0xFF, 0x9C])
    with pytest.raises(ValueError):
        encode_bound(Type.FIXED_LEN_BYTE_ARRAY, b"\x01", 2)


@pytest.mark.parametrize(
    ("physical", "value", "type_length"),
    [
        (Type.BOOLEAN, True, None),
        (Type.INT32, -(2**31), None),
        (Type.INT64, 2**63 - 1, None),
        (Type.INT96, bytes(range(12)), None),
        (Type.FLOAT, -1.5, None),
        (Type.DOUBLE, 1e300, None),
        (Type.BYTE_ARRAY, b"\x00\xff", None),
        (Type.FIXED_LEN_BYTE_ARRAY, b"abc", 3),
    ],
)
def test_decode_bound_round_trips(physical, value, type_length):
    assert decode_bound(physical, encode_bound(physical, value, type_length), type_length) == value


@pytest.mark.parametrize(
    ("physical", "raw", "type_length"),
    [
        (Type.INT32, b"\x01\x02\x03", None),
        (Type.INT64, b"\x01" * 4, None),
        (Type.DOUBLE, b"", None),
        (Type.BOOLEAN, b"\x01\x00", None),
        (Type.INT96, b"\x00" * 8, None),
        (Type.FIXED_LEN_BYTE_ARRAY, b"\x00", 16),
    ],
)
def test_decode_bound_wrong_length_is_corrupt_metadata(physical, raw, type_length):
    with pytest.raises(CorruptMetadata) as caught:
        decode_bound(physical, raw, type_length, what="Statistics.min_value of c", offset=1234)
    assert caught.value.offset == 1234
    assert "Statistics.min_value of c" in caught.value.message


# -- truncation ----------------------------------------------------------------------


def test_truncate_examples():
    assert truncate_lower_bound(b"Blart Versenwald III", 1) == b"B"
    assert truncate_upper_bound(b"Blart Versenwald III", 1) == b"C"  # the spec's "B" / "C"
    assert truncate_upper_bound(b"a\xff\xffb", 3) == b"b"  # trailing 0xFF dropped, 'a' + 1
    assert truncate_upper_bound(b"\xff\xff\xff", 2) is None  # nothing shorter sorts after it
    assert truncate_upper_bound(b"short", 10) == b"short"  # not longer than the limit: unchanged
    assert truncate_lower_bound(b"abc", 0) == b""


def test_truncate_utf8_keeps_whole_characters():
    text = "é中x".encode()  # c3 a9 | e4 b8 ad | 78
    assert truncate_lower_bound(text, 4, utf8=True) == "é".encode()  # not c3 a9 e4
    assert truncate_upper_bound(text, 4, utf8=True) == "ê".encode()  # U+00E9 + 1
    # U+007F + 1 = U+0080 needs two bytes: it fits in 3, with only 2 the 'a' before it is incremented.
    with_del = "a\x7fé".encode()  # 61 | 7f | c3 a9
    assert truncate_upper_bound(with_del, 3, utf8=True) == "a\u0080".encode()
    assert truncate_upper_bound(with_del, 2, utf8=True) == b"b"
    # Byte-wise, 61 7f -> 61 80 would be invalid UTF-8.
    assert truncate_upper_bound(with_del, 2) == b"a\x80"
    assert truncate_upper_bound("\U0010ffff\U0010ffffz".encode(), 8, utf8=True) is None


@given(st.binary(max_size=40), st.integers(min_value=0, max_value=45))
def test_truncated_lower_bound_is_at_most_the_value(raw, length):
    bound = truncate_lower_bound(raw, length)
    assert len(bound) <= max(length, 0) or bound == raw
    assert bound <= raw  # bytes compare as unsigned octets
    assert raw.startswith(bound)


@given(st.binary(max_size=40), st.integers(min_value=0, max_value=45))
def test_truncated_upper_bound_is_at_least_the_value(raw, length):
    bound = truncate_upper_bound(raw, length)
    if bound is None:
        assert len(raw) > length and set(raw[:length]) <= {0xFF}
        return
    assert len(bound) <= length or bound == raw
    assert bound >= raw


@given(st.text(max_size=20), st.integers(min_value=0, max_value=30))
def test_utf8_truncation_is_valid_utf8_and_still_bounds(text, length):
    raw = text.encode()
    low = truncate_lower_bound(raw, length, utf8=True)
    high = truncate_upper_bound(raw, length, utf8=True)
    assert low.decode() is not None and low <= raw and len(low) <= max(length, len(raw))
    if high is not None:
        assert high.decode() is not None and high >= raw
        assert len(high) <= length or high == raw


@given(st.lists(st.binary(max_size=12), min_size=1, max_size=20), st.integers(min_value=1, max_value=8))
def test_truncated_statistics_bound_every_value(values, length):
    stats = column_statistics(values, 0, Type.BYTE_ARRAY, truncate_length=length)
    assert all(stats.min_value <= value <= stats.max_value for value in values)
    assert stats.is_min_value_exact == (stats.min_value == min(values))
    assert stats.is_max_value_exact == (stats.max_value == max(values))
    assert len(stats.min_value) <= length
    assert len(stats.max_value) <= length or stats.max_value == max(values)


# -- column_statistics -------------------------------------------------------------


def test_signed_int_statistics_also_fill_the_deprecated_fields():
    stats = column_statistics([3, -7, 5], 2, Type.INT32)
    assert stats == Statistics(
        max=b"\x05\x00\x00\x00",
        min=b"\xf9\xff\xff\xff",  # -7
        null_count=2,
        max_value=b"\x05\x00\x00\x00",
        min_value=b"\xf9\xff\xff\xff",
        is_max_value_exact=True,
        is_min_value_exact=True,
    )


@pytest.mark.parametrize(
    ("physical", "logical", "converted", "extremes"),
    [
        (Type.INT64, UINT64, None, (b"\x00" * 8, b"\xff" * 8)),
        (Type.INT64, None, ConvertedType.UINT_64, (b"\x00" * 8, b"\xff" * 8)),
        (Type.INT32, UINT32, None, (b"\x00" * 4, b"\xff" * 4)),
    ],
)
def test_unsigned_extremes_and_no_deprecated_fields(physical, logical, converted, extremes):
    stats = column_statistics([-1, 0, 1], 0, physical, logical, converted)  # -1 is the largest
    assert (stats.min_value, stats.max_value) == extremes
    assert stats.min is None and stats.max is None  # signed comparison would disagree


def test_decimal_on_flba_orders_by_represented_value_and_is_never_truncated():
    values = [b"\x00\x80", b"\xff\x9c", b"\x00\x7f"]  # 128, -100, 127 (big-endian two's complement)
    stats = column_statistics(values, 0, Type.FIXED_LEN_BYTE_ARRAY, DECIMAL_4_2, None, 2, truncate_length=1)
    assert (stats.min_value, stats.max_value) == (b"\xff\x9c", b"\x00\x80")
    assert (stats.min, stats.max) == (b"\xff\x9c", b"\x00\x80")  # DECIMAL is signed
    assert stats.is_min_value_exact and stats.is_max_value_exact


def test_decimal_on_byte_array_is_not_truncated():
    values = [b"\x01\x00\x00", b"\xff"]  # 65536, -1
    stats = column_statistics(values, 0, Type.BYTE_ARRAY, DECIMAL_4_2, truncate_length=1)
    assert (stats.min_value, stats.max_value) == (b"\xff", b"\x01\x00\x00")


def test_plain_flba_is_not_truncated():
    stats = column_statistics(
        [b"abcd", b"abce"], 0, Type.FIXED_LEN_BYTE_ARRAY, type_length=4, truncate_length=2
    )
    assert (stats.min_value, stats.max_value) == (b"abcd", b"abce")


def test_high_bit_bytes_compare_unsigned():
    stats = column_statistics([b"\x80", b"\x7f", b"\x7f\xff"], 0, Type.BYTE_ARRAY)
    assert (stats.min_value, stats.max_value) == (b"\x7f", b"\x80")  # signed bytes would reverse this
    assert stats.min is None  # byte-wise order is not signed


def test_empty_string_is_the_smallest_value():
    stats = column_statistics([b"a", b""], 0, Type.BYTE_ARRAY, STRING, truncate_length=1)
    assert (stats.min_value, stats.max_value) == (b"", b"a")
    assert stats.is_min_value_exact and stats.is_max_value_exact


def test_all_0xff_max_cannot_be_truncated_and_stays_exact():
    stats = column_statistics([b"\xff" * 5], 0, Type.BYTE_ARRAY, truncate_length=2)
    assert stats.max_value == b"\xff" * 5 and stats.is_max_value_exact
    assert stats.min_value == b"\xff" * 2 and not stats.is_min_value_exact


def test_zero_bounds_are_negative_min_and_positive_max():
    for values in ([0.0], [-0.0], [0.0, -0.0]):
        stats = column_statistics(values, 0, Type.DOUBLE)
        assert (stats.min_value, stats.max_value) == (NEG_ZERO_DOUBLE, POS_ZERO_DOUBLE)


def test_float16_zeros_and_nan():
    stats = column_statistics([F16_POS_ZERO, F16_NAN], 0, Type.FIXED_LEN_BYTE_ARRAY, FLOAT16, None, 2)
    assert (stats.min_value, stats.max_value) == (F16_NEG_ZERO, F16_POS_ZERO)


def test_nan_is_never_a_bound():
    stats = column_statistics([math.nan, 2.0, 1.0], 0, Type.FLOAT)
    assert decode_bound(Type.FLOAT, stats.min_value) == 1.0
    assert decode_bound(Type.FLOAT, stats.max_value) == 2.0
    only_nan = column_statistics([math.nan, math.nan], 1, Type.DOUBLE)
    assert only_nan == Statistics(null_count=1, nan_count=2)  # "must not be written"; counted


def test_all_null_and_undefined_order_write_only_counts():
    assert column_statistics([], 4, Type.INT32) == Statistics(null_count=4)
    interval = column_statistics([bytes(12)], 0, Type.FIXED_LEN_BYTE_ARRAY, None, ConvertedType.INTERVAL, 12)
    assert interval == Statistics(null_count=0)


def test_boolean_statistics():
    stats = column_statistics([True, False, True], 0, Type.BOOLEAN)
    assert (stats.min_value, stats.max_value, stats.min, stats.max) == (b"\x00", b"\x01", b"\x00", b"\x01")


def test_distinct_count_counts_bit_patterns():
    nan_a = struct.unpack("<d", struct.pack("<Q", 0x7FF8000000000001))[0]
    values = [0.0, -0.0, math.nan, math.nan, nan_a, 1.0, 1.0]
    assert column_statistics(values, 0, Type.DOUBLE, distinct_count=True).distinct_count == 5
    assert column_statistics(values, 0, Type.DOUBLE).distinct_count is None
    assert column_statistics([], 3, Type.INT32, distinct_count=True).distinct_count == 0


def test_negative_null_count_is_a_caller_error():
    with pytest.raises(ValueError):
        column_statistics([], -1, Type.INT32)


# -- statistics_bounds (reader side) -----------------------------------------------


def _i32(value: int) -> bytes:
    return encode_bound(Type.INT32, value)


def test_reader_prefers_min_value_and_falls_back_to_deprecated_for_signed():
    both = Statistics(min=_i32(-9), max=_i32(9), min_value=_i32(1), max_value=_i32(2))
    assert statistics_bounds(both, Type.INT32) == (1, 2)
    legacy = Statistics(min=_i32(-9), max=_i32(9))
    assert statistics_bounds(legacy, Type.INT32) == (-9, 9)


def test_reader_ignores_deprecated_fields_of_unsigned_columns():
    legacy = Statistics(min=_i32(-1), max=_i32(1))  # signed order; wrong for UINT_32
    assert statistics_bounds(legacy, Type.INT32, UINT32) == (None, None)
    assert statistics_bounds(Statistics(min=b"a", max=b"b"), Type.BYTE_ARRAY, STRING) == (None, None)


def test_reader_without_column_orders_trusts_only_signed_deprecated_fields():
    stats = Statistics(min=_i32(-9), max=_i32(9), min_value=_i32(1), max_value=_i32(2))
    assert statistics_bounds(stats, Type.INT32, column_order_defined=False) == (-9, 9)
    text = Statistics(min_value=b"a", max_value=b"b")
    assert statistics_bounds(text, Type.BYTE_ARRAY, STRING, column_order_defined=False) == (None, None)


def test_reader_ignores_undefined_orders():
    stats = Statistics(min_value=bytes(12), max_value=bytes(12), min=bytes(12), max=bytes(12))
    assert statistics_bounds(stats, Type.INT96) == (None, None)


def test_reader_float_rules():
    nan = encode_bound(Type.DOUBLE, math.nan)
    stats = Statistics(min_value=nan, max_value=encode_bound(Type.DOUBLE, 3.0))
    assert statistics_bounds(stats, Type.DOUBLE) == (None, 3.0)
    zeros = Statistics(min_value=POS_ZERO_DOUBLE, max_value=NEG_ZERO_DOUBLE)
    low, high = statistics_bounds(zeros, Type.DOUBLE)
    assert math.copysign(1, low) == -1 and math.copysign(1, high) == 1
    f16 = Statistics(min_value=F16_POS_ZERO, max_value=F16_NAN)
    assert statistics_bounds(f16, Type.FIXED_LEN_BYTE_ARRAY, FLOAT16, None, 2) == (F16_NEG_ZERO, None)
    f16 = Statistics(min_value=F16_NEG_ZERO, max_value=F16_NEG_ZERO)
    assert statistics_bounds(f16, Type.FIXED_LEN_BYTE_ARRAY, FLOAT16, None, 2) == (F16_NEG_ZERO, F16_POS_ZERO)


def test_reader_rejects_min_above_max_and_bad_lengths():
    with pytest.raises(CorruptMetadata):
        statistics_bounds(Statistics(min_value=_i32(5), max_value=_i32(4)), Type.INT32)
    with pytest.raises(CorruptMetadata) as caught:
        statistics_bounds(Statistics(min_value=b"\x01"), Type.INT64, what="chunk c", offset=77)
    assert caught.value.offset == 77


def test_reader_round_trips_writer_output():
    values = [b"\x00\x80", b"\xff\x9c"]
    stats = column_statistics(values, 0, Type.FIXED_LEN_BYTE_ARRAY, DECIMAL_4_2, None, 2)
    assert statistics_bounds(stats, Type.FIXED_LEN_BYTE_ARRAY, DECIMAL_4_2, None, 2) == (
        b"\xff\x9c",
        b"\x00\x80",
    )


# -- cross-check against pyarrow, an independent writer -----------------------------

PYARROW_COLUMNS = {
    "i32": pa.array([3, None, -7, 5], pa.int32()),
    "i64": pa.array([2**62, -(2**63), None, 0], pa.int64()),
    "u8": pa.array([0, 255, 7, None], pa.uint8()),
    "u32": pa.array([0, 2**32 - 1, 7, None], pa.uint32()),
    "u64": pa.array([0, 2**64 - 1, 2**63, None], pa.uint64()),
    "f32": pa.array([1.5, float("nan"), -2.25, None], pa.float32()),
    "f64_zeros": pa.array([0.0, -0.0, 0.0, None]),
    "f64_nan": pa.array([float("nan"), None, float("nan"), None]),
    "bool": pa.array([True, False, None, True]),
    "text": pa.array(["b", "", "é", None]),
    "bin": pa.array([b"\x80", b"\x7f", b"\x7f\xff", None]),
    "dec": pa.array([-1, 128, 127, None], pa.int64()).cast(pa.decimal128(20, 0)),
    "date": pa.array([1, -1, None, 10], pa.date32()),
    "ts": pa.array([1, -1, None, 10], pa.timestamp("us", tz="UTC")),
    "nulls": pa.array([None, None, None, None], pa.int32()),
}


@pytest.fixture(scope="module")
def pyarrow_file() -> bytes:
    buffer = io.BytesIO()
    pq.write_table(pa.table(PYARROW_COLUMNS), buffer, write_statistics=True, use_dictionary=False)
    return buffer.getvalue()


@pytest.mark.parametrize("index", range(len(PYARROW_COLUMNS)), ids=list(PYARROW_COLUMNS))
def test_column_statistics_agree_with_pyarrow(pyarrow_file, index):
    contents = read_parquet(pyarrow_file)
    leaf = contents.leaves[index]
    node = leaf.leaf.node
    written = contents.metadata.row_groups[0].columns[index].meta_data.statistics
    ours = column_statistics(
        leaf.values,
        int((leaf.definition_levels < leaf.leaf.max_definition_level).sum()),
        node.physical_type,
        node.logical_type,
        node.converted_type,
        node.type_length,
    )
    # pyarrow writes no distinct_count and truncates nothing this short; it predates
    # nan_count (parquet-format 2.13), which ours carries for float columns: every other
    # field must match.
    assert written.nan_count is None
    assert replace(ours, nan_count=None) == written
    bounds = statistics_bounds(
        written, node.physical_type, node.logical_type, node.converted_type, node.type_length
    )
    expected = statistics_bounds(
        ours, node.physical_type, node.logical_type, node.converted_type, node.type_length
    )
    assert repr(bounds) == repr(expected)  # repr tells -0.0 from 0.0
