"""chdb (ClickHouse in-process) through the engine protocol (docs/engine-protocol.md).

    .venv/bin/python adapters/python/chdb/chdb_adapter.py

ClickHouse's own Parquet reader and writer do the work; pyarrow only carries values
between the suite and ClickHouse (chdb reads an Arrow table with `Python(name)` and
hands results back as an Arrow table). README.md beside this file says what is
mapped how, what cannot be written and why, and what was found.

- write: `INSERT INTO FUNCTION file(path, Parquet, structure) SELECT * FROM
  Python(source) SETTINGS ...`, the structure being the ClickHouse types the case's
  schema maps to (`Nullable(T)` for OPTIONAL, `T` for REQUIRED) and the settings the
  case's WriteOptions. What no setting can promise exactly (row group sizes, which
  columns are dictionary-encoded, which get a bloom filter) is checked afterwards
  with ClickHouse's own `ParquetMetadata` input format; a file that differs from the
  case is answered `unsupported` with what ClickHouse wrote.
- read: `SELECT * FROM file(path, Parquet)` fetched as an Arrow table, converted by
  `kit.engine_table`. ClickHouse's values are never repaired.
"""

from __future__ import annotations

from typing import Any

import chdb_orc
from chdb_common import (
    TIMESTAMP_PRECISION,
    base_type,
    clickhouse_type,
    identifier,
    literal,
    session_query,
    settings_sql,
    string_kind,
    version,
)

from conformance.kit import (
    NO_ARROW_FORM,
    PROTOCOL_VERSION,
    Case,
    DataType,
    Field,
    Schema,
    Table,
    Unsupported,
    engine_table,
    run_adapter,
    table_to_arrow,
)

NAME = "chdb"
ISSUE_ENCRYPTION = ("ClickHouse has no Parquet modular encryption: feature request "
                    "ClickHouse/ClickHouse#51477 'Parquet format support encryption of columns' "
                    "is open, and in #64965 a maintainer calls reading an encrypted file "
                    "'a non-implemented feature'")
NO_SETTING = "system.settings has no output_format_parquet_* setting for it"

# WriteOptions.codec -> output_format_parquet_compression_method. ClickHouse's 'lz4'
# is written as LZ4_RAW (measured: codec 7 in the footer).
CODECS = {"UNCOMPRESSED": "none", "SNAPPY": "snappy", "GZIP": "gzip", "BROTLI": "brotli",
          "ZSTD": "zstd", "LZ4_RAW": "lz4"}
STRING_AS_STRING = "output_format_parquet_string_as_string"
BATCH_ONE_PAGE = 1  # data_page_size in bytes: every page-size check cuts a page
STRING = DataType("string", "BYTE_ARRAY")  # canonical STRING (docs/canonical-values.md)

_UNKNOWN_TYPE = ("measured: 'Internal type '{}' of column 'v' is not supported for conversion "
                 "into Parquet data format. (UNKNOWN_TYPE)'")

CANNOT_WRITE = {
    "type:FILE": "measured: chdb 4.4.0 writes a Tuple as a group without LogicalType (FILE is "
                 "LogicalType 19, LogicalTypes.md 'FILE')",
    "encryption:*": ISSUE_ENCRYPTION,
    "type:TIME(*)": "ClickHouse's Time/Time64 types have no Parquet form; "
                    + _UNKNOWN_TYPE.format("Time64"),
    "type:TIMESTAMP(*,local)": "measured: DateTime64 without a time zone is written "
                               "TIMESTAMP(isAdjustedToUTC=true); ClickHouse has no wall-clock "
                               "timestamp type (input_format_parquet_local_time_as_utc: "
                               "'ClickHouse doesn't have a data type for local wall-clock time')",
    "type:INT96": f"ClickHouse writes DateTime64 as INT64 TIMESTAMP; {NO_SETTING} (no int96 option)",
    "type:FLOAT16": "ClickHouse has no 16-bit IEEE float (BFloat16 is another format); "
                    + _UNKNOWN_TYPE.format("BFloat16"),
    "type:UNKNOWN": "an all-null column is Nullable(Nothing) in ClickHouse; "
                    + _UNKNOWN_TYPE.format("Nothing"),
    "type:INTERVAL": "ClickHouse's Interval types are not storable in a table or a file",
    "type:BSON": "ClickHouse has no BSON type (String is written as STRING or unannotated)",
    "type:DECIMAL(INT32)": "measured: ClickHouse writes every Decimal as FIXED_LEN_BYTE_ARRAY",
    "type:DECIMAL(INT64)": "measured: ClickHouse writes every Decimal as FIXED_LEN_BYTE_ARRAY",
    "type:DECIMAL(BYTE_ARRAY)": "measured: ClickHouse writes every Decimal as "
                                "FIXED_LEN_BYTE_ARRAY",
    **{f"type:{kind}": "ClickHouse's geo types are tuples and arrays of Float64 (ClickHouse docs, "
       "'Geo Data Types'), not WKB; the adapter maps none of them to this annotation"
       for kind in ("GEOMETRY", "GEOGRAPHY")},
    "type:VARIANT": f"the adapter hands data to ClickHouse as Arrow, and {NO_ARROW_FORM['variant']}",
    "variant:shredded": "pyarrow has no VARIANT type to hand ClickHouse a variant with",
    "page:v2": "measured: every page ClickHouse writes is DATA_PAGE (v1); "
               "output_format_parquet_version is 'Obsolete setting, does nothing'",
    "page_v2:*": "ClickHouse writes data page v1 only (see page:v2)",
    "levels:BIT_PACKED": "ClickHouse writes RLE levels; " + NO_SETTING,
    "legacy:*": "ClickHouse writes the standard 3-level LIST and MAP layouts only; "
                "output_format_parquet_compliant_nested_types is 'Obsolete setting, does nothing'",
    "encoding:PLAIN_DICTIONARY": "measured: dictionary-encoded data pages are RLE_DICTIONARY",
    "encoding:RLE": "measured: BOOLEAN pages are PLAIN, with and without a dictionary",
    "encoding:DELTA_*": "measured: ClickHouse writes PLAIN and RLE_DICTIONARY pages only; " + NO_SETTING,
    "encoding:BYTE_STREAM_SPLIT": "measured: ClickHouse writes PLAIN and RLE_DICTIONARY pages "
                                  "only; " + NO_SETTING,
    "encoding:ALP": "measured: ClickHouse writes PLAIN and RLE_DICTIONARY pages only; " + NO_SETTING,
    "codec:LZ4": "ClickHouse's 'lz4' writes LZ4_RAW (measured: codec 7 in the footer); there is "
                 "no Hadoop-framed LZ4",
    "codec:LZO": "measured: 'Unexpected value of ParquetCompression: 'lzo'. Must be one of "
                 "['brotli', 'gzip', 'none', 'zstd', 'lz4', 'snappy']'",
    "statistics:none": "ClickHouse always writes column chunk statistics; " + NO_SETTING,
    "statistics:truncate": "no setting sets the length of binary min/max statistics; " + NO_SETTING,
    "lie:*": "deliberately untrue metadata (WriteOptions.lies) is written by the reference "
             "writer only",
    "thrift:extension": "Thrift extension bytes (WriteOptions.thrift_extensions) are written by "
                        "the reference writer only",
    "column_order:*": "measured: chdb 4.4.0 writes ColumnOrder TYPE_ORDER for every column (a DOUBLE "
                      "column included); " + NO_SETTING,
    "empty_row_groups": "ClickHouse's Parquet output sizes row groups by rows and bytes "
                        "(output_format_parquet_row_group_size, ..._bytes) and writes none of no "
                        "rows; " + NO_SETTING,
}
CANNOT_READ = {"encryption:*": ISSUE_ENCRYPTION}

# ClickHouse's own types a case can ask for (options.native_types, "chdb:<NAME>";
# docs/engine-protocol.md 'write'), each written from the column's canonical values:
# NAME -> how the ClickHouse type is built (see native_type).
NATIVE_TYPES = ("LowCardinality", "ArrayOfNullable", "Tuple", "UnnamedTuple", "Int128",
                "UInt128", "Int256", "UInt256", "Int128Legacy", "Enum8", "Enum16",
                "FixedString", "MapLowCardinalityKey", "IPv4", "IPv6", "Date32", "DateTime64",
                "Decimal256")
# Wide integers, written as DECIMAL(39 / 77 / 78, 0) by output_format_parquet_wide_integer_as_
# decimal ("standards-compliant Parquet DECIMAL values in big-endian byte order", its
# description in system.settings); Int128Legacy keeps the default, "the legacy unannotated
# little-endian FIXED_LEN_BYTE_ARRAY representation".
WIDE_INTEGERS = {"Int128": "Int128", "UInt128": "UInt128", "Int256": "Int256",
                 "UInt256": "UInt256", "Int128Legacy": "Int128"}
LEGACY_WIDE_INTEGERS = ("Int128Legacy",)
# An Enum's elements are numbered from the smallest value of its integer (Enum8: Int8,
# Enum16: Int16), so that a column of many labels reaches the negative codes.
ENUM_FIRST_CODE = {"Enum8": -(2**7), "Enum16": -(2**15)}
ENUM_CODES = {"Enum8": 2**8, "Enum16": 2**16}
NATIVE_TIME_ZONE = "Asia/Kolkata"  # a zone off UTC by a half hour: the instant must not move

# Every tag of the abstract schema ("*" claims no native type), and the native types it knows.
WRITES = ["*", *(f"native:{NAME}:{n}" for n in NATIVE_TYPES)]


def start(_request: dict) -> dict:
    return {"protocol": PROTOCOL_VERSION, "name": NAME, "version": version(),
            "language": "python",
            "formats": {"parquet": {"writes": WRITES, "reads": ["*"],
                                    "cannot_write": CANNOT_WRITE, "cannot_read": CANNOT_READ},
                        chdb_orc.FORMAT: chdb_orc.CAPABILITIES}}


# ---- read -------------------------------------------------------------------------

# Read settings: keep the file's row order (ClickHouse may otherwise read row groups in
# parallel and in any order), and keep JSON text as it is (ClickHouse's JSON type holds
# objects only and re-serialises them).
READ_SETTINGS = {"input_format_parquet_preserve_order": 1,
                 "input_format_parquet_enable_json_parsing": 0, "max_threads": 1}


def read(request: dict) -> dict:
    path = request["file"]
    if request["format"] == chdb_orc.FORMAT:
        return chdb_orc.read(NAME, path)
    settings = {**READ_SETTINGS, "output_format_arrow_string_as_string": int(not _binary_only(path))}
    table = session_query(f"SELECT * FROM file({literal(path)}, Parquet)"
                          f" SETTINGS {settings_sql(settings)}", "ArrowTable")
    return {"document": engine_table(NAME, table).to_document()}


def _binary_only(path: str) -> bool:
    """ClickHouse reads BYTE_ARRAY text and bytes alike as String; its Arrow output gives
    String as utf8 or as binary, for the whole result. This picks binary when the file's
    byte-array leaves are all unannotated, as ClickHouse's own metadata reader sees them."""
    try:
        leaves = _metadata(path, "arrayMap(c -> (c.physical_type, c.logical_type), columns)")
    except Exception:  # noqa: BLE001 - the read that follows reports the engine's error
        return False
    kinds = {logical for physical, logical in leaves[0] if physical == "BYTE_ARRAY"}
    return bool(kinds) and kinds <= {"None"}


def _metadata(path: str, expression: str) -> list[Any]:
    """`expression` over ClickHouse's ParquetMetadata of the file (one row), as a list."""
    result = session_query(f"SELECT {expression} FROM file({literal(path)}, ParquetMetadata)",
                           "ArrowTable")
    return [_tuples(v) for v in result.to_pylist()[0].values()]


def _tuples(value: Any) -> Any:
    """A ClickHouse Tuple comes back as an Arrow struct (a dict keyed '1', '2', ...)."""
    if isinstance(value, dict):
        return tuple(_tuples(v) for v in value.values())
    if isinstance(value, list):
        return [_tuples(v) for v in value]
    return value


# ---- write ------------------------------------------------------------------------

def write(request: dict) -> dict:
    case = Case.from_json(request["case"])
    path = request["path"]
    if case.format == chdb_orc.FORMAT:
        return chdb_orc.write(case, path)
    gap = [tag for tag in case.write_features if tag.startswith("encryption:")]
    if gap:
        raise Unsupported(ISSUE_ENCRYPTION)
    settings = write_settings(case)
    natives = native_names(case)
    if any(natives.get(f.name) in WIDE_INTEGERS and natives[f.name] not in LEGACY_WIDE_INTEGERS
           for f in case.schema):
        settings["output_format_parquet_wide_integer_as_decimal"] = 1
    structure = ", ".join(f"{identifier(f.name)} {column_type(f, case, natives)}"
                          for f in case.schema)
    source = table_to_arrow(native_source(case, natives))  # noqa: F841 - read by name: Python(source)
    session_query(f"INSERT INTO FUNCTION file({literal(path)}, Parquet, {literal(structure)}) "
                  f"SELECT * FROM Python(source) SETTINGS {settings_sql(settings)}")
    check_written(case, path)
    return {"ok": True}


def write_settings(case: Case) -> dict[str, Any]:
    """The ClickHouse settings that write `case`'s options, or Unsupported."""
    o = case.parquet_options
    settings: dict[str, Any] = {
        "max_threads": 1,  # rows reach the file in the order of the source
        "engine_file_truncate_on_insert": 1,
        "output_format_parquet_compression_method": CODECS[o.codec],
        # ClickHouse String has no text/bytes distinction: one switch per file.
        STRING_AS_STRING: int(string_kind(case, STRING_AS_STRING) != "binary"),
        "output_format_parquet_fixed_string_as_fixed_byte_array": 1,
        "output_format_parquet_enum_as_byte_array": 1,
    }
    if o.encoding == "PLAIN":
        settings["output_format_parquet_max_dictionary_size"] = 0
    if o.dictionary_size_limit is not None:
        settings["output_format_parquet_max_dictionary_size"] = o.dictionary_size_limit
    if o.row_group_size is not None:
        settings["output_format_parquet_row_group_size"] = o.row_group_size
    if o.page_row_limit is not None:
        settings.update(_page_settings(case, o.page_row_limit))
    if o.page_index is not None:
        settings["output_format_parquet_write_page_index"] = int(o.page_index)
    if o.page_checksum is not None:
        settings["output_format_parquet_write_checksums"] = int(o.page_checksum)
    if o.bloom_filter_columns:
        if o.bloom_filter_ndv is not None or o.bloom_filter_fpp is not None:
            raise Unsupported("ClickHouse sizes bloom filters by "
                              "output_format_parquet_bloom_filter_bits_per_value for the distinct "
                              "values it sees; no setting takes an NDV or a target FPP")
        settings["output_format_parquet_write_bloom_filter"] = 1
    return settings


def _page_settings(case: Case, limit: int) -> dict[str, Any]:
    """Pages of page_row_limit rows: a 1-byte target page size makes every page-size check
    (every output_format_parquet_batch_size rows) cut a page. Measured exact for flat
    columns; in a list column a page holds another number of rows (batch 7: pages of 8
    values of 2-element lists)."""
    nested = [f.name for f in case.schema if f.type.is_nested]
    if nested:
        raise Unsupported(f"pages of {limit} rows: ClickHouse cuts pages of nested "
                          f"columns {nested} elsewhere (measured: batch_size 7 gave pages of 4 "
                          "rows of a 2-element list column)")
    _check_null_pages(case, limit)
    return {"output_format_parquet_data_page_size": BATCH_ONE_PAGE,
            "output_format_parquet_batch_size": limit}


def _check_null_pages(case: Case, limit: int) -> None:
    """A PLAIN page whose rows are all null holds no value bytes, so the page-size check
    at its end does not cut it (measured: rows 7-13 null, batch 7 gave pages of 7, 14, 7,
    2 rows; a dictionary-encoded page keeps its bit-width byte and is cut). Such a page,
    other than a row group's last, would not hold `limit` rows."""
    o = case.parquet_options
    plain = o.encoding == "PLAIN" or o.dictionary_size_limit is not None
    # BOOLEAN columns are PLAIN even with a dictionary (measured).
    columns = [(i, f.name) for i, f in enumerate(case.schema) if plain or f.type.kind == "boolean"]
    group = o.row_group_size or max(len(case.rows), 1)
    for start in range(0, len(case.rows), group):
        rows = case.rows[start:start + group]
        for first in range(0, len(rows) - limit, limit):
            window = rows[first:first + limit]
            nulls = [name for i, name in columns if all(r[i] is None for r in window)]
            if nulls:
                raise Unsupported(f"pages of {limit} rows: ClickHouse does not end a PLAIN page "
                                  f"whose values are all null (rows {start + first} to "
                                  f"{start + first + limit - 1} of {nulls}; measured)")


def check_written(case: Case, path: str) -> None:
    """What no setting promises exactly, checked with ClickHouse's ParquetMetadata."""
    o = case.parquet_options
    rows, groups = len(case.rows), o.row_group_size
    if groups is not None and rows > groups:
        wanted = [groups] * (rows // groups) + ([rows % groups] if rows % groups else [])
        got = _metadata(path, "arrayMap(g -> g.num_rows, row_groups)")[0]
        if got != wanted:
            raise Unsupported(f"row groups of {groups} rows: output_format_parquet_row_group_size "
                              f"is a target, ClickHouse wrote groups of {got} rows")
    if o.encoding == "RLE_DICTIONARY":
        columns = _metadata(path, "arrayMap(c -> (c.path, c.encodings), columns)")[0]
        plain = [p for p, encodings in columns if "RLE_DICTIONARY" not in encodings]
        if plain:
            raise Unsupported(f"ClickHouse wrote no dictionary for {plain} (no setting forces "
                              "one; measured: BOOLEAN columns are always PLAIN, and past "
                              "output_format_parquet_max_dictionary_size a whole chunk is PLAIN)")
    if o.bloom_filter_columns:
        chunks = _metadata(path, "arrayFlatten(arrayMap(g -> arrayMap(c -> (c.path, "
                                 "c.bloom_filter_bytes), g.columns), row_groups))")[0]
        got_bloom = {p for p, size in chunks if size > 0}
        if got_bloom != set(o.bloom_filter_columns):
            raise Unsupported(f"output_format_parquet_write_bloom_filter is for every column it "
                              f"suits: asked for {sorted(o.bloom_filter_columns)}, ClickHouse "
                              f"wrote filters for {sorted(got_bloom)}")


# ---- types --------------------------------------------------------------------------

def column_type(f: Field, case: Case, natives: dict[str, str]) -> str:
    """A top-level column's ClickHouse type: the native type the case names, else the
    type its canonical field maps to."""
    native = natives.get(f.name)
    if native is None:
        return clickhouse_type(f.name, f, case)
    inner = native_type(native, f, case)
    if not f.nullable or native in ("ArrayOfNullable", "MapLowCardinalityKey", "Tuple",
                                     "UnnamedTuple", "LowCardinality"):
        return inner  # nested types cannot be Nullable; LowCardinality wraps its Nullable
    return f"Nullable({inner})"


def native_names(case: Case) -> dict[str, str]:
    """Top-level column -> the ClickHouse native type NAME the case asks for."""
    natives = {column: spec.split(":", 1)[1]
               for column, spec in case.parquet_options.native_types.items()}
    unknown = sorted(set(natives.values()) - set(NATIVE_TYPES))
    if unknown:
        raise Unsupported(f"native types {unknown}: the chdb adapter writes {NATIVE_TYPES}")
    return natives


def native_type(native: str, f: Field, case: Case) -> str:
    """The ClickHouse type `native` holding canonical field `f`'s values."""
    t = f.type
    match native:
        case "LowCardinality":
            return f"LowCardinality({'Nullable(String)' if f.nullable else 'String'})"
        case "UnnamedTuple":
            return "Tuple(" + ", ".join(clickhouse_type(f"{f.name}.{c.name}", c, case)
                                        for c in t.fields) + ")"
        case "MapLowCardinalityKey":
            return (f"Map(LowCardinality({base_type(f.name + '.key', t.map_key.type, case)}), "
                    f"{clickhouse_type(f.name + '.value', t.map_value, case)})")
        case "Enum8" | "Enum16":
            return _native_enum(native, f, case)
        case "IPv4" | "IPv6":
            return native
        case "DateTime64":
            return f"DateTime64({TIMESTAMP_PRECISION[t.time_unit]}, {literal(NATIVE_TIME_ZONE)})"
    if native in WIDE_INTEGERS:
        return WIDE_INTEGERS[native]
    # ArrayOfNullable, Tuple, FixedString, Date32, Decimal256: the canonical field's own
    # mapping is that ClickHouse type.
    return base_type(f.name, t, case)


def _native_enum(native: str, f: Field, case: Case) -> str:
    """Enum8 / Enum16 of the column's distinct values, numbered from the type's smallest
    code (ClickHouse docs 'Enum': Enum8 holds 256 values, Enum16 65536)."""
    labels = list(dict.fromkeys(v for v in case.expected.column(f.name) if v is not None))
    if not labels or len(labels) > ENUM_CODES[native]:
        raise Unsupported(f"column {f.name!r}: a ClickHouse {native} holds 1 to "
                          f"{ENUM_CODES[native]} elements, the column has {len(labels)}")
    first = ENUM_FIRST_CODE[native]
    return f"{native}(" + ", ".join(f"{literal(v)} = {first + i}"
                                    for i, v in enumerate(labels)) + ")"


def native_source(case: Case, natives: dict[str, str]) -> Table:
    """The canonical table handed to ClickHouse: wide integers as decimal text (Arrow
    decimals stop at 76 digits, Int256's reach 77), which ClickHouse parses into the
    column's type on insert."""
    wide = {f.name for f in case.schema if natives.get(f.name) in WIDE_INTEGERS}
    if not wide:
        return case.expected
    fields = tuple(Field(f.name, STRING, f.nullable) if f.name in wide else f for f in case.schema)
    columns = [[None if v is None else str(v) for v in case.expected.column(f.name)]
               if f.name in wide else case.expected.column(f.name) for f in case.schema]
    return Table.from_columns(Schema(fields), columns)


if __name__ == "__main__":
    run_adapter({"start": start, "read": read, "write": write})
