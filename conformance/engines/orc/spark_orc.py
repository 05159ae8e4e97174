"""Apache Spark (PySpark, ORC Java inside) as an ORC writer and reader.

Spark runs in the driver and reuses the run's one SparkSession
(conformance.matrix.spark_session, session time zone UTC). Values cross Py4J as both
Spark adapters hand them over (conformance.engines.spark_values: temporal columns as
integer counts turned into Spark types in Spark SQL, and back to integers before collecting); ORC's
nanosecond timestamps cross as microseconds when they are whole microseconds (Spark
timestamps have microsecond precision).

Write: `df.coalesce(1).write.format("orc")` with the case's OrcWriteOptions as ORC Java
properties (orc-core 2.3.0 OrcConf; docs/engine-notes.md, 'ORC writers and readers'):

- codec -> `compression`; compression_block_size -> `orc.compress.size`;
  row_index_stride -> `orc.row.index.stride` (0: `orc.create.index=false` too);
  file_version -> `orc.write.format`; string_encoding -> `orc.dictionary.key.threshold`
  0 (DIRECT) or 1 (DICTIONARY); calendar -> `orc.proleptic.gregorian` (PROLEPTIC).
- stripe_row_limit -> `orc.stripe.row.count`. Measured: Spark hands ORC Java batches of
  1024 rows whatever `orc.row.batch.size` says, and a stripe is closed only after a
  batch (20000 rows with a 3-row limit give stripes of 1024 rows); `orc.stripe.size=1`
  and `orc.rows.between.memory.checks` cut nothing in 100 rows. So only a multiple of
  1024 rows is reachable.
- TIMESTAMP -> Spark TIMESTAMP, which Spark writes as an ORC timestamp (wall clock),
  the session's UTC reading. Measured: Spark writes TIMESTAMP_NTZ as an ORC bigint of
  microseconds, and nothing as ORC `timestamp with local time zone`.

Read: `spark.read.orc(path)`; the canonical type is Spark's own StructType. Measured:
CHAR and VARCHAR read as StringType (CHAR padded); an ORC TIMESTAMP written by ORC C++
reads as Spark TIMESTAMP (an instant, isAdjustedToUTC) holding the wall clock in UTC;
dates before the Gregorian cut-over are rebased (1000-01-01, day -354285, reads as day
-354290); a file with a UNION column fails schema inference altogether.

Filtered read: `spark.read.orc(path).filter(<col> <op> <literal>)` with
`spark.sql.orc.filterPushdown` true, the literal exact and cast to the file column's
Spark type (spark_values.spark_condition, as for Parquet). Spark hands ORC Java the
predicate as a SearchArgument, which skips stripes and row groups by their statistics
and Bloom filters, and filters the rows it returns itself; what it prunes with,
measured on the lying files, is in docs/engine-notes.md.
"""

from __future__ import annotations

import dataclasses
import shutil
from pathlib import Path
from typing import Any

from conformance.cases import Case
from conformance.cases.orc.options import (
    BARE_ROOT_TAG,
    ENCRYPTION_TAG,
    LIES_REASON,
    WRITER_TIMEZONE_TAG,
)
from conformance.cases.predicate import Predicate
from conformance.values import DataType, Field, Schema, Table

from ..base import Capabilities, Engine, Unsupported
from ..spark_values import (
    NANOS_PER_MICRO,
    NATIVE_CONF,
    SPARK_NATIVE,
    dataframe_table,
    java_causes,
    session_conf,
    spark_condition,
    staging_schema,
    to_spark_value,
    written_columns,
)

SPARK_ORC_BATCH_ROWS = 1024  # measured: the rows Spark hands ORC Java per batch
# Spark SQL: the predicate becomes an ORC SearchArgument for ORC Java's reader.
FILTER_PUSHDOWN = {"spark.sql.orc.filterPushdown": "true"}
# OrcWriteOptions.codec -> Spark's `compression` option.
_CODECS = {"NONE": "none", "ZLIB": "zlib", "SNAPPY": "snappy", "LZO": "lzo", "LZ4": "lz4",
           "ZSTD": "zstd"}
DICTIONARY_THRESHOLD = {"DIRECT": "0.0", "DICTIONARY": "1.0"}
# OrcWriteOptions.calendar -> orc.proleptic.gregorian. Measured: without it ORC Java writes
# Footer.calendar JULIAN_GREGORIAN (days before 1582-10-15 in the hybrid calendar), with
# it PROLEPTIC_GREGORIAN; either way the file holds the dates Spark was given.
PROLEPTIC = {"JULIAN_GREGORIAN": "false", "PROLEPTIC_GREGORIAN": "true"}
_NO_CATALYST_UNION = ("Spark SQL has no union type (Spark SQL reference, 'Data Types'); "
                      "measured: spark.read.orc of a file with a uniontype column fails with "
                      "ParseException [PARSE_SYNTAX_ERROR] at 'uniontype<'")

_NO_ORC_GEOSPATIAL = ("measured: df.write.orc of a GEOMETRY or GEOGRAPHY column fails with "
                      "AnalysisException [UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE] 'The ORC datasource "
                      "doesn't support the column `g` of the type \"GEOMETRY(4326)\"'")
# ORC Java's writer encrypts with `orc.encrypt` and `orc.mask`, but needs a key provider the
# bundled jars do not offer through options (docs/engine-notes.md): not wired here; ORC Java
# direct is where encrypted files are written by Java.
_NO_KEY_PROVIDER = ("not wired: ORC Java's orc.encrypt/orc.mask need a key provider that "
                    "Spark's bundled jars do not offer through options (ORCv1.md, 'Column Encryption')")

CAPABILITIES = Capabilities(
    writes=("type:*", "version:*", "rle:*", "compression:block_size", "stripes:multiple",
            "row_index:*", "encoding:*", "nulls:*", "rows:*", "bloom", "calendar:*",
            *(f"codec:{c}" for c in _CODECS), *(f"native:spark:{n}" for n in SPARK_NATIVE)),
    cannot_write={
        "lie:*": LIES_REASON,
        ENCRYPTION_TAG: _NO_KEY_PROVIDER,
        "mask:*": _NO_KEY_PROVIDER,
        "codec:BROTLI": "measured: compression=brotli fails with NoClassDefFoundError "
                        "com/aayushatharva/brotli4j/Brotli4jLoader (not in the pyspark jars)",
        "type:UNION": _NO_CATALYST_UNION,
        **dict.fromkeys(("type:GEOMETRY", "type:GEOGRAPHY"), _NO_ORC_GEOSPATIAL),
        "type:TIMESTAMP_INSTANT": "measured: Spark writes TimestampType as an ORC timestamp "
                                  "(wall clock) and TimestampNTZType as an ORC bigint; it never "
                                  "writes 'timestamp with local time zone'",
        "type:CHAR": "measured: Spark writes a CharType column as ORC string (even with "
                     "spark.sql.preserveCharVarcharTypeInfo=true), unpadded",
        "type:VARCHAR": "measured: Spark writes a VarcharType column as ORC string",
        "rle_v2:*:forced": "ORC Java picks the RLE v2 sub-encoding itself; no property "
                           "forces one",
        WRITER_TIMEZONE_TAG: "measured: ORC Java writes the JVM's default zone as every "
                             "StripeFooter's writerTimezone (Etc/UTC on the matrix's JVM); "
                             "spark.sql.session.timeZone changes the wall clock written, not the "
                             "zone, and no ORC property sets it",
        BARE_ROOT_TAG: "a DataFrame's columns are the fields of the root STRUCT Spark writes; "
                       "there is no other schema to give it (and measured: spark.read.orc of a "
                       "bigint or array<int> root fails with [INTERNAL_ERROR], a "
                       "NullPointerException in schema inference)",
    },
    cannot_read={"type:UNION": _NO_CATALYST_UNION},
    # spark.read.orc has no key provider configured (none is wired, as for writing): its
    # cells on encrypted files are judged against the masked view
    # (conformance/cases/orc/masked_view.py).
    reads_keyless=(ENCRYPTION_TAG,),
)


class SparkOrcEngine(Engine):
    name = "spark"
    distribution = "pyspark"
    format = "orc"
    capabilities = CAPABILITIES
    isolated = False  # needs the run's SparkSession, which lives in the driver

    @staticmethod
    def _spark():
        from conformance.matrix.spark_session import get_session

        return get_session()

    def write(self, case: Case, path: Path) -> None:
        options = write_options(case)
        schema, micro_rows = microsecond_rows(case)
        rows = [tuple(to_spark_value(f.type, v) for f, v in zip(schema, row, strict=True))
                for row in micro_rows]
        spark = self._spark()
        natives = case.orc_options.native_types
        staged = spark.createDataFrame(rows, staging_schema(schema))
        out_dir = path.with_name(path.name + ".spark-out")
        with java_causes(), session_conf(spark, NATIVE_CONF if natives else {}):
            df = staged.select(*written_columns(schema, micro_rows, natives))
            df.coalesce(1).write.mode("overwrite").format("orc").options(**options).save(
                str(out_dir))
        parts = sorted(out_dir.glob("part-*.orc"))
        if len(parts) != 1:
            raise RuntimeError(f"Spark wrote {len(parts)} data files, expected 1: {parts}")
        shutil.move(parts[0], path)
        shutil.rmtree(out_dir)

    def read(self, path: Path) -> Table:
        with java_causes():
            return dataframe_table(self._spark().read.orc(str(path)), self.name)

    def read_filtered(self, path: Path, predicate: Predicate) -> Table:
        spark = self._spark()
        with java_causes(), session_conf(spark, FILTER_PUSHDOWN):
            df = spark.read.orc(str(path))
            return dataframe_table(df.filter(spark_condition(df, predicate)), self.name)


def write_options(case: Case) -> dict[str, str]:
    """ORC Java properties for the case's OrcWriteOptions, or Unsupported."""
    o = case.orc_options
    gap = CAPABILITIES.write_gap(o.tags(len(case.rows)))
    if gap:
        raise Unsupported(gap)
    options = {"compression": _CODECS[o.codec], "orc.write.format": o.file_version}
    if o.compression_block_size is not None:
        options["orc.compress.size"] = str(o.compression_block_size)
    if o.row_index_stride is not None:
        options["orc.row.index.stride"] = str(o.row_index_stride)
        options["orc.create.index"] = str(o.row_index_stride > 0).lower()
    if o.string_encoding is not None:
        options["orc.dictionary.key.threshold"] = DICTIONARY_THRESHOLD[o.string_encoding]
    if o.bloom_filter_columns:
        options["orc.bloom.filter.columns"] = ",".join(o.bloom_filter_columns)
    if o.bloom_filter_fpp is not None:
        options["orc.bloom.filter.fpp"] = str(o.bloom_filter_fpp)
    if o.calendar is not None:
        options["orc.proleptic.gregorian"] = PROLEPTIC[o.calendar]
    limit = o.stripe_row_limit
    if limit is not None and limit < len(case.rows):
        if limit % SPARK_ORC_BATCH_ROWS:
            raise Unsupported(f"stripe_row_limit {limit}: Spark hands ORC Java batches of "
                              f"{SPARK_ORC_BATCH_ROWS} rows and a stripe closes only after a "
                              "batch (measured), so only multiples of it are reachable")
        options["orc.stripe.row.count"] = str(limit)
    return options


# ---- nanoseconds -> microseconds ----------------------------------------------------

def microsecond_rows(case: Case) -> tuple[Schema, list[tuple[Any, ...]]]:
    """The case's schema and rows with its ORC (nanosecond) timestamps as microsecond
    Spark TIMESTAMP ones, or Unsupported when a value has a sub-microsecond part."""
    schema = Schema(tuple(dataclasses.replace(f, type=_micro_type(f.type)) for f in case.schema))
    rows = [tuple(_micro_value(f.type, v) for f, v in zip(case.schema, row, strict=True))
            for row in case.rows]
    return schema, rows


def _micro_type(t: DataType) -> DataType:
    if t.kind == "timestamp":  # staged as Spark TIMESTAMP: written as an ORC timestamp
        return dataclasses.replace(t, unit="us", utc=True)
    if t.element is not None:
        return dataclasses.replace(t, element=_micro_field(t.element))
    if t.key is not None:
        return dataclasses.replace(t, key=_micro_field(t.key), value=_micro_field(t.map_value))
    if t.fields:
        return dataclasses.replace(t, fields=tuple(_micro_field(f) for f in t.fields))
    return t


def _micro_field(f: Field) -> Field:
    return dataclasses.replace(f, type=_micro_type(f.type))


def _micro_value(t: DataType, v: Any) -> Any:
    if v is None:
        return None
    match t.kind:
        case "timestamp":
            micros, rest = divmod(v, NANOS_PER_MICRO)
            if rest:
                raise Unsupported(f"TIMESTAMP value {v} ns is not a whole number of "
                                  "microseconds; Spark timestamps have microsecond precision")
            return micros
        case "list":
            return [_micro_value(t.list_element.type, e) for e in v]
        case "map":
            return [(_micro_value(t.map_key.type, k), _micro_value(t.map_value.type, x))
                    for k, x in v]
        case "struct":
            return {f.name: _micro_value(f.type, v[f.name]) for f in t.fields}
    return v
