"""Canonical values: their Python form, their JSON form, and validation.

Python form, by kind (see docs/canonical-values.md for the full table):

- boolean: bool; int, date, time, timestamp, int96: int (counts in the type's unit;
  INT96 as nanoseconds since the Unix epoch)
- float: Python float (FLOAT and FLOAT16 values are exactly representable);
  compared by their 64-bit pattern, so -0.0 != 0.0 and NaN == NaN
- decimal: int, the unscaled value; the scale is in the type
- binary, bson, fixed: bytes; string, enum, json: str; uuid: str, lowercase 8-4-4-4-12
- interval: tuple (months, days, milliseconds) of unsigned 32-bit ints
- unknown: always None
- variant: tuple (metadata: bytes, value: bytes), the unshredded binary encoding
- geometry, geography: bytes (WKB)
- list: list; map: list of (key, value) tuples in file order; struct: dict by field name
- null at any level: None

JSON form: ints of at most 32 bits are JSON numbers; 64-bit ints (and int96 nanos)
are decimal strings, so no JSON parser rounds them; floats are strings ("1.5",
"-0.0", "inf", "nan"); decimals are strings with exactly `scale` fraction digits;
binary is lowercase hex.
"""

from __future__ import annotations

import math
import re
import struct
import uuid as uuidlib
from typing import Any

from reference_impl.common.ieee_float import DOUBLE_BITS, narrow_float_bits

from .types import DataType

# Bit pattern of the NaN that Python's float('nan') produces (quiet, positive).
CANONICAL_NAN_BITS = 0x7FF8000000000000
_NAN_PREFIX = "nan:0x"

INTERVAL_FIELD_MAX = 2**32 - 1  # each INTERVAL field is an unsigned 32-bit int
_UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
_JSON_NUMBER_MAX_BITS = 32  # wider integers travel as strings


class CanonicalValueError(ValueError):
    """A value does not fit its canonical type (raised with the path to it)."""


def float_bits(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def float_from_bits(bits: int) -> float:
    return struct.unpack("<d", struct.pack("<Q", bits))[0]


def fits_float_width(x: float, bits: int) -> bool:
    """True when `x` is the double of an IEEE 754 float of `bits` bits, every bit kept:
    no rounding, no overflow, and a NaN payload within the narrow mantissa."""
    if bits == DOUBLE_BITS:
        return True  # every double is one
    try:
        narrow_float_bits([x], bits)
    except ValueError:
        return False
    return True


def int_range(bits: int, signed: bool) -> tuple[int, int]:
    if signed:
        return -(2 ** (bits - 1)), 2 ** (bits - 1) - 1
    return 0, 2**bits - 1


def _int_bits(t: DataType) -> tuple[int, bool]:
    """Bit width and signedness of the integer a kind is stored as."""
    match t.kind:
        case "int":
            return t.bit_width, t.is_signed
        case "date":
            return 32, True
        case "time":
            return (32 if t.unit == "ms" else 64), True
        case "timestamp" | "int96":
            return 64, True
        case "decimal":
            return 0, True  # unbounded here; precision is checked separately
    raise AssertionError(t.kind)


# An ORC timestamp (no Parquet physical type) is a signed 64-bit count of seconds and
# its nanoseconds (ORCv1.md, 'Timestamp Columns'): its nanosecond count reaches far past
# the 64 bits of a Parquet TIMESTAMP(ns), to dates before 1582 and after 2262.
NANOS_PER_SECOND = 10**9
_SECONDS_LO, _SECONDS_HI = int_range(64, True)
SECONDS_AND_NANOS_RANGE = (_SECONDS_LO * NANOS_PER_SECOND,
                           _SECONDS_HI * NANOS_PER_SECOND + NANOS_PER_SECOND - 1)


def _timestamp_range(t: DataType) -> tuple[int, int] | None:
    """The range of a timestamp held as seconds and nanoseconds, or None for the others."""
    if t.kind == "timestamp" and t.physical is None and t.unit == "ns":
        return SECONDS_AND_NANOS_RANGE
    return None


# ---- Python value -> JSON ---------------------------------------------------

def to_json(t: DataType, v: Any) -> Any:
    if v is None:
        return None
    match t.kind:
        case "boolean":
            return v
        case "int" | "date" | "time" | "timestamp" | "int96":
            bits, _ = _int_bits(t)
            return v if bits <= _JSON_NUMBER_MAX_BITS else str(v)
        case "float":
            return format_float(v)
        case "decimal":
            return format_decimal(v, t.decimal_scale)
        case "binary" | "bson" | "fixed" | "geometry" | "geography":
            return v.hex()
        case "string" | "enum" | "json" | "uuid" | "char" | "varchar":
            return v
        case "interval":
            return list(v)
        case "union":
            tag, value = v
            return {"tag": tag, "value": to_json(t.fields[tag].type, value)}
        case "variant":
            return {"metadata": v[0].hex(), "value": v[1].hex()}
        case "list":
            return [to_json(t.list_element.type, e) for e in v]
        case "map":
            return [[to_json(t.map_key.type, k), to_json(t.map_value.type, x)] for k, x in v]
        case "struct":
            return {f.name: to_json(f.type, v[f.name]) for f in t.fields}
    raise AssertionError(f"unhandled kind {t.kind}")


def format_float(x: float) -> str:
    if math.isnan(x):
        bits = float_bits(x)
        return "nan" if bits == CANONICAL_NAN_BITS else f"{_NAN_PREFIX}{bits:016x}"
    return repr(x)


def format_decimal(unscaled: int, scale: int) -> str:
    """Decimal text with exactly `scale` fraction digits (scale >= 0, LogicalTypes.md)."""
    sign = "-" if unscaled < 0 else ""
    digits = str(abs(unscaled)).rjust(scale + 1, "0")
    if scale == 0:
        return sign + digits
    return f"{sign}{digits[:-scale]}.{digits[-scale:]}"


# ---- JSON -> Python value ---------------------------------------------------

def from_json(t: DataType, j: Any) -> Any:
    if j is None:
        return None
    match t.kind:
        case "boolean" | "string" | "enum" | "json" | "uuid" | "char" | "varchar":
            return j
        case "union":
            return j["tag"], from_json(t.fields[j["tag"]].type, j["value"])
        case "int" | "date" | "time" | "timestamp" | "int96":
            return int(j)
        case "float":
            return parse_float(j)
        case "decimal":
            return parse_decimal(j, t.decimal_scale)
        case "binary" | "bson" | "fixed" | "geometry" | "geography":
            return bytes.fromhex(j)
        case "interval":
            return tuple(j)
        case "variant":
            return bytes.fromhex(j["metadata"]), bytes.fromhex(j["value"])
        case "list":
            return [from_json(t.list_element.type, e) for e in j]
        case "map":
            return [(from_json(t.map_key.type, k), from_json(t.map_value.type, x)) for k, x in j]
        case "struct":
            return {f.name: from_json(f.type, j[f.name]) for f in t.fields}
    raise AssertionError(f"unhandled kind {t.kind}")


def parse_float(s: str) -> float:
    if s.startswith(_NAN_PREFIX):
        return float_from_bits(int(s[len(_NAN_PREFIX):], 16))
    return float(s)


def parse_decimal(s: str, scale: int) -> int:
    negative = s.startswith("-")
    body = s.lstrip("-")
    whole, _, frac = body.partition(".")
    if len(frac) != scale:
        raise CanonicalValueError(f"decimal {s!r} must have exactly {scale} fraction digits")
    unscaled = int(whole + frac)
    return -unscaled if negative else unscaled


# ---- validation ---------------------------------------------------------------

def validate(t: DataType, v: Any, nullable: bool = True, path: str = "$") -> None:
    """Raise CanonicalValueError if `v` is not a canonical value of type `t`."""
    if v is None:
        if not nullable:
            raise CanonicalValueError(f"{path}: null in a non-nullable field")
        return
    problem = _scalar_problem(t, v) if not t.is_nested else _nested_problem(t, v, path)
    if problem:
        raise CanonicalValueError(f"{path}: {problem} (type {t.describe()}, value {v!r})")


def _scalar_problem(t: DataType, v: Any) -> str | None:
    match t.kind:
        case "boolean":
            return None if isinstance(v, bool) else "expected bool"
        case "int" | "date" | "time" | "timestamp" | "int96":
            if not isinstance(v, int) or isinstance(v, bool):
                return "expected int"
            lo, hi = _timestamp_range(t) or int_range(*_int_bits(t))
            return None if lo <= v <= hi else f"outside [{lo}, {hi}]"
        case "decimal":
            if not isinstance(v, int) or isinstance(v, bool):
                return "expected int (unscaled decimal)"
            return None if abs(v) < 10**t.decimal_precision else f"more than {t.decimal_precision} digits"
        case "float":
            if not isinstance(v, float):
                return "expected float"
            bits = t.bit_width
            return None if fits_float_width(v, bits) else f"not exactly representable in {bits} bits"
        case "binary" | "bson" | "geometry" | "geography":
            return None if isinstance(v, bytes) else "expected bytes"
        case "variant":
            ok = isinstance(v, tuple) and len(v) == 2 and all(isinstance(x, bytes) for x in v)
            return None if ok else "expected (metadata bytes, value bytes)"
        case "fixed":
            if not isinstance(v, bytes):
                return "expected bytes"
            return None if len(v) == t.length else f"expected {t.length} bytes"
        case "string" | "enum" | "json":
            return None if isinstance(v, str) else "expected str"
        case "char" | "varchar":
            if not isinstance(v, str):
                return "expected str"
            if t.kind == "char" and len(v) != t.length:
                return f"expected exactly {t.length} characters (CHAR values are padded)"
            return None if len(v) <= t.byte_length else f"more than {t.length} characters"
        case "uuid":
            return None if isinstance(v, str) and _UUID_RE.match(v) else "expected lowercase UUID"
        case "interval":
            ok = isinstance(v, tuple) and len(v) == 3 and all(
                isinstance(x, int) and 0 <= x <= INTERVAL_FIELD_MAX for x in v)
            return None if ok else "expected (months, days, millis) of uint32"
        case "unknown":
            return "UNKNOWN columns hold only nulls"
    raise AssertionError(t.kind)


def _nested_problem(t: DataType, v: Any, path: str) -> str | None:
    match t.kind:
        case "list":
            if not isinstance(v, list):
                return "expected list"
            for i, e in enumerate(v):
                validate(t.list_element.type, e, t.list_element.nullable, f"{path}[{i}]")
        case "map":
            if not isinstance(v, list):
                return "expected list of (key, value)"
            for i, kv in enumerate(v):
                if not (isinstance(kv, tuple) and len(kv) == 2):
                    return f"entry {i} is not a (key, value) tuple"
                validate(t.map_key.type, kv[0], False, f"{path}[{i}].key")
                validate(t.map_value.type, kv[1], t.map_value.nullable, f"{path}[{i}].value")
        case "union":
            if not (isinstance(v, tuple) and len(v) == 2 and isinstance(v[0], int)
                    and 0 <= v[0] < len(t.fields)):
                return f"expected (tag, value) with a tag below {len(t.fields)}"
            validate(t.fields[v[0]].type, v[1], True, f"{path}<{v[0]}>")
        case "struct":
            if not isinstance(v, dict) or set(v) != {f.name for f in t.fields}:
                return f"expected dict with keys {[f.name for f in t.fields]}"
            for f in t.fields:
                validate(f.type, v[f.name], f.nullable, f"{path}.{f.name}")
    return None


def uuid_from_bytes(b: bytes) -> str:
    return str(uuidlib.UUID(bytes=bytes(b)))


def uuid_to_bytes(s: str) -> bytes:
    return uuidlib.UUID(s).bytes


def unscaled_from_decimal(d, scale: int) -> int:
    """The exact unscaled integer of a `decimal.Decimal` at `scale`, or ValueError.

    Works on the digit tuple, not on Decimal arithmetic, whose context precision
    (28 digits by default) would round DECIMAL(38) values.
    """
    sign, digits, exponent = d.as_tuple()
    if not isinstance(exponent, int):
        raise ValueError(f"{d!r} is not a finite decimal")
    magnitude = int("".join(map(str, digits)) or "0")
    shift = exponent + scale
    if shift < 0:
        magnitude, rest = divmod(magnitude, 10**-shift)
        if rest:
            raise ValueError(f"{d} has more than {scale} fraction digits")
    else:
        magnitude *= 10**shift
    return -magnitude if sign else magnitude


def decimal_from_unscaled(unscaled: int, scale: int):
    """The exact `decimal.Decimal` of an unscaled value (constructed from text: no rounding)."""
    from decimal import Decimal

    return Decimal(f"{unscaled}E-{scale}")
