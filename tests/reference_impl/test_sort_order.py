"""Column sort orders (parquet.thrift ColumnOrder / TypeDefinedOrder, LogicalTypes.md)."""

from __future__ import annotations

import math
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.parquet.metadata.parquet_thrift import (
    BsonType,
    ConvertedType,
    DateType,
    DecimalType,
    EnumType,
    Float16Type,
    GeographyType,
    GeometryType,
    IntType,
    JsonType,
    ListType,
    LogicalType,
    MapType,
    MicroSeconds,
    MilliSeconds,
    NullType,
    StringType,
    TimestampType,
    TimeType,
    TimeUnit,
    Type,
    UUIDType,
    VariantType,
)
from reference_impl.parquet.statistics.sort_order import SortOrder, min_max, sort_key, sort_order

CT = ConvertedType
I32_MIN, I32_MAX = -(2**31), 2**31 - 1
I64_MIN, I64_MAX = -(2**63), 2**63 - 1


def integer(bits: int, signed: bool) -> LogicalType:
    return LogicalType(INTEGER=IntType(bitWidth=bits, isSigned=signed))


def decimal(precision: int, scale: int = 0) -> LogicalType:
    return LogicalType(DECIMAL=DecimalType(scale=scale, precision=precision))


def be(value: int, length: int | None = None) -> bytes:
    """Big-endian two's complement, minimal length unless ``length`` is given."""
    if length is None:
        length = max(1, (value + (value < 0)).bit_length() // 8 + 1)
    return value.to_bytes(length, "big", signed=True)


def f16(value: float) -> bytes:
    return struct.pack("<e", value)


def to_physical(value: int, bits: int) -> int:
    """An unsigned logical value as the signed INT32/INT64 the reader returns."""
    return value - (1 << bits) if value >= 1 << (bits - 1) else value


TS_MICROS = LogicalType(TIMESTAMP=TimestampType(isAdjustedToUTC=True, unit=TimeUnit(MICROS=MicroSeconds())))
TIME_MILLIS = LogicalType(TIME=TimeType(isAdjustedToUTC=False, unit=TimeUnit(MILLIS=MilliSeconds())))

# (id, physical, logical, converted, expected order)
ORDERS = [
    ("boolean", Type.BOOLEAN, None, None, SortOrder.SIGNED),
    ("int32", Type.INT32, None, None, SortOrder.SIGNED),
    ("int64", Type.INT64, None, None, SortOrder.SIGNED),
    ("int96", Type.INT96, None, None, SortOrder.UNDEFINED),
    ("float", Type.FLOAT, None, None, SortOrder.SIGNED),
    ("double", Type.DOUBLE, None, None, SortOrder.SIGNED),
    ("byte_array", Type.BYTE_ARRAY, None, None, SortOrder.UNSIGNED),
    ("flba", Type.FIXED_LEN_BYTE_ARRAY, None, None, SortOrder.UNSIGNED),
    ("INT(8,true)", Type.INT32, integer(8, True), None, SortOrder.SIGNED),
    ("INT(64,true)", Type.INT64, integer(64, True), None, SortOrder.SIGNED),
    ("INT(16,false)", Type.INT32, integer(16, False), None, SortOrder.UNSIGNED),
    ("INT(64,false)", Type.INT64, integer(64, False), None, SortOrder.UNSIGNED),
    ("INT_16", Type.INT32, None, CT.INT_16, SortOrder.SIGNED),
    ("UINT_8", Type.INT32, None, CT.UINT_8, SortOrder.UNSIGNED),
    ("UINT_64", Type.INT64, None, CT.UINT_64, SortOrder.UNSIGNED),
    ("DATE", Type.INT32, LogicalType(DATE=DateType()), None, SortOrder.SIGNED),
    ("CT DATE", Type.INT32, None, CT.DATE, SortOrder.SIGNED),
    ("TIME", Type.INT32, TIME_MILLIS, None, SortOrder.SIGNED),
    ("TIMESTAMP", Type.INT64, TS_MICROS, None, SortOrder.SIGNED),
    ("CT TIMESTAMP_MILLIS", Type.INT64, None, CT.TIMESTAMP_MILLIS, SortOrder.SIGNED),
    ("DECIMAL int32", Type.INT32, decimal(9), None, SortOrder.SIGNED),
    ("DECIMAL flba", Type.FIXED_LEN_BYTE_ARRAY, decimal(20), None, SortOrder.SIGNED),
    ("DECIMAL binary", Type.BYTE_ARRAY, None, CT.DECIMAL, SortOrder.SIGNED),
    ("STRING", Type.BYTE_ARRAY, LogicalType(STRING=StringType()), None, SortOrder.UNSIGNED),
    ("UTF8", Type.BYTE_ARRAY, None, CT.UTF8, SortOrder.UNSIGNED),
    ("ENUM", Type.BYTE_ARRAY, LogicalType(ENUM=EnumType()), None, SortOrder.UNSIGNED),
    ("JSON", Type.BYTE_ARRAY, LogicalType(JSON=JsonType()), None, SortOrder.UNSIGNED),
    ("BSON", Type.BYTE_ARRAY, None, CT.BSON, SortOrder.UNSIGNED),
    ("BSON lt", Type.BYTE_ARRAY, LogicalType(BSON=BsonType()), None, SortOrder.UNSIGNED),
    ("UUID", Type.FIXED_LEN_BYTE_ARRAY, LogicalType(UUID=UUIDType()), None, SortOrder.UNSIGNED),
    ("FLOAT16", Type.FIXED_LEN_BYTE_ARRAY, LogicalType(FLOAT16=Float16Type()), None, SortOrder.SIGNED),
    ("INTERVAL", Type.FIXED_LEN_BYTE_ARRAY, None, CT.INTERVAL, SortOrder.UNDEFINED),
    ("GEOMETRY", Type.BYTE_ARRAY, LogicalType(GEOMETRY=GeometryType()), None, SortOrder.UNDEFINED),
    ("GEOGRAPHY", Type.BYTE_ARRAY, LogicalType(GEOGRAPHY=GeographyType()), None, SortOrder.UNDEFINED),
    ("UNKNOWN", Type.INT32, LogicalType(UNKNOWN=NullType()), None, SortOrder.UNDEFINED),
    ("newer LogicalType member", Type.BYTE_ARRAY, LogicalType(), None, SortOrder.UNDEFINED),
    # LogicalType supersedes a (contradicting) ConvertedType.
    ("LogicalType wins", Type.INT32, integer(32, False), CT.INT_32, SortOrder.UNSIGNED),
]


@pytest.mark.parametrize(
    ("physical", "logical", "converted", "expected"),
    [row[1:] for row in ORDERS],
    ids=[row[0] for row in ORDERS],
)
def test_sort_order(physical, logical, converted, expected):
    assert sort_order(physical, logical, converted) is expected


@pytest.mark.parametrize(
    ("physical", "logical", "converted"),
    [
        (Type.INT32, None, CT.LIST),
        (Type.INT32, None, CT.MAP),
        (Type.BYTE_ARRAY, LogicalType(MAP=MapType()), None),
        (Type.BYTE_ARRAY, LogicalType(LIST=ListType()), None),
        (Type.BYTE_ARRAY, LogicalType(VARIANT=VariantType()), None),
        (Type.INT32, LogicalType(STRING=StringType()), None),
        (Type.INT64, None, CT.UINT_32),
        (Type.INT32, integer(64, True), None),
        (Type.BYTE_ARRAY, LogicalType(FLOAT16=Float16Type()), None),
        (Type.DOUBLE, decimal(10), None),
    ],
    ids=[
        "CT LIST",
        "CT MAP",
        "MAP",
        "LIST",
        "VARIANT",
        "STRING on INT32",
        "UINT_32 on INT64",
        "INT(64) on INT32",
        "FLOAT16 on BYTE_ARRAY",
        "DECIMAL on DOUBLE",
    ],
)
def test_groups_and_bad_pairings_are_rejected(physical, logical, converted):
    with pytest.raises(ValueError):
        sort_order(physical, logical, converted)


NAN = float("nan")

# (id, physical, logical, converted, values, expected (min, max) or None)
MIN_MAX = [
    ("int32 extremes", Type.INT32, None, None, [0, I32_MAX, -1, I32_MIN, None], (I32_MIN, I32_MAX)),
    ("int64 extremes", Type.INT64, None, None, [I64_MAX, 5, I64_MIN], (I64_MIN, I64_MAX)),
    # Unsigned: -1 is 2**32 - 1, the largest; INT32_MIN is 2**31 > INT32_MAX.
    ("UINT_32 extremes", Type.INT32, None, CT.UINT_32, [0, I32_MAX, -1, I32_MIN], (0, -1)),
    ("INT(32,false)", Type.INT32, integer(32, False), None, [I32_MIN, I32_MAX, 1], (1, I32_MIN)),
    ("UINT_64 extremes", Type.INT64, None, CT.UINT_64, [I64_MIN, 0, -1, I64_MAX, None], (0, -1)),
    ("INT(64,false)", Type.INT64, integer(64, False), None, [I64_MIN, I64_MAX, 7], (7, I64_MIN)),
    ("UINT_8", Type.INT32, None, CT.UINT_8, [255, 0, 128, 127], (0, 255)),
    ("UINT_16", Type.INT32, None, CT.UINT_16, [65535, 1, 32768], (1, 65535)),
    ("INT_8", Type.INT32, None, CT.INT_8, [-128, 127, 0], (-128, 127)),
    ("boolean", Type.BOOLEAN, None, None, [True, False, True], (False, True)),
    ("boolean all true", Type.BOOLEAN, None, None, [True, None, True], (True, True)),
    (
        "DATE negative",
        Type.INT32,
        LogicalType(DATE=DateType()),
        None,
        [0, -719162, 2932896],
        (-719162, 2932896),
    ),
    ("TIMESTAMP", Type.INT64, TS_MICROS, None, [-1, I64_MIN, 0], (I64_MIN, 0)),
    (
        "DECIMAL int32",
        Type.INT32,
        decimal(9, 2),
        None,
        [-999999999, 5, 999999999, 0],
        (-999999999, 999999999),
    ),
    ("DECIMAL int64", Type.INT64, None, CT.DECIMAL, [-(10**18) + 1, -1, 10**17], (-(10**18) + 1, 10**17)),
    (
        "DECIMAL flba(4)",
        Type.FIXED_LEN_BYTE_ARRAY,
        decimal(9),
        None,
        [be(1, 4), be(-1, 4), be(2**31 - 1, 4), be(-(2**31), 4), be(0, 4)],
        (be(-(2**31), 4), be(2**31 - 1, 4)),
    ),
    (
        # byte-wise unsigned would put 0xff.. (-1) last; signed puts it before 0.
        "DECIMAL flba(16) mixed sign",
        Type.FIXED_LEN_BYTE_ARRAY,
        decimal(38),
        None,
        [be(-1, 16), be(0, 16), be(10**37, 16), be(-(10**37), 16)],
        (be(-(10**37), 16), be(10**37, 16)),
    ),
    (
        # different lengths: b"\x80\x00" (-32768) < b"\xff" (-1) < b"\x01" < b"\x00\x80" (128)
        "DECIMAL byte_array mixed lengths",
        Type.BYTE_ARRAY,
        decimal(10),
        None,
        [be(128), be(-1), be(1), be(-32768), be(0), be(-(2**40))],
        (be(-(2**40)), be(128)),
    ),
    (
        "DECIMAL byte_array CT",
        Type.BYTE_ARRAY,
        None,
        CT.DECIMAL,
        [b"\x7f", b"\x80", b"\x00\xff", b"\xff\x00"],
        (b"\xff\x00", b"\x00\xff"),
    ),
    ("byte_array high bit", Type.BYTE_ARRAY, None, None, [b"\x80", b"\x7f", b"\xff"], (b"\x7f", b"\xff")),
    (
        "STRING differs in high bits",
        Type.BYTE_ARRAY,
        LogicalType(STRING=StringType()),
        None,
        ["é".encode(), "\U0001f600".encode(), b"\x7f"],
        (b"\x7f", "\U0001f600".encode()),
    ),
    (
        "UTF8 empty string is min",
        Type.BYTE_ARRAY,
        None,
        CT.UTF8,
        [b"a", b"", b"\x00", None, b"ab"],
        (b"", b"ab"),
    ),
    (
        "prefix sorts first",
        Type.BYTE_ARRAY,
        LogicalType(ENUM=EnumType()),
        None,
        [b"abc", b"ab"],
        (b"ab", b"abc"),
    ),
    (
        "flba unsigned",
        Type.FIXED_LEN_BYTE_ARRAY,
        None,
        None,
        [b"\x80\x00", b"\x7f\xff", b"\x00\x01"],
        (b"\x00\x01", b"\x80\x00"),
    ),
    (
        "UUID",
        Type.FIXED_LEN_BYTE_ARRAY,
        LogicalType(UUID=UUIDType()),
        None,
        [b"\xff" * 16, b"\x00" * 16, b"\x7f" + b"\xff" * 15],
        (b"\x00" * 16, b"\xff" * 16),
    ),
    # floats: NaN ignored, -0.0 as min, +0.0 as max
    ("double plain", Type.DOUBLE, None, None, [1.5, -2.5, math.inf, -math.inf], (-math.inf, math.inf)),
    ("double NaN ignored", Type.DOUBLE, None, None, [NAN, 3.0, NAN, -1.0, None], (-1.0, 3.0)),
    ("double all NaN", Type.DOUBLE, None, None, [NAN, None, NAN], None),
    ("double max +0 from -0", Type.DOUBLE, None, None, [-0.0, -5.0], (-5.0, 0.0)),
    ("double min -0 from +0", Type.DOUBLE, None, None, [0.0, 5.0], (-0.0, 5.0)),
    ("double only zeros", Type.DOUBLE, None, None, [0.0, 0.0], (-0.0, 0.0)),
    ("double only -0", Type.DOUBLE, None, None, [-0.0], (-0.0, 0.0)),
    ("float NaN and zero", Type.FLOAT, None, None, [NAN, 0.0, NAN, 2.0], (-0.0, 2.0)),
    ("float only -0", Type.FLOAT, None, None, [-0.0, NAN], (-0.0, 0.0)),
    (
        "FLOAT16",
        Type.FIXED_LEN_BYTE_ARRAY,
        LogicalType(FLOAT16=Float16Type()),
        None,
        [f16(1.0), f16(-65504.0), f16(NAN), f16(0.5), None],
        (f16(-65504.0), f16(1.0)),
    ),
    (
        # byte-wise, f16(-1.0) = 00 bc would sort after f16(2.0) = 00 40
        "FLOAT16 numeric not bytewise",
        Type.FIXED_LEN_BYTE_ARRAY,
        LogicalType(FLOAT16=Float16Type()),
        None,
        [f16(2.0), f16(-1.0), f16(-2.0)],
        (f16(-2.0), f16(2.0)),
    ),
    (
        "FLOAT16 zeros",
        Type.FIXED_LEN_BYTE_ARRAY,
        LogicalType(FLOAT16=Float16Type()),
        None,
        [f16(0.0), f16(0.0)],
        (b"\x00\x80", b"\x00\x00"),
    ),
    (
        "FLOAT16 -0 max",
        Type.FIXED_LEN_BYTE_ARRAY,
        LogicalType(FLOAT16=Float16Type()),
        None,
        [f16(-0.0), f16(-3.0), f16(NAN)],
        (f16(-3.0), b"\x00\x00"),
    ),
    (
        "FLOAT16 all NaN",
        Type.FIXED_LEN_BYTE_ARRAY,
        LogicalType(FLOAT16=Float16Type()),
        None,
        [f16(NAN)],
        None,
    ),
    # undefined orders and empty columns: no statistics
    ("INTERVAL", Type.FIXED_LEN_BYTE_ARRAY, None, CT.INTERVAL, [b"\x01" * 12, b"\x00" * 12], None),
    ("INT96", Type.INT96, None, None, [b"\x00" * 12, b"\xff" * 12], None),
    ("GEOMETRY", Type.BYTE_ARRAY, LogicalType(GEOMETRY=GeometryType()), None, [b"\x01"], None),
    ("all null", Type.INT32, None, None, [None, None], None),
    ("empty", Type.BYTE_ARRAY, None, None, [], None),
]


def _same(actual, expected) -> bool:
    """Equality that also tells -0.0 from +0.0."""
    if isinstance(expected, float):
        return (
            isinstance(actual, float)
            and actual == expected
            and (math.copysign(1.0, actual) == math.copysign(1.0, expected))
        )
    return type(actual) is type(expected) and actual == expected


@pytest.mark.parametrize(
    ("physical", "logical", "converted", "values", "expected"),
    [row[1:] for row in MIN_MAX],
    ids=[row[0] for row in MIN_MAX],
)
def test_min_max(physical, logical, converted, values, expected):
    result = min_max(values, physical, logical, converted)
    if expected is None:
        assert result is None
    else:
        assert result is not None
        assert _same(result[0], expected[0]), result
        assert _same(result[1], expected[1]), result


def test_min_max_accepts_a_generator():
    assert min_max((v for v in [3, None, -2]), Type.INT32) == (-2, 3)


@pytest.mark.parametrize(
    ("physical", "converted"),
    [(Type.INT96, None), (Type.FIXED_LEN_BYTE_ARRAY, CT.INTERVAL)],
    ids=["INT96", "INTERVAL"],
)
def test_sort_key_undefined_raises(physical, converted):
    with pytest.raises(ValueError, match="undefined"):
        sort_key(physical, None, converted)


def test_sort_key_nan_raises_and_zeros_tie():
    key = sort_key(Type.DOUBLE)
    with pytest.raises(ValueError, match="NaN"):
        key(NAN)
    assert key(-0.0) == key(0.0)
    f16_key = sort_key(Type.FIXED_LEN_BYTE_ARRAY, LogicalType(FLOAT16=Float16Type()))
    with pytest.raises(ValueError, match="NaN"):
        f16_key(f16(NAN))
    with pytest.raises(ValueError, match="2 bytes"):
        f16_key(b"\x00")


def test_sort_key_binary_decimal_rejects_empty():
    with pytest.raises(ValueError):
        sort_key(Type.BYTE_ARRAY, decimal(5))(b"")


def test_sort_key_values():
    assert sort_key(Type.INT32, None, CT.UINT_32)(-1) == 2**32 - 1
    assert sort_key(Type.INT64, integer(64, False))(I64_MIN) == 2**63
    assert sort_key(Type.FIXED_LEN_BYTE_ARRAY, decimal(5))(b"\xff\xfe") == -2
    assert sort_key(Type.BYTE_ARRAY)(bytearray(b"\x80")) == b"\x80"


def test_binary_decimal_key_matches_the_spec_recipe_for_fixed_length():
    """LogicalTypes.md 'DECIMAL': flip the first byte's top bit, then compare unsigned."""
    key = sort_key(Type.FIXED_LEN_BYTE_ARRAY, decimal(9))
    values = [be(v, 4) for v in (-(2**31), -300, -1, 0, 1, 255, 256, 2**31 - 1)]
    recipe = sorted(values, key=lambda b: bytes([b[0] ^ 0x80]) + b[1:])
    assert sorted(values, key=key) == recipe == values


# -- properties: sort_key agrees with the natural order of the logical values --


@pytest.mark.parametrize("bits", [8, 16, 32, 64])
@given(data=st.data())
def test_unsigned_key_orders_logical_values(bits, data):
    logical = data.draw(st.lists(st.integers(0, 2**bits - 1), max_size=30))
    physical_bits = 64 if bits == 64 else 32
    physical = Type.INT64 if bits == 64 else Type.INT32
    values = [to_physical(v, physical_bits) for v in logical]
    key = sort_key(physical, integer(bits, False))
    assert [key(v) for v in sorted(values, key=key)] == sorted(logical)
    converted = {8: CT.UINT_8, 16: CT.UINT_16, 32: CT.UINT_32, 64: CT.UINT_64}[bits]
    assert sorted(values, key=sort_key(physical, None, converted)) == sorted(values, key=key)


@given(st.lists(st.integers(-(2**127), 2**127 - 1), max_size=30))
def test_decimal_keys_order_unscaled_values(unscaled):
    flba = [be(v, 16) for v in unscaled]
    binary = [be(v) for v in unscaled]
    flba_key = sort_key(Type.FIXED_LEN_BYTE_ARRAY, decimal(38, 4))
    binary_key = sort_key(Type.BYTE_ARRAY, None, CT.DECIMAL)
    expected = sorted(unscaled)
    assert [int.from_bytes(b, "big", signed=True) for b in sorted(flba, key=flba_key)] == expected
    assert [int.from_bytes(b, "big", signed=True) for b in sorted(binary, key=binary_key)] == expected
    if unscaled:
        low, high = min_max(binary, Type.BYTE_ARRAY, decimal(39))
        assert (binary_key(low), binary_key(high)) == (min(unscaled), max(unscaled))


@given(st.lists(st.integers(I64_MIN, I64_MAX), max_size=30))
def test_decimal_int64_is_signed(unscaled):
    assert sorted(unscaled, key=sort_key(Type.INT64, decimal(18))) == sorted(unscaled)


@given(st.lists(st.text(st.characters(codec="utf-8")), max_size=20))
def test_utf8_byte_order_is_code_point_order(strings):
    encoded = [s.encode() for s in strings]
    key = sort_key(Type.BYTE_ARRAY, LogicalType(STRING=StringType()))
    assert [b.decode() for b in sorted(encoded, key=key)] == sorted(strings)


@given(st.lists(st.floats(width=16, allow_nan=False), min_size=1, max_size=30))
def test_float16_key_orders_numeric_values(numbers):
    encoded = [f16(v) for v in numbers]
    key = sort_key(Type.FIXED_LEN_BYTE_ARRAY, LogicalType(FLOAT16=Float16Type()))
    assert [key(b) for b in sorted(encoded, key=key)] == sorted(numbers)
    low, high = min_max(encoded + [f16(NAN)], Type.FIXED_LEN_BYTE_ARRAY, LogicalType(FLOAT16=Float16Type()))
    assert key(low) == min(numbers) and key(high) == max(numbers)
