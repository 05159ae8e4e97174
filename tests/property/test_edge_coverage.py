"""The case strategies reach every edge value of every Parquet type (issue 29, item 4):
the edges of `conformance.cases.value_edges` and `float_edges` that the catalogue's edge/
cases write, named by `tests.property.value_edges`, within a bounded, derandomized draw.
A strategy that stops drawing one (an edge list emptied, a type no longer drawn at its
largest precision) fails here, naming the edge, before the hunts silently stop covering it.

The cases are drawn one family of types at a time, as a hunt draws them for a pair of
engines (`cases(supports)`: only that family's leaves, nested or not, and the encodings that
take its physical type), so that every type's values are drawn often enough within the bound
(the draw stops at the case that reaches the last edge)."""

from __future__ import annotations

import pytest

from .branch_coverage import reach_every_branch
from .strategies import ENCODING_PHYSICAL, cases
from .value_edges import case_edges

# Cases per type family at most: every family reaches its edges in 4 to 173 cases (8 seeds),
# 70 derandomized.
MAX_DRAWS = 500


def _named(family: str, *edges: str) -> set[str]:
    return {f"{family}:{edge}" for edge in edges}


BYTE_EDGES = ("empty", "all_zero", "all_ff", "leading_zero", "trailing_zero", "last_byte_pair")
DAY_EDGES = ("epoch", "before_epoch", "after_epoch", "leap_day", "no_leap_1900",
             "gregorian_cutover", "hybrid_skipped_day", "year_1", "year_9999",
             "year_10000_or_later", "before_year_1")
DECIMAL_EDGES = _named("decimal", "largest_unscaled", "smallest_unscaled", "scale_zero",
                       "scale_eq_precision", "max_precision")
INT_EDGES = _named("int", "min", "max", "narrower_boundary", "unsigned_above_signed_max")


def _float_edges(bits: int) -> set[str]:
    return _named(f"float{bits}", "subnormal", "max_finite", "negative_zero", "nan_payload", "infinity")


NESTING = ("type:LIST", "type:MAP", "type:STRUCT")
DAY_TARGETS = {"date": _named("date", *DAY_EDGES),
               "timestamp": _named("timestamp", *DAY_EDGES, "unit_before_named_midnight",
                                   "int64_min", "int64_max")}
# (physical type, the type tags drawn on it, the edges their values must reach): one family
# of types at a time (parquet.thrift `enum Type`; the `type:` tags of `Case.features`).
FAMILIES: dict[str, tuple[str, tuple[str, ...], frozenset[str]]] = {
    "int32": ("INT32", ("type:INT(",), frozenset(INT_EDGES)),
    "int64": ("INT64", ("type:INT(",), frozenset(INT_EDGES)),
    "decimal-int32": ("INT32", ("type:DECIMAL",), frozenset(DECIMAL_EDGES)),
    "decimal-int64": ("INT64", ("type:DECIMAL",), frozenset(DECIMAL_EDGES)),
    "date": ("INT32", ("type:DATE",), frozenset(DAY_TARGETS["date"])),
    "time": ("INT64", ("type:TIME(",), frozenset(_named("time", "midnight", "last_of_day"))),
    "timestamp": ("INT64", ("type:TIMESTAMP(",), frozenset(DAY_TARGETS["timestamp"])),
    # (nanoseconds since the epoch in INT64: 1677-09-21 to 2262-04-11, no cutover of 1582)
    "int96": ("INT96", ("type:INT96",), frozenset(_named(
        "int96", "before_epoch", "after_epoch", "no_leap_1900", "leap_day", "unit_before_named_midnight"))),
    "float": ("FLOAT", ("type:FLOAT",), frozenset(_float_edges(32))),
    "double": ("DOUBLE", ("type:DOUBLE",), frozenset(_float_edges(64))),
    "binary": ("BYTE_ARRAY", ("type:BINARY",), frozenset(_named("binary", *BYTE_EDGES, "long"))),
    "string": ("BYTE_ARRAY", ("type:STRING",), frozenset(_named(
        "string", "empty", "nul", "max_code_point", "bmp_max", "replacement", "supplementary",
        "after_surrogates", "combining", "precomposed", "high_first_byte"))),
    "decimal-byte-array": ("BYTE_ARRAY", ("type:DECIMAL",), frozenset(DECIMAL_EDGES)),
    "fixed": ("FIXED_LEN_BYTE_ARRAY", ("type:FIXED",),
              frozenset(_named("fixed", *(e for e in BYTE_EDGES if e != "empty")))),
    "decimal-fixed": ("FIXED_LEN_BYTE_ARRAY", ("type:DECIMAL",), frozenset(DECIMAL_EDGES)),
    "float16": ("FIXED_LEN_BYTE_ARRAY", ("type:FLOAT16",), frozenset(_float_edges(16))),
}


def only(physical: str, type_prefixes: tuple[str, ...]):
    """`supports` of a hunt whose pair handles leaves of `physical` whose type tag starts with
    one of `type_prefixes` (nested in any LIST, MAP or struct), with every encoding that takes
    `physical`, the writers' default included."""
    def supports(tag: str) -> bool:
        kind, _, name = tag.partition(":")
        if kind == "physical":
            return name == physical
        if kind == "encoding":
            return physical in ENCODING_PHYSICAL[name]
        if kind == "type":
            return tag in NESTING or tag.startswith(type_prefixes)
        return True
    return supports


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_every_edge_value_of_a_type_family_is_reached(family):
    physical, type_prefixes, targets = FAMILIES[family]
    reach_every_branch(cases(only(physical, type_prefixes)), lambda case: case_edges(case) & targets,
                       targets, MAX_DRAWS)
