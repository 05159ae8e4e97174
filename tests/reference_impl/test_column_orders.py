"""Column orders, parquet.thrift ``union ColumnOrder``: INT96 statistics count only
under ``INT96_TIMESTAMP_ORDER`` (days, then nanoseconds, both signed), an unknown
ConvertedType leaves the order undefined, and float bit patterns stay apart."""

from __future__ import annotations

import io
import struct

import numpy as np

from reference_impl.common.ieee_float import widen_float_bits
from reference_impl.parquet.indexes.pruning import Predicate, scan
from reference_impl.parquet.metadata import parquet_thrift as md
from reference_impl.parquet.metadata.parquet_thrift import ColumnOrder, Type, TypeDefinedOrder
from reference_impl.parquet.reader import read_footer
from reference_impl.parquet.schema.tree import SchemaNode, leaf, root
from reference_impl.parquet.statistics.sort_order import (
    INT96_TIMESTAMP_ORDER,
    SortOrder,
    min_max,
    sort_order,
)
from reference_impl.parquet.validation.validate import ADVISORY, UNTRUE, validate
from reference_impl.parquet.writer import write_table
from reference_impl.parquet.writer_options import WriterOptions
from tests.reference_impl.data_path_helpers import REQUIRED
from tests.reference_impl.test_validation import only, stats_mutated, with_footer

FLOAT_BITS = 32
SIGNALLING_NAN, QUIET_NAN = 0x7F800001, 0x7FC00001  # FLOAT NaNs that differ in the quiet bit only
OLD_PARQUET_CPP_CONVERTED_TYPE = 24  # past INTERVAL = 21, the last ConvertedType


def int96(days: int, nanos: int) -> bytes:
    """8 bytes little-endian nanoseconds of the day, then 4 bytes little-endian day."""
    return struct.pack("<qi", nanos, days)


# Unsigned byte-wise order would put the negative day and the negative nanoseconds last.
EARLIEST = int96(-1, 5)
LATEST = int96(2, 1)
INT96_VALUES = [int96(0, 7), LATEST, int96(0, -3), EARLIEST, int96(2, 0)]


def written(column: SchemaNode, values: list, **options) -> bytes:
    sink = io.BytesIO()
    write_table(sink, root([column]), [{"x": v} for v in values], WriterOptions(**options))
    return sink.getvalue()


def int96_file() -> bytes:
    return written(leaf("x", Type.INT96, repetition=REQUIRED), INT96_VALUES)


def as_type_order(raw: bytes) -> bytes:
    type_order = [ColumnOrder(TYPE_ORDER=TypeDefinedOrder())]
    return with_footer(raw, lambda metadata: setattr(metadata, "column_orders", type_order))


def test_int96_is_ordered_only_under_the_timestamp_order() -> None:
    assert sort_order(Type.INT96) is SortOrder.UNDEFINED
    assert sort_order(Type.INT96, column_order=INT96_TIMESTAMP_ORDER) is SortOrder.INT96_TIMESTAMP
    assert sort_order(Type.INT64, column_order=INT96_TIMESTAMP_ORDER) is SortOrder.UNDEFINED  # INT96 only
    assert min_max(INT96_VALUES, Type.INT96) is None
    assert min_max(INT96_VALUES, Type.INT96, column_order=INT96_TIMESTAMP_ORDER) == (EARLIEST, LATEST)


def test_the_reference_writer_gives_int96_the_timestamp_order_and_its_bounds() -> None:
    raw = int96_file()
    metadata, _ = read_footer(raw)
    assert [order.kind for order in metadata.column_orders] == [INT96_TIMESTAMP_ORDER]
    stats = metadata.row_groups[0].columns[0].meta_data.statistics
    assert (stats.min_value, stats.max_value) == (EARLIEST, LATEST)
    assert (stats.min, stats.max) == (None, None)  # no "signed comparison" of INT96 exists
    assert validate(raw) == []


def test_int96_bounds_are_judged_chronologically() -> None:
    raw = int96_file()
    finding = only(validate(stats_mutated(raw, "x", max_value=int96(0, 7))))
    assert finding[:2] == ("statistics.max_value", UNTRUE)


def test_int96_bounds_under_type_order_are_meaningless() -> None:
    finding = only(validate(as_type_order(int96_file())))
    assert finding[:2] == ("statistics.undefined_order", ADVISORY)


def test_a_reader_uses_int96_statistics_only_under_the_timestamp_order() -> None:
    raw = int96_file()
    absent = Predicate("x", "==", int96(3, 0))  # after LATEST
    assert scan(raw, absent).row_groups_skipped == {"statistics": 1}
    assert scan(as_type_order(raw), absent).row_groups_skipped == {}
    assert scan(raw, Predicate("x", "<", int96(0, 0))).rows == [2, 3]


def test_an_unknown_converted_type_leaves_the_order_undefined() -> None:
    raw = written(leaf("x", Type.INT32, repetition=REQUIRED), [1, 2, 3])

    def old_parquet_cpp(metadata: md.FileMetaData) -> None:
        metadata.schema[1].converted_type = OLD_PARQUET_CPP_CONVERTED_TYPE

    raw = with_footer(raw, old_parquet_cpp)
    column = read_footer(raw)[0].schema[1]
    assert sort_order(Type.INT32, None, column.converted_type) is SortOrder.UNDEFINED
    result = scan(raw, Predicate("x", "==", 7))  # outside the bounds 1..3, which mean nothing here
    assert (result.rows, result.row_groups_skipped) == ([], {})


def test_float_nans_that_differ_in_the_quiet_bit_are_two_distinct_values() -> None:
    values = widen_float_bits(np.array([SIGNALLING_NAN, QUIET_NAN]), FLOAT_BITS)
    raw = written(leaf("x", Type.FLOAT, repetition=REQUIRED), values, distinct_count=True)
    assert read_footer(raw)[0].row_groups[0].columns[0].meta_data.statistics.distinct_count == 2
    assert validate(raw) == []
