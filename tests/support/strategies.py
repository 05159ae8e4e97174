"""Hypothesis strategies for canonical types and values (edge-biased).

Every scalar value strategy is a draw among its type's edges (`conformance.cases.value_edges`,
`conformance.cases.float_edges`: the values the catalogue's edge/ cases write) and a uniform
draw over the whole type; decimal types lean to each physical type's largest precision and to
scales 0 and = precision. `tests/property/test_edge_coverage.py` fails when a draw stops
reaching one of the edges.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import struct
from collections.abc import Callable

from hypothesis import strategies as st

from conformance.cases import value_edges as E
from conformance.cases.float_edges import finite_edges, nan_payloads
from conformance.values import Field, semantic_key
from conformance.values import types as T
from conformance.values.codec import INTERVAL_FIELD_MAX, float_from_bits, int_range
from reference_impl.parquet.metadata.parquet_thrift import Type
from reference_impl.parquet.schema.type_rules import decimal_max_precision

# The most digits a DECIMAL may have on each physical type (LogicalTypes.md, 'DECIMAL'); on
# FIXED_LEN_BYTE_ARRAY and BYTE_ARRAY the strategies' own bound (16 bytes; Arrow's decimal128).
INT32_DECIMAL_DIGITS = decimal_max_precision(Type.INT32, None) or 0
INT64_DECIMAL_DIGITS = decimal_max_precision(Type.INT64, None) or 0
DECIMAL_MAX_DIGITS = 38
MAX_FIXED_LENGTH = 20  # bytes of a drawn FIXED_LEN_BYTE_ARRAY


EDGE_SHARE = 3  # of every EDGE_SHARE + 1 draws of a scalar, about this many are edges


def _edged(edges, uniform: st.SearchStrategy) -> st.SearchStrategy:
    """One of `edges` (EDGE_SHARE times as often) or a uniform draw."""
    return st.one_of(*[st.sampled_from(list(edges))] * EDGE_SHARE, uniform)


Accept = Callable[[T.DataType], bool]  # whether a scalar type may be drawn


@dataclasses.dataclass(frozen=True)
class TypeGroup:
    """Scalar types drawn as one branch: each of `types` equally often, or by `draw` (a
    strategy over exactly `types`) where their draw leans to some."""

    types: tuple[T.DataType, ...]
    draw: st.SearchStrategy[T.DataType] | None = None

    def accepted(self, accept: Accept) -> st.SearchStrategy[T.DataType] | None:
        """The group's types `accept` takes (None: none), known before the draw, so that a
        draw is never thrown away for an unaccepted type."""
        kept = tuple(filter(accept, self.types))
        if not kept:
            return None
        if self.draw is None:
            return st.sampled_from(kept)
        return self.draw if len(kept) == len(self.types) else self.draw.filter(accept)


def _decimals(physical: str, max_precision: int) -> TypeGroup:
    """DECIMAL types; the largest precision and the scales 0 and = precision are edges."""
    draw = _edged([max_precision], st.integers(1, max_precision)).flatmap(
        lambda p: _edged([0, p], st.integers(0, p)).map(lambda s: T.decimal(p, s, physical)))
    types = tuple(T.decimal(p, s, physical) for p in range(1, max_precision + 1) for s in range(p + 1))
    return TypeGroup(types, draw)


def _group(*types: T.DataType) -> TypeGroup:
    return TypeGroup(types)


# Scalar types by the physical type they are stored as (parquet.thrift `enum Type`), in
# groups drawn equally often; VARIANT is a group of two BYTE_ARRAY leaves. UNKNOWN is left
# out: its values are always null, so it fits nullable fields only (see `values`).
SCALAR_TYPES_BY_PHYSICAL: dict[str, tuple[TypeGroup, ...]] = {
    "BOOLEAN": (_group(T.boolean()),),
    "INT32": (_group(*(T.integer(bits, signed) for bits in (8, 16, 32) for signed in (True, False))),
              _group(T.date()), _group(T.time("ms", True), T.time("ms", False)),
              _decimals("INT32", INT32_DECIMAL_DIGITS)),
    "INT64": (_group(T.integer(64, True), T.integer(64, False)),
              _group(*(T.time(unit, utc) for unit in ("us", "ns") for utc in (True, False))),
              _group(*(T.timestamp(unit, utc) for unit in T.TIME_UNITS for utc in (True, False))),
              _decimals("INT64", INT64_DECIMAL_DIGITS)),
    "INT96": (_group(T.int96()),),
    "FLOAT": (_group(T.floating(32)),),
    "DOUBLE": (_group(T.floating(64)),),
    # The unannotated and STRING types as often as all the others together, so that their
    # edges are drawn often: the other annotations' values are documents of their own.
    "BYTE_ARRAY": (
        _group(T.binary(), T.string()),
        _group(T.enum(), T.json_type(), T.bson(), T.variant(), T.geometry(),
               T.geometry("EPSG:4326"), T.geography(), T.geography("OGC:CRS84", "VINCENTY")),
        _decimals("BYTE_ARRAY", DECIMAL_MAX_DIGITS)),
    "FIXED_LEN_BYTE_ARRAY": (
        _group(*map(T.fixed, range(1, MAX_FIXED_LENGTH + 1))), _group(T.floating(16)),
        _group(T.uuid(), T.interval()), _decimals("FIXED_LEN_BYTE_ARRAY", DECIMAL_MAX_DIGITS)),
}


def _everything(t: T.DataType) -> bool:
    return True


def scalar_types_on(physical_types, accept: Accept = _everything) -> st.SearchStrategy:
    """Scalar types stored as one of `physical_types` that `accept` takes: each physical type
    equally often, then each of its groups that holds one."""
    on_physical = []
    for physical in physical_types:
        groups = [s for g in SCALAR_TYPES_BY_PHYSICAL[physical] if (s := g.accepted(accept)) is not None]
        if groups:
            on_physical.append(st.one_of(groups))
    return st.one_of(on_physical)


scalar_types = scalar_types_on(SCALAR_TYPES_BY_PHYSICAL)


def _nested(children):
    fields = st.builds(Field, st.text(min_size=1, max_size=5), children, st.booleans())
    return st.one_of(
        st.builds(T.list_of, children, st.booleans()),
        st.builds(T.map_of, scalar_types, children, st.booleans()),
        st.lists(fields, min_size=1, max_size=3, unique_by=lambda f: f.name)
          .map(lambda fs: T.struct_of(*fs)),
    )


any_types = st.recursive(scalar_types, _nested, max_leaves=6)


def _ints(bits: int, signed: bool):
    return _edged(E.int_edges(bits, signed), st.integers(*int_range(bits, signed)))


def _floats(bits: int):
    """Zeros, infinities, the finite edges of both signs and the NaN payloads of the width
    (float_edges), or any bit pattern (a narrow width's NaNs only as edges: the hardware
    widening of a narrow NaN is not its canonical double)."""
    finite = finite_edges(bits)
    edges = [0.0, -0.0, math.inf, -math.inf, math.nan, *finite, *(-x for x in finite),
             *nan_payloads(bits)]
    if bits == 64:
        return _edged(edges, st.integers(0, 2**64 - 1).map(float_from_bits))
    fmt = {16: "<e", 32: "<f"}[bits]
    width = bits // 8
    as_float = st.binary(min_size=width, max_size=width).map(
        lambda b: struct.unpack(fmt, b)[0]).filter(lambda x: not math.isnan(x))
    return _edged(edges, as_float)


def _decimal_values(t: T.DataType):
    bound = 10**t.decimal_precision - 1
    return _edged(E.decimal_edges(t.decimal_precision), st.integers(-bound, bound))


def _bytes():
    """BYTE_ARRAY values: the edges, a long value, values equal but in their last byte
    (two draws of one column often share the prefix), or any short bytes."""
    last_byte_twins = st.sampled_from(E.last_byte_variants(E.LAST_BYTE_PREFIX))
    long_value = st.builds(lambda: E.LONG_BYTES)  # (st.just would repr its 4 KiB in every example)
    return st.one_of(st.sampled_from(E.BYTE_EDGES), last_byte_twins, long_value, st.binary(max_size=20))


def _texts(max_size: int = 20):
    """Text of at most `max_size` characters: the edges that fit, or any text."""
    return _edged([s for s in E.STRING_EDGES if len(s) <= max_size], st.text(max_size=max_size))


def _instants(unit: str):
    """Counts of `unit` since the epoch: a named day's midnight or the unit before it, or the
    epoch's neighbours (`calendar_instants`, often), the INT64 ends, or any."""
    lo, hi = int_range(64, True)
    named = st.sampled_from(E.calendar_instants(unit))
    ends = st.sampled_from([lo, lo + 1, -1, 0, 1, hi - 1, hi])
    return st.one_of(*[named] * (EDGE_SHARE - 1), ends, st.integers(lo, hi))


def _days():
    int32_ends = int_range(32, True)
    return _edged([*E.DATE_EDGE_DAYS.values(), *int32_ends], st.integers(*int32_ends))


# Values of the annotated byte-array types are documents of their own format
# (LogicalTypes.md "JSON", "BSON", "Geometry"): a reader may reject anything else.
json_texts = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=5).map(json.dumps)
BSON_DOCUMENTS = (
    b"\x05\x00\x00\x00\x00",  # {}: int32 total length, then the terminating NUL
    b"\x0c\x00\x00\x00\x10a\x00\x01\x00\x00\x00\x00",  # {"a": int32 1}
)
WKB_POINT = struct.Struct("<BIdd")  # byte order (1: little endian), geometry type, x, y
WKB_POINT_HEADER = (1, 1)  # little endian, Point
SECONDS_PER_DAY = 86_400


# A format's own strategy for some scalar types (None: the common one), e.g. ORC's
# dates around the Gregorian cutover (tests/property/orc_strategies.py).
Special = Callable[[T.DataType], st.SearchStrategy | None]


# Value strategies kept, by (type, nullable, special): building one (and Hypothesis's
# validation of it) costs more than drawing from it, and a type recurs in many draws.
VALUE_STRATEGIES_KEPT = 4_096


def _common(t: T.DataType) -> None:
    return None


@functools.lru_cache(maxsize=VALUE_STRATEGIES_KEPT)
def values(t: T.DataType, nullable: bool = True, special: Special = _common):
    """Canonical values of `t`; None included when nullable. `special` overrides the
    strategy of the scalar types it returns one for, at every level of nesting."""
    own = special(t)
    base = own if own is not None else _non_null_values(t, special)
    return st.one_of(st.none(), base) if nullable else base


def _non_null_values(t: T.DataType, special: Special):
    match t.kind:
        case "boolean":
            return st.booleans()
        case "int":
            return _ints(t.bit_width, t.is_signed)
        case "int96":
            return _instants("ns")
        case "timestamp":
            return _instants(t.time_unit)
        case "date":
            return _days()
        case "time":
            # A time of day (LogicalTypes.md "TIME"): 0 up to a day, exclusive.
            day = SECONDS_PER_DAY * T.UNITS_PER_SECOND[t.time_unit]
            return _edged(E.time_edges(t.time_unit), st.integers(0, day - 1))
        case "float":
            return _floats(t.bit_width)
        case "decimal":
            return _decimal_values(t)
        case "binary":
            return _bytes()
        case "bson":
            return st.sampled_from(BSON_DOCUMENTS)
        case "geometry" | "geography":
            return st.tuples(_floats(64), _floats(64)).map(lambda xy: WKB_POINT.pack(*WKB_POINT_HEADER, *xy))
        case "json":
            return json_texts
        case "variant":
            return st.tuples(st.binary(min_size=1, max_size=8), st.binary(min_size=1, max_size=8))
        case "fixed":
            return _edged(E.fixed_edges(t.byte_length),
                          st.binary(min_size=t.byte_length, max_size=t.byte_length))
        case "string" | "enum":
            return _texts()
        case "char":
            # Stored padded with spaces to the declared length (docs/canonical-values.md).
            return _texts(t.byte_length).map(lambda s: s.ljust(t.byte_length))
        case "varchar":
            return _texts(t.byte_length)
        case "uuid":
            return st.uuids().map(str)
        case "interval":
            part = st.integers(0, INTERVAL_FIELD_MAX)
            return st.tuples(part, part, part)
        case "unknown":
            return st.nothing()
        case "list":
            return st.lists(values(t.list_element.type, t.list_element.nullable, special), max_size=4)
        case "map":
            # Distinct keys: "The MAP annotation should not be used to encode multi-maps"
            # (LogicalTypes.md, "Maps").
            entries = st.lists(st.tuples(values(t.map_key.type, False, special),
                                         values(t.map_value.type, t.map_value.nullable, special)), max_size=4,
                               unique_by=lambda entry: semantic_key(t.map_key.type, entry[0]))
            if t.map_key.type.kind == "float":  # both zeros: keys a lossy reader merges
                value = values(t.map_value.type, t.map_value.nullable, special)
                pair = st.lists(value, min_size=2, max_size=2)
                return st.one_of(entries, pair.map(lambda vs: [(0.0, vs[0]), (-0.0, vs[1])]))
            return entries
        case "struct":
            return st.fixed_dictionaries({f.name: values(f.type, f.nullable, special)
                                          for f in t.fields})
        case "union":
            # (tag, value): the alternative's tag and a value of it, null included.
            return st.one_of(*(values(f.type, f.nullable, special).map(lambda v, tag=tag: (tag, v))
                               for tag, f in enumerate(t.fields)))
    raise AssertionError(t.kind)
