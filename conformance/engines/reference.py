"""The reference implementation (`reference_impl.parquet`) as an engine.

This adapter only translates: canonical types <-> Parquet schema annotations
(LogicalType and the ConvertedType fallback of LogicalTypes.md,
"Compatibility"), and canonical values <-> physical values via
`reference_impl.parquet.logical_values`. Reading derives the reader's view of
each column from the file's own annotations, never from the case.
"""

from __future__ import annotations

from pathlib import Path

from conformance.cases import Case
from conformance.values import DataType, Field, Schema, Table
from conformance.values import types as T
from conformance.values.codec import uuid_from_bytes, uuid_to_bytes
from reference_impl.parquet import logical_values as LV
from reference_impl.parquet import metadata as M
from reference_impl.parquet.reader import read_parquet
from reference_impl.parquet.schema import ColumnSpec
from reference_impl.parquet.writer import write_parquet

from .base import Capabilities, Engine, Unsupported

CREATED_BY = "columnar-conformance reference_impl"
_NOT_YET = "the reference implementation does not implement this yet (issue 3)"

CAPABILITIES = Capabilities(
    writes=("physical:*", "type:*", "repetition:*", "encoding:PLAIN", "codec:UNCOMPRESSED",
            "page:v1", "row_groups:*", "rows:*", "nulls:*"),
    reads=("physical:*", "type:*", "repetition:*", "encoding:PLAIN", "codec:UNCOMPRESSED",
           "page:v1", "row_groups:*", "rows:*", "nulls:*"),
)

_UNITS = {"ms": "MILLIS", "us": "MICROS", "ns": "NANOS"}
_UNIT_CLASSES = {"MILLIS": M.MilliSeconds, "MICROS": M.MicroSeconds, "NANOS": M.NanoSeconds}


class ReferenceEngine(Engine):
    name = "reference"
    distribution = "columnar-conformance"
    capabilities = CAPABILITIES

    def write(self, case: Case, path: Path) -> None:
        if any(f.type.is_nested for f in case.schema):
            raise Unsupported(f"nested columns: {_NOT_YET}")
        columns = [_column_spec(f) for f in case.schema]
        data = {f.name: [_to_physical(f.type, row[i]) for row in case.rows]
                for i, f in enumerate(case.schema)}
        write_parquet(path, columns, data, row_group_size=case.options.row_group_size,
                      created_by=f"{CREATED_BY} {self.version}")

    def read(self, path: Path) -> Table:
        result = read_parquet(path)
        fields = [Field(c.name, canonical_type(c), c.repetition != M.FieldRepetitionType.REQUIRED)
                  for c in result.columns]
        columns = [[_from_physical(f.type, v) for v in result.data[f.name]] for f in fields]
        return Table.from_columns(Schema(tuple(fields)), columns)


# ---- canonical type -> Parquet schema -------------------------------------------

def _time_unit(unit: str) -> M.TimeUnit:
    name = _UNITS[unit]
    return M.TimeUnit(**{name: _UNIT_CLASSES[name]()})


def _logical_type(t: DataType) -> M.LogicalType | None:
    match t.kind:
        case "int":
            return M.LogicalType(INTEGER=M.IntType(bitWidth=t.bits, isSigned=t.signed))
        case "string":
            return M.LogicalType(STRING=M.StringType())
        case "enum":
            return M.LogicalType(ENUM=M.EnumType())
        case "json":
            return M.LogicalType(JSON=M.JsonType())
        case "bson":
            return M.LogicalType(BSON=M.BsonType())
        case "uuid":
            return M.LogicalType(UUID=M.UUIDType())
        case "float" if t.bits == 16:
            return M.LogicalType(FLOAT16=M.Float16Type())
        case "decimal":
            return M.LogicalType(DECIMAL=M.DecimalType(scale=t.scale, precision=t.precision))
        case "date":
            return M.LogicalType(DATE=M.DateType())
        case "time":
            return M.LogicalType(TIME=M.TimeType(isAdjustedToUTC=t.utc, unit=_time_unit(t.unit)))
        case "timestamp":
            return M.LogicalType(TIMESTAMP=M.TimestampType(isAdjustedToUTC=t.utc,
                                                           unit=_time_unit(t.unit)))
        case "unknown":
            return M.LogicalType(UNKNOWN=M.NullType())
        case "geometry":
            return M.LogicalType(GEOMETRY=M.GeometryType(crs=t.crs))
        case "geography":
            algorithm = None if t.algorithm is None else M.EdgeInterpolationAlgorithm[t.algorithm]
            return M.LogicalType(GEOGRAPHY=M.GeographyType(crs=t.crs, algorithm=algorithm))
    return None


def _column_spec(f: Field) -> ColumnSpec:
    t = f.type
    repetition = M.FieldRepetitionType.OPTIONAL if f.nullable else M.FieldRepetitionType.REQUIRED
    # INTERVAL has no LogicalType member: only the ConvertedType says it (LogicalTypes.md).
    converted = M.ConvertedType.INTERVAL if t.kind == "interval" else None
    return ColumnSpec(name=f.name, physical_type=M.Type[t.physical], repetition=repetition,
                      type_length=t.length if t.physical == "FIXED_LEN_BYTE_ARRAY" else None,
                      logical_type=_logical_type(t), converted_type=converted,
                      scale=t.scale, precision=t.precision)


def _to_physical(t: DataType, v):
    if v is None:
        return None
    match t.kind:
        case "int" if not t.signed:
            return LV.from_unsigned(v, t.bits)
        case "int96":
            return LV.nanos_to_int96(v)
        case "float" if t.bits == 16:
            return LV.float16_to_bytes(v)
        case "decimal" if t.physical in ("FIXED_LEN_BYTE_ARRAY", "BYTE_ARRAY"):
            return LV.decimal_to_bytes(v, t.length if t.physical == "FIXED_LEN_BYTE_ARRAY" else None)
        case "string" | "enum" | "json":
            return v.encode("utf-8")
        case "uuid":
            return uuid_to_bytes(v)
        case "interval":
            return LV.interval_to_bytes(v)
    return v


# ---- Parquet schema -> canonical type (the reader's own view) --------------------

_CONVERTED_INTS = {
    M.ConvertedType.INT_8: (8, True), M.ConvertedType.INT_16: (16, True),
    M.ConvertedType.INT_32: (32, True), M.ConvertedType.INT_64: (64, True),
    M.ConvertedType.UINT_8: (8, False), M.ConvertedType.UINT_16: (16, False),
    M.ConvertedType.UINT_32: (32, False), M.ConvertedType.UINT_64: (64, False),
}
_CONVERTED_TEMPORAL = {
    M.ConvertedType.TIME_MILLIS: ("time", "ms"), M.ConvertedType.TIME_MICROS: ("time", "us"),
    M.ConvertedType.TIMESTAMP_MILLIS: ("timestamp", "ms"),
    M.ConvertedType.TIMESTAMP_MICROS: ("timestamp", "us"),
}
_CONVERTED_BYTES = {M.ConvertedType.UTF8: "string", M.ConvertedType.ENUM: "enum",
                    M.ConvertedType.JSON: "json", M.ConvertedType.BSON: "bson"}


def canonical_type(c: ColumnSpec) -> DataType:
    """What a column means, from its LogicalType, else its ConvertedType, else its physical type."""
    physical = M.Type(c.physical_type).name
    logical = c.logical_type.kind if c.logical_type is not None else None
    t = _from_logical(c, physical) if logical else _from_converted(c, physical)
    return t or _from_physical_type(c, physical)


def _from_logical(c: ColumnSpec, physical: str) -> DataType | None:
    lt = c.logical_type.member
    match c.logical_type.kind:
        case "INTEGER":
            return T.integer(lt.bitWidth, lt.isSigned, physical)
        case "STRING" | "ENUM" | "JSON" | "BSON":
            return DataType(c.logical_type.kind.lower(), physical)
        case "UUID":
            return T.uuid()
        case "FLOAT16":
            return T.floating(16)
        case "DECIMAL":
            return T.decimal(lt.precision, lt.scale, physical, c.type_length)
        case "DATE":
            return T.date()
        case "TIME" | "TIMESTAMP":
            unit = {v: k for k, v in _UNITS.items()}[lt.unit.kind]
            return DataType(c.logical_type.kind.lower(), physical, unit=unit,
                            utc=lt.isAdjustedToUTC)
        case "UNKNOWN":
            return DataType("unknown", physical)
        case "GEOMETRY":
            return T.geometry(lt.crs)
        case "GEOGRAPHY":
            algorithm = None if lt.algorithm is None else M.EdgeInterpolationAlgorithm(lt.algorithm).name
            return T.geography(lt.crs, algorithm)
    raise Unsupported(f"column {c.name!r}: logical type {c.logical_type.kind}: {_NOT_YET}")


def _from_converted(c: ColumnSpec, physical: str) -> DataType | None:
    ct = c.converted_type
    if ct is None:
        return None
    if ct in _CONVERTED_INTS:
        return T.integer(*_CONVERTED_INTS[ct], physical)
    if ct in _CONVERTED_TEMPORAL:
        kind, unit = _CONVERTED_TEMPORAL[ct]
        # LogicalTypes.md: the deprecated ConvertedTypes mean isAdjustedToUTC = true.
        return DataType(kind, physical, unit=unit, utc=True)
    if ct in _CONVERTED_BYTES:
        return DataType(_CONVERTED_BYTES[ct], physical)
    if ct == M.ConvertedType.DECIMAL:
        return T.decimal(c.precision, c.scale, physical, c.type_length)
    if ct == M.ConvertedType.DATE:
        return T.date()
    if ct == M.ConvertedType.INTERVAL:
        return T.interval()
    raise Unsupported(f"column {c.name!r}: converted type {M.ConvertedType(ct).name}: {_NOT_YET}")


def _from_physical_type(c: ColumnSpec, physical: str) -> DataType:
    match physical:
        case "BOOLEAN":
            return T.boolean()
        case "INT32":
            return T.integer(32)
        case "INT64":
            return T.integer(64)
        case "INT96":
            return T.int96()
        case "FLOAT":
            return T.floating(32)
        case "DOUBLE":
            return T.floating(64)
        case "BYTE_ARRAY":
            return T.binary()
        case "FIXED_LEN_BYTE_ARRAY":
            return T.fixed(c.type_length)
    raise Unsupported(f"column {c.name!r}: physical type {physical}")


def _from_physical(t: DataType, v):
    if v is None:
        return None
    match t.kind:
        case "int" if not t.signed:
            return LV.to_unsigned(v, t.bits)
        case "int96":
            return LV.int96_to_nanos(v)
        case "float" if t.bits == 16:
            return LV.float16_from_bytes(v)
        case "decimal" if isinstance(v, bytes):
            return LV.decimal_from_bytes(v)
        case "string" | "enum" | "json":
            return v.decode("utf-8")  # invalid UTF-8 raises: a finding, not a guess
        case "uuid":
            return uuid_from_bytes(v)
        case "interval":
            return LV.interval_from_bytes(v)
    return v
