"""The ORC areas of the case catalogue (conformance/cases/orc/): every case validates,
round-trips through JSON, cites sections that exist, and the areas cover what they claim."""

from __future__ import annotations

import dataclasses
import datetime
import json
from collections import Counter

import pytest

from conformance.cases import Case, all_cases
from conformance.cases.orc import (
    codecs,
    column_types,
    edge_values,
    encodings,
    encryption,
    geospatial,
    indexes,
    native,
    nested,
    sections,
    shapes,
    stripes,
)
from conformance.cases.orc import types as T
from conformance.cases.orc.options import CODECS, FILE_VERSIONS, RLE_V2_SUB_ENCODINGS, STRING_ENCODINGS
from conformance.specs import citations
from conformance.values import diff_tables
from reference_impl.orc.metadata.proto_enums import TypeKind

AREAS = {"types": column_types, "nested": nested, "encodings": encodings, "codecs": codecs,
         "stripes": stripes, "indexes": indexes, "edge": edge_values, "shapes": shapes, "native": native,
         "geospatial": geospatial, "encryption": encryption}
ORC_CASES = [case for module in AREAS.values() for case in module.cases()]
INDEX = citations.load_index()
RLE_V2_TAG = "rle_v2:"
MIN_CASES, MAX_CASES = 60, 300  # a bound against a generator gone wild (187 cases today)


def test_every_orc_case_is_in_the_catalogue_once():
    # Saved hunt regressions (regression/<id>) are catalogue cases of their own format too.
    catalogue = [case for case in all_cases()
                 if case.format == "orc" and not case.id.startswith("regression/")]
    assert [c.id for c in catalogue] == [c.id for c in ORC_CASES]
    assert len({c.id for c in ORC_CASES}) == len(ORC_CASES)
    assert MIN_CASES <= len(ORC_CASES) <= MAX_CASES


@pytest.mark.parametrize("area", sorted(AREAS))
def test_ids_name_their_area(area):
    built = AREAS[area].cases()
    assert built and all(c.id.startswith(f"orc/{area}/") and c.format == "orc" for c in built)


@pytest.mark.parametrize("case", ORC_CASES, ids=lambda c: c.id)
def test_case_round_trips_through_json(case):
    restored = Case.from_json(json.loads(json.dumps(case.to_json())))
    assert restored.to_json() == case.to_json()
    assert diff_tables(case.expected, restored.expected) is None  # NaN rows compare by bits
    assert dataclasses.replace(restored, rows=case.rows) == case


def test_every_spec_reference_resolves():
    references = sorted({s for case in ORC_CASES for s in case.spec})
    problems = {}
    for reference in references:
        citation = citations.entry_citation(reference, 0, INDEX)
        problems[reference] = citations.unresolved(INDEX, citation) if citation else "not an entry"
    assert {k: v for k, v in problems.items() if v} == {}
    # ORCv2.md only for what today's text adds over ORCv1.md: GEOMETRY and GEOGRAPHY.
    cited_v2 = {case.id.split("/")[1] for case in ORC_CASES for s in case.spec if s.startswith("ORCv2.md:")}
    assert all(r.split(":")[0] in ("ORCv1.md", "ORCv2.md", "orc_proto.proto") for r in references)
    assert cited_v2 == {"geospatial"}


def test_every_case_cites_a_section():
    assert all(case.spec for case in ORC_CASES)


def _features(tag_prefix: str) -> Counter[str]:
    return Counter(t for case in ORC_CASES for t in case.features if t.startswith(tag_prefix))


def test_every_orc_type_kind_is_covered():
    kinds = {t.removeprefix("type:") for t in _features("type:")}
    assert kinds == {kind.name for kind in TypeKind}


def test_every_codec_file_version_and_string_encoding_is_covered():
    assert {f"codec:{c}" for c in CODECS} <= set(_features("codec:"))
    assert {f"version:{v}" for v in FILE_VERSIONS} <= set(_features("version:"))
    pairs = {(c.orc_options.file_version, c.orc_options.string_encoding) for c in ORC_CASES}
    assert {(v, e) for v in FILE_VERSIONS for e in STRING_ENCODINGS} <= pairs


def test_each_rle_v2_sub_encoding_has_data_cases_and_a_forced_case():
    tagged = _features(RLE_V2_TAG)
    for sub in RLE_V2_SUB_ENCODINGS:
        assert tagged[f"{RLE_V2_TAG}{sub}:forced"] == 1
        assert tagged[f"{RLE_V2_TAG}{sub}"] >= 2  # data cases and the forced one


def test_rle_v2_cases_are_one_long_column_cited_with_their_sub_encoding():
    for case in ORC_CASES:
        subs = [t.removeprefix(RLE_V2_TAG) for t in case.extra_features if t.startswith(RLE_V2_TAG)]
        if not subs:
            continue
        assert len(subs) == 1 and [T.orc_kind(f.type) for f in case.schema] == ["LONG"]
        assert case.orc_options.file_version == "0.12"
        assert sections.RLE_V2_SUB_ENCODINGS[subs[0]] in case.spec


def test_stripe_and_index_cases_exercise_their_options():
    features = {case.id: set(case.features) for case in stripes.cases()}
    assert "stripes:multiple" in features["orc/stripes/one-row-each"]
    assert "stripes:multiple" in features["orc/stripes/last-stripe-one-row"]
    assert "row_index:none" in features["orc/stripes/row-index-none"]
    stride = {c.id: c for c in stripes.cases()}["orc/stripes/row-index-stride"]
    assert len(stride.rows) > 2 * (stride.orc_options.row_index_stride or 0)


def test_char_values_are_padded_and_varchar_values_fit():
    by_id = {c.id: c for c in ORC_CASES}
    for case_id in ("orc/types/char", "orc/types/varchar"):
        case = by_id[case_id]
        (column,) = case.schema
        length = column.type.length
        values = [row[0] for row in case.rows]
        assert all(len(v) == length for v in values) if case_id.endswith("/char") \
            else all(len(v) <= length for v in values)
        assert any(len(v.encode()) > length for v in values)  # lengths count characters


def test_timestamps_cross_the_epoch_and_2015():
    by_id = {c.id: c for c in ORC_CASES}
    fractions = {row[0] for row in by_id["orc/types/timestamp-fractions"].rows}
    assert {-1, -999_999_999, -1_000_000_001} <= fractions
    far = [row[0] for row in by_id["orc/types/timestamp-far"].rows]
    orc_epoch = column_types.nanos(2015, 1, 1)
    assert min(far) < 0 < orc_epoch < max(far) and orc_epoch - 1 in far


def test_dates_cross_the_gregorian_switch():
    dates = {row[0] for row in {c.id: c for c in ORC_CASES}["orc/types/date"].rows}
    gregorian_start = column_types.days(1582, 10, 15)
    assert {gregorian_start - 1, gregorian_start} <= dates and min(dates) < gregorian_start


def test_writer_timezone_and_calendar_are_checked_tagged_and_kept_only_when_set():
    from conformance.cases.orc.options import OrcWriteOptions

    options = OrcWriteOptions(writer_timezone="America/Los_Angeles", calendar="JULIAN_GREGORIAN")
    assert {"timezone:writer", "calendar:JULIAN_GREGORIAN"} <= options.tags(1)
    assert OrcWriteOptions.from_json(options.to_json()) == options
    assert "writer_timezone" not in OrcWriteOptions().to_json()
    assert "calendar" not in OrcWriteOptions().to_json()
    for bad in ({"writer_timezone": "Mars/Olympus"}, {"calendar": "UNKNOWN_CALENDAR"}):
        with pytest.raises(ValueError):
            OrcWriteOptions(**bad)


def test_edge_cases_reach_both_calendars_zones_east_and_west_and_every_integer_width():
    import zoneinfo

    edge = edge_values.cases()
    assert {c.orc_options.calendar for c in edge} >= {"JULIAN_GREGORIAN", "PROLEPTIC_GREGORIAN"}
    zones = {c.orc_options.writer_timezone for c in edge} - {None}
    offsets = {datetime.datetime(2021, 1, 1, tzinfo=zoneinfo.ZoneInfo(z)).utcoffset() for z in zones}
    assert min(offsets) < datetime.timedelta(0) < max(offsets)  # west and east of UTC
    for bits in (8, 16, 32, 64):
        found = set(edge_values.width_boundaries(bits))
        assert all(-(2**k) in found and 2**k - 1 in found for k in range(bits))
    assert 10**38 - 1 in edge_values.decimal_edges(38) and -(10**18 - 1) in edge_values.decimal_edges(18)


def test_julian_cases_hold_no_day_the_hybrid_calendar_skips():
    skipped = range(column_types.days(1582, 10, 5), column_types.days(1582, 10, 15))
    julian = [c for c in edge_values.cases() if c.orc_options.calendar == "JULIAN_GREGORIAN"]
    assert julian
    for case in julian:
        for row in case.rows:
            for f, v in zip(case.schema, row, strict=True):
                day = v if f.type.kind == "date" else v // edge_values.NANOS_PER_DAY
                assert day not in skipped
