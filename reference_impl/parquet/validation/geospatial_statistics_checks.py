"""``ColumnMetaData.geospatial_statistics`` against the WKB values it summarises.

Geospatial.md, 'Statistics', 'Bounding Box' and 'Geospatial Types' (the rules
are quoted in ``statistics.geospatial_statistics`` and in :data:`RULES`, one
per finding kind, with the strength of its sentence). The checks read every
non-null value of a GEOMETRY or GEOGRAPHY chunk as WKB (``schema.wkb``):

* a value that is not WKB is one ``geospatial.wkb`` finding for the chunk (the
  first such value, with the byte where parsing failed), and nothing else is
  judged for that chunk; a value of an ISO kind ``schema.wkb`` does not decode
  (curves, surfaces) leaves the chunk's statistics unjudged;
* ``untrue`` where the statistics contradict the values: a coordinate outside
  the box (X tested as the text says, wrapping when xmin > xmax), a value's
  type missing from a non-empty type list;
* ``nonconforming`` where they break the text's definition without misleading
  a reader: a bound no coordinate attains, a dimension present without values
  or absent with them, a GEOGRAPHY bound outside the canonical ranges, a
  repeated or non-ISO type code, a type no value has, geospatial statistics on
  a column that is neither GEOMETRY nor GEOGRAPHY.
"""

from __future__ import annotations

from collections.abc import Sequence

from reference_impl.parquet.errors import InvalidValue, UnsupportedFeature
from reference_impl.parquet.metadata.parquet_thrift import BoundingBox
from reference_impl.parquet.schema.wkb import Geometry, is_iso_code, parse_wkb
from reference_impl.parquet.statistics.geospatial_statistics import (
    GEOSPATIAL_TYPES,
    LATITUDES,
    LONGITUDES,
    OPTIONAL_AXES,
    contains_x,
)
from reference_impl.parquet.validation.chunk import Chunk
from reference_impl.parquet.validation.findings import NONCONFORMING, UNTRUE, Finding, Report

__all__ = ["RULES", "check_geospatial_statistics"]

_BOX = "Geospatial.md, 'Bounding Box'"
_TYPES = "Geospatial.md, 'Geospatial Types'"
_BOX_SENTENCE = ("Bounding box is defined as the thrift struct below in the representation of min/max "
                 "value pair of coordinates from each axis.")
_TYPES_SENTENCE = "A list of geospatial types from all instances in the `GEOMETRY` or `GEOGRAPHY` column"
# kind -> (severity, citation, the sentence checked)
RULES = {
    "geospatial.wkb": (
        NONCONFORMING, "LogicalTypes.md, 'GEOMETRY'",
        "`GEOMETRY` is used for geospatial features in the Well-Known Binary (WKB) format"),
    "geospatial_statistics.bbox": (UNTRUE, _BOX, _BOX_SENTENCE),
    "geospatial_statistics.bbox_bound": (NONCONFORMING, _BOX, _BOX_SENTENCE),
    "geospatial_statistics.bbox_dimensions": (
        NONCONFORMING, _BOX,
        "If a dimension has only null or NaN values, that dimension is omitted from the bounding box. "
        "If either the X or Y dimension is missing, then the bounding box itself is not produced."),
    "geospatial_statistics.bbox_range": (
        NONCONFORMING, _BOX,
        "For `GEOGRAPHY` types, X and Y values are restricted to the canonical ranges of [-180, 180] "
        "for X and [-90, 90] for Y."),
    "geospatial_statistics.geospatial_types": (
        UNTRUE, _TYPES, _TYPES_SENTENCE + ", or an empty list if they are not known."),
    "geospatial_statistics.extra_type": (NONCONFORMING, _TYPES, _TYPES_SENTENCE),
    "geospatial_statistics.type_code": (
        NONCONFORMING, _TYPES, "values in the list are WKB (ISO-variant) integer codes"),
    "geospatial_statistics.unique_types": (
        NONCONFORMING, _TYPES,
        "The geospatial types in the list must be unique (e.g. `[0001, 0001]` is not valid)."),
    "geospatial_statistics.not_geospatial": (
        NONCONFORMING, "Geospatial.md, 'Statistics'",
        "`GeospatialStatistics` is a struct specific for `GEOMETRY` and `GEOGRAPHY` logical types"),
}


def _finding(report: Report, kind: str, what: str) -> Finding:
    severity, citation, sentence = RULES[kind]
    return report(kind, severity, f'{what}; {citation}: "{sentence}"')


def check_geospatial_statistics(state: Chunk) -> list[Finding]:
    """The findings about the chunk's GeospatialStatistics and its WKB values."""
    stats = state.meta.geospatial_statistics
    logical = state.leaf.node.logical_type
    kind = logical.kind if logical is not None else None
    if kind not in GEOSPATIAL_TYPES:
        if stats is None:
            return []
        what = f"set on a column of {kind or 'no logical type'}"
        return [_finding(state.report, "geospatial_statistics.not_geospatial", what)]
    geometries: list[Geometry] = []
    for index, value in enumerate(state.values()):
        try:
            geometries.append(parse_wkb(value))  # type: ignore[arg-type]
        except InvalidValue as error:
            return [_finding(state.report, "geospatial.wkb", f"non-null value {index}: {error.message}")]
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
        findings.append(_finding(report, "geospatial_statistics.unique_types", f"the list is {stored}"))
    if foreign := sorted({code for code in stored if not is_iso_code(code)}):
        findings.append(_finding(report, "geospatial_statistics.type_code", f"{foreign} in geospatial_types"))
    present = {geometry.type_code for geometry in geometries}
    if missing := sorted(present - set(stored)):
        findings.append(_finding(report, "geospatial_statistics.geospatial_types",
                                 f"geospatial_types is {stored}, the values also hold {missing}"))
    if extra := sorted(set(stored) - present - set(foreign)):
        findings.append(_finding(report, "geospatial_statistics.extra_type",
                                 f"geospatial_types lists {extra}, which no value has"))
    return findings


def _check_box(box: BoundingBox | None, geometries: Sequence[Geometry], geography: bool,
               report: Report) -> list[Finding]:
    if box is None:
        return []
    ordinates = {axis: [v for g in geometries for v in g.axis(axis)] for axis in ("x", "y", *OPTIONAL_AXES)}
    if not ordinates["x"] or not ordinates["y"]:
        return [_finding(report, "geospatial_statistics.bbox_dimensions",
                         "a bounding box is written, but the values have no X or no Y ordinate")]
    findings = _check_dimensions(box, ordinates, report)
    for axis, values in ordinates.items():
        low, high = getattr(box, f"{axis}min"), getattr(box, f"{axis}max")
        if low is None or high is None or not values:
            continue
        outside = [v for v in values if not _within(axis, v, low, high)]
        if outside:
            findings.append(_finding(report, "geospatial_statistics.bbox",
                                     f"{len(outside)} {axis} ordinates lie outside [{axis}min {low!r}, "
                                     f"{axis}max {high!r}], the first {outside[0]!r}"))
        elif unattained := [bound for bound in (low, high) if bound not in values]:
            findings.append(_finding(report, "geospatial_statistics.bbox_bound",
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
            findings.append(_finding(report, "geospatial_statistics.bbox_dimensions", problem))
    return findings


def _check_ranges(box: BoundingBox, report: Report) -> list[Finding]:
    findings = []
    for axis, (lowest, highest) in (("x", LONGITUDES), ("y", LATITUDES)):
        for bound in (getattr(box, f"{axis}min"), getattr(box, f"{axis}max")):
            if not lowest <= bound <= highest:
                what = f"GEOGRAPHY {axis} bound {bound!r} is outside [{lowest}, {highest}]"
                findings.append(_finding(report, "geospatial_statistics.bbox_range", what))
    return findings
