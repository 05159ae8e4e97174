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
  A half is read as the Python float (an IEEE double) of the same value; a NaN
  keeps its sign and its 10-bit payload as the top bits of the double's
  mantissa, as every FLOAT does (``encodings.ieee_float``), so every one of the
  65,536 bit patterns reads as a distinct double and writes back as the same
  two bytes.
- "INTERVAL": three little-endian unsigned 32-bit ints: months, days, millis.
- INT96 (parquet.thrift `enum Type`, deprecated): 8 bytes little-endian
  nanoseconds of the day, then 4 bytes little-endian Julian day number.
"""

from __future__ import annotations

import struct

import numpy as np

from reference_impl.common.ieee_float import narrow_float_bits, widen_float_bits

JULIAN_DAY_OF_UNIX_EPOCH = 2_440_588  # 1970-01-01 as a Julian day number
NANOS_PER_DAY = 86_400 * 1_000_000_000
INTERVAL_LENGTH = 12
_INTERVAL = struct.Struct("<III")
_INT96 = struct.Struct("<qi")  # nanos of day (int64), Julian day (int32)

FLOAT16_LENGTH = 2
FLOAT16_BITS = 16
_HALF_BITS = struct.Struct("<H")


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
    """The half holding exactly ``value``; ValueError if none does (it would round,
    overflow, or carry NaN payload bits below the top 10 of the mantissa)."""
    (half,) = narrow_float_bits([value], FLOAT16_BITS).tolist()
    return _HALF_BITS.pack(half)


def float16_from_bytes(data: bytes) -> float:
    """The double of the half ``data``, NaN sign and payload kept (see the module docstring)."""
    (half,) = widen_float_bits(np.array(_HALF_BITS.unpack(data)), FLOAT16_BITS)
    return half


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
