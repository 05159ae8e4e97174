"""The page index (PageIndex.md; parquet.thrift ColumnIndex, OffsetIndex)."""

from __future__ import annotations

import io
import math
from dataclasses import replace
from decimal import Decimal

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.parquet.errors import CorruptMetadata, CorruptThrift
from reference_impl.parquet.indexes.page_index import (
    PageSummary,
    boundary_order,
    build_column_index,
    build_offset_index,
    page_row_ranges,
    read_column_index,
    read_offset_index,
)
from reference_impl.parquet.metadata.parquet_thrift import (
    BoundaryOrder,
    ColumnChunk,
    ColumnIndex,
    IntType,
    LogicalType,
    OffsetIndex,
    PageHeader,
    PageLocation,
    PageType,
    StringType,
    Type,
)
from reference_impl.parquet.metadata.thrift_struct import deserialize, serialize
from reference_impl.parquet.reader import read_parquet
from reference_impl.parquet.statistics.column_statistics import decode_bound, encode_bound
from reference_impl.parquet.statistics.size_statistics import level_histogram

ASC, DESC, UNORDERED = BoundaryOrder.ASCENDING, BoundaryOrder.DESCENDING, BoundaryOrder.UNORDERED
UINT32 = LogicalType(INTEGER=IntType(bitWidth=32, isSigned=False))
STRING = LogicalType(STRING=StringType())
MAGIC = b"PAR1"


def _page(values, null_count=0, first_row_index=0, **extra) -> PageSummary:
    rows = len(values) + null_count
    return PageSummary(
        offset=100 + first_row_index * 10,
        compressed_page_size=10,
        first_row_index=first_row_index,
        row_count=rows,
        null_count=null_count,
        values=values,
        **extra,
    )


def _pages(*value_lists, nulls=None) -> list[PageSummary]:
    pages, row = [], 0
    for number, values in enumerate(value_lists):
        null_count = nulls[number] if nulls else 0
        pages.append(_page(values, null_count, first_row_index=row))
        row += len(values) + null_count
    return pages


def _i32(value: int) -> bytes:
    return encode_bound(Type.INT32, value)


# -- boundary_order ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("mins", "maxes", "expected"),
    [
        ([1, 3, 5], [2, 4, 6], ASC),
        ([5, 3, 1], [6, 4, 2], DESC),
        ([1, 5, 3], [2, 6, 4], UNORDERED),
        ([1, 1, 1], [1, 1, 1], ASC),  # equal pages: both hold; ASCENDING is reported
        ([7], [9], ASC),  # a single page is trivially ordered
        ([], [], UNORDERED),  # no page: nothing to claim
        ([None, None], [None, None], UNORDERED),  # all null pages: no bounds at all
        ([1, None, 3], [2, None, 4], ASC),  # null pages are skipped
        ([3, None, 1], [4, None, 2], DESC),
        ([1, 1, 2], [5, 6, 6], ASC),  # ties in one list, growth in the other
        ([1, 2], [6, 5], UNORDERED),  # mins grow, maxes shrink: neither
        ([1, 2], [9, 3], UNORDERED),  # overlapping pages may still be ordered only if both lists are
    ],
)
def test_boundary_order(mins, maxes, expected):
    assert boundary_order(mins, maxes, int) == expected


@given(st.lists(st.tuples(st.integers(-5, 5), st.integers(0, 5)), max_size=8))
def test_boundary_order_claims_hold(pages):
    mins = [low for low, _ in pages]
    maxes = [low + width for low, width in pages]
    order = boundary_order(mins, maxes, int)
    if order is ASC:
        assert mins == sorted(mins) and maxes == sorted(maxes)
    elif order is DESC:
        assert mins == sorted(mins, reverse=True) and maxes == sorted(maxes, reverse=True)
    else:
        assert len(pages) == 0 or not (mins == sorted(mins) and maxes == sorted(maxes))


# -- build_column_index ------------------------------------------------------------


def test_column_index_with_a_null_page():
    pages = _pages([1, 2], [], [5, 3], nulls=[0, 2, 1])
    assert build_column_index(pages, Type.INT32) == ColumnIndex(
        null_pages=[False, True, False],
        min_values=[_i32(1), b"", _i32(3)],  # "byte[0]" for the null page
        max_values=[_i32(2), b"", _i32(5)],
        boundary_order=ASC,
        null_counts=[0, 2, 1],
    )


def test_column_index_order_uses_the_column_order():
    # UINT_32: -1 is 2**32 - 1, the largest value, so these pages ascend.
    pages = _pages([0, 1], [7, -1])
    assert build_column_index(pages, Type.INT32, UINT32).boundary_order == ASC
    assert build_column_index(pages, Type.INT32).boundary_order == UNORDERED  # signed: -1 < 7


def test_column_index_undefined_order_is_not_written():
    assert build_column_index(_pages([bytes(12)]), Type.INT96) is None


def test_column_index_page_of_only_nan_prevents_the_index():
    pages = _pages([1.0, 2.0], [math.nan, math.nan])
    assert build_column_index(pages, Type.DOUBLE) is None


def test_column_index_skips_nan_and_fixes_zero_signs():
    index = build_column_index(_pages([math.nan, 0.0, 1.5], [-0.0, 0.0]), Type.DOUBLE)
    assert [decode_bound(Type.DOUBLE, raw) for raw in index.min_values] == [0.0, 0.0]
    assert [math.copysign(1, decode_bound(Type.DOUBLE, raw)) for raw in index.min_values] == [-1, -1]
    assert [repr(decode_bound(Type.DOUBLE, raw)) for raw in index.max_values] == ["1.5", "0.0"]
    assert index.boundary_order == DESC  # [-0, -0], [1.5, 0]: mins equal, maxes fall


def test_column_index_truncates_like_chunk_statistics():
    long_a, long_b = b"apple" * 10, b"apricot" * 10
    index = build_column_index(_pages([long_a], [long_b]), Type.BYTE_ARRAY, STRING, truncate_length=4)
    assert index.min_values == [b"appl", b"apri"]
    assert index.max_values == [b"appm", b"aprj"]  # last kept byte + 1: still an upper bound
    assert all(
        low <= value <= high
        for low, high, value in zip(index.min_values, index.max_values, [long_a, long_b], strict=True)
    )
    assert index.boundary_order == ASC


def test_column_index_max_of_only_0xff_stays_exact():
    index = build_column_index(_pages([b"\xff" * 8]), Type.BYTE_ARRAY, truncate_length=2)
    assert (index.min_values, index.max_values) == ([b"\xff\xff"], [b"\xff" * 8])


def test_column_index_histograms_concatenated_only_when_every_page_has_them():
    pages = [
        _page([1], 1, 0, definition_level_histogram=[1, 1], repetition_level_histogram=[2, 0]),
        _page([2], 0, 2, definition_level_histogram=[0, 1], repetition_level_histogram=[1, 0]),
    ]
    index = build_column_index(pages, Type.INT32)
    assert index.definition_level_histograms == [1, 1, 0, 1]  # page 0's, then page 1's
    assert index.repetition_level_histograms == [2, 0, 1, 0]
    partial = [pages[0], replace(pages[1], definition_level_histogram=None)]
    assert build_column_index(partial, Type.INT32).definition_level_histograms is None


def test_column_index_of_an_all_null_chunk():
    index = build_column_index(_pages([], [], nulls=[3, 2]), Type.BYTE_ARRAY)
    assert index.null_pages == [True, True]
    assert index.min_values == index.max_values == [b"", b""]
    assert index.boundary_order == UNORDERED


# -- build_offset_index ------------------------------------------------------------


def test_offset_index_locations_and_unencoded_sizes():
    pages = [
        _page([b"ab"], 0, 0, unencoded_byte_array_data_bytes=2),
        _page([b"cde"], 0, 1, unencoded_byte_array_data_bytes=3),
    ]
    assert build_offset_index(pages) == OffsetIndex(
        page_locations=[PageLocation(100, 10, 0), PageLocation(110, 10, 1)],
        unencoded_byte_array_data_bytes=[2, 3],
    )
    assert build_offset_index(
        pages[:1] + [replace(pages[1], unencoded_byte_array_data_bytes=None)]
    ) == OffsetIndex(page_locations=[PageLocation(100, 10, 0), PageLocation(110, 10, 1)])


@pytest.mark.parametrize(
    "pages",
    [
        [_page([1], 0, 1)],  # must start at row 0
        [_page([1], 0, 0), replace(_page([1], 0, 0), offset=200)],  # rows must increase
        [_page([1], 0, 0), replace(_page([1], 0, 1), offset=50)],  # offsets must increase
    ],
)
def test_offset_index_rejects_misordered_pages(pages):
    with pytest.raises(ValueError):
        build_offset_index(pages)


# -- page_row_ranges -----------------------------------------------------------------


def _offset_index(*first_rows: int) -> OffsetIndex:
    return OffsetIndex([PageLocation(100 + 10 * n, 10, row) for n, row in enumerate(first_rows)])


def test_page_row_ranges():
    assert page_row_ranges(_offset_index(0, 3, 4), 10) == [range(0, 3), range(3, 4), range(4, 10)]
    assert page_row_ranges(_offset_index(0), 0) == [range(0, 0)]  # an empty row group's one page
    assert page_row_ranges(_offset_index(), 0) == []


@pytest.mark.parametrize(
    ("first_rows", "rows"),
    [((1, 3), 5), ((0, 3, 3), 5), ((0, 4, 2), 5), ((0, 5), 5), ((), 5), ((0, 1), 0)],
)
def test_page_row_ranges_rejects_bad_first_row_indexes(first_rows, rows):
    with pytest.raises(CorruptMetadata) as caught:
        page_row_ranges(_offset_index(*first_rows), rows, where="row group 0", offset=42)
    assert caught.value.offset == 42 and "row group 0" in caught.value.message


# -- read_column_index / read_offset_index: bad input --------------------------------

A_COLUMN_INDEX = ColumnIndex([False], [_i32(1)], [_i32(2)], ASC, [0])
AN_OFFSET_INDEX = OffsetIndex([PageLocation(4, 1, 0)])


def _file_with(payload: bytes) -> bytes:
    return MAGIC + payload + MAGIC


def _chunk(*, ci=None, oi=None) -> ColumnChunk:
    chunk = ColumnChunk(file_offset=0)
    if ci is not None:
        chunk.column_index_offset, chunk.column_index_length = ci
    if oi is not None:
        chunk.offset_index_offset, chunk.offset_index_length = oi
    return chunk


def test_read_indexes_round_trip():
    column, offset = serialize(A_COLUMN_INDEX), serialize(AN_OFFSET_INDEX)
    file = _file_with(column + offset)
    chunk = _chunk(ci=(4, len(column)), oi=(4 + len(column), len(offset)))
    assert read_column_index(file, chunk) == A_COLUMN_INDEX
    assert read_offset_index(file, chunk) == AN_OFFSET_INDEX


def test_read_indexes_absent():
    assert read_column_index(_file_with(b""), _chunk()) is None
    assert read_offset_index(_file_with(b""), _chunk()) is None


@pytest.mark.parametrize(
    "location",
    [(100, 5), (4, 500), (-1, 5), (4, 0), (4, None), (None, 5)],
    ids=[
        "offset past the end",
        "length overruns",
        "negative offset",
        "zero length",
        "no length",
        "no offset",
    ],
)
def test_read_column_index_bad_location(location):
    file = _file_with(serialize(A_COLUMN_INDEX))
    with pytest.raises(CorruptMetadata) as caught:
        read_column_index(file, _chunk(ci=location), where="column c, row group 0")
    assert "column c, row group 0: ColumnIndex" in caught.value.message


def test_read_offset_index_bad_location_names_the_offset():
    file = _file_with(serialize(AN_OFFSET_INDEX))
    with pytest.raises(CorruptMetadata) as caught:
        read_offset_index(file, _chunk(oi=(6, len(file))))
    assert caught.value.offset == 6


def test_read_column_index_garbage_thrift():
    garbage = b"\x1f\xff\xff\xff\xff"  # field 1 with wire type 15, which does not exist
    with pytest.raises(CorruptThrift) as caught:
        read_column_index(_file_with(garbage), _chunk(ci=(4, len(garbage))))
    assert caught.value.offset is not None and 4 <= caught.value.offset <= 4 + len(garbage)


def test_read_column_index_struct_cut_short():
    raw = serialize(A_COLUMN_INDEX)
    with pytest.raises(CorruptThrift):
        read_column_index(_file_with(raw), _chunk(ci=(4, len(raw) - 3)))


def test_read_column_index_length_longer_than_the_struct():
    raw = serialize(A_COLUMN_INDEX)
    with pytest.raises(CorruptMetadata) as caught:
        read_column_index(_file_with(raw + b"\x00\x00"), _chunk(ci=(4, len(raw) + 2)))
    assert caught.value.offset == 4 + len(raw)


@pytest.mark.parametrize(
    "index",
    [
        ColumnIndex([False, False], [_i32(1)], [_i32(2), _i32(3)], ASC),
        ColumnIndex([False], [_i32(1)], [_i32(2)], ASC, null_counts=[0, 0]),
        ColumnIndex(
            [False, True], [_i32(1), b""], [_i32(2), b""], ASC, definition_level_histograms=[1, 2, 3]
        ),
    ],
    ids=["min/max lengths", "null_counts length", "histogram length"],
)
def test_read_column_index_inconsistent_lists(index):
    raw = serialize(index)
    with pytest.raises(CorruptMetadata):
        read_column_index(_file_with(raw), _chunk(ci=(4, len(raw))))


@pytest.mark.parametrize(
    "index",
    [
        OffsetIndex([PageLocation(4, 0, 0)]),
        OffsetIndex([PageLocation(4, 4, 0), PageLocation(6, 4, 1)]),
        OffsetIndex([PageLocation(4, 10_000, 0)]),
        OffsetIndex([PageLocation(4, 1, 0)], unencoded_byte_array_data_bytes=[1, 2]),
    ],
    ids=["empty page", "overlapping pages", "page past the end", "sizes per page"],
)
def test_read_offset_index_inconsistent_locations(index):
    raw = serialize(index)
    with pytest.raises(CorruptMetadata):
        read_offset_index(_file_with(raw), _chunk(oi=(4, len(raw))))


# -- cross-check against pyarrow: pages found by walking the page headers -------------

PAGE_ROWS = 3
PYARROW_COLUMNS = {
    "ascending": pa.array([1, 2, None, 4, 5, 6, 7, None, None, 10], pa.int32()),
    "descending": pa.array([90, 80, 70, 60, 50, 40, 30, 20, 10, 0], pa.int64()),
    "unordered": pa.array([0.0, -0.0, 5.5, -1.0, None, 2.0, 9.0, 8.0, 7.0, 1.0]),
    "unsigned": pa.array([0, 1, 2, 3, 4, 2**31, 2**31 + 1, 2**32 - 1, 2**32 - 1, 2**32 - 1], pa.uint32()),
    "text": pa.array(["", "a", "ab", "b", "\u00e9", None, "z", "zz", "\U0001f600", "\U0001f600"]),
    "binary": pa.array([b"\x7f", b"\x80", b"\xff", b"\x00", b"\x01", b"\x02", None, None, None, b"\xfe"]),
    "all_null": pa.array([None] * 10, pa.int32()),
    "nan_page": pa.array([1.0, 2.0, 3.0, math.nan, math.nan, math.nan, 4.0, 5.0, 6.0, 7.0]),
    # FIXED_LEN_BYTE_ARRAY(6), big-endian two's complement: bytes with the high bit set come first.
    "decimal": pa.array(
        [Decimal(n) for n in (-300, -2, -1, 0, 1, 127, 128, 255, 256, 70000)], pa.decimal128(12, 0)
    ),
    "boolean": pa.array([False, False, False, False, True, True, True, None, True, True]),
    "lists": pa.array(
        [[1, 2], [], None, [3], [4, None, 5], [6], [7, 8, 9], [], [10], [11]], pa.list_(pa.int32())
    ),
}


def _pyarrow_file(version: str, dictionary: bool) -> bytes:
    buffer = io.BytesIO()
    pq.write_table(
        pa.table(PYARROW_COLUMNS),
        buffer,
        write_statistics=True,
        write_page_index=True,
        max_rows_per_page=PAGE_ROWS,
        use_dictionary=dictionary,
        data_page_version=version,
        store_schema=False,
    )
    return buffer.getvalue()


def _data_page_headers(file: bytes, chunk: ColumnChunk) -> list[tuple[int, int, int]]:
    """``(offset, size with header, entry count)`` of each data page, from the page headers."""
    meta = chunk.meta_data
    position = meta.dictionary_page_offset or meta.data_page_offset
    end = position + meta.total_compressed_size
    pages = []
    while position < end:
        header, body = deserialize(PageHeader, file, start=position)
        size = body - position + header.compressed_page_size
        if header.type == PageType.DATA_PAGE:
            pages.append((position, size, header.data_page_header.num_values))
        elif header.type == PageType.DATA_PAGE_V2:
            pages.append((position, size, header.data_page_header_v2.num_values))
        position += size
    return pages


def _page_summaries(file: bytes, chunk: ColumnChunk, leaf) -> list[PageSummary]:
    """PageSummaries from the data alone: the reader's levels and values, cut where the headers say."""
    max_def, max_rep = leaf.leaf.max_definition_level, leaf.leaf.max_repetition_level
    definition = np.asarray(leaf.definition_levels)
    repetition = np.asarray(leaf.repetition_levels)
    summaries, entry, value, row = [], 0, 0, 0
    for offset, size, count in _data_page_headers(file, chunk):
        d, r = definition[entry : entry + count], repetition[entry : entry + count]
        present = int((d == max_def).sum())
        values = leaf.values[value : value + present]
        rows = int((r == 0).sum())
        unencoded = sum(map(len, values)) if leaf.leaf.node.physical_type == Type.BYTE_ARRAY else None
        summaries.append(
            PageSummary(
                offset=offset,
                compressed_page_size=size,
                first_row_index=row,
                row_count=rows,
                null_count=count - present,
                values=values,
                definition_level_histogram=level_histogram(d, max_def),
                repetition_level_histogram=level_histogram(r, max_rep),
                unencoded_byte_array_data_bytes=unencoded,
            )
        )
        entry, value, row = entry + count, value + present, row + rows
    return summaries


@pytest.mark.parametrize("dictionary", [False, True], ids=["plain", "dictionary"])
@pytest.mark.parametrize("version", ["1.0", "2.0"], ids=["v1", "v2"])
def test_page_index_agrees_with_pyarrow(version, dictionary):
    file = _pyarrow_file(version, dictionary)
    contents = read_parquet(file)
    row_group = contents.metadata.row_groups[0]
    for leaf, chunk in zip(contents.leaves, row_group.columns, strict=True):
        name, node = leaf.leaf.dotted_path, leaf.leaf.node
        pages = _page_summaries(file, chunk, leaf)
        assert len(pages) > 1, name  # the check is only worth something over several pages
        written_offsets = read_offset_index(file, chunk, where=name)
        assert build_offset_index(pages) == written_offsets, name
        ranges = page_row_ranges(written_offsets, row_group.num_rows)
        assert [len(rows) for rows in ranges] == [page.row_count for page in pages], name
        written = read_column_index(file, chunk, where=name)
        ours = build_column_index(
            pages, node.physical_type, node.logical_type, node.converted_type, node.type_length
        )
        # pyarrow predates ColumnIndex.nan_counts (parquet-format 2.13); everything else matches.
        if written is not None:
            assert written.nan_counts is None, name
            ours = replace(ours, nan_counts=None)
        assert ours == written, name


def test_pyarrow_cross_check_covers_the_interesting_cases():
    file = _pyarrow_file("1.0", False)
    contents = read_parquet(file)
    chunks = dict(zip(PYARROW_COLUMNS, contents.metadata.row_groups[0].columns, strict=True))
    orders = {name: read_column_index(file, chunk) for name, chunk in chunks.items()}
    assert orders["nan_page"] is None  # pyarrow too writes no column index over a NaN-only page
    assert {name: index.boundary_order for name, index in orders.items() if index is not None} == {
        "ascending": ASC,
        "descending": DESC,
        "unordered": UNORDERED,
        "unsigned": ASC,
        "text": ASC,
        "binary": UNORDERED,
        "all_null": UNORDERED,
        "decimal": ASC,
        "boolean": ASC,
        "lists": ASC,
    }
