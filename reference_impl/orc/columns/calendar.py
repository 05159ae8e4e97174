"""Days before the Gregorian cutover, in the hybrid calendar and the proleptic one.

orc_proto.proto enum CalendarKind: JULIAN_GREGORIAN is "A hybrid Julian/Gregorian
calendar with a cutover point in October 1582", PROLEPTIC_GREGORIAN "A calendar that
extends the Gregorian calendar back forever" (Footer.calendar). The reference's dates
are proleptic: a hybrid day count before 1582-10-15 is a Julian calendar date, read as
the same year-month-day in the proleptic calendar (a Julian February 29 that the
Gregorian calendar lacks becomes March 1), and written back the same way (the ten
proleptic dates 1582-10-05 to 1582-10-14 have no hybrid form and are refused).

Integer day arithmetic on (March-based) calendar eras, for any year, negative included.
"""

from __future__ import annotations

from reference_impl.orc.metadata.proto_enums import CalendarKind

__all__ = ["GREGORIAN_CUTOVER_DAY", "file_calendar", "hybrid_to_proleptic", "proleptic_to_hybrid"]

GREGORIAN_CUTOVER_DAY = -141427  # 1582-10-15, the first Gregorian day, days after 1970-01-01
DAYS_PER_400_YEARS = 146097  # Gregorian era
DAYS_PER_4_YEARS = 1461  # Julian era
DAYS_PER_YEAR = 365
MONTHS_BEFORE_MARCH = 2  # the eras start on March 1, so leap days end them
# Days from 0000-03-01 to 1970-01-01 in each calendar.
GREGORIAN_EPOCH_SHIFT = 719468
JULIAN_EPOCH_SHIFT = 719470


def _day_of_year(month: int, day: int) -> int:
    """Days since March 1 of the March-based year."""
    march_month = month - 3 if month > MONTHS_BEFORE_MARCH else month + 9
    return (153 * march_month + 2) // 5 + day - 1


def _month_day(day_of_year: int) -> tuple[int, int, bool]:
    """(month, day, in the following calendar year) of a March-based day of year."""
    march_month = (5 * day_of_year + 2) // 153
    day = day_of_year - (153 * march_month + 2) // 5 + 1
    month = march_month + 3 if march_month < 10 else march_month - 9
    return month, day, month <= MONTHS_BEFORE_MARCH


def _gregorian_days(year: int, month: int, day: int) -> int:
    year -= month <= MONTHS_BEFORE_MARCH
    era, year_of_era = divmod(year, 400)
    leap_days = year_of_era // 4 - year_of_era // 100
    day_of_era = year_of_era * DAYS_PER_YEAR + leap_days + _day_of_year(month, day)
    return era * DAYS_PER_400_YEARS + day_of_era - GREGORIAN_EPOCH_SHIFT


def _gregorian_date(days: int) -> tuple[int, int, int]:
    era, day_of_era = divmod(days + GREGORIAN_EPOCH_SHIFT, DAYS_PER_400_YEARS)
    # Hinnant's civil_from_days: the leap days before day_of_era, taken off, give whole years.
    leap_days = day_of_era // 1460 - day_of_era // 36524 + day_of_era // 146096
    year_of_era = (day_of_era - leap_days) // DAYS_PER_YEAR
    day_of_year = day_of_era - (DAYS_PER_YEAR * year_of_era + year_of_era // 4 - year_of_era // 100)
    month, day, next_year = _month_day(day_of_year)
    return era * 400 + year_of_era + next_year, month, day


def _julian_days(year: int, month: int, day: int) -> int:
    year -= month <= MONTHS_BEFORE_MARCH
    era, year_of_era = divmod(year, 4)
    day_of_era = year_of_era * DAYS_PER_YEAR + _day_of_year(month, day)
    return era * DAYS_PER_4_YEARS + day_of_era - JULIAN_EPOCH_SHIFT


def _julian_date(days: int) -> tuple[int, int, int]:
    era, day_of_era = divmod(days + JULIAN_EPOCH_SHIFT, DAYS_PER_4_YEARS)
    year_of_era = (day_of_era - day_of_era // (DAYS_PER_4_YEARS - 1)) // DAYS_PER_YEAR
    month, day, next_year = _month_day(day_of_era - DAYS_PER_YEAR * year_of_era)
    return era * 4 + year_of_era + next_year, month, day


def hybrid_to_proleptic(days: int) -> int:
    """A hybrid calendar day count (days after 1970-01-01) as a proleptic one."""
    return days if days >= GREGORIAN_CUTOVER_DAY else _gregorian_days(*_julian_date(days))


def proleptic_to_hybrid(days: int) -> int:
    """A proleptic day count as the hybrid calendar's count of the same year-month-day.

    ValueError for 1582-10-05 to 1582-10-14, the days the hybrid calendar skips.
    """
    if days >= GREGORIAN_CUTOVER_DAY:
        return days
    hybrid = _julian_days(*_gregorian_date(days))
    if hybrid >= GREGORIAN_CUTOVER_DAY:
        raise ValueError(f"day {days} ({'-'.join(map(str, _gregorian_date(days)))}) is not a date of the "
                         f"hybrid Julian/Gregorian calendar")
    return hybrid


def file_calendar(calendar: int | None) -> CalendarKind | None:
    """A Footer.calendar as the CalendarKind it names; None when absent or a number this
    orc_proto.proto does not know (the reader then takes the proleptic calendar)."""
    known = calendar is not None and calendar in CalendarKind._value2member_map_
    return CalendarKind(calendar) if known and calendar is not None else None
