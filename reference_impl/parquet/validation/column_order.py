"""Which order a column's statistics are judged by, and its float rules.

parquet.thrift, ``union ColumnOrder``: "min and max values for the column,
determined by its ColumnOrder"; a ColumnOrder member this reader does not know
means "min and max stats for this column should be ignored", and "Without
column_orders, the meaning of the min_value and max_value fields ... is
undefined". The type-defined orders are README.md, 'Sort Order', and
``statistics.sort_order``; LogicalTypes.md, 'FLOAT16': "The primitive type is
a 2-byte `FIXED_LEN_BYTE_ARRAY`", sorted "Like `FLOAT` and `DOUBLE`". An INT96
column's bounds are judged chronologically under ``INT96_TIMESTAMP_ORDER`` and
mean nothing under ``TYPE_ORDER`` ("readers should ignore all statistics").

``struct Statistics`` gives the deprecated ``min`` / ``max`` their own order:
"determined by signed comparison only" (:func:`legacy_key`).

Floats under TYPE_ORDER: NaNs have no place in the order, -0.0 equals +0.0
(``sort_order``), and the ColumnOrder writing rules ask -0.0 for a zero min
and +0.0 for a zero max (:meth:`Order.wrong_zero`). Under
IEEE_754_TOTAL_ORDER every bit pattern has its place (-0 < +0, NaNs by sign and
payload), and a NaN bound says "all non-null values are NaN"
(:attr:`Order.total_order`).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from reference_impl.parquet.encodings.plain import BYTE_TYPES
from reference_impl.parquet.metadata.parquet_thrift import FileMetaData, Type
from reference_impl.parquet.schema.logical_values import FLOAT16_LENGTH, float16_from_bytes
from reference_impl.parquet.schema.tree import LeafColumn, SchemaNode
from reference_impl.parquet.statistics.column_statistics import (
    FLOAT16_NEG_ZERO,
    FLOAT16_POS_ZERO,
    decode_bound,
)
from reference_impl.parquet.statistics.sort_order import (
    IEEE_754_TOTAL_ORDER,
    INT96_TIMESTAMP_ORDER,
    TYPE_ORDER,
    SortOrder,
    file_column_order,
    sort_key,
    sort_order,
)

__all__ = ["FLOAT_TYPES", "MAX", "MIN", "Key", "Order", "bits", "column_order"]

FLOAT_TYPES = frozenset({Type.FLOAT, Type.DOUBLE})
INTEGER_TYPES = frozenset({Type.INT32, Type.INT64})
# Flipping the top bit maps signed bytes (-128..127) onto 0..255 in order, so
# comparing the flipped bytes unsigned is comparing the originals signed.
SIGNED_BYTES = bytes(byte ^ 0x80 for byte in range(256))
MIN, MAX = "min", "max"
IMPLEMENTED_ORDERS = frozenset({TYPE_ORDER, IEEE_754_TOTAL_ORDER, INT96_TIMESTAMP_ORDER})
DOUBLE_PATTERN = struct.Struct("<d")

Key = Callable[[Any], Any]


@dataclass(frozen=True)
class Order:
    """How one column's bounds compare (``key`` None: min_value/max_value mean nothing)."""

    physical_type: Type
    type_length: int | None
    float16: bool  # FLOAT16 on FIXED_LEN_BYTE_ARRAY(2): values are 2-byte halves
    key: Key | None
    undefined_because: str
    legacy_key: Key | None  # the deprecated min/max's "signed comparison"
    signed: bool  # the type order is SIGNED: deprecated min/max may be set
    member: str | None = None  # the ColumnOrder member the file names (None: none known)
    floating: bool = False  # FLOAT, DOUBLE or FLOAT16, whatever its order: has a nan_count

    @property
    def is_float(self) -> bool:
        return self.float16 or self.physical_type in FLOAT_TYPES

    @property
    def total_order(self) -> bool:
        """Bounds follow IEEE_754_TOTAL_ORDER (a float column that names it)."""
        return self.member == IEEE_754_TOTAL_ORDER and self.key is not None

    @property
    def int96_without_chronology(self) -> bool:
        """An INT96 column under TYPE_ORDER: "readers should ignore all statistics"."""
        return self.physical_type == Type.INT96 and self.member == TYPE_ORDER

    def decode(self, raw: bytes) -> object:
        return decode_bound(self.physical_type, raw, self.type_length)

    def number(self, value: object) -> float:
        """A float column's value as a Python float (call only when ``is_float``)."""
        return float16_from_bytes(value) if self.float16 else float(value)  # type: ignore[arg-type]

    def is_nan(self, value: object) -> bool:
        return self.is_float and math.isnan(self.number(value))

    def nan_in_data(self, value: object) -> bool:
        """``is_nan`` for counting: a FLOAT16 value is a half whatever the column's order."""
        if not self.floating:
            return False
        number = float(value) if self.physical_type in FLOAT_TYPES else float16_from_bytes(value)  # type: ignore[arg-type]
        return math.isnan(number)

    def wrong_zero(self, value: object, role: str) -> bool:
        """+0 as a min or -0 as a max (TYPE_ORDER's writing rule asks the other zero)."""
        if self.total_order:
            return False  # -0 < +0: each zero is its own bound
        if self.float16:
            return value == (FLOAT16_POS_ZERO if role == MIN else FLOAT16_NEG_ZERO)
        if self.physical_type not in FLOAT_TYPES or value != 0.0:
            return False
        negative = math.copysign(1.0, value) < 0
        return negative if role == MAX else not negative


def bits(value: object, order: Order) -> object:
    """A hashable stand-in for a value's bit pattern (floats compare by value in Python)."""
    if order.physical_type in FLOAT_TYPES:
        # The reader widens every FLOAT bit pattern to a distinct double, signalling NaNs
        # included (``encodings.ieee_float``): the double's bits tell FLOATs apart too.
        return DOUBLE_PATTERN.pack(value)
    return value  # FLOAT16 values are their two bytes already


def column_order(metadata: FileMetaData, leaf: LeafColumn, leaf_count: int) -> Order:
    """The order ``leaf``'s statistics are judged by (see the module docstring)."""
    node = leaf.node
    member = file_column_order(metadata, leaf.index, leaf_count)
    type_order, reason = _type_order(leaf, member)
    if type_order is not SortOrder.UNDEFINED:
        reason = _column_orders_problem(metadata, leaf.index, leaf_count)
    physical_type = node.leaf_type
    types = (physical_type, node.logical_type, node.converted_type)
    in_force = member or TYPE_ORDER
    type_key = None if type_order is SortOrder.UNDEFINED else sort_key(*types, column_order=in_force)
    signed = type_order is SortOrder.SIGNED
    return Order(
        physical_type=physical_type,
        type_length=node.type_length,
        float16=_is_float16(node) and type_order is not SortOrder.UNDEFINED,
        key=None if reason else type_key,
        undefined_because=reason,
        legacy_key=legacy_key(physical_type, type_key, signed),
        signed=signed,
        member=member,
        floating=physical_type in FLOAT_TYPES or (_is_float16(node) and node.type_length == FLOAT16_LENGTH),
    )


def _is_float16(node: SchemaNode) -> bool:
    return node.logical_type is not None and node.logical_type.kind == "FLOAT16"


def _type_order(leaf: LeafColumn, member: str | None) -> tuple[SortOrder, str]:
    """The order of the column's type under its ColumnOrder ``member`` (None: TYPE_ORDER
    is assumed, ``_column_orders_problem`` tells why it does not hold), and why it is
    undefined ("" when it is not)."""
    node = leaf.node
    types = (node.leaf_type, node.logical_type, node.converted_type)
    try:
        type_order = sort_order(*types, column_order=member or TYPE_ORDER)
    except ValueError as error:  # an annotation the spec does not allow on this type
        return SortOrder.UNDEFINED, str(error)
    if _is_float16(node) and node.type_length != FLOAT16_LENGTH:
        # sort_order checks the physical type only; values of another width are no halves.
        return SortOrder.UNDEFINED, (
            f"FLOAT16 annotates {leaf.dotted_path}, a FIXED_LEN_BYTE_ARRAY({node.type_length}): "
            f"only FIXED_LEN_BYTE_ARRAY({FLOAT16_LENGTH}) holds a FLOAT16"
        )
    if type_order is SortOrder.UNDEFINED:
        under = f" under its ColumnOrder {member}" if member else ""
        return type_order, f"the sort order of {leaf.dotted_path}'s type is undefined{under}"
    return type_order, ""


def _column_orders_problem(metadata: FileMetaData, index: int, leaf_count: int) -> str:
    """Why FileMetaData.column_orders leaves the column's min_value/max_value meaningless, or ""."""
    orders = metadata.column_orders
    if orders is None or len(orders) != leaf_count:
        return "the file has no column_orders for its columns, so min_value/max_value mean nothing"
    if orders[index].kind not in IMPLEMENTED_ORDERS:
        return "its ColumnOrder is not one this reader implements: min and max stats should be ignored"
    return ""


def _signed_bytes_key(value: bytes) -> bytes:
    return bytes(value).translate(SIGNED_BYTES)


def legacy_key(physical_type: Type, type_key: Key | None, signed: bool) -> Key | None:
    """The deprecated min/max's order: "signed comparison only" (None: INT96 has none)."""
    if signed:
        return type_key  # "signed comparison of the represented value"
    if physical_type in INTEGER_TYPES:
        return int  # the physical values are signed integers already
    if physical_type in BYTE_TYPES:
        return _signed_bytes_key
    return None  # INT96: no signed comparison to speak of
