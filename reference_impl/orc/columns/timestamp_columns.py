"""TIMESTAMP and TIMESTAMP_INSTANT columns.

ORCv1.md, 'Timestamp Columns': "a DATA stream that records the number of seconds after 1
January 2015, and a SECONDARY stream that records the number of nanoseconds. Because
the number of nanoseconds often has a large number of trailing zeros, the number has
trailing decimal zero digits removed and the last three bits are used to record how
many zeros were removed. if the trailing zeros are more than 2. Thus 1000 nanoseconds
would be serialized as 0x0a and 100000 would be serialized as 0x0c." So the low three
bits z of a SECONDARY value are 0 (nothing removed) or z + 1 zeros removed. DIRECT:
DATA Signed, SECONDARY Unsigned Integer RLE v1; DIRECT_V2: the same in v2.

What the text leaves out, as ORC's writers (Java and C++) and readers do it:

* "1 January 2015" is 2015-01-01 00:00:00 in StripeFooter.writer_timezone for TIMESTAMP
  (absent, as in ORCv0.md files: UTC here) and in UTC for TIMESTAMP_INSTANT. DATA +
  that epoch is the instant's seconds since 1970-01-01 UTC; a TIMESTAMP is the
  wall-clock time of that instant in the writer's time zone.
* The seconds are those of the instant rounded toward zero to the millisecond and then
  truncated to the second, a legacy of ORC Java's millisecond arithmetic: before 1970,
  a value with a nanosecond part of at least a millisecond is stored one second too
  high, and readers take one off when the seconds are negative and the nanoseconds
  exceed 999999. The writer here does the same so the files read back in both. An
  instant in the second before 1970 with such a nanosecond part has no such form: as
  second 0 and a positive part, every reader reads it one second late (pyorc writes it
  so). The writer here stores it as ORC C++'s Arrow adapter does (next point), the one
  form a reader gets right (docs/orc-spec-notes.md).
* Negative nanoseconds: the Arrow adapter of ORC C++ (pyarrow) stores a time before 1970
  as seconds rounded toward zero and a negative nanosecond part, whose SECONDARY value
  is that of a 64-bit two's complement number (-1.5 s: DATA -1 - epoch, SECONDARY
  2^64 - 33, that is -5 << 3 | 7). ORC C++ reads the value as signed, and so does this
  reader: the timestamp is seconds + nanoseconds, the latter from -999999999 to 999999999.
* The zone's offset at an instant, for any 64-bit second and before the zone's first
  transition too, is time_zones.py's (docs/orc-spec-notes.md, note 13).

Values: TIMESTAMP as nanoseconds since 1970-01-01 00:00:00 of the wall-clock time,
TIMESTAMP_INSTANT as nanoseconds since the epoch (UTC). Dates before the Gregorian
cutover are rebased as DATE is (date_columns.py) when Footer.calendar says
JULIAN_GREGORIAN.
"""

from __future__ import annotations

import datetime
import functools
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import numpy as np

from reference_impl.orc.columns.column_streams import ColumnOutput, ColumnStreams, WriteSettings
from reference_impl.orc.columns.date_columns import read_days, same_days, stored_days
from reference_impl.orc.columns.integer_columns import checked_integers
from reference_impl.orc.columns.present import ColumnReader
from reference_impl.orc.columns.time_zones import fixed_offset, utc_offset
from reference_impl.orc.errors import InvalidValue, UnsupportedFeature
from reference_impl.orc.metadata.proto_enums import StreamKind, TypeKind
from reference_impl.orc.metadata.type_tree import TypeNode

__all__ = ["TimestampReader", "decode_nanos", "decoded_nanos_words", "encode_nanos", "instant_nanos",
           "write_timestamps"]

NANOS_PER_SECOND = 10**9
SECONDS_PER_DAY = 86400
UTC = "UTC"
ORC_EPOCH = datetime.datetime(2015, 1, 1)  # the wall-clock time DATA counts from
ZEROS_BITS = 3
ZEROS_MASK = (1 << ZEROS_BITS) - 1
MIN_ZEROS_REMOVED = 2  # the code z > 0 means z + 1 zeros
MAX_ZEROS_REMOVED = ZEROS_MASK + 1
DECIMAL_BASE = 10
# The legacy adjustment (module docstring): a nanosecond part above this is a millisecond.
MAX_SUB_MILLISECOND_NANOS = 999_999
TIMESTAMP_BITS = 64  # DATA's seconds and SECONDARY's values are 64-bit
# A value is a count of nanoseconds of 64-bit seconds: it needs 94 bits with its sign.
VALUE_BITS = 94
UNSIGNED_64 = (1 << TIMESTAMP_BITS) - 1
INT64_MAX = (1 << (TIMESTAMP_BITS - 1)) - 1
# SECONDARY values decoded at once: their 64-bit words and the arrays that decode them are
# held for a batch, the nanoseconds (a 32-bit number each) for the whole read.
NANOS_BATCH = 1 << 14
# What a SECONDARY value's zeros code z multiplies its mantissa by (decode_nanos).
ZERO_SCALES = np.array([1] + [DECIMAL_BASE ** (zeros + 1) for zeros in range(1, ZEROS_MASK + 1)],
                       dtype=np.int64)


def decode_nanos(encoded: int) -> int:
    """The nanoseconds of a SECONDARY value, read as a 64-bit two's complement number as ORC
    C++ reads it (module docstring: negative nanoseconds)."""
    if encoded >= 1 << (TIMESTAMP_BITS - 1):
        encoded -= 1 << TIMESTAMP_BITS
    zeros = encoded & ZEROS_MASK
    return encoded >> ZEROS_BITS if not zeros else (encoded >> ZEROS_BITS) * DECIMAL_BASE ** (zeros + 1)


def encode_nanos(nanos: int) -> int:
    """As ORC's writers do: two or more trailing zeros are removed (the text says "more
    than 2"; the decoding is the same either way), at most 8."""
    zeros = 0
    while nanos and nanos % DECIMAL_BASE == 0 and zeros < MAX_ZEROS_REMOVED:
        nanos //= DECIMAL_BASE
        zeros += 1
    if zeros < MIN_ZEROS_REMOVED:
        return (nanos * DECIMAL_BASE ** zeros) << ZEROS_BITS
    return nanos << ZEROS_BITS | (zeros - 1)


@functools.lru_cache(maxsize=64)
def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as error:
        raise UnsupportedFeature(f"time zone {name!r} is not in this system's zone database") from error


def _epoch(zone: ZoneInfo) -> int:
    """2015-01-01 00:00:00 in ``zone`` as seconds since 1970-01-01 UTC."""
    return int(ORC_EPOCH.replace(tzinfo=zone).timestamp())


def _wall_to_instant(zone: ZoneInfo, wall_seconds: int) -> int:
    """The instant of a wall-clock time (the earlier one when the clock repeats)."""
    offset = utc_offset(zone, wall_seconds - utc_offset(zone, wall_seconds))
    return wall_seconds - offset


def _existing_instant(node: TypeNode, zone: ZoneInfo, wall_seconds: int) -> int:
    """The instant of a wall-clock time the zone's clocks show; InvalidValue for one they skip
    (a daylight-saving gap, a change of offset): no instant reads back as it."""
    instant = _wall_to_instant(zone, wall_seconds)
    if instant + utc_offset(zone, instant) != wall_seconds:
        raise InvalidValue(f"{node.describe()}: the wall clock {_shown(wall_seconds)} does not exist in "
                           f"the writer's time zone {zone.key} (its clocks skip it)")
    return instant


def _shown(wall_seconds: int) -> str:
    """A wall-clock time as ISO 8601 text where Python's datetime holds it, else in seconds."""
    try:
        return (datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=wall_seconds)).isoformat()
    except OverflowError:
        return f"{wall_seconds} s after 1970-01-01 00:00:00"


def instant_nanos(node: TypeNode, value: int, writer_timezone: str) -> int:
    """The instant (nanoseconds since the epoch, UTC) of a value of ``node``'s column."""
    if node.kind == TypeKind.TIMESTAMP_INSTANT:
        return value
    seconds, nanos = divmod(value, NANOS_PER_SECOND)
    return _wall_to_instant(_zone(writer_timezone), seconds) * NANOS_PER_SECOND + nanos


class TimestampReader(ColumnReader):
    def __init__(self, streams: ColumnStreams) -> None:
        super().__init__(streams)
        self._seconds = streams.integers(StreamKind.DATA, signed=True)
        self._nanos = streams.integers(StreamKind.SECONDARY, signed=False)
        instant = streams.node.kind == TypeKind.TIMESTAMP_INSTANT
        self._zone = None if instant else _zone(streams.stripe.writer_timezone or UTC)
        self._epoch = _epoch(self._zone or _zone(UTC))
        self._days = read_days(streams.calendar)
        # The wall clock's one offset from UTC, if it has one and the days are the same
        # in both calendars: then the values are computed in arrays (_value_words).
        offset = 0 if self._zone is None else fixed_offset(self._zone)
        self._offset = offset if self._days is same_days else None

    def read_values(self, count: int) -> list[object] | np.ndarray:
        seconds = self._seconds.read(count)
        nanos = self._read_nanos(count)
        if isinstance(nanos, np.ndarray) and self._in_words(seconds):
            return self._value_words(seconds, nanos)
        fractions = nanos.tolist() if isinstance(nanos, np.ndarray) else nanos
        return [self._value(number, stored, fraction)
                for number, (stored, fraction) in enumerate(zip(seconds.tolist(), fractions, strict=True))]

    def _read_nanos(self, count: int) -> np.ndarray | list[int]:
        """:func:`decode_nanos` of the next ``count`` SECONDARY values: an int32 array when
        each is within a second (the usual case), else a list. Read a batch at a time, so
        that the 64-bit words are not held beside the values (docs/architecture.md,
        'Memory budget')."""
        nanos = np.empty(count, dtype=np.int32)
        for first in range(0, count, NANOS_BATCH):
            encoded = self._nanos.read(min(NANOS_BATCH, count - first))
            decoded = decoded_nanos_words(encoded)
            if decoded is None or not _within_a_second(decoded):
                rest = self._nanos.read(count - first - len(encoded)).tolist()
                batch = decoded.tolist() if decoded is not None else [decode_nanos(value)
                                                                      for value in encoded.tolist()]
                return nanos[:first].tolist() + batch + [decode_nanos(value) for value in rest]
            nanos[first:first + len(decoded)] = decoded
        return nanos

    def _in_words(self, seconds: np.ndarray) -> bool:
        """Whether :meth:`_value_words` gives every value of valid nanosecond parts: the
        zone has one offset and every second's nanoseconds fit 64 bits (else :meth:`_value`,
        value by value, reads them)."""
        if self._offset is None or not len(seconds):
            return False
        limit = INT64_MAX // NANOS_PER_SECOND - abs(self._epoch) - abs(self._offset) - 1
        return bool(seconds.min() >= -limit and seconds.max() <= limit)

    def _value_words(self, seconds: np.ndarray, nanos: np.ndarray) -> np.ndarray:
        """:meth:`_value` of every value in int64 arrays, made in place in ``seconds`` (read
        for this call alone): a stripe holds one array of its size more, not one per step
        (docs/architecture.md, 'Memory budget')."""
        instant = seconds
        instant += self._epoch
        if instant.min() < 0:  # no arrays of flags for the legacy adjustment after 1970
            instant -= (instant < 0) & (nanos > MAX_SUB_MILLISECOND_NANOS)
        instant += self._offset
        instant *= NANOS_PER_SECOND
        instant += nanos
        return instant

    def _value(self, number: int, stored: int, nanos: int) -> int:
        if abs(nanos) >= NANOS_PER_SECOND:
            raise self.value_error(InvalidValue, number, f"{nanos} nanoseconds is a second or more",
                                   StreamKind.SECONDARY)
        seconds = stored + self._epoch
        if seconds < 0 and nanos > MAX_SUB_MILLISECOND_NANOS:
            seconds -= 1
        seconds, nanos = divmod(seconds * NANOS_PER_SECOND + nanos, NANOS_PER_SECOND)
        if self._zone is not None:
            seconds += utc_offset(self._zone, seconds)
        days, second_of_day = divmod(seconds, SECONDS_PER_DAY)
        return ((self._days(days) * SECONDS_PER_DAY + second_of_day) * NANOS_PER_SECOND) + nanos


def _within_a_second(nanos: np.ndarray) -> bool:
    """Whether every one of ``nanos`` lies strictly between minus and plus one second."""
    return bool(nanos.min() > -NANOS_PER_SECOND and nanos.max() < NANOS_PER_SECOND)


def decoded_nanos_words(encoded: np.ndarray) -> np.ndarray | None:
    """:func:`decode_nanos` of each SECONDARY value, made in place in ``encoded``'s words
    (read for this call alone) as int64; None, with ``encoded`` as it was, when a mantissa
    is a second or more (its nanoseconds might not fit 64 bits)."""
    signed = encoded.view(np.int64)
    if len(signed) and not _within_a_second(np.array([signed.min(), signed.max()]) >> ZEROS_BITS):
        return None  # an arithmetic shift keeps the order: the extremes' mantissas are the extremes
    codes = signed.astype(np.uint8) & np.uint8(ZEROS_MASK)  # the low bits, a byte each
    signed >>= np.int64(ZEROS_BITS)  # the mantissa; arithmetic shift: decode_nanos's >>
    for code in range(1, ZEROS_MASK + 1):  # no array of scales beside the values
        np.multiply(signed, ZERO_SCALES[code], out=signed, where=codes == code)
    return signed


def write_timestamps(node: TypeNode, values: list[object], settings: WriteSettings) -> ColumnOutput:
    zone = _zone(UTC if node.kind == TypeKind.TIMESTAMP_INSTANT else settings.writer_timezone)
    epoch, to_stored_days = _epoch(zone), stored_days(settings.calendar)
    seconds, nanos = [], []
    for value in checked_integers(node, values, VALUE_BITS):
        whole, fraction = divmod(value, NANOS_PER_SECOND)
        days, second_of_day = divmod(whole, SECONDS_PER_DAY)
        try:
            whole = to_stored_days(days) * SECONDS_PER_DAY + second_of_day
        except ValueError as error:
            raise InvalidValue(f"{node.describe()}: {error}") from error
        if node.kind == TypeKind.TIMESTAMP:
            whole = _existing_instant(node, zone, whole)
        if whole < 0 and fraction > MAX_SUB_MILLISECOND_NANOS:
            whole += 1
            if not whole:  # the second before 1970: a negative part (module docstring)
                fraction -= NANOS_PER_SECOND
        if (whole - epoch).bit_length() >= TIMESTAMP_BITS:
            raise InvalidValue(f"{node.describe()}: {value} ns is beyond 64-bit seconds from 2015")
        seconds.append(whole - epoch)
        nanos.append(encode_nanos(fraction) & UNSIGNED_64)
    return ColumnOutput(settings.direct, {StreamKind.DATA: settings.integers(seconds, signed=True),
                                          StreamKind.SECONDARY: settings.integers(nanos, signed=False)})
