"""Flat columns of every physical type, required and optional, with edge values.

Spec: parquet.thrift `enum Type` and `enum FieldRepetitionType`;
Encodings.md "Plain: (PLAIN = 0)"; LogicalTypes.md "STRING",
"Signed Integers", "Unsigned Integers". Every case here is PLAIN, uncompressed,
data page v1: the baseline every implementation must read.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from conformance.values import Field, Schema
from conformance.values import types as T
from conformance.values.codec import int_range
from reference_impl.parquet.metadata.parquet_thrift import Encoding

from ..float_edges import DOUBLE_MIN_SUBNORMAL, FLOAT32_MAX, FLOAT32_MIN_SUBNORMAL, nan_payloads
from ..model import Case, WriteOptions
from .encodings import spec_entry

SPEC_TYPES = "parquet.thrift: enum Type"
SPEC_REPETITION = "parquet.thrift: enum FieldRepetitionType"
SPEC_PLAIN = spec_entry(Encoding.PLAIN)
SPEC_LAYOUT = "README.md: File format"

NANOS_PER_DAY = 86_400 * 10**9


def _float_edges(maximum: float, min_subnormal: float) -> list[float]:
    return [0.0, -0.0, 1.5, -2.25, maximum, -maximum, min_subnormal,
            math.inf, -math.inf, math.nan]


def _int_edges(bits: int, signed: bool) -> list[int]:
    lo, hi = int_range(bits, signed)
    middle = [-1, 0, 1] if signed else [0, 1, 2**(bits - 1)]
    return [lo, *middle, hi]


# Each entry: (case name, canonical type, edge values, spec sections beyond the common ones).
_TYPED_EDGES: list[tuple[str, T.DataType, list[Any], tuple[str, ...]]] = [
    ("boolean", T.boolean(), [True, False, False, True, True], ()),
    ("int32", T.integer(32), _int_edges(32, True), ()),
    ("int64", T.integer(64), _int_edges(64, True), ()),
    ("int8", T.integer(8), _int_edges(8, True), ("LogicalTypes.md: Signed Integers",)),
    ("int16", T.integer(16), _int_edges(16, True), ("LogicalTypes.md: Signed Integers",)),
    ("uint8", T.integer(8, False), _int_edges(8, False), ("LogicalTypes.md: Unsigned Integers",)),
    ("uint16", T.integer(16, False), _int_edges(16, False),
     ("LogicalTypes.md: Unsigned Integers",)),
    ("uint32", T.integer(32, False), _int_edges(32, False),
     ("LogicalTypes.md: Unsigned Integers",)),
    ("uint64", T.integer(64, False), _int_edges(64, False),
     ("LogicalTypes.md: Unsigned Integers",)),
    # INT96 values are nanoseconds since the epoch (Julian day + nanos of day in the file);
    # whole microseconds first, then the nanosecond digits some engines cannot hold.
    ("int96", T.int96(),
     [0, 1_000, -NANOS_PER_DAY, 1_700_000_000_123_456_000, 9_000_000_000_000_000_000],
     ("parquet.thrift: enum Type (INT96, deprecated)",)),
    ("int96-nanos", T.int96(), [1, 999, -1, 1_700_000_000_123_456_789, NANOS_PER_DAY - 1],
     ("parquet.thrift: enum Type (INT96, deprecated)",)),
    ("float", T.floating(32), _float_edges(FLOAT32_MAX, FLOAT32_MIN_SUBNORMAL), ()),
    ("double", T.floating(64), _float_edges(1.7976931348623157e308, DOUBLE_MIN_SUBNORMAL), ()),
    ("float-nan-payloads", T.floating(32), nan_payloads(32), ()),
    ("double-nan-payloads", T.floating(64), nan_payloads(64), ()),
    ("binary", T.binary(), [b"", b"\x00", b"\xff\xfe\x00\x01", b"parquet", bytes(range(256))], ()),
    ("string", T.string(),
     ["", "a", "héllo wörld", "日本語テキスト", "emoji \U0001f389 and \u0000 nul"],
     ("LogicalTypes.md: STRING",)),
    ("fixed4", T.fixed(4), [b"\x00\x00\x00\x00", b"\xff\xff\xff\xff", b"abcd", b"\x80\x00\x00\x01",
                            b"\x7f\xff\xff\xff"], ()),
]


_PORTABLE = ("boolean", "int32", "int64", "float", "double", "binary", "string")


def _with_nulls(values: Sequence[Any]) -> list[Any]:
    """Interleave nulls: first, between every value, and last."""
    out: list[Any] = [None]
    for v in values:
        out += [v, None]
    return out


def _single_column(case_id: str, title: str, t: T.DataType, nullable: bool,
                   values: Sequence[Any], spec: tuple[str, ...],
                   options: WriteOptions | None = None, extra: tuple[str, ...] = ()) -> Case:
    return Case(id=case_id, title=title,
                spec=(SPEC_TYPES, SPEC_REPETITION, SPEC_PLAIN, *spec),
                schema=Schema((Field("value", t, nullable),)),
                rows=tuple((v,) for v in values),
                options=options or WriteOptions(), extra_features=extra)


def _typed_cases() -> list[Case]:
    cases = []
    for name, t, values, spec in _TYPED_EDGES:
        cases.append(_single_column(
            f"physical/{name}-required", f"{t.describe()} REQUIRED, edge values", t, False,
            values, spec))
        cases.append(_single_column(
            f"physical/{name}-optional", f"{t.describe()} OPTIONAL, edge values between nulls", t,
            True, _with_nulls(values), spec))
    return cases


def _shape_cases() -> list[Case]:
    """Table shapes: no rows, one row, all nulls, several row groups, many columns.

    They use the types every engine can write, so that a shape failure is not hidden
    behind an unsupported type.
    """
    portable = [entry for entry in _TYPED_EDGES if entry[0] in _PORTABLE]
    every_type = Schema(tuple(Field(name, t, True) for name, t, _, _ in portable))
    first_values = tuple(values[1] for _, _, values, _ in portable)
    rows_many = [tuple(values[i % len(values)] for _, _, values, _ in portable)
                 for i in range(10)]
    return [
        Case("shape/zero-rows", "common types, no rows at all", (SPEC_TYPES, SPEC_LAYOUT),
             every_type, (), extra_features=("rows:0",)),
        Case("shape/one-row", "common types, a single row", (SPEC_TYPES, SPEC_LAYOUT),
             every_type, (first_values,), extra_features=("rows:1",)),
        _single_column("shape/all-null-int64", "OPTIONAL INT64 where every value is null",
                       T.integer(64), True, [None] * 7, (), extra=("nulls:all",)),
        _single_column("shape/all-null-string", "OPTIONAL STRING where every value is null",
                       T.string(), True, [None] * 7, ("LogicalTypes.md: STRING",),
                       extra=("nulls:all",)),
        Case("shape/row-groups", "common types, 10 rows in row groups of 3 rows",
             (SPEC_TYPES, SPEC_LAYOUT, "README.md: Configurations"),
             every_type, tuple(rows_many), WriteOptions(row_group_size=3)),
    ]


def cases() -> list[Case]:
    return _typed_cases() + _shape_cases()
