"""Filtered scans: skipping row groups and pages with statistics, the page index
and Bloom filters, then filtering rows.

Spec: the metadata a reader may prune with, and what each promises:

* parquet.thrift ``struct Statistics`` (``min_value``/``max_value`` under the
  column's ``ColumnOrder``, ``null_count``): a row group whose bounds exclude
  the predicate's value holds no matching row;
* PageIndex.md, 'Technical Approach': ``ColumnIndex`` bounds and
  ``null_pages`` per page, ``OffsetIndex`` for the rows each page holds ("this
  allows navigation by row index and is used to retrieve values for rows
  identified as matches via the ColumnIndex");
* '3.6 - Bloom Filter': "definitely no" means the value is in no row of the
  column chunk (only equality can use it).

:func:`scan` returns the indices of the rows that satisfy the predicate among
those no metadata excluded. For a file whose metadata is true that is exactly
the rows a full scan finds; for a file whose metadata lies (``lies``) it is
what a reader that trusts the metadata returns. The scan decodes the predicate
column's chunk and then keeps only the rows of the pages the column index did
not exclude: the same rows a reader that skips those pages' bytes returns.

Predicates use SQL semantics: a null satisfies no comparison, only
``is_null``; floating-point values compare as IEEE 754 numbers (a NaN
satisfies no comparison but "!=", and -0.0 equals +0.0), a FLOAT16 as the
half it holds, INT96 chronologically, whatever the file's ColumnOrder.

Floating-point statistics (parquet.thrift ``union ColumnOrder``): under
TYPE_ORDER the reading rules apply to chunk and page bounds alike ("If the min
is a NaN, it should be ignored", a +0 min and a -0 max widened to both zeros);
under IEEE_754_TOTAL_ORDER a NaN bound means every non-null value is NaN.
Under either, "nan_count + null_count == num_values" says the same, and a
known ``nan_count`` of 0 lets "!=" prune too. A ColumnOrder member this code
does not know: "min and max stats for this column should be ignored"; the
null count still counts.

Encrypted files ('3.7.3 - Parquet Modular Encryption') scan with
``decryption``: the predicate column's statistics come from its decrypted
ColumnMetaData, its page index and Bloom filter are decrypted
(``encryption.indexes``); a key that is not available raises ``MissingKey``,
a module that does not authenticate ``DecryptionFailed``.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from reference_impl.common.row_predicate import NULL_TESTS, OPS, Key, RowPredicate, is_nan, same
from reference_impl.parquet.encryption.decryptor import ColumnDecryptor
from reference_impl.parquet.encryption.indexes import (
    read_bloom_filter_of,
    read_column_index_of,
    read_offset_index_of,
)
from reference_impl.parquet.encryption.properties import FileDecryptionProperties
from reference_impl.parquet.errors import UnsupportedFeature
from reference_impl.parquet.indexes.page_index import page_row_ranges
from reference_impl.parquet.metadata.parquet_thrift import (
    ColumnChunk,
    ColumnIndex,
    ColumnMetaData,
    FileMetaData,
    Type,
)
from reference_impl.parquet.pages.chunk_reader import read_column_chunk
from reference_impl.parquet.reader import read_footer_with_decryptor, values_with_nulls
from reference_impl.parquet.schema.flat import is_flat
from reference_impl.parquet.schema.logical_values import float16_from_bytes
from reference_impl.parquet.schema.tree import LeafColumn, SchemaNode, leaf_columns, schema_tree_from_elements
from reference_impl.parquet.statistics.column_statistics import (
    FLOAT16_NEG_ZERO,
    FLOAT16_POS_ZERO,
    decode_bound,
    float_read_rules,
    statistics_bounds,
)
from reference_impl.parquet.statistics.sort_order import (
    IEEE_754_TOTAL_ORDER,
    INT96_TIMESTAMP_ORDER,
    TYPE_ORDER,
    SortOrder,
    file_column_order,
    is_floating,
    sort_key,
    sort_order,
)

__all__ = ["OPS", "Predicate", "ScanResult", "scan"]



@dataclass(frozen=True)
class Predicate(RowPredicate):
    """``column`` (a dotted leaf path) ``op`` ``value`` (a physical value; None for null tests)."""

    def might_match(self, bounds: tuple[Any, Any] | None, null_count: int | None, entries: int, key: Key,
                    *, floating: bool, nan_count: int | None = None, all_nan: bool = False) -> bool:
        """Whether rows summarised by ``bounds`` (min, max of the non-NaN values, or None),
        ``null_count`` and ``nan_count`` (None: unknown) and ``entries`` may hold a match;
        ``all_nan`` when the metadata says every non-null value is NaN."""
        if self.op == "is_null":
            return null_count is None or null_count > 0
        all_null = null_count is not None and null_count >= entries
        if self.op == "is_not_null":
            return not all_null
        if all_null:
            return False
        # "A reader can compute nan_count + null_count == num_values to deduce whether all
        # non-null values are NaN" (parquet.thrift ``union ColumnOrder``).
        if all_nan or (nan_count is not None and null_count is not None
                       and nan_count + null_count >= entries):
            return self.op == "!="  # a NaN satisfies "!=" alone
        if floating and self.op == "!=" and (nan_count is None or nan_count > 0 or is_nan(self.value)):
            return True  # NaNs, absent from bounds, satisfy "!="
        if bounds is None:
            return True
        if is_nan(self.value):
            return False
        low, high, target = key(bounds[0]), key(bounds[1]), key(self.value)
        return {
            "==": low <= target <= high,
            "!=": not (low == high == target),
            "<": low < target,
            "<=": low <= target,
            ">": high > target,
            ">=": high >= target,
        }[self.op]


@dataclass
class ScanResult:
    """The matching rows (indices into the file's rows) and what was skipped, and why."""

    rows: list[int] = field(default_factory=list)
    row_groups_skipped: dict[str, int] = field(default_factory=dict)
    pages_skipped: int = 0

    def skipped(self, reason: str) -> None:
        self.row_groups_skipped[reason] = self.row_groups_skipped.get(reason, 0) + 1


@dataclass(frozen=True)
class _Column:
    """The predicate's column: how its values compare, and whether its bounds count."""

    leaf: LeafColumn
    key: Key  # compares comparable values the way the predicate does
    ordered: bool  # the file's ColumnOrder gives the bounds a meaning this code implements
    column_order: str  # the member of its ColumnOrder the bounds are read under
    comparable: Callable[[Any], Any] = same  # a physical value as the predicate compares it

    @property
    def floating(self) -> bool:
        return is_floating(self.leaf.node.leaf_type, self.leaf.node.logical_type)

    @property
    def total_order(self) -> bool:
        return self.ordered and self.column_order == IEEE_754_TOTAL_ORDER

    def comparing(self, predicate: Predicate) -> Predicate:
        """``predicate`` with its physical value made comparable (a FLOAT16's half)."""
        return replace(predicate, value=_or_none(self.comparable, predicate.value))

    def usable_bounds(self, low: Any, high: Any) -> tuple[tuple[Any, Any] | None, bool]:
        """``(bounds as comparable values or None, all_nan)`` from decoded stored bounds.

        TYPE_ORDER float bounds follow ``float_read_rules`` (a NaN bound is ignored);
        under IEEE_754_TOTAL_ORDER a NaN bound says every non-null value is NaN ("the
        presence of a NaN value in min_values or max_values indicates that all non-null
        values are NaN").
        """
        if self.floating and not self.total_order:
            node = self.leaf.node
            low, high = float_read_rules(low, high, node.leaf_type, node.logical_type)
        if low is None or high is None:
            return None, False
        low, high = self.comparable(low), self.comparable(high)
        if self.floating and (is_nan(low) or is_nan(high)):
            return None, self.total_order
        return (low, high), False


def scan(
    source: str | os.PathLike[str] | bytes,
    predicate: Predicate,
    *,
    use_statistics: bool = True,
    use_page_index: bool = True,
    use_bloom_filter: bool = True,
    verify_checksums: bool = False,
    decryption: FileDecryptionProperties | None = None,
) -> ScanResult:
    """The rows of a flat file matching ``predicate``, pruning with the metadata allowed."""
    file = source if isinstance(source, bytes) else open(source, "rb").read()  # noqa: SIM115
    metadata, footer_start, decryptor = read_footer_with_decryptor(file, decryption=decryption)
    column = _predicate_column(metadata, predicate, footer_start)
    comparing = column.comparing(predicate)
    result = ScanResult()
    first_row = 0
    for ordinal, row_group in enumerate(metadata.row_groups):
        chunk = row_group.columns[column.leaf.index]
        where = f"column {column.leaf.dotted_path}, row group {ordinal}"
        crypto = decryptor.column(column.leaf, chunk, ordinal) if decryptor is not None else None
        meta = chunk.meta_data if crypto is None else crypto.file.column_metadata(crypto, chunk)
        reason = _row_group_excluded(
            file, meta, crypto, predicate, column, use_statistics, use_bloom_filter, where
        )
        if reason:
            result.skipped(reason)
        else:
            ranges = _page_ranges(file, chunk, crypto, row_group.num_rows, comparing, column, use_page_index,
                                  where, result)
            data = read_column_chunk(file, column.leaf, chunk, row_group.num_rows, where=where,
                                     footer_start=footer_start, verify_checksums=verify_checksums,
                                     crypto=crypto)
            values = values_with_nulls(column.leaf, data.values, data.definition_levels)
            result.rows += [first_row + row for rows in ranges for row in rows
                            if comparing.matches(_or_none(column.comparable, values[row]), column.key)]
        first_row += row_group.num_rows
    return result


def _predicate_column(metadata: FileMetaData, predicate: Predicate, footer_start: int) -> _Column:
    tree = schema_tree_from_elements(metadata.schema, offset=footer_start)
    if not is_flat(tree):
        raise UnsupportedFeature("filtered scans of nested schemas", footer_start)
    leaves = {leaf.dotted_path: leaf for leaf in leaf_columns(tree)}
    if predicate.column not in leaves:
        raise ValueError(f"predicate column {predicate.column!r} is not a column: {sorted(leaves)}")
    leaf = leaves[predicate.column]
    node = leaf.node
    types = (node.leaf_type, node.logical_type, node.converted_type)
    # Without column_orders the bounds are read as the type orders them (older writers);
    # a member this code does not know: "min and max stats for this column should be ignored".
    member = file_column_order(metadata, leaf.index, len(leaves))
    unknown_member = member is None and metadata.column_orders is not None and (
        len(metadata.column_orders) == len(leaves))
    column_order = member or TYPE_ORDER
    ordered = not unknown_member and sort_order(*types, column_order=column_order) is not SortOrder.UNDEFINED
    comparable, key = _comparison(node)
    if key is None:
        if predicate.op not in ("==", "!=", *NULL_TESTS):
            raise UnsupportedFeature(
                f"'{predicate.op}' on column {leaf.dotted_path}: its sort order is undefined"
            )
        key = bytes
    return _Column(leaf, key, ordered, column_order, comparable)


def _comparison(node: SchemaNode) -> tuple[Callable[[Any], Any], Key | None]:
    """How the predicate compares this column's values, whatever the file's ColumnOrder:
    floats as IEEE 754 numbers (a FLOAT16 read as a half), INT96 chronologically, other
    types by their type order (None: undefined, equality on bytes only)."""
    types = (node.leaf_type, node.logical_type, node.converted_type)
    if is_floating(node.leaf_type, node.logical_type):
        float16 = node.logical_type is not None and node.logical_type.kind == "FLOAT16"
        return (float16_from_bytes if float16 else same), same
    if node.leaf_type == Type.INT96:
        return same, sort_key(*types, column_order=INT96_TIMESTAMP_ORDER)
    if sort_order(*types) is SortOrder.UNDEFINED:
        return same, None
    return same, sort_key(*types)


def _or_none(convert: Callable[[Any], Any], value: Any) -> Any:
    return None if value is None else convert(value)


def _row_group_excluded(
    file: bytes, meta: ColumnMetaData | None, crypto: ColumnDecryptor | None, predicate: Predicate,
    column: _Column, use_statistics: bool, use_bloom_filter: bool, where: str,
) -> str | None:
    """Why the row group holds no match ("statistics", "bloom_filter"), or None."""
    node = column.leaf.node
    if meta is None:
        return None
    stats = meta.statistics
    if use_statistics and stats is not None:
        bounds, all_nan = None, False
        if column.ordered:
            low, high = statistics_bounds(stats, node.leaf_type, node.logical_type,
                                          node.converted_type, node.type_length,
                                          column_order=column.column_order, what=where)
            bounds, all_nan = column.usable_bounds(low, high)
        nan_count = stats.nan_count if column.floating else 0
        if not column.comparing(predicate).might_match(
            bounds, stats.null_count, meta.num_values, column.key,
            floating=column.floating, nan_count=nan_count, all_nan=all_nan,
        ):
            return "statistics"
    if use_bloom_filter and predicate.op == "==" and meta.bloom_filter_offset is not None:
        bloom = read_bloom_filter_of(file, meta, crypto, where=where)
        if bloom is not None and not any(bloom.might_contain(node.leaf_type, probe, node.type_length)
                                         for probe in _equal_values(predicate.value, column.floating)):
            return "bloom_filter"
    return None


def _equal_values(value: Any, floating: bool) -> tuple[Any, ...]:
    """The physical values equal to ``value``: a Bloom filter hashes bits, and
    -0.0 == +0.0 are two bit patterns, so a zero must be probed with both signs."""
    if floating and value in (FLOAT16_POS_ZERO, FLOAT16_NEG_ZERO):
        return (FLOAT16_POS_ZERO, FLOAT16_NEG_ZERO)
    if floating and value == 0.0:
        return (0.0, -0.0)
    return (value,)


def _page_ranges(
    file: bytes, chunk: ColumnChunk, crypto: ColumnDecryptor | None, num_rows: int, predicate: Predicate,
    column: _Column,
    use_page_index: bool, where: str, result: ScanResult,
) -> list[range]:
    """The row ranges (within the row group) of the pages the column index leaves in."""
    everything = [range(num_rows)]
    if not (use_page_index and column.ordered):
        return everything
    column_index = read_column_index_of(file, chunk, crypto, where=where)
    offset_index = read_offset_index_of(file, chunk, crypto, where=where)
    if column_index is None or offset_index is None:
        return everything
    ranges = page_row_ranges(offset_index, num_rows)
    kept = [rows for page, rows in enumerate(ranges)
            if _page_might_match(column_index, page, len(rows), predicate, column, where)]
    result.pages_skipped += len(ranges) - len(kept)
    return kept


def _page_might_match(index: ColumnIndex, page: int, rows: int, predicate: Predicate, column: _Column,
                      where: str) -> bool:
    node = column.leaf.node
    null_count = index.null_counts[page] if index.null_counts else None
    nan_count = index.nan_counts[page] if index.nan_counts else None
    bounds, all_nan = None, False
    if index.null_pages[page]:
        null_count = rows
    else:
        what = f"{where}, column index page {page}"
        low, high = (decode_bound(node.leaf_type, raw, node.type_length, what=what)
                     for raw in (index.min_values[page], index.max_values[page]))
        bounds, all_nan = column.usable_bounds(low, high)
    return predicate.might_match(bounds, null_count, rows, column.key, floating=column.floating,
                                 nan_count=nan_count if column.floating else 0, all_nan=all_nan)
