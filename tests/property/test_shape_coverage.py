"""The case strategies of both formats reach every table shape of issue 29, item 2, within a
bounded, derandomized draw: a null at each kind of level (a null list, map and struct, a
list of nulls, a null struct in a list, a struct of nulls, a null map value, a null two
containers down), empty lists and maps below the top level, type trees four levels deep,
maps with both zeros as keys, tables of no rows, a row group or stripe per row, and (ORC
only: a Parquet group needs a child, README.md 'Nested Encoding') structs without fields.
The shapes are read off the drawn cases, so a strategy that stops drawing one fails here."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from conformance.cases import Case
from conformance.values import DataType

from . import orc_strategies, strategies
from .branch_coverage import reach_every_branch

# At most: every shape is reached in 29 to 125 Parquet cases and 71 to 152 ORC cases (6 seeds).
MAX_DRAWS = 500
DEEP = 4  # nested levels (list, map, struct, union) of one column's type tree
TARGETS = frozenset({
    "null:list", "null:map", "null:struct", "null:list element", "null:struct in list",
    "null:map value", "null:every struct field", "null:two containers down",
    "empty:list below the top", "empty:map below the top",
    f"depth:{DEEP}", "keys:both zeros", "rows:none", "rows:a row group or stripe each",
})
ORC_TARGETS = TARGETS | {"struct:no fields"}
NESTED = ("list", "map", "struct", "union")


def depth(t: DataType) -> int:
    """How many nested levels the type tree has above its deepest scalar."""
    children = [f.type for f in (t.element, t.key, t.value, *t.fields) if f is not None]
    own = 1 if t.kind in NESTED else 0
    return own + max(map(depth, children), default=0)


def shapes(t: DataType, v: Any, level: int, parent: str | None) -> Iterator[str]:
    """The shapes of value `v` of `t`, `level` containers down, inside a `parent` kind."""
    if v is None:
        if t.kind in ("list", "map", "struct"):
            yield f"null:{t.kind}"
        if parent == "list":
            yield "null:struct in list" if t.kind == "struct" else "null:list element"
        if parent == "map":
            yield "null:map value"
        if level >= 2:
            yield "null:two containers down"
        return
    match t.kind:
        case "list" | "map" if not v and level >= 1:
            yield f"empty:{t.kind} below the top"
        case "list":
            for e in v:
                yield from shapes(t.list_element.type, e, level + 1, "list")
        case "map":
            keys = [k for k, _ in v]
            if any(k == 0 and math.copysign(1, k) < 0 for k in keys if isinstance(k, float)) \
                    and any(k == 0 and math.copysign(1, k) > 0 for k in keys if isinstance(k, float)):
                yield "keys:both zeros"
            for _, x in v:
                yield from shapes(t.map_value.type, x, level + 1, "map")
        case "struct" if not t.fields:
            yield "struct:no fields"
        case "struct":
            if all(v[f.name] is None for f in t.fields):
                yield "null:every struct field"
            for f in t.fields:
                yield from shapes(f.type, v[f.name], level + 1, "struct")
        case "union":
            yield from shapes(t.fields[v[0]].type, v[1], level + 1, "union")


def branches(case: Case) -> set[str]:
    seen = {f"depth:{DEEP}" for f in case.schema if depth(f.type) >= DEEP}
    for row in case.rows:
        for f, v in zip(case.schema, row, strict=True):
            seen.update(shapes(f.type, v, 0, None))
    if not case.rows:
        seen.add("rows:none")
    per_row = getattr(case.options, "row_group_size", None) or getattr(case.options, "stripe_row_limit", None)
    if per_row == 1 and len(case.rows) > 1:
        seen.add("rows:a row group or stripe each")
    return seen


def test_the_parquet_case_strategies_reach_every_shape():
    reach_every_branch(strategies.cases(), branches, TARGETS, MAX_DRAWS)


def test_the_orc_case_strategies_reach_every_shape():
    reach_every_branch(orc_strategies.cases(), branches, ORC_TARGETS, MAX_DRAWS)
