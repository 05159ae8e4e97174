"""GEOMETRY and GEOGRAPHY column chunk statistics: parquet.thrift ``struct GeospatialStatistics``.

Geospatial.md, 'Statistics': ``ColumnMetaData.geospatial_statistics`` holds a
bounding box and the geospatial types of the chunk's values (WKB, ``schema.wkb``).

* 'Bounding Box': the min/max of each axis over every coordinate. "null or NaN
  values in a coordinate dimension are skipped"; "If a dimension has only null
  or NaN values, that dimension is omitted from the bounding box. If either
  the X or Y dimension is missing, then the bounding box itself is not
  produced." "For the X values only, xmin may be greater than xmax", a box that
  wraps around the antimeridian: it holds ``x >= xmin`` OR ``x <= xmax``.
  "For `GEOGRAPHY` types, X and Y values are restricted to the canonical
  ranges of [-180, 180] for X and [-90, 90] for Y."
* 'Geospatial Types': the ISO WKB codes of all instances, unique; "An empty
  array explicitly signals that the geospatial types are not known."

Decisions where the text leaves room:

* The types are the values' own (top-level) codes, as GeoParquet's
  geometry_types, which the section borrows; an empty geometry counts with its
  code. They are written in ascending order.
* For GEOGRAPHY the writer takes the narrowest X interval on the circle of
  longitudes: it wraps (xmin > xmax) exactly when the widest gap between the X
  values is wider than the gap across the antimeridian, so a chunk of
  geographies around the antimeridian gets a box that crosses it, as the text
  describes. GEOMETRY is planar: its X interval never wraps.
* The box is the extent of the coordinates (the text's "min/max value pair of
  coordinates from each axis"), vertices only, for GEOGRAPHY too.
* A chunk holding a value that is not WKB this module decodes gets no
  GeospatialStatistics (nothing true could be said of it).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from reference_impl.parquet.errors import InvalidValue, UnsupportedFeature
from reference_impl.parquet.metadata.parquet_thrift import BoundingBox, GeospatialStatistics
from reference_impl.parquet.schema.wkb import Geometry, parse_wkb

__all__ = ["GEOSPATIAL_TYPES", "LATITUDES", "LONGITUDES", "OPTIONAL_AXES", "Extent", "bounding_box",
           "contains_x", "geospatial_statistics", "geospatial_types", "parse_values"]

GEOSPATIAL_TYPES = ("GEOMETRY", "GEOGRAPHY")  # the LogicalType members these statistics are for
LONGITUDE_SPAN = 360.0
LONGITUDES = (-180.0, 180.0)
LATITUDES = (-90.0, 90.0)
OPTIONAL_AXES = ("z", "m")


@dataclass(frozen=True)
class Extent:
    """The range of one axis: ``low <= high``, except a wrapped X range (``low > high``)."""

    low: float
    high: float


def parse_values(values: Iterable[bytes]) -> list[Geometry] | None:
    """Every value parsed, or None when one is not WKB that ``schema.wkb`` decodes."""
    try:
        return [parse_wkb(value) for value in values]
    except (InvalidValue, UnsupportedFeature):
        return None


def geospatial_statistics(values: Sequence[bytes], geography: bool) -> GeospatialStatistics | None:
    """The chunk's statistics over its non-null ``values`` (see the module docstring)."""
    geometries = parse_values(values)
    if geometries is None:
        return None
    return GeospatialStatistics(bbox=bounding_box(geometries, geography),
                                geospatial_types=geospatial_types(geometries))


def geospatial_types(geometries: Iterable[Geometry]) -> list[int]:
    """The distinct ISO type codes of ``geometries``, ascending."""
    return sorted({geometry.type_code for geometry in geometries})


def bounding_box(geometries: Sequence[Geometry], geography: bool) -> BoundingBox | None:
    """The box of every non-NaN ordinate, or None when X or Y has none."""
    xs = [x for geometry in geometries for x in geometry.axis("x")]
    ys = [y for geometry in geometries for y in geometry.axis("y")]
    if not xs or not ys:
        return None
    x = _wrapping_extent(xs) if geography else _extent(xs)
    box = BoundingBox(xmin=x.low, xmax=x.high, ymin=min(ys), ymax=max(ys))
    for axis in OPTIONAL_AXES:
        ordinates = [v for geometry in geometries for v in geometry.axis(axis)]
        if ordinates:
            setattr(box, f"{axis}min", min(ordinates))
            setattr(box, f"{axis}max", max(ordinates))
    return box


def contains_x(x: float, xmin: float, xmax: float) -> bool:
    """'Bounding Box': in the box's X range, which wraps when xmin > xmax ("x >= xmin OR x <= xmax")."""
    if xmin <= xmax:
        return xmin <= x <= xmax
    return x >= xmin or x <= xmax


def _extent(ordinates: Sequence[float]) -> Extent:
    return Extent(min(ordinates), max(ordinates))


def _wrapping_extent(xs: Sequence[float]) -> Extent:
    """The narrowest range of longitudes holding every x: it wraps when the widest gap
    between neighbouring values is wider than the one across the antimeridian."""
    ordered = sorted(set(xs))
    across_antimeridian = LONGITUDE_SPAN - (ordered[-1] - ordered[0])
    gaps = [(ordered[index + 1] - ordered[index], index) for index in range(len(ordered) - 1)]
    widest, before = max(gaps, default=(0.0, 0))
    if widest > across_antimeridian:
        return Extent(ordered[before + 1], ordered[before])
    return _extent(ordered)
