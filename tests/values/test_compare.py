"""Equality and diffs of canonical tables (conformance/values/compare.py)."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from conformance.values import DataType, Field, Schema, Table, diff_tables
from conformance.values import types as T
from tests.support.strategies import any_types, values


def _table(t, rows, name="c"):
    return Table.from_rows(Schema((Field(name, t),)), [(v,) for v in rows])


@given(st.data())
def test_a_table_equals_itself(data):
    t = data.draw(any_types)
    rows = data.draw(st.lists(values(t), max_size=5))
    assert diff_tables(_table(t, rows), _table(t, rows)) is None


def test_signed_zero_and_nan():
    assert diff_tables(_table(T.floating(64), [0.0]), _table(T.floating(64), [-0.0])) is not None
    assert diff_tables(_table(T.floating(64), [math.nan]), _table(T.floating(64), [math.nan])) is None
    assert diff_tables(_table(T.floating(64), [math.nan]), _table(T.floating(64), [None])) is not None


def test_widening_keeps_the_value():
    # INT(8, unsigned) read back as a signed 16-bit integer, same numbers: equal.
    assert diff_tables(_table(T.integer(8, False), [255]), _table(T.integer(16), [255])) is None
    # UINT64 read as DECIMAL(20, 0): the same exact number.
    wide = DataType("decimal", precision=20, scale=0)
    assert diff_tables(_table(T.integer(64, False), [2**64 - 1]), _table(wide, [2**64 - 1])) is None
    # A FLOAT read as DOUBLE: the same value.
    assert diff_tables(_table(T.floating(32), [1.5]), _table(T.floating(64), [1.5])) is None


def test_unsigned_read_as_signed_is_a_difference():
    diff = diff_tables(_table(T.integer(64, False), [2**64 - 1]), _table(T.integer(64), [-1]))
    assert diff == ("row 0, column 'c': expected \"18446744073709551615\" (INT(64, unsigned)), "
                    "got \"-1\" (INT(64, signed))")


def test_timestamps_compare_instants_and_utc_flag():
    assert diff_tables(_table(T.timestamp("ms"), [5]), _table(T.timestamp("us"), [5000])) is None
    assert diff_tables(_table(T.timestamp("ms"), [5]), _table(T.timestamp("us"), [5001]))
    diff = diff_tables(_table(T.timestamp("us", True), [5]), _table(T.timestamp("us", False), [5]))
    assert "isAdjustedToUTC" in diff


def test_decimal_scale_is_part_of_the_value():
    assert diff_tables(_table(T.decimal(9, 2, "INT32"), [150]),
                       _table(T.decimal(9, 1, "INT32"), [15])) is None
    assert diff_tables(_table(T.decimal(9, 2, "INT32"), [150]),
                       _table(T.decimal(9, 1, "INT32"), [150])) is not None


def test_category_changes_are_type_differences():
    diff = diff_tables(_table(T.string(), ["a"]), _table(T.binary(), [b"a"]))
    assert diff == "column 'c' type: expected STRING, got BINARY"


def test_a_nested_type_difference_names_the_innermost_types_first():
    expected = T.list_of(T.map_of(T.string(), T.enum()))
    actual = T.list_of(T.map_of(T.string(), T.binary()))
    assert diff_tables(_table(expected, [None]), _table(actual, [None])).splitlines() == [
        "column 'c' type: expected ENUM, got BINARY",
        "  in column type LIST<MAP<STRING, ENUM>>, got LIST<MAP<STRING, BINARY>>"]


def test_a_timestamp_that_changes_its_utc_flag_differs():
    diff = diff_tables(_table(T.timestamp("us", True), [1]), _table(T.timestamp("us", False), [1]))
    assert diff == ("column 'c' type: expected TIMESTAMP(us, utc=True), got TIMESTAMP(us, utc=False)"
                    " (isAdjustedToUTC differs)")


def test_diff_lists_rows_columns_and_counts():
    expected = _table(T.integer(32), list(range(30)))
    actual = _table(T.integer(32), [v + 1 for v in range(29)])
    lines = diff_tables(expected, actual).splitlines()
    assert lines[0] == "row count: expected 30, got 29"
    assert lines[1] == "row 0, column 'c': expected 0, got 1"
    assert lines[-1] == "... and 9 more differing cells"


def test_column_names_must_match():
    assert "columns" in diff_tables(_table(T.boolean(), [True], "a"), _table(T.boolean(), [True], "b"))


def test_nested_values_compare_deeply():
    t = T.list_of(T.struct_of(Field("x", T.floating(64))))
    assert diff_tables(_table(t, [[{"x": 0.0}]]), _table(t, [[{"x": -0.0}]])) is not None
    assert diff_tables(_table(t, [[{"x": 1.0}, None]]), _table(t, [[{"x": 1.0}, None]])) is None
