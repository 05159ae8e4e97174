"""Apache Spark (PySpark, parquet-java inside) as a writer and a reader.

Spark runs in the driver process of the run and reuses the run's one
SparkSession (conformance.matrix.spark_session). Values cross the Py4J boundary
in exact forms only, as the ORC Spark adapter's do (conformance.engines.spark_values):
temporal columns are turned into integer counts in Spark SQL (`unix_micros`,
`unix_date`) before they are collected, so no Python datetime or time-zone
conversion can change them.

Metadata write options -> parquet-java properties (ParquetOutputFormat constants of
the bundled parquet-hadoop 1.17.0, parquet-hadoop/README.md; each measured):

- statistics -> `parquet.column.statistics.enabled` (default true); false drops the
  ColumnMetaData statistics and the ColumnIndex, leaving the OffsetIndex.
- statistics_truncate_length -> `parquet.statistics.truncate.length` (default
  Integer.MAX_VALUE) and `parquet.columnindex.truncate.length` (default 64), so every
  binary bound respects the length.
- page_index: parquet-java always writes the OffsetIndex, and the ColumnIndex whenever
  statistics are on; no property turns them off, so page_index=False is unsupported.
- bloom_filter_columns -> `parquet.bloom.filter.enabled#<col>`, with
  `parquet.bloom.filter.expected.ndv#<col>` and `parquet.bloom.filter.fpp#<col>`.
- page_checksum -> `parquet.page.write-checksum.enabled` (default true).

Encryption -> parquet-java's PropertiesDrivenCryptoFactory with the test KMS, both set on
the run's SparkSession at JVM start (`conformance.kms.spark_conf.spark_encryption_conf`),
and per write `spark_write_options(...)`: footer master key `footer_key` (uniform:
`parquet.encryption.uniform.key`), column master keys (`parquet.encryption.column.keys`,
the other columns stay plaintext), `parquet.encryption.plaintext.footer`,
`parquet.encryption.algorithm`, `parquet.encryption.double.wrapping`,
`parquet.encryption.data.key.length.bits`, key material stored in the footer. Reads go
through the same factory: the key material in each key_metadata names its master key.

VARIANT: values cross as `VariantVal(value, metadata)`, the bytes as they are. Spark
4.3 shreds what it writes when `spark.sql.variant.writeShredding.enabled` is true, by
the schema in `spark.sql.variant.forceShreddingSchemaForTest` (a Spark DDL type, one
for every VARIANT column of the write); the adapter sets both for each write of a
VARIANT column (shredding off unless `WriteOptions.variant_shredding` asks for it) and
puts the session's values back after it.

GEOMETRY / GEOGRAPHY (Spark 4.3 types): values cross as WKB, written with
`st_setsrid(st_geomfromwkb(wkb), 4326)` (written as crs "OGC:CRS84"; st_geomfromwkb
alone gives SRID 0, written as crs "SRID:0", measured) or `st_geogfromwkb`, read with
`st_asbinary`; only the default CRS (OGC:CRS84 is Spark's SRID 4326) and algorithm
are mapped (`spark_values`).

Checksummed read (`read_verifying_checksums`): the read option
`parquet.page.verify-checksum.enabled=true` (parquet-java's, off by default).

Filtered read: `spark.read.parquet(path).filter(<col> <op> <literal>)`, the literal
built exactly from the canonical value of the case column's type and cast to the
file column's Spark type. With Spark's defaults the predicate is pushed down
(`spark.sql.parquet.filterPushdown`) and parquet-java prunes row groups with
statistics, dictionaries and bloom filters (`parquet.filter.stats.enabled`,
`parquet.filter.dictionary.enabled`, `parquet.filter.bloom.enabled`) and pages with
the column index (`parquet.filter.columnindex.enabled`), all true by default.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from conformance.cases import Case
from conformance.cases.predicate import Predicate
from conformance.values import Table

from ..base import Capabilities, Engine, Unsupported
from ..spark_values import (
    NATIVE_CONF,
    NO_SPARK_TYPE,
    SPARK_NATIVE,
    dataframe_table,
    java_causes,
    session_conf,
    spark_condition,
    staging_schema,
    to_spark_value,
    written_columns,
)
from ._parquet_leaves import leaves

VERIFY_CHECKSUM_OPTION = "parquet.page.verify-checksum.enabled"  # parquet-java, default false
LIES_REASON = ("deliberately untrue metadata (WriteOptions.lies) is written by the reference "
               "writer only")

# WriteOptions.codec -> Spark's `compression` option (docs/engine-notes.md, 'Spark').
_CODECS = {"UNCOMPRESSED": "none", "SNAPPY": "snappy", "GZIP": "gzip", "LZ4": "lz4",
           "LZ4_RAW": "lz4_raw", "ZSTD": "zstd"}

# The properties PropertiesDrivenCryptoFactory reads (class strings of parquet-hadoop
# 1.17.0): parquet.encryption.footer.key, .column.keys, .uniform.key, .complete.columns,
# .key.material.store.internally, .algorithm, .data.key.length.bits, .plaintext.footer
# (+ the KeyToolkit's KMS and wrapping properties). No AAD prefix, no explicit key.
ENCRYPTION_CANNOT_WRITE = {
    "encryption:key_management=explicit":
        "parquet-java's PropertiesDrivenCryptoFactory generates random data keys and stores "
        "wrapped key material (KeyMaterial JSON) as key_metadata; no property takes an explicit "
        "key or key_metadata",
    "encryption:aad_prefix=*":
        "PropertiesDrivenCryptoFactory reads no AAD-prefix property (its properties in "
        "parquet-hadoop 1.17.0: footer.key, column.keys, uniform.key, complete.columns, "
        "key.material.store.internally, algorithm, data.key.length.bits, plaintext.footer)",
}
ENCRYPTION_CANNOT_READ = {
    "encryption:key_management=explicit":
        "PropertiesDrivenCryptoFactory's key retriever (FileKeyUnwrapper) parses every "
        "key_metadata as key material JSON; measured: an explicit key name fails with "
        "'ParquetCryptoRuntimeException: Failed to parse key metadata conformance-test:...'",
    "encryption:aad_prefix=supplied":
        "PropertiesDrivenCryptoFactory's FileDecryptionProperties carry no AAD prefix and no "
        "property supplies one; measured: 'ParquetCryptoRuntimeException: AAD prefix used for "
        "file encryption, but not stored in file and not supplied in decryption properties'",
}

CAPABILITIES = Capabilities(
    writes=("physical:*", "type:*", "repetition:*", "encoding:*", "page:v1", "page:v2",
            "row_groups:*", "pages:multiple", "dictionary:fallback", "rows:*", "nulls:*",
            "statistics", "statistics:none", "statistics:truncate", "page_index", "bloom", "crc",
            "encryption:*", "variant:shredded", *(f"codec:{c}" for c in _CODECS),
            *(f"native:spark:{n}" for n in SPARK_NATIVE)),
    cannot_read=ENCRYPTION_CANNOT_READ,
    cannot_write={
        **ENCRYPTION_CANNOT_WRITE,
        "column_order:*": "parquet-java 1.17.0 (pyspark 4.3.0's jars) knows no order but "
                          "TYPE_ORDER: measured in the jars, org.apache.parquet.schema.ColumnOrder."
                          "ColumnOrderName has only UNDEFINED and TYPE_DEFINED_ORDER, and "
                          "parquet-format-structures 1.17.0 has no IEEE754TotalOrder or "
                          "Int96TimestampOrder class (nor Statistics.nan_count)",
        "type:INT(*,unsigned)": "Spark SQL has no unsigned integer types "
                                "(Spark SQL reference, 'Data Types')",
        "type:FIXED": "Spark SQL has no fixed-length binary type; parquet-java writes "
                      "FIXED_LEN_BYTE_ARRAY from Spark only for DECIMAL",
        "type:FLOAT16": NO_SPARK_TYPE, "type:UUID": NO_SPARK_TYPE,
        "type:INTERVAL": NO_SPARK_TYPE, "type:ENUM": NO_SPARK_TYPE,
        "type:JSON": NO_SPARK_TYPE, "type:BSON": NO_SPARK_TYPE,
        "type:UNKNOWN": NO_SPARK_TYPE,
        "type:TIMESTAMP(ns,*)": "Spark timestamps have microsecond precision",
        "type:TIME(*)": "PySpark cannot build TIME values from integers exactly",
        "encoding:ALP": "parquet-java 1.17.0 (Spark's jars) has no ALP: measured, its "
                        "org.apache.parquet.column.Encoding and org.apache.parquet.format.Encoding "
                        "end at BYTE_STREAM_SPLIT and parquet-column holds no ALP values writer",
        "type:FILE": NO_SPARK_TYPE,
        "thrift:extension": "Spark's Parquet options have no way to append bytes to a Thrift struct "
                            "(BinaryProtocolExtensions.md)",
        "encoding:DELTA_LENGTH_BYTE_ARRAY": "parquet-java's writers never produce "
                                           "DELTA_LENGTH_BYTE_ARRAY (DefaultV1/V2ValuesWriterFactory)",
    },
)


class SparkEngine(Engine):
    name = "spark"
    distribution = "pyspark"
    capabilities = CAPABILITIES
    isolated = False  # needs the run's SparkSession, which lives in the driver
    checksum_verification = f"spark.read.option('{VERIFY_CHECKSUM_OPTION}', 'true')"

    @staticmethod
    def _spark():
        from conformance.matrix.spark_session import get_session

        return get_session()

    # ---- write ---------------------------------------------------------------

    def write(self, case: Case, path: Path) -> None:
        spark = self._spark()
        options = self._write_options(case)
        if case.parquet_options.encryption is not None:
            options.update(encryption_options(case, spark))
        has_int96 = any(f.type.kind == "int96" for f in case.schema)
        spark.conf.set("spark.sql.parquet.outputTimestampType",
                       "INT96" if has_int96 else "TIMESTAMP_MICROS")
        rows = [tuple(to_spark_value(f.type, v) for f, v in zip(case.schema, row, strict=True))
                for row in case.rows]
        natives = case.parquet_options.native_types
        staged = spark.createDataFrame(rows, staging_schema(case.schema))
        out_dir = path.with_name(path.name + ".spark-out")
        conf = {**_variant_conf(case), **(NATIVE_CONF if natives else {})}
        with java_causes(), session_conf(spark, conf):
            df = staged.select(*written_columns(case.schema, case.rows, natives))
            df.coalesce(1).write.mode("overwrite").options(**options).parquet(str(out_dir))
        parts = sorted(out_dir.glob("part-*.parquet"))
        if len(parts) != 1:
            raise RuntimeError(f"Spark wrote {len(parts)} data files, expected 1: {parts}")
        shutil.move(parts[0], path)
        shutil.rmtree(out_dir)

    @staticmethod
    def _write_options(case: Case) -> dict[str, str]:
        o = case.parquet_options
        if o.codec not in _CODECS:
            raise Unsupported(f"codec {o.codec}: not in the pyspark wheel's jars "
                              "(docs/engine-notes.md, 'Spark')")
        options = {"compression": _CODECS[o.codec], **_encoding_options(case)}
        if o.row_group_size is not None:
            options["parquet.block.row.count.limit"] = str(o.row_group_size)
        if o.page_row_limit is not None:
            options["parquet.page.row.count.limit"] = str(o.page_row_limit)
        if o.dictionary_size_limit is not None:
            options["parquet.dictionary.page.size"] = str(o.dictionary_size_limit)
        options.update(_metadata_options(case))
        return options

    # ---- read ----------------------------------------------------------------

    def read(self, path: Path) -> Table:
        return self._collect(path)

    def read_verifying_checksums(self, path: Path) -> Table:
        return self._collect(path, options={VERIFY_CHECKSUM_OPTION: "true"})

    def read_filtered(self, path: Path, predicate: Predicate) -> Table:
        return self._collect(path, predicate)

    def _collect(self, path: Path, predicate: Predicate | None = None,
                 options: dict[str, str] | None = None) -> Table:
        with java_causes():
            df = self._spark().read.options(**(options or {})).parquet(str(path))
            if predicate is not None:
                df = df.filter(spark_condition(df, predicate))
            return dataframe_table(df, self.name)


# ---- VARIANT shredding ------------------------------------------------------------

SHREDDING_ENABLED = "spark.sql.variant.writeShredding.enabled"
SHREDDING_SCHEMA = "spark.sql.variant.forceShreddingSchemaForTest"
# WriteOptions.variant_shredding primitive names -> Spark DDL types (Spark SQL reference,
# 'Data Types'); time, nanosecond timestamps and uuid have no Spark type.
_SHREDDED_DDL = {"boolean": "boolean", "int8": "tinyint", "int16": "smallint", "int32": "int",
                 "int64": "bigint", "float": "float", "double": "double", "date": "date",
                 "timestamptz(6)": "timestamp", "timestampntz(6)": "timestamp_ntz",
                 "binary": "binary", "string": "string"}


def _variant_conf(case: Case) -> dict[str, str]:
    """The shredding settings of a write with VARIANT columns (none without)."""
    variants = [f.name for f in case.schema if f.type.kind == "variant"]
    if not variants:
        return {}
    shredding = case.parquet_options.variant_shredding
    if not shredding:
        return {SHREDDING_ENABLED: "false"}
    schemas = {_shredding_ddl(shredding.get(name)) for name in variants}
    if len(schemas) > 1:
        raise Unsupported(f"VARIANT columns {variants} shredded differently; Spark takes one "
                          f"shredding schema ({SHREDDING_SCHEMA}) for every VARIANT column")
    return {SHREDDING_ENABLED: "true", SHREDDING_SCHEMA: schemas.pop()}


def _shredding_ddl(shredding) -> str:
    if shredding is None:
        raise Unsupported("a write with shredded and unshredded VARIANT columns: Spark shreds "
                          "every VARIANT column of a write or none")
    if isinstance(shredding, str):
        if shredding not in _SHREDDED_DDL:
            raise Unsupported(f"a VARIANT shredded as {shredding}: {NO_SPARK_TYPE}")
        return _SHREDDED_DDL[shredding]
    if "array" in shredding:
        return f"array<{_shredding_ddl(shredding['array'])}>"
    fields = ", ".join(f"`{name}`: {_shredding_ddl(c)}" for name, c in shredding["object"].items())
    return f"struct<{fields}>"


# ---- encryption ------------------------------------------------------------------

def encryption_options(case: Case, spark=None) -> dict[str, str]:
    """The PropertiesDrivenCryptoFactory write options of `case`, or Unsupported."""
    from conformance.kms.case_keys import FOOTER_MASTER_KEY, column_master_keys
    from conformance.kms.spark_conf import (
        CRYPTO_FACTORY_PROPERTY,
        HADOOP_PREFIX,
        spark_write_options,
    )

    e = case.parquet_options.encryption
    if e is None:
        raise ValueError(f"case {case.id} is not encrypted")
    gap = CAPABILITIES.write_gap(e.tags())
    if gap:
        raise Unsupported(gap)
    if spark is not None and not spark.sparkContext.getConf().get(
            HADOOP_PREFIX + CRYPTO_FACTORY_PROPERTY):
        raise Unsupported("the SparkSession started without the test KMS on its classpath "
                          "(javac missing: see the warning of conformance.matrix.spark_session)")
    return spark_write_options(
        FOOTER_MASTER_KEY, column_master_keys(e.column_keys) if e.column_keys else None,
        plaintext_footer=e.footer == "plaintext", algorithm=e.algorithm,
        double_wrapping=e.key_management == "kms_double", data_key_length_bits=e.key_bits,
        internal_key_material=True)


# ---- metadata: statistics, page index, bloom filters, checksums -----------------

def _metadata_options(case: Case) -> dict[str, str]:
    o = case.parquet_options
    if getattr(o, "lies", ()):
        raise Unsupported(LIES_REASON)
    options: dict[str, str] = {}
    if o.statistics is not None:
        options["parquet.column.statistics.enabled"] = str(o.statistics).lower()
    if o.statistics_truncate_length is not None:
        length = str(o.statistics_truncate_length)
        options["parquet.statistics.truncate.length"] = length
        options["parquet.columnindex.truncate.length"] = length
    if o.page_index is False:
        raise Unsupported("parquet-java always writes the OffsetIndex, and the ColumnIndex "
                          "whenever statistics are on; no property turns the page index off")
    if o.page_index and o.statistics is False:
        raise Unsupported("measured: with parquet.column.statistics.enabled=false parquet-java "
                          "writes the OffsetIndex but no ColumnIndex")
    for name in o.bloom_filter_columns:
        options[f"parquet.bloom.filter.enabled#{name}"] = "true"
        if o.bloom_filter_ndv is not None:
            options[f"parquet.bloom.filter.expected.ndv#{name}"] = str(o.bloom_filter_ndv)
        if o.bloom_filter_fpp is not None:
            options[f"parquet.bloom.filter.fpp#{name}"] = repr(o.bloom_filter_fpp)
    if o.page_checksum is not None:
        options["parquet.page.write-checksum.enabled"] = str(o.page_checksum).lower()
    return options


# ---- encodings: what parquet-java's writer versions produce ---------------------

# Non-dictionary value encodings of parquet-java's writers by physical type
# (DefaultV1ValuesWriterFactory / DefaultV2ValuesWriterFactory): v1 writes PLAIN
# everywhere; v2 writes RLE booleans, DELTA_BINARY_PACKED ints, DELTA_BYTE_ARRAY
# byte arrays and PLAIN floats (BYTE_STREAM_SPLIT with parquet.enable.bytestreamsplit).
_V2_ENCODING = {"BOOLEAN": "RLE", "INT32": "DELTA_BINARY_PACKED", "INT64": "DELTA_BINARY_PACKED",
                "BYTE_ARRAY": "DELTA_BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY": "DELTA_BYTE_ARRAY",
                "FLOAT": "PLAIN", "DOUBLE": "PLAIN", "INT96": "PLAIN"}
# Dictionary data pages: the v1 writer says PLAIN_DICTIONARY, the v2 writer RLE_DICTIONARY.
_DICTIONARY_WRITER = {"PLAIN_DICTIONARY": 1, "RLE_DICTIONARY": 2}


def _encoding_options(case: Case) -> dict[str, str]:
    """Writer version, dictionary and byte-stream-split settings giving exactly the
    case's encoding on every column, or Unsupported naming the column that would differ."""
    o = case.parquet_options
    writer = {"parquet.writer.version": f"v{o.page_version}"}
    if o.encoding is None:  # parquet-java's own choice
        return writer
    if o.encoding in _DICTIONARY_WRITER:
        if _DICTIONARY_WRITER[o.encoding] != o.page_version:
            raise Unsupported(f"parquet-java's v{o.page_version} writer names dictionary pages "
                              f"{'PLAIN_DICTIONARY' if o.page_version == 1 else 'RLE_DICTIONARY'}, "
                              f"not {o.encoding}")
        return {**writer, "parquet.enable.dictionary": "true"}
    split = o.encoding == "BYTE_STREAM_SPLIT"
    for path, t in leaves(case.schema):
        produced = _produced_encoding(t.physical_type, o.page_version, split)
        if produced != o.encoding:
            raise Unsupported(f"column {path!r} ({t.physical}): parquet-java's "
                              f"v{o.page_version} writer without dictionary writes "
                              f"{produced}, not {o.encoding}")
    return {**writer, "parquet.enable.dictionary": "false",
            "parquet.enable.bytestreamsplit": str(split).lower()}


def _produced_encoding(physical: str, page_version: int, byte_stream_split: bool) -> str:
    if byte_stream_split and physical in ("FLOAT", "DOUBLE"):
        return "BYTE_STREAM_SPLIT"
    return "PLAIN" if page_version == 1 else _V2_ENCODING[physical]
