"""The bounding box and geospatial type codes of GEOMETRY and GEOGRAPHY values, for both formats.

Parquet (Geospatial.md, 'Statistics', 'Bounding Box', 'Geospatial Types') and ORC
(ORCv2.md, 'Column Statistics': the same 'Bounding Box' and 'Geospatial Types' text)
summarise a column's WKB values (``wkb``) alike; each format wraps the result in its
own message (parquet.thrift ``struct GeospatialStatistics``, orc_proto.proto ``message
GeospatialStatistics``, whose ``BoundingBox`` fields have the same names).

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

Decisions where the texts leave room:

* The types are the values' own (top-level) codes, as GeoParquet's
  geometry_types, which the section borrows; an empty geometry counts with its
  code. They are written in ascending order.
* For GEOGRAPHY the writer takes the narrowest X interval on the circle of
  longitudes: it wraps (xmin > xmax) exactly when the widest gap between the X
  values is wider than the gap across the antimeridian, so geographies around
  the antimeridian get a box that crosses it, as the text describes. GEOMETRY is
  planar: its X interval never wraps.
* The box is the extent of the coordinates (the text's "min/max value pair of
  coordinates from each axis"), vertices only, for GEOGRAPHY too.
* Values holding one that is not WKB ``wkb`` decodes get no statistics (nothing
  true could be said of them): :func:`parse_values` gives None.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from reference_impl.common.wkb import Geometry, InvalidWkb, UndecodedWkb, parse_wkb

__all__ = ["AXES", "LATITUDES", "LONGITUDES", "OPTIONAL_AXES", "Box", "Extent", "bounding_box",
           "contains_x", "geospatial_types", "parse_values"]

LONGITUDE_SPAN = 360.0
LONGITUDES = (-180.0, 180.0)
LATITUDES = (-90.0, 90.0)
OPTIONAL_AXES = ("z", "m")
AXES = ("x", "y", *OPTIONAL_AXES)


@dataclass(frozen=True)
class Extent:
    """The range of one axis: ``low <= high``, except a wrapped X range (``low > high``)."""

    low: float
    high: float


@dataclass(frozen=True)
class Box:
    """A bounding box with the field names both formats' BoundingBox messages use."""

    xmin: float
    xmax: float
    ymin: float
    ymax: float
    zmin: float | None = None
    zmax: float | None = None
    mmin: float | None = None
    mmax: float | None = None


def parse_values(values: Iterable[bytes]) -> list[Geometry] | None:
    """Every value parsed, or None when one is not WKB that ``wkb`` decodes."""
    try:
        return [parse_wkb(value) for value in values]
    except (InvalidWkb, UndecodedWkb):
        return None


def geospatial_types(geometries: Iterable[Geometry]) -> list[int]:
    """The distinct ISO type codes of ``geometries``, ascending."""
    return sorted({geometry.type_code for geometry in geometries})


def bounding_box(geometries: Sequence[Geometry], geography: bool) -> Box | None:
    """The box of every non-NaN ordinate, or None when X or Y has none."""
    xs = [x for geometry in geometries for x in geometry.axis("x")]
    ys = [y for geometry in geometries for y in geometry.axis("y")]
    if not xs or not ys:
        return None
    x = _wrapping_extent(xs) if geography else _extent(xs)
    optional: dict[str, float] = {}
    for axis in OPTIONAL_AXES:
        ordinates = [v for geometry in geometries for v in geometry.axis(axis)]
        if ordinates:
            optional[f"{axis}min"], optional[f"{axis}max"] = min(ordinates), max(ordinates)
    return Box(xmin=x.low, xmax=x.high, ymin=min(ys), ymax=max(ys), **optional)


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
