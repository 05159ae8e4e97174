"""The ORC case strategies draw valid cases, only what a pair supports, and reach every
branch and value edge they exist for, within a bounded, derandomized draw."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Iterator
from typing import Any

from hypothesis import find, given, settings
from hypothesis import strategies as st

from conformance.cases import Case
from conformance.cases.orc import types as O
from conformance.cases.orc.options import (
    CALENDAR_TAG,
    CALENDARS,
    CODECS,
    FILE_VERSIONS,
    STRING_ENCODINGS,
    WRITER_TIMEZONE_TAG,
)
from conformance.cases.value_edges import days
from conformance.values import DataType, diff_tables
from conformance.values.codec import CANONICAL_NAN_BITS, float_bits, int_range
from reference_impl.orc.columns.time_zones import utc_offset
from tests.support.strategies import values

from .branch_coverage import reach_every_branch
from .orc_strategies import (
    DECIMAL_EDGE_PRECISIONS,
    NANOS_PER_SECOND,
    SCALAR_TYPES,
    _zone,
    cases,
    wall_clock_exists,
)

DRAWS = 150
# At most, for every branch and edge: all are reached in 273 to 889 cases (8 seeds), 143
# derandomized.
MAX_BRANCH_DRAWS = 2_000
GREGORIAN_START = days(1582, 10, 15)
NANOS_PER_HOUR = 3_600 * NANOS_PER_SECOND
STANDARD_TIME_BEFORE = days(1883, 11, 18) * 86_400 * NANOS_PER_SECOND  # the first zones' adoption
INT64_ENDS = frozenset(v + d for v in int_range(64, True) for d in (-1, 0, 1))
# The edges of issue 29 the ORC strategies are for, each named: a writer zone west and east
# of UTC, both calendars with dates and timestamps before 1582 under the hybrid one, the
# wall clocks at each side of a daylight-saving gap and in a repeated hour, the Unix epoch
# and moments before standard time in a zone, decimals at the ends of precisions 18, 19
# and 38 and at scale = precision, and the float bounds statistics must hold.
EDGE_TARGETS = frozenset({
    WRITER_TIMEZONE_TAG, *(CALENDAR_TAG.format(c) for c in CALENDARS),
    "zone:west of UTC", "zone:east of UTC",
    "calendar:JULIAN_GREGORIAN date before 1582", "calendar:JULIAN_GREGORIAN timestamp before 1582",
    "timestamp:daylight-saving gap edge", "timestamp:repeated hour", "timestamp:zone epoch",
    "timestamp:zone before standard time",
    "decimal:38 extreme", "decimal:64-bit boundary", "decimal:scale = precision extreme",
    "float:subnormal", "float:largest finite",
})
TARGETS = frozenset({
    *(f"type:{kind}" for kind in (*SCALAR_TYPES, "LIST", "MAP", "STRUCT", "UNION")),
    *(f"codec:{c}" for c in CODECS), *(f"version:{v}" for v in FILE_VERSIONS),
    *(f"encoding:{e}" for e in STRING_ENCODINGS),
    "compression:block_size", "stripes:multiple", "row_index:none", "row_index:stride",
    "rows:none", "nulls:nested", "float:-0.0", "float:nan payload", "date:before 1582",
    "timestamp:before 1970, sub-second", "decimal:extreme", "text:empty", "char:padded",
    *EDGE_TARGETS,
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


def _float_edges(t: DataType, v: float) -> set[str]:
    edges = set()
    if v == 0 and math.copysign(1, v) < 0:
        edges.add("float:-0.0")
    if math.isnan(v) and float_bits(v) != CANONICAL_NAN_BITS:
        edges.add("float:nan payload")
    if v and math.isfinite(v) and abs(v) < (2.0**-126 if t.bit_width == 32 else 2.0**-1022):
        edges.add("float:subnormal")
    if abs(v) == (float.fromhex("0x1.fffffep127") if t.bit_width == 32 else sys.float_info.max):
        edges.add("float:largest finite")
    return edges


def _decimal_edges(t: DataType, v: int) -> set[str]:
    precision, extreme = t.decimal_precision, abs(v) == 10**t.decimal_precision - 1
    edges = {name for name, holds in (
        ("decimal:extreme", extreme),
        ("decimal:38 extreme", extreme and precision == max(DECIMAL_EDGE_PRECISIONS)),
        ("decimal:64-bit boundary", precision in DECIMAL_EDGE_PRECISIONS[:2]
         and (extreme or v in INT64_ENDS)),
        ("decimal:scale = precision extreme", extreme and t.decimal_scale == precision)) if holds}
    return edges


def _wall_seconds(zone: str, instant: int) -> int:
    return instant + utc_offset(_zone(zone), instant)


def _zone_edges(t: DataType, v: int, zone: str) -> set[str]:
    """What a TIMESTAMP wall clock, or a TIMESTAMP_INSTANT, is in the writer's zone."""
    seconds, fraction = divmod(v, NANOS_PER_SECOND)
    z = _zone(zone)
    instant = seconds if t.utc else seconds - utc_offset(z, seconds - utc_offset(z, seconds))
    wall = _wall_seconds(zone, instant)
    wall_nanos = wall * NANOS_PER_SECOND + fraction
    hour = NANOS_PER_HOUR // NANOS_PER_SECOND
    return {name for name, holds in (
        ("timestamp:daylight-saving gap edge",
         not all(wall_clock_exists(wall_nanos + d, zone) for d in (-1, 1))),
        ("timestamp:repeated hour", any(_wall_seconds(zone, instant + d) == wall for d in (hour, -hour))),
        ("timestamp:zone epoch", instant == 0),
        ("timestamp:zone before standard time", v < STANDARD_TIME_BEFORE)) if holds}


def value_edges(t: DataType | None, v: Any, case: Case) -> set[str]:
    if t is None:
        return {"nulls:nested"}
    options, edges = case.orc_options, set()
    julian = options.calendar == "JULIAN_GREGORIAN"
    if t.kind == "float":
        edges |= _float_edges(t, v)
    elif t.kind == "date" and v < GREGORIAN_START:
        edges |= {"date:before 1582"} | ({"calendar:JULIAN_GREGORIAN date before 1582"} if julian else set())
    elif t.kind == "timestamp":
        if v < 0 and v % 10**9:
            edges.add("timestamp:before 1970, sub-second")
        if julian and v < GREGORIAN_START * 86_400 * NANOS_PER_SECOND:
            edges.add("calendar:JULIAN_GREGORIAN timestamp before 1582")
        if options.writer_timezone not in (None, "UTC"):
            edges |= _zone_edges(t, v, options.writer_timezone)
    elif t.kind == "decimal":
        edges |= _decimal_edges(t, v)
    elif t.kind in ("string", "varchar", "binary") and not v:
        edges.add("text:empty")
    elif t.kind == "char" and v.endswith(" "):
        edges.add("char:padded")
    return edges


def option_edges(case: Case) -> set[str]:
    zone = case.orc_options.writer_timezone
    if zone is None:
        return set()
    offset = utc_offset(_zone(zone), 0)  # at the Unix epoch
    return {"zone:west of UTC"} if offset < 0 else {"zone:east of UTC"} if offset > 0 else set()


def branches(case: Case) -> set[str]:
    seen = set(case.features) | option_edges(case)
    if not case.rows:
        seen.add("rows:none")
    for row in case.rows:
        for f, v in zip(case.schema, row, strict=True):
            for t, leaf in leaves(f.type, v):
                seen |= value_edges(t, leaf, case)
    return seen & TARGETS


@settings(max_examples=DRAWS, derandomize=True, database=None)
@given(cases())
def test_every_drawn_case_validates_and_round_trips_through_json(case):
    assert case.format == "orc" and case.id.startswith("property/")
    restored = Case.from_json(json.loads(json.dumps(case.to_json())))
    assert restored.to_json() == case.to_json()
    assert diff_tables(case.expected, restored.expected) is None  # NaN rows compare by value


def test_every_branch_and_value_edge_of_the_orc_strategies_is_reached():
    reach_every_branch(cases(), branches, TARGETS, MAX_BRANCH_DRAWS)


REFUSED = ("type:UNION", "type:CHAR", "type:TIMESTAMP_INSTANT", "codec:LZO", "version:0.11",
           "stripes:multiple", "row_index:none", "compression:block_size", "encoding:DICTIONARY",
           WRITER_TIMEZONE_TAG, CALENDAR_TAG.format("JULIAN_GREGORIAN"))


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
