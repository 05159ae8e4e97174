"""Filtered reads: skipping stripes and row groups by their statistics and Bloom filters,
reading the row groups left through the row index, then filtering the rows.

What the text lets a reader skip with, and what each structure promises:

* ORCv1.md, 'Column Statistics': the stripe statistics (the Metadata section, "stripe
  level column statistics") and the row group statistics bound a stripe's or a row
  group's values ("the minimum and maximum ... for predicate pushdown"); ``hasNull`` and
  ``numberOfValues`` (the non-null values) tell whether it holds a null or a value at all;
* ORCv1.md, 'Row Group Index': each RowIndexEntry holds its row group's statistics and
  the positions a reader seeks to ("the index streams ... are only loaded when either
  predicate push down is being used or the reader seeks to a particular row"):
  row_index_seek.py reads from any row group without decoding what lies before it;
* ORCv1.md, 'Bloom Filter Index': "Bloom filters ... row groups can be eliminated by
  predicate push down" for an equality: a filter that tests a value absent says no row
  of its row group holds it.

:func:`filtered_rows` takes a predicate on one primitive top-level column of a file whose
root is a STRUCT, skips every stripe its stripe statistics exclude, then every row group
its row index statistics or its Bloom filter exclude, reads the row groups left (runs of
adjacent ones together, each entered through the row index) and keeps the rows that
match. It returns them with their row numbers and what it skipped, per structure.

The structures are trusted as a pruning reader trusts them, except what
``validation/writer_version.py`` tells a reader to distrust (bounds of writers before
HIVE-8732, ORC-135, ORC-517; string Bloom filters before ORC-101; timestamp filters
without ``bloom_encoding`` 1). For a file whose metadata is true that is exactly the rows
a full scan finds; for a file whose metadata lies (the ``lying-*`` cases) it is what a
reader trusting that metadata returns, as Parquet's ``indexes/pruning.py`` does:
``validate`` is what tells a lie. A Bloom filter missing for a row group, or statistics
missing from an entry, skip nothing. BOOLEAN Bloom filters skip nothing either: the text
gives booleans no hash, and the writers disagree (ORC Java sets no bit, ORC C++ hashes
packed bytes: docs/orc-spec-notes.md, note 12); measured, neither ORC Java (Spark) nor
ORC C++ (pyorc) skips a row group with one, and a reader that did would lose every
``true`` of a Spark file.

Values and the predicate's value are in the reader's representation
(columns/registry.py) and compare in SQL terms: a null satisfies no comparison, floats
as IEEE 754 numbers (a NaN satisfies only ``!=``), strings by their UTF-8 bytes,
decimals by value at the column's scale, timestamps by their nanoseconds.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from reference_impl.common.row_predicate import OPS, RowPredicate, is_nan
from reference_impl.orc.bloom_filter import HASHED_KINDS, value_hash
from reference_impl.orc.bloom_filter_index import ColumnBloomFilters, stripe_bloom_filters
from reference_impl.orc.columns.timestamp_columns import instant_nanos
from reference_impl.orc.errors import UnsupportedFeature
from reference_impl.orc.metadata.file_tail import FileTail, read_file_tail
from reference_impl.orc.metadata.orc_proto import ColumnStatistics, StripeFooter
from reference_impl.orc.metadata.proto_enums import TypeKind
from reference_impl.orc.metadata.type_tree import TypeNode
from reference_impl.orc.reader import root_of
from reference_impl.orc.row_index_positions import read_row_indexes, row_group_count
from reference_impl.orc.row_index_seek import read_row_range
from reference_impl.orc.streams.compression import decompress_stream
from reference_impl.orc.streams.stripe_layout import (
    StreamCodec,
    StreamPlace,
    read_stripe_footer,
    stream_places,
)
from reference_impl.orc.validation.writer_version import Fix, distrusted_bloom_filter, distrusted_fixes

__all__ = ["OPS", "FilteredRows", "Predicate", "filtered_rows"]

UTC = "UTC"
NANOS_PER_MILLI = 10**6
# A timestamp bound is a millisecond, rounded down or toward zero by the writer
# (validation/statistics_checks.py): the instant it stands for lies within one of it.
MILLI_SLACK = NANOS_PER_MILLI - 1
INTEGER_KINDS = (TypeKind.BYTE, TypeKind.SHORT, TypeKind.INT, TypeKind.LONG)
FLOAT_KINDS = (TypeKind.FLOAT, TypeKind.DOUBLE)
TEXT_KINDS = (TypeKind.STRING, TypeKind.VARCHAR, TypeKind.CHAR)
TIMESTAMP_KINDS = (TypeKind.TIMESTAMP, TypeKind.TIMESTAMP_INSTANT)
NESTED_KINDS = (TypeKind.STRUCT, TypeKind.LIST, TypeKind.MAP, TypeKind.UNION)
PROBED_KINDS = HASHED_KINDS - {TypeKind.BOOLEAN}  # the Bloom filters it skips with (docstring)

# Why a stripe or a row group was skipped.
STRIPE_STATISTICS = "stripe_statistics"
ROW_INDEX = "row_index"
BLOOM_FILTER = "bloom_filter"

Bounds = tuple[Any, Any]


@dataclass(frozen=True)
class Predicate(RowPredicate):
    """``column`` (a top-level field) ``op`` ``value`` (None for the null tests). The
    reader's values compare as the module docstring says by Python's own order: a str's
    code points are its UTF-8 bytes' order, a column's decimals share one scale."""

    def might_match(self, statistics: ColumnStatistics, bounds: Bounds | None, target: Any,
                    floating: bool) -> bool:
        """Whether values summarised by ``statistics`` (with ``bounds`` in key space, None
        when unknown or distrusted) may hold a match for ``target``, the value's key."""
        if self.op == "is_null":
            return statistics.has_null is not False
        if statistics.number_of_values == 0:  # nulls only: nothing satisfies the others
            return False
        if self.op == "is_not_null" or bounds is None or (floating and self.op == "!="):
            return True  # a NaN, in no bound, satisfies "!="
        if is_nan(self.value):
            return False
        low, high = bounds
        return {"==": low <= target <= high, "!=": not low == high == target, "<": low < target,
                "<=": low <= target, ">": high > target, ">=": high >= target}[self.op]


@dataclass
class FilteredRows:
    """The matching rows (dicts by the field names of ``schema``, the root STRUCT) and their
    row numbers in the file, with the stripes and row groups skipped, by the structure
    that excluded them."""

    schema: TypeNode
    rows: list[dict[str, object]] = field(default_factory=list)
    row_numbers: list[int] = field(default_factory=list)
    stripes_skipped: dict[str, int] = field(default_factory=dict)
    row_groups_skipped: dict[str, int] = field(default_factory=dict)
    rows_read: int = 0  # rows decoded from the row groups left, before the predicate

    def skipped_stripe(self, reason: str) -> None:
        self.stripes_skipped[reason] = self.stripes_skipped.get(reason, 0) + 1

    def skipped_row_group(self, reason: str) -> None:
        self.row_groups_skipped[reason] = self.row_groups_skipped.get(reason, 0) + 1


@dataclass(frozen=True)
class _Column:
    """The predicate's column, how its values compare, and what the file says of it."""

    node: TypeNode
    fixes: tuple[Fix, ...]

    @property
    def floating(self) -> bool:
        return self.node.kind in FLOAT_KINDS

    def key(self, zone: str) -> Callable[[Any], Any]:
        """Values into the space their statistics' bounds compare in (a stripe's writer
        ``zone`` places a TIMESTAMP's wall clock on the UTC timeline of its statistics)."""
        kind = self.node.kind
        if kind in TEXT_KINDS:
            return lambda value: str(value).encode("utf-8")
        if kind == TypeKind.DECIMAL:
            scale = self.node.scale or 0
            return lambda value: Decimal(int(value)).scaleb(-scale)
        if kind in TIMESTAMP_KINDS:
            return lambda value: instant_nanos(self.node, int(value), zone)
        if kind == TypeKind.BOOLEAN:
            return int
        return lambda value: value

    def bounds(self, statistics: ColumnStatistics, stripe_level: bool) -> Bounds | None:
        """The minimum and maximum in key space, or None: absent, not ordered (binary) or
        distrusted (writer_version)."""
        if any(fix.distrusts_bounds(self.node, stripe_level) for fix in self.fixes):
            return None
        found = _BOUNDS.get(self.node.kind, _no_bounds)(statistics)
        if found is None or any(bound is None or is_nan(bound) for bound in found):
            return None
        return found


def _no_bounds(statistics: ColumnStatistics) -> Bounds | None:
    return None


def _integer_bounds(statistics: ColumnStatistics) -> Bounds | None:
    s = statistics.int_statistics
    return None if s is None else (s.minimum, s.maximum)


def _double_bounds(statistics: ColumnStatistics) -> Bounds | None:
    s = statistics.double_statistics
    return None if s is None else (s.minimum, s.maximum)


def _string_bounds(statistics: ColumnStatistics) -> Bounds | None:
    """The minimum and maximum, or the lower and upper bounds a writer stores instead of
    long ones (orc_proto.proto, StringStatistics), as UTF-8 bytes."""
    s = statistics.string_statistics
    if s is None:
        return None
    low = s.minimum if s.minimum is not None else s.lower_bound
    high = s.maximum if s.maximum is not None else s.upper_bound
    return None if low is None or high is None else (low.encode("utf-8"), high.encode("utf-8"))


def _date_bounds(statistics: ColumnStatistics) -> Bounds | None:
    s = statistics.date_statistics
    return None if s is None else (s.minimum, s.maximum)


def _decimal_bounds(statistics: ColumnStatistics) -> Bounds | None:
    s = statistics.decimal_statistics
    if s is None or s.minimum is None or s.maximum is None:
        return None
    return Decimal(s.minimum), Decimal(s.maximum)


def _timestamp_bounds(statistics: ColumnStatistics) -> Bounds | None:
    """'Column Statistics': minimumUtc and maximumUtc, milliseconds of the UTC instant,
    widened by the rounding of the milliseconds."""
    s = statistics.timestamp_statistics
    if s is None or s.minimum_utc is None or s.maximum_utc is None:
        return None
    return s.minimum_utc * NANOS_PER_MILLI - MILLI_SLACK, s.maximum_utc * NANOS_PER_MILLI + MILLI_SLACK


def _boolean_bounds(statistics: ColumnStatistics) -> Bounds | None:
    """BucketStatistics' count of true values (column_statistics.py): 0 and 1 as bounds."""
    s = statistics.bucket_statistics
    values = statistics.number_of_values
    if s is None or len(s.count) != 1 or values is None:
        return None
    trues = s.count[0]
    return (0 if trues < values else 1), (1 if trues > 0 else 0)


_BOUNDS: dict[TypeKind, Callable[[ColumnStatistics], Bounds | None]] = {
    **dict.fromkeys(INTEGER_KINDS, _integer_bounds),
    **dict.fromkeys(FLOAT_KINDS, _double_bounds),
    **dict.fromkeys(TEXT_KINDS, _string_bounds),
    TypeKind.DATE: _date_bounds,
    TypeKind.DECIMAL: _decimal_bounds,
    **dict.fromkeys(TIMESTAMP_KINDS, _timestamp_bounds),
    TypeKind.BOOLEAN: _boolean_bounds,
}


def filtered_rows(source: bytes | str | os.PathLike[str], predicate: Predicate) -> FilteredRows:
    """The rows of ``source`` (its bytes, or a path) that match ``predicate``, pruning with
    every structure the file has (module docstring)."""
    data = source if isinstance(source, bytes) else Path(source).read_bytes()
    tail = read_file_tail(data, decompress_stream)
    if tail.footer.encryption is not None:
        raise UnsupportedFeature("the file has encrypted columns ('Column Encryption')", tail.footer_offset)
    column = _Column(_predicate_column(tail, predicate), distrusted_fixes(tail.postscript, tail.footer))
    scan = _Scan(data, tail, StreamCodec.of(tail), predicate, column, FilteredRows(root_of(tail)))
    for start, count in _merged(scan.row_ranges_left()):
        read = read_row_range(data, start, count).rows
        scan.result.rows_read += len(read)
        for number, row in enumerate(read, start):
            if predicate.matches(row[predicate.column]):
                scan.result.rows.append(row)
                scan.result.row_numbers.append(number)
    return scan.result


def _predicate_column(tail: FileTail, predicate: Predicate) -> TypeNode:
    root = root_of(tail)
    if root.kind != TypeKind.STRUCT:
        raise UnsupportedFeature(f"a filtered read of a file whose root is {root.kind.name}, not a STRUCT",
                                 tail.footer_offset)
    fields = dict(zip(root.field_names, root.children, strict=True))
    if predicate.column not in fields:
        raise ValueError(f"predicate column {predicate.column!r} is not a top-level field: {sorted(fields)}")
    node = fields[predicate.column]
    if node.kind in NESTED_KINDS:
        raise ValueError(f"predicate column {predicate.column!r} is {node.kind.name}: predicates compare "
                         "primitive columns")
    return node


RowRange = tuple[int, int]  # first row, row count


def _merged(ranges: list[RowRange]) -> list[RowRange]:
    """Adjacent ranges as one: read_row_range enters each range once."""
    merged: list[RowRange] = []
    for start, count in ranges:
        if merged and sum(merged[-1]) == start:
            merged[-1] = (merged[-1][0], merged[-1][1] + count)
        else:
            merged.append((start, count))
    return merged


@dataclass(frozen=True)
class _Scan:
    """One filtered read: the file, the predicate's column and what was skipped so far."""

    data: bytes
    tail: FileTail
    codec: StreamCodec
    predicate: Predicate
    column: _Column
    result: FilteredRows

    @property
    def stride(self) -> int:
        return self.tail.footer.row_index_stride or 0

    def row_ranges_left(self) -> list[RowRange]:
        """The rows of each row group (or stripe, without a row index) no structure
        excludes, in file order."""
        metadata = self.tail.metadata
        stripe_statistics = metadata.stripe_stats if metadata is not None else []
        column_id = self.column.node.column_id
        ranges = []
        first_row = 0
        for number, information in enumerate(self.tail.footer.stripes):
            rows = information.number_of_rows or 0
            footer = read_stripe_footer(self.data, self.tail, number, self.codec.decompress)
            zone = footer.writer_timezone or UTC
            target = None if self.predicate.value is None else self.column.key(zone)(self.predicate.value)
            columns = stripe_statistics[number].col_stats if number < len(stripe_statistics) else []
            if column_id < len(columns) and not self._might_match(columns[column_id], target, True):
                self.result.skipped_stripe(STRIPE_STATISTICS)
            else:
                groups = self._row_groups_left(number, footer, target)
                stride = self.stride
                ranges += ([(first_row, rows)] if groups is None else
                           [(first_row + group * stride, min(stride, rows - group * stride))
                            for group in groups])
            first_row += rows
        return ranges

    def _might_match(self, statistics: ColumnStatistics, target: Any, stripe_level: bool) -> bool:
        return self.predicate.might_match(statistics, self.column.bounds(statistics, stripe_level), target,
                                          self.column.floating)

    def _row_groups_left(self, number: int, footer: StripeFooter, target: Any) -> list[int] | None:
        """The row groups of stripe ``number`` neither their statistics nor their Bloom
        filters exclude; None when the stripe has no row index for the column."""
        places = stream_places(self.tail.footer.stripes[number], footer, number)
        index = read_row_indexes(self.data, places, self.codec.decompress).get(self.column.node.column_id)
        if not self.stride or index is None:
            return None
        probing = self.predicate.op == "==" and not is_nan(self.predicate.value)
        filters = self._trusted_filters(places, number, footer) if probing else []
        left = []
        rows = self.tail.footer.stripes[number].number_of_rows or 0
        for group in range(row_group_count(rows, self.stride)):
            statistics = index.entry[group].statistics if group < len(index.entry) else None
            if statistics is not None and not self._might_match(statistics, target, False):
                self.result.skipped_row_group(ROW_INDEX)
            elif not all(_might_contain(stream, group, self.column.node, self.predicate.value)
                         for stream in filters):
                self.result.skipped_row_group(BLOOM_FILTER)
            else:
                left.append(group)
        return left

    def _trusted_filters(self, places: list[StreamPlace], number: int,
                         footer: StripeFooter) -> list[ColumnBloomFilters]:
        """The column's Bloom filter streams in the stripe that writer_version leaves trusted."""
        node = self.column.node
        if node.kind not in PROBED_KINDS:
            return []
        encoding = footer.columns[node.column_id]
        streams = stripe_bloom_filters(self.data, places, number, self.codec.decompress)
        return [stream for (column_id, kind), stream in streams.items() if column_id == node.column_id
                and not distrusted_bloom_filter(node, kind, encoding, self.column.fixes)]


def _might_contain(stream: ColumnBloomFilters, group: int, node: TypeNode, value: Any) -> bool:
    """Whether the row group's filter may hold ``value``; True without a filter for it. A
    zero is probed with both signs: -0.0 == 0.0, but their bits hash apart."""
    if group >= len(stream.filters):
        return True
    probes = (0.0, -0.0) if node.kind in FLOAT_KINDS and value == 0.0 else (value,)
    return any(stream.filters[group].might_contain(value_hash(node, probe)) for probe in probes)
