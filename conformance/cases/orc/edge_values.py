"""Edge values of every ORC type, many rows to a case, where the statistics, row index,
Bloom filters, run length encodings, writer time zone and calendar meet them.

Spec: ORCv1.md, 'Column Encodings' (one section per type), 'Run Length Encoding',
'Column Statistics', 'Indexes', 'Stripes' ('Stripe Footer': writerTimezone) and
'Compression'; orc_proto.proto (authoritative) ``message StringStatistics``,
``StripeFooter.writer_timezone``, ``Footer.calendar`` and ``enum CalendarKind``.
`orc/types/*` (column_types.py) holds each type's edge values once, without nulls and
with; these cases put the edges where structures summarise or encode them:

* bytes and text: values beginning and ending with zero bytes, all-zero and all-0xFF,
  empty, equal but for the last byte (Bloom filters hash the whole value), NUL inside
  text, the largest code points, combining sequences; strings that sort differently as
  UTF-8 bytes (the code point order, 'String, Char, and VarChar Columns': the
  dictionary "is sorted in lexicographical order of bytes in the UTF-8 encodings";
  orc_proto.proto PostScript.writer_version 1: "string statistics use utf8 for
  min/max"), as signed bytes (Java's byte) and as UTF-16 code units (Java's String).
  Each such case has a predicate a reader answers wrongly if it prunes with bounds
  computed in another order; a string maximum past the 1024 bytes StringStatistics
  keeps ("store a lower or upper bound instead"), made of the largest code point;
* a BINARY value longer than a compression chunk (the case's 64 KiB) and than the
  writers' default chunk (ORC C++ 64 KiB, ORC Java 256 KiB; 'Compression'). Bigger
  is out of reach for no gain: a value of 2^31 bytes or more passes Java's arrays and
  Arrow's 32-bit binary offsets, and the golden corpus keeps each value twice per byte
  (hex in expected.json), so the case stays at 256 KiB + 1, compressed (ZLIB);
* integers at every bit width of BYTE, SHORT, INT and LONG (each 2^k - 1, 2^k and
  their negatives: each zigzag width of RLE v2's 'Direct' and each varint length of
  RLE v1), runs at the ends of the range and sequences whose deltas overflow 64 bits,
  in both RLE versions; the LONG sum overflows, so no sum may be recorded;
* decimals at precision 18 and 19 (ORC Java holds precision 18 and less in 64 bits,
  'Decimal Columns'), and 38, at scale 0 and scale = precision, the smallest and
  largest unscaled values and every digit count, in both RLE versions (SECONDARY);
* dates at leap days, years 1, 9999 and beyond, to the 32-bit day counts; dates and
  timestamps around 1582-10-15 in both calendars (``Footer.calendar``); TIMESTAMP
  under writer zones west and east of UTC, at the epoch, at both edges of each
  daylight-saving gap and in both passes of the repeated hour, before the zone's
  standard time and across a zone's change of offset (docs/orc-spec-notes.md, notes 3
  and 13);
* FLOAT and DOUBLE subnormals, largest finite values, both zeros, infinities and NaN
  payloads in row groups of their own, so that a NaN or a signed zero that poisons a
  minimum or maximum makes a reader skip rows (the ``x == 0.0`` predicate).

Canonical values (docs/canonical-values.md, 'ORC'): a TIMESTAMP is the wall clock
written, whatever the writer's zone, and a file's day counts are proleptic whatever its
calendar. A wall clock inside a daylight-saving gap names no instant of the writer's
zone, and a TIMESTAMP is stored as an instant ('Timestamp Columns': seconds after 2015-01-01
in the writer's zone), so no file holds one: the zone cases define each row by an instant
and its wall clock in the zone, and the gap is met by the instants on both of its sides.
Under JULIAN_GREGORIAN the ten days 1582-10-05 to 1582-10-14 do not exist either.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from typing import Any

from conformance.values import DataType, Field, Schema
from conformance.values.codec import float_bits, int_range

from ..float_edges import DOUBLE_MIN_SUBNORMAL, FLOAT32_MAX, FLOAT32_MIN_SUBNORMAL, nan_payloads
from ..model import Case
from ..predicate import Predicate
from ..value_edges import DAYS_PER_400_YEARS, MAX_CODE_POINT, days
from . import sections as S
from . import types as T
from .column_types import DOUBLE_MAX, NANOS_PER_SECOND, nanos
from .indexes import NULL_EVERY, ROWS, STRIDE, STRIPE_ROWS
from .options import CALENDARS, FILE_VERSIONS, OrcWriteOptions

AREA = "orc/edge"
INTEGER_WIDTHS = (8, 16, 32, 64)
LAST_NANO = NANOS_PER_SECOND - 1
SECONDS_PER_MINUTE = 60
NANOS_PER_DAY = 86_400 * NANOS_PER_SECOND
RLE = {"0.11": S.INTEGER_RLE_V1, "0.12": S.INTEGER_RLE_V2}


def _indexed(**options: Any) -> OrcWriteOptions:
    """Two stripes, row groups of STRIDE rows: the layout of `orc/indexes/*`."""
    return OrcWriteOptions(row_index_stride=STRIDE, stripe_row_limit=STRIPE_ROWS, **options)


def _by_row_group(groups: Sequence[Sequence[Any]]) -> list[Any]:
    """ROWS values: row group g cycles through ``groups[g]``; every NULL_EVERY-th a null."""
    values = []
    for i in range(ROWS):
        pool = groups[i // STRIDE]
        values.append(None if i % NULL_EVERY == NULL_EVERY - 1 else pool[i % STRIDE % len(pool)])
    return values


def _id_case(name: str, title: str, t: DataType, values: Sequence[Any], spec: Sequence[str],
             options: OrcWriteOptions, predicate: Predicate | None) -> Case:
    """A case of an ``id`` LONG and the column ``x`` under test."""
    schema = Schema((Field("id", T.integer(64)), Field("x", t)))
    return Case(f"{AREA}/{name}", title, tuple(spec), schema,
                tuple((i, v) for i, v in enumerate(values)), options, format="orc",
                predicate=predicate)


def _table_case(name: str, title: str, columns: Sequence[tuple[str, DataType, Sequence[Any]]],
                spec: Sequence[str], options: OrcWriteOptions | None = None) -> Case:
    """A case of several columns, each cycling through its values to the longest's count."""
    count = max(len(values) for _, _, values in columns)
    schema = Schema(tuple(Field(n, t) for n, t, _ in columns))
    rows = tuple(tuple(values[i % len(values)] for _, _, values in columns) for i in range(count))
    return Case(f"{AREA}/{name}", title, tuple(spec), schema, rows,
                options or OrcWriteOptions(), format="orc")


# ---- bytes ----------------------------------------------------------------------------

_BYTE_PROBE = b"\x00\x00\x00"
# Its neighbours differ only in their last byte or their length.
_BYTE_EDGES = [b"", b"\x00", b"\x00\x00", b"\x00\x00\x01", b"\x00\x00\x00\x00", b"\x00\x00\xff",
               b"\xff", b"\xff" * 3, b"\xff" * 64, bytes(64), b"\x00orc", b"orc\x00", b"orc\x00\x00",
               b"\x00\x00orc\x00\x00", b"key\x00", b"key\x01", b"key\x7f", b"key\x80", b"key\xfe",
               b"key\xff", b"\x80", b"\x7f"]
PROBE_ROW = 1_500  # in the first stripe's second row group


def _binary_bytes() -> Case:
    values = _by_row_group([_BYTE_EDGES] * 3)
    values[PROBE_ROW] = _BYTE_PROBE  # the one row that holds it
    return _id_case("binary-byte-edges", "BINARY values with zero and 0xFF bytes at either end, "
                    "empty, equal but for the last byte, in Bloom filters", T.binary(), values,
                    (S.BINARY_COLUMNS, S.BLOOM_FILTER_INDEX, S.ROW_GROUP_INDEX, S.COLUMN_STATISTICS),
                    _indexed(bloom_filter_columns=("x",)), Predicate("x", "==", _BYTE_PROBE))


LONG_VALUE_BLOCK = 64 * 1024  # the case's compression chunk: a multiple of ORC C++'s 64 KiB
LONG_VALUE_BYTES = 256 * 1024 + 1  # past ORC Java's default chunk of 256 KiB too


def _binary_long() -> Case:
    pattern = bytes(range(256))
    long_value = (pattern * (LONG_VALUE_BYTES // len(pattern) + 1))[:LONG_VALUE_BYTES]
    return _table_case(
        "binary-longer-than-a-chunk", "a BINARY value longer than a compression chunk and the "
        "writers' default chunks, between empty and short values",
        [("x", T.binary(), [b"", long_value, b"\x00", long_value[::-1], b"\xff"])],
        (S.BINARY_COLUMNS, S.COMPRESSION, S.COMPRESSION_BLOCK_SIZE),
        OrcWriteOptions(codec="ZLIB", compression_block_size=LONG_VALUE_BLOCK))


# ---- text -----------------------------------------------------------------------------

COMBINING_ACUTE = "\u0301"
# Past StringStatistics' 1024 bytes, of the one code point that has no successor: a
# writer that keeps an upper bound instead cannot increment its last character.
LONG_MAXIMUM = MAX_CODE_POINT * 300
# The BMP's high characters: after every supplementary one in UTF-8 and code points, before
# them in UTF-16 code units (a supplementary character starts with a surrogate, D800-DFFF).
_HIGH_BMP = ["\ue000", "\uffff", "\ufffd", "\ufb01"]
_SUPPLEMENTARY = ["\U00010000", "\U0001f600", MAX_CODE_POINT, "a\U00010000", LONG_MAXIMUM]
# ASCII and Latin-1: a Latin-1 character's first UTF-8 byte is 0xC2 or 0xC3, negative as a
# Java (signed) byte, so signed order puts "é" before "a".
_ASCII = ["", "\x00", "a\x00b", "\x00\x00", "a", "b", "z", "\x7f", "trailing\x00"]
_LATIN = ["\u0080", "é", "e" + COMBINING_ACUTE, "é" + COMBINING_ACUTE, "Z" + COMBINING_ACUTE * 3,
          "\u1e9b\u0323", "ÿ"]
UTF16_PROBE = "\U00010000"  # x >= it: the supplementary rows (and LONG_MAXIMUM)
SIGNED_PROBE = "b"  # x >= it: "b", "z", "\x7f" and every non-ASCII row


def _string_orders(name: str, title: str, groups: list[list[str]], probe: str,
                   encoding: str) -> Case:
    return _id_case(name, title, T.string(), _by_row_group(groups),
                    (S.STRING_COLUMNS, S.COLUMN_STATISTICS, S.STRING_STATISTICS, S.ROW_GROUP_INDEX,
                     S.BLOOM_FILTER_INDEX, S.COLUMN_ENCODING_KIND),
                    _indexed(bloom_filter_columns=("x",), string_encoding=encoding),
                    Predicate("x", ">=", probe))


def _string_cases() -> list[Case]:
    return [
        # Row group 1 mixes the high BMP and the supplementary planes: by UTF-16 its maximum
        # is U+FFFF, below the probe in UTF-8, so a reader of such bounds skips its matches.
        _string_orders("string-utf16-order", "STRING where UTF-8 byte and UTF-16 order differ, "
                       "NUL inside, combining marks, a 1200-byte maximum", [
                           _ASCII + _LATIN, _HIGH_BMP + _SUPPLEMENTARY, _ASCII],
                       UTF16_PROBE, "DIRECT"),
        # Row group 1 mixes ASCII and Latin: by signed bytes its maximum is "z" and "é" its
        # minimum; the first group holds ASCII only, the third Latin only.
        _string_orders("string-signed-byte-order", "STRING where unsigned and signed byte "
                       "order differ, dictionary encoded", [_ASCII, _ASCII + _LATIN, _LATIN],
                       SIGNED_PROBE, "DICTIONARY"),
        _table_case(
            "char-varchar-code-points", "CHAR(4) and VARCHAR(4) of NULs, the largest code "
            "points and combining sequences: lengths count code points, not bytes", [
                ("c", T.char(4), ["\x00   ", "\x00\x00\x00\x00", MAX_CODE_POINT * 4,
                                  "e" + COMBINING_ACUTE + "e" + COMBINING_ACUTE, "\U0001f600   ",
                                  "a\x00b ", "    "]),
                ("v", T.varchar(4), ["", "\x00", MAX_CODE_POINT * 4, "e" + COMBINING_ACUTE * 3,
                                     "\ufffd\U00010000", "ab  ", "\x00\x00\x00\x00"])],
            (S.STRING_COLUMNS, S.TYPE_INFORMATION, S.COLUMN_STATISTICS)),
    ]


# ---- integers -------------------------------------------------------------------------

def width_boundaries(bits: int) -> list[int]:
    """2^k - 1, 2^k and their negatives for every k within a signed ``bits``-bit integer:
    each zigzag bit width and varint length, and both ends of the range."""
    lo, hi = int_range(bits, True)
    found = {0}
    for k in range(bits):
        found.update(v for v in (2**k - 1, 2**k, -(2**k), -(2**k) - 1) if lo <= v <= hi)
    return sorted(found, key=lambda v: (abs(v), v))


RUN = 10  # equal values: a run in both RLE versions


def overflowing_runs() -> list[int]:
    """Runs at both ends of LONG, sequences that step onto them, and neighbours whose
    difference overflows 64 bits (a Delta or fixed-delta run must not hold them)."""
    lo, hi = int_range(64, True)
    return ([hi] * RUN + [lo] * RUN + list(range(hi - RUN, hi + 1)) + list(range(lo + RUN, lo - 1, -1))
            + [lo, hi] * RUN + [hi, lo, 0, hi, lo, -1, 1, lo, hi] + [hi - 1, hi, lo, lo + 1])


def _integer_cases() -> list[Case]:
    cases = []
    for version in FILE_VERSIONS:
        options, rle = OrcWriteOptions(file_version=version), RLE[version]
        cases.append(_table_case(
            f"integer-widths-v{version}", f"BYTE, SHORT, INT and LONG at every bit width, "
            f"file version {version}",
            [(f"i{bits}", T.integer(bits), width_boundaries(bits)) for bits in INTEGER_WIDTHS],
            (S.TINYINT_COLUMNS, S.BYTE_RLE, S.INTEGER_COLUMNS, rle, S.COLUMN_STATISTICS,
             S.FILE_VERSION), options))
        cases.append(_table_case(
            f"integer-overflowing-deltas-v{version}", "LONG runs at both ends of the range and "
            f"steps that overflow 64 bits, file version {version}",
            [("x", T.integer(64), overflowing_runs())],
            (S.INTEGER_COLUMNS, rle, S.COLUMN_STATISTICS, S.FILE_VERSION), options))
    return cases


# ---- decimals -------------------------------------------------------------------------

DECIMAL_PRECISIONS = (18, 19, T.MAX_DECIMAL_PRECISION)


def decimal_edges(precision: int) -> list[int]:
    """Unscaled values: zero, one, the smallest and largest of the precision, and 10^k - 1
    and -10^k for every digit count k (each a longer varint), with 64-bit's ends."""
    largest = 10**precision - 1
    found = {0, 1, -1, largest, -largest}
    for k in range(precision):
        found.update((10**k - 1, -(10**k)))
    found.update(v for v in int_range(64, True) if abs(v) <= largest)
    return sorted(found, key=lambda v: (abs(v), v))


def _decimal_cases() -> list[Case]:
    columns = [(f"d{p}_{s}", T.decimal(p, s), decimal_edges(p))
               for p in DECIMAL_PRECISIONS for s in (0, p)]
    return [_table_case(f"decimal-precisions-v{version}", "DECIMAL(18|19|38, 0|p) at the ends "
                        f"of their precision and every digit count, file version {version}",
                        columns, (S.DECIMAL_COLUMNS, RLE[version], S.COLUMN_STATISTICS,
                                  S.FILE_VERSION), OrcWriteOptions(file_version=version))
            for version in FILE_VERSIONS]


# ---- dates and the calendars ----------------------------------------------------------

LAST_DAY = days(9999, 12, 31)
_LEAP_DAYS = [days(y, 2, 29) for y in (4, 1600, 2000, 2024, 2400, 9996)]
# Feb 28 and Mar 1 of years a Gregorian leap year rule skips (and Julian does not).
_NOT_LEAP = [days(y, m, d) for y in (100, 1700, 1900, 2100) for m, d in ((2, 28), (3, 1))]
_BEYOND_9999 = [LAST_DAY + 1, LAST_DAY + DAYS_PER_400_YEARS, *int_range(32, True)]
DATE_BOUNDARIES = [0, -1, 1, days(1, 1, 1), days(1, 1, 2), LAST_DAY, *_LEAP_DAYS, *_NOT_LEAP,
                   *_BEYOND_9999]


def last_nano_of(day: int) -> int:
    return (day + 1) * NANOS_PER_DAY - 1


def _date_boundaries() -> list[Case]:
    """DATE apart from TIMESTAMP, so that a reader failing the far timestamps (pyarrow outside
    1677-2262, Spark past its microseconds) is still held to the days."""
    # The last nanosecond of 1969-12-31 is the second before 1970, orc/types/timestamp-fractions'
    # (writers and readers split on it: docs/orc-spec-notes.md, note 2); left out here so that
    # it hides no other value of a reader that fails it.
    last_nanos = [last_nano_of(d) for d in DATE_BOUNDARIES if d != -1]
    return [
        _table_case("date-boundaries", "DATE at leap days, years 1 and 9999, and beyond them to "
                    "the 32-bit day counts", [("day", T.date(), DATE_BOUNDARIES)],
                    (S.DATE_COLUMNS, S.COLUMN_STATISTICS)),
        _table_case("timestamp-day-boundaries", "TIMESTAMP at the last nanosecond of leap days, "
                    "years 1 and 9999 and the 32-bit day counts (64-bit seconds)",
                    [("last_nano", T.timestamp(), last_nanos)],
                    (S.TIMESTAMP_COLUMNS, S.COLUMN_STATISTICS)),
    ]


# Days the hybrid (Julian before 1582-10-15) and proleptic calendars both have, where their
# counts differ by 0 to 10 days: the year 1, the century Feb 28 / Mar 1 on either side of
# a Julian-only leap day, the last Julian and the first Gregorian days.
BOTH_CALENDARS = [days(1, 1, 1), days(1, 1, 3), days(200, 2, 28), days(200, 3, 1),
                   days(1000, 2, 28), days(1000, 3, 1), days(1500, 2, 28), days(1500, 3, 1),
                   days(1582, 10, 3), days(1582, 10, 4), days(1582, 10, 15), days(1582, 10, 16),
                   days(1583, 1, 1), 0]
# The ten days only the proleptic calendar has.
PROLEPTIC_ONLY = [days(1582, 10, d) for d in range(5, 15)]


def _calendar_cases(calendar: str) -> list[Case]:
    """DATE apart from the timestamps, so that a reader that fails a TIMESTAMP column (Spark
    reads it as an instant of microseconds) is still held to the days."""
    dates = BOTH_CALENDARS + (PROLEPTIC_ONLY if calendar == "PROLEPTIC_GREGORIAN" else [])
    noons = [d * NANOS_PER_DAY + NANOS_PER_DAY // 2 + 1 for d in dates]
    name, options = calendar.lower().replace("_", "-"), OrcWriteOptions(calendar=calendar)
    spec = (S.CALENDAR, S.FOOTER_CALENDAR)
    return [
        _table_case(f"calendar-{name}-dates", f"DATE around 1582-10-15, Footer.calendar {calendar}",
                    [("day", T.date(), dates)], (S.DATE_COLUMNS, *spec), options),
        _table_case(f"calendar-{name}-timestamps", f"TIMESTAMP and TIMESTAMP_INSTANT around "
                    f"1582-10-15, Footer.calendar {calendar}",
                    [("last_nano", T.timestamp(), [last_nano_of(d) for d in dates]),
                     ("noon", T.timestamp_instant(), noons)], (S.TIMESTAMP_COLUMNS, *spec), options),
    ]


# ---- timestamps under a writer's time zone ----------------------------------------------

# A moment: its wall clock in the zone (year, month, day, hour, minute, second, nanos)
# and the zone's UTC offset then in minutes, per the zone database, before the zone's first
# transition the offset it leads to (docs/orc-spec-notes.md, note 13).
Moment = tuple[tuple[int, ...], int]


def moment_wall_and_instant(moment: Moment) -> tuple[int, int]:
    (year, month, day, hour, minute, second, fraction), offset = moment
    wall = nanos(year, month, day, hour, minute, second, fraction)
    return wall, wall - offset * SECONDS_PER_MINUTE * NANOS_PER_SECOND


PST, PDT, PWT = -8 * 60, -7 * 60, -7 * 60
AEST, AEDT = 10 * 60, 11 * 60
APIA_WEST_DST, APIA_EAST_DST, APIA_WEST, APIA_EAST = -10 * 60, 14 * 60, -11 * 60, 13 * 60
# Each zone's moments; every zone has the Unix epoch, midnight of 1970-01-01 and the ORC
# epoch in the zone. The second before the epoch is orc/types/timestamp-fractions' (note 2).
ZONE_MOMENTS: dict[str, tuple[str, list[Moment]]] = {
    "America/Los_Angeles": ("west of UTC: PST/PDT, standard time adopted 1883-11-18", [
        ((1969, 12, 31, 16, 0, 0, 0), PST),
        ((1970, 1, 1, 0, 0, 0, 0), PST), ((2015, 1, 1, 0, 0, 0, 0), PST),
        # 2021-03-14 02:00 PST jumps to 03:00 PDT: both sides of the gap
        ((2021, 3, 14, 1, 59, 59, LAST_NANO), PST), ((2021, 3, 14, 3, 0, 0, 0), PDT),
        # 2021-11-07 02:00 PDT falls back to 01:00 PST: 01:30 twice
        ((2021, 11, 7, 0, 59, 59, LAST_NANO), PDT), ((2021, 11, 7, 1, 30, 0, 0), PDT),
        ((2021, 11, 7, 1, 30, 0, 0), PST), ((2021, 11, 7, 1, 59, 59, LAST_NANO), PST),
        ((2021, 11, 7, 2, 0, 0, 0), PST),
        # local mean time until 1883-11-18 12:07:02; ORC applies PST before it
        ((1850, 6, 1, 12, 0, 0, 0), PST), ((1883, 11, 18, 12, 0, 0, 0), PST),
        ((1943, 6, 1, 12, 0, 0, 1), PWT),  # war time: a year-round -07:00
        ((3000, 7, 1, 12, 0, 0, 0), PDT), ((3000, 1, 1, 12, 0, 0, 0), PST),
        ((9999, 12, 31, 23, 59, 59, LAST_NANO), PST)]),
    "Australia/Sydney": ("east of UTC: AEST/AEDT, summer time in the southern summer", [
        ((1970, 1, 1, 10, 0, 0, 0), AEST),
        ((1970, 1, 1, 0, 0, 0, 0), AEST), ((2015, 1, 1, 0, 0, 0, 0), AEDT),
        # 2021-10-03 02:00 AEST jumps to 03:00 AEDT
        ((2021, 10, 3, 1, 59, 59, LAST_NANO), AEST), ((2021, 10, 3, 3, 0, 0, 0), AEDT),
        # 2021-04-04 03:00 AEDT falls back to 02:00 AEST: 02:30 twice
        ((2021, 4, 4, 2, 30, 0, 0), AEDT), ((2021, 4, 4, 2, 30, 0, 0), AEST),
        ((2021, 4, 4, 3, 0, 0, 0), AEST),
        ((1850, 6, 1, 12, 0, 0, 0), AEST),  # local mean time until 1895-02-01
        ((3000, 1, 1, 12, 0, 0, 0), AEDT), ((3000, 7, 1, 12, 0, 0, 0), AEST)]),
    "Pacific/Apia": ("a zone that crossed the date line: 2011-12-30 never happened", [
        ((1969, 12, 31, 13, 0, 0, 0), APIA_WEST),
        ((1970, 1, 1, 0, 0, 0, 0), APIA_WEST), ((2015, 1, 1, 0, 0, 0, 0), APIA_EAST_DST),
        ((2011, 12, 29, 23, 59, 59, LAST_NANO), APIA_WEST_DST), ((2011, 12, 31, 0, 0, 0, 0), APIA_EAST_DST),
        ((2011, 6, 1, 12, 0, 0, 0), APIA_WEST), ((2021, 6, 1, 12, 0, 0, 0), APIA_EAST)]),
}


# pyarrow reads no TIMESTAMP column holding a value outside 1677-2262 (docs/engine-notes.md):
# the moments outside are a case of their own, so that its reads of the others count.
NANOS_RANGE_YEARS = (1678, 2261)


def _zone_case(name: str, zone: str, title: str, moments: list[Moment]) -> Case:
    walls, instants = zip(*map(moment_wall_and_instant, moments), strict=True)
    return _table_case(
        name, f"TIMESTAMP and TIMESTAMP_INSTANT of the same moments, writer zone {zone} ({title})",
        [("wall_clock", T.timestamp(), list(walls)), ("instant", T.timestamp_instant(), list(instants))],
        (S.TIMESTAMP_COLUMNS, S.STRIPE_FOOTER, S.WRITER_TIMEZONE, S.COLUMN_STATISTICS),
        OrcWriteOptions(writer_timezone=zone))


def _zone_cases(zone: str, title: str, moments: list[Moment]) -> list[Case]:
    name = f"timestamp-zone-{zone.split('/')[-1].lower().replace('_', '-')}"
    near = [m for m in moments if NANOS_RANGE_YEARS[0] <= m[0][0] <= NANOS_RANGE_YEARS[1]]
    far = [m for m in moments if m not in near]
    return ([_zone_case(name, zone, title, near)]
            + ([_zone_case(f"{name}-far", zone, f"{title}; before 1678 and after 2261", far)] if far else []))


# ---- floats ---------------------------------------------------------------------------

QUIET_BIT = 1 << 51  # of a canonical (binary64) NaN


def _of_bits(fmt: str, bits: int) -> float:
    width = struct.calcsize(fmt)
    return float(struct.unpack(fmt, bits.to_bytes(width, "little"))[0])


# (type, largest finite, smallest subnormal, largest subnormal and smallest normal bits)
_FLOAT_KINDS: dict[str, tuple[DataType, float, float, str, int, int]] = {
    "float": (T.floating(32), FLOAT32_MAX, FLOAT32_MIN_SUBNORMAL, "<f", 0x007FFFFF, 0x00800000),
    "double": (T.floating(64), DOUBLE_MAX, DOUBLE_MIN_SUBNORMAL, "<d", 0x000FFFFFFFFFFFFF,
               0x0010000000000000),
}


def _float_case(name: str) -> Case:
    t, largest, tiny, fmt, max_subnormal, min_normal = _FLOAT_KINDS[name]
    # Quiet NaNs only: signalling ones are orc/types/*-nan-payloads', which readers quieten.
    nans = [n for n in nan_payloads(t.bit_width or 0) if float_bits(n) & QUIET_BIT]
    subnormals = [tiny, -tiny, _of_bits(fmt, max_subnormal), -_of_bits(fmt, max_subnormal),
                  _of_bits(fmt, min_normal)]
    groups = [
        [nans[0], *subnormals, largest, -largest, 1.5, nans[-1]],  # a NaN first, no zero
        [*nans, float("inf"), float("-inf")],  # NaNs and infinities only
        [-0.0],  # negative zeros only: x == 0.0 holds for each
    ]
    return _id_case(f"{name}-statistics", f"{T.orc_kind(t)} subnormals, largest finite, NaN "
                    "payloads, infinities and -0.0 in row groups of their own",
                    t, _by_row_group(groups),
                    (S.FLOAT_COLUMNS, S.COLUMN_STATISTICS, S.ROW_GROUP_INDEX),
                    _indexed(), Predicate("x", "==", 0.0))


MAKERS: tuple[Callable[[], list[Case]], ...] = (
    lambda: [_binary_bytes(), _binary_long()],
    _string_cases,
    _integer_cases,
    _decimal_cases,
    lambda: [*_date_boundaries(), *(case for c in CALENDARS for case in _calendar_cases(c))],
    lambda: [case for zone, (title, moments) in ZONE_MOMENTS.items()
             for case in _zone_cases(zone, title, moments)],
    lambda: [_float_case(name) for name in _FLOAT_KINDS],
)


def cases() -> list[Case]:
    return [case for make in MAKERS for case in make()]
