"""Cases of ClickHouse's own types written to Parquet by chDB (conformance.cases.native).

Each column is created as a ClickHouse type and written by ClickHouse's Parquet writer;
the rows are the values the file must hold (docs/canonical-values.md), per the Parquet
text for the form ClickHouse's documented type mapping (ClickHouse docs, 'Parquet', data
types matching) gives the type:

- LowCardinality(String) is String: STRING (LogicalTypes.md, 'STRING').
- Array(Nullable(Int32)) is a list of OPTIONAL elements, Map(LowCardinality(String), V) a
  map of STRING keys (LogicalTypes.md, 'Lists', 'Maps').
- Tuple is a group (LogicalTypes.md, 'Nested Types'); an unnamed tuple's elements are
  named by position, "1", "2", ... (measured in ClickHouse's schema; ClickHouse docs
  'Tuple' address unnamed elements by index).
- Int128, UInt128, Int256 and UInt256 are written as "standards-compliant Parquet DECIMAL
  values" with output_format_parquet_wide_integer_as_decimal: DECIMAL(39, 0),
  DECIMAL(77, 0) and DECIMAL(78, 0) on the FIXED_LEN_BYTE_ARRAY that holds those digits
  (LogicalTypes.md, 'DECIMAL': n bytes hold floor(log10(2^(8n-1) - 1)) digits, 17 bytes 40,
  33 bytes 79). By default ClickHouse writes them as unannotated little-endian
  FIXED_LEN_BYTE_ARRAY (the `int128-legacy` case): the integers are lost to every reader,
  which is ClickHouse's finding; the expected values stay the integers.
- Enum8 and Enum16 are ENUM (LogicalTypes.md, 'ENUM': the label's UTF-8 bytes), as
  output_format_parquet_enum_as_byte_array writes them.
- FixedString(n) is FIXED_LEN_BYTE_ARRAY(n) (output_format_parquet_fixed_string_as_
  fixed_byte_array); IPv4 is UInt32: INT(32, false) (LogicalTypes.md, 'Unsigned
  Integers'); IPv6 is FIXED_LEN_BYTE_ARRAY(16), the address in network byte order.
- Date32 is DATE; DateTime64(p, zone) is TIMESTAMP(isAdjustedToUTC=true) of the instant,
  whatever the column's time zone (LogicalTypes.md, 'DATE', 'TIMESTAMP', 'Instant
  semantics (timestamps normalized to UTC)').
- Decimal(76, s) is DECIMAL(76, s) on FIXED_LEN_BYTE_ARRAY(32).
"""

from __future__ import annotations

import ipaddress

from conformance.values import Field
from conformance.values import types as T

from ...model import Case
from ...native_columns import native_cases_of
from ...value_edges import days

ENGINE = "chdb"
DECIMAL_SPEC = "LogicalTypes.md: DECIMAL"
INSTANT_SPEC = "LogicalTypes.md: Instant semantics (timestamps normalized to UTC)"
# ClickHouse docs 'Date32': "Supported range of values: [1900-01-01, 2299-12-31]".
DATE32_FIRST, DATE32_LAST = days(1900, 1, 1), days(2299, 12, 31)
ENUM8_VALUES = 2**8  # Enum8's codes are Int8: every one of them used
ENUM16_VALUES = 1000  # beyond Enum8, within Enum16's Int16
CLICKHOUSE_DECIMAL_MAX_PRECISION = 76  # ClickHouse docs 'Decimal': P from 1 to 76



_case = native_cases_of(ENGINE)

def _ipv6(text: str) -> bytes:
    return ipaddress.IPv6Address(text).packed  # network byte order (RFC 4291 text form)


def _wide(name: str, native: str, bits: int, signed: bool) -> Case:
    """A wide integer column at its extremes, around 2^63 and 2^64, and null."""
    low, high = (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1) if signed else (0, 2**bits - 1)
    values = [low, high, 2**63, 2**64, 0, None, *([-(2**63) - 1] if signed else [2 ** (bits - 1)])]
    precision = len(str(max(abs(low), high)))
    return _case(name, native, f"ClickHouse {native} as DECIMAL({precision}, 0): extremes and "
                 "64-bit boundaries", (DECIMAL_SPEC, "parquet.thrift: struct DecimalType"),
                 T.decimal(precision, 0), values)


def cases() -> list[Case]:
    text = ["", "a\x00b", "\U0010ffff", "e\u0301", "\uffff", "\U00010000", None, "a", "a"]
    labels8 = [f"e{i:03d}" for i in range(ENUM8_VALUES)]
    labels16 = [f"label {i}" for i in range(ENUM16_VALUES)]
    instants = [-1, 0, 1, 1_700_000_000_123_456, -2_208_988_800_000_000, None]  # us
    return [
        _case("low-cardinality", "LowCardinality", "LowCardinality(Nullable(String)): edge "
              "text, repeats, nulls", ("LogicalTypes.md: STRING",), T.string(), text),
        _case("array-of-nullable", "ArrayOfNullable", "Array(Nullable(Int32)): nulls inside, "
              "empty arrays, all-null arrays", ("LogicalTypes.md: Lists",),
              T.list_of(T.integer(32)), [[1, None, 3], [], [None], [None, None],
                                          [-(2**31), 2**31 - 1]], nullable=False),
        _case("tuple", "Tuple", "Tuple(a Nullable(Int32), b Nullable(String)): nulls inside",
              ("LogicalTypes.md: Nested Types",),
              T.struct_of(Field("a", T.integer(32)), Field("b", T.string())),
              [{"a": 1, "b": "x"}, {"a": None, "b": None}, {"a": -(2**31), "b": ""}],
              nullable=False),
        _case("tuple-unnamed", "UnnamedTuple", "Tuple(Nullable(Int64), Nullable(String)): "
              "elements named by position", ("LogicalTypes.md: Nested Types",),
              T.struct_of(Field("1", T.integer(64)), Field("2", T.string())),
              [{"1": 2**63 - 1, "2": "x"}, {"1": None, "2": None}], nullable=False),
        _wide("int128", "Int128", 128, True),
        _wide("uint128", "UInt128", 128, False),
        _wide("int256", "Int256", 256, True),
        _wide("uint256", "UInt256", 256, False),
        _case("int128-legacy", "Int128Legacy", "Int128 in ClickHouse's default form "
              "(unannotated little-endian bytes): the integers are the expected values",
              (DECIMAL_SPEC,), T.decimal(39, 0), [-(2**127), 2**127 - 1, 1, -1, None]),
        _case("enum8", "Enum8", f"Enum8 of all {ENUM8_VALUES} codes, -128 to 127",
              ("LogicalTypes.md: ENUM",), T.enum(), [*labels8, None, labels8[0], labels8[-1]]),
        _case("enum16", "Enum16", f"Enum16 of {ENUM16_VALUES} labels and edge text",
              ("LogicalTypes.md: ENUM",), T.enum(),
              [*labels16, None, *[t for t in text if t not in (None, "")]]),
        _case("fixed-string", "FixedString", "FixedString(3): zero bytes first and last, all "
              "0x00, all 0xFF", ("parquet.thrift: enum Type",), T.fixed(3),
              [b"\x00\x00\x00", b"\xff\xff\xff", b"a\x00\x00", b"\x00\x00a", None, b"abc"]),
        _case("map-low-cardinality-key", "MapLowCardinalityKey", "Map(LowCardinality(String), "
              "Nullable(Int32)): empty maps, null values, empty and NUL keys",
              ("LogicalTypes.md: Maps",), T.map_of(T.string(), T.integer(32)),
              [[("a", 1), ("", None), ("a\x00", -1)], [], [("z", 2**31 - 1)]], nullable=False),
        _case("ipv4", "IPv4", "IPv4 as UInt32: 0.0.0.0, 255.255.255.255 (above the signed "
              "maximum), 127.0.0.1", ("LogicalTypes.md: Unsigned Integers",),
              T.integer(32, signed=False),
              [0, 2**32 - 1, int(ipaddress.IPv4Address("127.0.0.1")), 2**31, None]),
        _case("ipv6", "IPv6", "IPv6 as FIXED_LEN_BYTE_ARRAY(16) in network byte order",
              ("parquet.thrift: enum Type",), T.fixed(16),
              [_ipv6("::"), _ipv6("::1"), _ipv6("2001:db8::ff00:42:8329"),
               _ipv6("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"), _ipv6("::ffff:1.2.3.4"), None]),
        _case("date32", "Date32", "Date32 at its range's ends, around the epoch, a leap day",
              ("LogicalTypes.md: DATE",), T.date(),
              [DATE32_FIRST, DATE32_LAST, -1, 0, 1,
               days(2000, 2, 29), None]),
        _case("datetime64-zone", "DateTime64", "DateTime64(6, 'Asia/Kolkata'): instants "
              "around the epoch and in 1900", ("LogicalTypes.md: TIMESTAMP", INSTANT_SPEC),
              T.timestamp("us", utc=True), instants),
        _case("decimal256", "Decimal256", "Decimal(76, 0) at ClickHouse's maximum precision",
              (DECIMAL_SPEC,), T.decimal(CLICKHOUSE_DECIMAL_MAX_PRECISION, 0),
              [10**76 - 1, -(10**76 - 1), 0, None]),
    ]
