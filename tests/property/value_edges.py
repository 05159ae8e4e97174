"""Which named edges canonical values are (issue 29): the classifier of the edge-coverage test.

An edge is named ``<family>:<edge>``: the family is the canonical kind (``binary``, ``fixed``,
``string``, ``int``, ``decimal``, ``date``, ``time``, ``timestamp``, ``int96``) or, for floats,
the width (``float16``, ``float32``, ``float64``). Each kind's classifier is one entry of
CLASSIFIERS, so another format's kinds join by adding theirs (ORC's ``char`` and ``varchar``
are text, classified as ``string`` is; a ``union`` value is classified by its alternative; an
ORC timestamp, a nanosecond count past INT64, by the timestamp classifier). The edges are
those of `conformance.cases.value_edges` and `conformance.cases.float_edges`:

- values: each value alone (a zero byte last, the largest code point, a subnormal);
- columns: two values of one leaf column together (two byte strings equal but in their last
  byte), PAIR_CLASSIFIERS.
"""

from __future__ import annotations

import math
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import Any

from conformance.cases import Case
from conformance.cases import value_edges as E
from conformance.cases.float_edges import LARGEST_FINITE, SMALLEST_NORMAL, finite_edges
from conformance.values import DataType
from conformance.values import types as T
from conformance.values.codec import CANONICAL_NAN_BITS, float_bits, int_range
from reference_impl.parquet.metadata.parquet_thrift import Type
from reference_impl.parquet.schema.type_rules import decimal_max_precision

Classifier = Callable[[DataType, Any], set[str]]
SURROGATES_END = 0xDFFF  # code points after it order after the supplementary ones in UTF-16
FIRST_SUPPLEMENTARY = 0x10000
ASCII_END = 0x7F
DECIMAL_MAX_DIGITS = 38  # ORC's most digits; Parquet's BYTE_ARRAY has no bound (the strategies use it)
# The days the date and timestamp classifiers name, by day; leap days share one name.
NAMED_DAYS = {day: label for label, day in E.DATE_EDGES}
NAMED_DAYS.update({E.DATE_EDGE_DAYS["leap_day_2000"]: "leap_day",
                   E.DATE_EDGE_DAYS["leap_day_2024"]: "leap_day"})
FIRST_DAY_OF_YEAR_1 = E.DATE_EDGE_DAYS["year_1"]


def _bytes(t: DataType, v: bytes) -> set[str]:
    edges = set()
    if not v:
        edges.add("empty")
    elif v == E.ZERO * len(v):
        edges.add("all_zero")
    else:
        edges |= {name for name, hit in (("leading_zero", v[:1] == E.ZERO),
                                         ("trailing_zero", v[-1:] == E.ZERO)) if hit}
    if v and v == E.FF * len(v):
        edges.add("all_ff")
    if len(v) >= len(E.LONG_BYTES):
        edges.add("long")
    return edges


def _text(t: DataType, v: str) -> set[str]:
    points = [ord(c) for c in v]
    checks = {
        "empty": not v, "nul": 0 in points, "max_code_point": ord(E.MAX_CODE_POINT) in points,
        "bmp_max": ord(E.BMP_MAX) in points, "replacement": ord(E.REPLACEMENT) in points,
        "supplementary": any(p >= FIRST_SUPPLEMENTARY for p in points),
        # after the surrogates, before U+10000: UTF-16 units order it after U+10000
        "after_surrogates": any(SURROGATES_END < p < FIRST_SUPPLEMENTARY for p in points),
        "combining": any(unicodedata.combining(c) for c in v),
        "precomposed": any(unicodedata.normalize("NFD", c) != c for c in v),
        # a first byte of 0x80 or more: negative as a signed byte
        "high_first_byte": bool(points) and points[0] > ASCII_END,
    }
    return {name for name, hit in checks.items() if hit}


def _int(t: DataType, v: int) -> set[str]:
    lo, hi = int_range(t.bit_width, t.is_signed)
    narrower = {end for w in E.INT_WIDTHS if w < t.bit_width for signed in (True, False)
                for end in int_range(w, signed)}
    checks = {"min": v == lo, "max": v == hi, "narrower_boundary": v in narrower - {0},
              "unsigned_above_signed_max": not t.is_signed and v > int_range(t.bit_width, True)[1]}
    return {name for name, hit in checks.items() if hit}


def max_precision(t: DataType) -> int:
    """The most digits a DECIMAL may have on `t`'s physical type (LogicalTypes.md, 'DECIMAL'),
    DECIMAL_MAX_DIGITS where the type sets none."""
    limit = t.physical and decimal_max_precision(Type[t.physical], t.length)
    return limit or DECIMAL_MAX_DIGITS


def _decimal(t: DataType, v: int) -> set[str]:
    largest = 10**t.decimal_precision - 1
    checks = {"largest_unscaled": v == largest, "smallest_unscaled": v == -largest,
              "scale_zero": t.decimal_scale == 0,
              "scale_eq_precision": t.decimal_scale == t.decimal_precision,
              "max_precision": t.decimal_precision == max_precision(t)}
    return {name for name, hit in checks.items() if hit}


def _day(day: int) -> set[str]:
    edges = {NAMED_DAYS[day]} if day in NAMED_DAYS else set()
    if day >= E.YEAR_10000:
        edges.add("year_10000_or_later")
    if day < FIRST_DAY_OF_YEAR_1:
        edges.add("before_year_1")
    return edges


def _date(t: DataType, v: int) -> set[str]:
    return _day(v)


def _count(v: int, unit: str) -> set[str]:
    """A count of `unit` since the epoch: its day's edges at midnight, the unit before a
    named midnight, the INT64 ends."""
    per_day = E.SECONDS_PER_DAY * T.UNITS_PER_SECOND[unit]
    day, within = divmod(v, per_day)
    edges = _day(day) - set(NAMED_DAYS.values()) if within else _day(day)
    if within == per_day - 1 and day + 1 in NAMED_DAYS:
        edges.add("unit_before_named_midnight")
    lo, hi = int_range(64, True)
    edges |= {name for name, hit in (("before_epoch", v == -1), ("after_epoch", v == 1),
                                     ("int64_min", v == lo), ("int64_max", v == hi)) if hit}
    return edges


def _timestamp(t: DataType, v: int) -> set[str]:
    return _count(v, t.time_unit)


def _int96(t: DataType, v: int) -> set[str]:
    return _count(v, "ns")


def _time(t: DataType, v: int) -> set[str]:
    per_day = E.SECONDS_PER_DAY * T.UNITS_PER_SECOND[t.time_unit]
    return {name for name, hit in (("midnight", v == 0), ("last_of_day", v == per_day - 1)) if hit}


def _float(t: DataType, v: float) -> set[str]:
    finite = finite_edges(t.bit_width)
    checks = {
        "subnormal": 0.0 < abs(v) < finite[SMALLEST_NORMAL],
        "max_finite": abs(v) == finite[LARGEST_FINITE],
        "negative_zero": v == 0.0 and math.copysign(1.0, v) < 0,
        "nan_payload": math.isnan(v) and float_bits(v) != CANONICAL_NAN_BITS,
        "infinity": math.isinf(v),
    }
    return {name for name, hit in checks.items() if hit}


CLASSIFIERS: dict[str, Classifier] = {
    "binary": _bytes, "fixed": _bytes, "string": _text, "enum": _text, "char": _text,
    "varchar": _text, "int": _int, "decimal": _decimal, "date": _date, "time": _time,
    "timestamp": _timestamp, "int96": _int96, "float": _float,
}
FAMILIES = {"enum": "string", "char": "string", "varchar": "string"}


def family(t: DataType) -> str:
    """The family an edge of `t` is named in."""
    return f"float{t.bit_width}" if t.kind == "float" else FAMILIES.get(t.kind, t.kind)


def _last_byte_twins(values: list[bytes]) -> set[str]:
    prefixes = defaultdict(set)
    for v in values:
        if v:
            prefixes[v[:-1]].add(v[-1])
    return {"last_byte_pair"} if any(len(lasts) > 1 for lasts in prefixes.values()) else set()


PAIR_CLASSIFIERS: dict[str, Callable[[list[Any]], set[str]]] = {
    "binary": _last_byte_twins, "fixed": _last_byte_twins,
}


def leaves(t: DataType, v: Any, path: str) -> Iterator[tuple[str, DataType, Any]]:
    """(path, type, value) of every non-null scalar inside `v`, a value of `t`."""
    if v is None:
        return
    match t.kind:
        case "list":
            for e in v:
                yield from leaves(t.list_element.type, e, f"{path}.element")
        case "map":
            for key, value in v:
                yield from leaves(t.map_key.type, key, f"{path}.key")
                yield from leaves(t.map_value.type, value, f"{path}.value")
        case "struct":
            for f in t.fields:
                yield from leaves(f.type, v[f.name], f"{path}.{f.name}")
        case "union":
            tag, value = v
            yield from leaves(t.fields[tag].type, value, f"{path}.{tag}")
        case _:
            yield path, t, v


def case_edges(case: Case) -> set[str]:
    """Every edge the case's rows reach, by value and by leaf column."""
    columns: dict[str, tuple[DataType, list[Any]]] = {}
    for row in case.rows:
        for f, v in zip(case.schema, row, strict=True):
            for path, t, leaf in leaves(f.type, v, f.name):
                columns.setdefault(path, (t, []))[1].append(leaf)
    edges = set()
    for t, values in columns.values():
        classify, pair = CLASSIFIERS.get(t.kind), PAIR_CLASSIFIERS.get(t.kind)
        found = {e for v in values for e in classify(t, v)} if classify else set()
        found |= pair(values) if pair else set()
        edges |= {f"{family(t)}:{e}" for e in found}
    return edges
