"""GeospatialStatistics (Geospatial.md, 'Statistics'): the box and type codes the reference
writes, a Hypothesis property (the box holds every coordinate and is the tightest), and
one finding of ``validate`` per broken rule, each with its kind and severity."""

from __future__ import annotations

import io
import math
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.common.geospatial_bounds import bounding_box, contains_x
from reference_impl.common.wkb import parse_wkb
from reference_impl.parquet.metadata import parquet_thrift as md
from reference_impl.parquet.metadata.parquet_thrift import BoundingBox, GeospatialStatistics, Type
from reference_impl.parquet.reader import read_footer
from reference_impl.parquet.schema.tree import leaf, root
from reference_impl.parquet.statistics.geospatial_statistics import geospatial_statistics
from reference_impl.parquet.validation.findings import AMBIGUOUS, NONCONFORMING, UNTRUE
from reference_impl.parquet.validation.rule_texts import RULE_TEXTS
from reference_impl.parquet.validation.validate import validate
from reference_impl.parquet.writer import write_table
from reference_impl.parquet.writer_options import WriterOptions
from tests.reference_impl.common.test_wkb import NAN, coords, count, header, point
from tests.reference_impl.data_path_helpers import OPTIONAL
from tests.reference_impl.parquet_helpers import budget
from tests.reference_impl.test_validation import chunk_of, with_footer

GEOMETRY = md.LogicalType(GEOMETRY=md.GeometryType())
GEOGRAPHY = md.LogicalType(GEOGRAPHY=md.GeographyType())
LINE = header(2) + count(2) + coords(0, 0, 4, 3)
POLYGON_ZM = header(3003) + count(1) + count(4) + coords(0, 0, 1, 7, 2, 0, 2, 8, 2, 2, -1, 9, 0, 0, 1, 7)


def stats(values: list[bytes], geography: bool = False) -> GeospatialStatistics | None:
    return geospatial_statistics(values, geography)


def test_points_lines_and_polygons_give_their_extent_and_codes() -> None:
    result = stats([point(-1, 5), LINE, POLYGON_ZM])
    assert result == GeospatialStatistics(
        bbox=BoundingBox(xmin=-1, xmax=4, ymin=0, ymax=5, zmin=-1, zmax=2, mmin=7, mmax=9),
        geospatial_types=[1, 2, 3003])


def test_nan_is_skipped_and_an_axis_of_nan_only_is_omitted() -> None:
    # 'Bounding Box': "`POINT (1 NaN)` contributes a value to X but no values to Y, Z, or M"
    result = stats([point(1, NAN, NAN, code=1001), point(3, 4, NAN, code=1001)])
    assert result.bbox == BoundingBox(xmin=1, xmax=3, ymin=4, ymax=4)


def test_without_x_or_y_there_is_no_box_but_the_types_are_known() -> None:
    assert stats([point(1, NAN), point(NAN, NAN), header(7) + count(0)]) == GeospatialStatistics(
        bbox=None, geospatial_types=[1, 7])


def test_a_geography_across_the_antimeridian_wraps_a_geometry_does_not() -> None:
    crossing = [header(2) + count(2) + coords(170, -10, -175, 10), point(179.5, 0)]
    assert stats(crossing, geography=True).bbox == BoundingBox(xmin=170, xmax=-175, ymin=-10, ymax=10)
    assert stats(crossing, geography=False).bbox == BoundingBox(xmin=-175, xmax=179.5, ymin=-10, ymax=10)


def test_a_geography_wraps_only_where_that_is_narrower() -> None:
    assert stats([point(-100, 0), point(0, 0), point(100, 0)], True).bbox.xmin == -100  # widest gap: 160
    # the widest gap (10 to 170) is wider than the one across the antimeridian (20): 200 degrees, not 340
    assert stats([point(-170, 0), point(-10, 0), point(10, 0), point(170, 0)], True).bbox.xmin == 170


def test_a_value_that_is_not_wkb_leaves_the_chunk_without_statistics() -> None:
    assert stats([point(1, 2), b"\x01\x01"]) is None


def test_wrapped_x_holds_both_ends() -> None:
    assert contains_x(175, 170, -170) and contains_x(-180, 170, -170) and not contains_x(0, 170, -170)


# ---- Hypothesis: the box holds every ordinate and no box inside it does ----------------

ordinates = st.floats(-1e6, 1e6) | st.just(NAN)
longitudes = st.floats(-180, 180) | st.just(NAN)


@st.composite
def geometries(draw: st.DrawFn, geography: bool) -> bytes:
    axes = draw(st.sampled_from([(0, 2), (1000, 3), (2000, 3), (3000, 4)]))
    xs = longitudes if geography else ordinates
    def coordinate() -> list[float]:
        return [draw(xs), *(draw(ordinates) for _ in range(axes[1] - 1))]
    kind = draw(st.sampled_from(["point", "line", "multipoint"]))
    if kind == "point":
        return header(1 + axes[0]) + coords(*coordinate())
    points = [coordinate() for _ in range(draw(st.integers(0, 5)))]
    if kind == "line":
        return header(2 + axes[0]) + count(len(points)) + coords(*(v for p in points for v in p))
    return header(4 + axes[0]) + count(len(points)) + b"".join(
        header(1 + axes[0]) + coords(*p) for p in points)


@given(st.booleans().flatmap(
    lambda g: st.tuples(st.just(g), st.lists(geometries(g), min_size=1, max_size=8))))
@budget(200)
def test_the_box_holds_every_coordinate_and_is_the_tightest(drawn: tuple[bool, list[bytes]]) -> None:
    geography, values = drawn
    parsed = [parse_wkb(v) for v in values]
    box = bounding_box(parsed, geography)
    for axis in ("x", "y", "z", "m"):
        present = [v for g in parsed for v in g.axis(axis)]
        low, high = (getattr(box, f"{axis}min"), getattr(box, f"{axis}max")) if box else (None, None)
        if box is None or not present:
            assert low is None or axis in "xy" and box is None
            continue
        assert low in present and high in present  # tightest: each bound is an ordinate
        if axis == "x":
            assert all(contains_x(v, low, high) for v in present)
            width = high - low if low <= high else 360 - (low - high)
            assert width <= max(present) - min(present)  # never wider than the plain extent
        else:
            assert (low, high) == (min(present), max(present))
    assert (box is None) == (not any(g.axis("x") for g in parsed) or not any(g.axis("y") for g in parsed))


# ---- the reference writer and the validator ------------------------------------------

VALUES = [point(-1, 5), LINE, None, POLYGON_ZM, point(NAN, NAN), header(7) + count(0)]


def geo_file(logical: md.LogicalType = GEOMETRY, values: list[bytes | None] = VALUES, **options) -> bytes:
    tree = root([leaf("g", Type.BYTE_ARRAY, repetition=OPTIONAL, logical_type=logical)])
    sink = io.BytesIO()
    write_table(sink, tree, [{"g": v} for v in values], WriterOptions(**options))
    return sink.getvalue()


def geo_mutated(raw: bytes, **changes) -> bytes:
    def mutate(metadata: md.FileMetaData) -> None:
        meta = chunk_of(metadata, "g").meta_data
        geo = meta.geospatial_statistics or GeospatialStatistics()
        bbox = changes.pop("bbox", geo.bbox)
        meta.geospatial_statistics = replace(geo, bbox=bbox, **changes)

    return with_footer(raw, mutate)


def kinds(raw: bytes) -> list[tuple[str, str]]:
    return [(f.kind, f.severity) for f in validate(raw)]


def test_the_reference_writes_them_and_validate_finds_nothing() -> None:
    raw = geo_file()
    geo = chunk_of(read_footer(raw)[0], "g").meta_data.geospatial_statistics
    assert geo == stats([v for v in VALUES if v is not None])
    assert geo.geospatial_types == [1, 2, 3003, 7] or geo.geospatial_types == [1, 2, 7, 3003]
    assert validate(raw) == []
    assert validate(geo_file(GEOGRAPHY, [point(170, 1), point(-170, 2)])) == []


def test_no_statistics_no_geospatial_statistics() -> None:
    assert chunk_of(read_footer(geo_file(statistics=False))[0], "g").meta_data.geospatial_statistics is None


def test_the_statistics_lie_narrows_the_box_and_is_untrue() -> None:
    assert kinds(geo_file(lies=frozenset({"statistics"}))) == [("geospatial_statistics.bbox", UNTRUE)]


BOX = BoundingBox(xmin=-1, xmax=4, ymin=0, ymax=5, zmin=-1, zmax=2, mmin=7, mmax=9)


@pytest.mark.parametrize(("changes", "expected"), [
    ({"bbox": replace(BOX, ymax=4.5)}, [("geospatial_statistics.bbox", UNTRUE)]),
    # wrapped: misses 0 to 3
    ({"bbox": replace(BOX, xmin=4, xmax=-1)}, [("geospatial_statistics.bbox", UNTRUE)]),
    ({"bbox": replace(BOX, ymin=math.nan)}, [("geospatial_statistics.bbox", UNTRUE)]),
    # a NaN xmin is not below xmax: the X range reads as wrapped, x <= xmax, which holds
    ({"bbox": replace(BOX, xmin=math.nan)}, [("geospatial_statistics.bbox_bound", AMBIGUOUS)]),
    ({"bbox": replace(BOX, mmax=10)}, [("geospatial_statistics.bbox_bound", AMBIGUOUS)]),
    ({"bbox": replace(BOX, zmin=None, zmax=None)},
     [("geospatial_statistics.bbox_dimensions", NONCONFORMING)]),
    ({"bbox": replace(BOX, mmin=None)}, [("geospatial_statistics.bbox_dimensions", NONCONFORMING)]),
    ({"geospatial_types": [1, 2, 7]}, [("geospatial_statistics.geospatial_types", UNTRUE)]),
    ({"geospatial_types": [1, 2, 3003, 7, 6]}, [("geospatial_statistics.extra_type", UNTRUE)]),
    ({"geospatial_types": [1, 1, 2, 3003, 7]}, [("geospatial_statistics.unique_types", NONCONFORMING)]),
    ({"geospatial_types": [1, 2, 3003, 7, 0x20000001]},
     [("geospatial_statistics.type_code", NONCONFORMING)]),
    ({"geospatial_types": []}, []),  # "An empty array explicitly signals that the ... types are not known"
    ({"bbox": None}, []),
])
def test_each_broken_rule_is_one_finding(changes: dict, expected: list) -> None:
    assert kinds(geo_mutated(geo_file(), **changes)) == expected


def test_a_box_for_values_without_x_or_y() -> None:
    raw = geo_mutated(geo_file(values=[point(NAN, 1)]), bbox=BoundingBox(xmin=0, xmax=0, ymin=1, ymax=1))
    assert kinds(raw) == [("geospatial_statistics.bbox_dimensions", NONCONFORMING)]


def test_a_geography_box_outside_the_canonical_ranges() -> None:
    raw = geo_file(GEOGRAPHY, [point(170, 1), point(190, 95)])
    assert kinds(raw) == [("geospatial_statistics.bbox_range", NONCONFORMING)] * 2


def test_a_value_that_is_not_wkb_is_one_finding_with_its_byte() -> None:
    findings = validate(geo_file(values=[point(1, 2), point(1, 2)[:-1]]))
    assert [(f.kind, f.severity) for f in findings] == [("geospatial.wkb", NONCONFORMING)]
    assert "non-null value 1" in findings[0].message and "at byte 5 of the value" in findings[0].message


def test_geospatial_statistics_on_another_column() -> None:
    raw = geo_mutated(geo_file(md.LogicalType(STRING=md.StringType()), [b"a"]), geospatial_types=[1])
    assert kinds(raw) == [("geospatial_statistics.not_geospatial", NONCONFORMING)]


def test_every_kind_has_its_sentence_and_a_finding_carries_it() -> None:
    kinds = [k for k in RULE_TEXTS if k.startswith(("geospatial.", "geospatial_statistics."))]
    assert len(kinds) == 10 and all(RULE_TEXTS[k].sentence and RULE_TEXTS[k].spec for k in kinds)
    finding = validate(geo_mutated(geo_file(), geospatial_types=[1, 1, 2, 3003, 7]))[0]
    assert finding.rule.spec == "Geospatial.md, 'Geospatial Types'"
    assert "must be unique" in finding.rule.sentence
