"""GEOMETRY and GEOGRAPHY columns with their statistics.

Spec: Geospatial.md, 'Statistics', 'Bounding Box' (NaN ordinates skipped, an axis
of NaN only omitted, no box without X or Y, X wrapping across the antimeridian)
and 'Geospatial Types' (ISO WKB codes); LogicalTypes.md, 'GEOMETRY' and
'GEOGRAPHY'; parquet.thrift ``struct GeospatialStatistics``.

Every case asks for statistics, so a writer that computes them writes
``ColumnMetaData.geospatial_statistics``; the metadata validator checks them
against the values (``validation.geospatial_statistics_checks``) and every
reader must return the WKB bytes unchanged. Values are built byte by byte
(``conformance/cases/wkb_values.py``, shared with ORC), little-endian unless a case says
otherwise.
"""

from __future__ import annotations

from conformance.values import DataType, Field, Schema
from conformance.values import types as T

from ..model import Case, WriteOptions
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

SPEC = ("Geospatial.md: Statistics", "Geospatial.md: Bounding Box", "Geospatial.md: Geospatial Types",
        "parquet.thrift: struct GeospatialStatistics")
STATISTICS = WriteOptions(encoding=None, statistics=True)
BIG = Wkb(order=BIG_ENDIAN)


def _case(name: str, title: str, t: DataType, values: list[bytes | None], spec: tuple[str, ...] = (),
          options: WriteOptions = STATISTICS) -> Case:
    return Case(id=f"geospatial/{name}", title=title, spec=SPEC + spec,
                schema=Schema((Field("g", t, True),)), rows=tuple((v,) for v in values), options=options)


def cases() -> list[Case]:
    geometry, geography = T.geometry(), T.geography()
    z, m, zm = Wkb(XYZ), Wkb(XYM), Wkb(XYZM)
    return [
        _case("geometry-points", "GEOMETRY points of both signs and a null: the box is their extent",
              geometry, [W.point(1.5, -2.0), None, W.point(-180.0, 90.0), W.point(30.25, 45.0)],
              ("LogicalTypes.md: GEOMETRY",)),
        _case("geometry-kinds", "GEOMETRY of each of the seven kinds: seven type codes",
              geometry, [W.point(1.0, 2.0), W.linestring((0.0, 0.0), (5.0, -3.0)), W.polygon(SQUARE, HOLE),
                         W.multi(MULTIPOINT, W.point(-1.0, -1.0), W.point(2.0, 2.0)),
                         W.multi(MULTILINESTRING, W.linestring((20.0, 1.0), (21.0, 2.0))),
                         W.multi(MULTIPOLYGON, W.polygon(SQUARE)),
                         W.multi(COLLECTION, W.point(-7.0, 8.0), W.linestring((1.0, 1.0), (2.0, 30.0)))],
              ("LogicalTypes.md: GEOMETRY",)),
        _case("geometry-empty", "GEOMETRY with empty geometries beside a point: they add type codes, "
              "no coordinates", geometry,
              [W.point(NAN, NAN), W.linestring(), W.polygon(), W.multi(COLLECTION), W.point(3.0, 4.0)],
              ("LogicalTypes.md: GEOMETRY",)),
        _case("geometry-only-empty", "GEOMETRY whose values are all empty: no bounding box, types known",
              geometry, [W.point(NAN, NAN), W.multi(MULTIPOINT), None], ("LogicalTypes.md: GEOMETRY",)),
        _case("geometry-nan", "GEOMETRY with NaN ordinates: skipped, and Z, NaN only, is omitted",
              geometry, [W.point(1.0, NAN), z.point(NAN, 2.0, NAN), W.linestring((NAN, 5.0), (6.0, NAN)),
                         W.point(-4.0, -5.0)], ("LogicalTypes.md: GEOMETRY",)),
        _case("geometry-zm", "GEOMETRY in XY, XYZ, XYM and XYZM: Z and M bounds from the values that "
              "have them", geometry,
              [W.point(0.0, 0.0), z.linestring((1.0, 2.0, -30.5), (3.0, 4.0, 100.0)), m.point(5.0, 6.0, 7.0),
               zm.polygon([(0.0, 0.0, 1.0, 2.0), (1.0, 0.0, 1.0, 3.0), (1.0, 1.0, 2.0, 4.0),
                           (0.0, 0.0, 1.0, 2.0)])], ("LogicalTypes.md: GEOMETRY",)),
        _case("geometry-big-endian", "GEOMETRY in big-endian WKB: values are kept byte for byte",
              geometry, [BIG.point(1.0, 2.0), BIG.linestring((3.0, 4.0), (5.0, 6.0))],
              ("LogicalTypes.md: GEOMETRY",)),
        _case("geometry-row-groups", "GEOMETRY in two row groups: one box per column chunk", geometry,
              [W.point(1.0, 1.0), W.point(2.0, 2.0), W.point(-50.0, 60.0), W.point(-40.0, 70.0)],
              ("LogicalTypes.md: GEOMETRY",), WriteOptions(encoding=None, statistics=True, row_group_size=2)),
        _case("geography-points", "GEOGRAPHY points away from the antimeridian", geography,
              [W.point(13.4, 52.5), W.point(-74.0, 40.7), None, W.point(2.35, -33.9)],
              ("LogicalTypes.md: GEOGRAPHY",)),
        _case("geography-antimeridian", "GEOGRAPHY across the antimeridian: the narrowest box wraps "
              "(xmin > xmax)", geography,
              [W.linestring((170.0, -10.0), (-175.0, 10.0)), W.point(179.5, 0.0), W.point(-178.0, 5.0)],
              ("LogicalTypes.md: GEOGRAPHY",)),
    ]
