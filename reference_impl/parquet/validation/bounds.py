"""One stored bound (a min or a max) against the values it summarises.

parquet.thrift, ``struct Statistics``: min_value / max_value are "Min and max
values for the column, determined by its ColumnOrder"; they may be "more
compact values that do not exist" but must still bound every non-null value.
``is_min_value_exact`` / ``is_max_value_exact`` claim the bound *is* the
smallest / largest value. ``union ColumnOrder``: "NaNs should not be written
to min or max statistics fields", and a zero min should be -0.0, a zero max
+0.0. The same rules hold for the page index's per-page bounds (PageIndex.md,
'Technical Approach').
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from reference_impl.parquet.errors import CorruptMetadata
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
    bound: Bound, raw: bytes, values: Sequence[object], order: Order, report: Report
) -> list[Finding]:
    """The findings about one stored bound ``raw`` of ``values``."""
    try:
        value = order.decode(raw)
    except CorruptMetadata as error:
        return [report(bound.kind, f"{bound.field} {show(raw)} cannot be decoded: {error.message}")]
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


def _bound_against_values(
    bound: Bound, value: object, values: Sequence[object], order: Order, report: Report
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


def _extreme(values: Sequence[object], bound: Bound, order: Order) -> tuple[object, Any] | None:
    """``(value, key)`` of the smallest or largest ordered value (NaNs have no place)."""
    keyed = [(bound.key(v), v) for v in values if not order.is_nan(v)]
    if not keyed:
        return None
    pick = min if bound.role == MIN else max
    key, value = pick(keyed, key=lambda pair: pair[0])
    return value, key
