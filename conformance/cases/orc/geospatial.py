"""GEOMETRY and GEOGRAPHY columns with their type attributes and GeospatialStatistics.

Spec: ORCv2.md, 'Geometry & Geography Types' (WKB values; the 'Coordinate Reference
System' and the 'Edge Interpolation Algorithm' of orc_proto.proto Type.crs and
Type.algorithm), 'Geometry & Geography Columns' (a binary column's DATA and LENGTH
streams) and 'Column Statistics' (the bounding box and geospatial type codes of
orc_proto.proto message GeospatialStatistics). No released ORC reader before 2.2 knows
these kinds: what an older reader does with them (reject cleanly, or read the bytes as
BINARY) is what these cases measure; misreading them is a failure.

The values are the WKB the Parquet geospatial cases write (``conformance/cases/wkb_values.py``):
their canonical values are one definition for both formats (docs/canonical-values.md).
The reference writes GeospatialStatistics in every stripe's and the file's statistics
(``reference_impl/orc/geospatial_statistics.py``) and ``validate`` holds them against the
values. ``lying-bbox`` (reference only, ``OrcWriteOptions.lies``) narrows the box to its
xmin: readers read its values all the same, and ``validate`` flags the box.
"""

from __future__ import annotations

from collections.abc import Sequence

from conformance.values import DataType

from ..model import Case
from ..wkb_values import (
    BIG_ENDIAN,
    COLLECTION,
    HOLE,
    MULTILINESTRING,
    MULTIPOINT,
    MULTIPOLYGON,
    NAN,
    SQUARE,
    XYM,
    XYZ,
    XYZM,
    W,
    Wkb,
)
from . import types as T
from .column_types import single_column, with_nulls
from .options import OrcWriteOptions

AREA = "orc/geospatial"
TYPES = "ORCv2.md: Geometry & Geography Types"
CRS = "ORCv2.md: Geometry & Geography Types, Background, Coordinate Reference System"
CRS_CUSTOM = "ORCv2.md: Geometry & Geography Types, Background, CRS Customization"
ALGORITHM = "ORCv2.md: Geometry & Geography Types, Background, Edge Interpolation Algorithm"
COLUMNS = "ORCv2.md: Geometry & Geography Columns"
STATISTICS = "ORCv2.md: Column Statistics"
PROTO_KINDS = ("orc_proto.proto: Type.Kind.GEOMETRY", "orc_proto.proto: Type.Kind.GEOGRAPHY")
PROTO_STATISTICS = "orc_proto.proto: message GeospatialStatistics"
SPEC = (TYPES, COLUMNS, STATISTICS, PROTO_STATISTICS)
STRIPE_ROWS = 2  # rows per stripe of the two-stripe case: one box per stripe
SRID_CRS = "srid:3857"  # 'CRS Customization': "type:identifier", a projected (planar) CRS
GEOGRAPHIC_CRS = "srid:4326"


def _case(name: str, title: str, t: DataType, values: Sequence[bytes | None],
          spec: tuple[str, ...] = (), options: OrcWriteOptions | None = None) -> Case:
    return single_column(f"{AREA}/{name}", title, t, values, SPEC + spec, options, name="g")


def cases() -> list[Case]:
    geometry = T.geometry()
    z, m, zm, big = Wkb(XYZ), Wkb(XYM), Wkb(XYZM), Wkb(order=BIG_ENDIAN)
    return [
        _case("points", "GEOMETRY points of both signs: the box is their extent", geometry,
              [W.point(1.5, -2.0), W.point(-180.0, 90.0), W.point(30.25, 45.0)]),
        _case("lines", "GEOMETRY line strings, one of them empty", geometry,
              [W.linestring((0.0, 0.0), (5.0, -3.0)), W.linestring(),
               W.linestring((20.0, 1.0), (21.0, 2.0))]),
        _case("polygons", "GEOMETRY polygons, one with a hole, and a multipolygon", geometry,
              [W.polygon(SQUARE), W.polygon(SQUARE, HOLE), W.multi(MULTIPOLYGON, W.polygon(SQUARE))]),
        _case("kinds", "GEOMETRY of each of the seven kinds: seven type codes", geometry,
              [W.point(1.0, 2.0), W.linestring((0.0, 0.0), (5.0, -3.0)), W.polygon(SQUARE, HOLE),
               W.multi(MULTIPOINT, W.point(-1.0, -1.0), W.point(2.0, 2.0)),
               W.multi(MULTILINESTRING, W.linestring((20.0, 1.0), (21.0, 2.0))),
               W.multi(MULTIPOLYGON, W.polygon(SQUARE)),
               W.multi(COLLECTION, W.point(-7.0, 8.0), W.linestring((1.0, 1.0), (2.0, 30.0)))]),
        _case("empty", "GEOMETRY with empty geometries beside a point: they add type codes, no "
              "coordinates", geometry,
              [W.point(NAN, NAN), W.linestring(), W.polygon(), W.multi(COLLECTION), W.point(3.0, 4.0)]),
        _case("only-empty", "GEOMETRY whose values are all empty: no bounding box, the types known",
              geometry, [W.point(NAN, NAN), W.multi(MULTIPOINT)]),
        _case("nulls", "GEOMETRY with nulls between the values (a PRESENT stream)", geometry,
              with_nulls([W.point(1.0, 1.0), W.linestring((2.0, 2.0), (3.0, -3.0))])),
        _case("only-nulls", "GEOMETRY of nulls only: no values, no box", geometry, [None, None, None]),
        _case("zm", "GEOMETRY in XY, XYZ, XYM and XYZM: Z and M bounds from the values that have them",
              geometry,
              [W.point(0.0, 0.0), z.linestring((1.0, 2.0, -30.5), (3.0, 4.0, 100.0)), m.point(5.0, 6.0, 7.0),
               zm.polygon([(0.0, 0.0, 1.0, 2.0), (1.0, 0.0, 1.0, 3.0), (1.0, 1.0, 2.0, 4.0),
                           (0.0, 0.0, 1.0, 2.0)])]),
        _case("big-endian", "GEOMETRY in big-endian WKB: values are kept byte for byte", geometry,
              [big.point(1.0, 2.0), big.linestring((3.0, 4.0), (5.0, 6.0))]),
        _case("crs", f"GEOMETRY with the CRS {SRID_CRS!r} (Type.crs)", T.geometry(SRID_CRS),
              [W.point(-8238310.24, 4970071.58), W.point(261845.72, 6250564.35)],
              (CRS, CRS_CUSTOM, "orc_proto.proto: Type.crs")),
        _case("stripes", "GEOMETRY in two stripes: one box per stripe, the file's around both", geometry,
              [W.point(1.0, 1.0), W.point(2.0, 2.0), W.point(-50.0, 60.0), W.point(-40.0, 70.0)],
              (), OrcWriteOptions(stripe_row_limit=STRIPE_ROWS)),
        _case("geography", "GEOGRAPHY points away from the antimeridian, no algorithm written (the "
              "default)", T.geography(),
              [W.point(13.4, 52.5), W.point(-74.0, 40.7), None, W.point(2.35, -33.9)], (ALGORITHM,)),
        _case("geography-karney", "GEOGRAPHY with the KARNEY edge interpolation algorithm and a CRS",
              T.geography(GEOGRAPHIC_CRS, "KARNEY"),
              [W.linestring((13.4, 52.5), (2.35, 48.86)), W.point(-74.0, 40.7)],
              (ALGORITHM, CRS, "orc_proto.proto: Type.algorithm", "orc_proto.proto: Type.crs")),
        _case("geography-antimeridian", "GEOGRAPHY across the antimeridian: the narrowest box wraps "
              "(xmin > xmax)", T.geography(algorithm="SPHERICAL"),
              [W.linestring((170.0, -10.0), (-175.0, 10.0)), W.point(179.5, 0.0), W.point(-178.0, 5.0)],
              (ALGORITHM,)),
        _case("lying-bbox", "TEST-ONLY: the stripe's and the file's bounding box narrowed to xmin",
              geometry, [W.point(1.0, 1.0), W.point(-5.0, 2.0), W.point(8.0, 3.0)], (),
              OrcWriteOptions(lies=("statistics",))),
    ]
