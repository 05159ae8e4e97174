"""``ColumnMetaData.geospatial_statistics`` against the WKB values it summarises.

Geospatial.md, 'Statistics', 'Bounding Box' and 'Geospatial Types' (the rules
are quoted in ``statistics.geospatial_statistics``; ``rule_texts`` holds the
sentence of each finding kind, with its strength). The checks read every
non-null value of a GEOMETRY or GEOGRAPHY chunk as WKB (``schema.wkb``):

* a value that is not WKB is one ``geospatial.wkb`` finding for the chunk (the
  first such value, with the byte where parsing failed), and nothing else is
  judged for that chunk; a value of an ISO kind ``schema.wkb`` does not decode
  (curves, surfaces) leaves the chunk's statistics unjudged;
* untrue (facts that contradict the values): a coordinate outside the box (X
  tested as the text says, wrapping when xmin > xmax), a value's type missing
  from a non-empty type list, a listed type no value has;
* nonconforming: a dimension present without values or absent with them, a
  GEOGRAPHY bound outside the canonical ranges, a repeated or non-ISO type
  code, geospatial statistics on a column that is neither GEOMETRY nor
  GEOGRAPHY;
* ambiguous: a bound no coordinate attains (the text does not say whether the
  box must be the exact extent).
"""

from __future__ import annotations

from collections.abc import Sequence

from reference_impl.parquet.errors import InvalidValue, UnsupportedFeature
from reference_impl.parquet.metadata.parquet_thrift import BoundingBox, Type
from reference_impl.parquet.schema.wkb import Geometry, is_iso_code, parse_wkb
from reference_impl.parquet.statistics.geospatial_statistics import (
    GEOSPATIAL_TYPES,
    LATITUDES,
    LONGITUDES,
    OPTIONAL_AXES,
    contains_x,
)
from reference_impl.parquet.validation.chunk import Chunk
from reference_impl.parquet.validation.findings import Finding, Report

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
        except InvalidValue as error:
            return [state.report("geospatial.wkb", f"non-null value {index}: {error.message}")]
        except UnsupportedFeature:
            return []  # a kind this reference does not decode: nothing judged (module docstring)
    if stats is None:
        return []
    return (_check_types(stats.geospatial_types, geometries, state.report)
            + _check_box(stats.bbox, geometries, kind == "GEOGRAPHY", state.report))


def _check_types(stored: list[int] | None, geometries: Sequence[Geometry], report: Report) -> list[Finding]:
    if not stored:
        return []  # absent, or empty: "not known"
    findings = []
    if len(set(stored)) != len(stored):
        findings.append(report("geospatial_statistics.unique_types", f"the list is {stored}"))
    if foreign := sorted({code for code in stored if not is_iso_code(code)}):
        findings.append(report("geospatial_statistics.type_code", f"{foreign} in geospatial_types"))
    present = {geometry.type_code for geometry in geometries}
    if missing := sorted(present - set(stored)):
        findings.append(report("geospatial_statistics.geospatial_types",
                                 f"geospatial_types is {stored}, the values also hold {missing}"))
    if extra := sorted(set(stored) - present - set(foreign)):
        findings.append(report("geospatial_statistics.extra_type",
                                 f"geospatial_types lists {extra}, which no value has"))
    return findings


def _check_box(box: BoundingBox | None, geometries: Sequence[Geometry], geography: bool,
               report: Report) -> list[Finding]:
    if box is None:
        return []
    ordinates = {axis: [v for g in geometries for v in g.axis(axis)] for axis in ("x", "y", *OPTIONAL_AXES)}
    if not ordinates["x"] or not ordinates["y"]:
        return [report("geospatial_statistics.bbox_dimensions",
                         "a bounding box is written, but the values have no X or no Y ordinate")]
    findings = _check_dimensions(box, ordinates, report)
    for axis, values in ordinates.items():
        low, high = getattr(box, f"{axis}min"), getattr(box, f"{axis}max")
        if low is None or high is None or not values:
            continue
        outside = [v for v in values if not _within(axis, v, low, high)]
        if outside:
            findings.append(report("geospatial_statistics.bbox",
                                     f"{len(outside)} {axis} ordinates lie outside [{axis}min {low!r}, "
                                     f"{axis}max {high!r}], the first {outside[0]!r}"))
        elif unattained := [bound for bound in (low, high) if bound not in values]:
            findings.append(report("geospatial_statistics.bbox_bound",
                                     f"{axis} bound {unattained[0]!r} is no {axis} ordinate of the values"))
    if geography:
        findings += _check_ranges(box, report)
    return findings


def _within(axis: str, value: float, low: float, high: float) -> bool:
    return contains_x(value, low, high) if axis == "x" else low <= value <= high


def _check_dimensions(box: BoundingBox, ordinates: dict[str, list[float]], report: Report) -> list[Finding]:
    findings = []
    for axis in OPTIONAL_AXES:
        low, high = getattr(box, f"{axis}min"), getattr(box, f"{axis}max")
        stored = (low is not None, high is not None)
        problem = None
        if stored[0] != stored[1]:
            problem = f"only one of {axis}min and {axis}max is written"
        elif stored[0] and not ordinates[axis]:
            problem = f"{axis}min/{axis}max are written, but no value has a non-NaN {axis} ordinate"
        elif not stored[0] and ordinates[axis]:
            problem = f"{axis}min/{axis}max are omitted, but {len(ordinates[axis])} {axis} ordinates are set"
        if problem:
            findings.append(report("geospatial_statistics.bbox_dimensions", problem))
    return findings


def _check_ranges(box: BoundingBox, report: Report) -> list[Finding]:
    findings = []
    for axis, (lowest, highest) in (("x", LONGITUDES), ("y", LATITUDES)):
        for bound in (getattr(box, f"{axis}min"), getattr(box, f"{axis}max")):
            if not lowest <= bound <= highest:
                what = f"GEOGRAPHY {axis} bound {bound!r} is outside [{lowest}, {highest}]"
                findings.append(report("geospatial_statistics.bbox_range", what))
    return findings
