"""The page index: ColumnIndex and OffsetIndex (PageIndex.md).

Sources: PageIndex.md, 'Technical Approach', and parquet.thrift ``struct PageLocation``,
``struct OffsetIndex``, ``struct ColumnIndex``, ``enum BoundaryOrder``; the
current apache/parquet-format parquet.thrift adds the histograms (ColumnIndex
6, 7; OffsetIndex 2) and the NaN rule quoted below.

* OffsetIndex: one PageLocation per data page, "ordered by increasing
  PageLocation.offset. It is required that page_locations[i].first_row_index <
  page_locations[i+1].first_row_index"; ``compressed_page_size`` is the "Size
  of the page, including header"; ``first_row_index`` is the "Index within the
  RowGroup of the first row of the page", so pages begin on rows (r = 0).
* ColumnIndex: ``null_pages[i]`` is true when "a page contains only null
  values, and writers have to set the corresponding entries in min_values and
  max_values to byte[0]"; the bounds are "determined by the ColumnOrder of the
  column" and, like chunk statistics, may be more compact values ("min_values[i]
  ="B", max_values[i]="C"") - truncated here exactly as ``statistics.bound_bytes``
  truncates chunk bounds. ``boundary_order`` "Stores whether both min_values
  and max_values are ordered and if so, in which direction"; "The min_values
  and max_values are calculated based on the column_orders field".
* NaN (parquet.thrift, ColumnIndex ``min_values`` and the ColumnOrder
  comment): "NaN values are not to be included in these bounds. If all
  non-null values of a page are NaN, then a writer must do the following: If
  the order of this column is TYPE_ORDER, then a column index must not be
  written for this column chunk. [...] If the order of this column is
  IEEE754_TOTAL_ORDER, then min_values[i] and max_values[i] of that page must
  be set to the smallest and largest NaN values as defined by IEEE 754 total
  order." ``nan_counts`` (field 8) is "A list containing the number of NaN
  values for each page", written for every FLOAT, DOUBLE and FLOAT16 column.
* INT96: "If the order of this column is not INT96_TIMESTAMP_ORDER, then a
  column index must not be written for this column chunk" (its order is
  UNDEFINED under any other member, ``sort_order``).

Decisions where the texts leave room (``boundary_order``): the order is judged
on the non-null pages only (a null page has no bounds), non-strictly (equal
neighbours are allowed in either direction, since readers "cannot assume that
max_values[i] <= min_values[i+1]" anyway); when both directions hold (one
non-null page, or all equal) it is ASCENDING; with no non-null page at all it
is UNORDERED, which claims nothing. pyarrow makes the same three choices.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from reference_impl.common.mapped_file import FileBytes
from reference_impl.parquet.errors import CorruptMetadata
from reference_impl.parquet.metadata.parquet_thrift import (
    BoundaryOrder,
    ColumnChunk,
    ColumnIndex,
    ConvertedType,
    LogicalType,
    OffsetIndex,
    PageLocation,
    Type,
)
from reference_impl.parquet.metadata.thrift_struct import ThriftStruct, deserialize
from reference_impl.parquet.statistics.column_statistics import bound_bytes, decode_bound
from reference_impl.parquet.statistics.sort_order import (
    TYPE_ORDER,
    SortOrder,
    is_floating,
    min_max,
    nan_count,
    sort_key,
    sort_order,
)

__all__ = [
    "PageSummary",
    "boundary_order",
    "build_column_index",
    "build_offset_index",
    "check_column_index",
    "check_location",
    "check_offset_index",
    "page_row_ranges",
    "read_column_index",
    "read_offset_index",
]

NULL_PAGE_BOUND = b""  # "byte[0]"

S = TypeVar("S", bound=ThriftStruct)


@dataclass(frozen=True)
class PageSummary:
    """What the writer knows about one data page."""

    offset: int  # file offset of the page header
    compressed_page_size: int  # header included (PageLocation.compressed_page_size)
    first_row_index: int  # within the row group
    row_count: int
    null_count: int
    values: Sequence[object]  # the page's non-null physical values (for min/max)
    definition_level_histogram: list[int] | None = None
    repetition_level_histogram: list[int] | None = None
    unencoded_byte_array_data_bytes: int | None = None


# -- writing ----------------------------------------------------------------------


def boundary_order(
    mins: Sequence[object | None], maxes: Sequence[object | None], key: Callable[[Any], Any]
) -> BoundaryOrder:
    """ASCENDING / DESCENDING / UNORDERED for per-page bounds (None = a null page, skipped)."""
    pairs = [(key(low), key(high)) for low, high in zip(mins, maxes, strict=True) if low is not None]
    if not pairs:
        return BoundaryOrder.UNORDERED
    steps = list(zip(pairs, pairs[1:], strict=False))
    if all(a_low <= b_low and a_high <= b_high for (a_low, a_high), (b_low, b_high) in steps):
        return BoundaryOrder.ASCENDING
    if all(a_low >= b_low and a_high >= b_high for (a_low, a_high), (b_low, b_high) in steps):
        return BoundaryOrder.DESCENDING
    return BoundaryOrder.UNORDERED


def build_column_index(
    pages: Sequence[PageSummary],
    physical_type: Type,
    logical_type: LogicalType | None = None,
    converted_type: ConvertedType | int | None = None,
    type_length: int | None = None,
    *,
    column_order: str = TYPE_ORDER,
    truncate_length: int | None = None,
) -> ColumnIndex | None:
    """The ColumnIndex of a chunk's data pages under ``column_order`` (a ColumnOrder
    member), or None when none may be written.

    None when the column's order is UNDEFINED (no bounds to give) or, under
    TYPE_ORDER, a page holds only NaNs (see the module docstring).
    """
    physical_type = Type(physical_type)
    types = (physical_type, logical_type, converted_type)
    if sort_order(*types, column_order=column_order) is SortOrder.UNDEFINED:
        return None
    null_counts: list[int] = []
    index = ColumnIndex(
        null_pages=[], min_values=[], max_values=[], boundary_order=BoundaryOrder.UNORDERED,
        null_counts=null_counts,
        nan_counts=[] if is_floating(physical_type, logical_type) else None,
    )
    for page in pages:
        null_counts.append(page.null_count)
        if index.nan_counts is not None:
            index.nan_counts.append(nan_count(page.values, physical_type, logical_type) or 0)
        index.null_pages.append(not page.values)
        if not page.values:
            index.min_values.append(NULL_PAGE_BOUND)
            index.max_values.append(NULL_PAGE_BOUND)
            continue
        extremes = min_max(page.values, *types, column_order=column_order)
        if extremes is None:  # only NaNs under TYPE_ORDER: no bound may be written, and bounds are required
            return None
        low, high, _, _ = bound_bytes(
            *extremes,
            physical_type,
            logical_type,
            converted_type,
            type_length,
            truncate_length=truncate_length,
        )
        index.min_values.append(low)
        index.max_values.append(high)
    key = sort_key(*types, column_order=column_order)
    index.boundary_order = _written_order(index, physical_type, type_length, key)
    index.repetition_level_histograms = _concatenated([p.repetition_level_histogram for p in pages])
    index.definition_level_histograms = _concatenated([p.definition_level_histogram for p in pages])
    return index


def _written_order(
    index: ColumnIndex, physical_type: Type, type_length: int | None, key: Callable[[Any], Any]
) -> BoundaryOrder:
    # Judged on the bounds as written (possibly truncated): those are what a
    # reader binary-searches.
    def decoded(raws: list[bytes]) -> list[object | None]:
        return [
            None if null else decode_bound(physical_type, raw, type_length)
            for null, raw in zip(index.null_pages, raws, strict=True)
        ]

    return boundary_order(decoded(index.min_values), decoded(index.max_values), key)


def _concatenated(histograms: list[list[int] | None]) -> list[int] | None:
    """Page histograms one after another, or None unless every page has one."""
    if not histograms or any(histogram is None for histogram in histograms):
        return None
    if len({len(histogram) for histogram in histograms}) != 1:  # type: ignore[arg-type]
        raise ValueError("page level histograms of different lengths")
    return [count for histogram in histograms for count in histogram]  # type: ignore[union-attr]


def build_offset_index(pages: Sequence[PageSummary]) -> OffsetIndex:
    """The OffsetIndex of a chunk's data pages (ValueError if they break its rules)."""
    for before, after in zip(pages, pages[1:], strict=False):
        if not (before.offset < after.offset and before.first_row_index < after.first_row_index):
            raise ValueError("pages must have increasing offsets and first_row_index values")
    if pages and pages[0].first_row_index != 0:
        raise ValueError(f"the first page starts at row {pages[0].first_row_index}, not 0")
    sizes = [page.unencoded_byte_array_data_bytes for page in pages]
    return OffsetIndex(
        page_locations=[
            PageLocation(
                offset=page.offset,
                compressed_page_size=page.compressed_page_size,
                first_row_index=page.first_row_index,
            )
            for page in pages
        ],
        unencoded_byte_array_data_bytes=None if not pages or None in sizes else sizes,  # type: ignore[arg-type]
    )


# -- reading ----------------------------------------------------------------------


def _label(where: str, what: str) -> str:
    return f"{where}: {what}" if where else what


def check_location(file_size: int, offset: int | None, length: int | None, what: str) -> tuple[int, int]:
    """``(offset, length)``; CorruptMetadata unless both are set and fit in the file."""
    if offset is None or length is None:
        raise CorruptMetadata(f"{what}: offset {offset} and length {length} must be set together")
    if offset < 0 or length <= 0 or offset + length > file_size:
        raise CorruptMetadata(
            f"{what}: {length} byte(s) at offset {offset} do not fit in the file of {file_size} bytes",
            offset if 0 <= offset <= file_size else None,
        )
    return offset, length


def _read_struct(
    file: FileBytes, struct_class: type[S], offset: int | None, length: int | None, what: str
) -> S | None:
    """Decode the struct at ``offset``/``length`` after checking they fit in ``file``."""
    if offset is None and length is None:
        return None
    offset, length = check_location(len(file), offset, length, what)
    value, end = deserialize(struct_class, file, start=offset, end=offset + length)
    if end != offset + length:
        raise CorruptMetadata(
            f"{what}: the length says {length} bytes, but the struct ends after {end - offset}", end
        )
    return value


def read_column_index(file: FileBytes, chunk: ColumnChunk, *, where: str = "") -> ColumnIndex | None:
    """The chunk's ColumnIndex, or None when it has none.

    CorruptMetadata if its location does not fit in the file, the Thrift ends
    before or after the stated length, or its lists disagree in length;
    CorruptThrift (with the byte offset) if the Thrift itself is malformed.
    """
    what = _label(where, "ColumnIndex")
    at = chunk.column_index_offset
    index = _read_struct(file, ColumnIndex, at, chunk.column_index_length, what)
    if index is not None:
        check_column_index(index, what, at)
    return index


def check_column_index(index: ColumnIndex, what: str, at: int | None) -> None:
    """CorruptMetadata unless the index's lists agree in length (one entry per page)."""
    pages = len(index.null_pages)
    lengths = {"min_values": len(index.min_values), "max_values": len(index.max_values)}
    for name in ("null_counts", "nan_counts"):
        if getattr(index, name) is not None:
            lengths[name] = len(getattr(index, name))
    wrong = {name: size for name, size in lengths.items() if size != pages}
    if wrong:
        raise CorruptMetadata(f"{what}: {pages} null_pages entries but {wrong}", at)
    for name in ("repetition_level_histograms", "definition_level_histograms"):
        histograms = getattr(index, name)
        if histograms is not None and (pages == 0 or len(histograms) % pages):
            raise CorruptMetadata(f"{what}: {len(histograms)} {name} entries for {pages} pages", at)


def read_offset_index(file: FileBytes, chunk: ColumnChunk, *, where: str = "") -> OffsetIndex | None:
    """The chunk's OffsetIndex, or None when it has none.

    Besides the checks of ``read_column_index``: page locations must lie in the
    file with positive sizes and increasing offsets, and the unencoded sizes
    list (if any) must have one entry per page.
    """
    what = _label(where, "OffsetIndex")
    at = chunk.offset_index_offset
    index = _read_struct(file, OffsetIndex, at, chunk.offset_index_length, what)
    if index is not None:
        check_offset_index(index, len(file), what, at)
    return index


def check_offset_index(index: OffsetIndex, file_size: int, what: str, at: int | None) -> None:
    """CorruptMetadata unless the page locations are positive, ordered and inside the file."""
    previous_end = 0
    for number, page in enumerate(index.page_locations):
        if page.compressed_page_size <= 0 or page.offset < previous_end:
            raise CorruptMetadata(
                f"{what}: page {number} at offset {page.offset} with size {page.compressed_page_size} "
                f"overlaps the previous page or is empty",
                at,
            )
        previous_end = page.offset + page.compressed_page_size
        if previous_end > file_size:
            raise CorruptMetadata(f"{what}: page {number} ends at {previous_end}, past the file end", at)
    sizes = index.unencoded_byte_array_data_bytes
    if sizes is not None and len(sizes) != len(index.page_locations):
        raise CorruptMetadata(
            f"{what}: {len(sizes)} unencoded_byte_array_data_bytes for {len(index.page_locations)} pages", at
        )


def page_row_ranges(
    offset_index: OffsetIndex, row_group_rows: int, *, where: str = "", offset: int | None = None
) -> list[range]:
    """The rows (within the row group) of each page, from the first_row_index values.

    CorruptMetadata unless the first page starts at row 0, each page starts
    after the previous one, and every page starts inside the row group.
    """
    what = _label(where, "OffsetIndex")
    starts = [location.first_row_index for location in offset_index.page_locations]
    if row_group_rows > 0 and not starts:
        raise CorruptMetadata(f"{what}: no pages for {row_group_rows} rows", offset)
    if starts and starts[0] != 0:
        raise CorruptMetadata(f"{what}: the first page starts at row {starts[0]}, not 0", offset)
    for number, (start, following) in enumerate(zip(starts, starts[1:], strict=False), start=1):
        if following <= start:
            raise CorruptMetadata(
                f"{what}: page {number} starts at row {following}, not after {start}", offset
            )
    if starts and starts[-1] >= max(row_group_rows, 1):  # an empty row group has one empty page
        raise CorruptMetadata(
            f"{what}: the last page starts at row {starts[-1]} of a {row_group_rows}-row row group", offset
        )
    ends = starts[1:] + [row_group_rows] if starts else []
    return [range(start, end) for start, end in zip(starts, ends, strict=True)]
