"""Column sort orders for min/max statistics, as the Parquet spec defines them.

Sources:

* parquet.thrift ``struct TypeDefinedOrder`` (empty) and ``union ColumnOrder``: a
  column whose ColumnOrder is ``TYPE_ORDER`` orders its ``Statistics.min_value``
  / ``max_value`` (and the ColumnIndex bounds) by "the order defined by its
  logical or physical type (if there is no logical type)". The ``ColumnOrder``
  comment lists the order of every ConvertedType and of every physical type,
  and then the floating point compatibility rules (NaN, -0.0 / +0.0) that
  ``min_max`` below implements.
* LogicalTypes.md, where every type section ends with its sort order:
  'STRING', 'ENUM', 'UUID', 'JSON', 'BSON' - unsigned byte-wise comparison;
  'Signed Integers' - signed; 'Unsigned Integers' - unsigned;
  'DECIMAL' - "signed comparison of the represented value";
  'FLOAT16' - signed, with the same NaN / signed-zero logic as FLOAT and DOUBLE;
  'DATE', 'TIME', 'TIMESTAMP' - signed;
  'INTERVAL', 'GEOMETRY', 'GEOGRAPHY' - undefined ("no min/max statistics
  should be saved for this type ... they must be ignored").

Points where the texts need reading together:

* INTERVAL: the ``ColumnOrder`` comment in parquet.thrift still says
  "INTERVAL - unsigned comparison", but LogicalTypes.md 'INTERVAL' says "The
  sort order used for INTERVAL is undefined" and that such statistics must be
  ignored. The newer LogicalTypes.md text wins here: UNDEFINED.
* INT96: "INT96 (only used for legacy timestamps) - depends on sort order":
  "Writers that emit stats for such columns should use the
  INT96_TIMESTAMP_ORDER" and order "the last 4 bytes (days) as a little-endian
  32-bit signed integer", then "the first 8 bytes as a little-endian 64-bit
  signed integer (nanos)" (:data:`SortOrder.INT96_TIMESTAMP`); "If TYPE_ORDER
  is used for an INT96 column, readers should ignore all statistics", so INT96
  is UNDEFINED under TYPE_ORDER. parquet.thrift 'INT96_TIMESTAMP_ORDER': "Only
  columns of physical type INT96 may use this ordering"; on any other column
  the order is UNDEFINED.
* IEEE_754_TOTAL_ORDER (parquet.thrift ``union ColumnOrder``, member 2): "the
  totalOrder predicate, as defined in section 5.10 of IEEE-754 (2008
  revision)": "-0 to be less than +0, -NaN to be less than anything else, and
  +NaN to be greater than anything else", and an order "between different bit
  representations of the same value" (:data:`SortOrder.IEEE_754_TOTAL`). "Only
  columns of physical type FLOAT or DOUBLE, or logical type FLOAT16 may use this
  ordering": on any other column it is UNDEFINED. Its writing rule: min and max
  are "the smallest and largest non-NaN values respectively, or if all non-null
  values are NaN, the smallest and largest NaN values" (``min_max``).
* A ColumnOrder member newer than this code (a union read with no member set):
  "If the reader does not support the value of this union, min and max stats
  for this column should be ignored": UNDEFINED.
* LIST, MAP (and MAP_KEY_VALUE) are "undefined"; they and VARIANT annotate
  groups, which are not leaf columns and carry no statistics. VARIANT's section
  states no order at all, so it is UNDEFINED here, as is UNKNOWN (NullType,
  "only null values stored") and any LogicalType member newer than
  metadata.py knows (a union read with no member set): "If the reader does not
  support the value of this union, min and max stats for this column should be
  ignored."
* BOOLEAN is "false, true"; with the reader's ``bool`` values that is the
  signed order of 0 and 1, so it is reported as SIGNED.

Values are PHYSICAL values as the reference reader returns them: BOOLEAN
``bool``; INT32 / INT64 signed Python ``int`` (a UINT_32 of 2**32 - 1 arrives
as -1); INT96 12 ``bytes``; FLOAT / DOUBLE Python ``float``; BYTE_ARRAY and
FIXED_LEN_BYTE_ARRAY ``bytes`` (FLOAT16 is the 2 little-endian bytes, a binary
DECIMAL the big-endian two's complement unscaled value).

A LogicalType takes precedence over the deprecated ConvertedType when both are
given (LogicalTypes.md 'Metadata' / 'Compatibility'); the ConvertedType is used
only when no LogicalType is present.

:func:`array_sort_key` gives the keys of fixed-width values (BOOLEAN, INT32, INT64,
FLOAT, DOUBLE) over a whole numpy array at once; the per-value keys stay the
definition, and a Hypothesis test checks the two order alike.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Iterable
from enum import Enum
from typing import Any

import numpy as np

from reference_impl.parquet.encodings.plain import BYTE_TYPES
from reference_impl.parquet.metadata.parquet_thrift import (
    ColumnOrder,
    ConvertedType,
    FileMetaData,
    IEEE754TotalOrder,
    Int96TimestampOrder,
    LogicalType,
    Type,
    TypeDefinedOrder,
)
from reference_impl.parquet.metadata.unknown_enum_values import enum_name
from reference_impl.parquet.schema.logical_values import FLOAT16_LENGTH, float16_from_bytes
from reference_impl.parquet.schema.type_rules import TypeRule, rule_for_converted, rule_for_logical

__all__ = [
    "COLUMN_ORDERS",
    "IEEE_754_TOTAL_ORDER",
    "INT96_TIMESTAMP_ORDER",
    "TYPE_ORDER",
    "SortOrder",
    "array_sort_key",
    "column_order_problem",
    "default_column_order",
    "file_column_order",
    "is_floating",
    "min_max",
    "nan_count",
    "sort_key",
    "sort_order",
    "written_column_order",
]


class SortOrder(Enum):
    SIGNED = "signed"
    UNSIGNED = "unsigned"
    UNDEFINED = "undefined"
    INT96_TIMESTAMP = "INT96 chronological"  # days, then nanoseconds of the day
    IEEE_754_TOTAL = "IEEE 754 totalOrder"  # floats: -NaN < -inf < ... < -0 < +0 < ... < +inf < +NaN


# The members of parquet.thrift ``union ColumnOrder`` this code implements.
TYPE_ORDER = "TYPE_ORDER"
IEEE_754_TOTAL_ORDER = "IEEE_754_TOTAL_ORDER"
INT96_TIMESTAMP_ORDER = "INT96_TIMESTAMP_ORDER"
COLUMN_ORDERS = (TYPE_ORDER, IEEE_754_TOTAL_ORDER, INT96_TIMESTAMP_ORDER)
_ORDER_MEMBERS = {
    TYPE_ORDER: TypeDefinedOrder,
    IEEE_754_TOTAL_ORDER: IEEE754TotalOrder,
    INT96_TIMESTAMP_ORDER: Int96TimestampOrder,
}
_DOUBLE = struct.Struct("<d")
_DOUBLE_SIGN = 1 << 63
INT96_LENGTH = 12
INT96_NANOS_LENGTH = 8  # the first 8 bytes: nanoseconds of the day; the last 4: the day


def default_column_order(physical_type: Type) -> str:
    """The ColumnOrder member the reference writer gives a column unless told otherwise:
    INT96 chronologically (the "should" of the ColumnOrder comment), every other type by
    TYPE_ORDER (what every reader knows)."""
    return INT96_TIMESTAMP_ORDER if physical_type == Type.INT96 else TYPE_ORDER


def written_column_order(member: str) -> ColumnOrder:
    """The ColumnOrder union with ``member`` (one of :data:`COLUMN_ORDERS`) set."""
    chosen: dict[str, Any] = {member: _ORDER_MEMBERS[member]()}
    return ColumnOrder(**chosen)


def column_order_problem(
    member: str, physical_type: Type, logical_type: LogicalType | None = None
) -> str:
    """Why ``member`` may not order this column ("" when it may): parquet.thrift
    'IEEE_754_TOTAL_ORDER' "Only columns of physical type FLOAT or DOUBLE, or logical
    type FLOAT16 may use this ordering"; 'INT96_TIMESTAMP_ORDER' "Only columns of
    physical type INT96 may use this ordering"."""
    if member not in COLUMN_ORDERS:
        return f"{member!r} is not a ColumnOrder member; known: {', '.join(COLUMN_ORDERS)}"
    if member == IEEE_754_TOTAL_ORDER and not is_floating(physical_type, logical_type):
        return f"{member} orders FLOAT, DOUBLE and FLOAT16 columns only"
    if member == INT96_TIMESTAMP_ORDER and Type(physical_type) != Type.INT96:
        return f"{member} orders INT96 columns only"
    return ""


def is_floating(physical_type: Type, logical_type: LogicalType | None = None) -> bool:
    """FLOAT, DOUBLE or FLOAT16: the columns with NaNs, signed zeros and a ``nan_count``."""
    float16 = logical_type is not None and logical_type.kind == "FLOAT16"
    return float16 or Type(physical_type) in (Type.FLOAT, Type.DOUBLE)


def file_column_order(metadata: FileMetaData, leaf_index: int, leaf_count: int) -> str | None:
    """The ColumnOrder member the file names for leaf ``leaf_index``; None when the file
    has no ``column_orders`` for its leaves or the member is one this code does not know."""
    orders = metadata.column_orders
    if orders is None or len(orders) != leaf_count:
        return None
    return orders[leaf_index].kind



# Physical type alone ('In the absence of logical types ...').
_PHYSICAL_ORDER = {
    Type.BOOLEAN: SortOrder.SIGNED,  # "false, true"
    Type.INT32: SortOrder.SIGNED,
    Type.INT64: SortOrder.SIGNED,
    Type.INT96: SortOrder.UNDEFINED,  # under TYPE_ORDER; see INT96_TIMESTAMP_ORDER
    Type.FLOAT: SortOrder.SIGNED,
    Type.DOUBLE: SortOrder.SIGNED,
    Type.BYTE_ARRAY: SortOrder.UNSIGNED,
    Type.FIXED_LEN_BYTE_ARRAY: SortOrder.UNSIGNED,
}

# The order of each annotation; which physical types it may annotate is the table of
# type rules' (``schema.type_rules``), checked by ``_check_pairing``.
_CT = ConvertedType
_CONVERTED_ORDER: dict[ConvertedType, SortOrder] = {
    **dict.fromkeys((_CT.UTF8, _CT.ENUM, _CT.JSON, _CT.BSON), SortOrder.UNSIGNED),
    **dict.fromkeys((_CT.UINT_8, _CT.UINT_16, _CT.UINT_32, _CT.UINT_64), SortOrder.UNSIGNED),
    **dict.fromkeys((_CT.INT_8, _CT.INT_16, _CT.INT_32, _CT.INT_64, _CT.DECIMAL, _CT.DATE,
                     _CT.TIME_MILLIS, _CT.TIME_MICROS, _CT.TIMESTAMP_MILLIS,
                     _CT.TIMESTAMP_MICROS), SortOrder.SIGNED),
    **dict.fromkeys((_CT.INTERVAL, _CT.LIST, _CT.MAP, _CT.MAP_KEY_VALUE), SortOrder.UNDEFINED),
}
_LOGICAL_ORDER: dict[str, SortOrder] = {
    **dict.fromkeys(("STRING", "ENUM", "JSON", "BSON", "UUID"), SortOrder.UNSIGNED),
    **dict.fromkeys(("DECIMAL", "DATE", "TIME", "TIMESTAMP", "FLOAT16"), SortOrder.SIGNED),
    **dict.fromkeys(("UNKNOWN", "GEOMETRY", "GEOGRAPHY", "MAP", "LIST", "VARIANT"),
                    SortOrder.UNDEFINED),
    # "INTEGER" depends on isSigned; handled in _annotation.
}


def _annotation(
    physical_type: Type,
    logical_type: LogicalType | None,
    converted_type: ConvertedType | int | None,
    column_order: str = TYPE_ORDER,
) -> tuple[str, SortOrder]:
    """``(annotation name, order)`` for the column under ``column_order``; validates the pairing."""
    physical_type = Type(physical_type)
    if column_order == IEEE_754_TOTAL_ORDER and is_floating(physical_type, logical_type):
        return _annotation(physical_type, logical_type, converted_type)[0], SortOrder.IEEE_754_TOTAL
    if column_order != TYPE_ORDER:
        chronological = column_order == INT96_TIMESTAMP_ORDER and physical_type == Type.INT96
        return column_order, SortOrder.INT96_TIMESTAMP if chronological else SortOrder.UNDEFINED
    if logical_type is not None:
        kind = logical_type.kind
        if kind is None:  # a member from a newer spec: unsupported, ignore stats
            return "unknown LogicalType", SortOrder.UNDEFINED
        _check_pairing(kind, physical_type, rule_for_logical(logical_type))
        member = logical_type.INTEGER
        if member is not None:
            return kind, SortOrder.SIGNED if member.isSigned else SortOrder.UNSIGNED
        return kind, _LOGICAL_ORDER[kind]
    if converted_type is not None:
        if converted_type not in _CONVERTED_ORDER:  # unknown (metadata.unknown_enum_values): ignore stats
            return enum_name(ConvertedType, converted_type), SortOrder.UNDEFINED
        converted_type = ConvertedType(converted_type)
        _check_pairing(converted_type.name, physical_type, rule_for_converted(converted_type))
        return converted_type.name, _CONVERTED_ORDER[converted_type]
    return physical_type.name, _PHYSICAL_ORDER[physical_type]


def _check_pairing(name: str, physical_type: Type, row: TypeRule | None) -> None:
    """The table of type rules' verdict on ``name`` over ``physical_type``."""
    if row is None:
        raise ValueError(f"{name} has no row in the table of type rules (schema.type_rules)")
    if not row.physical_types:
        raise ValueError(f"{name} annotates a group, not a leaf column with statistics")
    if physical_type not in row.physical_types:
        raise ValueError(f"{name} cannot annotate physical type {physical_type.name}")


def sort_order(
    physical_type: Type,
    logical_type: LogicalType | None = None,
    converted_type: ConvertedType | int | None = None,
    *,
    column_order: str = TYPE_ORDER,
) -> SortOrder:
    """The order of a leaf column under ``column_order``, a ColumnOrder member's name
    (see the module docstring).

    Raises ValueError for a group annotation (MAP, LIST, VARIANT) or an
    annotation the spec does not allow on ``physical_type``.
    """
    return _annotation(physical_type, logical_type, converted_type, column_order)[1]


# -- keys ---------------------------------------------------------------------


def _float_key(value: float) -> float:
    value = float(value)
    if math.isnan(value):
        raise ValueError("NaN has no place in the FLOAT/DOUBLE/FLOAT16 order (ColumnOrder)")
    return value  # -0.0 == +0.0: "signed comparison of the represented value"


def _float16_value(value: bytes) -> float:
    if len(value) != FLOAT16_LENGTH:
        raise ValueError(f"FLOAT16 value must be {FLOAT16_LENGTH} bytes, got {len(value)}")
    return float16_from_bytes(bytes(value))


def _float16_key(value: bytes) -> float:
    return _float_key(_float16_value(value))


def _total_order_key(value: float) -> int:
    """IEEE 754 totalOrder of a float as an integer: the bits with the sign as a sign.

    Magnitudes grow with the unsigned bit pattern (NaNs, whose exponent is all ones,
    above the infinities, ordered by payload); a set sign bit turns that around, and
    ``- 1`` puts -0 below +0. A FLOAT or FLOAT16 widened by ``common.ieee_float``
    keeps its order (sign, exponent and payload widen in place).
    """
    (pattern,) = struct.unpack("<Q", _DOUBLE.pack(float(value)))
    magnitude = pattern & (_DOUBLE_SIGN - 1)
    return -magnitude - 1 if pattern & _DOUBLE_SIGN else magnitude


def _float16_total_key(value: bytes) -> int:
    return _total_order_key(_float16_value(value))


def _unsigned32_key(value: int) -> int:
    return value & 0xFFFF_FFFF  # value mod 2**32


def _unsigned64_key(value: int) -> int:
    return value & 0xFFFF_FFFF_FFFF_FFFF  # value mod 2**64


def _signed_int_key(value: int) -> int:
    return int(value)


def _bytes_key(value: bytes) -> bytes:
    # Python compares bytes as unsigned octets, lexicographically, with a
    # proper prefix first: exactly "unsigned byte-wise comparison".
    return bytes(value)


def _int96_timestamp_key(value: bytes) -> tuple[int, int]:
    """parquet.thrift ``ColumnOrder``: the days first, then the nanoseconds, both signed."""
    if len(value) != INT96_LENGTH:
        raise ValueError(f"INT96 value must be {INT96_LENGTH} bytes, got {len(value)}")
    nanos = int.from_bytes(value[:INT96_NANOS_LENGTH], "little", signed=True)
    days = int.from_bytes(value[INT96_NANOS_LENGTH:], "little", signed=True)
    return days, nanos


def _binary_decimal_key(value: bytes) -> int:
    if len(value) == 0:
        raise ValueError("a binary DECIMAL needs at least one byte")
    # Same order as the spec's recipe (flip the first byte's top bit, then
    # unsigned byte-wise), but valid for BYTE_ARRAY values of any length too.
    return int.from_bytes(value, "big", signed=True)


def _same_array(values: np.ndarray) -> np.ndarray:
    return values  # signed integers and booleans order as numpy compares them


def _unsigned32_array(values: np.ndarray) -> np.ndarray:
    return values.astype(np.uint32)  # value mod 2**32, as _unsigned32_key


def _unsigned64_array(values: np.ndarray) -> np.ndarray:
    return values.astype(np.uint64)  # value mod 2**64, as _unsigned64_key


def _total_order_array(values: np.ndarray) -> np.ndarray:
    """:func:`_total_order_key` of every double at once."""
    pattern = np.ascontiguousarray(values, dtype=np.float64).view(np.uint64)
    magnitude = (pattern & np.uint64(_DOUBLE_SIGN - 1)).astype(np.int64)
    return np.where(pattern >= np.uint64(_DOUBLE_SIGN), -magnitude - 1, magnitude)


# Each array key orders an array's elements as its per-value key orders their Python
# values; the float key, like _float_key, is for arrays without NaN.
_ARRAY_KEYS: dict[Callable[[Any], Any], Callable[[np.ndarray], np.ndarray]] = {
    _signed_int_key: _same_array,
    int: _same_array,  # the deprecated min/max's "signed comparison" of integers
    _unsigned32_key: _unsigned32_array,
    _unsigned64_key: _unsigned64_array,
    _float_key: _same_array,  # -0.0 == +0.0 in numpy too
    _total_order_key: _total_order_array,
}


def array_sort_key(key: Callable[[Any], Any]) -> Callable[[np.ndarray], np.ndarray] | None:
    """The twin of the per-value ``key`` over a numpy array of values (None: ``key`` has
    none, its values are not fixed-width numbers)."""
    return _ARRAY_KEYS.get(key)


def sort_key(
    physical_type: Type,
    logical_type: LogicalType | None = None,
    converted_type: ConvertedType | int | None = None,
    *,
    column_order: str = TYPE_ORDER,
) -> Callable[[Any], Any]:
    """A Python sort key over physical values implementing the column's order.

    ``sorted(values, key=sort_key(...))`` orders non-null values as the spec
    does. Raises ValueError when the order is UNDEFINED; under TYPE_ORDER the
    float keys raise ValueError on NaN, which that order leaves unordered
    (``min_max`` drops it); IEEE_754_TOTAL_ORDER orders every bit pattern.
    """
    physical_type = Type(physical_type)
    name, order = _annotation(physical_type, logical_type, converted_type, column_order)
    if order is SortOrder.UNDEFINED:
        raise ValueError(f"the sort order of {name} on {physical_type.name} is undefined")
    if order is SortOrder.INT96_TIMESTAMP:
        return _int96_timestamp_key
    if order is SortOrder.IEEE_754_TOTAL:
        return _float16_total_key if name == "FLOAT16" else _total_order_key
    if name == "FLOAT16":
        return _float16_key
    if physical_type in (Type.FLOAT, Type.DOUBLE):
        return _float_key
    if physical_type in BYTE_TYPES:
        return _binary_decimal_key if name == "DECIMAL" else _bytes_key
    if order is SortOrder.UNSIGNED:
        return _unsigned64_key if physical_type == Type.INT64 else _unsigned32_key
    return _signed_int_key  # INT32 / INT64 signed, BOOLEAN (False < True)


# -- statistics ---------------------------------------------------------------

_FLOAT16_NEG_ZERO = b"\x00\x80"
_FLOAT16_POS_ZERO = b"\x00\x00"


def min_max(
    values: Iterable[Any],
    physical_type: Type,
    logical_type: LogicalType | None = None,
    converted_type: ConvertedType | int | None = None,
    *,
    column_order: str = TYPE_ORDER,
) -> tuple[Any, Any] | None:
    """``(min, max)`` physical values for Statistics.min_value / max_value.

    ``None`` values (nulls) are skipped. Returns None when no value is left
    or the order is UNDEFINED (no statistics are written for such columns).
    For FLOAT, DOUBLE and FLOAT16 the writing rules of ``union ColumnOrder``
    apply. Under TYPE_ORDER: min and max "must be computed from non-NaN values
    only"; "If all non-null values are NaN, min and max statistics must not be
    written" (None); "If the computed max value is zero (whether negative or
    positive), `+0.0` should be written into the max statistics field", and
    `-0.0` into the min. Under IEEE_754_TOTAL_ORDER: "the smallest and largest
    non-NaN values respectively, or if all non-null values are NaN, the smallest
    and largest NaN values as defined by IEEE 754 total order".
    """
    physical_type = Type(physical_type)
    name, order = _annotation(physical_type, logical_type, converted_type, column_order)
    if order is SortOrder.UNDEFINED:
        return None
    key = sort_key(physical_type, logical_type, converted_type, column_order=column_order)
    present = [value for value in values if value is not None]
    if not is_floating(physical_type, logical_type):
        return _extremes(present, key)
    is_nan = _nan_test(physical_type, logical_type)
    numbers = [value for value in present if not is_nan(value)]
    if order is SortOrder.IEEE_754_TOTAL:
        return _extremes(numbers or present, key)
    extremes = _extremes(numbers, key)
    return None if extremes is None else _zeros_written(*extremes, name == "FLOAT16")


def _extremes(values: list[Any], key: Callable[[Any], Any]) -> tuple[Any, Any] | None:
    return (min(values, key=key), max(values, key=key)) if values else None


def _zeros_written(low: Any, high: Any, float16: bool) -> tuple[Any, Any]:
    """TYPE_ORDER's zero rule: a zero min as -0.0, a zero max as +0.0."""
    if float16:
        low = _FLOAT16_NEG_ZERO if _float16_value(low) == 0.0 else low
        high = _FLOAT16_POS_ZERO if _float16_value(high) == 0.0 else high
        return low, high
    return (-0.0 if low == 0.0 else low), (0.0 if high == 0.0 else high)


def _nan_test(physical_type: Type, logical_type: LogicalType | None) -> Callable[[Any], bool]:
    if logical_type is not None and logical_type.kind == "FLOAT16":
        return lambda value: math.isnan(_float16_value(value))
    return lambda value: math.isnan(value)


def nan_count(
    values: Iterable[Any], physical_type: Type, logical_type: LogicalType | None = None
) -> int | None:
    """``Statistics.nan_count`` of non-null ``values``: "Count of NaN values in the column;
    only present if physical type is FLOAT or DOUBLE, or logical type is FLOAT16" (None
    for any other column)."""
    if not is_floating(physical_type, logical_type):
        return None
    is_nan = _nan_test(Type(physical_type), logical_type)
    return sum(1 for value in values if value is not None and is_nan(value))
