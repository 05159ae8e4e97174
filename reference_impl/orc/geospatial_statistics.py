"""GEOMETRY and GEOGRAPHY column statistics: orc_proto.proto ``message GeospatialStatistics``.

ORCv2.md, 'Column Statistics': "Geometry and Geography columns store optional bounding
boxes and list of geospatial type codes from all values" (``ColumnStatistics`` field 13:
a ``BoundingBox`` and the ``geospatial_types``). The box and the codes, and the
decisions taken where the text leaves room, are the floor's, shared with Parquet
(``reference_impl/common/geospatial_bounds.py``); this module puts them in the ORC
message. Values holding one the floor does not decode (a curve or a surface) get no
GeospatialStatistics.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from reference_impl.common.geospatial_bounds import bounding_box, geospatial_types, parse_values
from reference_impl.orc.metadata.orc_proto import BoundingBox, GeospatialStatistics

__all__ = ["geospatial_statistics"]


def geospatial_statistics(values: Sequence[bytes], geography: bool) -> GeospatialStatistics | None:
    """The statistics of the non-null WKB ``values`` of a column (see the module docstring)."""
    geometries = parse_values(values)
    if geometries is None:
        return None
    box = bounding_box(geometries, geography)
    return GeospatialStatistics(bbox=None if box is None else BoundingBox(**dataclasses.asdict(box)),
                                geospatial_types=geospatial_types(geometries))
