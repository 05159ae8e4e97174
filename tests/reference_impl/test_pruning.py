"""Filtered scans: a pruned scan returns exactly the rows of a full scan on honest
files (property-based), skips what the metadata excludes, and trusts lies."""

from __future__ import annotations

import io
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.parquet.errors import UnsupportedFeature
from reference_impl.parquet.indexes.pruning import OPS, Predicate, scan
from reference_impl.parquet.metadata import parquet_thrift as md
from reference_impl.parquet.schema.tree import leaf, root
from reference_impl.parquet.statistics.sort_order import sort_key
from reference_impl.parquet.writer import write_table
from reference_impl.parquet.writer_options import WriterOptions
from tests.reference_impl.data_path_helpers import OPTIONAL

INT32_KEY = sort_key(md.Type.INT32)
UINT32 = md.LogicalType(INTEGER=md.IntType(bitWidth=32, isSigned=False))


def _file(values: list, physical: md.Type = md.Type.INT32, logical: md.LogicalType | None = None,
          **options) -> bytes:
    sink = io.BytesIO()
    tree = root([leaf("x", physical, repetition=OPTIONAL, logical_type=logical)])
    write_table(sink, tree, [{"x": v} for v in values], WriterOptions(**options))
    return sink.getvalue()


def _full_scan(values: list, predicate: Predicate, key=INT32_KEY) -> list[int]:
    return [row for row, value in enumerate(values) if predicate.matches(value, key)]


STRING = md.LogicalType(STRING=md.StringType())
# (physical type, logical type, values): edge-biased, few distinct so predicates hit.
COLUMNS = {
    "int32": (md.Type.INT32, None, st.integers(-50, 50)),
    "double": (md.Type.DOUBLE, None, st.sampled_from([-0.0, 0.0, math.nan, -1.5, 2.5, math.inf])
               | st.floats(-100, 100, width=32)),
    "string": (md.Type.BYTE_ARRAY, STRING, st.sampled_from(["", "a", "é", "z", "\U0010ffff"]).map(
        str.encode) | st.binary(max_size=3)),
}


@st.composite
def scans(draw):
    """A column, its values (sorted or not, with nulls), a predicate and a file layout."""
    name = draw(st.sampled_from(sorted(COLUMNS)))
    physical, logical, strategy = COLUMNS[name]
    values = draw(st.lists(st.none() | strategy, min_size=1, max_size=60))
    if draw(st.booleans()):
        key = sort_key(physical, logical)
        present = [v for v in values if v is not None and not (isinstance(v, float) and math.isnan(v))]
        values = sorted(present, key=key, reverse=draw(st.booleans())) + [None] * (len(values) - len(present))
    op = draw(st.sampled_from(OPS))
    target = None if op in ("is_null", "is_not_null") else draw(strategy)
    layout = {"page_row_limit": draw(st.integers(1, 20)), "row_group_size": draw(st.integers(1, 40)),
              "bloom_filter_columns": {"x"} if draw(st.booleans()) else frozenset(), "page_index": True}
    return physical, logical, values, Predicate("x", op, target), layout


@given(scans())
def test_pruned_scan_equals_full_scan(drawn):
    physical, logical, values, predicate, layout = drawn
    raw = _file(values, physical, logical, **layout)
    assert scan(raw, predicate).rows == _full_scan(values, predicate, sort_key(physical, logical))


def test_sorted_data_skips_row_groups_and_pages():
    values = list(range(100))
    raw = _file(values, page_index=True, page_row_limit=10, row_group_size=50)
    result = scan(raw, Predicate("x", "==", 73))
    assert result.rows == [73]
    assert result.row_groups_skipped == {"statistics": 1}
    assert result.pages_skipped == 4


def test_bloom_filter_skips_a_row_group_the_bounds_cannot():
    values = [0, 100] * 10 + [0, 50, 100] * 5  # 50 is inside both groups' bounds
    raw = _file(values, row_group_size=20, bloom_filter_columns={"x"})
    result = scan(raw, Predicate("x", "==", 50))
    assert result.rows == [21, 24, 27, 30, 33]
    assert result.row_groups_skipped == {"bloom_filter": 1}


def test_unsigned_order_is_used_for_pruning():
    top = -1  # UINT32 4294967295 as the physical INT32
    raw = _file([0, 1, top], logical=UINT32, page_index=True)
    assert scan(raw, Predicate("x", ">", 2**31 - 1)).rows == [2]


def test_float_zero_matches_both_signs_through_the_bloom_filter():
    raw = _file([-0.0, 1.5, math.nan], physical=md.Type.DOUBLE, bloom_filter_columns={"x"})
    assert scan(raw, Predicate("x", "==", 0.0)).rows == [0]
    assert scan(raw, Predicate("x", "!=", 1.5)).rows == [0, 2]


@pytest.mark.parametrize(("lie", "options"), [
    ("statistics", {}),
    ("page_index", {"page_index": True, "page_row_limit": 10}),
    ("bloom_filter", {"bloom_filter_columns": {"x"}}),
])
def test_lies_are_trusted_and_a_full_scan_sees_through_them(lie, options):
    raw = _file(list(range(40)), lies={lie}, **options)
    predicate = Predicate("x", "==", 3)
    assert scan(raw, predicate).rows == []
    honest = scan(raw, predicate, use_statistics=False, use_page_index=False, use_bloom_filter=False)
    assert honest.rows == [3]


def test_nested_schemas_are_refused():
    sink = io.BytesIO()
    tree = root([leaf("x", md.Type.INT32, repetition=md.FieldRepetitionType.REPEATED)])
    write_table(sink, tree, [{"x": [1, 2]}])
    with pytest.raises(UnsupportedFeature, match="nested"):
        scan(sink.getvalue(), Predicate("x", "==", 1))


def test_bad_predicates_are_refused():
    with pytest.raises(ValueError, match="op"):
        Predicate("x", "~", 1)
    with pytest.raises(ValueError, match="takes no value"):
        Predicate("x", "is_null", 1)
    with pytest.raises(ValueError, match="not a column"):
        scan(_file([1]), Predicate("y", "==", 1))
