"""WriteOptions for statistics, page index, bloom filters and page checksums, and the
case-level predicate field."""

from __future__ import annotations

import json

import pytest

from conformance.cases import Case, WriteOptions, all_cases
from conformance.cases.predicate import Predicate
from conformance.values import Field, Schema
from conformance.values import types as T

SCHEMA = Schema((Field("x", T.integer(32)), Field("s", T.string()),
                 Field("l", T.list_of(T.integer(32)))))
ROWS = ((1, "a", [1]), (2, None, None), (None, "c", []))


def _case(predicate=None, **options) -> Case:
    return Case("test/meta", "meta", (), SCHEMA, ROWS, WriteOptions(**options), predicate=predicate)


METADATA_AREAS = ("statistics/", "page_index/", "bloom_filter/", "checksum/", "encryption/",
                  "column_orders/", "geospatial/", "edge/")


def test_defaults_leave_the_older_catalogue_areas_unchanged():
    o = WriteOptions()
    assert (o.statistics, o.statistics_truncate_length, o.page_index, o.bloom_filter_columns,
            o.bloom_filter_ndv, o.bloom_filter_fpp, o.page_checksum, o.lies) == (
        None, None, None, (), None, None, None, ())
    new_tags = {"statistics", "statistics:none", "statistics:truncate", "page_index", "bloom",
                "crc", "predicate"}
    for case in all_cases():
        if case.id.startswith(METADATA_AREAS) or case.format != "parquet":
            continue
        assert not new_tags & set(case.features), case.id
        assert case.predicate is None


@pytest.mark.parametrize(("options", "tags"), [
    ({"statistics": True}, {"statistics"}),
    ({"statistics": False}, {"statistics:none"}),
    ({"statistics_truncate_length": 8}, {"statistics:truncate"}),
    ({"statistics": True, "statistics_truncate_length": 8}, {"statistics", "statistics:truncate"}),
    ({"page_index": True}, {"page_index"}),
    ({"page_index": False}, set()),
    ({"bloom_filter_columns": ("x",)}, {"bloom"}),
    ({"bloom_filter_columns": ("x", "s"), "bloom_filter_ndv": 10, "bloom_filter_fpp": 0.01},
     {"bloom"}),
    ({"page_checksum": True}, {"crc"}),
    ({"page_checksum": False}, set()),
])
def test_tags_appear_only_when_requested(options, tags):
    new_tags = {"statistics", "statistics:none", "statistics:truncate", "page_index", "bloom",
                "crc"}
    assert set(_case(**options).features) & new_tags == tags


@pytest.mark.parametrize("options", [
    {"statistics": 1},
    {"page_index": "yes"},
    {"page_checksum": 0},
    {"statistics_truncate_length": 0},
    {"statistics_truncate_length": -3},
    {"statistics_truncate_length": True},
    {"statistics_truncate_length": 8.0},
    {"statistics": False, "statistics_truncate_length": 8},
    {"bloom_filter_columns": ["x"]},
    {"bloom_filter_columns": "x"},
    {"bloom_filter_columns": ("x", "x")},
    {"bloom_filter_columns": ("",)},
    {"bloom_filter_ndv": 10},
    {"bloom_filter_fpp": 0.01},
    {"bloom_filter_columns": ("x",), "bloom_filter_ndv": 0},
    {"bloom_filter_columns": ("x",), "bloom_filter_fpp": 0.0},
    {"bloom_filter_columns": ("x",), "bloom_filter_fpp": 1.0},
    {"bloom_filter_columns": ("x",), "bloom_filter_fpp": float("nan")},
])
def test_invalid_options_are_refused(options):
    with pytest.raises(ValueError):
        WriteOptions(**options)


def test_bloom_filter_columns_must_be_primitive_top_level_columns():
    with pytest.raises(ValueError, match="not a top-level column"):
        _case(bloom_filter_columns=("nope",))
    with pytest.raises(ValueError, match="nested"):
        _case(bloom_filter_columns=("l",))


def test_to_json_is_json():
    case = _case(Predicate("x", ">=", 2), statistics=True, statistics_truncate_length=16,
                 page_index=True, bloom_filter_columns=("x", "s"), bloom_filter_ndv=100,
                 bloom_filter_fpp=0.05, page_checksum=True)
    doc = json.loads(json.dumps(case.to_json()))
    assert doc["options"]["bloom_filter_columns"] == ["x", "s"]
    assert doc["options"]["statistics_truncate_length"] == 16
    assert doc["options"]["bloom_filter_fpp"] == 0.05
    assert doc["predicate"] == {"column": "x", "op": ">=", "value": 2}
    assert {"statistics", "statistics:truncate", "page_index", "bloom", "crc",
            "predicate"} <= set(doc["features"])
    assert "predicate" not in _case().to_json()


def test_a_case_checks_its_predicate():
    assert _case(Predicate("x", "<", 2)).filtered.rows == ((1, "a", [1]),)
    with pytest.raises(ValueError, match="not a top-level column"):
        _case(Predicate("y", "<", 2))
    with pytest.raises(ValueError, match="nested"):
        _case(Predicate("l", "is_null"))
    with pytest.raises(ValueError, match="expected int"):
        _case(Predicate("x", "<", "2"))
    with pytest.raises(ValueError, match="no predicate"):
        _ = _case().filtered
