"""What a column's ColumnStatistics are checked against, summarised from its values
(ORCv1.md, 'Column Statistics').

The checks (``statistics_checks``) compare each recorded statistic with a summary of the
values it describes: their count, whether a null is among them, their extremes under the
type's order, their sum. A stripe's values are summarised once and dropped; the file's
statistics (Footer) describe every stripe's values, and are checked against the stripes'
summaries merged in file order, so that ``validate`` holds one stripe at a time
(docs/architecture.md, 'Memory budget'). Merging gives what summarising every value at
once would:

* extremes: the smaller of two minima, the larger of two maxima; of equal ones (0.0 and
  -0.0) the first, as ``min`` over all the values keeps it;
* an integer sum "overflows long at any point during the calculation" (orc_proto.proto,
  IntegerStatistics): the running sum's lowest and highest points are kept with the total,
  and a later part's are shifted by the total before it;
* a double sum is checked against the exact sum of the values (Fractions add exactly);
  each part's exact sum is found with ``math.fsum`` (a correctly rounded sum, then that of
  what it left out, until nothing is: a few doubles), or, should fsum's partial sums pass
  the largest double, with Fractions;
* a decimal sum in a context wide enough for any DECIMAL(38) file (no rounding);
* geospatial values: the parsed geometries themselves, for the box and type checks
  (``reference_impl/common/geospatial_checks.py``) judge each ordinate; a column of such
  values is the one whose summary grows with the file.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from decimal import Context, Decimal, localcontext
from fractions import Fraction
from itertools import accumulate
from typing import Any, cast

from reference_impl.common.geospatial_bounds import parse_values
from reference_impl.common.wkb import Geometry
from reference_impl.orc.column_statistics import INT64_MAX, INT64_MIN, stored_days
from reference_impl.orc.column_values import ColumnValues
from reference_impl.orc.columns.timestamp_columns import instant_nanos
from reference_impl.orc.metadata.proto_enums import CalendarKind, TypeKind
from reference_impl.orc.metadata.type_tree import GEOSPATIAL_KINDS, TypeNode

__all__ = ["EXACT_DIGITS", "ColumnSummary", "DoubleSums", "Extremes", "RunningSum", "merged", "summarise",
           "utf8"]

# Enough digits for any sum of DECIMAL(38) values a file can hold: Python's default
# context (28 digits) would round them.
EXACT_DIGITS = 100
INTEGER_KINDS = (TypeKind.BYTE, TypeKind.SHORT, TypeKind.INT, TypeKind.LONG)
STRING_KINDS = (TypeKind.STRING, TypeKind.VARCHAR, TypeKind.CHAR)
TIMESTAMP_KINDS = (TypeKind.TIMESTAMP, TypeKind.TIMESTAMP_INSTANT)
NO_PARTS = Fraction(0)


@dataclass(frozen=True)
class Extremes:
    """The smallest and largest of some values, as the checks compare them."""

    low: Any
    high: Any

    @classmethod
    def of(cls, keys: list[Any]) -> Extremes | None:
        return cls(min(keys), max(keys)) if keys else None

    def merged(self, later: Extremes) -> Extremes:
        return Extremes(min(self.low, later.low), max(self.high, later.high))


@dataclass(frozen=True)
class RunningSum:
    """A sum added in order: its total and the lowest and highest the running sum reached."""

    total: int
    lowest: int
    highest: int

    @classmethod
    def of(cls, numbers: list[int]) -> RunningSum:
        running = list(accumulate(numbers, initial=0))
        return cls(running[-1], min(running), max(running))

    def merged(self, later: RunningSum) -> RunningSum:
        return RunningSum(self.total + later.total, min(self.lowest, self.total + later.lowest),
                          max(self.highest, self.total + later.highest))

    @property
    def int64_sum(self) -> int | None:
        """The sum ORC records: none when it overflowed a long at any point."""
        return self.total if INT64_MIN <= self.lowest and self.highest <= INT64_MAX else None


@dataclass(frozen=True)
class DoubleSums:
    """What the sum of doubles is checked against: the count of the non-NaN values, whether a
    NaN was among them, the infinities, and the exact sums of the finite values and of their
    magnitudes."""

    count: int
    has_nan: bool
    infinities: frozenset[float]
    exact: Fraction
    magnitude: Fraction

    @classmethod
    def of(cls, values: list[float]) -> DoubleSums:
        finite = [value for value in values if math.isfinite(value)]
        infinities = frozenset(value for value in values if math.isinf(value))
        count = sum(1 for value in values if not math.isnan(value))
        return cls(count, count != len(values), infinities, _exact_sum(finite),
                   _exact_sum([abs(value) for value in finite]))

    def merged(self, later: DoubleSums) -> DoubleSums:
        return DoubleSums(self.count + later.count, self.has_nan or later.has_nan,
                          self.infinities | later.infinities, self.exact + later.exact,
                          self.magnitude + later.magnitude)


def _exact_sum(numbers: list[float]) -> Fraction:
    """The exact sum of finite doubles (the module docstring)."""
    parts: list[float] = []
    try:
        # Exact sums of doubles are multiples of the smallest subnormal: a rest that rounds
        # to zero is zero.
        while part := math.fsum([*numbers, *(-done for done in parts)]):
            parts.append(part)
    except OverflowError:
        return sum(map(Fraction, numbers), NO_PARTS)
    return sum(map(Fraction, parts), NO_PARTS)


@dataclass(frozen=True)
class ColumnSummary:
    """A column's values at one level as its statistics are checked against them; the
    fields its kind has no use for are None."""

    node: TypeNode
    count: int  # non-null values
    has_null: bool
    extremes: Extremes | None = None  # under the kind's order; None without values
    total: Any = None  # lengths, true values, a decimal sum or children, by kind
    running: RunningSum | None = None  # integers
    doubles: DoubleSums | None = None
    geometries: list[Geometry] | None = None  # None: a value of a kind not decoded


def utf8(value: object) -> bytes:
    """A string as ORC's writers compare and measure it."""
    return str(value).encode("utf-8")


def summarise(column: ColumnValues, writer_timezone: str, calendar: CalendarKind | None) -> ColumnSummary:
    """The summary of ``column``'s values, its timestamps' instants taken in ``writer_timezone``
    and its dates' days counted in ``calendar``."""
    base = ColumnSummary(column.node, len(column.values), column.has_null)
    kind = column.node.kind
    typed = _TYPED.get(kind)
    if kind in TIMESTAMP_KINDS:
        instants = [instant_nanos(column.node, cast(int, value), writer_timezone) for value in column.values]
        return replace(base, extremes=Extremes.of(instants))
    if kind == TypeKind.DATE:
        return replace(base, extremes=Extremes.of(stored_days(cast(list[int], column.values), calendar)))
    return base if typed is None else typed(base, column.values)


def _integers(base: ColumnSummary, values: list[Any]) -> ColumnSummary:
    return replace(base, extremes=Extremes.of(values), running=RunningSum.of(values))


def _doubles(base: ColumnSummary, values: list[Any]) -> ColumnSummary:
    numbers = [value for value in values if not math.isnan(value)]
    return replace(base, extremes=Extremes.of(numbers), doubles=DoubleSums.of(values))


def _strings(base: ColumnSummary, values: list[Any]) -> ColumnSummary:
    keys = [utf8(value) for value in values]
    return replace(base, extremes=Extremes.of(keys), total=sum(len(key) for key in keys))


def _binary(base: ColumnSummary, values: list[Any]) -> ColumnSummary:
    return replace(base, total=sum(len(value) for value in values))


def _booleans(base: ColumnSummary, values: list[Any]) -> ColumnSummary:
    return replace(base, total=sum(1 for value in values if value))


def _decimals(base: ColumnSummary, values: list[Any]) -> ColumnSummary:
    node = base.node
    if node.precision is None:  # a Hive 0.11 decimal carries its scale per value: not checked
        return base
    with localcontext(Context(prec=EXACT_DIGITS)):  # no rounding of 38-digit values or their sum
        scale = node.scale or 0
        decimals = [Decimal(value).scaleb(-scale) for value in values]
        return replace(base, extremes=Extremes.of(decimals), total=sum(decimals, Decimal(0)))


def _collections(base: ColumnSummary, values: list[Any]) -> ColumnSummary:
    sizes = [len(value) for value in values]
    return replace(base, extremes=Extremes.of(sizes), total=sum(sizes))


def _geospatial(base: ColumnSummary, values: list[Any]) -> ColumnSummary:
    return replace(base, geometries=parse_values(values))


_TYPED: dict[TypeKind, Callable[[ColumnSummary, list[Any]], ColumnSummary]] = {
    **dict.fromkeys(INTEGER_KINDS, _integers),
    **dict.fromkeys((TypeKind.FLOAT, TypeKind.DOUBLE), _doubles),
    **dict.fromkeys(STRING_KINDS, _strings),
    TypeKind.BINARY: _binary,
    TypeKind.BOOLEAN: _booleans,
    TypeKind.DECIMAL: _decimals,
    **dict.fromkeys((TypeKind.LIST, TypeKind.MAP), _collections),
    **dict.fromkeys(GEOSPATIAL_KINDS, _geospatial),
}


def merged(earlier: ColumnSummary, later: ColumnSummary) -> ColumnSummary:
    """The summary of ``earlier``'s values followed by ``later``'s (the module docstring)."""
    with localcontext(Context(prec=EXACT_DIGITS)):  # a decimal sum stays exact
        total = None if earlier.total is None else earlier.total + later.total
    geometries = (None if earlier.geometries is None or later.geometries is None
                  else earlier.geometries + later.geometries)
    return ColumnSummary(earlier.node, earlier.count + later.count, earlier.has_null or later.has_null,
                         _either(earlier.extremes, later.extremes, Extremes.merged), total,
                         _either(earlier.running, later.running, RunningSum.merged),
                         _either(earlier.doubles, later.doubles, DoubleSums.merged), geometries)


def _either(earlier: Any, later: Any, merge: Callable[[Any, Any], Any]) -> Any:
    """Two parts' fields merged; a part without (no values) leaves the other's."""
    if earlier is None or later is None:
        return later if earlier is None else earlier
    return merge(earlier, later)
