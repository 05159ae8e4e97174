"""Well-Known Binary, the value encoding of GEOMETRY and GEOGRAPHY columns in both formats.

Parquet: Geospatial.md, 'Background': values are "Well-Known Binary (WKB)
serializations (ISO variant supporting XY, XYZ, XYM, XYZM)" of the OGC Simple
Feature Access geometries; LogicalTypes.md 'GEOMETRY' and 'GEOGRAPHY'.
ORC: ORCv2.md, 'Geometry & Geography Types' (the same words) and 'Geometry &
Geography Columns' (WKB in a binary column's DATA and LENGTH streams).
Both texts' 'Geospatial Types' table gives the ISO integer codes: the kind
(Point 1 ... GeometryCollection 7) plus 1000 for XYZ, 2000 for XYM, 3000 for
XYZM.

The grammar this module reads (OGC SFA Part 1, 'Well-known Binary
Representation for Geometry')::

    geometry   := byte_order:u8 (0 big-endian, 1 little-endian) type:u32 body
    Point      := one coordinate (an empty point: every ordinate NaN)
    LineString := count:u32, count coordinates
    Polygon    := rings:u32, rings x (count:u32, count coordinates)
    Multi*, GeometryCollection := parts:u32, parts x geometry
    coordinate := one f64 per dimension, in the order x y [z] [m]

Decisions:

* The parts of a MultiPoint, MultiLineString and MultiPolygon are Points,
  LineStrings and Polygons, and every part has its parent's dimensions (SFA
  Part 1: a collection's elements share its coordinate dimension); anything
  else is ``InvalidWkb``.
* Extended WKB (PostGIS EWKB) type words, with their Z, M or SRID flag bits,
  are not ISO codes and are ``InvalidWkb``; so is a code outside ISO's
  numbering. The ISO kinds 8-17 (CircularString ... Triangle) are valid WKB
  this module does not decode: ``UndecodedWkb``.
* Bytes left after the geometry are ``InvalidWkb``: a value is one geometry.
* Bounded: a count is checked against the bytes left before anything is
  read for it, and collections nest at most ``MAX_NESTING`` deep.

Every error names the byte offset within the value where it was found. The errors
are this module's own (the floor imports neither format): each format's caller turns
them into its ``errors.py`` classes (InvalidValue, UnsupportedFeature) with the place
of the value in the file.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass, field

__all__ = ["KINDS", "Geometry", "InvalidWkb", "UndecodedWkb", "is_iso_code", "parse_wkb"]

BIG_ENDIAN, LITTLE_ENDIAN = 0, 1
_STRUCT_ORDER = {BIG_ENDIAN: ">", LITTLE_ENDIAN: "<"}
KINDS = {1: "Point", 2: "LineString", 3: "Polygon", 4: "MultiPoint", 5: "MultiLineString",
         6: "MultiPolygon", 7: "GeometryCollection"}
POINT, LINESTRING, POLYGON, MULTIPOINT, MULTILINESTRING, MULTIPOLYGON, COLLECTION = KINDS.values()
_PART_KIND = {MULTIPOINT: POINT, MULTILINESTRING: LINESTRING, MULTIPOLYGON: POLYGON}
ISO_UNDECODED_KINDS = range(8, 18)  # CircularString ... Triangle: ISO codes not decoded here
DIMENSION_STEP = 1000  # code = kind + DIMENSION_STEP * dimension id
DIMENSIONS = {0: ("x", "y"), 1: ("x", "y", "z"), 2: ("x", "y", "m"), 3: ("x", "y", "z", "m")}
HEADER_BYTES = 5  # byte order + type
COUNT_BYTES = 4
ORDINATE_BYTES = 8
MAX_NESTING = 32


class InvalidWkb(ValueError):
    """A value that is not ISO WKB; ``message`` names the byte of the value where it was found."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


class UndecodedWkb(ValueError):
    """A valid ISO WKB kind this module does not decode (a curve or a surface)."""


@dataclass
class Geometry:
    """One parsed value: its ISO type code and every ordinate of its coordinates per axis.

    ``ordinates`` maps each axis of the geometry's dimensions ("x", "y", and "z"
    and/or "m") to its values, NaN included; an empty geometry has none (an
    empty point has NaN ordinates).
    """

    type_code: int
    ordinates: dict[str, list[float]] = field(default_factory=dict)

    @property
    def kind(self) -> str:
        return KINDS[self.type_code % DIMENSION_STEP]

    def axis(self, name: str) -> list[float]:
        """The ordinates of axis ``name``, NaN excluded (none if the geometry lacks the axis)."""
        return [v for v in self.ordinates.get(name, ()) if not math.isnan(v)]


def is_iso_code(code: int) -> bool:
    """Is ``code`` a type code of Geospatial.md's table (kinds 1-7 in XY, XYZ, XYM, XYZM)?"""
    return code % DIMENSION_STEP in KINDS and code // DIMENSION_STEP in DIMENSIONS


def parse_wkb(value: bytes) -> Geometry:
    """The geometry ``value`` encodes; InvalidWkb / UndecodedWkb (see module docstring)."""
    reader = _Reader(bytes(value))
    geometry = Geometry(0)
    geometry.type_code = reader.geometry(geometry, None, 0)
    if reader.position != len(reader.data):
        raise _invalid(f"{len(reader.data) - reader.position} bytes follow the geometry", reader.position)
    return geometry


def _invalid(problem: str, position: int) -> InvalidWkb:
    return InvalidWkb(f"WKB value: {problem} at byte {position} of the value")


class _Reader:
    """A cursor over one value; each geometry's ordinates go into the top-level Geometry."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.position = 0

    def take(self, size: int, what: str) -> int:
        start = self.position
        if size > len(self.data) - start:
            raise _invalid(f"{what} needs {size} bytes, {len(self.data) - start} remain", start)
        self.position += size
        return start

    def count(self, order: str, item_bytes: int, what: str) -> int:
        """A u32 count of items at least ``item_bytes`` each, checked against the bytes left."""
        start = self.take(COUNT_BYTES, f"the {what} count")
        (count,) = struct.unpack_from(order + "I", self.data, start)
        if count * item_bytes > len(self.data) - self.position:
            raise _invalid(f"{count} {what} need at least {count * item_bytes} bytes, "
                           f"{len(self.data) - self.position} remain", start)
        return count

    def geometry(self, out: Geometry, parent: tuple[str, int] | None, depth: int) -> int:
        """Read one geometry into ``out``; return its type code. ``parent``: (its kind, its dimension id)."""
        start = self.take(HEADER_BYTES, "a geometry header")
        order = _STRUCT_ORDER.get(self.data[start])
        if order is None:
            raise _invalid(f"byte order {self.data[start]} is neither 0 (big-endian) nor 1 (little-endian)",
                           start)
        (code,) = struct.unpack_from(order + "I", self.data, start + 1)
        kind, dimension = _kind_and_dimension(code, start + 1)
        if parent is not None:
            _check_part(kind, dimension, parent, start)
        axes = DIMENSIONS[dimension]
        coordinate_bytes = ORDINATE_BYTES * len(axes)
        for axis in axes:
            out.ordinates.setdefault(axis, [])
        if kind == POINT:
            self.coordinates(out, order, axes, 1)
        elif kind == LINESTRING:
            self.coordinates(out, order, axes, self.count(order, coordinate_bytes, "points"))
        elif kind == POLYGON:
            for _ in range(self.count(order, COUNT_BYTES, "rings")):
                self.coordinates(out, order, axes, self.count(order, coordinate_bytes, "points"))
        else:
            if depth >= MAX_NESTING:
                raise _invalid(f"collections nest deeper than {MAX_NESTING}", start)
            for _ in range(self.count(order, HEADER_BYTES, "parts")):
                self.geometry(out, (kind, dimension), depth + 1)
        return code

    def coordinates(self, out: Geometry, order: str, axes: tuple[str, ...], count: int) -> None:
        start = self.take(count * ORDINATE_BYTES * len(axes), f"{count} coordinates")
        flat = struct.unpack_from(f"{order}{count * len(axes)}d", self.data, start)
        for index, axis in enumerate(axes):
            out.ordinates[axis].extend(flat[index :: len(axes)])


def _kind_and_dimension(code: int, position: int) -> tuple[str, int]:
    if is_iso_code(code):
        return KINDS[code % DIMENSION_STEP], code // DIMENSION_STEP
    if code % DIMENSION_STEP in ISO_UNDECODED_KINDS and code // DIMENSION_STEP in DIMENSIONS:
        raise UndecodedWkb(f"WKB value: ISO geometry type {code} (a curve or surface) is not decoded "
                                 f"here, at byte {position} of the value")
    raise _invalid(f"type {code} (0x{code:08x}) is not an ISO WKB geometry type ('Geospatial "
                   "Types' of Geospatial.md and ORCv2.md; extended WKB flag bits are not ISO)", position)


def _check_part(kind: str, dimension: int, parent: tuple[str, int], position: int) -> None:
    parent_kind, parent_dimension = parent
    expected = _PART_KIND.get(parent_kind)
    if expected is not None and kind != expected:
        raise _invalid(f"a {parent_kind} holds a {kind}, not a {expected}", position)
    if dimension != parent_dimension:
        raise _invalid(f"a part of dimensions {''.join(DIMENSIONS[dimension]).upper()} inside a "
                       f"{''.join(DIMENSIONS[parent_dimension]).upper()} {parent_kind}", position)
