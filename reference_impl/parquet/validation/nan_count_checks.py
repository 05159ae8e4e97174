"""NaN counts and the all-NaN rules of the floating-point column orders.

parquet.thrift (2.13 and after):

* ``struct Statistics`` field 9, ``nan_count``: "Count of NaN values in the
  column; only present if physical type is FLOAT or DOUBLE, or logical type is
  FLOAT16."
* ``struct ColumnIndex`` field 8, ``nan_counts``: "A list containing the number
  of NaN values for each page. Only present for columns of physical type FLOAT
  or DOUBLE, or logical type FLOAT16."
* ``union ColumnOrder``, TYPE_ORDER: "The nan_count field must be set for
  floating point types, even if it is zero."; "If all non-null values are NaN,
  min and max statistics must not be written."; for column indexes, "If all
  non-null values of a page are NaN, a column index must not be written for
  this column chunk because min_values and max_values are required."
* ``union ColumnOrder``, IEEE_754_TOTAL_ORDER: "Writing the nan_count field is
  mandatory when using this ordering."

A NaN is any bit pattern with an all-ones exponent and a non-zero mantissa,
whatever its sign and payload; a FLOAT16 value is its two bytes read as a half
(LogicalTypes.md, 'FLOAT16').
"""

from __future__ import annotations

from collections.abc import Sequence

from reference_impl.parquet.metadata.parquet_thrift import ColumnIndex, Statistics
from reference_impl.parquet.pages.chunk_reader import PageExtent
from reference_impl.parquet.statistics.sort_order import IEEE_754_TOTAL_ORDER, TYPE_ORDER
from reference_impl.parquet.validation.chunk import Chunk
from reference_impl.parquet.validation.column_order import Order
from reference_impl.parquet.validation.findings import Finding, Report

__all__ = ["check_index_nan_counts", "check_nan_count", "nans_in"]

ONLY_FLOATS = "only present if physical type is FLOAT or DOUBLE, or logical type is FLOAT16"
MANDATORY = {
    TYPE_ORDER: "The nan_count field must be set for floating point types, even if it is zero.",
    IEEE_754_TOTAL_ORDER: "Writing the nan_count field is mandatory when using this ordering.",
}
NO_ALL_NAN_BOUNDS = "If all non-null values are NaN, min and max statistics must not be written."
NO_ALL_NAN_INDEX = (
    "If all non-null values of a page are NaN, a column index must not be written for this "
    "column chunk because min_values and max_values are required."
)


def nans_in(values: Sequence[object], order: Order) -> int:
    """How many of ``values`` (non-null) are NaN."""
    return sum(1 for value in values if order.nan_in_data(value))


def check_nan_count(
    state: Chunk, stats: Statistics, page: PageExtent | None, prefix: str, report: Report
) -> list[Finding]:
    """The findings about ``stats.nan_count`` and TYPE_ORDER's all-NaN rule."""
    order = state.order
    stored = stats.nan_count
    if not order.floating:
        if stored is None:
            return []
        return [report(f"{prefix}.nan_count_type",
                       f"nan_count is {stored} on a column that is not floating point ('{ONLY_FLOATS}')")]
    values = state.values(page)
    nans = nans_in(values, order)
    findings = []
    if stored is None and order.member in MANDATORY:
        findings.append(report(f"{prefix}.nan_count_missing",
                               f"no nan_count under {order.member} ('{MANDATORY[order.member]}')"))
    elif stored is not None and stored != nans:
        findings.append(report(f"{prefix}.nan_count",
                               f"nan_count is {stored}, the data holds {nans} NaN values"))
    has_bounds = stats.min_value is not None or stats.max_value is not None
    if order.member == TYPE_ORDER and has_bounds and values and nans == len(values):
        findings.append(report(f"{prefix}.all_nan_bounds",
                               f"min_value/max_value are written, but all {nans} non-null values "
                               f"are NaN ('{NO_ALL_NAN_BOUNDS}')"))
    return findings


def check_index_nan_counts(state: Chunk, index: ColumnIndex) -> list[Finding]:
    """The findings about ``ColumnIndex.nan_counts`` and TYPE_ORDER's all-NaN page rule."""
    order = state.order
    if not order.floating:
        if index.nan_counts is None:
            return []
        return [state.report("column_index.nan_counts_type",
                             f"nan_counts is written for a column that is not floating point "
                             f"('{ONLY_FLOATS}')")]
    findings = []
    for ordinal, page in enumerate(state.data_pages):
        values = state.values(page)
        nans = nans_in(values, order)
        report = state.report.at(ordinal)
        if index.nan_counts is not None and index.nan_counts[ordinal] != nans:
            said = index.nan_counts[ordinal]
            findings.append(report("column_index.nan_counts",
                                   f"nan_counts says {said}, the page holds {nans} NaNs"))
        if order.member == TYPE_ORDER and values and nans == len(values):
            findings.append(report("column_index.all_nan_page",
                                   f"a ColumnIndex is written, but all {nans} non-null values of this page "
                                   f"are NaN under TYPE_ORDER ('{NO_ALL_NAN_INDEX}')"))
    return findings
