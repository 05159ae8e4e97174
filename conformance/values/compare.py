"""Equality of canonical tables and a readable diff.

Two tables are equal when they have the same column names, the same number of
rows, the same semantic category per column (see `category`) and, cell by cell,
the same *value*. A value is compared by meaning, not by representation: an
INT(8) read back as a wider signed integer is equal if the number is the same;
a TIMESTAMP(ms) read back as TIMESTAMP(us) is equal if it names the same instant.
Floats compare by their exact 64-bit pattern, so -0.0 != 0.0 and NaN == NaN.
A VARIANT compares by the value its bytes encode, not by the bytes (`variant`).
What a representation change loses (a different number, a string turned into
bytes, a UTC-adjusted timestamp read as local time) is a difference.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from .codec import float_bits, to_json
from .table import Table
from .types import UNITS_PER_SECOND, DataType
from .variant import describe, first_difference, variant_key

MAX_REPORTED_DIFFERENCES = 20
NANOS_PER_SECOND = UNITS_PER_SECOND["ns"]

# Semantic category of each kind: kinds in one category compare by value.
_CATEGORY = {
    # Integers and decimals are both exact numbers: UINT64 read as DECIMAL(20,0) is fine.
    "boolean": "boolean", "int": "exact number", "float": "float", "decimal": "exact number",
    "date": "date", "time": "time", "timestamp": "timestamp", "int96": "timestamp",
    "binary": "bytes", "bson": "bytes", "fixed": "bytes",
    "string": "text", "enum": "text", "json": "text", "char": "text", "varchar": "text",
    "uuid": "uuid", "interval": "interval", "unknown": "null", "variant": "variant",
    "geometry": "geometry", "geography": "geography",
    "list": "list", "map": "map", "struct": "struct", "union": "union",
}


def category(t: DataType) -> str:
    return _CATEGORY[t.kind]


def type_difference(expected: DataType, actual: DataType) -> str | None:
    """Why `actual` cannot stand for `expected`, or None when it can: the innermost types
    that differ, so one difference reads the same at any depth of nesting."""
    pair = differing_types(expected, actual)
    return None if pair is None else _describe_difference(*pair)


def _describe_difference(expected: DataType, actual: DataType) -> str:
    same = category(expected) == category(actual) == "timestamp"
    utc = " (isAdjustedToUTC differs)" if same else ""
    return f"expected {expected.describe()}, got {actual.describe()}{utc}"


def differing_types(expected: DataType, actual: DataType) -> tuple[DataType, DataType] | None:
    """The innermost pair of types where `actual` cannot stand for `expected`, or None."""
    if category(expected) != category(actual):
        return expected, actual
    if expected.kind == "timestamp" and actual.kind == "timestamp" and expected.utc != actual.utc:
        return expected, actual
    if expected.kind in ("struct", "union"):
        if [f.name for f in expected.fields] != [f.name for f in actual.fields]:
            return expected, actual
        children = [(e.type, a.type) for e, a in zip(expected.fields, actual.fields, strict=True)]
    elif expected.kind == "list":
        children = [(expected.list_element.type, actual.list_element.type)]
    elif expected.kind == "map":
        children = [(expected.map_key.type, actual.map_key.type),
                    (expected.map_value.type, actual.map_value.type)]
    else:
        return None
    return next(filter(None, (differing_types(e, a) for e, a in children)), None)


def semantic_key(t: DataType, v: Any) -> Any:
    """A hashable key equal for equal meanings across representations of one category."""
    if v is None:
        return None
    match t.kind:
        case "float":
            return float_bits(v)
        case "decimal":
            return Fraction(v, 10**t.decimal_scale)
        case "time" | "timestamp":
            return v * (NANOS_PER_SECOND // UNITS_PER_SECOND[t.time_unit])
        case "list":
            return tuple(semantic_key(t.list_element.type, e) for e in v)
        case "map":
            return tuple((semantic_key(t.map_key.type, k), semantic_key(t.map_value.type, x)) for k, x in v)
        case "struct":
            return tuple(semantic_key(f.type, v[f.name]) for f in t.fields)
        case "union":
            return v[0], semantic_key(t.fields[v[0]].type, v[1])
        case "variant":
            return variant_key(v)
    return v


def diff_tables(expected: Table, actual: Table) -> str | None:
    """None when the tables are equal, otherwise a readable account of how they differ."""
    problems = _schema_problems(expected, actual)
    if problems:
        return "\n".join(problems)
    lines: list[str] = []
    if len(expected.rows) != len(actual.rows):
        lines.append(f"row count: expected {len(expected.rows)}, got {len(actual.rows)}")
    cell_diffs = list(_cell_differences(expected, actual))
    for row, name, want, got, detail in cell_diffs[:MAX_REPORTED_DIFFERENCES]:
        lines.append(f"row {row}, column {name!r}: expected {want}, got {got}{detail}")
    if len(cell_diffs) > MAX_REPORTED_DIFFERENCES:
        lines.append(f"... and {len(cell_diffs) - MAX_REPORTED_DIFFERENCES} more differing cells")
    return "\n".join(lines) or None


def _schema_problems(expected: Table, actual: Table) -> list[str]:
    if expected.schema.names != actual.schema.names:
        return [f"columns: expected {expected.schema.names}, got {actual.schema.names}"]
    problems = []
    for e, a in zip(expected.schema, actual.schema, strict=True):
        pair = differing_types(e.type, a.type)
        if pair is not None:
            problems.append(f"column {e.name!r} type: {_describe_difference(*pair)}")
            if pair != (e.type, a.type):  # nested: the whole types too
                problems.append(f"  in column type {e.type.describe()}, got {a.type.describe()}")
    return problems


def _cell_differences(expected: Table, actual: Table):
    for r, (erow, arow) in enumerate(zip(expected.rows, actual.rows, strict=False)):
        for i, (ef, af) in enumerate(zip(expected.schema, actual.schema, strict=True)):
            want, got = semantic_key(ef.type, erow[i]), semantic_key(af.type, arow[i])
            if want != got:
                # Name the types when they differ: "-1" means little without its unit.
                typed = ef.type.describe() != af.type.describe()
                yield (r, ef.name, _show(ef.type, erow[i], typed), _show(af.type, arow[i], typed),
                       _detail(ef.type, want, got))


def _show(t: DataType, v: Any, typed: bool) -> str:
    if t.kind == "variant" and v is not None:
        text = describe(variant_key(v))
    else:
        text = json.dumps(to_json(t, v), ensure_ascii=False)
    return f"{text} ({t.describe()})" if typed else text


def _detail(t: DataType, want: Any, got: Any) -> str:
    """Where inside a variant the values differ: a large object differs in one place."""
    difference = None if t.kind != "variant" or None in (want, got) else first_difference(want, got)
    if difference is None or difference[0] == "$":  # the whole value: the line shows it
        return ""
    return f" (at {difference[0]}: {difference[1]})"
