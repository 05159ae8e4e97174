"""``ColumnMetaData.geospatial_statistics`` against the WKB values it summarises.

Geospatial.md, 'Statistics', 'Bounding Box' and 'Geospatial Types' (the rules
are quoted in ``reference_impl/common/geospatial_bounds.py``; ``rule_texts`` holds
the sentence of each finding kind, with its strength). The checks read every
non-null value of a GEOMETRY or GEOGRAPHY chunk as WKB (``common/wkb.py``):

* a value that is not WKB is one ``geospatial.wkb`` finding for the chunk (the
  first such value, with the byte where parsing failed), and nothing else is
  judged for that chunk; a value of an ISO kind the floor does not decode
  (curves, surfaces) leaves the chunk's statistics unjudged;
* geospatial statistics on a column that is neither GEOMETRY nor GEOGRAPHY are
  nonconforming (``geospatial_statistics.not_geospatial``);
* the box and the type list against the values: the floor's checks, shared with
  ORC (``reference_impl/common/geospatial_checks.py``, which lists their kinds).
"""

from __future__ import annotations

from reference_impl.common.geospatial_checks import check_geospatial
from reference_impl.common.wkb import Geometry, InvalidWkb, UndecodedWkb, parse_wkb
from reference_impl.parquet.metadata.parquet_thrift import Type
from reference_impl.parquet.statistics.geospatial_statistics import GEOSPATIAL_TYPES
from reference_impl.parquet.validation.chunk import Chunk
from reference_impl.parquet.validation.findings import Finding

__all__ = ["check_geospatial_statistics"]


def check_geospatial_statistics(state: Chunk) -> list[Finding]:
    """The findings about the chunk's GeospatialStatistics and its WKB values."""
    stats = state.meta.geospatial_statistics
    logical = state.leaf.node.logical_type
    kind = logical.kind if logical is not None else None
    if kind not in GEOSPATIAL_TYPES:
        if stats is None:
            return []
        what = f"set on a column of {kind or 'no logical type'}"
        return [state.report("geospatial_statistics.not_geospatial", what)]
    if state.leaf.node.leaf_type != Type.BYTE_ARRAY:
        return []  # the annotation on another physical type is the type rules' finding (type.*)
    geometries: list[Geometry] = []
    for index, value in enumerate(state.values()):
        try:
            geometries.append(parse_wkb(value))  # type: ignore[arg-type]
        except InvalidWkb as error:
            return [state.report("geospatial.wkb", f"non-null value {index}: {error.message}")]
        except UndecodedWkb:
            return []  # a kind this reference does not decode: nothing judged (module docstring)
    if stats is None:
        return []
    return check_geospatial(stats.geospatial_types, stats.bbox, geometries, kind == "GEOGRAPHY", state.report)
