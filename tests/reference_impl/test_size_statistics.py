"""SizeStatistics (parquet.thrift 'struct SizeStatistics', current apache/parquet-format)."""

from __future__ import annotations

import io

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.parquet.metadata.parquet_thrift import SizeStatistics, Type
from reference_impl.parquet.reader import read_parquet
from reference_impl.parquet.statistics.size_statistics import (
    level_histogram,
    merge_size_statistics,
    size_statistics,
)


def test_level_histogram_counts_each_level():
    assert level_histogram([0, 2, 2, 1, 2], 2) == [1, 1, 3]
    assert level_histogram(np.array([1, 1], dtype=np.int16), 3) == [0, 2, 0, 0]  # unseen levels count 0
    assert level_histogram([], 1) == [0, 0]


def test_level_histogram_is_omitted_for_max_level_zero():
    # "This field may be omitted if max_repetition_level is 0 without loss of information."
    assert level_histogram([0, 0, 0], 0) is None
    assert level_histogram(None, 0) is None


@pytest.mark.parametrize("levels", [[0, 3], [-1]])
def test_level_histogram_rejects_levels_out_of_range(levels):
    with pytest.raises(ValueError):
        level_histogram(levels, 2)


@given(
    st.integers(min_value=1, max_value=5).flatmap(
        lambda m: st.tuples(st.just(m), st.lists(st.integers(0, m)))
    )
)
def test_level_histogram_sums_to_the_entry_count(case):
    max_level, levels = case
    histogram = level_histogram(levels, max_level)
    assert len(histogram) == max_level + 1
    assert sum(histogram) == len(levels)
    assert all(histogram[level] == levels.count(level) for level in range(max_level + 1))


def test_spec_example_dictionary_page():
    # "if a column chunk is dictionary-encoded with dictionary ["a", "bc", "cde"], and a data
    # page contains the indices [0, 0, 1, 2], then this value for that data page should be 7"
    dictionary = [b"a", b"bc", b"cde"]
    values = [dictionary[index] for index in (0, 0, 1, 2)]
    stats = size_statistics(Type.BYTE_ARRAY, values, [1, 1, 1, 1], [0, 0, 0, 0], 1, 0)
    assert stats == SizeStatistics(
        unencoded_byte_array_data_bytes=7,  # 1 + 1 + 2 + 3, no length prefixes
        repetition_level_histogram=None,  # max repetition level 0
        definition_level_histogram=[0, 4],
    )


def test_unencoded_bytes_only_for_byte_array():
    assert (
        size_statistics(Type.FIXED_LEN_BYTE_ARRAY, [b"ab"], [0], [0], 0, 0).unencoded_byte_array_data_bytes
        is None
    )
    assert size_statistics(Type.INT32, [1, 2], None, None, 0, 0) == SizeStatistics()
    assert size_statistics(Type.BYTE_ARRAY, [b""], None, None, 0, 0).unencoded_byte_array_data_bytes == 0


def test_nested_levels():
    # [[b"x", None], [], None] in an optional list of optional elements: max d = 3, max r = 1.
    definition = [3, 2, 1, 0]
    repetition = [0, 1, 0, 0]
    stats = size_statistics(Type.BYTE_ARRAY, [b"x"], definition, repetition, 3, 1)
    assert stats == SizeStatistics(1, [3, 1], [1, 1, 1, 1])


def test_merge_sums_pages():
    pages = [SizeStatistics(3, [2, 1], [0, 3]), SizeStatistics(4, [1, 0], [1, 0])]
    assert merge_size_statistics(pages) == SizeStatistics(7, [3, 1], [1, 3])


def test_merge_drops_a_field_any_page_lacks():
    pages = [SizeStatistics(3, None, [0, 3]), SizeStatistics(None, None, [1, 0])]
    assert merge_size_statistics(pages) == SizeStatistics(None, None, [1, 3])
    assert merge_size_statistics([]) == SizeStatistics()


def test_merge_rejects_histograms_of_different_lengths():
    with pytest.raises(ValueError):
        merge_size_statistics([SizeStatistics(None, None, [1]), SizeStatistics(None, None, [1, 2])])


# -- cross-check against pyarrow -----------------------------------------------------

PYARROW_COLUMNS = {
    "text": pa.array(["a", None, "bc", "", "cde"]),
    "ints": pa.array([1, None, None, 4, 5], pa.int32()),
    "lists": pa.array([["a", None], [], None, ["bcd"], ["e", "f"]], pa.list_(pa.string())),
    "nested": pa.array(
        [[[1]], [[None, 2], []], None, [None], []],
        pa.list_(pa.list_(pa.int64())),
    ),
    "struct": pa.array(
        [{"s": "x"}, None, {"s": None}, {"s": "yz"}, {"s": ""}],
        pa.struct([("s", pa.string())]),
    ),
}
REQUIRED = pa.field("required", pa.int64(), nullable=False)


@pytest.fixture(scope="module")
def pyarrow_file() -> bytes:
    table = pa.table(PYARROW_COLUMNS).append_column(REQUIRED, pa.array(range(5), pa.int64()))
    buffer = io.BytesIO()
    pq.write_table(table, buffer, write_page_index=True, store_schema=False)
    return buffer.getvalue()


def _ours(contents, index: int) -> SizeStatistics:
    leaf = contents.leaves[index]
    return size_statistics(
        leaf.leaf.node.physical_type,
        leaf.values,
        leaf.definition_levels,
        leaf.repetition_levels,
        leaf.leaf.max_definition_level,
        leaf.leaf.max_repetition_level,
    )


def _normalised(stats: SizeStatistics | None) -> SizeStatistics:
    # pyarrow writes an empty list where the spec lets a writer omit a histogram (max level 0);
    # both say the same, so compare with [] read as absent.
    if stats is None:
        return SizeStatistics()
    return SizeStatistics(
        stats.unencoded_byte_array_data_bytes,
        stats.repetition_level_histogram or None,
        stats.definition_level_histogram or None,
    )


def test_size_statistics_agree_with_pyarrow(pyarrow_file):
    contents = read_parquet(pyarrow_file)
    assert len(contents.leaves) == len(PYARROW_COLUMNS) + 1
    for index, leaf in enumerate(contents.leaves):
        written = contents.metadata.row_groups[0].columns[index].meta_data.size_statistics
        assert _ours(contents, index) == _normalised(written), leaf.leaf.dotted_path
