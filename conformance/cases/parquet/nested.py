"""Nested data: LIST, MAP and structs, nulls and empty collections at every level,
and the legacy shapes readers must still understand.

Spec: LogicalTypes.md "Nested Types", "Lists", "Maps" and their
"Backward-compatibility rules"; README.md "Nested Encoding"
(definition and repetition levels). Standard cases are written in the 3-level
form; `legacy/*` cases ask for a legacy layout (`WriteOptions.nested_style`),
which only a writer that can produce it (the reference) writes.
"""

from __future__ import annotations

from typing import Any

from conformance.values import Field, Schema
from conformance.values import types as T

from ..model import Case, WriteOptions

SPEC_NESTED = "README.md: Nested Encoding"
SPEC_LISTS = "LogicalTypes.md: Lists"
SPEC_MAPS = "LogicalTypes.md: Maps"
SPEC_LIST_COMPAT = "LogicalTypes.md: Lists, Backward-compatibility rules"
SPEC_MAP_COMPAT = "LogicalTypes.md: Maps, Backward-compatibility rules"

POINT = T.struct_of(Field("x", T.integer(32), True), Field("label", T.string(), True))


def _case(name: str, title: str, spec: tuple[str, ...], field: Field, values: list[Any],
          options: WriteOptions | None = None) -> Case:
    # An id column beside the nested one: readers must keep rows aligned across leaves.
    schema = Schema((Field("id", T.integer(32), False), field))
    return Case(id=f"nested/{name}", title=title, spec=(SPEC_NESTED, *spec), schema=schema,
                rows=tuple((i, v) for i, v in enumerate(values)),
                options=options or WriteOptions())


def _standard() -> list[Case]:
    return [
        _case("list-int32", "optional list of optional INT32: null list, empty list, null element",
              (SPEC_LISTS,), Field("l", T.list_of(T.integer(32)), True),
              [[1, None, 2], [], None, [3], [None], [None, None, 4]]),
        _case("list-required", "required list of required strings", (SPEC_LISTS,),
              Field("l", T.list_of(T.string(), element_nullable=False), False),
              [["a"], [], ["b", "", "c"], ["日本"]]),
        _case("list-of-lists", "list of lists of INT64, empty and null at both levels",
              (SPEC_LISTS,), Field("l", T.list_of(T.list_of(T.integer(64))), True),
              [[[1, 2], [], None, [None]], [], None, [[3]], [None, [4, 5, 6]]]),
        _case("list-of-structs", "list of structs with nulls inside and around", (SPEC_LISTS,),
              Field("l", T.list_of(POINT), True),
              [[{"x": 1, "label": "a"}, None, {"x": None, "label": None}], [], None,
               [{"x": 2, "label": "b"}]]),
        _case("map-string-int32", "map<string, INT32>: null values, empty and null maps",
              (SPEC_MAPS,), Field("m", T.map_of(T.string(), T.integer(32)), True),
              [[("a", 1), ("b", None)], [], None, [("c", 3)], [("", 0)]]),
        _case("map-of-structs", "map<INT32, struct> with null structs", (SPEC_MAPS,),
              Field("m", T.map_of(T.integer(32), POINT), True),
              [[(1, {"x": 1, "label": "one"}), (2, None)], [], None,
               [(3, {"x": None, "label": "three"})]]),
        _case("map-of-lists", "map<string, list<double>>", (SPEC_MAPS, SPEC_LISTS),
              Field("m", T.map_of(T.string(), T.list_of(T.floating(64))), True),
              [[("a", [1.5, None]), ("b", []), ("c", None)], None, []]),
        _case("struct-nested", "struct with an optional inner struct holding a list",
              ("LogicalTypes.md: Nested Types",),
              Field("s", T.struct_of(
                  Field("a", T.integer(32), True),
                  Field("inner", T.struct_of(Field("c", T.string(), True),
                                             Field("d", T.list_of(T.integer(32)), True)), True)),
                  True),
              [{"a": 1, "inner": {"c": "x", "d": [1, None]}}, {"a": None, "inner": None}, None,
               {"a": 2, "inner": {"c": None, "d": None}}, {"a": 3, "inner": {"c": "y", "d": []}}]),
        _case("struct-required-fields", "required struct of required fields",
              ("LogicalTypes.md: Nested Types",),
              Field("s", T.struct_of(Field("a", T.integer(64), False),
                                     Field("b", T.boolean(), False)), False),
              [{"a": 1, "b": True}, {"a": -1, "b": False}]),
        _case("list-many-pages", "a list column split over pages of 3 rows", (SPEC_LISTS,),
              Field("l", T.list_of(T.integer(32)), True),
              [[i] * (i % 4) if i % 5 else None for i in range(40)],
              WriteOptions(page_row_limit=3)),
    ]


def _legacy() -> list[Case]:
    ints = [[1, 2], [], [3]]  # legacy lists hold required elements: no nulls inside
    return [
        _case("legacy-two-level-list", "2-level list: repeated INT32 inside a LIST group",
              (SPEC_LIST_COMPAT,), Field("l", T.list_of(T.integer(32), element_nullable=False), True),
              [*ints, None], WriteOptions(nested_style="two_level")),
        _case("legacy-array-list", "2-level list whose repeated INT32 is named 'array'", (SPEC_LIST_COMPAT,),
              Field("l", T.list_of(T.integer(32), element_nullable=False), True),
              [*ints, None], WriteOptions(nested_style="array")),
        _case("legacy-tuple-list", "2-level list whose repeated INT32 is named '<list>_tuple'",
              (SPEC_LIST_COMPAT,), Field("l", T.list_of(T.integer(32), element_nullable=False), True),
              [*ints, None], WriteOptions(nested_style="tuple")),
        _case("legacy-unannotated-repeated", "a repeated INT32 with no LIST annotation",
              (SPEC_LIST_COMPAT,), Field("l", T.list_of(T.integer(32), element_nullable=False),
                                         False),
              ints, WriteOptions(nested_style="unannotated")),
        _case("legacy-map-key-value", "MAP_KEY_VALUE-annotated key_value group", (SPEC_MAP_COMPAT,),
              Field("m", T.map_of(T.string(), T.integer(32)), True),
              [[("a", 1)], [], None], WriteOptions(nested_style="map_key_value")),
        _case("legacy-misnamed-map", "MAP whose key_value, key and value fields have other names",
              (SPEC_MAP_COMPAT,), Field("m", T.map_of(T.string(), T.integer(32)), True),
              [[("a", 1), ("b", None)], [], None], WriteOptions(nested_style="misnamed")),
    ]


def cases() -> list[Case]:
    return _standard() + _legacy()
