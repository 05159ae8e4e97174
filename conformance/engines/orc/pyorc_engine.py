"""pyorc (the Apache ORC C++ library, bound with pybind11) as an ORC writer and reader.

Values cross in exact forms through custom converters (pyorc's `converters`, keyed by
TypeKind): a TIMESTAMP or TIMESTAMP_INSTANT is `OrcTimestamp(seconds, nanos)` (pyorc's
default converter makes a datetime and drops the nanoseconds), a DATE is `OrcDate(days)`,
a DECIMAL is written from its unscaled integer and read from the library's exact decimal
text. The reader runs in UTC (`timezone`), so a TIMESTAMP reads as the wall clock of the
file's writer zone (docs/orc-spec-notes.md, note 3). The writer runs in the case's
writer_timezone (UTC by default; pyorc's `timezone` becomes StripeFooter.writerTimezone).
pyorc takes a TIMESTAMP as the instant (measured: (seconds, nanos) are seconds since
1970-01-01 UTC, whose wall clock in the writer's zone the file holds), so the adapter
hands it the instant of the case's wall clock in that zone, with the zone offsets ORC C++
applies (reference_impl/orc/columns/time_zones.py, docs/orc-spec-notes.md note 13; a wall
clock the clock repeats as its first instant). TIMESTAMP_INSTANT is the instant whatever
the zone (measured). The conversion is the adapter's, in `to_pyorc`, not a converter's:
pyorc 0.12 calls the TIMESTAMP converter for TIMESTAMP_INSTANT columns too (measured).
pyorc writes no Footer.calendar (ORC C++ has no knob for it).

Write: `pyorc.Writer(file, schema, ...)` with the schema built from the canonical types
(each measured with pyorc 0.12.0):

- codec -> `compression`; compression_block_size -> `compression_block_size` and
  `memory_block_size` (ORC C++ takes only a block size that is a multiple of the memory
  block size, 64 KiB by default);
  row_index_stride -> `row_index_stride` (0 writes no index).
- string_encoding -> `dict_key_size_threshold` 0 (DIRECT) or 1 (DICTIONARY), as for
  pyarrow (ORC C++ WriterOptions).
- stripe_row_limit -> `batch_size=limit`, `stripe_size=0`: pyorc hands the library one
  batch of `batch_size` rows at a time and every batch then closes a stripe (measured:
  7 rows with limit 3 give stripes of 3, 3 and 1 rows, for any column type).
- pyorc has no file version knob: it writes 0.12 only (measured, ORCFile.file_version).

UNION: pyorc picks a union value's alternative itself, the first whose converter
accepts the Python value (measured: 3 into uniontype<double,int> is stored as the
double 3.0; 1 into uniontype<boolean,int> as true), and reads back the value without
its tag. The adapter writes (tag, value) only when no earlier alternative could take
the value, and reads a tag back only when exactly one alternative yields values of
that Python class; None is ambiguous (a null union or a null alternative) and raises
LossyConversion.

MAP: pyorc reads a map into a Python dict, so a key stored twice comes back once; the
adapter cannot see that loss.

Read shapes (ORCv1.md, 'Type Information': the root, type 0, may be of any kind):

- A root that is not a STRUCT: pyorc reads each row as the bare value. The table has
  one column named ROOT_COLUMN (`_col0`), as the reference reads it. A bare_root case is
  written so too: `pyorc.Writer` takes the column's type as the schema and bare values.
- A Hive 0.11 decimal ('Decimal Columns': no precision in the Type; pyorc's
  TypeDescription says precision 0, and scale 0 when the Type has none): ORC C++ reads
  every value at a forced scale of 6 fraction digits, whatever the Type declares
  (ReaderOptions forcedScaleOnHive11Decimal; measured: 1.99999999 reads as 1.999999,
  truncated). The column is DECIMAL(38, max(scale, 6)), which holds every value pyorc
  returns exactly, as the reference's 0.11 decimal is DECIMAL(38, s); values compare by
  number (conformance/values/compare.py), so the scale of the two need not agree.
Filtered read: `pyorc.Reader(file, predicate=...)` with a `pyorc.predicates` condition
on the file's own column type (`search_argument`). ORC C++ evaluates it as a search
argument against the stripe statistics, row index statistics and Bloom filters, and
returns every row of each row group that may match, so the adapter applies the
predicate to the converted rows itself (`read_filtered`); `read_row_groups` is what
pyorc returned. What ORC C++ prunes with, measured on the lying files, is in
docs/engine-notes.md. pyorc has no null test and no BINARY predicate column: those
reads are unsupported.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any, NamedTuple

from conformance.cases import Case
from conformance.cases.orc.options import (
    BARE_ROOT_TAG,
    ENCRYPTION_REASON,
    ENCRYPTION_TAG,
    LIES_REASON,
    ROOT_COLUMN,
    WRITER_TIMEZONE_TAG,
)
from conformance.cases.predicate import Predicate
from conformance.values import DataType, Field, Schema, Table
from conformance.values.codec import decimal_from_unscaled, unscaled_from_decimal
from reference_impl.orc.columns.time_zones import utc_offset

from ..base import Capabilities, Engine, LossyConversion, Unsupported, converting

NANOS_PER_SECOND = 1_000_000_000
STRIPE_PER_BATCH = 0  # stripe_size: every batch closes a stripe (measured)
DICTIONARY_THRESHOLD = {"DIRECT": 0.0, "DICTIONARY": 1.0}
HIVE11_READ_SCALE = 6  # ORC C++'s forced scale of a Hive 0.11 decimal (measured, see above)


class OrcTimestamp(NamedTuple):
    seconds: int
    nanos: int


class OrcDate(NamedTuple):
    days: int


def _converters():
    """pyorc converters exchanging OrcTimestamp, OrcDate and exact decimals."""
    from pyorc.converters import ORCConverter
    from pyorc.enums import TypeKind

    class Timestamps(ORCConverter):
        @staticmethod
        def from_orc(seconds, nanos, timezone):
            return OrcTimestamp(seconds, nanos)

        @staticmethod
        def to_orc(obj, timezone):
            if not isinstance(obj, OrcTimestamp):  # lets a union try its next alternative
                raise TypeError(f"{obj!r} is not a timestamp")
            return obj.seconds, obj.nanos

    class Dates(ORCConverter):
        @staticmethod
        def from_orc(days):
            return OrcDate(days)

        @staticmethod
        def to_orc(obj):
            if not isinstance(obj, OrcDate):
                raise TypeError(f"{obj!r} is not a date")
            return obj.days

    class Decimals(ORCConverter):
        @staticmethod
        def from_orc(text):
            return Decimal(text)  # the library's exact decimal text

        @staticmethod
        def to_orc(precision, scale, obj):
            if not isinstance(obj, Decimal):
                raise TypeError(f"{obj!r} is not a decimal")
            return unscaled_from_decimal(obj, scale)

    return {TypeKind.TIMESTAMP: Timestamps, TypeKind.TIMESTAMP_INSTANT: Timestamps,
            TypeKind.DATE: Dates, TypeKind.DECIMAL: Decimals}


def wall_clock_instant(seconds: int, zone) -> int:
    """The instant (seconds since 1970-01-01 UTC) a wall clock's `seconds` read in `zone`
    is at: its first, where the clock repeats."""
    return seconds - utc_offset(zone, seconds - utc_offset(zone, seconds))


# The Python class pyorc (with these converters) reads each ORC kind as; the tag of a
# union value is known when exactly one alternative has the value's class.
_PY_CLASS: dict[str, type] = {
    "BOOLEAN": bool, "BYTE": int, "SHORT": int, "INT": int, "LONG": int,
    "FLOAT": float, "DOUBLE": float, "STRING": str, "CHAR": str, "VARCHAR": str,
    "BINARY": bytes, "DECIMAL": Decimal, "DATE": OrcDate, "TIMESTAMP": OrcTimestamp,
    "TIMESTAMP_INSTANT": OrcTimestamp, "LIST": list, "MAP": dict, "STRUCT": tuple,
}
# Measured: a boolean alternative takes an int, a double one takes an int.
_NUMBERS = (bool, int, float)

CAPABILITIES = Capabilities(
    writes=("type:*", "version:0.12", "rle:v2", "compression:block_size", "stripes:multiple",
            "row_index:*", "encoding:*", "nulls:*", "rows:*", "bloom", BARE_ROOT_TAG,
            WRITER_TIMEZONE_TAG,
            *(f"codec:{c}" for c in ("NONE", "ZLIB", "SNAPPY", "LZ4", "ZSTD"))),
    cannot_write={
        "lie:*": LIES_REASON,
        ENCRYPTION_TAG: ENCRYPTION_REASON,
        "mask:*": ENCRYPTION_REASON,
        "version:0.11": "pyorc.Writer has no file version parameter; it writes 0.12 only "
                        "(measured)",
        "rle:v1": "pyorc writes file version 0.12 only, hence RLE v2",
        "codec:LZO": "measured: CompressionKind.LZO raises RuntimeError 'compression codec'",
        "codec:BROTLI": "pyorc's CompressionKind has no BROTLI",
        "calendar:*": "ORC C++ writes no Footer.calendar and pyorc.Writer has no parameter "
                      "for it (measured; docs/engine-notes.md, 'ORC writers and readers')",
        "rle_v2:*:forced": "ORC C++ picks the RLE v2 sub-encoding itself; pyorc has no knob",
        **dict.fromkeys(("type:GEOMETRY", "type:GEOGRAPHY"),
                        "pyorc's TypeKind has no GEOMETRY or GEOGRAPHY; measured: "
                        "TypeDescription.from_string('struct<g:geometry(OGC:CRS84)>') raises "
                        "TypeError 'Invalid TypeKind' (the ORC C++ parser inside takes it)"),
    },
    # pyorc.Reader takes no key or key provider: its cells on encrypted files are judged
    # against the masked view (conformance/cases/orc/masked_view.py).
    reads_keyless=(ENCRYPTION_TAG,),
)


class PyorcEngine(Engine):
    name = "pyorc"
    distribution = "pyorc"
    format = "orc"
    capabilities = CAPABILITIES

    def write(self, case: Case, path: Path) -> None:
        import pyorc

        kwargs = write_kwargs(case)
        zone = kwargs["timezone"]
        if case.orc_options.bare_root:  # the one column is the root: rows are its bare values
            (column,) = case.schema
            schema, rows = orc_type(column.type), [to_pyorc(column.type, v, zone) for v, in case.rows]
        else:
            schema = pyorc.Struct(**{f.name: orc_type(f.type) for f in case.schema})
            rows = [tuple(to_pyorc(f.type, v, zone) for f, v in zip(case.schema, row, strict=True))
                    for row in case.rows]
        with open(path, "wb") as file, pyorc.Writer(file, schema, **kwargs) as writer:
            writer.writerows(rows)

    def read(self, path: Path) -> Table:
        return self._read(path)

    def read_filtered(self, path: Path, predicate: Predicate) -> Table:
        """The rows of the row groups pyorc's search argument leaves (`read_row_groups`),
        filtered by the adapter: pyorc returns whole row groups that may match."""
        with converting(self.name):
            return predicate.apply(self.read_row_groups(path, predicate))

    def read_row_groups(self, path: Path, predicate: Predicate) -> Table:
        """Every row of the row groups that ORC C++ does not skip for `predicate`
        (`pyorc.Reader(..., predicate=...)`), converted as `read` converts."""
        import pyorc

        with open(path, "rb") as file:
            schema = pyorc.Reader(file).schema
        return self._read(path, search_argument(predicate, schema))

    def _read(self, path: Path, condition=None) -> Table:
        import pyorc

        with open(path, "rb") as file:
            reader = pyorc.Reader(file, converters=_converters(), timezone=_utc(), predicate=condition)
            root = reader.schema
            rows = list(reader)
        with converting(self.name):
            return canonical_table(root, rows)


def canonical_table(root, rows: list[Any]) -> Table:
    """The canonical table of the rows pyorc read under the file's root type `root`."""
    from pyorc.enums import TypeKind

    if TypeKind(root.kind) != TypeKind.STRUCT:  # each row is the bare root value
        t = canonical_type(root)
        return Table(Schema((Field(ROOT_COLUMN, t),)), tuple((from_pyorc(t, v),) for v in rows))
    schema = Schema(canonical_type(root).fields)
    return Table(schema, tuple(tuple(from_pyorc(f.type, v) for f, v in zip(schema, row, strict=True))
                               for row in rows))


def _utc():
    return _zone(None)


def _zone(name: str | None):
    """The zone `name` (None: UTC) as pyorc's `timezone` takes it."""
    import zoneinfo

    return zoneinfo.ZoneInfo(name or "UTC")


def write_kwargs(case: Case) -> dict[str, Any]:
    from pyorc import CompressionKind

    o = case.orc_options
    gap = CAPABILITIES.write_gap(o.tags(len(case.rows)))
    if gap:
        raise Unsupported(gap)
    kwargs: dict[str, Any] = {"compression": CompressionKind[o.codec],
                              "converters": _converters(), "timezone": _zone(o.writer_timezone)}
    if o.compression_block_size is not None:
        kwargs["compression_block_size"] = o.compression_block_size
        kwargs["memory_block_size"] = o.compression_block_size
    if o.row_index_stride is not None:
        kwargs["row_index_stride"] = o.row_index_stride
    if o.string_encoding is not None:
        kwargs["dict_key_size_threshold"] = DICTIONARY_THRESHOLD[o.string_encoding]
    if o.stripe_row_limit is not None:
        kwargs.update(batch_size=o.stripe_row_limit, stripe_size=STRIPE_PER_BATCH)
    if o.bloom_filter_columns:
        kwargs["bloom_filter_columns"] = list(o.bloom_filter_columns)
    if o.bloom_filter_fpp is not None:
        kwargs["bloom_filter_fpp"] = o.bloom_filter_fpp
    return kwargs


# ---- filtered read ---------------------------------------------------------------

NO_NULL_TEST = ("pyorc.predicates has no null test: its Operator is NOT, OR, AND, EQ, LT "
                "and LE only (pyorc 0.12 predicates.py)")
NO_BINARY_PREDICATE = ("pyorc.predicates.PredicateColumn refuses a BINARY column (measured: "
                       "TypeError 'Invalid type for PredicateColumn: 8', as its source says)")


def search_argument(predicate: Predicate, root):
    """The pyorc predicate for `predicate` over a file whose root is the pyorc struct type
    `root`: a PredicateColumn of the file's own column type compared with the case's value
    in the converters' form (`to_pyorc`); `!=`, `>` and `>=` are NOT of EQ, LE and LT."""
    from pyorc.enums import TypeKind
    from pyorc.predicates import PredicateColumn

    if predicate.op in ("is_null", "is_not_null"):
        raise Unsupported(NO_NULL_TEST)
    column_type = root.fields[predicate.column]
    kind = TypeKind(column_type.kind)
    if kind == TypeKind.BINARY:
        raise Unsupported(NO_BINARY_PREDICATE)
    decimal = ({"precision": column_type.precision, "scale": column_type.scale}
               if kind == TypeKind.DECIMAL else {})
    column = PredicateColumn(kind, predicate.column, **decimal)
    value = to_pyorc(predicate.bound_type(), predicate.value)
    return {"==": column.__eq__, "!=": column.__ne__, "<": column.__lt__, "<=": column.__le__,
            ">": column.__gt__, ">=": column.__ge__}[predicate.op](value)


# ---- canonical -> pyorc ------------------------------------------------------------

def orc_type(t: DataType):
    """The pyorc TypeDescription of canonical type `t`."""
    import pyorc

    from conformance.cases.orc.types import orc_kind

    kind = orc_kind(t)
    simple = {"BOOLEAN": pyorc.Boolean, "BYTE": pyorc.TinyInt, "SHORT": pyorc.SmallInt,
              "INT": pyorc.Int, "LONG": pyorc.BigInt, "FLOAT": pyorc.Float,
              "DOUBLE": pyorc.Double, "STRING": pyorc.String, "BINARY": pyorc.Binary,
              "DATE": pyorc.Date, "TIMESTAMP": pyorc.Timestamp,
              "TIMESTAMP_INSTANT": pyorc.TimestampInstant}
    if kind in simple:
        return simple[kind]()
    match kind:
        case "CHAR" | "VARCHAR":
            if t.length is None:
                raise ValueError(f"{t.describe()} has no length")
            return (pyorc.Char if kind == "CHAR" else pyorc.VarChar)(t.length)
        case "DECIMAL":
            return pyorc.Decimal(precision=t.decimal_precision, scale=t.decimal_scale)
        case "LIST":
            return pyorc.Array(orc_type(t.list_element.type))
        case "MAP":
            return pyorc.Map(key=orc_type(t.map_key.type), value=orc_type(t.map_value.type))
        case "STRUCT":
            return pyorc.Struct(**{f.name: orc_type(f.type) for f in t.fields})
        case "UNION":
            return pyorc.Union(*(orc_type(f.type) for f in t.fields))
    raise Unsupported(f"pyorc has no type for ORC {kind} (CAPABILITIES)")


def to_pyorc(t: DataType, v: Any, zone=None) -> Any:
    """Canonical value `v` of type `t` in the form the converters and pyorc take; a
    TIMESTAMP's wall clock as its instant in the writer's `zone` (None: UTC)."""
    if v is None:
        return None
    match t.kind:
        case "timestamp":
            seconds, nanos = divmod(v, NANOS_PER_SECOND)
            if zone is not None and not t.utc:
                seconds = wall_clock_instant(seconds, zone)
            return OrcTimestamp(seconds, nanos)
        case "date":
            return OrcDate(v)
        case "decimal":
            return decimal_from_unscaled(v, t.decimal_scale)
        case "list":
            return [to_pyorc(t.list_element.type, e, zone) for e in v]
        case "map":
            entries = {to_pyorc(t.map_key.type, k, zone): to_pyorc(t.map_value.type, x, zone)
                       for k, x in v}
            if len(entries) != len(v):
                raise Unsupported("pyorc takes a map as a Python dict, which cannot hold a "
                                  "key twice")
            return entries
        case "struct":
            return tuple(to_pyorc(f.type, v[f.name], zone) for f in t.fields)
        case "union":
            tag, value = v
            return _union_to_pyorc(t, tag, value, zone)
    return v


def _union_to_pyorc(t: DataType, tag: int, v: Any, zone) -> Any:
    if v is None:
        raise Unsupported("pyorc writes None in a union column as a null union; it cannot "
                          "write a null value of one alternative")
    value = to_pyorc(t.fields[tag].type, v, zone)
    for earlier in t.fields[:tag]:
        if _may_accept(_py_class(earlier.type), type(value)):
            raise Unsupported(f"pyorc stores a union value in the first alternative accepting "
                              f"it; alternative {earlier.name} ({earlier.type.describe()}) comes "
                              f"before tag {tag} and may accept a {type(value).__name__}")
    return value


def _py_class(t: DataType) -> type | None:
    from conformance.cases.orc.types import orc_kind

    return _PY_CLASS.get(orc_kind(t))  # None for a union: any class


def _may_accept(alternative: type | None, value: type) -> bool:
    if alternative is None or alternative is value:
        return True
    return alternative in _NUMBERS and value in _NUMBERS


# ---- pyorc -> canonical ------------------------------------------------------------

def canonical_type(t) -> DataType:
    """The canonical type of a pyorc TypeDescription (the file's own schema)."""
    from pyorc.enums import TypeKind

    from conformance.cases.orc import types as O

    kind = TypeKind(t.kind)
    simple = {TypeKind.BOOLEAN: O.boolean, TypeKind.STRING: O.string, TypeKind.BINARY: O.binary,
              TypeKind.DATE: O.date, TypeKind.TIMESTAMP: O.timestamp,
              TypeKind.TIMESTAMP_INSTANT: O.timestamp_instant}
    widths = {TypeKind.BYTE: 8, TypeKind.SHORT: 16, TypeKind.INT: 32, TypeKind.LONG: 64}
    if kind in simple:
        return simple[kind]()
    if kind in widths:
        return O.integer(widths[kind])
    match kind:
        case TypeKind.FLOAT | TypeKind.DOUBLE:
            return O.floating(32 if kind == TypeKind.FLOAT else 64)
        case TypeKind.CHAR | TypeKind.VARCHAR:
            return DataType(kind.name.lower(), length=t.max_length)
        case TypeKind.DECIMAL if t.precision == 0:  # a Hive 0.11 decimal (module docstring)
            return O.decimal(O.MAX_DECIMAL_PRECISION, max(t.scale, HIVE11_READ_SCALE))
        case TypeKind.DECIMAL:
            return DataType("decimal", precision=t.precision, scale=t.scale)
        case TypeKind.LIST:
            return O.list_of(canonical_type(t.type))
        case TypeKind.MAP:
            return O.map_of(canonical_type(t.key), canonical_type(t.value))
        case TypeKind.STRUCT:
            return O.struct_of(*(Field(n, canonical_type(c)) for n, c in t.fields.items()))
        case TypeKind.UNION:
            return O.union_of(*(canonical_type(c) for c in t.cont_types))
    raise LossyConversion(f"pyorc type {t} has no canonical form")


def from_pyorc(t: DataType, v: Any) -> Any:
    """The canonical value of what pyorc read for type `t`."""
    if v is None:
        if t.kind == "union":
            raise LossyConversion("pyorc reads a null union and a union holding a null "
                                  "alternative both as None; the two cannot be told apart")
        return None
    match t.kind:
        case "timestamp":
            return v.seconds * NANOS_PER_SECOND + v.nanos
        case "date":
            return v.days
        case "decimal":
            return unscaled_from_decimal(v, t.decimal_scale)
        case "list":
            return [from_pyorc(t.list_element.type, e) for e in v]
        case "map":
            return [(from_pyorc(t.map_key.type, k), from_pyorc(t.map_value.type, x))
                    for k, x in v.items()]
        case "struct":
            return {f.name: from_pyorc(f.type, e) for f, e in zip(t.fields, v, strict=True)}
        case "union":
            return _union_from_pyorc(t, v)
    return v


def _union_from_pyorc(t: DataType, v: Any) -> tuple[int, Any]:
    classes = [_py_class(f.type) for f in t.fields]
    tags = [i for i, c in enumerate(classes) if c is type(v) or c is None]
    if len(tags) != 1:
        raise LossyConversion(f"pyorc read a union value {v!r} without its tag, and "
                              f"{len(tags)} alternatives of {t.describe()} read as "
                              f"{type(v).__name__}")
    return tags[0], from_pyorc(t.fields[tags[0]].type, v)
