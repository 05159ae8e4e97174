"""Flat columns of every ORC type, with edge values, with and without nulls, and table
shapes (no rows, one row, all nulls).

Spec: ORCv1.md, 'Type Information' and the column sections of 'Column Encodings';
orc_proto.proto ``enum Type.Kind``. Every case is uncompressed, file version 0.12 and
leaves every other knob to the writer: the baseline every implementation must read.

An ORC column has no REQUIRED form: every column may hold nulls (a PRESENT stream, left
out of a stripe where all values are present), so each type is a case without nulls and
a case with nulls between its values.

The root (type 0) may be of any kind ('Type Information' fixes only its id): the
`root-*` cases write their one column as the root itself (OrcWriteOptions.bare_root),
nulls included, and every reader names it ROOT_COLUMN.
"""

from __future__ import annotations

import datetime as dt
import math
import struct
from collections.abc import Sequence
from typing import Any

from conformance.values import DataType, Field, Schema
from conformance.values.codec import int_range

from ..float_edges import DOUBLE_MIN_SUBNORMAL, FLOAT32_MAX, FLOAT32_MIN_SUBNORMAL, nan_payloads
from ..model import Case
from ..value_edges import days
from . import sections as S
from . import types as T
from .options import ROOT_COLUMN, OrcWriteOptions

AREA = "orc/types"
COLUMN = "value"
EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
NANOS_PER_SECOND = 10**9
INT64_MIN, INT64_MAX = int_range(64, True)
DOUBLE_MAX = 1.7976931348623157e308


def single_column(case_id: str, title: str, t: DataType, values: Sequence[Any],
                  spec: Sequence[str], options: OrcWriteOptions | None = None,
                  extra: tuple[str, ...] = (), name: str = COLUMN) -> Case:
    """An ORC case of one column, named ``value`` unless ``name`` says otherwise."""
    return Case(id=case_id, title=title, spec=tuple(spec),
                schema=Schema((Field(name, t),)), rows=tuple((v,) for v in values),
                options=options or OrcWriteOptions(), extra_features=extra, format="orc")


def with_nulls(values: Sequence[Any]) -> list[Any]:
    """Nulls first, between every two values and last: PRESENT runs of one bit."""
    out: list[Any] = [None]
    for v in values:
        out += [v, None]
    return out


def nanos(year: int, month: int, day: int, hour: int = 0, minute: int = 0, second: int = 0,
          fraction: int = 0) -> int:
    """Nanoseconds since the epoch of a date and time, ``fraction`` in nanoseconds."""
    moment = dt.datetime(year, month, day, hour, minute, second, tzinfo=dt.UTC)
    return (moment - EPOCH) // dt.timedelta(seconds=1) * NANOS_PER_SECOND + fraction


def _float_bits(fmt: str, bits: int) -> float:
    width = struct.calcsize(fmt)
    return float(struct.unpack(fmt, bits.to_bytes(width, "little"))[0])


def _int_edges(bits: int) -> list[int]:
    lo, hi = int_range(bits, True)
    return [lo, lo + 1, -1, 0, 1, hi - 1, hi]


def _float_edges(fmt: str, maximum: float, min_subnormal: float, max_subnormal: int,
                 min_normal: int) -> list[float]:
    return [0.0, -0.0, 1.5, -2.25, maximum, -maximum, min_subnormal, -min_subnormal,
            _float_bits(fmt, max_subnormal), _float_bits(fmt, min_normal),
            math.inf, -math.inf, math.nan]


# Unscaled values: 38 digits both ways and the 64-bit boundaries, which readers holding
# small decimals in an int64 cross.
_DECIMAL_38 = [0, 1, -1, 10**38 - 1, -(10**38 - 1), INT64_MAX, INT64_MIN, INT64_MAX + 1,
               INT64_MIN - 1, 2**64, 10**18, -(10**18)]

_DATES = [0, -1, 1, days(1582, 10, 15), days(1582, 10, 14), days(1582, 10, 4),
          days(1000, 3, 1), days(1, 1, 1), days(1900, 1, 1), days(2015, 1, 1),
          days(2038, 1, 19), days(9999, 12, 31)]

# ORCv1.md, 'Timestamp Columns': seconds since 2015 in DATA, nanoseconds in SECONDARY with
# trailing zeros cut. Before 1970 a negative second and a positive fraction meet.
_TIMESTAMP_FRACTIONS = [0, -1, -999_999_999, -NANOS_PER_SECOND, -NANOS_PER_SECOND - 1,
                        -1_500_000_000, 1, 999_999_999, 1_000, 100_000, 120_000_000,
                        nanos(1969, 7, 20, 20, 17, 40, 123_456_789),
                        nanos(1969, 12, 31, 23, 59, 59, 1)]
# Before the Gregorian reform (1582-10-15) and past 64-bit nanoseconds both ways: ORC holds
# 64-bit seconds, and the canonical count follows (docs/canonical-values.md, 'ORC').
_TIMESTAMP_BEFORE_1582 = [nanos(1582, 10, 15), nanos(1582, 10, 14, 12, 0, 0, 500_000_000),
                          nanos(1500, 1, 1), nanos(1000, 3, 1, 1, 2, 3, 999_999_999),
                          nanos(1, 1, 1), nanos(3000, 1, 1), nanos(9999, 12, 31, 23, 59, 59, 999_999_999)]
# Far from 2015 both ways, up to the ends of 64-bit nanoseconds (1677 and 2262), where a
# reader computing seconds x 10^9 in 64 bits overflows.
_TIMESTAMP_FAR = [INT64_MIN, nanos(1700, 1, 1), nanos(1900, 1, 1, fraction=1),
                  nanos(2015, 1, 1) - 1, nanos(2015, 1, 1),
                  nanos(2100, 12, 31, 23, 59, 59, 999_999_999), INT64_MAX]

# Each entry: (name, type, edge values, the sections beyond 'Type Information').
_TYPED_EDGES: list[tuple[str, DataType, list[Any], tuple[str, ...]]] = [
    ("boolean", T.boolean(), [True, False, False, True, True, True, False],
     (S.BOOLEAN_COLUMNS, S.BOOLEAN_RLE)),
    ("tinyint", T.integer(8), _int_edges(8), (S.TINYINT_COLUMNS, S.BYTE_RLE)),
    ("smallint", T.integer(16), _int_edges(16), (S.INTEGER_COLUMNS, S.INTEGER_RLE_V2)),
    ("int", T.integer(32), _int_edges(32), (S.INTEGER_COLUMNS, S.INTEGER_RLE_V2)),
    ("bigint", T.integer(64), _int_edges(64), (S.INTEGER_COLUMNS, S.INTEGER_RLE_V2)),
    ("float", T.floating(32),
     _float_edges("<f", FLOAT32_MAX, FLOAT32_MIN_SUBNORMAL, 0x007FFFFF, 0x00800000),
     (S.FLOAT_COLUMNS,)),
    ("double", T.floating(64),
     _float_edges("<d", DOUBLE_MAX, DOUBLE_MIN_SUBNORMAL, 0x000FFFFFFFFFFFFF, 0x0010000000000000),
     (S.FLOAT_COLUMNS,)),
    ("string", T.string(),
     ["", "a", "héllo wörld", "日本語テキスト", "emoji \U0001f389 and \u0000 nul", "trailing ",
      "   "], (S.STRING_COLUMNS,)),
    # CHAR and VARCHAR lengths count UTF-8 characters (ORCv1.md, 'Type Information'), so
    # multi-byte values are longer in bytes than the declared length.
    ("char", T.char(5), ["abc  ", "     ", "héllo", "日本語  ", "\U0001f389    "],
     (S.STRING_COLUMNS,)),
    ("varchar", T.varchar(5), ["", "a", "abcde", "日本語テキ", "\U0001f389\U0001f389"],
     (S.STRING_COLUMNS,)),
    ("binary", T.binary(), [b"", b"\x00", b"\xff\xfe\x00\x01", b"orc", bytes(range(256))],
     (S.BINARY_COLUMNS,)),
    ("decimal-38-0", T.decimal(38, 0), _DECIMAL_38, (S.DECIMAL_COLUMNS,)),
    ("decimal-38-38", T.decimal(38, 38), _DECIMAL_38, (S.DECIMAL_COLUMNS,)),
    ("decimal-18-6", T.decimal(18, 6), [0, 1, -1, 10**18 - 1, -(10**18 - 1), 10**6],
     (S.DECIMAL_COLUMNS,)),
    ("decimal-10-2", T.decimal(10, 2), [0, 1, -1, 10**10 - 1, -(10**10 - 1), 12_345, -5],
     (S.DECIMAL_COLUMNS,)),
    ("date", T.date(), _DATES, (S.DATE_COLUMNS, S.CALENDAR)),
    ("timestamp-fractions", T.timestamp(), _TIMESTAMP_FRACTIONS, (S.TIMESTAMP_COLUMNS,)),
    ("timestamp-far", T.timestamp(), _TIMESTAMP_FAR, (S.TIMESTAMP_COLUMNS, S.CALENDAR)),
    ("timestamp-before-1582", T.timestamp(), _TIMESTAMP_BEFORE_1582,
     (S.TIMESTAMP_COLUMNS, S.CALENDAR)),
    ("timestamp-instant-fractions", T.timestamp_instant(), _TIMESTAMP_FRACTIONS,
     (S.TIMESTAMP_COLUMNS,)),
    ("timestamp-instant-far", T.timestamp_instant(), _TIMESTAMP_FAR,
     (S.TIMESTAMP_COLUMNS, S.CALENDAR)),
    ("timestamp-instant-before-1582", T.timestamp_instant(), _TIMESTAMP_BEFORE_1582,
     (S.TIMESTAMP_COLUMNS, S.CALENDAR)),
]

# NaNs differing in sign, quiet bit and payload: a writer or reader that rewrites one is seen.
_NAN_PAYLOADS = [("float-nan-payloads", T.floating(32), nan_payloads(32)),
                 ("double-nan-payloads", T.floating(64), nan_payloads(64))]


def _spec(extra: Sequence[str]) -> tuple[str, ...]:
    return (S.TYPE_INFORMATION, S.TYPE_KIND, *extra)


def _typed_cases() -> list[Case]:
    cases, with_null_cases, kinds_with_nulls = [], [], set()
    for name, t, values, spec in _TYPED_EDGES:
        kind = T.orc_kind(t)
        cases.append(single_column(f"{AREA}/{name}", f"{kind} edge values, no nulls", t, values,
                                   _spec(spec)))
        # Nulls once per ORC kind: the PRESENT stream is the same for every value range.
        if kind not in kinds_with_nulls:
            kinds_with_nulls.add(kind)
            with_null_cases.append(single_column(
                f"{AREA}/{name}-nulls", f"{kind} edge values between nulls", t,
                with_nulls(values), _spec(spec)))
    cases += with_null_cases
    for name, t, values in _NAN_PAYLOADS:
        cases.append(single_column(f"{AREA}/{name}", f"{T.orc_kind(t)} NaNs by bit pattern", t,
                                   values, _spec((S.FLOAT_COLUMNS,))))
    return cases


# Types every ORC writer has, so that a shape failure is not hidden behind a type.
_PORTABLE = ("boolean", "int", "bigint", "double", "string", "binary", "decimal-10-2", "date")


def _shape_cases() -> list[Case]:
    portable = [(name, t, values) for name, t, values, _ in _TYPED_EDGES if name in _PORTABLE]
    schema = Schema(tuple(Field(name.replace("-", "_"), t) for name, t, _ in portable))
    first_row = tuple(values[0] for _, _, values in portable)
    spec = (S.TYPE_INFORMATION, S.STRIPES)
    return [
        Case(f"{AREA}/zero-rows", "common types, no rows at all", spec, schema, (),
             OrcWriteOptions(), extra_features=("rows:0",), format="orc"),
        Case(f"{AREA}/one-row", "common types, a single row", spec, schema, (first_row,),
             OrcWriteOptions(), extra_features=("rows:1",), format="orc"),
        single_column(f"{AREA}/all-null-bigint", "LONG where every value is null", T.integer(64),
                      [None] * 7, _spec((S.INTEGER_COLUMNS,)), extra=("nulls:all",)),
        single_column(f"{AREA}/all-null-string", "STRING where every value is null", T.string(),
                      [None] * 7, _spec((S.STRING_COLUMNS,)), extra=("nulls:all",)),
    ]


def _root_cases() -> list[Case]:
    """A root that is not a STRUCT: a primitive and a compound one, each with null rows."""
    bare = OrcWriteOptions(bare_root=True)
    return [
        single_column(f"{AREA}/root-bigint", "a LONG root: each row is one value", T.integer(64),
                      with_nulls(_int_edges(64)), _spec((S.INTEGER_COLUMNS,)), bare,
                      name=ROOT_COLUMN),
        single_column(f"{AREA}/root-list", "a LIST root: each row is one list", T.list_of(T.integer(32)),
                      [[1, None, 3], [], None, [-(2**31)], None], _spec((S.LIST_COLUMNS,)), bare,
                      name=ROOT_COLUMN),
    ]


def cases() -> list[Case]:
    return _typed_cases() + _shape_cases() + _root_cases()
