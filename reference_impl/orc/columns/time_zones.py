"""A time zone's offset from UTC at any 64-bit instant, as ORC's readers and writers apply it.

ORCv1.md, 'Timestamp Columns' counts a TIMESTAMP's seconds from 2015-01-01 in the
StripeFooter's ``writerTimezone`` (orc_proto.proto, message StripeFooter) and says
nothing of how a zone's rules apply: the zone database (the system's, through
``zoneinfo``) gives them, with two gaps the text leaves to the implementations
(docs/orc-spec-notes.md, note 13):

* Before the zone's first transition the database gives local mean time (LMT). ORC C++
  (pyorc) and ORC Java (through Spark) apply the offset the first transition leads to
  (the zone's first rule) instead: 1647-06-01 12:00 in America/Los_Angeles is
  -08:00, not LMT's -07:52:58. So does this module, for every instant before it.
* Python's datetime stops at years 1 and 9999. Before year 1 every zone is before its
  first transition; after 9999 the zone's last rule repeats, and the Gregorian
  calendar repeats every 400 years, so an instant is moved back by whole 400-year
  cycles into the years datetime covers, where the rule gives the same offset.
"""

from __future__ import annotations

import datetime
import functools
from zoneinfo import ZoneInfo

__all__ = ["fixed_offset", "utc_offset"]

SECONDS_PER_DAY = 86400
# 400 Gregorian years: 146097 days (the calendar, and so every yearly rule, repeats).
GREGORIAN_CYCLE_SECONDS = 146097 * SECONDS_PER_DAY
UNIX_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)
# The instants datetime can place in any zone (a day inside years 1 and 9999).
FIRST_INSTANT = int((datetime.datetime(1, 1, 2, tzinfo=datetime.UTC) - UNIX_EPOCH).total_seconds())
LAST_INSTANT = int((datetime.datetime(9999, 12, 30, tzinfo=datetime.UTC) - UNIX_EPOCH).total_seconds())
# Where the search for a zone's first transition stops: every zone of the database has
# its first one (the end of LMT) before this year, or none at all (UTC, fixed offsets).
LAST_FIRST_TRANSITION_YEAR = 2100
SEARCH_STEP_SECONDS = 365 * SECONDS_PER_DAY


def _local(zone: ZoneInfo, instant: int) -> datetime.datetime:
    return (UNIX_EPOCH + datetime.timedelta(seconds=instant)).astimezone(zone)


def _offset(zone: ZoneInfo, instant: int) -> int:
    """The database's offset at an instant datetime can place."""
    offset = _local(zone, instant).utcoffset()
    return int(offset.total_seconds()) if offset is not None else 0


def _rule(zone: ZoneInfo, instant: int) -> tuple[object, ...]:
    """What a transition changes: the offset, or only the name (LMT to Moscow's MMT keeps
    the offset, and is still the zone's first transition)."""
    local = _local(zone, instant)
    return local.utcoffset(), local.tzname(), local.dst()


@functools.lru_cache(maxsize=64)
def _first_rule(zone: ZoneInfo) -> tuple[int | None, int]:
    """(the instant of the zone's first transition, the offset it leads to); (None, the
    zone's only offset) for a zone without transitions."""
    local_mean = _rule(zone, FIRST_INSTANT)
    last = int((datetime.datetime(LAST_FIRST_TRANSITION_YEAR, 1, 1, tzinfo=datetime.UTC)
                - UNIX_EPOCH).total_seconds())
    before = FIRST_INSTANT
    while before < last and _rule(zone, before + SEARCH_STEP_SECONDS) == local_mean:
        before += SEARCH_STEP_SECONDS
    after = before + SEARCH_STEP_SECONDS
    if before >= last:
        return None, _offset(zone, FIRST_INSTANT)
    while after - before > 1:  # bisect to the second: the offset changes at ``after``
        middle = (before + after) // 2
        before, after = (middle, after) if _rule(zone, middle) == local_mean else (before, middle)
    return after, _offset(zone, after)


def utc_offset(zone: ZoneInfo, instant: int) -> int:
    """The zone's offset from UTC, in seconds, at ``instant`` (seconds since 1970 UTC)."""
    first_transition, first_offset = _first_rule(zone)
    if first_transition is None or instant < first_transition:
        return first_offset
    if instant > LAST_INSTANT:
        instant -= -(-(instant - LAST_INSTANT) // GREGORIAN_CYCLE_SECONDS) * GREGORIAN_CYCLE_SECONDS
    return _offset(zone, instant)


def fixed_offset(zone: ZoneInfo) -> int | None:
    """The zone's one offset at every instant (UTC, a fixed-offset zone), None if it has
    transitions."""
    first_transition, offset = _first_rule(zone)
    return offset if first_transition is None else None
