"""Test helper: a schema with every ORC type kind, rows with nulls at every level, and
hypothesis strategies of each kind's reference values (reference_impl/orc/reader.py)."""

from __future__ import annotations

import math

from hypothesis import strategies as st

from reference_impl.orc.metadata.proto_enums import TypeKind
from reference_impl.orc.metadata.type_tree import (
    TypeNode,
    char,
    decimal,
    list_of,
    map_of,
    primitive,
    struct,
    union_of,
    varchar,
)

K = TypeKind
INT_BITS = {K.BYTE: 8, K.SHORT: 16, K.INT: 32, K.LONG: 64}
NANOS = 10**9
# Timestamps the readers of pyarrow (ns) and pyorc round trip: 1677-09-22 to 2262-04-11.
TIMESTAMP_RANGE = (-(2**63) + NANOS, 2**63 - NANOS)

PRIMITIVES: dict[str, TypeNode] = {
    "boolean": primitive(K.BOOLEAN), "tinyint": primitive(K.BYTE), "smallint": primitive(K.SHORT),
    "int": primitive(K.INT), "bigint": primitive(K.LONG), "float": primitive(K.FLOAT),
    "double": primitive(K.DOUBLE), "string": primitive(K.STRING), "binary": primitive(K.BINARY),
    "decimal": decimal(12, 3), "date": primitive(K.DATE), "timestamp": primitive(K.TIMESTAMP),
    "instant": primitive(K.TIMESTAMP_INSTANT), "char": char(4), "varchar": varchar(6),
}
COMPOUNDS: dict[str, TypeNode] = {
    "list": list_of(primitive(K.INT)),
    "map": map_of(primitive(K.STRING), list_of(primitive(K.DOUBLE))),
    "struct": struct({"x": primitive(K.INT), "y": struct({"z": primitive(K.STRING)})}),
    "union": union_of(primitive(K.INT), primitive(K.STRING)),
}
ALL_TYPES = struct({**PRIMITIVES, **COMPOUNDS})

SAMPLE_ROWS: list[dict[str, object]] = [
    {"boolean": True, "tinyint": -128, "smallint": 32767, "int": -(2**31), "bigint": 2**63 - 1, "float": 1.5,
     "double": -0.0, "string": "Nevada", "binary": b"\x00\xff", "decimal": -123456789012, "date": -719162,
     "timestamp": 1_700_000_000_123_456_789, "instant": -1_500_000_000, "char": "ab  ", "varchar": "é🎉",
     "list": [1, None, 3], "map": [("k", [1.0, None]), ("", [])], "struct": {"x": 1, "y": {"z": "q"}},
     "union": (1, "u")},
    {name: None for name in ALL_TYPES.field_names},
    {"boolean": False, "float": math.inf, "double": 1e300, "string": "", "binary": b"", "decimal": 0,
     "timestamp": 0, "instant": 0, "list": [], "map": [], "struct": {"x": None, "y": None},
     "union": (0, None), "date": 0, "char": "abcd", "varchar": ""},
    {"string": "Nevada", "struct": {"x": None, "y": {"z": None}}, "union": (0, -5), "list": [None]},
]


NULL_EVERY = 5  # a field is null in one row of five, a different field each row


def every_type_row(i: int, repeat_rows: int, empty_bytes: bool = True) -> dict[str, object]:
    """Row ``i`` of ALL_TYPES: runs that cross row groups (smallint repeats for the first
    ``repeat_rows`` rows), distinct values, and nulls that move from field to field.
    Without ``empty_bytes`` no binary is empty (ORC C++ 2.3 cannot skip zero bytes right
    after a seek, 'lastBuffer_ is null', even in its own files)."""
    row: dict[str, object] = {
        "boolean": i % 3 == 0, "tinyint": (i * 7) % 256 - 128, "smallint": 7 if i < repeat_rows else i,
        "int": i * i - 3000, "bigint": (i // 25) * 10**15, "float": i * 0.5, "double": i / 3,
        "string": f"s{i % 7}", "binary": bytes([i % 256]) * (i % 3 + (0 if empty_bytes else 1)),
        "decimal": i * 1001 - 50000, "date": 18000 + i, "timestamp": i * 10**9 + i, "instant": -i * 10**9,
        "char": f"c{i % 10:03d}", "varchar": f"v{i}", "list": [i, None, i + 1][:i % 4],
        "map": [(f"k{i}", [float(i)])] if i % 2 else [],
        "struct": {"x": i, "y": {"z": f"z{i}"} if i % 4 else None},
        "union": (0, i) if i % 2 == 0 else (1, f"u{i}"),
    }
    for number, name in enumerate(ALL_TYPES.field_names):
        if (i + number) % NULL_EVERY == 0:
            row[name] = None
    return row


def canonical(rows: list[dict[str, object]], schema: TypeNode = ALL_TYPES) -> list[dict[str, object]]:
    """``rows`` with every field present (a missing one is null)."""
    return [{name: row.get(name) for name in schema.field_names} for row in rows]


def _integers(bits: int) -> st.SearchStrategy[int]:
    return st.integers(-(1 << (bits - 1)), (1 << (bits - 1)) - 1)


def _finite_floats(width: int) -> st.SearchStrategy[float]:
    return st.floats(width=width, allow_nan=False)


VALUES: dict[str, st.SearchStrategy[object]] = {
    "boolean": st.booleans(),
    **{name: _integers(INT_BITS[node.kind]) for name, node in PRIMITIVES.items() if node.kind in INT_BITS},
    "float": _finite_floats(32), "double": _finite_floats(64),
    "string": st.text(max_size=8), "binary": st.binary(max_size=8),
    "decimal": st.integers(-(10**12) + 1, 10**12 - 1), "date": _integers(32),
    "timestamp": st.integers(*TIMESTAMP_RANGE).filter(lambda ns: not -NANOS < ns < 0),
    "instant": st.integers(*TIMESTAMP_RANGE).filter(lambda ns: not -NANOS < ns < 0),
    "char": st.text(min_size=4, max_size=4), "varchar": st.text(max_size=6),
}


def row_strategy() -> st.SearchStrategy[dict[str, object]]:
    """Rows of ALL_TYPES' primitive fields and a list, any of them null."""
    fields = {name: st.none() | strategy for name, strategy in VALUES.items()}
    fields["list"] = st.none() | st.lists(st.none() | _integers(32), max_size=4)
    return st.fixed_dictionaries(fields)
