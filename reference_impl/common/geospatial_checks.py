"""Geospatial statistics against the WKB values they summarise, for both formats.

Parquet (Geospatial.md, 'Bounding Box', 'Geospatial Types') and ORC (ORCv2.md, 'Column
Statistics', the same text) state the same rules; ``geospatial_bounds`` quotes them.
Each format's validator parses the values (``wkb``), reports a value that is not WKB its
own way, and hands the stored box and type list (its message's fields, by the names both
BoundingBox messages share) to :func:`check_geospatial`, with its ``report(kind,
message)``. The finding kinds, each format's ``rule_texts`` quoting its own text:

* untrue (facts that contradict the values): ``geospatial_statistics.bbox``, a
  coordinate outside the box (X tested as the text says, wrapping when xmin > xmax);
  ``.geospatial_types``, a value's type missing from a non-empty type list;
  ``.extra_type``, a listed type no value has;
* nonconforming: ``.bbox_dimensions``, a dimension present without values or absent
  with them; ``.bbox_range``, a GEOGRAPHY bound outside the canonical ranges;
  ``.unique_types``, a repeated code; ``.type_code``, a code that is not ISO;
* ambiguous: ``.bbox_bound``, a bound no coordinate attains (the text does not say
  whether the box must be the exact extent).

An empty type list is "not known" and not checked.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from reference_impl.common.geospatial_bounds import AXES, LATITUDES, LONGITUDES, OPTIONAL_AXES, contains_x
from reference_impl.common.wkb import Geometry, is_iso_code

__all__ = ["PREFIX", "StoredBox", "check_geospatial"]

PREFIX = "geospatial_statistics."
F = TypeVar("F")
Report = Callable[[str, str], F]


class StoredBox(Protocol):
    """A BoundingBox message of either format, read by its field names."""

    @property
    def xmin(self) -> float | None: ...
    @property
    def xmax(self) -> float | None: ...
    @property
    def ymin(self) -> float | None: ...
    @property
    def ymax(self) -> float | None: ...
    @property
    def zmin(self) -> float | None: ...
    @property
    def zmax(self) -> float | None: ...
    @property
    def mmin(self) -> float | None: ...
    @property
    def mmax(self) -> float | None: ...


def check_geospatial(stored_types: Sequence[int] | None, box: StoredBox | None,
                     geometries: Sequence[Geometry], geography: bool, report: Report[F]) -> list[F]:
    """Every finding about a stored type list and box over the parsed values."""
    return _check_types(stored_types, geometries, report) + _check_box(box, geometries, geography, report)


def _check_types(stored: Sequence[int] | None, geometries: Sequence[Geometry], report: Report[F]) -> list[F]:
    if not stored:
        return []  # absent, or empty: "not known"
    findings = []
    if len(set(stored)) != len(stored):
        findings.append(report(PREFIX + "unique_types", f"the list is {list(stored)}"))
    if foreign := sorted({code for code in stored if not is_iso_code(code)}):
        findings.append(report(PREFIX + "type_code", f"{foreign} in geospatial_types"))
    present = {geometry.type_code for geometry in geometries}
    if missing := sorted(present - set(stored)):
        findings.append(report(PREFIX + "geospatial_types",
                               f"geospatial_types is {list(stored)}, the values also hold {missing}"))
    if extra := sorted(set(stored) - present - set(foreign)):
        findings.append(report(PREFIX + "extra_type", f"geospatial_types lists {extra}, which no value has"))
    return findings


def _check_box(box: StoredBox | None, geometries: Sequence[Geometry], geography: bool,
               report: Report[F]) -> list[F]:
    if box is None:
        return []
    ordinates = {axis: [v for g in geometries for v in g.axis(axis)] for axis in AXES}
    if not ordinates["x"] or not ordinates["y"]:
        return [report(PREFIX + "bbox_dimensions",
                       "a bounding box is written, but the values have no X or no Y ordinate")]
    findings = _check_dimensions(box, ordinates, report)
    for axis, values in ordinates.items():
        low, high = getattr(box, f"{axis}min"), getattr(box, f"{axis}max")
        if low is None or high is None or not values:
            continue
        outside = [v for v in values if not _within(axis, v, low, high)]
        if outside:
            findings.append(report(PREFIX + "bbox", f"{len(outside)} {axis} ordinates lie outside "
                                   f"[{axis}min {low!r}, {axis}max {high!r}], the first {outside[0]!r}"))
        elif unattained := [bound for bound in (low, high) if bound not in values]:
            findings.append(report(PREFIX + "bbox_bound",
                                   f"{axis} bound {unattained[0]!r} is no {axis} ordinate of the values"))
    if geography:
        findings += _check_ranges(box, report)
    return findings


def _within(axis: str, value: float, low: float, high: float) -> bool:
    return contains_x(value, low, high) if axis == "x" else low <= value <= high


def _check_dimensions(box: StoredBox, ordinates: dict[str, list[float]], report: Report[F]) -> list[F]:
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
            findings.append(report(PREFIX + "bbox_dimensions", problem))
    return findings


def _check_ranges(box: StoredBox, report: Report[F]) -> list[F]:
    findings = []
    for axis, (lowest, highest) in (("x", LONGITUDES), ("y", LATITUDES)):
        for bound in (getattr(box, f"{axis}min"), getattr(box, f"{axis}max")):
            if bound is not None and not lowest <= bound <= highest:
                what = f"GEOGRAPHY {axis} bound {bound!r} is outside [{lowest}, {highest}]"
                findings.append(report(PREFIX + "bbox_range", what))
    return findings
