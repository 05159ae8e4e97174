"""The page index (ColumnIndex and OffsetIndex) against the pages it describes.

PageIndex.md, 'Technical Approach', and parquet.thrift ``struct ColumnIndex``,
``struct OffsetIndex`` and ``struct PageLocation``: one entry per data page, in
order ("Each <array-field>[i] refers to the page at
OffsetIndex.page_locations[i]"); ``null_pages`` "If true, a page contains only
null values", whose min_values / max_values entries "have to" be byte[0];
min_values / max_values "calculated based on the column_orders field"
(``bounds``); ``boundary_order`` as ``page_index.boundary_order`` reads it;
``null_counts`` and the level histograms per page (``size_statistics_checks``);
``nan_counts`` and the all-NaN page rule (``nan_count_checks``); an INT96
column's index under any order but INT96_TIMESTAMP_ORDER ("If the order of this
column is not INT96_TIMESTAMP_ORDER, then a column index must not be written for
this column chunk"); a PageLocation's ``offset`` of the page header, ``compressed_page_size``
"including header" and ``first_row_index``, "Index within the RowGroup of the
first row of the page" ("pages change on record boundaries").
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from reference_impl.parquet.encryption.indexes import read_column_index_of, read_offset_index_of
from reference_impl.parquet.errors import CorruptMetadata, DecryptionFailed, MissingKey, ParquetError
from reference_impl.parquet.indexes.page_index import NULL_PAGE_BOUND, boundary_order
from reference_impl.parquet.metadata.parquet_thrift import BoundaryOrder, ColumnIndex
from reference_impl.parquet.pages.chunk_reader import PageExtent
from reference_impl.parquet.validation.bounds import Bound, check_bound
from reference_impl.parquet.validation.chunk import Chunk
from reference_impl.parquet.validation.column_order import MAX, MIN, Order
from reference_impl.parquet.validation.findings import Finding, Report, show
from reference_impl.parquet.validation.nan_count_checks import check_index_nan_counts
from reference_impl.parquet.validation.size_statistics_checks import (
    check_unencoded,
    empty_histogram,
    histogram,
)
from reference_impl.parquet.validation.statistics_checks import check_null_count

__all__ = ["check_column_index", "check_offset_index"]


def check_column_index(state: Chunk) -> list[Finding]:
    """The findings about the chunk's ColumnIndex, if it has one."""
    report = state.report
    try:
        index = read_column_index_of(state.file, state.chunk, state.crypto, where=state.where)
    except (DecryptionFailed, MissingKey):
        raise
    except ParquetError as error:
        return [report("column_index.unreadable", error.message)]
    if index is None:
        return []
    pages = state.data_pages
    if len(index.null_pages) != len(pages):
        return [
            report(
                "column_index.page_count",
                f"the ColumnIndex has {len(index.null_pages)} entries, the chunk {len(pages)} data pages",
            )
        ]
    findings = check_index_nan_counts(state, index)
    if state.order.int96_without_chronology:
        findings.append(
            report(
                "column_index.int96_order",
                "a ColumnIndex is written for an INT96 column under TYPE_ORDER ('If the order of "
                "this column is not INT96_TIMESTAMP_ORDER, then a column index must not be written "
                "for this column chunk')",
            )
        )
    elif state.order.key is None and not all(index.null_pages):
        findings.append(
            report(
                "column_index.undefined_order",
                f"a ColumnIndex with bounds is written, but {state.order.undefined_because}",
            )
        )
    for ordinal, page in enumerate(pages):
        findings += _check_index_page(state, index, ordinal, page)
    findings += _check_boundary_order(state, index)
    for kind in ("repetition", "definition"):
        findings += _check_index_histograms(state, index, kind)
    return findings


def _check_index_page(state: Chunk, index: ColumnIndex, ordinal: int, page: PageExtent) -> list[Finding]:
    report = state.report.at(ordinal)
    values = state.values(page)
    stored = None if index.null_counts is None else index.null_counts[ordinal]
    findings = check_null_count(state, stored, page, report, "column_index.null_counts")
    if index.null_pages[ordinal] != (not values):
        said = "only nulls" if index.null_pages[ordinal] else "a value"
        findings.append(
            report(
                "column_index.null_pages",
                f"null_pages says the page holds {said}, it holds {len(values)} values",
            )
        )
        return findings
    bounds = (("min_values", MIN, index.min_values[ordinal]), ("max_values", MAX, index.max_values[ordinal]))
    if index.null_pages[ordinal]:
        return findings + [
            report(
                "column_index.null_page_bounds",
                f"a null page's {field} entry must be byte[0], it is {show(raw)}",
            )
            for field, _, raw in bounds
            if raw != NULL_PAGE_BOUND
        ]
    if state.order.key is None:
        return findings
    decoded = state.decoded(page)
    for field, role, raw in bounds:
        findings += check_bound(
            Bound("column_index", field, role, state.order.key), raw, decoded, state.order, report
        )
    return findings


def _check_boundary_order(state: Chunk, index: ColumnIndex) -> list[Finding]:
    claimed = index.boundary_order
    key = state.order.key
    if key is None or claimed not in (BoundaryOrder.ASCENDING, BoundaryOrder.DESCENDING):
        return []  # UNORDERED claims nothing
    pairs = [_usable_page_bounds(state.order, index, page) for page in range(len(index.null_pages))]
    mins = [pair[0] if pair else None for pair in pairs]
    maxes = [pair[1] if pair else None for pair in pairs]
    if sum(pair is not None for pair in pairs) < 2:
        return []  # no two pages to be out of order: any claim holds
    if claimed == BoundaryOrder.DESCENDING:  # descending is ascending read backwards
        mins, maxes = mins[::-1], maxes[::-1]
    if boundary_order(mins, maxes, key) == BoundaryOrder.ASCENDING:
        return []
    return [
        state.report(
            "column_index.boundary_order",
            f"boundary_order is {BoundaryOrder(claimed).name}, but the non-null pages' "
            f"bounds are not in that order",
        )
    ]


def _usable_page_bounds(order: Order, index: ColumnIndex, page: int) -> tuple[object, object] | None:
    """A non-null page's decoded (min, max), or None if either is unusable (NaN, undecodable)."""
    if index.null_pages[page]:
        return None
    try:
        low, high = order.decode(index.min_values[page]), order.decode(index.max_values[page])
        order.key(low), order.key(high)  # type: ignore[misc]
    except (CorruptMetadata, ValueError):
        return None
    if order.total_order:
        return low, high  # NaNs have their places in the total order
    return None if order.is_nan(low) or order.is_nan(high) else (low, high)


def _check_index_histograms(state: Chunk, index: ColumnIndex, kind: str) -> list[Finding]:
    stored = getattr(index, f"{kind}_level_histograms")
    max_level = getattr(state.leaf, f"max_{kind}_level")
    if stored is None:
        return []
    if not stored:
        return [empty_histogram(state.report, "column_index", f"{kind}_level_histograms")]
    pages = state.data_pages
    width = len(stored) // len(pages)
    if width != max_level + 1:
        return [
            state.report(
                "column_index.level_histograms",
                f"{kind}_level_histograms has {width} counts per page for levels 0..{max_level}",
            )
        ]
    findings = []
    for ordinal, page in enumerate(pages):
        own = stored[ordinal * width : (ordinal + 1) * width]
        expected = histogram(state.levels(kind, page), max_level)
        if own != expected:
            findings.append(
                state.report.at(ordinal)(
                    "column_index.level_histograms",
                    f"{kind} level histogram {own}, the page's levels give {expected}",
                )
            )
    return findings


def check_offset_index(state: Chunk) -> list[Finding]:
    """The findings about the chunk's OffsetIndex, if it has one."""
    report = state.report
    try:
        index = read_offset_index_of(state.file, state.chunk, state.crypto, where=state.where)
    except (DecryptionFailed, MissingKey):
        raise
    except ParquetError as error:
        return [report("offset_index.unreadable", error.message)]
    if index is None:
        return []
    pages = state.data_pages
    if len(index.page_locations) != len(pages):
        return [
            report(
                "offset_index.page_locations",
                f"{len(index.page_locations)} page locations for {len(pages)} data pages",
            )
        ]
    repetition = state.levels("repetition")
    findings = []
    for ordinal, (location, page) in enumerate(zip(index.page_locations, pages, strict=True)):
        page_report = report.at(ordinal)
        size = page.end - page.offset
        if (location.offset, location.compressed_page_size) != (page.offset, size):
            findings.append(
                page_report(
                    "offset_index.page_locations",
                    f"the location says offset {location.offset}, size "
                    f"{location.compressed_page_size}; the page is at {page.offset}, "
                    f"{size} bytes with its header",
                )
            )
        findings += _check_first_row(location.first_row_index, page, repetition, page_report)
    sizes: Sequence[int | None] = index.unencoded_byte_array_data_bytes or [None] * len(pages)
    for ordinal, (stored, page) in enumerate(zip(sizes, pages, strict=True)):
        findings += check_unencoded(
            "offset_index", stored, state.values(page), state.order, report.at(ordinal)
        )
    return findings


def _check_first_row(stored: int, page: PageExtent, repetition: np.ndarray, report: Report) -> list[Finding]:
    first = page.entries.start
    if first < len(repetition) and repetition[first] != 0:
        return [
            report(
                "offset_index.first_row_index",
                f"first_row_index is {stored}, but the page starts inside a row",
            )
        ]
    rows_before = int(np.count_nonzero(repetition[:first] == 0))
    if stored == rows_before:
        return []
    return [
        report(
            "offset_index.first_row_index",
            f"first_row_index is {stored}, the page's first row is row {rows_before}",
        )
    ]
