"""DuckDB (in-process, its own Parquet writer and reader).

Write: the case's Arrow table (arrow_values.table_to_arrow) is registered with
the engine's connection and each column cast to the DuckDB type of its canonical
type. When every column is OPTIONAL: `COPY (SELECT CAST(...) ... FROM arrow)
TO 'path' (FORMAT parquet, ...)` (DuckDB writes query columns OPTIONAL). When a
column is REQUIRED, only a `NOT NULL` table column makes DuckDB write REQUIRED:
the rows go into a temporary table declared with `NOT NULL` where the case says
REQUIRED, then `COPY <table> TO ...`; DuckDB then also writes REQUIRED any
nullable column whose rows happen to hold no null (measured; left visible).
WriteOptions map to COPY options (docs/engine-notes.md, 'DuckDB', and the
measurements quoted below):

- encoding: PLAIN -> `DICTIONARY_SIZE_LIMIT 0, STRING_DICTIONARY_PAGE_SIZE_LIMIT 1`
  (a limit of 1 still dictionary-encodes columns with one distinct value:
  measured); DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY and BYTE_STREAM_SPLIT ->
  additionally `PARQUET_VERSION V2`, which encodes INT32/INT64 leaves
  DELTA_BINARY_PACKED, BYTE_ARRAY leaves DELTA_LENGTH_BYTE_ARRAY, FLOAT/DOUBLE
  leaves BYTE_STREAM_SPLIT and BOOLEAN/FIXED_LEN_BYTE_ARRAY leaves PLAIN
  (measured from the page headers), so such a case is writable only when every
  leaf gets the requested encoding. No option selects an encoding per column.
- codec -> `COMPRESSION` (lz4_raw for LZ4_RAW).
- page_version: DuckDB writes data page v1 only.
- row_group_size -> `ROW_GROUP_SIZE`, exact only in whole vectors of 2048 rows.
- INT96 -> `WRITE_TIMESTAMP_AS_INT96 true`; TIMESTAMP(ms, utc) ->
  `TIMESTAMP_IS_ADJUSTED_TO_UTC true` (both apply to every timestamp column).

Metadata (COPY options measured in DuckDB 2.0; an unknown option fails with
'Unrecognized option' plus candidates, which is how the absent ones were found):

- statistics: DuckDB always writes ColumnMetaData statistics (min/max, null_count,
  distinct_count for dictionary columns); `WRITE_STATISTICS` is unrecognised, so
  statistics=False is unsupported.
- statistics_truncate_length: DuckDB truncates binary min/max to 256 bytes (the max
  bound incremented, e.g. 'x'*256 -> 'x'*255 + 'y'), with no option: only 256 maps.
- page_index: DuckDB writes no ColumnIndex/OffsetIndex (`WRITE_PAGE_INDEX` is
  unrecognised).
- bloom filters: DuckDB writes one, by itself, for every dictionary-encoded column
  chunk and for no other (measured); `WRITE_BLOOM_FILTER false` turns them off,
  `BLOOM_FILTER_FALSE_POSITIVE_RATIO` sets the FPP; no option names columns or an
  NDV. A case's bloom_filter_columns are therefore writable only with DuckDB's own
  encodings (encoding None), and the adapter checks afterwards, with
  `parquet_metadata()`, that exactly those columns got a filter.
- page_checksum: DuckDB writes no PageHeader.crc (measured) and has no option.

Read: `SELECT * FROM read_parquet(path)` with DuckDB's default reader options
(so INT96 is read as a microsecond TIMESTAMP, `int96_as='timestamp'`; the
non-default `int96_as='timestamp_ns'` would keep nanoseconds), fetched as Arrow
with `arrow_lossless_conversion` on (UUID, JSON and TIMETZ keep their identity as
Arrow extension types instead of becoming strings), then
arrow_values.arrow_to_table.

Encryption (measured in DuckDB 2.0; `ENCRYPTION_CONFIG` knows only `footer_key`, any other
key fails with "Binder Error: Unknown key in encryption_config"): explicit key management,
uniform, encrypted footer, AES_GCM_V1 and 256-bit keys only. The key is registered with
`PRAGMA add_parquet_key(explicit_key_name("footer", 256), base64(key))` after `SET
force_mbedtls_unsafe='true'` (offline), then `COPY ... (ENCRYPTION_CONFIG {footer_key:
name})`. DuckDB stores no key_metadata (FileCryptoMetaData.key_metadata unset) and
encrypts its modules with an empty AAD (no file unique, no module AAD suffix), so
spec-following readers cannot open its files and it cannot open theirs (findings).
Read: an encrypted file gets `encryption_config = {footer_key: name}`, the name from its
footer key_metadata (explicit test keys), or the 256-bit explicit footer key for a file
that names none (DuckDB's own).

Filtered read: `SELECT * FROM read_parquet(path) WHERE "col" <op> <constant>`, the
constant a typed SQL expression built exactly from the canonical value of the case
column's type (`CAST('12.34' AS DECIMAL(9,2))`, `make_timestamp(<micros>)`,
`from_hex(...)`, ...), so DuckDB's filter pushdown sees a constant. DuckDB keeps
insertion order (`preserve_insertion_order`, default true). DuckDB prunes row
groups with statistics and, for equality, with bloom filters.
"""

from __future__ import annotations

import base64
import itertools
import math
from pathlib import Path

from conformance.cases import Case
from conformance.cases.native import native_engine, native_name
from conformance.cases.predicate import Predicate
from conformance.kms.file_keys import file_encryption
from conformance.values import DataType, Field, Table
from conformance.values.codec import format_decimal, format_float

from ..arrow_values import NO_ARROW_FORM, engine_table, table_to_arrow
from ..base import Capabilities, Engine, Unsupported
from ._parquet_leaves import all_fields, leaves

# DuckDB's own types a case may ask for (conformance.cases.native; see `native_type`).
NATIVE_TYPES = ("HUGEINT", "UHUGEINT", "ARRAY", "UNION", "ENUM")
_NATIVE_INTEGERS = ("HUGEINT", "UHUGEINT")
DUCKDB_VECTOR_SIZE = 2048  # rows; DuckDB's row-group granularity (measured)
DECIMAL_MAX_PRECISION = 38

LIES_REASON = ("deliberately untrue metadata (WriteOptions.lies) is written by the reference "
               "writer only")

# WriteOptions.codec -> COPY ... (COMPRESSION ...).
_CODECS = {"UNCOMPRESSED": "uncompressed", "SNAPPY": "snappy", "GZIP": "gzip",
           "BROTLI": "brotli", "ZSTD": "zstd", "LZ4_RAW": "lz4_raw"}

# With PARQUET_VERSION V2 and dictionaries off, the encoding DuckDB gives a leaf of
# each physical type (measured from the page headers of DuckDB 2.0 files).
_V2_ENCODING = {"BOOLEAN": "PLAIN", "INT32": "DELTA_BINARY_PACKED",
                "INT64": "DELTA_BINARY_PACKED", "FLOAT": "BYTE_STREAM_SPLIT",
                "DOUBLE": "BYTE_STREAM_SPLIT", "BYTE_ARRAY": "DELTA_LENGTH_BYTE_ARRAY",
                "FIXED_LEN_BYTE_ARRAY": "PLAIN", "INT96": "PLAIN"}
_DICTIONARY_OFF = ("DICTIONARY_SIZE_LIMIT 0", "STRING_DICTIONARY_PAGE_SIZE_LIMIT 1")

_INT_TYPES = {(8, True): "TINYINT", (16, True): "SMALLINT", (32, True): "INTEGER",
              (64, True): "BIGINT", (8, False): "UTINYINT", (16, False): "USMALLINT",
              (32, False): "UINTEGER", (64, False): "UBIGINT"}
_TIME_TYPES = {("us", False): "TIME", ("ns", False): "TIME_NS", ("us", True): "TIMETZ"}
_TIMESTAMP_TYPES = {("ms", False): "TIMESTAMP_MS", ("us", False): "TIMESTAMP",
                    ("ns", False): "TIMESTAMP_NS", ("us", True): "TIMESTAMPTZ",
                    ("ns", True): "TIMESTAMPTZ_NS",
                    # with TIMESTAMP_IS_ADJUSTED_TO_UTC true, see _flags
                    ("ms", True): "TIMESTAMP_MS"}
_NO_TYPE = "DuckDB has no such data type (DuckDB docs, 'Data Types')"

_UNKNOWN_KEY = "measured: Binder Error 'Unknown key in encryption_config \"{}\"'"
DUCKDB_KEY_BITS = 256
ENCRYPTION_CANNOT_WRITE = {
    "encryption:AES_GCM_CTR_V1": "DuckDB writes AES_GCM_V1 only (FileCryptoMetaData measured); "
                                 "no algorithm option: " + _UNKNOWN_KEY.format("algorithm"),
    "encryption:footer=plaintext": "DuckDB encrypts the footer always; "
                                   + _UNKNOWN_KEY.format("plaintext_footer"),
    "encryption:keys=per_column": "measured: 'Not implemented Error: Parquet encryption_config "
                                  "column_keys not yet implemented'",
    "encryption:key_management=kms*": "DuckDB has no KMS and no key material: ENCRYPTION_CONFIG "
                                      "takes only footer_key, the name of a key added with "
                                      "PRAGMA add_parquet_key",
    "encryption:aad_prefix=*": "DuckDB has no AAD prefix option: " + _UNKNOWN_KEY.format("aad_prefix"),
    "encryption:key_bits=1[29]*": "PRAGMA add_parquet_key takes the key text raw when it is 16, 24 "
                                  "or 32 bytes long, else base64-decodes it; the base64 text of a "
                                  "128/192-bit binary key is 24/32 characters and is used raw as a "
                                  "192/256-bit key (measured by decrypting the footer); the cases' "
                                  "explicit keys are binary, and a BLOB argument fails ('No function "
                                  "matches add_parquet_key(STRING_LITERAL, BLOB)')",
}
ENCRYPTION_CANNOT_READ = {
    "encryption:AES_GCM_CTR_V1": "measured: 'Invalid Input Error: File ... is encrypted with "
                                 "AES_GCM_CTR_V1, but only AES_GCM_V1 is supported'",
    "encryption:footer=plaintext": "measured: with encryption_config 'File ... is not encrypted, "
                                   "but encryption_config was set'; without it 'File is encrypted "
                                   "but no file crypto metadata is set'",
    "encryption:keys=per_column": "DuckDB's encryption_config takes only a footer key (column_keys "
                                  "'not yet implemented')",
    "encryption:key_management=kms*": "DuckDB cannot unwrap key material (no KMS); it is handed "
                                      "named keys only",
    "encryption:aad_prefix=supplied": "DuckDB's encryption_config has no AAD prefix",
    "encryption:key_bits=1[29]*": ENCRYPTION_CANNOT_WRITE["encryption:key_bits=1[29]*"],
}

CAPABILITIES = Capabilities(
    writes=("physical:*", "type:*", "repetition:*", "encoding:PLAIN",
            "encoding:DELTA_BINARY_PACKED", "encoding:DELTA_LENGTH_BYTE_ARRAY",
            "encoding:BYTE_STREAM_SPLIT", "page:v1", "row_groups:*", "rows:*", "nulls:*",
            "statistics", "statistics:truncate", "bloom", "encryption:*",
            *(f"codec:{c}" for c in _CODECS), *(f"native:duckdb:{n}" for n in NATIVE_TYPES)),
    cannot_read=ENCRYPTION_CANNOT_READ,
    cannot_write={
        **ENCRYPTION_CANNOT_WRITE,
        "column_order:*": "DuckDB 2.0.1's COPY ... (FORMAT parquet) has no column-order option; "
                          "measured: every column is written under TYPE_ORDER (DOUBLE with "
                          "Statistics.nan_count set, as parquet-format 2.13 asks; INT96 with no "
                          "statistics)",
        "statistics:none": "DuckDB always writes column chunk statistics; measured: "
                           "'Unrecognized option \"write_statistics\" for parquet'",
        "page_index": "DuckDB writes no ColumnIndex/OffsetIndex (measured) and has no option "
                      "for it ('Unrecognized option \"write_page_index\" for parquet')",
        "crc": "DuckDB writes no PageHeader.crc (measured) and has no COPY option for it",
        "encoding:ALP": "DuckDB's Parquet writer chooses encodings itself (PARQUET_VERSION V2 gives "
                        "FLOAT/DOUBLE BYTE_STREAM_SPLIT, measured); measured in DuckDB 2.0.1: "
                        "'Unrecognized option \"encoding\" for parquet' (and \"column_encodings\")",
        **{f"type:{kind.upper()}": f"the adapter hands data to DuckDB as Arrow, and {reason}"
           for kind, reason in NO_ARROW_FORM.items() if kind != "geometry"},
        "type:GEOGRAPHY": "measured: registering an Arrow geoarrow.wkb column with spherical edges "
                          "fails with 'Not implemented Error: Can't import non-planar edges'; "
                          "DuckDB's GEOMETRY is planar",
        "variant:shredded": "measured: DuckDB 2.0.1 shreds VARIANT itself (COPY ... (SHREDDING "
                            "{v: 'STRUCT(a INTEGER)'}) writes typed_value a as INT32), but the "
                            "adapter hands data to DuckDB as Arrow, which has no VARIANT type",
        "type:FLOAT16": f"{_NO_TYPE}; measured: registering an Arrow halffloat column fails "
                        "with 'Unsupported Internal Arrow Type e'",
        "type:ENUM": "measured: a DuckDB ENUM column is written as BYTE_ARRAY with the STRING "
                     "annotation, never ENUM",
        "type:BSON": _NO_TYPE,
        "type:FILE": "measured: DuckDB 2.0.1 COPY ... (FORMAT parquet) writes a STRUCT as a group "
                     "without LogicalType (FILE is LogicalType 19) and has no option for one",
        "thrift:extension": "DuckDB's COPY has no option that appends bytes to a Thrift struct "
                            "(BinaryProtocolExtensions.md)",
        "type:FIXED": "DuckDB has no fixed-length binary type; measured: an Arrow "
                      "fixed_size_binary column becomes BLOB and is written as BYTE_ARRAY",
        "type:DECIMAL(BYTE_ARRAY)": "measured: DuckDB writes DECIMAL on INT32 (p <= 9), "
                                    "INT64 (p <= 18) or FIXED_LEN_BYTE_ARRAY(16)",
        "type:TIME(ms,*)": "DuckDB has no millisecond TIME type; measured: Arrow time32[ms] "
                           "becomes TIME and is written as TIME(MICROS)",
        "type:TIME(ns,utc)": "DuckDB's TIMETZ has microsecond precision (written as "
                             "TIME(MICROS, utc)); TIME_NS is written with isAdjustedToUTC=false",
        "encoding:RLE_DICTIONARY": "DuckDB chooses dictionary encoding per column chunk by its "
                                   "own heuristic; measured: no COPY option forces it "
                                   "(DICTIONARY_COMPRESSION_RATIO_THRESHOLD 0 or -1 still "
                                   "writes PLAIN for 10 distinct INT32 values)",
        "encoding:DELTA_BYTE_ARRAY": "measured: no COPY option produces DELTA_BYTE_ARRAY "
                                     "(PARQUET_VERSION V2 writes strings "
                                     "DELTA_LENGTH_BYTE_ARRAY)",
        "encoding:RLE": "measured: BOOLEAN columns are written PLAIN with PARQUET_VERSION V1 "
                        "and V2",
        "page:v2": "DuckDB writes data page v1 only (docs/engine-notes.md, 'DuckDB'); measured: with "
                   "PARQUET_VERSION V2 every page header is still DATA_PAGE, and COPY has no "
                   "page-version option ('Unrecognized option \"data_page_version\"')",
        "codec:LZ4": "measured: Binder Error 'Expected \"compression\" argument to be any of "
                     "[uncompressed, brotli, gzip, snappy, lz4, lz4_raw or zstd]'; DuckDB's "
                     "lz4 is LZ4_RAW (codec 7 in the footer)",
        "codec:LZO": "measured: Binder Error 'Expected \"compression\" argument to be any of "
                     "[uncompressed, brotli, gzip, snappy, lz4, lz4_raw or zstd]'",
    },
)


class DuckDBEngine(Engine):
    name = "duckdb"
    distribution = "duckdb"
    capabilities = CAPABILITIES

    def __init__(self) -> None:
        self._con = None
        self._names = itertools.count()

    def _connection(self):
        if self._con is None:
            import duckdb

            con = duckdb.connect()
            con.execute("SET TimeZone = 'UTC'")  # TIME -> TIMETZ casts use offset +00
            con.execute("SET arrow_lossless_conversion = true")
            self._con = con
        return self._con

    def write(self, case: Case, path: Path) -> None:
        self._copy(case, path)
        self._check_bloom_filters(case, path)

    def _register_key(self, role: str, bits: int) -> str:
        """Add the cases' explicit key of `role` to the connection; its name."""
        from conformance.kms.case_keys import explicit_key, explicit_key_name

        if bits != DUCKDB_KEY_BITS:
            raise Unsupported(CAPABILITIES.cannot_write["encryption:key_bits=1[29]*"])
        con = self._connection()
        # Offline, without httpfs (docs/engine-notes.md, 'DuckDB').
        con.execute("SET force_mbedtls_unsafe = 'true'")
        name = explicit_key_name(role, bits)
        text = base64.b64encode(explicit_key(role, bits)).decode("ascii")
        con.execute(f"PRAGMA add_parquet_key({_sql_string(name)}, {_sql_string(text)})")
        return name

    def _encryption_option(self, case: Case) -> list[str]:
        e = case.parquet_options.encryption
        if e is None:
            return []
        gap = CAPABILITIES.write_gap(e.tags())
        if gap:
            raise Unsupported(gap)
        from conformance.kms.case_keys import FOOTER_ROLE

        name = self._register_key(FOOTER_ROLE, e.key_bits)
        return [f"ENCRYPTION_CONFIG {{footer_key: {_sql_string(name)}}}"]

    def _source(self, path: Path) -> str:
        """`read_parquet(path[, encryption_config])` for the file at `path`."""
        from conformance.kms.case_keys import EXPLICIT_PREFIX, FOOTER_ROLE, UNNAMED_KEY_BITS

        info = file_encryption(path)
        if info is None:
            return f"read_parquet({_sql_string(str(path))})"
        metadata = info.footer_key_metadata
        if metadata is None:  # DuckDB's own files name no key: the cases' convention for them
            name = self._register_key(FOOTER_ROLE, UNNAMED_KEY_BITS)
        else:
            text = bytes(metadata).decode("utf-8", errors="replace")
            if not text.startswith(EXPLICIT_PREFIX):
                raise Unsupported(CAPABILITIES.cannot_read["encryption:key_management=kms*"])
            role, _, bits = text[len(EXPLICIT_PREFIX):].rpartition(":")
            name = self._register_key(role, int(bits))
        return (f"read_parquet({_sql_string(str(path))}, "
                f"encryption_config = {{footer_key: {_sql_string(name)}}})")

    def _copy(self, case: Case, path: Path) -> None:
        natives = case.parquet_options.native_types
        types = [native_type(f, natives[f.name], [row[i] for row in case.rows]) if f.name in natives
                 else duckdb_type(f.name, f) for i, f in enumerate(case.schema)]
        options = ", ".join([*copy_options(case), *self._encryption_option(case)])
        arrow = _staged_native(_without_millisecond_zones(table_to_arrow(case.expected)), natives)
        con = self._connection()
        n = next(self._names)
        source, staged = f"conformance_source_{n}", f"conformance_staged_{n}"
        con.register(source, arrow)
        select = ", ".join(f"{_column_expression(f, t, natives.get(f.name))} AS {_quote(f.name)}"
                           for f, t in zip(case.schema, types, strict=True))
        try:
            if all(f.nullable for f in case.schema):
                # From a query over Arrow DuckDB knows nothing about nulls and writes
                # every column OPTIONAL (measured).
                con.execute(f"COPY (SELECT {select} FROM {source}) "
                            f"TO {_sql_string(str(path))} ({options})")
                return
            # REQUIRED needs a NOT NULL column; DuckDB then also writes REQUIRED every
            # nullable column whose data has no null (measured: a finding, not hidden).
            columns = [f"{_quote(f.name)} {t}{'' if f.nullable else ' NOT NULL'}"
                       for f, t in zip(case.schema, types, strict=True)]
            con.execute(f"CREATE TEMP TABLE {staged} ({', '.join(columns)})")
            con.execute(f"INSERT INTO {staged} SELECT {select} FROM {source}")
            con.execute(f"COPY {staged} TO {_sql_string(str(path))} ({options})")
        finally:
            con.execute(f"DROP TABLE IF EXISTS {staged}")
            con.unregister(source)

    def _check_bloom_filters(self, case: Case, path: Path) -> None:
        """DuckDB decides by itself which columns get a bloom filter: Unsupported unless
        they are exactly the ones the case asks for."""
        wanted = set(case.parquet_options.bloom_filter_columns)
        if not wanted:
            return
        got = self.bloom_filter_columns(path)
        if got != wanted:
            raise Unsupported(f"DuckDB writes bloom filters for the dictionary-encoded column "
                              f"chunks it chooses, not by column: asked for {sorted(wanted)}, "
                              f"it wrote them for {sorted(got)} (measured with parquet_metadata)")

    def read(self, path: Path) -> Table:
        con = self._connection()
        relation = con.sql(f"SELECT * FROM {self._source(path)}")
        return engine_table(self.name, relation.to_arrow_table())

    def read_filtered(self, path: Path, predicate: Predicate) -> Table:
        con = self._connection()
        relation = con.sql(f"SELECT * FROM {self._source(path)} "
                           f"WHERE {where_clause(predicate)}")
        return engine_table(self.name, relation.to_arrow_table())

    def bloom_filter_columns(self, path: Path) -> set[str]:
        """Top-level columns of the file at `path` with a bloom filter in any row group."""
        rows = self._connection().execute(
            "SELECT DISTINCT path_in_schema FROM parquet_metadata(?) "
            "WHERE bloom_filter_offset IS NOT NULL", [str(path)]).fetchall()
        return {r[0] for r in rows}


def _without_millisecond_zones(table):
    """timestamp[ms, tz=UTC] columns as timestamp[ms] (the same int64 values).

    DuckDB imports an Arrow timestamp with a time zone as TIMESTAMPTZ, whose unit is
    microseconds (measured: 2**62 ms fails with 'Could not convert TimestampTZ to
    Microsecond'); the staged column is TIMESTAMP_MS anyway (see _flags).
    """
    import pyarrow as pa

    def naive(t):
        if pa.types.is_timestamp(t):
            return pa.timestamp("ms") if t.unit == "ms" and t.tz else t
        if pa.types.is_map(t):
            return pa.map_(t.key_field.with_type(naive(t.key_type)),
                           t.item_field.with_type(naive(t.item_type)))
        if pa.types.is_list(t):
            return pa.list_(t.value_field.with_type(naive(t.value_type)))
        if pa.types.is_struct(t):
            return pa.struct([f.with_type(naive(f.type)) for f in t])
        return t

    schema = pa.schema([f.with_type(naive(f.type)) for f in table.schema])
    return table if schema.equals(table.schema) else table.cast(schema)


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _sql_string(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


# ---- types --------------------------------------------------------------------

def duckdb_type(path: str, f: Field) -> str:
    """The DuckDB SQL type that writes canonical field `f` as the case asks, or Unsupported."""
    t = f.type
    match t.kind:
        case "boolean":
            return "BOOLEAN"
        case "int":
            if t.physical not in (None, "INT64" if t.bits == 64 else "INT32"):
                raise Unsupported(f"column {path!r}: DuckDB writes INT({t.bits}) on "
                                  f"{'INT64' if t.bits == 64 else 'INT32'}, not {t.physical}")
            return _INT_TYPES[(t.bit_width, t.is_signed)]
        case "int96":
            return "TIMESTAMP_NS"  # written as INT96 with WRITE_TIMESTAMP_AS_INT96
        case "float":
            if t.bits == 16:
                raise _cannot(path, "type:FLOAT16")
            return "FLOAT" if t.bits == 32 else "DOUBLE"
        case "decimal":
            _check_decimal(path, t)
            return f"DECIMAL({t.precision},{t.scale})"
        case "binary":
            return "BLOB"
        case "geometry":
            return "GEOMETRY"
        case "string":
            return "VARCHAR"
        case "json":
            return "JSON"
        case "uuid":
            return "UUID"
        case "date":
            return "DATE"
        case "time":
            if (t.unit, t.utc) not in _TIME_TYPES:
                raise _cannot(path, "type:TIME(ms,*)" if t.unit == "ms" else "type:TIME(ns,utc)")
            return _TIME_TYPES[(t.time_unit, t.adjusted_to_utc)]
        case "timestamp":
            return _TIMESTAMP_TYPES[(t.time_unit, t.adjusted_to_utc)]
        case "interval":
            return "INTERVAL"
        case "unknown":
            return '"NULL"'
        case "enum" | "bson" | "fixed":
            raise _cannot(path, f"type:{t.kind.upper()}")
        case "list":
            _require_nullable(path, t.list_element, "list element")
            return f"{duckdb_type(path + '.list.element', t.list_element)}[]"
        case "map":
            _require_nullable(path, t.map_value, "map value")
            return (f"MAP({duckdb_type(path + '.key_value.key', t.map_key)}, "
                    f"{duckdb_type(path + '.key_value.value', t.map_value)})")
        case "struct":
            if not t.fields:
                raise Unsupported(f"column {path!r}: DuckDB has no STRUCT without fields")
            for child in t.fields:
                _require_nullable(path, child, f"struct field {child.name!r}")
            return "STRUCT(" + ", ".join(
                f"{_quote(c.name)} {duckdb_type(f'{path}.{c.name}', c)}" for c in t.fields) + ")"
    raise AssertionError(f"unhandled kind {t.kind}")


def _cannot(path: str, pattern: str) -> Unsupported:
    return Unsupported(f"column {path!r}: {CAPABILITIES.cannot_write[pattern]}")


def _require_nullable(path: str, child: Field, what: str) -> None:
    if not child.nullable:
        raise Unsupported(f"column {path!r}: the {what} is REQUIRED, but DuckDB has no NOT NULL "
                          "for nested fields (measured: 'STRUCT(x BIGINT NOT NULL)' is a parser "
                          "error, and list elements and struct fields are written OPTIONAL)")


def _check_decimal(path: str, t: DataType) -> None:
    """DuckDB's DECIMAL storage (measured): INT32 for p <= 9, INT64 for p <= 18,
    FIXED_LEN_BYTE_ARRAY(16) up to its maximum precision of 38."""
    if t.decimal_precision > DECIMAL_MAX_PRECISION:
        raise Unsupported(f"column {path!r}: DuckDB DECIMAL has at most "
                          f"{DECIMAL_MAX_PRECISION} digits")
    if t.physical == "BYTE_ARRAY":
        raise _cannot(path, "type:DECIMAL(BYTE_ARRAY)")
    physical = ("INT32" if t.decimal_precision <= 9 else "INT64" if t.decimal_precision <= 18
                else "FIXED_LEN_BYTE_ARRAY")
    if t.physical != physical or physical == "FIXED_LEN_BYTE_ARRAY" and t.length != 16:
        raise Unsupported(f"column {path!r}: DuckDB writes DECIMAL({t.precision},{t.scale}) "
                          f"on {physical}{'(16)' if physical == 'FIXED_LEN_BYTE_ARRAY' else ''}, "
                          f"not {t.physical}{f'({t.length})' if t.length else ''}")


# ---- native types (conformance.cases.native) ------------------------------------
#
# A column the case names "duckdb:<NAME>" is cast to DuckDB's own type NAME; its canonical
# field is what the file must hold per DuckDB's documented Parquet mapping (the cases in
# conformance/cases/parquet/native/duckdb_types.py say which):
# - HUGEINT / UHUGEINT: a DECIMAL(p, 0) column of the integers, staged as VARCHAR (DuckDB
#   imports no Arrow decimal256: measured 'Unsupported Internal Arrow Type for Decimal
#   d:39,0,256'); DuckDB writes both as DOUBLE (duckdb/duckdb issue 21180: lossy).
# - ARRAY: a LIST column whose non-null lists all have one length n, cast to <element>[n].
# - ENUM: a STRING column, cast to ENUM(<its distinct values in order of appearance>).
# - UNION: a STRUCT whose first field is the tag (INT(8, unsigned), DuckDB docs 'Union
#   Type': a union is a struct keeping the tag as its first entry) and then one field per
#   member, the member the tag names holding the value and the others null.


def native_type(f: Field, spec: str, values: list) -> str:
    """The DuckDB SQL type the native column `f` is written as."""
    name = native_name(spec)
    if native_engine(spec) != DuckDBEngine.name or name not in NATIVE_TYPES:
        raise Unsupported(f"column {f.name!r}: {spec} is not one of DuckDB's native types "
                          f"{list(NATIVE_TYPES)}")
    t = f.type
    if name in _NATIVE_INTEGERS:
        return name
    if name == "ENUM":
        labels = dict.fromkeys(v for v in values if v is not None)
        return "ENUM(" + ", ".join(_sql_string(label) for label in labels) + ")"
    if name == "ARRAY":
        sizes = {len(v) for v in values if v is not None}
        if len(sizes) != 1:
            raise Unsupported(f"column {f.name!r}: a DuckDB ARRAY has one length; the lists have "
                              f"lengths {sorted(sizes)}")
        return f"{duckdb_type(f.name + '.list.element', t.list_element)}[{sizes.pop()}]"
    return "UNION(" + ", ".join(f"{_quote(m.name)} {duckdb_type(f'{f.name}.{m.name}', m)}"
                                for m in t.fields[1:]) + ")"  # the tag, then the members


def _staged_native(table, natives):
    """The Arrow table DuckDB is handed: HUGEINT/UHUGEINT columns as decimal text."""
    import pyarrow as pa

    for column, spec in natives.items():
        if native_name(spec) in _NATIVE_INTEGERS:
            i = table.schema.get_field_index(column)
            text = pa.array([None if v is None else str(int(v))
                             for v in table.column(i).to_pylist()], pa.string())
            table = table.set_column(i, pa.field(column, pa.string()), text)
    return table


def _column_expression(f: Field, sql_type: str, native: str | None) -> str:
    """The SELECT expression of column `f` as `sql_type`: a cast, or for a native UNION
    a CASE over its tag."""
    column = _quote(f.name)
    if native is None or not native.endswith(":UNION"):
        return f"CAST({column} AS {sql_type})"
    tag, members = f.type.fields[0], f.type.fields[1:]
    branches = " ".join(
        f"WHEN {column}.{_quote(tag.name)} = {i} THEN CAST(union_value({_quote(m.name)} := "
        f"{column}.{_quote(m.name)}) AS {sql_type})" for i, m in enumerate(members))
    return f"CASE {branches} END"


# ---- COPY options -------------------------------------------------------------

def copy_options(case: Case) -> list[str]:
    """The COPY ... (...) options for `case`, or Unsupported with the reason."""
    o = case.parquet_options
    for tag in (f"page:v{o.page_version}", f"codec:{o.codec}", f"encoding:{o.encoding}"):
        if tag in CAPABILITIES.cannot_write:
            raise Unsupported(CAPABILITIES.cannot_write[tag])
    options = ["FORMAT parquet", f"COMPRESSION {_CODECS[o.codec]}"]
    if o.encoding is None:  # DuckDB's own choice of encodings
        options.append("PARQUET_VERSION V1")
    elif o.encoding != "PLAIN":
        options.extend(_DICTIONARY_OFF)
        for path, t in leaves(case.schema):
            got = _V2_ENCODING[t.physical_type]
            if got != o.encoding:
                raise Unsupported(f"DuckDB cannot write {o.encoding} for column {path!r}: with "
                                  f"PARQUET_VERSION V2 it encodes {t.physical} leaves {got} "
                                  "(measured), and no option selects an encoding per column")
        options.append("PARQUET_VERSION V2")
    else:
        options.extend([*_DICTIONARY_OFF, "PARQUET_VERSION V1"])
    options.append(f"ROW_GROUP_SIZE {_row_group_size(case)}")
    options.extend(_flags(case))
    if any(f.type.kind == "geometry" for _, f in all_fields(case.schema)):
        options.append(GEOMETRY_ANNOTATION)
    options.extend(_metadata_options(case))
    return options


# DuckDB's default (GeoParquet 1.0) writes GEOMETRY as BINARY plus a "geo" key-value entry;
# 'NONE' writes the GEOMETRY annotation and GeospatialStatistics only (measured, DuckDB 2.0.1).
GEOMETRY_ANNOTATION = "GEOPARQUET_VERSION 'NONE'"
DUCKDB_STATISTICS_TRUNCATE_LENGTH = 256  # bytes of a binary min/max bound (measured)


def _metadata_options(case: Case) -> list[str]:
    o = case.parquet_options
    if getattr(o, "lies", ()):
        raise Unsupported(LIES_REASON)
    for tag, wanted in (("statistics:none", o.statistics is False), ("page_index", o.page_index),
                        ("crc", o.page_checksum)):
        if wanted:
            raise Unsupported(CAPABILITIES.cannot_write[tag])
    if o.statistics_truncate_length not in (None, DUCKDB_STATISTICS_TRUNCATE_LENGTH):
        raise Unsupported(f"DuckDB truncates binary min/max statistics to "
                          f"{DUCKDB_STATISTICS_TRUNCATE_LENGTH} bytes (measured) and has no "
                          f"option to change it; asked for {o.statistics_truncate_length}")
    if not o.bloom_filter_columns:
        return []
    if o.encoding is not None:
        raise Unsupported(f"DuckDB writes bloom filters only for dictionary-encoded column "
                          f"chunks, which it chooses itself (measured); encoding {o.encoding} "
                          "leaves none to filter")
    if o.bloom_filter_ndv is not None:
        raise Unsupported("DuckDB sizes bloom filters from the dictionary; COPY has no NDV option")
    options = ["WRITE_BLOOM_FILTER true"]
    if o.bloom_filter_fpp is not None:
        options.append(f"BLOOM_FILTER_FALSE_POSITIVE_RATIO {o.bloom_filter_fpp!r}")
    return options


# ---- filtered read ----------------------------------------------------------------

_SQL_OPS = {"==": "=", "!=": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


def where_clause(predicate: Predicate) -> str:
    column = _quote(predicate.column)
    if predicate.op == "is_null":
        return f"{column} IS NULL"
    if predicate.op == "is_not_null":
        return f"{column} IS NOT NULL"
    constant = sql_constant(predicate.bound_type(), predicate.value)
    return f"{column} {_SQL_OPS[predicate.op]} {constant}"


_TIMESTAMP_MAKERS = {"ms": ("make_timestamp", 1_000), "us": ("make_timestamp", 1),
                     "ns": ("make_timestamp_ns", 1)}


def sql_constant(t: DataType, v) -> str:
    """A DuckDB SQL expression of the value `v` of canonical type `t`, exactly."""
    match t.kind:
        case "boolean":
            return "TRUE" if v else "FALSE"
        case "int":
            return f"CAST({v} AS {_INT_TYPES[(t.bit_width, t.is_signed)]})"
        case "decimal":
            if t.decimal_precision > DECIMAL_MAX_PRECISION:
                raise Unsupported(f"DuckDB DECIMAL has at most {DECIMAL_MAX_PRECISION} digits")
            scale = t.decimal_scale
            return f"CAST('{format_decimal(v, scale)}' AS DECIMAL({t.decimal_precision},{scale}))"
        case "float":
            if t.bits == 16:
                raise Unsupported(CAPABILITIES.cannot_write["type:FLOAT16"])
            text = "nan" if math.isnan(v) else format_float(v)  # a NaN payload cannot matter
            return f"CAST('{text}' AS {'FLOAT' if t.bits == 32 else 'DOUBLE'})"
        case "string":
            return f"CAST({_sql_string(v)} AS VARCHAR)"
        case "binary" | "fixed":
            return f"from_hex('{v.hex()}')"
        case "date":
            return f"(DATE '1970-01-01' + CAST({v} AS INTEGER))"
        case "time" if t.unit in ("ms", "us"):
            micros = v * (1_000 if t.unit == "ms" else 1)
            return f"(TIME '00:00:00' + to_microseconds(CAST({micros} AS BIGINT)))"
        case "timestamp":
            maker, factor = _TIMESTAMP_MAKERS[t.time_unit]
            expression = f"{maker}(CAST({v * factor} AS BIGINT))"
            if t.utc:
                return f"CAST({expression} AS {'TIMESTAMPTZ_NS' if t.unit == 'ns' else 'TIMESTAMPTZ'})"
            return expression
    raise Unsupported(f"the adapter has no exact DuckDB constant for {t.describe()}")


def _row_group_size(case: Case) -> int:
    rows, size = len(case.rows), case.parquet_options.row_group_size
    if size is None or size >= rows:
        return max(rows, 1)
    if size % DUCKDB_VECTOR_SIZE:
        raise Unsupported(
            f"row groups of {size} rows: DuckDB cuts row groups in whole vectors of "
            f"{DUCKDB_VECTOR_SIZE} rows (measured on 10000 rows: ROW_GROUP_SIZE 1, 3 and 2048 "
            "give groups of 2048 rows, 2049 gives 4096, 6144 gives 6144)")
    return size


def _flags(case: Case) -> list[str]:
    """File-wide timestamp switches, when the case's columns agree on them."""
    timestamps = [(path, f.type) for path, f in all_fields(case.schema)
                  if f.type.kind in ("timestamp", "int96")]
    kinds = {t.kind for _, t in timestamps}
    flags = []
    if "int96" in kinds:
        if "timestamp" in kinds:
            raise Unsupported("DuckDB's WRITE_TIMESTAMP_AS_INT96 writes every timestamp column "
                              "as INT96: INT96 and TIMESTAMP columns cannot be mixed")
        flags.append("WRITE_TIMESTAMP_AS_INT96 true")
    if any(t.kind == "timestamp" and t.unit == "ms" and t.utc for _, t in timestamps):
        local = [path for path, t in timestamps if not t.utc]
        if local:
            raise Unsupported("TIMESTAMP(ms, utc) needs DuckDB's file-wide "
                              "TIMESTAMP_IS_ADJUSTED_TO_UTC (there is no TIMESTAMPTZ_MS type), "
                              f"which would also mark local column(s) {local} as UTC")
        flags.append("TIMESTAMP_IS_ADJUSTED_TO_UTC true")
    return flags
