"""Column orders: floating-point statistics under TYPE_ORDER and IEEE_754_TOTAL_ORDER,
and INT96 under INT96_TIMESTAMP_ORDER (parquet-format 2.13 and after).

Spec: parquet.thrift `union ColumnOrder` (the TYPE_ORDER writing and reading rules
for floats, IEEE_754_TOTAL_ORDER, INT96_TIMESTAMP_ORDER, and "If the reader does not
support the value of this union, min and max stats for this column should be
ignored"), `struct Statistics` (`nan_count`), `struct ColumnIndex` (`nan_counts`,
the all-NaN page rules); LogicalTypes.md 'FLOAT16'.

Each float case comes twice over the same rows: once under TYPE_ORDER (every
writer's default; the reference adds `nan_count`, as 2.13 asks), once under
IEEE_754_TOTAL_ORDER (`column_order:IEEE_754_TOTAL_ORDER`, written by the reference
only until a peer measures otherwise). Under the total order the bounds differ from
TYPE_ORDER's exactly where a reader that does not know the order could go wrong: a
chunk of -0.0 only has max -0.0, one of +0.0 only has min +0.0, and an all-NaN chunk
has NaN bounds. Row groups and pages of three rows keep each such run in a chunk and
a page of its own, and the predicates (NaN, -0.0, 0.0 and infinity operands) ask for
exactly those rows: a peer that prunes with statistics it should ignore, or reads
them by the wrong rule, returns fewer rows than the full scan.

The lying case (`lies=("nan_count",)`, reference only) claims no NaN where there
are some: a reader that trusts `nan_count` skips the NaN that satisfies `x != 1.0`.
"""

from __future__ import annotations

import math
from typing import Any

from conformance.values import DataType, Field, Schema
from conformance.values import types as T

from ..model import Case, WriteOptions
from ..predicate import Predicate

SPEC = ("parquet.thrift: union ColumnOrder", "parquet.thrift: struct Statistics",
        "parquet.thrift: struct ColumnIndex")
SPEC_FLOAT16 = "LogicalTypes.md: FLOAT16"
TYPE_ORDER, TOTAL_ORDER, INT96_ORDER = "TYPE_ORDER", "IEEE_754_TOTAL_ORDER", "INT96_TIMESTAMP_ORDER"
CHUNK_ROWS = 3  # rows per row group and per page: each run of equal values is a chunk of its own
NEGATIVE_NAN = -math.nan  # sign bit set: the smallest value of the total order
INT96_NANOS = (-86_400_000_000_001, 0, 1_700_000_000_123_456_789, None, -1, 86_399_999_999_999)

# Rows of one float column, in chunks of CHUNK_ROWS.
ZEROS = [-0.0, -0.0, -0.0, 0.0, 0.0, 0.0, 1.5, math.nan, -2.0]
NANS = [math.nan, math.nan, math.nan, NEGATIVE_NAN, None, math.nan, 1.0, 1.0, 1.0]
INFINITIES = [-math.inf, 1.0, math.inf, math.nan, math.inf, None, -0.0, 2.5, -math.inf]
# A NaN beside a number: bounds min = max = 1.0, and only nan_count tells "!=" to keep the chunk
# (the honest twin of the lying case).
NAN_BESIDE_ONES = [1.0, math.nan, 1.0, 1.0, 1.0, 1.0]
# (dataset, rows, predicates): each predicate's answer depends on one chunk's bounds.
DATASETS: tuple[tuple[str, list[Any], tuple[Predicate, ...]], ...] = (
    ("zeros", ZEROS, (Predicate("x", "==", 0.0), Predicate("x", "==", -0.0),
                      Predicate("x", ">=", 0.0), Predicate("x", "<", 0.0))),
    ("nans", NANS, (Predicate("x", "!=", 1.0), Predicate("x", "==", math.nan),
                    Predicate("x", ">", 0.0), Predicate("x", "!=", math.nan))),
    ("infinities", INFINITIES, (Predicate("x", ">=", math.inf), Predicate("x", "<=", -math.inf),
                                Predicate("x", "==", -0.0))),
    ("nan-beside-ones", NAN_BESIDE_ONES, (Predicate("x", "!=", 1.0),)),
)
FLOAT_BITS = {"double": 64, "float": 32, "float16": 16}
# FLOAT repeats DOUBLE's rules at 32 bits: its NaN dataset is enough; FLOAT16 is its own type.
DATASETS_OF = {"double": ("zeros", "nans", "infinities", "nan-beside-ones"), "float": ("nans",),
               "float16": ("zeros", "nans")}
_PREDICATE_NAMES = {"==": "eq", "!=": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge"}


def _operand(value: float) -> str:
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "neg-inf"
    return f"{'neg-' if math.copysign(1.0, value) < 0 else ''}{abs(value):g}"


def _options(order: str, **changes: Any) -> WriteOptions:
    """Statistics and a page index on chunks of CHUNK_ROWS; `order` named unless TYPE_ORDER,
    every writer's default (so every writer can write the TYPE_ORDER cases)."""
    return WriteOptions(encoding=None, statistics=True, page_index=True, page_row_limit=CHUNK_ROWS,
                        row_group_size=CHUNK_ROWS,
                        column_orders={} if order == TYPE_ORDER else {"x": order}, **changes)


def _float_case(order: str, type_name: str, dataset: str, rows: list[Any], predicate: Predicate) -> Case:
    t: DataType = T.floating(FLOAT_BITS[type_name])
    name = f"{_PREDICATE_NAMES[predicate.op]}-{_operand(predicate.value)}"
    spec = SPEC + ((SPEC_FLOAT16,) if type_name == "float16" else ())
    return Case(id=f"column_orders/{order.lower()}/{type_name}-{dataset}-{name}",
                title=f"{type_name} under {order}: {dataset}, WHERE x {predicate.op} {predicate.value!r}",
                spec=spec, schema=Schema((Field("x", t, True),)), rows=tuple((v,) for v in rows),
                options=_options(order), predicate=predicate)


def _float_cases() -> list[Case]:
    return [_float_case(order, type_name, dataset, rows, predicate)
            for order in (TYPE_ORDER, TOTAL_ORDER)
            for type_name in FLOAT_BITS
            for dataset, rows, predicates in DATASETS if dataset in DATASETS_OF[type_name]
            for predicate in predicates]


def _int96_case() -> Case:
    """INT96 ordered chronologically (days, then nanoseconds, both signed): bounds a reader
    that does not know the order must ignore; the double beside it carries the predicate."""
    rows = tuple((nanos, float(index)) for index, nanos in enumerate(INT96_NANOS))
    return Case(id="column_orders/int96_timestamp_order/int96-before-and-after-epoch",
                title="INT96 under INT96_TIMESTAMP_ORDER, before and after the epoch",
                spec=SPEC, schema=Schema((Field("t", T.int96(), True), Field("x", T.floating(64), True))),
                rows=rows, options=WriteOptions(encoding=None, statistics=True, page_index=True,
                                                column_orders={"t": INT96_ORDER}),
                predicate=Predicate("x", ">=", 2.0))


def _lying_cases() -> list[Case]:
    """Lies under the total order: a reader that acts on them read the bounds or counts of an
    order it may not know ("min and max stats for this column should be ignored")."""
    def case(lie: str, title: str, rows: list[float], predicate: Predicate) -> Case:
        return Case(id=f"column_orders/lying-{lie.replace('_', '-')}", title=f"TEST-ONLY lie: {title}",
                    spec=SPEC, schema=Schema((Field("x", T.floating(64), True),)),
                    rows=tuple((v,) for v in rows), options=_options(TOTAL_ORDER, lies=(lie,)),
                    predicate=predicate)

    return [
        case("nan_count", "nan_count claims no NaN beside bounds min = max = 1.0", NAN_BESIDE_ONES,
             Predicate("x", "!=", 1.0)),
        case("statistics", "under IEEE_754_TOTAL_ORDER, each row group's min claims its max",
             [float(v) for v in range(2 * CHUNK_ROWS)], Predicate("x", "==", 1.0)),
    ]


def cases() -> list[Case]:
    return [*_float_cases(), _int96_case(), *_lying_cases()]
