"""Compound ORC columns: list, map, struct and union, alone and nested in each other,
with nulls at every level.

Spec: ORCv1.md, 'Type Information' (the type tree, flattened in pre-order) and 'Struct
Columns', 'List Columns', 'Map Columns', 'Union Columns' of 'Column Encodings'. A
compound column's PRESENT stream says which of its values are null, and its children
hold values only for the present ones; a list's or map's LENGTH stream counts its
entries, a union's tag stream names the child each value is taken from.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from conformance.values import DataType, Field, Schema

from ..model import Case
from . import sections as S
from . import types as T
from .column_types import single_column
from .options import OrcWriteOptions

AREA = "orc/nested"

_POINT = T.struct_of(Field("x", T.integer(32)), Field("label", T.string()))
_INT_OR_STRING = T.union_of(T.integer(64), T.string())

# Each entry: (name, title, type, values, sections beyond 'Type Information').
_NESTED: list[tuple[str, str, DataType, list[Any], tuple[str, ...]]] = [
    ("list", "LIST<INT>: null list, empty list, null elements", T.list_of(T.integer(32)),
     [[1, 2, 3], [], None, [None], [4, None, 5], [-(2**31), 2**31 - 1]], (S.LIST_COLUMNS,)),
    ("list-of-strings", "LIST<STRING>: empty strings and lists", T.list_of(T.string()),
     [["a", "", "日本"], [], None, [""], [None, "z"]], (S.LIST_COLUMNS, S.STRING_COLUMNS)),
    ("map", "MAP<STRING,INT>: null map, empty map, null values",
     T.map_of(T.string(), T.integer(32)),
     [[("a", 1), ("b", None)], [], None, [("", 3)], [("k", -1), ("l", 0), ("m", 1)]],
     (S.MAP_COLUMNS,)),
    ("map-int-keys", "MAP<BIGINT,STRING>: integer keys", T.map_of(T.integer(64), T.string()),
     [[(2**63 - 1, "max"), (-(2**63), "min")], [(0, None)], None, []], (S.MAP_COLUMNS,)),
    ("struct", "STRUCT<x:INT,label:STRING>: null struct, null fields", _POINT,
     [{"x": 1, "label": "a"}, None, {"x": None, "label": None}, {"x": 2, "label": None},
      {"x": None, "label": ""}], (S.STRUCT_COLUMNS,)),
    ("union", "UNIONTYPE<BIGINT,STRING>: each alternative, null union, null alternative",
     _INT_OR_STRING,
     [(0, 1), (1, "a"), None, (0, None), (1, None), (1, ""), (0, -(2**63))], (S.UNION_COLUMNS,)),
    ("list-of-struct", "LIST<STRUCT<x:INT,label:STRING>>", T.list_of(_POINT),
     [[{"x": 1, "label": "a"}, None, {"x": None, "label": "b"}], [], None,
      [{"x": 3, "label": None}]], (S.LIST_COLUMNS, S.STRUCT_COLUMNS)),
    ("map-of-list", "MAP<STRING,LIST<INT>>: null, empty and full lists as values",
     T.map_of(T.string(), T.list_of(T.integer(32))),
     [[("a", [1, 2]), ("b", None), ("c", [])], None, [], [("d", [None, 4])]],
     (S.MAP_COLUMNS, S.LIST_COLUMNS)),
    ("struct-of-map", "STRUCT<m:MAP<STRING,DOUBLE>,n:LIST<STRING>>",
     T.struct_of(Field("m", T.map_of(T.string(), T.floating(64))),
                 Field("n", T.list_of(T.string()))),
     [{"m": [("pi", 3.25), ("nan", None)], "n": ["x"]}, {"m": None, "n": None}, None,
      {"m": [], "n": []}], (S.STRUCT_COLUMNS, S.MAP_COLUMNS, S.LIST_COLUMNS)),
    ("list-of-union", "LIST<UNIONTYPE<BIGINT,STRING>>: a union inside a list",
     T.list_of(_INT_OR_STRING),
     [[(0, 7), (1, "seven"), None], [], None, [(1, None), (0, None)]],
     (S.LIST_COLUMNS, S.UNION_COLUMNS)),
    ("list-of-list", "LIST<LIST<INT>>: nulls and empties at both depths",
     T.list_of(T.list_of(T.integer(32))),
     [[[1], [], None, [2, None]], [], None, [[]], [None]], (S.LIST_COLUMNS,)),
    ("struct-deep", "STRUCT<s:STRUCT<t:STRUCT<v:BIGINT>>>: a null at each depth",
     T.struct_of(Field("s", T.struct_of(Field("t", T.struct_of(Field("v", T.integer(64))))))),
     [{"s": {"t": {"v": 1}}}, {"s": {"t": {"v": None}}}, {"s": {"t": None}}, {"s": None}, None],
     (S.STRUCT_COLUMNS,)),
    ("list-all-null", "LIST<INT> where every list is null", T.list_of(T.integer(32)),
     [None] * 5, (S.LIST_COLUMNS,)),
]

_ZERO_ROWS_TYPES = ("list", "map", "struct", "union")


def _spec(extra: Sequence[str]) -> tuple[str, ...]:
    return (S.TYPE_INFORMATION, *extra)


def _zero_rows() -> Case:
    fields = tuple(Field(name, t) for name, _, t, _, _ in _NESTED if name in _ZERO_ROWS_TYPES)
    return Case(f"{AREA}/zero-rows", "LIST, MAP, STRUCT and UNION columns, no rows",
                _spec((S.LIST_COLUMNS, S.MAP_COLUMNS, S.STRUCT_COLUMNS, S.UNION_COLUMNS)),
                Schema(fields), (), OrcWriteOptions(), extra_features=("rows:0",), format="orc")


def cases() -> list[Case]:
    out = [single_column(f"{AREA}/{name}", title, t, values, _spec(spec),
                         extra=("nulls:all",) if all(v is None for v in values) else ())
           for name, title, t, values, spec in _NESTED]
    return [*out, _zero_rows()]
