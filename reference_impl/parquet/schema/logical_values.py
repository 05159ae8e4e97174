"""How logical values are stored in physical values (LogicalTypes.md).

Each function pair converts between the physical value a column holds and the
logical value it means, for the annotations whose storage is not the plain
physical value itself:

- "Unsigned Integers": UINT_8..UINT_64 live in INT32/INT64 as the same bits,
  so a value >= 2^(w-1) of the physical signed type is read back unsigned.
- "DECIMAL": an unscaled integer; on FIXED_LEN_BYTE_ARRAY and BYTE_ARRAY as
  big-endian two's complement ("using the minimum number of bytes" for
  BYTE_ARRAY), on INT32/INT64 as the integer itself.
- "FLOAT16": IEEE 754 half precision, little endian, in FIXED_LEN_BYTE_ARRAY(2).
- "INTERVAL": three little-endian unsigned 32-bit ints: months, days, millis.
- INT96 (parquet.thrift `enum Type`, deprecated): 8 bytes little-endian
  nanoseconds of the day, then 4 bytes little-endian Julian day number.
"""

from __future__ import annotations

import struct

JULIAN_DAY_OF_UNIX_EPOCH = 2_440_588  # 1970-01-01 as a Julian day number
NANOS_PER_DAY = 86_400 * 1_000_000_000
INTERVAL_LENGTH = 12
_INTERVAL = struct.Struct("<III")
_INT96 = struct.Struct("<qi")  # nanos of day (int64), Julian day (int32)


def to_unsigned(physical: int, bits: int) -> int:
    """The unsigned value of a signed physical int holding `bits`-bit unsigned data."""
    return physical % (1 << (32 if bits <= 32 else 64))


def from_unsigned(value: int, bits: int) -> int:
    """The signed physical INT32/INT64 value storing an unsigned `bits`-bit value."""
    width = 32 if bits <= 32 else 64
    return value - (1 << width) if value >= 1 << (width - 1) else value


def decimal_to_bytes(unscaled: int, length: int | None = None) -> bytes:
    """Big-endian two's complement; minimal length unless `length` (FLBA) is given."""
    if length is None:
        magnitude_bits = (unscaled if unscaled >= 0 else ~unscaled).bit_length()
        length = (magnitude_bits + 1 + 7) // 8  # one more bit for the sign, whole bytes
    try:
        return unscaled.to_bytes(length, "big", signed=True)
    except OverflowError as exc:
        raise ValueError(f"decimal unscaled value {unscaled} does not fit {length} bytes") from exc


def decimal_from_bytes(data: bytes) -> int:
    return int.from_bytes(data, "big", signed=True)


def float16_to_bytes(value: float) -> bytes:
    return struct.pack("<e", value)


def float16_from_bytes(data: bytes) -> float:
    return struct.unpack("<e", data)[0]


def interval_to_bytes(value: tuple[int, int, int]) -> bytes:
    return _INTERVAL.pack(*value)


def interval_from_bytes(data: bytes) -> tuple[int, int, int]:
    return _INTERVAL.unpack(data)


def int96_to_nanos(data: bytes) -> int:
    """Nanoseconds since the Unix epoch of an INT96 timestamp."""
    nanos_of_day, julian_day = _INT96.unpack(data)
    return (julian_day - JULIAN_DAY_OF_UNIX_EPOCH) * NANOS_PER_DAY + nanos_of_day


def nanos_to_int96(nanos: int) -> bytes:
    days, nanos_of_day = divmod(nanos, NANOS_PER_DAY)  # nanos of day is never negative
    return _INT96.pack(nanos_of_day, days + JULIAN_DAY_OF_UNIX_EPOCH)
