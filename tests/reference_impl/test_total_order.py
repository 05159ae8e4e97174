"""IEEE_754_TOTAL_ORDER and nan_count (parquet.thrift ``union ColumnOrder``,
``struct Statistics`` field 9, ``struct ColumnIndex`` field 8): the order itself,
what the writer writes under each order, a validator that is silent on conforming
files and names every rule a one-fault file breaks, and pruning that equals the full
scan."""

from __future__ import annotations

import io
import math
import struct

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.parquet.indexes.pruning import OPS, Predicate, scan
from reference_impl.parquet.metadata import parquet_thrift as md
from reference_impl.parquet.metadata.parquet_thrift import (
    ColumnOrder,
    IEEE754TotalOrder,
    Type,
    TypeDefinedOrder,
)
from reference_impl.parquet.reader import read_footer
from reference_impl.parquet.schema.logical_values import float16_from_bytes, float16_to_bytes
from reference_impl.parquet.schema.tree import leaf, root
from reference_impl.parquet.statistics.sort_order import (
    IEEE_754_TOTAL_ORDER,
    INT96_TIMESTAMP_ORDER,
    TYPE_ORDER,
    min_max,
    nan_count,
    sort_key,
)
from reference_impl.parquet.validation.validate import ADVISORY, NONCONFORMING, UNTRUE, validate
from reference_impl.parquet.writer import write_table
from reference_impl.parquet.writer_options import WriterOptions
from tests.reference_impl.data_path_helpers import OPTIONAL
from tests.reference_impl.test_validation import (
    chunk_of,
    column_index_mutated,
    only,
    stats_mutated,
    with_footer,
)

DOUBLE = struct.Struct("<d")
SIGN = 1 << 63
NEGATIVE_NAN = DOUBLE.unpack(struct.pack("<Q", 0xFFF8_0000_0000_0000))[0]
SIGNALLING_NAN = DOUBLE.unpack(struct.pack("<Q", 0x7FF0_0000_0000_0001))[0]
PAYLOAD_NAN = DOUBLE.unpack(struct.pack("<Q", 0x7FF8_0000_0000_0ABC))[0]
FLOAT16 = md.LogicalType(FLOAT16=md.Float16Type())
HALF_BYTES = 2
PAGE_ROWS = 3


def bits(value: float) -> int:
    return struct.unpack("<Q", DOUBLE.pack(value))[0]


def total_order_le(x: float, y: float) -> bool:
    """IEEE 754-2008 5.10 totalOrder(x, y), from the sign and the encoding: a negative
    before a positive; among positives the larger encoding is larger, among negatives
    the larger encoding is smaller (NaNs included, by payload)."""
    x_bits, y_bits = bits(x), bits(y)
    x_negative, y_negative = bool(x_bits & SIGN), bool(y_bits & SIGN)
    if x_negative != y_negative:
        return x_negative
    return x_bits >= y_bits if x_negative else x_bits <= y_bits


def file_of(values: list, physical: Type = Type.DOUBLE, order: str | None = IEEE_754_TOTAL_ORDER,
            logical: md.LogicalType | None = None, **options) -> bytes:
    sink = io.BytesIO()
    length = HALF_BYTES if logical is not None else None
    tree = root([leaf("x", physical, repetition=OPTIONAL, logical_type=logical, type_length=length)])
    orders = {} if order is None else {"x": order}
    write_table(sink, tree, [{"x": v} for v in values], WriterOptions(column_orders=orders, **options))
    return sink.getvalue()


def statistics(raw: bytes) -> md.Statistics:
    return read_footer(raw)[0].row_groups[0].columns[0].meta_data.statistics


def column_index(raw: bytes) -> md.ColumnIndex:
    from reference_impl.parquet.indexes.page_index import read_column_index

    return read_column_index(raw, read_footer(raw)[0].row_groups[0].columns[0])


def as_order(raw: bytes, member: ColumnOrder) -> bytes:
    return with_footer(raw, lambda metadata: setattr(metadata, "column_orders", [member]))


# -- the order ------------------------------------------------------------------------------


@given(st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1))
def test_the_key_is_ieee_total_order(x_bits: int, y_bits: int) -> None:
    x, y = (DOUBLE.unpack(struct.pack("<Q", b))[0] for b in (x_bits, y_bits))
    key = sort_key(Type.DOUBLE, column_order=IEEE_754_TOTAL_ORDER)
    assert (key(x) <= key(y)) == total_order_le(x, y)


def test_total_order_bounds_follow_the_text() -> None:
    def bounds(values: list) -> tuple:
        low, high = min_max(values, Type.DOUBLE, column_order=IEEE_754_TOTAL_ORDER)
        return bits(low), bits(high)

    # "-0 to be less than +0"; no zero is rewritten, as TYPE_ORDER's "should" does.
    assert bounds([0.0, -0.0, math.nan]) == (bits(-0.0), bits(0.0))
    assert bounds([0.0]) == (bits(0.0), bits(0.0))
    assert bounds([-0.0]) == (bits(-0.0), bits(-0.0))
    # "the smallest and largest non-NaN values ... or if all non-null values are NaN, the
    # smallest and largest NaN values"
    assert bounds([NEGATIVE_NAN, 1.0, math.inf]) == (bits(1.0), bits(math.inf))
    nans = [PAYLOAD_NAN, NEGATIVE_NAN, SIGNALLING_NAN, None]
    assert bounds(nans) == (bits(NEGATIVE_NAN), bits(PAYLOAD_NAN))
    # TYPE_ORDER for comparison: zeros rewritten, all-NaN gives no bounds.
    assert [bits(v) for v in min_max([0.0], Type.DOUBLE)] == [bits(-0.0), bits(0.0)]
    assert min_max([math.nan], Type.DOUBLE) is None


def test_float16_total_order_and_nan_count() -> None:
    halves = [b"\x00\x80", b"\x00\x00", b"\x00\x7e", b"\x00\xfe", b"\x00\x3c"]  # -0, +0, NaN, -NaN, 1
    assert min_max(halves, Type.FIXED_LEN_BYTE_ARRAY, FLOAT16, column_order=IEEE_754_TOTAL_ORDER) == (
        b"\x00\x80", b"\x00\x3c")
    assert min_max(halves[2:4], Type.FIXED_LEN_BYTE_ARRAY, FLOAT16, column_order=IEEE_754_TOTAL_ORDER) == (
        b"\x00\xfe", b"\x00\x7e")
    assert nan_count(halves + [None], Type.FIXED_LEN_BYTE_ARRAY, FLOAT16) == 2
    assert nan_count([1, 2], Type.INT32) is None  # "only present if ... FLOAT or DOUBLE, or ... FLOAT16"


# -- the writer -----------------------------------------------------------------------------


def test_the_writer_writes_the_total_order_with_nan_counts() -> None:
    values = [-0.0, 0.0, math.nan, math.nan, NEGATIVE_NAN, None, 2.5, 1.0, 1.0]
    raw = file_of(values, page_index=True, page_row_limit=PAGE_ROWS)
    metadata, _ = read_footer(raw)
    assert [order.kind for order in metadata.column_orders] == [IEEE_754_TOTAL_ORDER]
    stats = statistics(raw)
    assert stats.nan_count == 3  # "Writing the nan_count field is mandatory"
    assert (stats.min_value, stats.max_value) == (DOUBLE.pack(-0.0), DOUBLE.pack(2.5))
    assert (stats.min, stats.max) == (None, None)  # the deprecated fields are for signed orders
    index = column_index(raw)
    assert index.nan_counts == [1, 2, 0]
    # The all-NaN page: "the smallest and largest NaN values as defined by IEEE 754 total order".
    assert (index.min_values[1], index.max_values[1]) == (DOUBLE.pack(NEGATIVE_NAN), DOUBLE.pack(math.nan))
    assert validate(raw) == []


def test_under_type_order_nan_count_is_written_and_an_all_nan_page_drops_the_column_index() -> None:
    raw = file_of([1.0, 2.0, 3.0, math.nan, math.nan, None], order=None, page_index=True,
                  page_row_limit=PAGE_ROWS)
    assert read_footer(raw)[0].column_orders[0].kind == TYPE_ORDER
    assert statistics(raw).nan_count == 2  # "must be set for floating point types, even if it is zero"
    assert chunk_of(read_footer(raw)[0], "x").column_index_offset is None
    assert validate(raw) == []
    assert statistics(file_of([1.0], order=None)).nan_count == 0


def test_float16_files_under_both_orders_validate_clean() -> None:
    halves = [float16_to_bytes(v) for v in (-0.0, 0.0, math.nan, -2.5)] + [None, float16_to_bytes(math.nan)]
    for order in (TYPE_ORDER, IEEE_754_TOTAL_ORDER):
        raw = file_of(halves, Type.FIXED_LEN_BYTE_ARRAY, order, FLOAT16, page_index=True,
                      page_row_limit=PAGE_ROWS)
        assert statistics(raw).nan_count == 2
        assert validate(raw) == [], order


@pytest.mark.parametrize(("physical", "order"), [(Type.INT32, IEEE_754_TOTAL_ORDER),
                                                  (Type.DOUBLE, INT96_TIMESTAMP_ORDER)])
def test_an_order_the_column_may_not_use_is_refused(physical: Type, order: str) -> None:
    with pytest.raises(ValueError, match="orders .* columns only"):
        file_of([1], physical, order)


def test_a_pyarrow_file_declared_total_order_with_its_nan_counts_is_conforming() -> None:
    values = [1.5, math.nan, -3.0, None, 7.25, math.nan]
    sink = io.BytesIO()
    pq.write_table(pa.table({"x": pa.array(values, pa.float64())}), sink, write_statistics=True,
                   write_page_index=True)

    def total_order(metadata: md.FileMetaData) -> None:
        metadata.column_orders = [ColumnOrder(IEEE_754_TOTAL_ORDER=IEEE754TotalOrder())]
        stats = metadata.row_groups[0].columns[0].meta_data.statistics
        stats.nan_count = 2  # the two NaNs above
        stats.min = stats.max = None  # "may be set when the column order is signed": it is not
        # pyarrow's empty histogram for a column without repetition, a finding of its own
        # (test_validation.test_pyarrow_files): not this test's subject.
        metadata.row_groups[0].columns[0].meta_data.size_statistics.repetition_level_histogram = None

    assert validate(with_footer(sink.getvalue(), total_order)) == []


# -- one fault each -------------------------------------------------------------------------


def test_a_wrong_nan_count_is_untrue() -> None:
    raw = file_of([1.0, math.nan, 2.0])
    finding = only(validate(stats_mutated(raw, "x", nan_count=0)))
    assert finding == ("statistics.nan_count", UNTRUE, "x", 0, None)


@pytest.mark.parametrize("order", [TYPE_ORDER, IEEE_754_TOTAL_ORDER])
def test_a_missing_nan_count_breaks_a_must_under_either_order(order: str) -> None:
    raw = file_of([1.0, 2.0], order=order)
    finding = only(validate(stats_mutated(raw, "x", nan_count=None)))
    assert finding == ("statistics.nan_count_missing", NONCONFORMING, "x", 0, None)


def test_a_nan_count_on_an_integer_column() -> None:
    raw = file_of([1, 2], Type.INT32, order=None)
    finding = only(validate(stats_mutated(raw, "x", nan_count=0)))
    assert finding[:2] == ("statistics.nan_count_type", ADVISORY)


def test_bounds_over_nans_only_under_type_order() -> None:
    raw = file_of([math.nan, math.nan], order=TYPE_ORDER)
    one = DOUBLE.pack(1.0)
    finding = only(validate(stats_mutated(raw, "x", min_value=one, max_value=one)))
    assert finding[:2] == ("statistics.all_nan_bounds", NONCONFORMING)


def test_a_nan_bound_over_numbers_is_untrue_under_the_total_order() -> None:
    raw = file_of([1.0, math.nan, 2.0])
    nan_min = stats_mutated(raw, "x", min_value=DOUBLE.pack(NEGATIVE_NAN), is_min_value_exact=None)
    finding = only(validate(nan_min))
    assert finding[:2] == ("statistics.total_order_nan_bound", UNTRUE)


def test_total_order_bounds_are_judged_by_the_total_order() -> None:
    raw = file_of([0.0, 1.0])  # min +0.0: -0.0 is absent
    finding = only(validate(stats_mutated(raw, "x", min_value=DOUBLE.pack(-0.0))))
    assert finding[:2] == ("statistics.exactness", UNTRUE)  # a bound, but not the smallest value


def test_a_wrong_page_nan_count_is_untrue() -> None:
    raw = file_of([1.0, math.nan, 2.0, 3.0], page_index=True, page_row_limit=2)

    def miscount(index: md.ColumnIndex) -> md.ColumnIndex:
        index.nan_counts = [0, 1]
        return index

    mutated = column_index_mutated(raw, "x", miscount)
    assert {(f.kind, f.severity, f.page) for f in validate(mutated)} == {
        ("column_index.nan_counts", UNTRUE, 0), ("column_index.nan_counts", UNTRUE, 1)}


def test_a_nan_page_bound_over_numbers_is_untrue() -> None:
    raw = file_of([1.0, 2.0, math.nan, math.nan], page_index=True, page_row_limit=2)

    def nan_min(index: md.ColumnIndex) -> md.ColumnIndex:
        index.min_values[0] = DOUBLE.pack(math.nan)
        return index

    mutated = column_index_mutated(raw, "x", nan_min)
    assert only(validate(mutated)) == ("column_index.total_order_nan_bound", UNTRUE, "x", 0, 0)


def test_an_all_nan_page_under_type_order_forbids_the_column_index() -> None:
    raw = file_of([1.0, 2.0, math.nan, math.nan], page_index=True, page_row_limit=2)
    mutated = as_order(raw, ColumnOrder(TYPE_ORDER=TypeDefinedOrder()))
    kinds = {(f.kind, f.page) for f in validate(mutated)}
    # The index the total order asks for is wrong twice over under TYPE_ORDER: a page of NaNs
    # only, and its NaN bounds.
    assert kinds == {("column_index.all_nan_page", 1), ("column_index.nan_bound", 1)}


def test_int96_under_type_order_statistics_and_index_are_unusable() -> None:
    from tests.reference_impl.test_column_orders import INT96_VALUES

    sink = io.BytesIO()
    tree = root([leaf("x", Type.INT96, repetition=OPTIONAL)])
    write_table(sink, tree, [{"x": v} for v in INT96_VALUES], WriterOptions(page_index=True))
    mutated = as_order(sink.getvalue(), ColumnOrder(TYPE_ORDER=TypeDefinedOrder()))
    assert {(f.kind, f.severity) for f in validate(mutated)} == {
        ("statistics.int96_order", ADVISORY), ("column_index.int96_order", NONCONFORMING)}


# -- pruning --------------------------------------------------------------------------------

NANS = st.sampled_from([math.nan, NEGATIVE_NAN, SIGNALLING_NAN, PAYLOAD_NAN])
DOUBLES = st.sampled_from([-0.0, 0.0, 1.0, -1.5, math.inf, -math.inf]) | NANS | st.floats(-4, 4, width=32)
HALVES = st.binary(min_size=HALF_BYTES, max_size=HALF_BYTES)


def full_scan(values: list, predicate: Predicate, half: bool) -> list[int]:
    """The rows a full scan keeps, by the predicate's rules over IEEE 754 numbers."""
    def number(value):
        return float16_from_bytes(value) if half and value is not None else value

    target = Predicate(predicate.column, predicate.op, number(predicate.value))
    return [row for row, value in enumerate(values) if target.matches(number(value))]


@st.composite
def float_scans(draw):
    half = draw(st.booleans())
    strategy = HALVES if half else DOUBLES
    values = draw(st.lists(st.none() | strategy, min_size=1, max_size=40))
    op = draw(st.sampled_from(OPS))
    target = None if op in ("is_null", "is_not_null") else draw(strategy)
    layout = {"page_row_limit": draw(st.integers(1, 8)), "row_group_size": draw(st.integers(1, 16)),
              "page_index": True}
    order = draw(st.sampled_from([TYPE_ORDER, IEEE_754_TOTAL_ORDER]))
    return half, values, Predicate("x", op, target), order, layout


@given(float_scans())
def test_pruned_float_scans_equal_full_scans_under_both_orders(drawn) -> None:
    half, values, predicate, order, layout = drawn
    physical, logical = (Type.FIXED_LEN_BYTE_ARRAY, FLOAT16) if half else (Type.DOUBLE, None)
    raw = file_of(values, physical, order, logical, **layout)
    assert scan(raw, predicate).rows == full_scan(values, predicate, half)


def test_nan_count_prunes_an_all_nan_row_group() -> None:
    raw = file_of([math.nan, math.nan, 1.0, 2.0], row_group_size=2)
    result = scan(raw, Predicate("x", ">", 0.0))
    assert (result.rows, result.row_groups_skipped) == ([2, 3], {"statistics": 1})
    assert scan(raw, Predicate("x", "!=", 1.0)).rows == [0, 1, 3]  # a NaN satisfies "!="


def test_a_trusted_nan_count_lie_loses_the_nan() -> None:
    raw = file_of([1.0, math.nan, 1.0], lies={"nan_count"})
    predicate = Predicate("x", "!=", 1.0)
    assert scan(raw, predicate).rows == []
    assert scan(raw, predicate, use_statistics=False).rows == [1]


def test_legacy_nan_bounds_in_a_type_order_column_index_are_ignored() -> None:
    raw = file_of([1.0, 2.0, 3.0, 4.0], order=TYPE_ORDER, page_index=True, page_row_limit=2)

    def nan_bounds(index: md.ColumnIndex) -> md.ColumnIndex:
        index.min_values[0] = index.max_values[0] = DOUBLE.pack(math.nan)
        return index

    mutated = column_index_mutated(raw, "x", nan_bounds)
    assert scan(mutated, Predicate("x", "==", 2.0)).rows == [1]  # "If the min is a NaN, it should be ignored"


def test_statistics_under_an_order_this_reader_does_not_know_are_ignored() -> None:
    raw = file_of(list(range(10)), Type.INT32, order=None, lies={"statistics"})
    predicate = Predicate("x", "==", 3)
    assert scan(raw, predicate).rows == []  # the lie is trusted under TYPE_ORDER
    # An empty union reads as a member from a newer text: "If the reader does not support
    # the value of this union, min and max stats for this column should be ignored".
    unknown = as_order(raw, ColumnOrder())
    assert read_footer(unknown)[0].column_orders[0].kind is None
    assert scan(unknown, predicate).rows == [3]
