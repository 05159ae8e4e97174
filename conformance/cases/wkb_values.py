"""WKB values the GEOMETRY and GEOGRAPHY cases of both formats write, built byte by byte.

ISO WKB (OGC Simple Feature Access, Part 1): a byte order, a u32 type code (the kind plus
1000 for XYZ, 2000 for XYM, 3000 for XYZM: 'Geospatial Types' of Geospatial.md and of
ORCv2.md), then the body. Neither format's cases own these: Parquet's GEOMETRY and
GEOGRAPHY (Geospatial.md) and ORC's (ORCv2.md, 'Geometry & Geography Types') hold the
same WKB, and their canonical values are the same bytes (docs/canonical-values.md).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["BIG_ENDIAN", "COLLECTION", "HOLE", "LINESTRING", "LITTLE_ENDIAN", "MULTILINESTRING",
           "MULTIPOINT", "MULTIPOLYGON", "NAN", "POINT", "POLYGON", "SQUARE", "XY", "XYM", "XYZ", "XYZM",
           "W", "Wkb"]

NAN = float("nan")
XY, XYZ, XYM, XYZM = 0, 1000, 2000, 3000  # the code's dimension offset ('Geospatial Types')
POINT, LINESTRING, POLYGON, MULTIPOINT, MULTILINESTRING, MULTIPOLYGON, COLLECTION = range(1, 8)
LITTLE_ENDIAN, BIG_ENDIAN = "<", ">"


@dataclass(frozen=True)
class Wkb:
    """ISO WKB of one byte order and dimension; coordinates are tuples of its ordinates."""

    dimension: int = XY
    order: str = LITTLE_ENDIAN

    def header(self, kind: int) -> bytes:
        return struct.pack(f"{self.order}BI", 1 if self.order == LITTLE_ENDIAN else 0, kind + self.dimension)

    def count(self, n: int) -> bytes:
        return struct.pack(f"{self.order}I", n)

    def coords(self, points: Sequence[tuple[float, ...]]) -> bytes:
        flat = [v for p in points for v in p]
        return struct.pack(f"{self.order}{len(flat)}d", *flat)

    def point(self, *ordinates: float) -> bytes:
        return self.header(POINT) + self.coords([ordinates])

    def linestring(self, *points: tuple[float, ...]) -> bytes:
        return self.header(LINESTRING) + self.count(len(points)) + self.coords(points)

    def polygon(self, *rings: Sequence[tuple[float, ...]]) -> bytes:
        return self.header(POLYGON) + self.count(len(rings)) + b"".join(
            self.count(len(ring)) + self.coords(ring) for ring in rings)

    def multi(self, kind: int, *parts: bytes) -> bytes:
        return self.header(kind) + self.count(len(parts)) + b"".join(parts)


W = Wkb()
SQUARE = [(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0), (0.0, 0.0)]
HOLE = [(2.0, 2.0), (3.0, 2.0), (3.0, 3.0), (2.0, 2.0)]
