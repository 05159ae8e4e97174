"""A case-level row predicate: one comparison of a top-level column with a constant.

A case with a predicate asks each reader for the rows that match it
(`Engine.read_filtered`), letting the reader prune row groups and pages with
whatever metadata it uses (statistics, page index, bloom filters, dictionaries).
The expected rows never come from an engine: they are `Predicate.apply` on the
case's canonical table.

Semantics (SQL, with IEEE 754 for floats):

- A null never satisfies a comparison; `is_null` / `is_not_null` test for it.
- int, date, time, timestamp, decimal (the unscaled int; one scale per column):
  numeric order of the Python int, so unsigned 64-bit values above 2**63 are large.
- float: IEEE 754 comparison of the values (Python's float operators): -0.0 == 0.0,
  and any comparison with a NaN is false except `!=`, which is true (unordered).
- string: code-point order of the Python str, which is the UTF-8 byte order
  (LogicalTypes.md, "STRING": unsigned byte-wise comparison).
- binary, fixed: unsigned lexicographic byte order (Python bytes order).
- boolean: `==` and `!=` only.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from conformance.values import CanonicalValueError, DataType, Schema, Table, validate
from conformance.values.codec import format_float, from_json, to_json

OPS = ("==", "!=", "<", "<=", ">", ">=", "is_null", "is_not_null")
NULL_OPS = ("is_null", "is_not_null")
EQUALITY_OPS = ("==", "!=")
_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge,
}
# Canonical kinds a predicate can compare, and the operators each allows.
ORDERED_KINDS = ("int", "date", "time", "timestamp", "decimal", "float", "string", "binary",
                 "fixed")
EQUALITY_ONLY_KINDS = ("boolean",)
_DESCRIBE_OP = {"is_null": "IS NULL", "is_not_null": "IS NOT NULL"}


@dataclass(frozen=True)
class Predicate:
    """`column <op> value`, or `column is_null` / `column is_not_null`."""

    column: str  # a top-level, non-nested column of the case's schema
    op: str
    value: Any = None  # canonical Python form for the column's type; None for the null tests
    # The column's canonical type, which gives `value` its meaning (a TIMESTAMP(ms) count,
    # a DECIMAL's scale). Set by `bind`, which Case does; readers need it, since a writer
    # may have stored the column differently (Spark writes TIMESTAMP(ms) as micros).
    type: DataType | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if self.op not in OPS:
            raise ValueError(f"predicate op must be one of {OPS}, not {self.op!r}")
        if self.op in NULL_OPS and self.value is not None:
            raise ValueError(f"{self.op} takes no value, got {self.value!r}")
        if self.op not in NULL_OPS and self.value is None:
            raise ValueError(f"{self.op} needs a non-null value (a comparison with null "
                             "matches no row: use is_null / is_not_null)")

    # ---- validation against a schema ---------------------------------------------

    def column_type(self, schema: Schema) -> DataType:
        """The type of the predicate's column in `schema`, after `check`."""
        self.check(schema)
        return self._field(schema).type

    def _field(self, schema: Schema):
        for f in schema:
            if f.name == self.column:
                return f
        raise ValueError(f"predicate column {self.column!r} is not a top-level column of the "
                         f"schema {schema.names}")

    def bind(self, schema: Schema) -> Predicate:
        """This predicate, checked against `schema`, with its column's type attached."""
        self.check(schema)
        return replace(self, type=self._field(schema).type)

    def bound_type(self) -> DataType:
        """The column type `bind` attached (what a reader interprets `value` with)."""
        if self.type is None:
            raise ValueError(f"predicate {self.describe()!r} is not bound to a schema: build it "
                             "through a Case or Predicate.bind(schema)")
        return self.type

    def check(self, schema: Schema) -> None:
        """Raise ValueError unless the predicate is meaningful for `schema`."""
        t = self._field(schema).type
        if self.type is not None and self.type != t:
            raise ValueError(f"predicate on {self.column!r} is bound to {self.type.describe()}, "
                             f"the schema says {t.describe()}")
        if t.is_nested:
            raise ValueError(f"predicate column {self.column!r} is nested ({t.describe()}); "
                             "predicates compare primitive top-level columns only")
        if self.op in NULL_OPS:
            return
        if t.kind in EQUALITY_ONLY_KINDS:
            if self.op not in EQUALITY_OPS:
                raise ValueError(f"predicate on {self.column!r} ({t.describe()}): only == and != "
                                 f"compare booleans, not {self.op}")
        elif t.kind not in ORDERED_KINDS:
            raise ValueError(f"predicate on {self.column!r}: {t.describe()} has no order the "
                             f"predicate model defines (comparable kinds: "
                             f"{', '.join(ORDERED_KINDS + EQUALITY_ONLY_KINDS)})")
        try:
            validate(t, self.value, nullable=False, path=f"predicate value for {self.column!r}")
        except CanonicalValueError as exc:
            raise ValueError(str(exc)) from None

    # ---- evaluation ---------------------------------------------------------------

    def matches(self, value: Any) -> bool:
        """Whether a cell holding canonical `value` (None: null) satisfies the predicate."""
        if self.op == "is_null":
            return value is None
        if self.op == "is_not_null":
            return value is not None
        if value is None:
            return False
        return bool(_COMPARE[self.op](value, self.value))

    def apply(self, table: Table) -> Table:
        """The rows of `table` that match, in their order."""
        self.check(table.schema)
        i = table.schema.names.index(self.column)
        return Table(table.schema, tuple(row for row in table.rows if self.matches(row[i])))

    # ---- description --------------------------------------------------------------

    def describe(self) -> str:
        """A short label, e.g. ``x < 5``, ``s >= 'ab'``, ``x IS NULL``."""
        if self.op in NULL_OPS:
            return f"{self.column} {_DESCRIBE_OP[self.op]}"
        value = self.value
        shown = format_float(value) if isinstance(value, float) else repr(value)
        return f"{self.column} {self.op} {shown}"

    def to_json(self, schema: Schema | None = None) -> dict[str, Any]:
        """JSON form; the value in its canonical JSON form for the column's type when
        `schema` is given (Case.to_json passes it), else a type-free form (bytes as hex,
        floats as strings, ints beyond 32 bits as decimal strings)."""
        out: dict[str, Any] = {"column": self.column, "op": self.op}
        if self.op in NULL_OPS:
            return out
        if schema is not None:
            out["value"] = to_json(self.column_type(schema), self.value)
        else:
            out["value"] = _untyped_json(self.value)
        return out

    @classmethod
    def from_json(cls, doc: dict[str, Any], schema: Schema) -> Predicate:
        """Inverse of `to_json(schema)`."""
        column, op = doc["column"], doc["op"]
        if op in NULL_OPS:
            predicate = cls(column, op)
        else:
            t = cls(column, "is_null")._field(schema).type
            predicate = cls(column, op, from_json(t, doc["value"]))
        predicate.check(schema)
        return predicate


def _untyped_json(v: Any) -> Any:
    if isinstance(v, bytes):
        return v.hex()
    if isinstance(v, float):
        return format_float(v)
    if isinstance(v, int) and not isinstance(v, bool) and not -(2**31) <= v < 2**31:
        return str(v)
    return v
