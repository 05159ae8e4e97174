"""DATE columns.

ORCv1.md, 'Date Columns': "a DATA stream that records the number of days after January 1,
1970 in UTC": DIRECT (Signed Integer RLE v1) and DIRECT_V2 (v2). Values are proleptic
Gregorian day counts; in a file whose Footer.calendar is JULIAN_GREGORIAN the days
before the cutover are rebased (calendar.py).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from reference_impl.orc.columns.calendar import hybrid_to_proleptic, proleptic_to_hybrid
from reference_impl.orc.columns.column_streams import ColumnOutput, ColumnStreams, WriteSettings
from reference_impl.orc.columns.integer_columns import checked_integers
from reference_impl.orc.columns.present import ColumnReader
from reference_impl.orc.errors import InvalidValue
from reference_impl.orc.metadata.proto_enums import CalendarKind, StreamKind
from reference_impl.orc.metadata.type_tree import TypeNode

__all__ = ["DateReader", "read_days", "same_days", "stored_days", "write_dates"]

DAY_BITS = 32  # orc_proto.proto message DateStatistics holds days as sint32


def read_days(calendar: CalendarKind | None) -> Callable[[int], int]:
    """Stored day count -> proleptic day count, for a file of ``calendar``."""
    return hybrid_to_proleptic if calendar == CalendarKind.JULIAN_GREGORIAN else same_days


def stored_days(calendar: CalendarKind) -> Callable[[int], int]:
    return proleptic_to_hybrid if calendar == CalendarKind.JULIAN_GREGORIAN else same_days


def same_days(days: int) -> int:
    """The day count of a file whose calendar is proleptic Gregorian: unchanged."""
    return days


class DateReader(ColumnReader):
    def __init__(self, streams: ColumnStreams) -> None:
        super().__init__(streams)
        self._data = streams.integers(StreamKind.DATA, signed=True)
        self._days = read_days(streams.calendar)

    def read_values(self, count: int) -> np.ndarray | list[object]:
        days = self._data.read(count)
        return days if self._days is same_days else [self._days(day) for day in days.tolist()]


def write_dates(node: TypeNode, values: list[object], settings: WriteSettings) -> ColumnOutput:
    convert = stored_days(settings.calendar)
    try:
        stored = [convert(days) for days in checked_integers(node, values, DAY_BITS)]
    except ValueError as error:
        raise InvalidValue(f"{node.describe()}: {error}") from error
    days = checked_integers(node, list(stored), DAY_BITS)
    return ColumnOutput(settings.direct, {StreamKind.DATA: settings.integers(days, signed=True)})
