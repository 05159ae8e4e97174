"""TEST-ONLY: metadata deliberately untrue to the data it describes.

A min/max, a column index or a Bloom filter that lies does not fail a read: it
makes a reader that trusts it skip data it should have returned. The
conformance suite writes such files on purpose (``WriterOptions.lies``) to show
which readers trust which structure; nothing else should ever set them.

Each lie is the smallest untruth that a trusting reader acts on, for any type:

* ``statistics``: ``Statistics.min_value``/``max_value`` (and the deprecated
  ``min``/``max``) both claim the chunk's maximum, so every smaller value seems
  absent ("x = <a value below the maximum>" prunes the row group); a
  GEOMETRY or GEOGRAPHY chunk's bounding box claims xmax = xmin (Geospatial.md,
  'Bounding Box'), so every geometry east of the westernmost seems absent;
* ``page_index``: the same, per page, in ``ColumnIndex.min_values``;
* ``bloom_filter``: an all-zero bitset, which answers "definitely not" to
  every probe ('3.6 - Bloom Filter': a set bit is needed for "probably yes");
* ``crc``: ``PageHeader.crc`` with its lowest bit flipped ('3.7.4 -
  Checksumming');
* ``nan_count``: ``Statistics.nan_count`` and ``ColumnIndex.nan_counts`` claim
  0 (parquet.thrift: "Count of NaN values"), so a reader that trusts them
  skips the NaNs that satisfy "x != <the only number>".
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.parquet.indexes.bloom_filter import SplitBlockBloomFilter
from reference_impl.parquet.metadata.parquet_thrift import ColumnIndex, GeospatialStatistics, Statistics

__all__ = [
    "false_bloom_filter",
    "false_column_index",
    "false_crc",
    "false_geospatial_statistics",
    "false_nan_count",
    "false_nan_counts",
    "false_statistics",
]

_LOWEST_BIT = 1


def false_statistics(stats: Statistics) -> Statistics:
    """``stats`` with the minimum raised to the maximum (a no-op without bounds)."""
    if stats.max_value is None:
        return stats
    return replace(
        stats,
        min_value=stats.max_value,
        is_min_value_exact=stats.is_max_value_exact,
        min=stats.max if stats.min is not None else None,
    )


def false_geospatial_statistics(stats: GeospatialStatistics) -> GeospatialStatistics:
    """``stats`` with the box's X range narrowed to its xmin (a no-op without a box)."""
    if stats.bbox is None:
        return stats
    return replace(stats, bbox=replace(stats.bbox, xmax=stats.bbox.xmin))


def false_column_index(index: ColumnIndex) -> ColumnIndex:
    """``index`` with every page's minimum raised to its maximum."""
    return replace(index, min_values=list(index.max_values))


def false_nan_count(stats: Statistics) -> Statistics:
    """``stats`` claiming no NaN (a no-op for a column without ``nan_count``)."""
    return stats if stats.nan_count is None else replace(stats, nan_count=0)


def false_nan_counts(index: ColumnIndex) -> ColumnIndex:
    """``index`` claiming no NaN on any page (a no-op without ``nan_counts``)."""
    return index if index.nan_counts is None else replace(index, nan_counts=[0] * len(index.nan_counts))


def false_bloom_filter(bloom: SplitBlockBloomFilter) -> SplitBlockBloomFilter:
    """A filter of the same size with no bit set."""
    return SplitBlockBloomFilter(bloom.num_bytes)


def false_crc(crc: int) -> int:
    """A CRC that differs from ``crc`` in one bit (still a valid i32)."""
    return crc ^ _LOWEST_BIT
