"""ColumnStatistics against the values they summarise (ORCv1.md, 'Column Statistics').

The same checks at every level: the file's statistics (Footer), each stripe's (Metadata)
and each row group's (the row index), each against its values' summary (``column_summary``:
a file's is its stripes' merged). The kinds of finding are listed in ``findings``.
Decisions:

* Bounds are compared under each type's order: integers, dates and decimals by value,
  doubles without NaN (a NaN bound is not a bound of anything, and is not checked: the
  text is silent on NaN),
  strings by their UTF-8 bytes (ORC's writers compare them so), timestamps by the UTC
  instant in milliseconds (``minimumUtc`` / ``maximumUtc``), rounded down.
* A sum of doubles depends on the order of the additions: a recorded sum within the
  rounding of adding the values in any order is true.
* BucketStatistics "include the count of false and true values"; ORC's writers record
  one count, of the true values (``reference_impl/orc/column_statistics.py``): that
  count is checked, a message of another shape is not.
* TimestampStatistics ``minimum_nanos`` / ``maximum_nanos`` ("the lower 6 TS digits for
  min/max to achieve nanosecond precision", orc_proto.proto) with their milliseconds
  make the extreme instant to the nanosecond, as ORC Java and ORC C++ store them: the
  digits plus one (reference_impl/orc/column_statistics.py, ``joined_nanos``).
* ``bytes_on_disk``: the text names the field only. Accepted are the stored bytes of the
  column's streams in the stripe's data area (what ORC Java writes, measured) and of
  all its streams, index streams included; the file's is the stripes' sum. Another
  count is nonconforming, not untrue: no reader decides anything by it. A row group
  has no bytes of its own (its streams are shared with the stripe's other row groups),
  so a row index entry's is not checked.
* Statistics a reader must distrust (``writer_version``) are not checked.
* CollectionStatistics: the text names ``min_children``, ``max_children`` and
  ``total_children`` without saying more, and no reader prunes by them; a count that is
  not the lists' or maps' is nonconforming, not untrue (ORC C++ writes 0 children, ORC
  Java 1,024, measured).
* GeospatialStatistics (ORCv2.md, 'Column Statistics'): the box and the type list
  against the parsed WKB values, by the checks both formats share
  (``reference_impl/common/geospatial_checks.py``, which lists the kinds); values of a
  kind the floor does not decode (curves, surfaces) leave them unjudged. A value that is
  not WKB never gets here: the reader rejects it (``columns/geospatial_columns.py``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any, NamedTuple

from reference_impl.common.geospatial_checks import check_geospatial
from reference_impl.orc.column_statistics import joined_nanos
from reference_impl.orc.metadata.orc_proto import ColumnStatistics
from reference_impl.orc.metadata.proto_enums import CalendarKind, TypeKind
from reference_impl.orc.metadata.type_tree import GEOSPATIAL_KINDS, TypeNode
from reference_impl.orc.validation.column_summary import (
    INTEGER_KINDS,
    STRING_KINDS,
    TIMESTAMP_KINDS,
    ColumnSummary,
    DoubleSums,
    Extremes,
    utf8,
)
from reference_impl.orc.validation.findings import Finding, Place, show
from reference_impl.orc.validation.writer_version import Fix

__all__ = ["StatisticsContext", "StoredBytes", "check_bytes_on_disk", "check_statistics"]

NANOS_PER_MILLI = 10**6
DOUBLE_EPSILON = 2.0**-52
INEXACT = ".inexact"  # a bound that is not the extreme: the kind's last part
# The ColumnStatistics field each type's statistics belong in.
TYPED_FIELD = {
    **dict.fromkeys(INTEGER_KINDS, "int_statistics"),
    **dict.fromkeys((TypeKind.FLOAT, TypeKind.DOUBLE), "double_statistics"),
    **dict.fromkeys(STRING_KINDS, "string_statistics"),
    TypeKind.BOOLEAN: "bucket_statistics",
    TypeKind.DECIMAL: "decimal_statistics",
    TypeKind.DATE: "date_statistics",
    TypeKind.BINARY: "binary_statistics",
    **dict.fromkeys(TIMESTAMP_KINDS, "timestamp_statistics"),
    **dict.fromkeys((TypeKind.LIST, TypeKind.MAP), "collection_statistics"),
    **dict.fromkeys(GEOSPATIAL_KINDS, "geospatial_statistics"),
}
TYPED_FIELDS = frozenset(TYPED_FIELD.values())


@dataclass(frozen=True)
class StatisticsContext:
    """What the checks of one file share: its writer's zone, the fixes it predates and its
    calendar (the day counts its date statistics hold, column_statistics.stored_days)."""

    writer_timezone: str
    fixes: tuple[Fix, ...]
    calendar: CalendarKind | None = None


def check_statistics(recorded: ColumnStatistics, column: ColumnSummary, place: Place,
                     context: StatisticsContext) -> list[Finding]:
    """Every finding about ``recorded``, the statistics of the values ``column`` summarises
    (column_summary.py) at ``place``."""
    findings = _counts(recorded, column, place) + _kind(recorded, column.node, place)
    upper_level = place.row_group is None
    if any(fix.distrusts_bounds(column.node, upper_level) for fix in context.fixes):
        return findings  # writer_version findings say why these are not checked
    check = _TYPED_CHECKS.get(column.node.kind)
    if check is not None:
        findings += check(recorded, column, place)
    return findings


class StoredBytes(NamedTuple):
    """The stored bytes of a column's streams in a stripe's (or every stripe's) two areas."""

    data_area: int
    index_area: int


def check_bytes_on_disk(recorded: ColumnStatistics, stored: StoredBytes, place: Place) -> list[Finding]:
    """``bytes_on_disk`` against the column's ``stored`` bytes (the module docstring)."""
    count = recorded.bytes_on_disk
    if count is None or count in (stored.data_area, stored.data_area + stored.index_area):
        return []
    return [place("statistics.bytes_on_disk",
                  f"bytes_on_disk is {count}; the column's streams store {stored.data_area} bytes in the "
                  f"data area and {stored.index_area} in the index area")]


def _counts(recorded: ColumnStatistics, column: ColumnSummary, place: Place) -> list[Finding]:
    findings = []
    count = column.count
    if recorded.number_of_values is not None and recorded.number_of_values != count:
        findings.append(place("statistics.number_of_values",
                              f"numberOfValues is {recorded.number_of_values}; the column holds {count} "
                              "non-null values"))
    if recorded.has_null is False and column.has_null:
        findings.append(place("statistics.has_null",
                              "hasNull is false, but the column holds a null"))
    return findings


def _kind(recorded: ColumnStatistics, node: TypeNode, place: Place) -> list[Finding]:
    expected = TYPED_FIELD.get(node.kind)
    wrong = sorted(name for name in TYPED_FIELDS if name != expected and getattr(recorded, name) is not None)
    return [place("statistics.kind", f"{name} recorded for a {node.kind.name} column")
            for name in wrong]


def _bounds(place: Place, kind: str, low: object, high: object, actual: Extremes | None,
            key: Callable[[Any], object] = lambda value: value) -> list[Finding]:
    """A recorded minimum and maximum (either may be None) against the ``actual`` extremes
    of the values, a bound compared through ``key``."""
    if actual is None:
        return []
    findings = []
    for name, bound, extreme, outside in (("minimum", low, actual.low, lambda b, e: b > e),
                                          ("maximum", high, actual.high, lambda b, e: b < e)):
        if bound is None:
            continue
        stated = key(bound)
        if outside(stated, extreme):
            side = "above the smallest" if name == "minimum" else "below the largest"
            findings.append(place(f"statistics.{kind}.{name}",
                                  f"the recorded {name} {show(bound)} is {side} value, {show(extreme)}"))
        elif stated != extreme:
            findings.append(place(f"statistics.{kind}{INEXACT}",
                                  f"the recorded {name} {show(bound)} is a bound, not the {name} "
                                  f"{show(extreme)}"))
    return findings


def _sum(place: Place, kind: str, recorded: object, expected: object) -> list[Finding]:
    if recorded is None or recorded == expected:
        return []
    if expected is None:
        return [place(f"statistics.{kind}.sum",
                      f"sum {show(recorded)} recorded, but the sum overflows: no sum is recorded then")]
    return [place(f"statistics.{kind}.sum",
                  f"the recorded sum {show(recorded)} is not {show(expected)}")]


def _integers(recorded: ColumnStatistics, column: ColumnSummary, place: Place) -> list[Finding]:
    stats = recorded.int_statistics
    if stats is None:
        return []
    total = column.running.int64_sum if column.running else 0  # no values: the sum of nothing
    return (_bounds(place, "integer", stats.minimum, stats.maximum, column.extremes)
            + _sum(place, "integer", stats.sum, total))


def _doubles(recorded: ColumnStatistics, column: ColumnSummary, place: Place) -> list[Finding]:
    stats = recorded.double_statistics
    if stats is None:
        return []
    # A NaN bound bounds nothing; ORC's text is silent on NaN (ORC C++ writes one when a
    # NaN comes first), so it is not checked and not a finding.
    low = None if stats.minimum is None or math.isnan(stats.minimum) else stats.minimum
    high = None if stats.maximum is None or math.isnan(stats.maximum) else stats.maximum
    findings = _bounds(place, "double", low, high, column.extremes)
    if stats.sum is not None and column.doubles and not _double_sum_holds(stats.sum, column.doubles):
        findings.append(place("statistics.double.sum",
                              f"the recorded sum {stats.sum!r} is not the sum of the values"))
    return findings


def _double_sum_holds(recorded: float, sums: DoubleSums) -> bool:
    """Whether ``recorded`` is the sum of the values added in some order, with or without
    their NaNs: the text says nothing of NaN, and writers do both (ORC C++ adds them, the
    reference leaves them out as from the bounds)."""
    return (sums.has_nan and math.isnan(recorded)) or _ieee_sum_holds(recorded, sums)


def _ieee_sum_holds(recorded: float, sums: DoubleSums) -> bool:
    """Whether ``recorded`` is the IEEE sum of the non-NaN values added in some order: NaN
    when infinities of both signs meet, an infinity when one is there, else the exact sum
    within the rounding of the additions."""
    if sums.infinities:
        return math.isnan(recorded) if len(sums.infinities) > 1 else recorded in sums.infinities
    if not math.isfinite(recorded):  # finite values whose sum overflowed: none is recorded
        return False
    try:
        exact = float(sums.exact)
        rounding = sums.count * DOUBLE_EPSILON * float(sums.magnitude)
        return abs(recorded - exact) <= rounding
    except OverflowError:  # sums past the largest double: the same test, exactly
        bound = sums.count * Fraction(DOUBLE_EPSILON) * sums.magnitude
        return abs(Fraction(recorded) - sums.exact) <= bound


def _strings(recorded: ColumnStatistics, column: ColumnSummary, place: Place) -> list[Finding]:
    stats = recorded.string_statistics
    if stats is None:
        return []
    findings = _bounds(place, "string", stats.minimum, stats.maximum, column.extremes, utf8)
    # lower_bound and upper_bound are bounds by name: only their side is checked.
    findings += [finding for finding in _bounds(place, "string", stats.lower_bound, stats.upper_bound,
                                                column.extremes, utf8) if not finding.kind.endswith(INEXACT)]
    return findings + _sum(place, "string", stats.sum, column.total)


def _binary(recorded: ColumnStatistics, column: ColumnSummary, place: Place) -> list[Finding]:
    stats = recorded.binary_statistics
    if stats is None:
        return []
    return _sum(place, "binary", stats.sum, column.total)


def _booleans(recorded: ColumnStatistics, column: ColumnSummary, place: Place) -> list[Finding]:
    stats = recorded.bucket_statistics
    if stats is None or len(stats.count) != 1:
        return []
    trues = column.total
    if stats.count[0] == trues:
        return []
    return [place("statistics.boolean.count",
                  f"the recorded count of true values is {stats.count[0]}, not {trues}")]


def _dates(recorded: ColumnStatistics, column: ColumnSummary, place: Place) -> list[Finding]:
    stats = recorded.date_statistics
    if stats is None:
        return []
    return _bounds(place, "date", stats.minimum, stats.maximum, column.extremes)


def _decimal(text: object) -> Decimal:
    try:
        return Decimal(str(text))
    except InvalidOperation:
        return Decimal("NaN")


def _decimals(recorded: ColumnStatistics, column: ColumnSummary, place: Place) -> list[Finding]:
    stats, node = recorded.decimal_statistics, column.node
    if stats is None or node.precision is None:  # a Hive 0.11 decimal carries its scale per value
        return []
    findings = [place(f"statistics.decimal.{name}", f"the recorded {name} {text!r} is not a decimal")
                for name, text in (("minimum", stats.minimum), ("maximum", stats.maximum), ("sum", stats.sum))
                if text is not None and _decimal(text).is_nan()]
    if findings:
        return findings
    findings = _bounds(place, "decimal", stats.minimum, stats.maximum, column.extremes,
                       lambda value: value if isinstance(value, Decimal) else _decimal(value))
    total = column.total
    if stats.sum is not None and _decimal(stats.sum) != total:
        findings.append(place("statistics.decimal.sum",
                              f"the recorded sum {stats.sum!r} is not {total}"))
    return findings


def _timestamps(recorded: ColumnStatistics, column: ColumnSummary, place: Place) -> list[Finding]:
    stats = recorded.timestamp_statistics
    if stats is None or column.extremes is None:
        return []
    # Milliseconds of an instant before 1970: ORC C++ truncates toward zero, the reference
    # floors; the text names neither, so a bound may be either of the extreme's.
    smallest, largest = column.extremes.low, column.extremes.high
    low_ok = {smallest // NANOS_PER_MILLI, _toward_zero(smallest)}
    high_ok = {largest // NANOS_PER_MILLI, _toward_zero(largest)}
    findings = []
    if stats.minimum_utc is not None and stats.minimum_utc not in low_ok:
        findings += _bounds(place, "timestamp", stats.minimum_utc, None, Extremes.of([min(low_ok)]))
    if stats.maximum_utc is not None and stats.maximum_utc not in high_ok:
        findings += _bounds(place, "timestamp", None, stats.maximum_utc, Extremes.of([max(high_ok)]))
    return findings + _bounds(place, "timestamp.nanos", _joined(stats.minimum_utc, stats.minimum_nanos),
                              _joined(stats.maximum_utc, stats.maximum_nanos), column.extremes)


def _joined(millis: int | None, nanos: int | None) -> int | None:
    """The instant in nanoseconds a bound's milliseconds and nanoseconds make, if both are there."""
    return None if millis is None or nanos is None else joined_nanos(millis, nanos)


def _toward_zero(nanos: int) -> int:
    return -(-nanos // NANOS_PER_MILLI) if nanos < 0 else nanos // NANOS_PER_MILLI


def _collections(recorded: ColumnStatistics, column: ColumnSummary, place: Place) -> list[Finding]:
    stats, sizes = recorded.collection_statistics, column.extremes
    if stats is None or sizes is None:
        return []
    findings = []
    for name, stated, actual in (("min_children", stats.min_children, sizes.low),
                                 ("max_children", stats.max_children, sizes.high),
                                 ("total_children", stats.total_children, column.total)):
        if stated is not None and stated != actual:
            findings.append(place(f"statistics.collection.{name}",
                                  f"{name} is {stated}, not {actual}"))
    return findings


def _geospatial(recorded: ColumnStatistics, column: ColumnSummary, place: Place) -> list[Finding]:
    stats = recorded.geospatial_statistics
    if stats is None or column.geometries is None:
        return []
    return check_geospatial(stats.geospatial_types, stats.bbox, column.geometries,
                            column.node.kind == TypeKind.GEOGRAPHY, place)


_Check = Callable[[ColumnStatistics, ColumnSummary, Place], list[Finding]]
_TYPED_CHECKS: dict[TypeKind, _Check] = {
    **dict.fromkeys(INTEGER_KINDS, _integers),
    **dict.fromkeys((TypeKind.FLOAT, TypeKind.DOUBLE), _doubles),
    **dict.fromkeys(STRING_KINDS, _strings),
    TypeKind.BINARY: _binary,
    TypeKind.BOOLEAN: _booleans,
    TypeKind.DATE: _dates,
    TypeKind.DECIMAL: _decimals,
    **dict.fromkeys(TIMESTAMP_KINDS, _timestamps),
    **dict.fromkeys((TypeKind.LIST, TypeKind.MAP), _collections),
    **dict.fromkeys(GEOSPATIAL_KINDS, _geospatial),
}
