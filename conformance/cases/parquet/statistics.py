"""Column statistics: the sort order of every type, null counts, truncated bounds.

Spec: parquet.thrift `struct Statistics` and the `ColumnOrder` comment (the order
of each type, the NaN and -0.0/+0.0 rules); LogicalTypes.md, the sort order at the
end of each type's section ('Unsigned Integers', 'DECIMAL', 'STRING', 'FLOAT16',
'INTERVAL': undefined).

Every case asks for row-group statistics and carries a predicate whose answer
depends on the order being right: a reader that orders unsigned integers as
signed, binary as signed bytes, or a decimal's bytes as unsigned drops the row
group the predicate needs. Each is written as one row group and one page (the
writer's default encoding), so every writer can write it; the metadata validator
checks each writer's bounds and the filtered reads check each reader's use.
"""

from __future__ import annotations

import math
from typing import Any

from conformance.values import DataType, Field, Schema
from conformance.values import types as T

from ..model import Case, WriteOptions
from ..predicate import Predicate

SPEC = ("parquet.thrift: struct Statistics", "parquet.thrift: union ColumnOrder")
SPEC_UNSIGNED = "LogicalTypes.md: Unsigned Integers"
SPEC_DECIMAL = "LogicalTypes.md: DECIMAL"
SPEC_STRING = "LogicalTypes.md: STRING"
SPEC_FLOAT16 = "LogicalTypes.md: FLOAT16"
SPEC_TEMPORAL = "LogicalTypes.md: Temporal Types"
SPEC_INTERVAL = "LogicalTypes.md: INTERVAL"
STATISTICS = WriteOptions(encoding=None, statistics=True)
TRUNCATE_LENGTH = 8


def _case(name: str, title: str, t: DataType, values: list[Any], predicate: Predicate | None,
          spec: tuple[str, ...] = (), options: WriteOptions = STATISTICS) -> Case:
    return Case(id=f"statistics/{name}", title=title, spec=SPEC + spec,
                schema=Schema((Field("x", t, True),)), rows=tuple((v,) for v in values),
                options=options, predicate=predicate)


def _where(op: str, value: Any = None) -> Predicate:
    return Predicate("x", op, value)


def cases() -> list[Case]:
    return [*_integer_cases(), *_decimal_cases(), *_float_cases(), *_binary_cases(),
            *_other_cases()]


def _integer_cases() -> list[Case]:
    cases = [
        _case("int32-signed", "INT32 of both signs and its extremes", T.integer(32),
              [5, -(2**31), 2**31 - 1, -1, 0, None], _where("<", 0)),
        _case("int64-signed", "INT64 of both signs and its extremes", T.integer(64),
              [5, -(2**63), 2**63 - 1, -1, 0, None], _where(">", 5)),
    ]
    for bits in (8, 16, 32, 64):
        top = 2**bits - 1
        cases.append(_case(
            f"uint{bits}-extremes",
            f"UINT_{bits}: values above the signed maximum sort last (unsigned order)",
            T.integer(bits, signed=False), [0, 1, 2 ** (bits - 1), top, None],
            _where(">", 2 ** (bits - 1) - 1), (SPEC_UNSIGNED,)))
    return cases


def _decimal_cases() -> list[Case]:
    values = [12_345, -12_345, 0, -1, 1, None, -99_999, 99_999]
    return [
        _case(f"decimal-{physical.lower()}-mixed-sign",
              f"DECIMAL(9,2) on {physical}, negative and positive: signed order of the value",
              T.decimal(9, 2, physical), values, _where("<", 0), (SPEC_DECIMAL,))
        for physical in ("INT32", "INT64", "FIXED_LEN_BYTE_ARRAY", "BYTE_ARRAY")
    ]


def _float_cases() -> list[Case]:
    values = [1.5, -0.0, 0.0, math.nan, -2.25, None, 3.0]
    return [
        *(_case(f"float{bits}-nan-signed-zero",
                f"FLOAT{bits}: NaN stays out of the bounds, -0.0 is the min and +0.0 the max "
                "when zero is an extreme",
                T.floating(bits), values, _where("<=", 0.0))
          for bits in (32, 64)),
        _case("float-zeros-only", "only -0.0 and +0.0: min must be -0.0, max +0.0",
              T.floating(64), [0.0, -0.0, 0.0], _where("==", 0.0)),
        _case("float-nan-only", "only NaN: no bounds may be written",
              T.floating(64), [math.nan, math.nan, None], _where("<", 1.0)),
        _case("float16-signed-zero", "FLOAT16 with -0.0/+0.0 and NaN", T.floating(16),
              [1.5, -0.0, math.nan, -2.25, None], None, (SPEC_FLOAT16,)),
    ]


def _binary_cases() -> list[Case]:
    return [
        _case("string-unsigned-bytes",
              "STRING: the empty string first, multi-byte UTF-8 after ASCII (unsigned bytes)",
              T.string(), ["b", "", "é", "z", "日本", None, "a"], _where(">=", "é"), (SPEC_STRING,)),
        _case("binary-high-bit", "BINARY values that differ only in the high bit: 0x81 > 0x01",
              T.binary(), [b"\x01", b"\x81", b"\x7f", b"", b"\xff\xff", None],
              _where(">", b"\x7f")),
        _case("fixed-high-bit", "FIXED_LEN_BYTE_ARRAY(2) differing in the high bit", T.fixed(2),
              [b"\x01\x00", b"\x81\x00", b"\x00\xff", None], _where("<", b"\x80\x00")),
        _case("string-truncated-bounds",
              f"long strings with bounds truncated to {TRUNCATE_LENGTH} bytes: the max must "
              "stay an upper bound", T.string(),
              ["prefix-" + c * 40 for c in "amz"] + ["\U0010ffff" * 4, None],
              _where(">=", "prefix-z"), (SPEC_STRING,),
              WriteOptions(encoding=None, statistics=True,
                           statistics_truncate_length=TRUNCATE_LENGTH)),
    ]


def _other_cases() -> list[Case]:
    return [
        _case("date", "DATE before and after the epoch", T.date(), [-1, 19_000, 0, None, -719_162],
              _where("<", 0), (SPEC_TEMPORAL,)),
        _case("timestamp-micros", "TIMESTAMP(MICROS) before and after the epoch",
              T.timestamp("us"), [-1, 1_700_000_000_000_000, 0, None], _where(">=", 0),
              (SPEC_TEMPORAL,)),
        _case("boolean", "BOOLEAN: false < true", T.boolean(), [True, True, None, True],
              _where("==", False)),
        _case("all-null", "a column of nulls only: null_count, no bounds", T.integer(32),
              [None, None, None], _where("is_not_null")),
        _case("interval-undefined-order", "INTERVAL: its order is undefined, no min/max",
              T.interval(), [(1, 2, 3), (0, 0, 0), None], None, (SPEC_INTERVAL,)),
    ]
