"""What both Spark adapters (Parquet's and ORC's) share: canonical values into a Spark
DataFrame and back, exactly, and a failed Spark job's Java causes.

Values cross the Py4J boundary in exact forms only (docs/architecture.md, 'Engine
adapter'): temporal columns are handed over as integer counts and made Spark types in
Spark SQL (`from_staging`: `date_from_unix_date`, `timestamp_micros`), and turned back
into integer counts in Spark SQL before they are collected (`unix_micros`,
`unix_date`), so no Python datetime or time-zone conversion can change them. Maps cross
as their entries, in order (a collected map is a Python dict built through a Java
HashMap, in hash order). The canonical type of a column read is Spark's own StructType
(`dataframe_table`). A case's predicate becomes a Spark condition (`spark_condition`),
its constant an exact literal cast to the file column's Spark type, for both adapters'
filtered reads; `session_conf` sets SQL settings for one call. Neither format's folder
owns this module; both adapters import it.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace
from decimal import Decimal

from conformance.cases.predicate import Predicate
from conformance.values import DataType, Field, Schema, Table
from conformance.values import types as T
from conformance.values.codec import decimal_from_unscaled, unscaled_from_decimal

from .base import Unsupported, converting

NANOS_PER_MICRO = 1_000
MAX_JAVA_CAUSES = 8
NO_SPARK_TYPE = "Spark SQL has no such data type (Spark SQL reference, 'Data Types')"


class SparkJobFailed(RuntimeError):
    """A Spark job failed; the message carries the Java exception and its causes."""


@contextlib.contextmanager
def java_causes():
    """Re-raise a Py4J error with its chain of Java causes: the top-level Spark message
    ("Encountered error while reading file") names no reason, the innermost cause does."""
    from py4j.protocol import Py4JJavaError

    try:
        yield
    except Py4JJavaError as exc:
        chain, cause = [], exc.java_exception
        while cause is not None and len(chain) < MAX_JAVA_CAUSES:
            chain.append(cause.toString())
            cause = cause.getCause()
        raise SparkJobFailed("\ncaused by: ".join(chain)) from None


def dataframe_table(df, engine: str) -> Table:
    """The canonical table of what a DataFrame holds: the canonical type of each column
    from its Spark type, each value collected exactly (``_exact_column``) and converted."""
    from pyspark.sql import functions as F

    schema = Schema(tuple(_field_from_spark(f) for f in df.schema.fields))
    exact = df.select(*[_exact_column(F.col(f"`{f.name}`"), f.dataType).alias(f.name)
                        for f in df.schema.fields])
    collected = exact.collect()
    with converting(engine):
        rows = [tuple(_from_spark_value(f.type, v) for f, v in zip(schema, row, strict=True))
                for row in collected]
    return Table(schema, tuple(rows))


# ---- canonical -> Spark ---------------------------------------------------------

def staging_type(t: DataType):
    """The Spark type a canonical value is handed over as (temporal ones as integers)."""
    from pyspark.sql import types as S

    match t.kind:
        case "boolean":
            return S.BooleanType()
        case "int":
            return {8: S.ByteType(), 16: S.ShortType(), 32: S.IntegerType(), 64: S.LongType()}[t.bit_width]
        case "float":
            return S.FloatType() if t.bits == 32 else S.DoubleType()
        case "decimal":
            return S.DecimalType(t.decimal_precision, t.decimal_scale)
        case "string":
            return S.StringType()
        case "binary" | "geometry" | "geography":  # geospatial values staged as their WKB
            return S.BinaryType()
        case "date":
            return S.IntegerType()
        case "timestamp" | "int96":
            return S.LongType()
        case "list":
            return S.ArrayType(staging_type(t.list_element.type), t.list_element.nullable)
        case "map":  # staged as its entries, in order (`from_staging` makes the map)
            return S.ArrayType(S.StructType([
                S.StructField("key", staging_type(t.map_key.type), False),
                S.StructField("value", staging_type(t.map_value.type), t.map_value.nullable)]),
                False)
        case "struct":
            return staging_schema(t.fields)
        case "variant":
            return S.VariantType()
    raise Unsupported(f"{t.describe()}: {NO_SPARK_TYPE}")


def staging_schema(fields):
    from pyspark.sql import types as S

    return S.StructType([S.StructField(f.name, staging_type(f.type), f.nullable) for f in fields])


def to_spark_value(t: DataType, v):
    if v is None:
        return None
    match t.kind:
        case "decimal":
            return decimal_from_unscaled(v, t.decimal_scale)
        case "timestamp":
            return v * {"ms": 1_000, "us": 1}[t.time_unit]
        case "int96":
            if v % NANOS_PER_MICRO:
                raise Unsupported(f"INT96 value {v} ns is not a whole number of microseconds; "
                                  "Spark timestamps have microsecond precision")
            return v // NANOS_PER_MICRO
        case "list":
            return [to_spark_value(t.list_element.type, e) for e in v]
        case "map":  # its entries in order: a dict would go through a Java HashMap
            return [(to_spark_value(t.map_key.type, k), to_spark_value(t.map_value.type, x)) for k, x in v]
        case "struct":
            return tuple(to_spark_value(f.type, v[f.name]) for f in t.fields)
        case "variant":
            from pyspark.sql.types import VariantVal

            metadata, value = v
            return VariantVal(value, metadata)
    return v


def from_staging(col, f: Field):
    """Turn a staged integer column into the Spark type the case asks for (scalars only)."""
    from pyspark.sql import functions as F

    match f.type.kind:
        case "date":
            col = F.date_from_unix_date(col)
        case "timestamp" if f.type.utc:
            col = F.timestamp_micros(col)
        case "timestamp":
            col = F.timestamp_micros(col).cast("timestamp_ntz")
        case "int96":
            col = F.timestamp_micros(col)
        case "geometry" | "geography":
            col = _geospatial_from_wkb(col, f.type)
        case "list" | "map" | "struct" if _has_temporal(f.type):
            raise Unsupported("temporal values inside nested Spark columns are not staged yet")
        case "list" | "map" | "struct":
            col = _maps_from_entries(col, f.type)
    return col.alias(f.name)


# Spark 4.3 names a CRS by SRID; SRID 4326 is the default CRS of both types, OGC:CRS84
# (pyspark GeometryType.DEFAULT_CRS), the only one the adapter maps (LogicalTypes.md,
# 'GEOMETRY': "If unset, the CRS defaults to "OGC:CRS84"").
SPARK_DEFAULT_SRID = 4326
GEOSPATIAL_DEFAULTS_ONLY = ("the adapter maps only the default CRS (OGC:CRS84, Spark's SRID 4326) "
                            "and edge algorithm (SPHERICAL)")


def _geospatial_from_wkb(col, t: DataType):
    """WKB into Spark's GEOMETRY (st_geomfromwkb gives SRID 0: set 4326) or GEOGRAPHY."""
    from pyspark.sql import functions as F

    if t.crs is not None or t.algorithm is not None:
        raise Unsupported(f"{t.describe()}: {GEOSPATIAL_DEFAULTS_ONLY}")
    if t.kind == "geography":
        return F.st_geogfromwkb(col)
    return F.st_setsrid(F.st_geomfromwkb(col), F.lit(SPARK_DEFAULT_SRID))


def _maps_from_entries(col, t: DataType):
    """`col` with every staged map (its entries, `staging_type`) made a map again, at any depth."""
    from pyspark.sql import functions as F

    match t.kind:
        case "map":
            return F.map_from_entries(F.transform(col, lambda e: F.struct(
                _maps_from_entries(e["key"], t.map_key.type).alias("key"),
                _maps_from_entries(e["value"], t.map_value.type).alias("value"))))
        case "list":
            return F.transform(col, lambda x: _maps_from_entries(x, t.list_element.type))
        case "struct" if any(c.type.kinds() & {"map"} for c in t.fields):
            return F.when(col.isNull(), F.lit(None)).otherwise(F.struct(*[
                _maps_from_entries(col[c.name], c.type).alias(c.name) for c in t.fields]))
    return col


def _has_temporal(t: DataType) -> bool:
    if t.kind in ("date", "timestamp", "int96", "time"):
        return True
    children = [c for c in (t.element, t.key, t.value, *t.fields) if c is not None]
    return any(_has_temporal(c.type) for c in children)


# ---- Spark's own types (conformance.cases.native) --------------------------------
#
# A column a case names "spark:<NAME>" is staged as its canonical values and cast in Spark
# SQL to Spark's type NAME (Spark SQL reference, 'Data Types'); its canonical field is what
# Spark stores (measured in Parquet and ORC files alike; Spark's own type is kept only in
# its metadata, `org.apache.spark.sql.parquet.row.metadata` or the ORC type attribute
# `spark.sql.catalyst.type`):
# - CHAR / VARCHAR: a STRING column, cast to CHAR(n) / VARCHAR(n), n the longest value's
#   length in characters; Spark stores a CHAR(n) value padded to n ('Data Types':
#   "Reading column of type CharType(n) always returns string values of length n"), so the
#   case's CHAR values are the padded ones.
# - YEAR_MONTH_INTERVAL: an INT(32) column of months, cast to INTERVAL YEAR TO MONTH.
# - DAY_TIME_INTERVAL: an INT(64) column of microseconds, cast to INTERVAL DAY TO SECOND.
SPARK_NATIVE = ("CHAR", "VARCHAR", "YEAR_MONTH_INTERVAL", "DAY_TIME_INTERVAL")
# CHAR/VARCHAR stay themselves in a DataFrame only with these (measured: without
# preserveCharVarcharTypeInfo `col.cast("char(5)")` is a StringType and pads nothing).
NATIVE_CONF = {"spark.sql.legacy.charVarcharAsString": "false",
               "spark.sql.preserveCharVarcharTypeInfo": "true"}
MICROS_PER_SECOND = 1_000_000
ONE_MICROSECOND = Decimal("0.000001")  # seconds
_MICRO_SECONDS = "decimal(25,6)"  # every INT64 count of microseconds, in seconds, exactly


def written_columns(schema: Schema, rows, natives):
    """The columns a DataFrame of staged `rows` is written with: each staged column as the
    case's type (`from_staging`), or as Spark's own type where `natives` names one."""
    from pyspark.sql import functions as F

    return [native_column(from_staging(F.col(f"`{f.name}`"), f), f, natives[f.name],
                          [row[i] for row in rows]) if f.name in natives
            else from_staging(F.col(f"`{f.name}`"), f) for i, f in enumerate(schema)]


def native_column(col, f: Field, spec: str, values):
    """Staged column `col` of canonical field `f` as Spark's own type of `spec`."""
    from pyspark.sql import functions as F

    from conformance.cases.native import native_engine, native_name

    name = native_name(spec)
    if native_engine(spec) != "spark" or name not in SPARK_NATIVE:
        raise Unsupported(f"column {f.name!r}: {spec} is not one of Spark's native types "
                          f"{list(SPARK_NATIVE)}")
    if name in ("CHAR", "VARCHAR"):
        length = max((len(v) for v in values if v is not None), default=1)
        return col.cast(f"{name.lower()}({length})").alias(f.name)
    if name == "YEAR_MONTH_INTERVAL":
        return col.cast("interval month").cast("interval year to month").alias(f.name)
    seconds = col.cast("decimal(19,0)") * F.lit(ONE_MICROSECOND)
    return seconds.cast("interval second").cast("interval day to second").alias(f.name)


# ---- Spark -> canonical ---------------------------------------------------------

def _exact_column(col, dtype):
    """An expression giving `col` in a form that collects exactly (temporal -> integers)."""
    from pyspark.sql import functions as F
    from pyspark.sql import types as S

    if isinstance(dtype, S.TimestampType):
        return F.unix_micros(col)
    if isinstance(dtype, S.TimestampNTZType):
        # In the UTC session time zone the cast keeps the wall-clock reading.
        return F.unix_micros(col.cast("timestamp"))
    if isinstance(dtype, S.DateType):
        return F.unix_date(col)
    if isinstance(dtype, S.GeometryType | S.GeographyType):
        return F.st_asbinary(col)
    if isinstance(dtype, S.YearMonthIntervalType):
        return col.cast("interval month").cast("int")
    if isinstance(dtype, S.DayTimeIntervalType):
        return (col.cast("interval second").cast(_MICRO_SECONDS) * MICROS_PER_SECOND).cast("bigint")
    if isinstance(dtype, S.ArrayType):
        return F.transform(col, lambda x: _exact_column(x, dtype.elementType))
    if isinstance(dtype, S.MapType):
        keyed = F.transform_keys(col, lambda k, _v: _exact_column(k, dtype.keyType))
        # As its entries, in the map's order: a collected map is a Python dict built
        # through a Java HashMap, in hash order.
        return F.map_entries(F.transform_values(keyed, lambda _k, v: _exact_column(v, dtype.valueType)))
    if isinstance(dtype, S.StructType):
        return F.when(col.isNull(), F.lit(None)).otherwise(F.struct(*[
            _exact_column(col[f.name], f.dataType).alias(f.name) for f in dtype.fields]))
    return col


def _field_from_spark(f) -> Field:
    return Field(f.name, _type_from_spark(f.dataType), f.nullable)


def _type_from_spark(dtype) -> DataType:
    from pyspark.sql import types as S

    simple = {S.BooleanType: T.boolean(), S.ByteType: T.integer(8), S.ShortType: T.integer(16),
              S.IntegerType: T.integer(32), S.LongType: T.integer(64),
              S.FloatType: T.floating(32), S.DoubleType: T.floating(64),
              S.StringType: T.string(), S.BinaryType: T.binary(), S.DateType: T.date(),
              S.TimestampType: T.timestamp("us", True),
              S.TimestampNTZType: T.timestamp("us", False), S.NullType: T.unknown(),
              S.VariantType: T.variant(),
              # ANSI intervals as what Spark stores (`native_column`): months, microseconds.
              S.YearMonthIntervalType: T.integer(32), S.DayTimeIntervalType: T.integer(64)}
    for spark_type, canonical in simple.items():
        if isinstance(dtype, spark_type):
            return _without_physical(canonical)
    if isinstance(dtype, S.DecimalType):
        return DataType("decimal", precision=dtype.precision, scale=dtype.scale)
    if isinstance(dtype, S.ArrayType):
        return T.list_of(_type_from_spark(dtype.elementType), dtype.containsNull)
    if isinstance(dtype, S.MapType):
        return T.map_of(_type_from_spark(dtype.keyType), _type_from_spark(dtype.valueType),
                        dtype.valueContainsNull)
    if isinstance(dtype, S.StructType):
        return T.struct_of(*[_field_from_spark(f) for f in dtype.fields])
    if isinstance(dtype, S.GeometryType | S.GeographyType) and dtype.srid == SPARK_DEFAULT_SRID:
        return T.geometry() if isinstance(dtype, S.GeometryType) else T.geography()
    raise Unsupported(f"no canonical form for Spark type {dtype.simpleString()}")


def _without_physical(t: DataType) -> DataType:
    """A reader's view carries no physical type: Spark does not expose it."""
    return replace(t, physical=None)


def _from_spark_value(t: DataType, v):
    if v is None:
        return None
    match t.kind:
        case "binary" | "geometry" | "geography":  # geospatial: the WKB `_exact_column` collects
            return bytes(v)
        case "decimal":
            return unscaled_from_decimal(v, t.decimal_scale)
        case "list":
            return [_from_spark_value(t.list_element.type, e) for e in v]
        case "map":
            return [(_from_spark_value(t.map_key.type, k), _from_spark_value(t.map_value.type, x))
                    for k, x in v]  # the entries `_exact_column` collects
        case "struct":
            return {f.name: _from_spark_value(f.type, v[f.name]) for f in t.fields}
        case "variant":  # a VariantVal: the unshredded bytes, however the file held them
            return bytes(v.metadata), bytes(v.value)
    return v


@contextlib.contextmanager
def session_conf(spark, settings: dict[str, str]):
    """``settings`` on the session for one call; the previous values (or none) after it."""
    previous = {key: spark.conf.get(key, None) for key in settings}
    try:
        for key, value in settings.items():
            spark.conf.set(key, value)
        yield
    finally:
        for key, value in previous.items():
            spark.conf.unset(key) if value is None else spark.conf.set(key, value)


# ---- filtered reads -------------------------------------------------------------

INT64_MAX = 2**63 - 1
MICROS_PER_UNIT = {"ms": 1_000, "us": 1}


def spark_condition(df, predicate: Predicate):
    """The Spark Column condition for `predicate` over DataFrame `df`."""
    from pyspark.sql import functions as F

    column = F.col(f"`{predicate.column}`")
    if predicate.op == "is_null":
        return column.isNull()
    if predicate.op == "is_not_null":
        return column.isNotNull()
    literal = _literal(predicate.bound_type(), predicate.value)
    target = df.schema[predicate.column].dataType
    literal = literal.cast(target)
    ops = {"==": column.__eq__, "!=": column.__ne__, "<": column.__lt__, "<=": column.__le__,
           ">": column.__gt__, ">=": column.__ge__}
    return ops[predicate.op](literal)


def _literal(t: DataType, v):
    """A Spark literal of canonical value `v` of type `t`, exactly (temporal via integers)."""
    from pyspark.sql import functions as F
    from pyspark.sql import types as S

    match t.kind:
        case "boolean" | "string":
            return F.lit(v)
        case "int":
            if v > INT64_MAX:  # UINT64 above the signed range: Spark reads it as DECIMAL(20,0)
                return F.lit(Decimal(v)).cast(S.DecimalType(20, 0))
            return F.lit(v).cast(S.LongType())
        case "float":
            literal = F.lit(v)  # DoubleType; a FLOAT value is exactly a double
            return literal.cast(S.FloatType()) if t.bits == 32 else literal
        case "decimal":
            decimal_type = S.DecimalType(t.decimal_precision, t.decimal_scale)
            return F.lit(decimal_from_unscaled(v, t.decimal_scale)).cast(decimal_type)
        case "binary" | "fixed":
            return F.lit(bytearray(v))
        case "date":
            return F.date_from_unix_date(F.lit(v))
        case "timestamp":
            micros = F.timestamp_micros(F.lit(_micros(t, v)))
            return micros if t.utc else micros.cast("timestamp_ntz")
    raise Unsupported(f"the adapter has no exact Spark literal for {t.describe()}")


def _micros(t: DataType, v: int) -> int:
    """A timestamp value in microseconds, Spark's precision; Unsupported when it has less."""
    if t.unit in MICROS_PER_UNIT:
        return v * MICROS_PER_UNIT[t.unit]
    micros, rest = divmod(v, NANOS_PER_MICRO)
    if t.unit != "ns" or rest:
        raise Unsupported(f"TIMESTAMP value {v} ({t.describe()}) is not a whole number of "
                          "microseconds; Spark timestamps have microsecond precision")
    return micros
