"""Column chunk and page statistics: parquet.thrift ``struct Statistics``.

Sources (today's apache/parquet-format parquet.thrift; the older copy the
project started from lacks some of these fields):

* ``struct Statistics``: ``min_value`` / ``max_value`` are "Lower and upper
  bound values for the column, determined by its ColumnOrder"; "Values are
  encoded using PLAIN encoding, except that variable-length byte arrays do not
  include a length prefix"; bounds "may be the actual minimum and maximum
  values ... but can also be (more compact) values that do not exist" as long
  as they are "valid values within the column's logical type";
  ``is_min_value_exact`` / ``is_max_value_exact`` say whether they are the
  actual extremes. The deprecated ``min`` / ``max`` "encode min and max values
  determined by signed comparison only ... To support older readers, these may
  be set when the column order is signed." ``null_count``: "Writers SHOULD
  always write this field even if it is zero".
* ``FileMetaData.column_orders``: "Without column_orders, the meaning of the
  min_value and max_value fields in the Statistics object ... is undefined ...
  The obsolete min and max fields in the Statistics object are always sorted by
  signed comparison regardless of column_orders."
* ``union ColumnOrder`` (read by ``sort_order``): the per-type orders and the
  floating point rules. Writing under TYPE_ORDER: min and max "must be computed
  from non-NaN values only", a zero min is written as -0.0 and a zero max as
  +0.0 (``sort_order.min_max`` does this). Reading: "If the min is a NaN, it
  should be ignored. If the max is a NaN, it should be ignored. If the min is
  +0, the row group may contain -0 values as well. If the max is -0, the row
  group may contain +0 values as well." (``float_read_rules``).

Decisions where the texts leave room:

* Deprecated ``min`` / ``max`` are written exactly when the column's order is
  SIGNED, and then equal ``min_value`` / ``max_value``: for such a column the
  "signed comparison" of the old fields and the type's order coincide, and for
  any other column the old fields would need a second, different order. A
  reader (``statistics_bounds``) trusts them only for SIGNED columns.
* Truncation applies to BYTE_ARRAY columns with UNSIGNED (byte-wise) order only.
  A FIXED_LEN_BYTE_ARRAY value must be exactly ``type_length`` bytes, so a
  shorter prefix would not be a "valid value" of the column (and
  ``decode_bound`` rejects it); binary DECIMAL is ordered numerically, where a
  byte prefix is not a bound at all. For the UTF-8 types (STRING, ENUM, JSON)
  truncation keeps whole characters and increments a code point, so the
  bounds stay valid UTF-8.
* ``distinct_count`` counts distinct PLAIN encodings, i.e. distinct bit
  patterns: -0.0 and +0.0 count as two values, NaNs with the same bits as one
  (and NaNs with different payloads as several). This is the same notion of
  "same value" as dictionary encoding uses, and needs no float rules.
* ``Statistics.nan_count`` (field 9, 2.13) is written for every FLOAT, DOUBLE
  and FLOAT16 column under either order that has one: both make it mandatory
  (``column_statistics``). Under IEEE_754_TOTAL_ORDER (2.13) the bounds follow
  the total order (``sort_order.min_max``) and no deprecated ``min`` / ``max``
  is written: that order is not "signed".
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, SupportsFloat

from reference_impl.parquet.encodings.plain import decode_plain, encode_plain
from reference_impl.parquet.errors import CorruptMetadata
from reference_impl.parquet.metadata.parquet_thrift import ConvertedType, LogicalType, Statistics, Type
from reference_impl.parquet.schema.logical_values import FLOAT16_LENGTH, float16_from_bytes
from reference_impl.parquet.statistics.sort_order import (
    TYPE_ORDER,
    SortOrder,
    default_column_order,
    min_max,
    nan_count,
    sort_key,
    sort_order,
)

__all__ = [
    "bound_bytes",
    "column_statistics",
    "decode_bound",
    "encode_bound",
    "float_read_rules",
    "is_utf8_column",
    "statistics_bounds",
    "truncate_lower_bound",
    "truncate_upper_bound",
]

# Bytes of one bound in PLAIN encoding; BOOLEAN is one value bit-packed into one
# byte, BYTE_ARRAY has no fixed width (and no length prefix in a bound).
BOUND_WIDTHS = {
    Type.BOOLEAN: 1,
    Type.INT32: 4,
    Type.INT64: 8,
    Type.INT96: 12,
    Type.FLOAT: 4,
    Type.DOUBLE: 8,
}
BYTE_ARRAY_PREFIX_BYTES = 4  # the PLAIN length prefix a bound leaves out
MAX_BYTE = 0xFF
MAX_CODE_POINT = 0x10FFFF
SURROGATES = range(0xD800, 0xE000)  # not encodable in UTF-8

FLOAT16_POS_ZERO = b"\x00\x00"
FLOAT16_NEG_ZERO = b"\x00\x80"

_UTF8_LOGICAL = frozenset({"STRING", "ENUM", "JSON"})
_UTF8_CONVERTED = frozenset({ConvertedType.UTF8, ConvertedType.ENUM, ConvertedType.JSON})


# -- encoding one bound -------------------------------------------------------


def encode_bound(physical_type: Type, value: object, type_length: int | None = None) -> bytes:
    """One min/max value as Statistics stores it: PLAIN without a length prefix."""
    physical_type = Type(physical_type)
    if physical_type == Type.BYTE_ARRAY:
        return encode_plain(physical_type, [value])[BYTE_ARRAY_PREFIX_BYTES:]
    # BOOLEAN: PLAIN bit-packs one value into bit 0 of a single byte.
    return encode_plain(physical_type, [value], type_length)


def _expected_width(physical_type: Type, type_length: int | None) -> int | None:
    if physical_type == Type.FIXED_LEN_BYTE_ARRAY:
        if type_length is None or type_length < 1:
            raise ValueError(f"FIXED_LEN_BYTE_ARRAY needs a positive type_length, got {type_length}")
        return type_length
    return BOUND_WIDTHS.get(physical_type)  # None: BYTE_ARRAY, any length


def decode_bound(
    physical_type: Type,
    raw: bytes,
    type_length: int | None = None,
    *,
    what: str = "",
    offset: int | None = None,
) -> object:
    """The physical value of one stored bound; CorruptMetadata if its length is wrong."""
    physical_type = Type(physical_type)
    width = _expected_width(physical_type, type_length)
    if width is None:
        return bytes(raw)
    if len(raw) != width:
        label = f"{what}: " if what else ""
        raise CorruptMetadata(
            f"{label}a {physical_type.name} bound must be {width} byte(s), got {len(raw)}", offset
        )
    values, _ = decode_plain(
        physical_type, raw, 1, type_length=type_length, error=CorruptMetadata, base_offset=offset or 0
    )
    return values[0]


# -- truncation -------------------------------------------------------------------


def _check_length(length: int) -> None:
    if length < 0:
        raise ValueError(f"truncation length must be >= 0, got {length}")


def truncate_lower_bound(raw: bytes, length: int, *, utf8: bool = False) -> bytes:
    """A prefix of at most ``length`` bytes: a prefix sorts before every extension."""
    _check_length(length)
    if len(raw) <= length:
        return bytes(raw)
    if utf8 and (text := _utf8_or_none(raw)) is not None:
        return _utf8_prefix(text, length).encode()
    return bytes(raw[:length])


def truncate_upper_bound(raw: bytes, length: int, *, utf8: bool = False) -> bytes | None:
    """At most ``length`` bytes sorting after ``raw``; None when no such bytes exist.

    The prefix with its last byte below 0xFF incremented (trailing 0xFF bytes
    dropped) is greater than ``raw`` at that byte and so than every value that
    starts like ``raw``. A prefix of only 0xFF bytes cannot be incremented: the
    caller keeps the exact value. With ``utf8`` the last code point is
    incremented instead, keeping the bound valid UTF-8 (byte-wise order of
    UTF-8 is code point order).
    """
    _check_length(length)
    if len(raw) <= length:
        return bytes(raw)
    if utf8 and (text := _utf8_or_none(raw)) is not None:
        return _utf8_upper(_utf8_prefix(text, length), length)
    prefix = bytes(raw[:length]).rstrip(bytes([MAX_BYTE]))
    if not prefix:
        return None
    return prefix[:-1] + bytes([prefix[-1] + 1])


def _utf8_or_none(raw: bytes) -> str | None:
    try:
        return bytes(raw).decode("utf-8")
    except UnicodeDecodeError:
        return None  # not valid UTF-8 after all: fall back to byte-wise truncation


def _utf8_prefix(text: str, length: int) -> str:
    """The longest whole-character prefix of ``text`` that fits in ``length`` bytes."""
    size = 0
    for index, char in enumerate(text):
        size += len(char.encode())
        if size > length:
            return text[:index]
    return text


def _utf8_upper(prefix: str, length: int) -> bytes | None:
    while prefix:
        code_point = ord(prefix[-1]) + 1
        if code_point in SURROGATES:
            code_point = SURROGATES.stop
        if code_point <= MAX_CODE_POINT:
            candidate = (prefix[:-1] + chr(code_point)).encode()
            if len(candidate) <= length:  # U+007F -> U+0080 grows by a byte
                return candidate
        prefix = prefix[:-1]
    return None


def is_utf8_column(logical_type: LogicalType | None, converted_type: ConvertedType | int | None) -> bool:
    """True for STRING / ENUM / JSON, whose values must stay valid UTF-8."""
    if logical_type is not None:
        return logical_type.kind in _UTF8_LOGICAL
    return converted_type in _UTF8_CONVERTED  # an unknown ConvertedType is no UTF-8 one


def _truncates(physical_type: Type, order: SortOrder) -> bool:
    # See the module docstring: FLBA keeps its width, binary DECIMAL is numeric.
    return physical_type == Type.BYTE_ARRAY and order is SortOrder.UNSIGNED


def bound_bytes(
    low: object,
    high: object,
    physical_type: Type,
    logical_type: LogicalType | None = None,
    converted_type: ConvertedType | int | None = None,
    type_length: int | None = None,
    *,
    truncate_length: int | None = None,
) -> tuple[bytes, bytes, bool, bool]:
    """``(min bytes, max bytes, min exact, max exact)`` for exact extremes ``low`` / ``high``.

    Shared by chunk statistics and the page index, which truncate alike.
    """
    physical_type = Type(physical_type)
    low_raw = encode_bound(physical_type, low, type_length)
    high_raw = encode_bound(physical_type, high, type_length)
    order = sort_order(physical_type, logical_type, converted_type)
    if truncate_length is None or not _truncates(physical_type, order):
        return low_raw, high_raw, True, True
    utf8 = is_utf8_column(logical_type, converted_type)
    low_cut = truncate_lower_bound(low_raw, truncate_length, utf8=utf8)
    high_cut = truncate_upper_bound(high_raw, truncate_length, utf8=utf8)
    if high_cut is None:
        high_cut = high_raw  # every byte 0xFF: no shorter upper bound exists
    return low_cut, high_cut, low_cut == low_raw, high_cut == high_raw


# -- writing ----------------------------------------------------------------------


def column_statistics(
    values: Sequence[object],
    null_count: int,
    physical_type: Type,
    logical_type: LogicalType | None = None,
    converted_type: ConvertedType | int | None = None,
    type_length: int | None = None,
    *,
    column_order: str | None = None,
    truncate_length: int | None = None,
    distinct_count: bool = False,
) -> Statistics:
    """Statistics for a column chunk or page whose non-null values are ``values``.

    The bounds follow ``column_order``, a ColumnOrder member (None: the writer's
    default, ``default_column_order``). min/max are absent when ``min_max`` finds
    none (UNDEFINED order, no values, only NaN under TYPE_ORDER); ``null_count``
    is always written, and ``nan_count`` for every FLOAT, DOUBLE and FLOAT16
    column ("The nan_count field must be set for floating point types, even if
    it is zero" under TYPE_ORDER; "Writing the nan_count field is mandatory"
    under IEEE_754_TOTAL_ORDER); ``distinct_count`` only when asked (see the
    module docstring for what "distinct" means).
    """
    if null_count < 0:
        raise ValueError(f"null_count must be >= 0, got {null_count}")
    physical_type = Type(physical_type)
    order = column_order or default_column_order(physical_type)
    stats = Statistics(null_count=null_count, nan_count=nan_count(values, physical_type, logical_type))
    if distinct_count:
        stats.distinct_count = len({encode_bound(physical_type, v, type_length) for v in values})
    extremes = min_max(values, physical_type, logical_type, converted_type, column_order=order)
    if extremes is None:
        return stats
    low, high, low_exact, high_exact = bound_bytes(
        *extremes, physical_type, logical_type, converted_type, type_length, truncate_length=truncate_length
    )
    stats.min_value, stats.max_value = low, high
    stats.is_min_value_exact, stats.is_max_value_exact = low_exact, high_exact
    if sort_order(physical_type, logical_type, converted_type, column_order=order) is SortOrder.SIGNED:
        stats.min, stats.max = low, high  # for readers that predate min_value
    return stats


# -- reading ----------------------------------------------------------------------


def statistics_bounds(
    stats: Statistics,
    physical_type: Type,
    logical_type: LogicalType | None = None,
    converted_type: ConvertedType | int | None = None,
    type_length: int | None = None,
    *,
    column_order_defined: bool = True,
    column_order: str = TYPE_ORDER,
    what: str = "",
    offset: int | None = None,
) -> tuple[object | None, object | None]:
    """Decoded ``(lower bound, upper bound)`` a reader may rely on; None where none.

    ``column_order_defined`` is False when the file has no ``column_orders``
    (then ``min_value`` / ``max_value`` mean nothing, FileMetaData field 7);
    ``column_order`` is the member of the column's ColumnOrder (an INT96
    column's bounds count only under ``INT96_TIMESTAMP_ORDER``). A ColumnOrder
    member this reader does not know means "min and max stats for this column
    should be ignored": do not call this function for it. Under TYPE_ORDER a
    float column's bounds pass ``float_read_rules``; under IEEE_754_TOTAL_ORDER
    they are returned as stored, a NaN bound meaning "all non-null values are
    NaN" (the order's reading rules).
    Raises CorruptMetadata for a bound of the wrong size or min > max.
    """
    physical_type = Type(physical_type)
    order = sort_order(physical_type, logical_type, converted_type, column_order=column_order)
    if order is SortOrder.UNDEFINED:
        return None, None
    signed = order is SortOrder.SIGNED
    low_raw = _pick(stats.min_value if column_order_defined else None, stats.min if signed else None)
    high_raw = _pick(stats.max_value if column_order_defined else None, stats.max if signed else None)

    def decoded(raw: bytes | None) -> object | None:
        if raw is None:
            return None
        return decode_bound(physical_type, raw, type_length, what=what, offset=offset)

    low, high = decoded(low_raw), decoded(high_raw)
    key = sort_key(physical_type, logical_type, converted_type, column_order=column_order)
    if order is SortOrder.IEEE_754_TOTAL:
        _check_ordered(low, high, key, what=what, offset=offset)
        return low, high  # a NaN bound here says every non-null value is NaN
    low, high = float_read_rules(low, high, physical_type, logical_type)
    _check_ordered(low, high, key, what=what, offset=offset)
    return low, high


def _pick(preferred: bytes | None, fallback: bytes | None) -> bytes | None:
    return preferred if preferred is not None else fallback


def _is_float16(logical_type: LogicalType | None) -> bool:
    return logical_type is not None and logical_type.kind == "FLOAT16"


def _is_nan(value: object) -> bool:
    """NaN, for a decoded FLOAT or DOUBLE bound (a Python or NumPy float)."""
    return isinstance(value, SupportsFloat) and math.isnan(value)


def float_read_rules(
    low: object, high: object, physical_type: Type, logical_type: LogicalType | None
) -> tuple[object, object]:
    """The compatibility rules of ``union ColumnOrder`` for TYPE_ORDER float bounds:
    "If the min is a NaN, it should be ignored. If the max is a NaN, it should be
    ignored."; "If the min is +0, the row group may contain -0 values as well. If
    the max is -0, the row group may contain +0 values as well." (a NaN bound
    becomes None; a zero min -0.0 and a zero max +0.0)."""
    if _is_float16(logical_type):
        low = None if low is None or _nan16(low) else low
        high = None if high is None or _nan16(high) else high
        low = FLOAT16_NEG_ZERO if low == FLOAT16_POS_ZERO else low  # "+0: may contain -0"
        high = FLOAT16_POS_ZERO if high == FLOAT16_NEG_ZERO else high
        return low, high
    if physical_type in (Type.FLOAT, Type.DOUBLE):
        low = None if _is_nan(low) else low
        high = None if _is_nan(high) else high
        low = -0.0 if low == 0.0 else low  # +0.0 == -0.0, so both map to -0.0
        high = 0.0 if high == 0.0 else high
    return low, high


def _nan16(raw: object) -> bool:
    return len(raw) == FLOAT16_LENGTH and math.isnan(float16_from_bytes(raw))  # type: ignore[arg-type]


def _check_ordered(
    low: object, high: object, key: Callable[[Any], Any], *, what: str, offset: int | None
) -> None:
    if low is None or high is None:
        return
    if key(low) > key(high):
        label = f"{what}: " if what else ""
        raise CorruptMetadata(f"{label}min {low!r} is greater than max {high!r}", offset)
