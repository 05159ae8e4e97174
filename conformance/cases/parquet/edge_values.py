"""Edge values of every Parquet type, in statistics-bearing row groups (issue 29, item 1).

Spec: parquet.thrift `enum Type` (each physical type), `struct Statistics` and
`union ColumnOrder` (the order of each type: "unsigned byte-wise comparison" for
binary, signed for INT32/INT64/DATE/TIMESTAMP/DECIMAL, unsigned for the unsigned INTs,
the float rules); `struct ColumnIndex` (the page index); LogicalTypes.md, the section of
each annotation ('STRING', 'Signed Integers', 'Unsigned Integers', 'DECIMAL', 'FLOAT16',
'DATE', 'TIMESTAMP'); Encodings.md, 'Dictionary Encoding (PLAIN_DICTIONARY = 2 and
RLE_DICTIONARY = 8)'.

The values are `value_edges` and `float_edges` (shared with the property strategies and
ORC). Each case is one type family and one theme, with many rows and statistics, and a
predicate whose rows only a correctly ordered bound keeps: a writer that orders UTF-8 as
UTF-16 units or bytes as signed, unsigned integers as signed, or flushes subnormals to
zero writes bounds that the validator flags and that make a pruning reader drop rows.
The byte, text and float cases deal their edges into row groups of a few rows with a page
index, so that each group's bounds are a mix of edges; the others are one row group, which
every writer can write (DuckDB cuts row groups in vectors of 2048 rows).
The physical/, logical/ and statistics/ areas hold the ordinary ends of each type; these
add what they lack: zero bytes at either end, last-byte twins, the largest code points,
the narrower widths' boundaries inside wider INTs, decimals at each physical type's
maximum precision at scale 0 and scale = precision, the calendar's edges in every unit
(the INT64 ends of TIMESTAMP are logical/timestamp-*'s and the property strategies'),
subnormals and NaN payloads beside statistics.

Not here, and why:
- a value near the i32 limits of a page (`PageHeader.uncompressed_page_size` and
  `compressed_page_size` are i32, so a page holds at most 2 GiB - 1): every writer and
  reader of the matrix would hold gigabytes per cell, and the expected values (JSON, hex)
  twice that. The longest value here is one byte past the writers' default page size of
  1 MiB (parquet-java's `parquet.page.size`, pyarrow's `data_page_size`): a page that
  must grow past its limit to hold one value, GZIP-compressed (every writer has GZIP) so
  the golden files stay small.
- Spark's `spark.sql.parquet.datetimeRebaseModeInWrite=LEGACY`: it stores dates and
  timestamps before 1582-10-15 as the day count of the hybrid Julian calendar and marks
  the file with its own key-value metadata (`org.apache.spark.legacyDateTime`). That is
  another number than the case's, which LogicalTypes.md 'DATE' ("the number of days from
  the Unix epoch") gives no second reading of; the harness keeps Spark's default
  (CORRECTED: the count as given), and the cases here check that every writer stores,
  and every reader returns, the proleptic count around the cutover.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from conformance.values import DataType, Field, Schema
from conformance.values import types as T
from conformance.values.codec import int_range
from reference_impl.parquet.metadata.parquet_thrift import Encoding, Type
from reference_impl.parquet.schema.type_rules import decimal_max_precision

from ..float_edges import (
    LARGEST_FINITE,
    LARGEST_SUBNORMAL,
    SMALLEST_NORMAL,
    SMALLEST_SUBNORMAL,
    finite_edges,
    nan_payloads,
)
from ..model import Case, WriteOptions
from ..predicate import Predicate
from ..value_edges import (
    BMP_MAX,
    BYTE_EDGES,
    COMPOSED,
    DATE_EDGE_DAYS,
    DECOMPOSED,
    FIRST_SUPPLEMENTARY,
    GREGORIAN_CUTOVER,
    INT_WIDTHS,
    LAST_BYTE_PREFIX,
    MAX_CODE_POINT,
    NUL_INSIDE,
    PRIVATE_USE_FIRST,
    REPLACEMENT,
    STRING_EDGES,
    TEXT,
    YEAR_10000,
    ZERO,
    calendar_instants,
    decimal_edges,
    fixed_edges,
    int_edges,
)
from .encodings import spec_entry

AREA = "edge"
COLUMN = "x"
GROUP_ROWS = 4  # rows per row group: each group's bounds cover a few edges
SPEC_TYPES = "parquet.thrift: enum Type"
SPEC_STATISTICS = ("parquet.thrift: struct Statistics", "parquet.thrift: union ColumnOrder")
SPEC_PAGE_INDEX = "parquet.thrift: struct ColumnIndex"
SPEC_DICTIONARY = spec_entry(Encoding.RLE_DICTIONARY)
SPEC_PAGES = "parquet.thrift: struct PageHeader"
SPEC_INT96 = "parquet.thrift: enum Type (INT96, deprecated)"
SPEC_TIMESTAMP = ("LogicalTypes.md: TIMESTAMP", "LogicalTypes.md: TIMESTAMP, Common considerations")
DEFAULT_PAGE_BYTES = 1 << 20  # parquet-java's and pyarrow's default data page size
FIXED_LENGTH = 4
# FIXED_LEN_BYTE_ARRAY lengths whose largest precision is tried: 1 byte, odd, 8, 16 bytes.
DECIMAL_FIXED_LENGTHS = (1, 5, 8, 16)
DECIMAL_BYTE_ARRAY_PRECISION = 38  # the property strategies' bound, and Arrow's decimal128

# One row group where a predicate's rows need no separate group: every writer can write it
# (DuckDB cuts row groups in 2048-row vectors), and the group's bounds are the type's edges.
STATISTICS = WriteOptions(encoding=None, statistics=True)
INDEXED = WriteOptions(encoding=None, statistics=True, page_index=True, row_group_size=GROUP_ROWS)
DICTIONARY = WriteOptions(encoding="RLE_DICTIONARY", statistics=True, row_group_size=GROUP_ROWS)


def _grouped(groups: Sequence[Sequence[Any]], size: int = GROUP_ROWS) -> list[Any]:
    """The groups' values, each group padded with nulls to `size` rows: one row group each."""
    if max(map(len, groups)) > size:
        raise ValueError(f"a group of more than {size} rows: {groups}")
    return [v for group in groups for v in [*group, *[None] * (size - len(group))]]


def _dealt(values: Sequence[Any]) -> list[Any]:
    """Sorted `values` dealt round-robin into row groups of GROUP_ROWS (padded with nulls):
    each group spans the range, so its bounds are its most distant edges."""
    count = math.ceil(len(values) / GROUP_ROWS)
    return _grouped([values[i::count] for i in range(count)])


def _case(name: str, title: str, t: DataType, values: Sequence[Any], spec: tuple[str, ...],
          options: WriteOptions, predicate: Predicate | None) -> Case:
    return Case(id=f"{AREA}/{name}", title=title, spec=(SPEC_TYPES, *spec),
                schema=Schema((Field(COLUMN, t, True),)), rows=tuple((v,) for v in values),
                options=options, predicate=predicate)


def _where(op: str, value: Any) -> Predicate:
    return Predicate(COLUMN, op, value)


# ---- bytes -------------------------------------------------------------------------

def _byte_cases() -> list[Case]:
    trailing_zero = TEXT + ZERO
    long_value = b"\xab" * DEFAULT_PAGE_BYTES + ZERO  # one byte past the page size, ends in zero
    fixed = fixed_edges(FIXED_LENGTH)
    fixed_trailing_zero = (TEXT * FIXED_LENGTH)[:FIXED_LENGTH - 1] + ZERO
    return [
        _case("binary-statistics", "BYTE_ARRAY: empty, all-zero, all-0xFF, zero bytes first and "
              "last, last-byte twins; statistics and page index; WHERE x > 'abc'", T.binary(),
              _dealt(sorted(BYTE_EDGES)), (*SPEC_STATISTICS, SPEC_PAGE_INDEX), INDEXED,
              _where(">", TEXT)),
        _case("binary-dictionary", "BYTE_ARRAY edges dictionary-encoded: values equal but in "
              "their last byte are distinct entries", T.binary(), _dealt(sorted(BYTE_EDGES)),
              (SPEC_DICTIONARY, *SPEC_STATISTICS), DICTIONARY,
              _where("==", LAST_BYTE_PREFIX + ZERO)),
        _case("fixed-statistics", f"FIXED_LEN_BYTE_ARRAY({FIXED_LENGTH}): all-zero, all-0xFF, zero "
              "bytes first and last, the sign bit, last-byte twins; statistics and page index",
              T.fixed(FIXED_LENGTH), _dealt(sorted(fixed)), (*SPEC_STATISTICS, SPEC_PAGE_INDEX),
              INDEXED, _where(">", fixed_trailing_zero)),
        _case("fixed-dictionary", f"FIXED_LEN_BYTE_ARRAY({FIXED_LENGTH}) edges dictionary-encoded",
              T.fixed(FIXED_LENGTH), _dealt(sorted(fixed)), (SPEC_DICTIONARY, *SPEC_STATISTICS),
              DICTIONARY, _where("==", fixed_trailing_zero)),
        _case("binary-longer-than-page", "BYTE_ARRAY: a value one byte past the default 1 MiB "
              "page size, between short ones, GZIP", T.binary(),
              [b"", long_value, trailing_zero, None, ZERO], (SPEC_PAGES,),
              WriteOptions(encoding=None, codec="GZIP"), None),
    ]


# ---- text --------------------------------------------------------------------------

def _string_cases() -> list[Case]:
    # Row group 2 orders differently as UTF-16 units (U+10000 < U+FFFF) than as UTF-8 bytes
    # (U+E000 < U+10FFFF); row group 5 as signed bytes (U+0080 < 0x7F).
    groups = [
        [BMP_MAX, REPLACEMENT, PRIVATE_USE_FIRST, BMP_MAX + FIRST_SUPPLEMENTARY],
        [MAX_CODE_POINT, FIRST_SUPPLEMENTARY, PRIVATE_USE_FIRST, BMP_MAX],
        ["a", COMPOSED, DECOMPOSED, "z"],
        ["", NUL_INSIDE, "\x00", "a\x00"],
        [MAX_CODE_POINT * 2, "\x7f", "\u0080", "a"],
    ]
    spec = ("LogicalTypes.md: STRING", *SPEC_STATISTICS)
    return [
        _case("string-statistics", "STRING: the largest code points, NUL inside, composed and "
              "decomposed, UTF-8 vs UTF-16 and signed-byte order; statistics and page index; "
              "WHERE x >= U+10000", T.string(), _grouped(groups), (*spec, SPEC_PAGE_INDEX), INDEXED,
              _where(">=", FIRST_SUPPLEMENTARY)),
        _case("string-dictionary", "STRING edges dictionary-encoded: composed and decomposed "
              "text stay two entries; WHERE x == 'e' + U+0301", T.string(),
              _dealt(sorted(STRING_EDGES)), (SPEC_DICTIONARY, *spec), DICTIONARY,
              _where("==", DECOMPOSED)),
    ]


# ---- integers and decimals ---------------------------------------------------------

def _int_case(bits: int, signed: bool) -> Case:
    lo, hi = int_range(bits, signed)
    signed_max = int_range(bits, True)[1]
    name = f"{'' if signed else 'u'}int{bits}"
    section = f"LogicalTypes.md: {'Signed' if signed else 'Unsigned'} Integers"
    # Signed: only the maximum's group answers; unsigned: the values above the signed maximum,
    # which a signed order puts first.
    predicate = _where(">=", hi - 1) if signed else _where(">", signed_max)
    return _case(f"{name}-boundaries", f"INT({bits}, {str(signed).lower()}): [{lo}, {hi}], the "
                 "narrower widths' boundaries inside it, in mixed row groups with statistics",
                 T.integer(bits, signed), _dealt(int_edges(bits, signed)),
                 (section, "parquet.thrift: struct IntType", *SPEC_STATISTICS), STATISTICS, predicate)


def _decimal_case(name: str, title: str, types: Sequence[tuple[str, DataType]]) -> Case:
    """Columns of DECIMAL types, each with its precision's edges; the predicate asks the last
    column for its two largest values."""
    columns = [_dealt(decimal_edges(t.decimal_precision)) for _, t in types]
    last_name, last = types[-1]
    largest = 10**last.decimal_precision - 1
    return Case(id=f"{AREA}/{name}", title=title,
                spec=(SPEC_TYPES, "LogicalTypes.md: DECIMAL", "parquet.thrift: struct DecimalType",
                      *SPEC_STATISTICS),
                schema=Schema(tuple(Field(n, t, True) for n, t in types)),
                rows=tuple(zip(*columns, strict=True)), options=STATISTICS,
                predicate=Predicate(last_name, ">=", largest - 1))


def _decimal_cases() -> list[Case]:
    def both_scales(precision: int, physical: str) -> list[tuple[str, DataType]]:
        return [(f"scale{scale}", T.decimal(precision, scale, physical)) for scale in (0, precision)]

    def fixed(scale_is_precision: bool) -> list[tuple[str, DataType]]:
        out = []
        for length in DECIMAL_FIXED_LENGTHS:
            p = decimal_max_precision(Type.FIXED_LEN_BYTE_ARRAY, length)
            assert p is not None
            out.append((f"len{length}", T.decimal(p, p if scale_is_precision else 0,
                                                  "FIXED_LEN_BYTE_ARRAY", length)))
        return out

    int32_p = decimal_max_precision(Type.INT32, None)
    int64_p = decimal_max_precision(Type.INT64, None)
    assert int32_p is not None and int64_p is not None
    lengths = ", ".join(map(str, DECIMAL_FIXED_LENGTHS))
    return [
        _decimal_case("decimal-int32-max-precision", f"DECIMAL({int32_p}) on INT32 at scale 0 and "
                      f"{int32_p}: the largest and smallest unscaled values", both_scales(int32_p, "INT32")),
        _decimal_case("decimal-int64-max-precision", f"DECIMAL({int64_p}) on INT64 at scale 0 and "
                      f"{int64_p}", both_scales(int64_p, "INT64")),
        _decimal_case("decimal-flba-max-precision-scale0", "DECIMAL on FIXED_LEN_BYTE_ARRAY of "
                      f"{lengths} bytes at each length's largest precision, scale 0", fixed(False)),
        _decimal_case("decimal-flba-max-precision-scale-eq-precision", "DECIMAL on "
                      f"FIXED_LEN_BYTE_ARRAY of {lengths} bytes at each length's largest "
                      "precision, scale = precision", fixed(True)),
        _decimal_case("decimal-byte-array-max-precision", f"DECIMAL({DECIMAL_BYTE_ARRAY_PRECISION}) "
                      f"on BYTE_ARRAY at scale 0 and {DECIMAL_BYTE_ARRAY_PRECISION}",
                      both_scales(DECIMAL_BYTE_ARRAY_PRECISION, "BYTE_ARRAY")),
    ]


# ---- days and instants -------------------------------------------------------------

def _temporal_cases() -> list[Case]:
    int32_lo, int32_hi = int_range(32, True)
    beyond = {"year_10000", "year_0", "negative_year"}
    calendar = sorted(d for label, d in DATE_EDGE_DAYS.items() if label not in beyond)
    outside = sorted({*(DATE_EDGE_DAYS[label] for label in beyond), int32_lo, int32_hi,
                      DATE_EDGE_DAYS["year_1"], DATE_EDGE_DAYS["year_9999"]})
    date_spec = ("LogicalTypes.md: DATE", *SPEC_STATISTICS)
    cases = [
        _case("date-calendar", "DATE: the epoch and its neighbours, leap days, 1900-03-01, "
              "years 1 and 9999, around the Gregorian cutover 1582-10-15 (proleptic)", T.date(),
              _dealt(calendar), date_spec, STATISTICS, _where("<", GREGORIAN_CUTOVER)),
        _case("date-beyond-datetime", "DATE: years 10000, 0 and -1 and the INT32 ends, past "
              "what Python's date holds", T.date(), _dealt(outside), date_spec, STATISTICS,
              _where(">=", YEAR_10000)),
    ]
    for unit in T.TIME_UNITS:
        for utc in (True, False):
            semantics = "utc" if utc else "local"
            cases.append(_case(
                f"timestamp-{unit}-{semantics}", f"TIMESTAMP({unit}, {semantics}): the "
                "epoch's neighbours, each calendar edge's midnight and the unit before it",
                T.timestamp(unit, utc), _dealt(calendar_instants(unit)),
                (*SPEC_TIMESTAMP, *SPEC_STATISTICS), STATISTICS, _where("<", 0)))
    cases.append(_case("int96-calendar", "INT96: the epoch's neighbours, the calendar edges' "
                       "midnights and the nanosecond before",
                       T.int96(), _dealt(calendar_instants("ns")), (SPEC_INT96,),
                       WriteOptions(encoding=None, row_group_size=GROUP_ROWS), None))
    return cases


# ---- floats ------------------------------------------------------------------------

FLOAT_NAMES = {16: "float16", 32: "float", 64: "double"}
FLOAT_GROUP_ROWS = 6  # every NaN payload of float_edges and a number in one row group


def _float_case(bits: int) -> Case:
    edges = finite_edges(bits)
    largest, normal = edges[LARGEST_FINITE], edges[SMALLEST_NORMAL]
    small, large = edges[SMALLEST_SUBNORMAL], edges[LARGEST_SUBNORMAL]
    # Positive subnormals alone (a writer that flushes them to zero has max 0.0), the finite
    # ends, negative subnormals beside both zeros, NaN payloads beside a number.
    groups = [[small, large], [largest, -largest, normal, -normal], [-small, -large, -0.0, 0.0],
              [*nan_payloads(bits), 1.0]]
    spec = (*SPEC_STATISTICS, SPEC_PAGE_INDEX) + (("LogicalTypes.md: FLOAT16",) if bits == 16 else ())
    return _case(f"{FLOAT_NAMES[bits]}-statistics", f"{FLOAT_NAMES[bits].upper()}: subnormals, the "
                 "largest finite values, both zeros, NaN payloads; statistics and page index; "
                 "WHERE x > 0.0", T.floating(bits), _grouped(groups, FLOAT_GROUP_ROWS), spec,
                 replace(INDEXED, row_group_size=FLOAT_GROUP_ROWS),
                 _where(">", 0.0))


def cases() -> list[Case]:
    return [*_byte_cases(), *_string_cases(),
            *(_int_case(bits, signed) for signed in (True, False) for bits in INT_WIDTHS),
            *_decimal_cases(), *_temporal_cases(), *(_float_case(bits) for bits in FLOAT_NAMES)]
