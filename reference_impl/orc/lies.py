"""TEST-ONLY: ORC metadata deliberately untrue to the data it describes.

A minimum, a row group's statistics or a Bloom filter that lies does not fail a read: it
makes a reader that trusts it skip rows it should have returned. The conformance suite
writes such files on purpose (``OrcWriterOptions.lies``) to show which readers trust
which structure, and that ``validate`` flags each; nothing else should ever set them.

Each lie is the smallest untruth a trusting reader acts on (ORCv1.md, 'Column
Statistics', 'Row Group Index', 'Bloom Filter Index'):

* ``statistics``: the stripe's and the file's statistics claim the maximum as the
  minimum, so every smaller value seems absent ("x = <a value below the maximum>"
  skips the stripe); a GEOMETRY or GEOGRAPHY column's bounding box claims xmax = xmin
  (ORCv2.md, 'Column Statistics'), so every geometry east of the westernmost seems absent;
* ``row_index``: the same, in each row group's statistics in the ROW_INDEX;
* ``bloom_filter``: filters with no bit set, which answer "definitely not" to every
  probe.
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.orc.bloom_filter import BloomFilterBits
from reference_impl.orc.metadata.orc_proto import ColumnStatistics

__all__ = ["LIES", "false_bloom_filter", "false_statistics"]

LIES = frozenset({"statistics", "row_index", "bloom_filter"})
# The typed statistics with bounds, and the names of their minimum and maximum fields.
_BOUNDED = (("int_statistics", "minimum", "maximum"), ("double_statistics", "minimum", "maximum"),
            ("string_statistics", "minimum", "maximum"), ("decimal_statistics", "minimum", "maximum"),
            ("date_statistics", "minimum", "maximum"), ("timestamp_statistics", "minimum_utc", "maximum_utc"))


def false_statistics(statistics: ColumnStatistics) -> ColumnStatistics:
    """``statistics`` with the minimum raised to the maximum, or the box's X range narrowed
    to its xmin (a no-op without bounds)."""
    geospatial = statistics.geospatial_statistics
    if geospatial is not None and geospatial.bbox is not None:
        return replace(statistics, geospatial_statistics=replace(
            geospatial, bbox=replace(geospatial.bbox, xmax=geospatial.bbox.xmin)))
    for field_name, low, high in _BOUNDED:
        typed = getattr(statistics, field_name)
        if typed is not None and getattr(typed, high) is not None:
            return replace(statistics, **{field_name: replace(typed, **{low: getattr(typed, high)})})
    return statistics


def false_bloom_filter(bits: BloomFilterBits) -> BloomFilterBits:
    """A filter of the same size and hash count with no bit set."""
    return BloomFilterBits(bits.num_hash_functions, bytearray(len(bits.bits)))
