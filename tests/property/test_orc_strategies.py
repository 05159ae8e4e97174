"""The ORC case strategies draw valid cases, only what a pair supports, and reach every
branch and value edge they exist for, within a bounded, derandomized draw."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from typing import Any

from hypothesis import find, given, settings
from hypothesis import strategies as st

from conformance.cases import Case
from conformance.cases.orc import types as O
from conformance.cases.orc.options import CODECS, FILE_VERSIONS, STRING_ENCODINGS
from conformance.values import DataType, diff_tables
from conformance.values.codec import CANONICAL_NAN_BITS, float_bits
from tests.support.strategies import values

from .branch_coverage import reach_every_branch
from .orc_strategies import SCALAR_TYPES, _days, cases

DRAWS = 150
GREGORIAN_START = _days(1582, 10, 15)
TARGETS = frozenset({
    *(f"type:{kind}" for kind in (*SCALAR_TYPES, "LIST", "MAP", "STRUCT", "UNION")),
    *(f"codec:{c}" for c in CODECS), *(f"version:{v}" for v in FILE_VERSIONS),
    *(f"encoding:{e}" for e in STRING_ENCODINGS),
    "compression:block_size", "stripes:multiple", "row_index:none", "row_index:stride",
    "rows:none", "nulls:nested", "float:-0.0", "float:nan payload", "date:before 1582",
    "timestamp:before 1970, sub-second", "decimal:extreme", "text:empty", "char:padded",
})


def leaves(t: DataType, v: Any, top: bool = True) -> Iterator[tuple[DataType | None, Any]]:
    """(type, value) of every scalar value in `v`; (None, None) for a nested null."""
    if v is None:
        if not top:
            yield None, None
        return
    match t.kind:
        case "list":
            children = [(t.list_element.type, e) for e in v]
        case "map":
            children = [c for k, x in v for c in ((t.map_key.type, k), (t.map_value.type, x))]
        case "struct":
            children = [(f.type, v[f.name]) for f in t.fields]
        case "union":
            children = [(t.fields[v[0]].type, v[1])]
        case _:
            yield t, v
            return
    for child_type, child in children:
        yield from leaves(child_type, child, False)


def value_edges(t: DataType | None, v: Any) -> set[str]:
    if t is None:
        return {"nulls:nested"}
    edges = set()
    if t.kind == "float":
        edges.add("float:-0.0" if v == 0 and math.copysign(1, v) < 0 else "")
        edges.add("float:nan payload" if math.isnan(v) and float_bits(v) != CANONICAL_NAN_BITS else "")
    elif t.kind == "date" and v < GREGORIAN_START:
        edges.add("date:before 1582")
    elif t.kind == "timestamp" and v < 0 and v % 10**9:
        edges.add("timestamp:before 1970, sub-second")
    elif t.kind == "decimal" and abs(v) == 10**t.decimal_precision - 1:
        edges.add("decimal:extreme")
    elif t.kind in ("string", "varchar", "binary") and not v:
        edges.add("text:empty")
    elif t.kind == "char" and v.endswith(" "):
        edges.add("char:padded")
    return edges


def branches(case: Case) -> set[str]:
    seen = set(case.features)
    if not case.rows:
        seen.add("rows:none")
    for row in case.rows:
        for f, v in zip(case.schema, row, strict=True):
            for t, leaf in leaves(f.type, v):
                seen |= value_edges(t, leaf)
    return seen & TARGETS


@settings(max_examples=DRAWS, derandomize=True, database=None)
@given(cases())
def test_every_drawn_case_validates_and_round_trips_through_json(case):
    assert case.format == "orc" and case.id.startswith("property/")
    restored = Case.from_json(json.loads(json.dumps(case.to_json())))
    assert restored.to_json() == case.to_json()
    assert diff_tables(case.expected, restored.expected) is None  # NaN rows compare by value


def test_every_branch_and_value_edge_of_the_orc_strategies_is_reached():
    reach_every_branch(cases(), branches, TARGETS, DRAWS)


REFUSED = ("type:UNION", "type:CHAR", "type:TIMESTAMP_INSTANT", "codec:LZO", "version:0.11",
           "stripes:multiple", "row_index:none", "compression:block_size", "encoding:DICTIONARY")


@settings(max_examples=DRAWS, derandomize=True, database=None)
@given(cases(lambda tag: tag not in REFUSED))
def test_a_case_holds_only_what_the_pair_supports(case):
    assert not set(case.features) & set(REFUSED)


@settings(max_examples=DRAWS, derandomize=True, database=None)
@given(st.data(), st.integers(1, 5))
def test_char_values_fill_their_length_and_varchar_values_stay_within_it(data, length):
    char = data.draw(values(O.char(length), nullable=False))
    varchar = data.draw(values(O.varchar(length), nullable=False))
    assert len(char) == length and len(varchar) <= length


def test_a_union_value_names_its_alternative():
    union = O.union_of(O.integer(8), O.string())
    found = find(values(union, nullable=False), lambda v: v[0] == 1 and v[1] is not None)
    assert isinstance(found[1], str)
    assert find(values(union, nullable=False), lambda v: v[0] == 0 and v[1] is None) == (0, None)
