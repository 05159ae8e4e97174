"""Edge values of the scalar types both formats share: the values implementations get
wrong silently (issue 29), as canonical values (docs/canonical-values.md).

- bytes: empty, all zero, all 0xFF, a zero byte first or last, and values equal but
  in their last byte (a dictionary or a min/max that stops at a zero byte, or compares
  bytes as signed, merges or misorders them);
- text: NUL inside, the largest code points (U+10FFFF, U+FFFF, U+FFFD), a combining
  sequence and its composed form (distinct values: no reader may normalise), and
  strings whose order as UTF-8 bytes (LogicalTypes.md, 'STRING': "unsigned byte-wise
  comparison") differs from their order as UTF-16 units or as signed bytes;
- integers at every width and signedness boundary, the narrower widths' included;
- decimals at the largest and smallest unscaled values of a precision;
- days and instants: the epoch and its neighbours, leap days, years 1, 9999 and beyond
  what Python's datetime holds (year 10000, years before 1), the Gregorian cutover of
  1582-10-15, counted in the proleptic Gregorian calendar the canonical values use
  (LogicalTypes.md, 'TIMESTAMP' counts from the epoch as Java's `Instant.ofEpochMilli`
  and `LocalDateTime.ofEpochSecond` do, which are proleptic).

Neither format owns them: Parquet's edge cases (`conformance.cases.parquet.edge_values`)
and the property strategies (`tests.support.strategies`) draw them; the IEEE 754 edges
are `float_edges`.
"""

from __future__ import annotations

import datetime as dt

from conformance.values import types as T
from conformance.values.codec import int_range

# ---- bytes -------------------------------------------------------------------------

ZERO, FF = b"\x00", b"\xff"
TEXT = b"abc"  # ASCII bytes between the zero bytes of the edges
LAST_BYTE_PREFIX = b"key"
LAST_BYTES = (0x00, 0x01, 0x7F, 0x80, 0xFE, 0xFF)  # both ends, both sides of the sign bit


def last_byte_variants(prefix: bytes) -> list[bytes]:
    """`prefix` ending in each of LAST_BYTES: values equal except in their last byte."""
    return [prefix + bytes([last]) for last in LAST_BYTES]


# Far longer than the other edges, so that it dominates its page (the catalogue's
# edge/binary-longer-than-page goes past the writers' 1 MiB default page size).
LONG_BYTES = b"\xab" * 4096 + ZERO
BYTE_EDGES: tuple[bytes, ...] = (
    b"", ZERO, ZERO * 4, FF, FF * 4,
    ZERO + TEXT, TEXT + ZERO, TEXT + ZERO * 2, ZERO + TEXT + ZERO, TEXT,
    *last_byte_variants(LAST_BYTE_PREFIX),
)


def fixed_edges(length: int) -> list[bytes]:
    """BYTE_EDGES' themes at one FIXED_LEN_BYTE_ARRAY length: all zero, all 0xFF, a zero
    byte first or last, the sign bit set first, values equal but in their last byte."""
    body = (TEXT * length)[:length - 1]
    return list(dict.fromkeys([
        ZERO * length, FF * length, ZERO + body, body + ZERO, b"\x80" + ZERO * (length - 1),
        b"\x7f" + FF * (length - 1), *last_byte_variants(body),
    ]))


# ---- text --------------------------------------------------------------------------

MAX_CODE_POINT = "\U0010ffff"
BMP_MAX = "\uffff"  # the last UTF-16 unit; sorts after every surrogate as UTF-16
REPLACEMENT = "\ufffd"
FIRST_SUPPLEMENTARY = "\U00010000"  # UTF-8 F0 90 80 80 > EF BF BF; UTF-16 D800 DC00 < FFFF
PRIVATE_USE_FIRST = "\ue000"  # after the surrogates: UTF-16 orders it after U+10000
COMPOSED = "\u00e9"  # é; UTF-8 C3 A9, a negative first byte as signed bytes
DECOMPOSED = "e\u0301"  # e + COMBINING ACUTE ACCENT: the same text, another value
NUL_INSIDE = "a\x00b"

STRING_EDGES: tuple[str, ...] = (
    "", "\x00", NUL_INSIDE, "a\x00", "a", "z", "\x7f", "\u0080", COMPOSED, DECOMPOSED,
    REPLACEMENT, PRIVATE_USE_FIRST, BMP_MAX, FIRST_SUPPLEMENTARY, MAX_CODE_POINT,
    BMP_MAX + FIRST_SUPPLEMENTARY, MAX_CODE_POINT * 2,
)


# ---- integers and decimals ---------------------------------------------------------

INT_WIDTHS = (8, 16, 32, 64)


def int_edges(bits: int, signed: bool) -> list[int]:
    """Sorted: the ends of INT(bits, signed) and their neighbours, -1/0/1, and the ends of
    every narrower width (signed and unsigned) with the values just past them; for an
    unsigned type, the values around its signed maximum."""
    lo, hi = int_range(bits, signed)
    edges = {lo, lo + 1, hi - 1, hi, 0, 1} | ({-1} if signed else set())
    for width in (w for w in INT_WIDTHS if w < bits):
        for narrow_signed in (True, False):
            narrow_lo, narrow_hi = int_range(width, narrow_signed)
            edges |= {narrow_lo - 1, narrow_lo, narrow_hi, narrow_hi + 1}
    if not signed:
        signed_max = int_range(bits, True)[1]
        edges |= {signed_max, signed_max + 1, signed_max + 2}
    return sorted(e for e in edges if lo <= e <= hi)


def decimal_edges(precision: int) -> list[int]:
    """Sorted unscaled values: the largest and smallest of `precision` digits and their
    neighbours, the first value of `precision` digits, -1, 0, 1."""
    largest = 10**precision - 1
    first = 10 ** (precision - 1)
    return sorted({-largest, -largest + 1, -first, -1, 0, 1, first, largest - 1, largest})


# ---- days and instants -------------------------------------------------------------

EPOCH = dt.date(1970, 1, 1)
DAYS_PER_400_YEARS = 146_097  # the proleptic Gregorian calendar repeats every 400 years
YEARS_PER_CYCLE = 400
SECONDS_PER_DAY = 86_400


def days(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date of any year (0 is 1 BC,
    -1 is 2 BC), past the years 1 to 9999 Python's `date` holds."""
    cycles = (year - EPOCH.year) // YEARS_PER_CYCLE
    in_range = dt.date(year - cycles * YEARS_PER_CYCLE, month, day)
    return (in_range - EPOCH).days + cycles * DAYS_PER_400_YEARS


GREGORIAN_CUTOVER = days(1582, 10, 15)  # the first Gregorian day
YEAR_10000 = days(10000, 1, 1)
# (label, day): each a date implementations get wrong.
DATE_EDGES: tuple[tuple[str, int], ...] = (
    ("epoch", 0), ("before_epoch", -1), ("after_epoch", 1),
    ("leap_day_2000", days(2000, 2, 29)), ("leap_day_2024", days(2024, 2, 29)),
    ("no_leap_1900", days(1900, 3, 1)), ("last_of_1900_february", days(1900, 2, 28)),
    # The hybrid Julian/Gregorian calendar goes from 1582-10-04 to 1582-10-15: the
    # proleptic days between have no hybrid form (a rebasing writer or reader moves them).
    ("gregorian_cutover", GREGORIAN_CUTOVER), ("hybrid_skipped_day", GREGORIAN_CUTOVER - 1),
    ("hybrid_last_julian_day", days(1582, 10, 4)),
    ("year_1", days(1, 1, 1)), ("year_9999", days(9999, 12, 31)), ("year_10000", YEAR_10000),
    ("year_0", days(0, 12, 31)), ("negative_year", days(-1, 1, 1)),
)
DATE_EDGE_DAYS: dict[str, int] = dict(DATE_EDGES)


def calendar_instants(unit: str) -> list[int]:
    """Sorted counts of `unit` since the epoch: the epoch and its neighbours, the midnight of
    every DATE_EDGES day and the last `unit` before it, whichever INT64 holds
    (TIMESTAMP(NANOS) holds 1677-09-21 to 2262-04-11)."""
    lo, hi = int_range(64, True)
    per_day = SECONDS_PER_DAY * T.UNITS_PER_SECOND[unit]
    edges = {-1, 0, 1}
    for _, day in DATE_EDGES:
        edges |= {day * per_day, day * per_day - 1}
    return sorted(e for e in edges if lo <= e <= hi)


def time_edges(unit: str) -> list[int]:
    """A TIME of `unit`: midnight, the first unit after it, noon, the last unit of the day."""
    per_day = SECONDS_PER_DAY * T.UNITS_PER_SECOND[unit]
    return [0, 1, per_day // 2, per_day - 1]
