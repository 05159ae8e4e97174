"""The column statistics the writer records, per stripe and for the file.

ORCv1.md, 'Column Statistics': "for each column, the writer records the count and
depending on the type other useful fields": number_of_values (the non-null values) and
has_null for every column; for integer kinds the minimum, maximum and sum ("If the sum
overflows long at any point during the calculation, no sum is recorded"); for FLOAT
and DOUBLE the same ("If the sum overflows a double, no sum is recorded"; NaNs are left
out of the minimum and maximum); for strings the minimum, maximum (by UTF-8 bytes) and
the sum of the lengths (in UTF-8 bytes, as ORC's writers count them); for binary the
sum of the lengths; for decimals the minimum, maximum and sum as decimal strings; for
dates the minimum and maximum day as the DATA stream stores it (in a file whose
Footer.calendar is JULIAN_GREGORIAN, the hybrid calendar's day counts, as ORC Java records
them: statistics summarise the stored values, and the text gives them no other calendar);
for timestamps the minimum and maximum instant in
milliseconds (minimum_utc, maximum_utc: "After ORC-135, the timestamp is adjusted to
UTC before being converted to milliseconds", floored) and the nanoseconds beyond those
milliseconds (minimum_nanos, maximum_nanos; orc_proto.proto TimestampStatistics: "store
the lower 6 TS digits for min/max to achieve nanosecond precision"), stored plus one as
ORC Java and ORC C++ both store them (measured: .000766 s beyond a millisecond is
766001), so that the instant is ``utc * 10^6 + nanos - 1``; for booleans ("the count of false and true
values") BucketStatistics holding the count of true values alone, as ORC C++ and Java
write it (ORC C++ readers crash on a BOOLEAN or TIMESTAMP column without these); for
GEOMETRY and GEOGRAPHY (ORCv2.md, 'Column Statistics') the GeospatialStatistics of
``geospatial_statistics`` (a column of nulls only gets the message empty: no box, and
no types, which reads "not known"). The compound kinds get the count and has_null only.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import cast

from reference_impl.orc.columns.calendar import proleptic_to_hybrid
from reference_impl.orc.columns.timestamp_columns import instant_nanos
from reference_impl.orc.geospatial_statistics import geospatial_statistics
from reference_impl.orc.metadata.orc_proto import (
    BinaryStatistics,
    BucketStatistics,
    ColumnStatistics,
    DateStatistics,
    DecimalStatistics,
    DoubleStatistics,
    IntegerStatistics,
    StringStatistics,
    TimestampStatistics,
)
from reference_impl.orc.metadata.proto_enums import CalendarKind, TypeKind
from reference_impl.orc.metadata.type_tree import GEOSPATIAL_KINDS, MAX_DECIMAL_PRECISION, TypeNode

__all__ = ["column_statistics", "decimal_text", "joined_nanos", "split_nanos", "stored_days"]

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1
# Longer minimum or maximum strings are left out (orc_proto.proto message
# StringStatistics: "If the minimum or maximum value was longer than 1024 bytes, store a
# lower or upper bound instead"; this writer stores neither).
MAX_STRING_STATISTIC_BYTES = 1024
DECIMAL_BASE = 10
NANOS_PER_MILLI = 10**6
NANOS_STORED_OFFSET = 1  # TimestampStatistics minimum_nanos / maximum_nanos: the digits plus one
TIMESTAMP_KINDS = frozenset({TypeKind.TIMESTAMP, TypeKind.TIMESTAMP_INSTANT})


def column_statistics(node: TypeNode, values: list[object], has_null: bool,
                      writer_timezone: str, calendar: CalendarKind | None = None) -> ColumnStatistics:
    """The statistics of ``node``'s non-null ``values`` (canonical: proleptic days) in a file
    of ``calendar``."""
    statistics = ColumnStatistics(number_of_values=len(values), has_null=has_null)
    if node.kind == TypeKind.DATE and values:
        days = stored_days(cast(list[int], values), calendar)
        statistics.date_statistics = DateStatistics(minimum=min(days), maximum=max(days))
    elif node.kind == TypeKind.BOOLEAN:
        statistics.bucket_statistics = BucketStatistics(count=[sum(cast(list[bool], values))])
    elif node.kind in TIMESTAMP_KINDS and values:
        _timestamps(node, values, statistics, writer_timezone)
    elif node.kind in GEOSPATIAL_KINDS:
        statistics.geospatial_statistics = geospatial_statistics(
            cast(list[bytes], values), geography=node.kind == TypeKind.GEOGRAPHY)
    elif node.kind in _TYPED and values:
        _TYPED[node.kind](node, values, statistics)
    return statistics


def _timestamps(node: TypeNode, values: list[object], statistics: ColumnStatistics,
                writer_timezone: str) -> None:
    instants = [instant_nanos(node, value, writer_timezone) for value in cast(list[int], values)]
    (low_millis, low_nanos), (high_millis, high_nanos) = (split_nanos(min(instants)),
                                                          split_nanos(max(instants)))
    statistics.timestamp_statistics = TimestampStatistics(
        minimum_utc=low_millis, maximum_utc=high_millis, minimum_nanos=low_nanos, maximum_nanos=high_nanos)


def split_nanos(instant: int) -> tuple[int, int]:
    """An instant in nanoseconds as TimestampStatistics holds it: floored milliseconds and the
    nanoseconds beyond them plus NANOS_STORED_OFFSET (the module docstring)."""
    millis, nanos = divmod(instant, NANOS_PER_MILLI)
    return millis, nanos + NANOS_STORED_OFFSET


def joined_nanos(millis: int, nanos: int) -> int:
    """The instant in nanoseconds that ``split_nanos`` gives (``millis``, ``nanos``) for."""
    return millis * NANOS_PER_MILLI + nanos - NANOS_STORED_OFFSET


def _integers(node: TypeNode, values: list[object], statistics: ColumnStatistics) -> None:
    numbers = cast(list[int], values)
    statistics.int_statistics = IntegerStatistics(minimum=min(numbers), maximum=max(numbers),
                                                  sum=_int64_sum(numbers))


def _int64_sum(numbers: list[int]) -> int | None:
    total = 0
    for number in numbers:
        total += number
        if not INT64_MIN <= total <= INT64_MAX:
            return None
    return total


def _doubles(node: TypeNode, values: list[object], statistics: ColumnStatistics) -> None:
    numbers = [value for value in cast(list[float], values) if not math.isnan(value)]
    statistics.double_statistics = DoubleStatistics(
        minimum=min(numbers, default=None), maximum=max(numbers, default=None),
        sum=_double_sum(numbers))


def _double_sum(numbers: list[float]) -> float | None:
    """The sum, or None where it overflows a double: an infinite value, or partial sums past
    the largest double (fsum's OverflowError; ORC's writers add in order and overflow too)."""
    if not all(math.isfinite(number) for number in numbers):
        return None
    try:
        total = math.fsum(numbers)
    except OverflowError:
        return None
    return total if math.isfinite(total) else None


def _strings(node: TypeNode, values: list[object], statistics: ColumnStatistics) -> None:
    encoded = [value.encode("utf-8") for value in cast(list[str], values)]
    low, high = min(encoded), max(encoded)
    short = len(low) <= MAX_STRING_STATISTIC_BYTES and len(high) <= MAX_STRING_STATISTIC_BYTES
    statistics.string_statistics = StringStatistics(
        minimum=low.decode() if short else None, maximum=high.decode() if short else None,
        sum=sum(len(value) for value in encoded))


def _binary(node: TypeNode, values: list[object], statistics: ColumnStatistics) -> None:
    blobs = cast(list[bytes], values)
    statistics.binary_statistics = BinaryStatistics(sum=sum(len(value) for value in blobs))


def stored_days(days: list[int], calendar: CalendarKind | None) -> list[int]:
    """Proleptic day counts as a file of ``calendar`` stores them (the hybrid calendar's
    counts in a JULIAN_GREGORIAN file, ``columns.calendar``)."""
    if calendar != CalendarKind.JULIAN_GREGORIAN:
        return days
    return [proleptic_to_hybrid(day) for day in days]


def _decimals(node: TypeNode, values: list[object], statistics: ColumnStatistics) -> None:
    unscaled = cast(list[int], values)
    scale = node.scale or 0
    total = sum(unscaled)
    fits = abs(total) < DECIMAL_BASE ** (node.precision or MAX_DECIMAL_PRECISION)
    statistics.decimal_statistics = DecimalStatistics(
        minimum=decimal_text(min(unscaled), scale), maximum=decimal_text(max(unscaled), scale),
        sum=decimal_text(total, scale) if fits else None)


def decimal_text(unscaled: int, scale: int) -> str:
    """``unscaled`` × 10^-``scale`` written out, e.g. (-1234, 2) -> "-12.34"."""
    digits = str(abs(unscaled)).rjust(scale + 1, "0")
    sign = "-" if unscaled < 0 else ""
    return f"{sign}{digits[:-scale]}.{digits[-scale:]}" if scale else f"{sign}{digits}"


_Typed = Callable[[TypeNode, list[object], ColumnStatistics], None]
_TYPED: dict[TypeKind, _Typed] = {
    **dict.fromkeys((TypeKind.BYTE, TypeKind.SHORT, TypeKind.INT, TypeKind.LONG), _integers),
    **dict.fromkeys((TypeKind.FLOAT, TypeKind.DOUBLE), _doubles),
    **dict.fromkeys((TypeKind.STRING, TypeKind.VARCHAR, TypeKind.CHAR), _strings),
    TypeKind.BINARY: _binary,
    TypeKind.DECIMAL: _decimals,
}
