"""What the writer records about a column chunk and each of its data pages.

A column chunk's entries (values plus levels, ``shredding``) are cut into pages
by ``chunk_writer``; this module turns a page's share of the entries into its
:class:`~reference_impl.parquet.indexes.page_index.PageSummary` (the page's values,
null count, rows, level histograms: everything the page index and the page
header statistics need) and computes the chunk's own ``Statistics`` and
``SizeStatistics``.

Spec: parquet.thrift ``struct Statistics`` (``null_count``: "Count of null
values in the column"), ``struct SizeStatistics`` and PageIndex.md,
'Technical Approach'; for GEOMETRY and GEOGRAPHY chunks also their
``GeospatialStatistics`` (Geospatial.md, 'Statistics'; ``geospatial_statistics``).
A "null" here is an entry whose definition level is below
the maximum, so for a repeated column an empty or null list counts as a null
too: the entry stores no value, which is what the count is for (a reader uses
it to know whether a page or chunk holds any values).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from reference_impl.parquet.indexes.page_index import PageSummary
from reference_impl.parquet.metadata.parquet_thrift import GeospatialStatistics, SizeStatistics, Statistics
from reference_impl.parquet.schema.tree import LeafColumn
from reference_impl.parquet.statistics.column_statistics import column_statistics
from reference_impl.parquet.statistics.geospatial_statistics import GEOSPATIAL_TYPES, geospatial_statistics
from reference_impl.parquet.statistics.size_statistics import merge_size_statistics, size_statistics
from reference_impl.parquet.statistics.sort_order import default_column_order
from reference_impl.parquet.writer_options import ColumnSettings

__all__ = ["chunk_geospatial_statistics", "chunk_size_statistics", "leaf_column_order", "leaf_statistics",
           "page_summary"]


def leaf_column_order(leaf: LeafColumn, settings: ColumnSettings) -> str:
    """The ColumnOrder member ``leaf`` is written under: the one the options name, or the
    writer's default (``sort_order.default_column_order``)."""
    return settings.column_order or default_column_order(leaf.node.leaf_type)


def leaf_statistics(
    leaf: LeafColumn, values: Sequence[object], null_count: int, settings: ColumnSettings
) -> Statistics:
    """``Statistics`` of non-null ``values`` of ``leaf`` (a page's or the whole chunk's)."""
    node = leaf.node
    return column_statistics(
        values,
        null_count,
        node.leaf_type,
        node.logical_type,
        node.converted_type,
        node.type_length,
        column_order=leaf_column_order(leaf, settings),
        truncate_length=settings.statistics_truncate_length,
        distinct_count=settings.distinct_count,
    )


def page_summary(
    leaf: LeafColumn,
    values: Sequence[object],
    definition: np.ndarray,
    repetition: np.ndarray,
    first_row_index: int,
    row_count: int,
) -> PageSummary:
    """The summary of one data page holding ``values`` and these entries' levels.

    ``offset`` and ``compressed_page_size`` are 0 until the page is placed in the
    file (``dataclasses.replace`` them then).
    """
    sizes = size_statistics(
        leaf.node.leaf_type,
        values,
        definition,
        repetition,
        leaf.max_definition_level,
        leaf.max_repetition_level,
    )
    return PageSummary(
        offset=0,
        compressed_page_size=0,
        first_row_index=first_row_index,
        row_count=row_count,
        null_count=len(definition) - len(values),
        values=values,
        definition_level_histogram=sizes.definition_level_histogram,
        repetition_level_histogram=sizes.repetition_level_histogram,
        unencoded_byte_array_data_bytes=sizes.unencoded_byte_array_data_bytes,
    )


def chunk_size_statistics(pages: Sequence[PageSummary]) -> SizeStatistics:
    """The chunk's ``SizeStatistics``: the sum of its pages'."""
    return merge_size_statistics(
        [
            SizeStatistics(
                unencoded_byte_array_data_bytes=page.unencoded_byte_array_data_bytes,
                repetition_level_histogram=page.repetition_level_histogram,
                definition_level_histogram=page.definition_level_histogram,
            )
            for page in pages
        ]
    )


def chunk_geospatial_statistics(leaf: LeafColumn, values: Sequence[bytes]) -> GeospatialStatistics | None:
    """The chunk's ``GeospatialStatistics``: for GEOMETRY and GEOGRAPHY leaves only."""
    kind = leaf.node.logical_type.kind if leaf.node.logical_type is not None else None
    if kind not in GEOSPATIAL_TYPES:
        return None
    return geospatial_statistics(values, geography=kind == "GEOGRAPHY")
