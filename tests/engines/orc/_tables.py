"""Small ORC cases shared by the ORC adapter tests: one column per ORC type, with nulls and
edge values (canonical values, docs/canonical-values.md)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from conformance.cases import Case
from conformance.cases.orc import types as O
from conformance.cases.orc.options import OrcWriteOptions
from conformance.values import DataType, Field, Schema

SIGNALLING_NAN_AS_DOUBLE = 0x7FF0000020000000  # the FLOAT NaN 0x7f800001, widened
NANOS_PER_SECOND = 1_000_000_000

# Columns every adapter under test writes: (type, three values).
COMMON_COLUMNS: dict[str, tuple[DataType, tuple]] = {
    "boolean": (O.boolean(), (True, None, False)),
    "byte": (O.integer(8), (-128, None, 127)),
    "short": (O.integer(16), (-32768, 0, None)),
    "int": (O.integer(32), (None, -(2**31), 2**31 - 1)),
    "long": (O.integer(64), (-(2**63), 2**63 - 1, None)),
    "float": (O.floating(32), (1.5, None, -0.0)),
    "double": (O.floating(64), (float("inf"), -0.0, None)),
    "string": (O.string(), ("héllo", "", None)),
    "binary": (O.binary(), (b"\x00\xff", None, b"")),
    "decimal": (O.decimal(38, 2), (-(10**38 - 1), None, 12345)),
    "date": (O.date(), (0, -1, None)),
    "timestamp": (O.timestamp(), (NANOS_PER_SECOND + 5, None, 946_684_800 * NANOS_PER_SECOND)),
    "timestamp_instant": (O.timestamp_instant(), (None, 123_456_789, 7 * NANOS_PER_SECOND)),
    "list": (O.list_of(O.integer(32)), ([1, None, 3], [], None)),
    "map": (O.map_of(O.string(), O.integer(64)), ([("a", 1), ("b", None)], None, [])),
    "struct": (O.struct_of(Field("x", O.integer(32)), Field("y", O.string())),
               ({"x": 1, "y": None}, None, {"x": None, "y": "z"})),
}
# A union whose alternatives read back as different Python classes, without nulls.
UNION_COLUMN = (O.union_of(O.integer(32), O.string()), ((0, 5), (1, "x"), (1, "")))
CHAR_COLUMNS: dict[str, tuple[DataType, tuple]] = {
    "char": (O.char(4), ("ab  ", None, "abcd")),
    "varchar": (O.varchar(3), ("xyz", "", None)),
}


def orc_case(columns: dict[str, tuple[DataType, tuple]], name: str = "types",
             **options) -> Case:
    """One case holding `columns` (each with the same number of values)."""
    schema = Schema(tuple(Field(n, t) for n, (t, _) in columns.items()))
    rows = tuple(zip(*(values for _, values in columns.values()), strict=True))
    return Case(f"test/orc/{name}", name, (), schema, rows, OrcWriteOptions(**options),
                format="orc")


def column_case(name: str, t: DataType, values, **options) -> Case:
    return orc_case({name: (t, tuple(values))}, name, **options)


def with_rows(case: Case, rows) -> Case:
    return dataclasses.replace(case, rows=tuple(rows))


def write(engine, case: Case, tmp_path: Path, name: str = "out.orc") -> Path:
    path = tmp_path / name
    engine.write(case, path)
    return path
