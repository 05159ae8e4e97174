"""GEOMETRY and GEOGRAPHY column chunk statistics: parquet.thrift ``struct GeospatialStatistics``.

Geospatial.md, 'Statistics': ``ColumnMetaData.geospatial_statistics`` holds a
bounding box and the geospatial types of the chunk's values (WKB). The box and the
type codes, and the decisions taken where the text leaves room, are the floor's
(``reference_impl/common/geospatial_bounds.py``, shared with ORC); this module puts
them in the Thrift struct. A chunk holding a value that is not WKB the floor decodes
gets no GeospatialStatistics.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from reference_impl.common.geospatial_bounds import bounding_box, geospatial_types, parse_values
from reference_impl.parquet.metadata.parquet_thrift import BoundingBox, GeospatialStatistics

__all__ = ["GEOSPATIAL_TYPES", "geospatial_statistics"]

GEOSPATIAL_TYPES = ("GEOMETRY", "GEOGRAPHY")  # the LogicalType members these statistics are for


def geospatial_statistics(values: Sequence[bytes], geography: bool) -> GeospatialStatistics | None:
    """The chunk's statistics over its non-null ``values`` (see the module docstring)."""
    geometries = parse_values(values)
    if geometries is None:
        return None
    box = bounding_box(geometries, geography)
    return GeospatialStatistics(bbox=None if box is None else BoundingBox(**dataclasses.asdict(box)),
                                geospatial_types=geospatial_types(geometries))
