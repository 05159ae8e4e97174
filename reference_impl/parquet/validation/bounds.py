"""One stored bound (a min or a max) against the values it summarises.

parquet.thrift, ``struct Statistics``: min_value / max_value are "Min and max
values for the column, determined by its ColumnOrder"; they may be "more
compact values that do not exist" but must still bound every non-null value.
``is_min_value_exact`` / ``is_max_value_exact`` claim the bound *is* the
smallest / largest value. ``union ColumnOrder``, TYPE_ORDER: "If the nan_count
field is set, min and max statistics fields, when present, must not contain NaN
values", and a zero min should be -0.0, a zero max +0.0. IEEE_754_TOTAL_ORDER:
"Min and max statistics must contain the smallest and largest non-NaN values
respectively, or if all non-null values are NaN, the smallest and largest NaN
values", so a NaN bound tells a reader that every non-null value is NaN ("the
presence of a NaN value in min_values or max_values indicates that all non-null
values are NaN"): over data with a number it is untrue. The same rules hold for
the page index's per-page bounds (PageIndex.md, 'Technical Approach';
``struct ColumnIndex``).

Values come as decoded: a numpy array for fixed-width numbers and booleans, whose
smallest or largest value is found at once (``sort_order.array_sort_key``), else a
list, judged value by value. The value-by-value search is the definition; a
Hypothesis test checks both give the same findings.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from reference_impl.common.decoded_values import DecodedValues, as_list
from reference_impl.parquet.errors import CorruptMetadata
from reference_impl.parquet.statistics.sort_order import array_sort_key
from reference_impl.parquet.validation.column_order import MIN, Key, Order
from reference_impl.parquet.validation.findings import Finding, Report, show

__all__ = ["Bound", "check_bound"]


@dataclass(frozen=True)
class Bound:
    """Which stored bound is checked, and under which order."""

    prefix: str  # statistics, page_statistics, column_index
    field: str  # min_value, max, min_values, ...
    role: str  # MIN or MAX
    key: Key
    exact: bool | None = None

    @property
    def kind(self) -> str:
        return f"{self.prefix}.{self.field}"


def check_bound(
    bound: Bound, raw: bytes, values: DecodedValues, order: Order, report: Report
) -> list[Finding]:
    """The findings about one stored bound ``raw`` of ``values`` (the non-null values)."""
    try:
        value = order.decode(raw)
    except CorruptMetadata as error:
        return [report(bound.kind, f"{bound.field} {show(raw)} cannot be decoded: {error.message}")]
    if order.total_order:
        return _total_order_nan(bound, raw, value, values, order, report) or _bound_against_values(
            bound, value, values, order, report
        )
    if order.is_nan(value):
        return [
            report(
                f"{bound.prefix}.nan_bound",
                f"{bound.field} is NaN ({show(raw)}): NaNs should not be written as bounds",
            )
        ]
    findings = []
    if order.wrong_zero(value, bound.role):
        wanted = "-0.0" if bound.role == MIN else "+0.0"
        findings.append(
            report(
                f"{bound.prefix}.signed_zero",
                f"{bound.field} is {show(value)}: a zero {bound.role} should be written as {wanted}",
            )
        )
    return findings + _bound_against_values(bound, value, values, order, report)


def _total_order_nan(
    bound: Bound, raw: bytes, value: object, values: DecodedValues, order: Order, report: Report
) -> list[Finding]:
    """A NaN bound over data holding a non-NaN value (IEEE_754_TOTAL_ORDER)."""
    if not order.is_nan(value) or _all_nan(values, order):
        return []
    return [
        report(
            f"{bound.prefix}.total_order_nan_bound",
            f"{bound.field} is NaN ({show(raw)}), which says every non-null value is NaN, but the "
            f"data holds other values ('Min and max statistics must contain the smallest and "
            f"largest non-NaN values respectively, or if all non-null values are NaN, the "
            f"smallest and largest NaN values')",
        )
    ]


def _all_nan(values: DecodedValues, order: Order) -> bool:
    if isinstance(values, np.ndarray):
        return order.is_float and bool(np.isnan(values).all())
    return all(order.is_nan(v) for v in values)


def _bound_against_values(
    bound: Bound, value: object, values: DecodedValues, order: Order, report: Report
) -> list[Finding]:
    try:
        bound_key = bound.key(value)
    except ValueError as error:
        return [
            report(bound.kind, f"{bound.field} {show(value)} is not in the column's order: {error}")
        ]
    try:
        extreme = _extreme(values, bound, order)
    except ValueError:  # a data value outside the type (an empty binary DECIMAL): no order to judge by
        return []
    if extreme is None:
        if bound.exact:
            flag = f"is_{bound.field}_exact"
            return [
                report(
                    f"{bound.prefix}.exactness",
                    f"{flag} is true, but the data holds no ordered value to equal it",
                )
            ]
        return []
    actual, actual_key = extreme
    word = "smallest" if bound.role == MIN else "largest"
    beyond = bound_key > actual_key if bound.role == MIN else bound_key < actual_key
    if beyond:
        side = "greater" if bound.role == MIN else "less"
        return [
            report(
                bound.kind,
                f"{bound.field} {show(value)} is {side} than the {word} value {show(actual)}",
            )
        ]
    if bound.exact and bound_key != actual_key:
        return [
            report(
                f"{bound.prefix}.exactness",
                f"is_{bound.field}_exact is true, but {bound.field} {show(value)} is not the "
                f"{word} value {show(actual)}",
            )
        ]
    return []


def _extreme(values: DecodedValues, bound: Bound, order: Order) -> tuple[object, Any] | None:
    """``(value, key)`` of the smallest or largest ordered value: NaNs have no place in
    TYPE_ORDER; under IEEE_754_TOTAL_ORDER they count when there is nothing else."""
    if isinstance(values, np.ndarray) and (array_key := array_sort_key(bound.key)) is not None:
        return _array_extreme(values, array_key, bound, order)
    return _extreme_by_value(as_list(values), bound, order)


def _array_extreme(
    values: np.ndarray, array_key: Callable[[np.ndarray], np.ndarray], bound: Bound, order: Order
) -> tuple[object, Any] | None:
    """``_extreme_by_value`` over an array at once: among equal keys (-0.0 and +0.0
    under TYPE_ORDER) the first value is picked, as ``min`` and ``max`` pick it."""
    if order.is_float and not (order.total_order and np.isnan(values).all()):
        values = values[~np.isnan(values)]
    if not len(values):
        return None
    keys = array_key(values)
    extreme = keys.min() if bound.role == MIN else keys.max()
    value = values[np.argmax(keys == extreme)].item()
    return value, bound.key(value)


def _extreme_by_value(values: Sequence[object], bound: Bound, order: Order) -> tuple[object, Any] | None:
    """The definition of ``_extreme``, one value at a time."""
    numbers = [v for v in values if not order.is_nan(v)]
    if order.total_order and not numbers:
        numbers = list(values)
    keyed = [(bound.key(v), v) for v in numbers]
    if not keyed:
        return None
    pick = min if bound.role == MIN else max
    key, value = pick(keyed, key=lambda pair: pair[0])
    return value, key
