"""Column summaries merged stripe by stripe equal the summary of all the values at once
(reference_impl/orc/validation/column_summary.py): the file-level statistics checks see the
same numbers as when validate held every stripe's values."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from reference_impl.orc.column_values import ColumnValues
from reference_impl.orc.metadata.proto_enums import TypeKind
from reference_impl.orc.metadata.type_tree import primitive
from reference_impl.orc.validation.column_summary import ColumnSummary, RunningSum, merged, summarise

INT64 = st.integers(-(2**63), 2**63 - 1)
DOUBLES = st.floats(allow_nan=True, allow_infinity=True)
TEXT = st.text(max_size=5)


def _summary(kind: TypeKind, entries: list[object]) -> ColumnSummary:
    values = [value for value in entries if value is not None]
    return summarise(ColumnValues(primitive(kind), entries, values), "UTC", None)


def _split_and_merged(kind: TypeKind, entries: list[object], cuts: list[int]) -> ColumnSummary:
    bounds = sorted({0, len(entries), *(cut % (len(entries) + 1) for cut in cuts)})
    parts = [_summary(kind, entries[start:end]) for start, end in zip(bounds, bounds[1:], strict=False)]
    result = _summary(kind, [])
    for part in parts:
        result = merged(result, part)
    return result


@given(st.lists(st.none() | INT64, max_size=30), st.lists(st.integers(0, 40), max_size=4))
def test_merged_integer_summaries_are_the_whole_ones(entries: list[object], cuts: list[int]) -> None:
    assert _split_and_merged(TypeKind.LONG, entries, cuts) == _summary(TypeKind.LONG, entries)


@given(st.lists(st.none() | DOUBLES, max_size=30), st.lists(st.integers(0, 40), max_size=4))
def test_merged_double_summaries_are_the_whole_ones(entries: list[object], cuts: list[int]) -> None:
    whole, parts = _summary(TypeKind.DOUBLE, entries), _split_and_merged(TypeKind.DOUBLE, entries, cuts)
    assert (parts.count, parts.has_null, parts.doubles) == (whole.count, whole.has_null, whole.doubles)
    # -0.0 == 0.0: the first of equal extremes is kept, as min() over all the values keeps it
    assert repr(parts.extremes) == repr(whole.extremes)


@given(st.lists(st.none() | TEXT, max_size=30), st.lists(st.integers(0, 40), max_size=4))
def test_merged_string_summaries_are_the_whole_ones(entries: list[object], cuts: list[int]) -> None:
    assert _split_and_merged(TypeKind.STRING, entries, cuts) == _summary(TypeKind.STRING, entries)


@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), max_size=30))
def test_the_exact_double_sum_is_the_sum_of_fractions(values: list[float]) -> None:
    sums = _summary(TypeKind.DOUBLE, list(values)).doubles
    assert sums is not None
    assert sums.exact == sum(map(Fraction, values), Fraction(0))
    assert sums.magnitude == sum((Fraction(abs(value)) for value in values), Fraction(0))


def test_a_sum_past_the_largest_double_is_exact_too() -> None:
    largest = 1.7976931348623157e308
    sums = _summary(TypeKind.DOUBLE, [largest, largest, -largest]).doubles
    assert sums is not None and sums.exact == Fraction(largest)


def test_an_integer_sum_overflows_at_any_point_of_the_running_sum() -> None:
    # 2^63 - 1, then + 1 (past a long), then - 1: the total fits, the running sum did not
    parts = [RunningSum.of([2**63 - 1]), RunningSum.of([1]), RunningSum.of([-1])]
    total = parts[0].merged(parts[1]).merged(parts[2])
    assert (total.total, total.int64_sum) == (2**63 - 1, None)
    assert RunningSum.of([2**63 - 1, -1, 1]).int64_sum == 2**63 - 1
