"""Chunk and page statistics against the data they summarise.

parquet.thrift, ``struct Statistics`` (``ColumnMetaData.statistics`` and
``DataPageHeader.statistics`` / ``DataPageHeaderV2.statistics``): null_count,
"count of null value in the column"; distinct_count, "count of distinct values
occurring"; min_value / max_value "determined by its ColumnOrder" (``bounds``);
nan_count and the all-NaN rules (``nan_count_checks``); and the deprecated min /
max, "determined by signed comparison only", which "may be set when the column
order is signed". An INT96 column under TYPE_ORDER: "Writers that emit stats for
such columns should use the INT96_TIMESTAMP_ORDER"; "If TYPE_ORDER is used for
an INT96 column, readers should ignore all statistics".
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from reference_impl.common.decoded_values import DecodedValues
from reference_impl.parquet.metadata.parquet_thrift import Statistics
from reference_impl.parquet.pages.chunk_reader import PageExtent
from reference_impl.parquet.validation.bounds import Bound, check_bound
from reference_impl.parquet.validation.chunk import Chunk
from reference_impl.parquet.validation.column_order import MAX, MIN, Order, bits
from reference_impl.parquet.validation.findings import Finding, Report
from reference_impl.parquet.validation.nan_count_checks import check_nan_count

__all__ = ["check_statistics"]


def check_statistics(
    state: Chunk, stats: Statistics | None, page: PageExtent | None, prefix: str, report: Report
) -> list[Finding]:
    """The findings about the chunk's (``page`` None) or one page's statistics."""
    if stats is None:
        return []
    values = state.values(page)
    findings = check_null_count(state, stats.null_count, page, report, f"{prefix}.null_count")
    findings += _check_distinct_count(stats.distinct_count, values, state.order, prefix, report)
    findings += check_nan_count(state, stats, page, prefix, report)
    decoded = state.decoded(page)
    findings += _check_min_max_value(stats, decoded, state.order, prefix, report)
    findings += _check_deprecated(stats, decoded, state.order, prefix, report)
    return findings


def check_null_count(
    state: Chunk, stored: int | None, page: PageExtent | None, report: Report, kind: str
) -> list[Finding]:
    """A stored null count against the data, by either reading of a repeated column's
    (``rule_texts.NULL_COUNT_READINGS``): the other reading is ``<kind>_reading``, ambiguous."""
    if stored is None or stored == (nulls := state.null_count(page)):
        return []
    field = kind.rpartition(".")[2]
    if state.leaf.max_repetition_level and stored == state.null_values_in_lists(page):
        return [report(f"{kind}_reading", f"{field} is {stored}: the null values inside the innermost "
                       f"list; counting every entry below the maximum definition level gives {nulls}")]
    return [report(kind, f"{field} is {stored}, the data holds {nulls} null entries")]


def _check_distinct_count(
    stored: int | None, values: Sequence[object], order: Order, prefix: str, report: Report
) -> list[Finding]:
    if stored is None:
        return []
    by_bits = len({bits(value, order) for value in values})
    by_value = by_bits
    if order.is_float:
        numbers = [order.number(value) for value in values]
        by_value = len({n for n in numbers if not math.isnan(n)}) + any(math.isnan(n) for n in numbers)
    if by_value <= stored <= by_bits:
        return []
    counted = f"{by_bits}" if by_value == by_bits else f"between {by_value} and {by_bits}"
    return [
        report(
            f"{prefix}.distinct_count",
            f"distinct_count is {stored}, the data holds {counted} distinct values",
        )
    ]


def _check_min_max_value(
    stats: Statistics, values: DecodedValues, order: Order, prefix: str, report: Report
) -> list[Finding]:
    if stats.min_value is None and stats.max_value is None:
        return []
    if order.int96_without_chronology:
        return [
            report(
                f"{prefix}.int96_order",
                "min_value/max_value of an INT96 column under TYPE_ORDER are unusable ('If "
                "TYPE_ORDER is used for an INT96 column, readers should ignore all statistics'); "
                "'Writers that emit stats for such columns should use the INT96_TIMESTAMP_ORDER'",
            )
        ]
    if order.key is None:
        return [
            report(
                f"{prefix}.undefined_order",
                f"min_value/max_value are written, but {order.undefined_because}",
            )
        ]
    findings = []
    for field, role, raw, exact in (
        ("min_value", MIN, stats.min_value, stats.is_min_value_exact),
        ("max_value", MAX, stats.max_value, stats.is_max_value_exact),
    ):
        if raw is not None:
            findings += check_bound(Bound(prefix, field, role, order.key, exact), raw, values, order, report)
    return findings


def _check_deprecated(
    stats: Statistics, values: DecodedValues, order: Order, prefix: str, report: Report
) -> list[Finding]:
    if stats.min is None and stats.max is None:
        return []
    findings = []
    if not order.signed:
        findings.append(
            report(
                f"{prefix}.deprecated_min_max",
                "deprecated min/max are set, but the column's order is not signed "
                "(they 'may be set when the column order is signed')",
            )
        )
    if order.legacy_key is None:
        return findings
    for field, role, raw in (("min", MIN, stats.min), ("max", MAX, stats.max)):
        if raw is not None:
            findings += check_bound(Bound(prefix, field, role, order.legacy_key), raw, values, order, report)
    return findings
