"""Exact conversions between canonical values and Apache Arrow.

Two directions, both exact:

- canonical -> Arrow (`schema_to_arrow`, `table_to_arrow`): what the Arrow-based
  writers (pyarrow, DuckDB) are handed. Each canonical type maps to the Arrow type
  that carries it without loss (INT(8, unsigned) -> uint8, DECIMAL(p, s) ->
  decimal128/decimal256 from the unscaled integer, TIMESTAMP(unit, utc) ->
  timestamp(unit, tz="UTC" | None), UUID -> the `arrow.uuid` extension type,
  JSON -> `arrow.json`, GEOMETRY and GEOGRAPHY -> `geoarrow.wkb` (`geoarrow`),
  INT96 -> timestamp("ns"), INTERVAL -> month_day_nano when every field fits,
  UNKNOWN -> null, ORC's UNION -> a sparse union whose type codes are the tags).
  What has no Arrow form (ORC's CHAR and VARCHAR, a null UNION: Arrow unions have
  no validity of their own) raises `Unsupported` with the reason, as does a
  temporal value beyond Arrow's 64-bit count (a nanosecond timestamp before 1677
  or after 2262).
- Arrow -> canonical (`arrow_to_table`): a reader's *own* view. The canonical
  type is derived from the Arrow type alone (the Parquet physical type is not
  knowable from Arrow, so `physical` is None); dictionary arrays are decoded;
  large/view string and binary layouts are read like the plain ones. Temporal
  values are taken from their integer storage, decimals from their two's
  complement storage, floats from their bit patterns: nothing passes through
  pandas, `datetime` or `decimal.Decimal` arithmetic. An Arrow value the
  canonical model cannot hold raises `LossyConversion`.

A case's predicate becomes a pyarrow.compute expression (`filter_expression`) for the
filtered reads of both formats' pyarrow adapters: its constant an Arrow scalar of the
case column's type, exactly, cast to the file column's Arrow type when a writer stored
it differently.
"""

from __future__ import annotations

import decimal
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyarrow as pa

from conformance.cases.predicate import Predicate
from conformance.values import DataType, Field, Schema, Table
from conformance.values.codec import uuid_from_bytes, uuid_to_bytes
from reference_impl.common.ieee_float import narrow_float_bits, widen_float_bits

from .base import LossyConversion, Unsupported, converting
from .geoarrow import EXTENSION_NAME as GEOARROW_WKB
from .geoarrow import canonical_geo_type, wkb_type

NANOS_PER_MILLI = 1_000_000
MILLIS_PER_DAY = 86_400_000
INT32_MAX = 2**31 - 1
DECIMAL128_MAX_PRECISION = 38
DECIMAL256_MAX_PRECISION = 76

_INT_TYPES = {
    (8, True): pa.int8(), (16, True): pa.int16(), (32, True): pa.int32(), (64, True): pa.int64(),
    (8, False): pa.uint8(), (16, False): pa.uint16(), (32, False): pa.uint32(),
    (64, False): pa.uint64(),
}
# Canonical kinds with no Arrow type this pyarrow offers (pyarrow 26 has no VARIANT type),
# and, for GEOMETRY / GEOGRAPHY (Arrow's `geoarrow.wkb`, `geoarrow`), what an engine that
# does not know that extension type makes of it (measured with polars 2.1 and DataFusion 55).
_GEOARROW_LOST = ("measured: handed Arrow's geoarrow.wkb extension type, the engine writes a plain "
                  "BYTE_ARRAY column without the {} annotation")
NO_ARROW_FORM = {
    "geometry": _GEOARROW_LOST.format("GEOMETRY"),
    "geography": _GEOARROW_LOST.format("GEOGRAPHY"),
    "variant": "pyarrow has no VARIANT type",
    "char": "Arrow has no CHAR type (text of a declared length)",
    "varchar": "Arrow has no VARCHAR type (text of a declared length)",
}
_FLOAT_TYPES = {16: pa.float16(), 32: pa.float32(), 64: pa.float64()}

_NUMPY_FLOAT = {16: np.float16, 32: np.float32, 64: np.float64}


def _has_extension(name: str) -> bool:
    return hasattr(pa, name)


# ---- canonical -> Arrow: types ------------------------------------------------

def arrow_type(t: DataType) -> pa.DataType:
    """The Arrow type that carries canonical type `t` exactly."""
    match t.kind:
        case "boolean":
            return pa.bool_()
        case "int":
            return _INT_TYPES[(t.bit_width, t.is_signed)]
        case "int96":
            return pa.timestamp("ns")
        case "float":
            return _FLOAT_TYPES[t.bit_width]
        case "decimal":
            if t.decimal_precision <= DECIMAL128_MAX_PRECISION:
                return pa.decimal128(t.precision, t.scale)
            if t.decimal_precision <= DECIMAL256_MAX_PRECISION:
                return pa.decimal256(t.precision, t.scale)
            raise Unsupported(f"DECIMAL({t.precision},{t.scale}): Arrow decimals hold at most "
                              f"{DECIMAL256_MAX_PRECISION} digits")
        case "binary" | "bson":
            return pa.binary()
        case "string" | "enum":
            return pa.string()
        case "json":
            return pa.json_() if _has_extension("json_") else pa.string()
        case "fixed":
            return pa.binary(t.length)
        case "uuid":
            return pa.uuid() if _has_extension("uuid") else pa.binary(16)
        case "date":
            return pa.date32()
        case "time":
            return pa.time32("ms") if t.unit == "ms" else pa.time64(t.unit)
        case "timestamp":
            return pa.timestamp(t.unit, tz="UTC" if t.utc else None)
        case "interval":
            return pa.month_day_nano_interval()
        case "unknown":
            return pa.null()
        case "list":
            return pa.list_(arrow_field(t.list_element))
        case "map":
            return pa.map_(arrow_field(t.map_key), arrow_field(t.map_value))
        case "struct":
            return pa.struct([arrow_field(f) for f in t.fields])
        case "union":
            return pa.sparse_union([arrow_field(f) for f in t.fields],
                                   type_codes=list(range(len(t.fields))))
        case "geometry" | "geography":
            return wkb_type(t)
        case "variant" | "char" | "varchar":
            raise Unsupported(f"{t.describe()}: {NO_ARROW_FORM[t.kind]}")
    raise AssertionError(f"unhandled kind {t.kind}")


def arrow_field(f: Field) -> pa.Field:
    return pa.field(f.name, arrow_type(f.type), nullable=f.nullable)


def schema_to_arrow(schema: Schema) -> pa.Schema:
    return pa.schema([arrow_field(f) for f in schema])


# ---- canonical -> Arrow: values -----------------------------------------------

def table_to_arrow(table: Table) -> pa.Table:
    """The canonical table as an Arrow table with `schema_to_arrow(table.schema)`."""
    schema = schema_to_arrow(table.schema)
    arrays = [array_to_arrow(f.type, [row[i] for row in table.rows])
              for i, f in enumerate(table.schema)]
    return pa.Table.from_arrays(arrays, schema=schema)


def array_to_arrow(t: DataType, values: Sequence[Any]) -> pa.Array:
    """An Arrow array of type `arrow_type(t)` holding canonical `values` (None: null)."""
    target = arrow_type(t)
    mask = [v is None for v in values]
    match t.kind:
        case "boolean" | "int" | "binary" | "bson" | "string" | "enum" | "fixed":
            return pa.array(values, type=target)
        case "int96" | "timestamp" | "date" | "time":
            storage = _storage_int(target)
            _check_storage_range(t, values, storage.bit_width)
            return pa.array(values, type=storage).view(target)
        case "float":
            return _floats_to_arrow(t.bit_width, values, mask)
        case "decimal":
            return pa.array([None if v is None else _decimal(v, t.decimal_scale) for v in values],
                            type=target)
        case "json":
            storage = pa.array(values, type=pa.string())
            if isinstance(target, pa.BaseExtensionType):
                return pa.ExtensionArray.from_storage(target, storage)
            return storage
        case "geometry" | "geography":
            return pa.ExtensionArray.from_storage(target, pa.array(values, type=pa.binary()))
        case "uuid":
            storage = pa.array([None if v is None else uuid_to_bytes(v) for v in values],
                               type=pa.binary(16))
            if isinstance(target, pa.BaseExtensionType):
                return pa.ExtensionArray.from_storage(target, storage)
            return storage
        case "interval":
            return pa.array([None if v is None else _month_day_nano(v) for v in values],
                            type=target)
        case "unknown":
            return pa.nulls(len(values))
        case "list" | "map":
            offsets = [0]
            flat: list[Any] = []  # the elements, or the (key, value) entries
            for v in values:
                flat.extend(v or ())
                offsets.append(len(flat))
            offsets_array = pa.array(offsets, type=pa.int32())
            if t.kind == "list":
                child = array_to_arrow(t.list_element.type, flat)
                return pa.ListArray.from_arrays(offsets_array, child, type=target,
                                                mask=pa.array(mask, pa.bool_()))
            keys = array_to_arrow(t.map_key.type, [k for k, _ in flat])
            items = array_to_arrow(t.map_value.type, [x for _, x in flat])
            return pa.MapArray.from_arrays(offsets_array, keys, items, type=target,
                                           mask=pa.array(mask, pa.bool_()))
        case "struct":
            children = [array_to_arrow(f.type, [None if v is None else v[f.name] for v in values])
                        for f in t.fields]
            if not t.fields:
                raise Unsupported("a STRUCT without fields has no Arrow form")
            return pa.StructArray.from_arrays(children, fields=list(target),
                                              mask=pa.array(mask, pa.bool_()))
        case "union":
            return _union_to_arrow(t, values, target)
    raise AssertionError(f"unhandled kind {t.kind}")


def _union_to_arrow(t: DataType, values: Sequence[Any], target: pa.DataType) -> pa.Array:
    """A sparse union: every child as long as the array, holding its tag's rows."""
    if any(v is None for v in values):
        raise Unsupported("a null UNION value has no Arrow form: Arrow unions have no validity "
                          "bitmap of their own, only their children do")
    tags = [tag for tag, _ in values]
    children = [array_to_arrow(f.type, [v if tag == i else None for tag, v in values])
                for i, f in enumerate(t.fields)]
    return pa.UnionArray.from_sparse(pa.array(tags, pa.int8()), children,
                                     field_names=[f.name for f in target],
                                     type_codes=list(target.type_codes))


def _check_storage_range(t: DataType, values: Sequence[Any], bits: int) -> None:
    """Unsupported for a temporal value Arrow's signed `bits`-bit count cannot hold (an
    ORC nanosecond timestamp before 1677 or after 2262)."""
    limit = 2 ** (bits - 1)
    outside = next((v for v in values if v is not None and not -limit <= v < limit), None)
    if outside is not None:
        raise Unsupported(f"{t.describe()} value {outside} is outside the {bits}-bit count "
                          "Arrow stores it in")


def _storage_int(t: pa.DataType) -> pa.DataType:
    return pa.int32() if t.bit_width == 32 else pa.int64()


def _decimal(unscaled: int, scale: int) -> decimal.Decimal:
    """The Decimal unscaled * 10**-scale, built from its digits (no context rounding)."""
    sign = 1 if unscaled < 0 else 0
    return decimal.Decimal((sign, tuple(int(d) for d in str(abs(unscaled))), -scale))


def _month_day_nano(v: tuple[int, int, int]) -> pa.MonthDayNano:
    months, days, millis = v
    if months > INT32_MAX or days > INT32_MAX:
        raise Unsupported(f"INTERVAL {v}: Arrow month_day_nano holds months and days as signed "
                          f"32-bit integers, Parquet INTERVAL as unsigned ones")
    return pa.MonthDayNano([months, days, millis * NANOS_PER_MILLI])


def _floats_to_arrow(bits: int, values: Sequence[Any], mask: list[bool]) -> pa.Array:
    doubles = np.array([0.0 if v is None else v for v in values], dtype=np.float64)
    narrow = narrow_float_bits(doubles, bits).view(_NUMPY_FLOAT[bits])
    return pa.array(narrow, type=_FLOAT_TYPES[bits], mask=np.array(mask, dtype=bool))


# ---- Arrow -> canonical: types ------------------------------------------------

_ARROW_UNIT = {"s": "ms", "ms": "ms", "us": "us", "ns": "ns"}  # seconds are read as millis


def canonical_type(t: pa.DataType) -> DataType:
    """The canonical type a reader handing back Arrow type `t` claims (physical unknown)."""
    if isinstance(t, pa.BaseExtensionType):
        return _extension_type(t)
    if pa.types.is_dictionary(t):
        return canonical_type(t.value_type)
    if pa.types.is_boolean(t):
        return DataType("boolean")
    if pa.types.is_integer(t):
        return DataType("int", bits=t.bit_width, signed=pa.types.is_signed_integer(t))
    if pa.types.is_floating(t):
        return DataType("float", bits=t.bit_width)
    if pa.types.is_decimal(t):
        return DataType("decimal", precision=t.precision - min(t.scale, 0),
                        scale=max(t.scale, 0))
    if (pa.types.is_binary(t) or pa.types.is_large_binary(t)
            or pa.types.is_binary_view(t)):
        return DataType("binary")
    if pa.types.is_fixed_size_binary(t):
        return DataType("fixed", length=t.byte_width)
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return DataType("string")
    if pa.types.is_date(t):
        return DataType("date")
    if pa.types.is_time(t):
        return DataType("time", unit=_ARROW_UNIT[t.unit])
    if pa.types.is_timestamp(t):
        return DataType("timestamp", unit=_ARROW_UNIT[t.unit], utc=t.tz is not None)
    if t == pa.month_day_nano_interval():
        return DataType("interval")
    if pa.types.is_null(t):
        return DataType("unknown")
    if pa.types.is_map(t):
        return DataType("map", key=_canonical_field(t.key_field),
                        value=_canonical_field(t.item_field))
    if _is_list_like(t):
        return DataType("list", element=_canonical_field(t.value_field))
    if pa.types.is_struct(t):
        return DataType("struct", fields=tuple(_canonical_field(t.field(i))
                                               for i in range(t.num_fields)))
    if pa.types.is_union(t):  # the alternatives by position: the tag is the child's index
        return DataType("union", fields=tuple(Field(str(i), canonical_type(t.field(i).type))
                                              for i in range(t.num_fields)))
    raise LossyConversion(f"Arrow type {t} has no canonical form")


def _canonical_field(f: pa.Field) -> Field:
    return Field(f.name, canonical_type(f.type), f.nullable)


def _is_list_like(t: pa.DataType) -> bool:
    return (pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t)
            or pa.types.is_list_view(t) or pa.types.is_large_list_view(t))


_OPAQUE_TYPE = getattr(pa, "OpaqueType", None)  # pyarrow 18 and later


def _extension_name(t: pa.BaseExtensionType) -> str:
    if _OPAQUE_TYPE is not None and isinstance(t, _OPAQUE_TYPE):
        return f"{t.extension_name}[{t.vendor_name}.{t.type_name}]"
    return t.extension_name


# DuckDB's TIME WITH TIME ZONE, exported as an opaque 8-byte value (DuckDB's
# dtime_tz_t): micros since midnight in the high 40 bits, then the offset encoded
# as MAX_OFFSET - offset_seconds in the low 24 bits.
_DUCKDB_TIME_TZ = "arrow.opaque[DuckDB.time_tz]"
_DUCKDB_MAX_OFFSET_SECONDS = 16 * 3600 - 1
_MICROS_PER_DAY = 86_400_000_000


def _extension_type(t: pa.BaseExtensionType) -> DataType:
    name = _extension_name(t)
    if name == "arrow.uuid":
        return DataType("uuid", length=16)
    if name == "arrow.json":
        return DataType("json")
    if name == "arrow.bool8":
        return DataType("boolean")
    if name == GEOARROW_WKB:
        return canonical_geo_type(t)
    if name == _DUCKDB_TIME_TZ:
        return DataType("time", unit="us", utc=True)
    raise LossyConversion(f"Arrow extension type {name} has no canonical form")


# ---- Arrow -> canonical: values -----------------------------------------------

def engine_table(engine: str, table: pa.Table) -> Table:
    """What `engine` read (its Arrow table), converted by this suite: a failure of the
    conversion is a `HarnessError`, not the engine's (`base.converting`)."""
    with converting(engine):
        return arrow_to_table(table)


def _strings(arr: pa.Array) -> list:
    """A string array's values; an engine that hands back a "string" that is not UTF-8
    (pyarrow reading an ORC file, which checks nothing) gave no text to compare."""
    try:
        return arr.to_pylist()
    except UnicodeDecodeError as exc:
        raise LossyConversion(f"the engine returned a string value that is not UTF-8: {exc}") from exc


def arrow_to_table(table: pa.Table) -> Table:
    """A reader's Arrow table as a canonical table, type by type from the Arrow schema."""
    fields, columns = [], []
    for arrow_f, column in zip(table.schema, table.columns, strict=True):
        fields.append(_canonical_field(arrow_f))
        values: list[Any] = []
        for chunk in column.chunks:
            values.extend(array_to_values(chunk))
        columns.append(values)
    schema = Schema(tuple(fields))
    if not fields:
        return Table(schema, ())
    return Table.from_columns(schema, columns)


def array_to_values(arr: pa.Array) -> list[Any]:
    """Canonical values of one Arrow array (None for null), exactly."""
    t = arr.type
    if isinstance(t, pa.BaseExtensionType):
        return _extension_values(arr)
    if pa.types.is_dictionary(t):
        return array_to_values(arr.dictionary_decode())
    if pa.types.is_null(t):
        return [None] * len(arr)
    if pa.types.is_union(t):  # before `_validity`: an invalid union's validity reads wild memory
        return _union_values(arr)
    valid = _validity(arr)
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return _strings(arr)
    if (pa.types.is_boolean(t) or pa.types.is_integer(t) or pa.types.is_binary(t)
            or pa.types.is_large_binary(t) or pa.types.is_binary_view(t)
            or pa.types.is_fixed_size_binary(t)):
        return arr.to_pylist()
    if pa.types.is_floating(t):
        raw = np.asarray(arr.view(_unsigned_of_width(t.bit_width)).fill_null(0))
        return _with_nulls(widen_float_bits(raw, t.bit_width), valid)
    if pa.types.is_decimal(t):
        return _decimal_values(arr, valid)
    if pa.types.is_date32(t):
        return arr.view(pa.int32()).to_pylist()
    if pa.types.is_date64(t):
        return [None if ms is None else _exact_div(ms, MILLIS_PER_DAY, "date64 millis", "days")
                for ms in arr.view(pa.int64()).to_pylist()]
    if pa.types.is_time(t) or pa.types.is_timestamp(t):
        ints = arr.view(pa.int32() if t.bit_width == 32 else pa.int64()).to_pylist()
        if t.unit == "s":
            return [None if v is None else v * 1000 for v in ints]
        return ints
    if t == pa.month_day_nano_interval():
        return [None if v is None else _interval(v) for v in arr.to_pylist()]
    if pa.types.is_map(t):
        return _map_values(arr, valid)
    if _is_list_like(t):
        return _list_values(arr, valid)
    if pa.types.is_struct(t):
        children = arr.flatten()
        names = [t.field(i).name for i in range(t.num_fields)]
        child_values = [array_to_values(c) for c in children]
        return [dict(zip(names, (cv[i] for cv in child_values), strict=True)) if ok else None
                for i, ok in enumerate(valid)]
    raise LossyConversion(f"Arrow type {t} has no canonical form")


def _validity(arr: pa.Array) -> list[bool]:
    return arr.is_valid().to_pylist()


def _with_nulls(values: list[Any], valid: list[bool]) -> list[Any]:
    return [v if ok else None for v, ok in zip(values, valid, strict=True)]


def _unsigned_of_width(bits: int) -> pa.DataType:
    return {16: pa.uint16(), 32: pa.uint32(), 64: pa.uint64()}[bits]


def _exact_div(value: int, divisor: int, what: str, unit: str) -> int:
    quotient, remainder = divmod(value, divisor)
    if remainder:
        raise LossyConversion(f"{what} {value} is not a whole number of {unit}")
    return quotient


def _decimal_values(arr: pa.Array, valid: list[bool]) -> list[Any]:
    """Unscaled integers straight from the little-endian two's complement storage."""
    width = arr.type.byte_width
    data = arr.buffers()[1]
    raw = memoryview(data)[arr.offset * width:(arr.offset + len(arr)) * width] if data else b""
    factor = 10 ** max(-arr.type.scale, 0)  # a negative Arrow scale is read as scale 0
    return [int.from_bytes(raw[i * width:(i + 1) * width], "little", signed=True) * factor
            if ok else None for i, ok in enumerate(valid)]


def _interval(v: pa.MonthDayNano) -> tuple[int, int, int]:
    months, days, nanos = v.months, v.days, v.nanoseconds
    millis = _exact_div(nanos, NANOS_PER_MILLI, "interval nanoseconds", "milliseconds")
    for part in (months, days, millis):
        if not 0 <= part < 2**32:
            raise LossyConversion(f"interval {(months, days, nanos)} has a field outside the "
                                  "unsigned 32-bit range of Parquet INTERVAL")
    return (months, days, millis)


def _list_values(arr: pa.Array, valid: list[bool]) -> list[Any]:
    t = arr.type
    child = array_to_values(arr.values)  # the child array ignores the parent's offset
    if pa.types.is_fixed_size_list(t):
        size = t.list_size
        starts = [(arr.offset + i) * size for i in range(len(arr))]
        ends = [s + size for s in starts]
    elif pa.types.is_list_view(t) or pa.types.is_large_list_view(t):
        starts = arr.offsets.to_pylist()
        ends = [s + n for s, n in zip(starts, arr.sizes.to_pylist(), strict=True)]
    else:
        offsets = arr.offsets.to_pylist()
        starts, ends = offsets[:-1], offsets[1:]
    return [child[s:e] if ok else None for s, e, ok in zip(starts, ends, valid, strict=True)]


def _union_values(arr: pa.UnionArray) -> list[Any]:
    """(tag, value) pairs, the tag being the child's index. An Arrow union has no nulls of
    its own: a null child value is read as (tag, None)."""
    try:
        # A type code not among the type's or an offset past its child (pyarrow's ORC reader
        # returns such a union for a bad file): reading on would crash or misread.
        arr.validate(full=True)
    except pa.ArrowInvalid as exc:
        raise LossyConversion(f"the engine returned an invalid Arrow union: {exc}") from None
    t = arr.type
    index_of_code = {code: i for i, code in enumerate(t.type_codes)}
    children = [array_to_values(arr.field(i)) for i in range(t.num_fields)]
    # From the buffers: pyarrow 26's `type_codes`/`offsets` ignore a slice's offset (measured).
    rows = slice(arr.offset, arr.offset + len(arr))
    codes = np.frombuffer(arr.buffers()[1], dtype=np.int8)[rows].tolist()
    if t.mode == "sparse":  # field(i) is already sliced to the array's rows
        positions = list(range(len(arr)))
    else:
        positions = np.frombuffer(arr.buffers()[2], dtype=np.int32)[rows].tolist()
    return [(index_of_code[code], children[index_of_code[code]][position])
            for code, position in zip(codes, positions, strict=True)]


def _map_values(arr: pa.MapArray, valid: list[bool]) -> list[Any]:
    entries = arr.values  # struct<key, value>, ignoring the parent's offset
    keys, items = (array_to_values(c) for c in entries.flatten())
    offsets = arr.offsets.to_pylist()
    return [list(zip(keys[s:e], items[s:e], strict=True)) if ok else None
            for s, e, ok in zip(offsets[:-1], offsets[1:], valid, strict=True)]


def _extension_values(arr: pa.ExtensionArray) -> list[Any]:
    name = _extension_name(arr.type)
    storage = arr.storage
    if name == "arrow.uuid":
        return [None if b is None else uuid_from_bytes(b) for b in storage.to_pylist()]
    if name == "arrow.json":
        return array_to_values(storage)
    if name == "arrow.bool8":
        return [None if b is None else b != 0 for b in storage.to_pylist()]
    if name == GEOARROW_WKB:
        return storage.to_pylist()
    if name == _DUCKDB_TIME_TZ:
        return [None if b is None else _duckdb_time_tz(b) for b in storage.to_pylist()]
    raise LossyConversion(f"Arrow extension type {name} has no canonical form")


def _duckdb_time_tz(raw: bytes) -> int:
    """Micros since midnight UTC of a DuckDB TIMETZ value (see `_DUCKDB_TIME_TZ`)."""
    bits = int.from_bytes(raw, "little", signed=False)
    micros = bits >> 24
    offset_seconds = _DUCKDB_MAX_OFFSET_SECONDS - (bits & 0xFFFFFF)
    return (micros - offset_seconds * 1_000_000) % _MICROS_PER_DAY


def filter_expression(predicate: Predicate, file_schema: pa.Schema):
    """The pyarrow.compute expression for `predicate` over a file with Arrow `file_schema`."""
    import pyarrow.compute as pc

    column = pc.field(predicate.column)
    if predicate.op == "is_null":
        return column.is_null()
    if predicate.op == "is_not_null":
        return column.is_valid()
    scalar = array_to_arrow(predicate.bound_type(), [predicate.value])[0]
    target = file_schema.field(predicate.column).type
    if scalar.type != target:
        scalar = scalar.cast(target)  # safe cast: raises rather than change the value
    return _OPERATORS[predicate.op](column, pc.scalar(scalar))


_OPERATORS = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
              "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}
