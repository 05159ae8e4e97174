"""Apache DataFusion (Python bindings, on arrow-rs's `parquet` crate) as a Parquet writer
and reader, through the engine protocol (docs/engine-protocol.md).

    .venv/bin/python adapters/python/datafusion/datafusion_adapter.py

In-process: the case's canonical values become an Arrow table (the project's exact
conversion), DataFusion writes it with `DataFrame.write_parquet_with_options`; a read
is `SessionContext.read_parquet(path).to_arrow_table()`, converted back exactly. Arrow
data only crosses the boundary: DataFusion itself reads and writes every file.
README.md (beside this file) explains the mapping and every `cannot_*` reason.
"""

from __future__ import annotations

from pathlib import Path

import datafusion
import pyarrow as pa
from datafusion import SessionConfig, SessionContext
from datafusion.dataframe import (
    Compression,
    DataFrameWriteOptions,
    ParquetColumnOptions,
    ParquetWriterOptions,
)

from conformance.kit import (
    NO_ARROW_FORM,
    PROTOCOL_VERSION,
    Capabilities,
    Case,
    DataType,
    Unsupported,
    WriteOptions,
    all_fields,
    engine_table,
    leaves,
    run_adapter,
    table_to_arrow,
)

NAME = "datafusion"

# ---- what DataFusion can be told to write -------------------------------------------

# WriteOptions.codec -> DataFusion's codec name. The docstring of DataFrame.write_parquet:
# "LZO compression is not yet implemented in arrow-rs and is therefore excluded."
CODECS = {"UNCOMPRESSED": "uncompressed", "SNAPPY": "snappy", "GZIP": "gzip",
          "BROTLI": "brotli", "LZ4": "lz4", "ZSTD": "zstd", "LZ4_RAW": "lz4_raw"}

# Physical types arrow-rs encodes with each value encoding (measured on one column per
# physical type; the others fail, often with a Rust panic, e.g. "RleValueEncoder only
# supports BoolType", "DeltaLengthByteArrayEncoder only supports ByteArrayType").
ENCODING_PHYSICAL = {
    "PLAIN": ("BOOLEAN", "INT32", "INT64", "FLOAT", "DOUBLE", "BYTE_ARRAY",
              "FIXED_LEN_BYTE_ARRAY"),
    "RLE": ("BOOLEAN",),
    "DELTA_BINARY_PACKED": ("INT32", "INT64"),
    "DELTA_LENGTH_BYTE_ARRAY": ("BYTE_ARRAY",),
    "DELTA_BYTE_ARRAY": ("BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"),
    "BYTE_STREAM_SPLIT": ("INT32", "INT64", "FLOAT", "DOUBLE", "FIXED_LEN_BYTE_ARRAY"),
    # Measured: BOOLEAN columns are never dictionary-encoded (PLAIN in v1 pages, RLE in
    # v2), FIXED_LEN_BYTE_ARRAY ones only with writer_version "2.0" (see _check_encoding).
    "RLE_DICTIONARY": ("INT32", "INT64", "FLOAT", "DOUBLE", "BYTE_ARRAY",
                       "FIXED_LEN_BYTE_ARRAY"),
}
DICTIONARY_LABEL = "RLE_DICTIONARY"
FLBA = "FIXED_LEN_BYTE_ARRAY"

# "None: one page per chunk" and "no fallback unless asked": limits no case reaches.
UNLIMITED_BYTES = 1 << 30
UNLIMITED_ROWS = 1 << 30
EXACT_PAGE_BATCH = 1
DEFAULT_BATCH = ParquetWriterOptions().write_batch_size

STATISTICS_NONE, STATISTICS_PAGE = "none", "page"  # "page" also writes the ColumnIndex
OFFSET_INDEX_ALWAYS = ("measured: arrow-rs writes an OffsetIndex for every column chunk "
                       "whatever the options (also with statistics_enabled='none')")

# Arrow types of arrow-rs a case can ask for (options.native_types, "datafusion:<NAME>";
# docs/engine-protocol.md 'write'): NAME -> the Arrow type the column's canonical Arrow
# form is cast to before DataFusion writes it (FixedSizeList takes its lists' width).
NATIVE_TYPES = {
    "Utf8View": lambda _: pa.string_view(),
    "BinaryView": lambda _: pa.binary_view(),
    "LargeUtf8": lambda _: pa.large_string(),
    "LargeBinary": lambda _: pa.large_binary(),
    "Date64": lambda _: pa.date64(),
    "Duration": lambda _: pa.duration("us"),
    "Decimal256": lambda t: pa.decimal256(t.precision, t.scale),
}
FIXED_SIZE_LIST = "FixedSizeList"
# dictionary<int32, T>: dictionary_encode, as pyarrow has no cast from every T to a dictionary
# (measured: "Unsupported cast from int64 to dictionary").
DICTIONARY = "Dictionary"

CAPABILITIES = Capabilities(
    writes=("physical:*", "type:*", "repetition:*", "rows:*", "nulls:*", "page:*",
            "page_v2:is_compressed=false", "row_groups:*", "pages:*", "dictionary:fallback",
            "statistics", "statistics:none", "statistics:truncate", "page_index", "bloom",
            *(f"encoding:{e}" for e in ENCODING_PHYSICAL),
            *(f"codec:{c}" for c in CODECS),
            *(f"native:{NAME}:{n}" for n in (*NATIVE_TYPES, FIXED_SIZE_LIST, DICTIONARY))),
    reads=("*",),
    cannot_write={
        "type:FILE": "measured: DataFusion 55.0.0 writes an Arrow struct as a group without "
                     "LogicalType (FILE is LogicalType 19, LogicalTypes.md 'FILE')",
        "codec:LZO": "DataFrame.write_parquet's docstring: 'LZO compression is not yet "
                     "implemented in arrow-rs and is therefore excluded.'",
        "encoding:PLAIN_DICTIONARY": "measured: with writer_version '1.0' arrow-rs still labels "
                                     "dictionary data pages RLE_DICTIONARY; encoding="
                                     "'plain_dictionary' raises 'Dictionary encoding can not be "
                                     "used as fallback encoding'",
        "levels:BIT_PACKED": "ParquetWriterOptions has no level-encoding option; arrow-rs writes "
                             "RLE levels (measured in the page headers)",
        "legacy:*": "ParquetWriterOptions has no option for the LIST/MAP layout; arrow-rs writes "
                    "the 3-level LIST and the MAP of repeated 'entries' only (measured)",
        "crc": "ParquetWriterOptions has no page checksum option, and measured: COPY ... OPTIONS "
               "('format.page_checksum' 'true') raises 'Config value \"page_checksum\" not found "
               "on ParquetOptions'; no page header gets a crc",
        "encryption:*": "ParquetWriterOptions has no encryption option; measured: the SQL table "
                        "options 'format.crypto.file_encryption.*' are accepted but this build "
                        "has arrow-rs's parquet_encryption feature disabled and COPY writes a "
                        "plaintext file (magic PAR1)",
        "lie:*": "deliberately untrue metadata (WriteOptions.lies) is written by the reference "
                 "writer only",
        "variant:shredded": NO_ARROW_FORM["variant"],
        **{f"type:{kind.upper()}": reason for kind, reason in NO_ARROW_FORM.items()},
        "type:ENUM": "Arrow has no enum type: an ENUM column would be written as STRING",
        "type:BSON": "Arrow has no BSON type: a BSON column would be written as plain binary",
        "type:INT96": "ParquetWriterOptions has no INT96 option; measured: Arrow timestamp[ns] is "
                      "written as INT64 TIMESTAMP(NANOS)",
        "type:UUID": "measured: an arrow.uuid column is written as FIXED_LEN_BYTE_ARRAY(16) "
                     "without the UUID annotation",
        "type:JSON": "measured: an arrow.json column is written as STRING, not JSON",
        "type:TIME(*,utc)": "measured: arrow-rs writes every Arrow time32/time64 column as "
                            "TIME(isAdjustedToUTC=false); Arrow times carry no time zone",
        "type:INTERVAL": "measured: 'Parquet error: NYI: Attempting to write an Arrow interval "
                         "type MonthDayNano to parquet that is not yet implemented'",
        "type:DECIMAL(BYTE_ARRAY)": "measured: arrow-rs stores DECIMAL on INT32 (precision <= "
                                    "9), INT64 (<= 18) or FIXED_LEN_BYTE_ARRAY, never BYTE_ARRAY",
    },
    cannot_read={
        "codec:LZO": "DataFrame.write_parquet's docstring: 'LZO compression is not yet "
                     "implemented in arrow-rs'; measured on read: 'Parquet error: NYI: The codec "
                     "type LZO is not supported yet'",
        "encryption:*": "SessionContext.read_parquet takes no decryption keys (its parameters: "
                        "path, table_partition_cols, parquet_pruning, file_extension, "
                        "skip_metadata, schema, file_sort_order, object_store), and this build "
                        "has arrow-rs's parquet_encryption feature disabled",
    },
)


# ---- start ------------------------------------------------------------------------


def start(_request: dict) -> dict:
    return {"protocol": PROTOCOL_VERSION, "name": NAME, "version": datafusion.__version__,
            "language": "python", "formats": {"parquet": CAPABILITIES.to_json()}}


# ---- read -------------------------------------------------------------------------

# Keep the file's own Arrow layouts: by default DataFusion reads strings and binaries as
# Utf8View/BinaryView (schema_force_view_types=true); binary_as_string stays off so
# unannotated binaries stay binary. Everything else is DataFusion's default, the
# statistics it collects included (see README.md, findings).
READ_CONFIG = {
    "datafusion.execution.parquet.schema_force_view_types": "false",
    "datafusion.execution.parquet.binary_as_string": "false",
}


def read(request: dict) -> dict:
    path = Path(request["file"])
    config = SessionConfig(READ_CONFIG).with_target_partitions(1)  # rows in file order
    # file_extension: the files to read are not all named *.parquet.
    frame = SessionContext(config).read_parquet(str(path), file_extension=path.suffix)
    table = frame.to_arrow_table()
    return {"document": engine_table(NAME, table).to_document()}


# ---- write ------------------------------------------------------------------------


def write(request: dict) -> dict:
    case = Case.from_json(request["case"])
    gap = CAPABILITIES.write_gap(case.write_features)  # the harness checks too
    if gap:
        raise Unsupported(gap)
    options = writer_options(case)
    path = Path(request["path"])
    arrow = native_arrow(case, table_to_arrow(case.expected))
    SessionContext().from_arrow(arrow).write_parquet_with_options(
        str(path), options, DataFrameWriteOptions(single_file_output=True))
    if not path.is_file():
        raise RuntimeError(f"DataFusion wrote no single file at {path}")
    return {"ok": True}


def native_arrow(case: Case, table: pa.Table) -> pa.Table:
    """`table` with each column the case names in native_types cast to that Arrow type."""
    for column, spec in case.parquet_options.native_types.items():
        index = table.schema.get_field_index(column)
        field = table.schema.field(index)
        native = spec.split(":", 1)[1]
        if native == DICTIONARY:
            cast = table.column(index).dictionary_encode()
        else:
            cast = table.column(index).cast(native_arrow_type(native, field.type,
                                                               case.expected.column(column)))
        table = table.set_column(index, pa.field(column, cast.type, field.nullable), cast)
    return table


def native_arrow_type(native: str, own: pa.DataType, values: list) -> pa.DataType:
    """Arrow type `native` for a column whose canonical Arrow form is `own`."""
    if native == FIXED_SIZE_LIST:
        widths = {len(v) for v in values if v is not None}
        if len(widths) != 1:
            raise Unsupported(f"an Arrow fixed_size_list has one width; the case's lists have {widths}")
        return pa.list_(own.value_field, widths.pop())
    if native not in NATIVE_TYPES:
        raise Unsupported(f"native type {native!r}: the DataFusion adapter writes "
                          f"{[*NATIVE_TYPES, FIXED_SIZE_LIST, DICTIONARY]}")
    return NATIVE_TYPES[native](own)


def writer_options(case: Case) -> ParquetWriterOptions:
    """The ParquetWriterOptions that make DataFusion write `case`, or Unsupported."""
    o = case.parquet_options
    _check_types(case)
    _check_v2_is_compressed(o)
    rows = max(len(case.rows), 1)
    return ParquetWriterOptions(
        writer_version="2.0" if o.page_version == 2 else "1.0",
        skip_arrow_metadata=True,  # as pyarrow's store_schema=False: only Parquet metadata
        compression=_compression(o.codec),
        max_row_group_size=o.row_group_size or rows,
        data_page_row_count_limit=o.page_row_limit or UNLIMITED_ROWS,
        # arrow-rs checks the page row limit only after each write batch, counted in levels
        # (its docs: a "best effort" limit): batches of one level make it exact, also for
        # lists (measured: batches of 3 let 3-row pages of a list column hold 4 or 5 rows).
        write_batch_size=EXACT_PAGE_BATCH if o.page_row_limit else DEFAULT_BATCH,
        data_pagesize_limit=UNLIMITED_BYTES,
        **_encoding_options(case),
        **_metadata_options(case),
    )


def _compression(codec: str) -> str:
    name = CODECS[codec]
    level = Compression.from_str(name).get_default_level()  # DataFusion's own defaults
    return name if level is None else f"{name}({level})"


def _check_v2_is_compressed(o: WriteOptions) -> None:
    if o.page_version == 2 and not o.v2_is_compressed and o.codec != "UNCOMPRESSED":
        raise Unsupported("ParquetWriterOptions has no is_compressed option: arrow-rs decides per "
                          "v2 page (measured: with snappy an incompressible page is stored with "
                          "is_compressed=false, a compressible one with true); it writes false "
                          "for every page only with the UNCOMPRESSED codec")


def _encoding_options(case: Case) -> dict:
    """Encoding knobs: the case's encoding for every column, after checking that arrow-rs
    encodes each leaf's physical type with it."""
    o = case.parquet_options
    if o.encoding is None:
        return {"dictionary_enabled": None, "encoding": None}  # the writer's defaults
    _check_encoding(case, o.encoding)
    if o.encoding == DICTIONARY_LABEL:
        return {"dictionary_enabled": True, "encoding": "plain",  # PLAIN when falling back
                "dictionary_page_size_limit": o.dictionary_size_limit or UNLIMITED_BYTES}
    if o.dictionary_size_limit is not None:
        raise Unsupported("a dictionary size limit needs dictionary encoding")
    return {"dictionary_enabled": False, "encoding": o.encoding.lower()}


def _check_encoding(case: Case, encoding: str) -> None:
    for path, t in leaves(case.schema):
        physical = arrow_rs_physical(t)
        if physical not in ENCODING_PHYSICAL[encoding]:
            raise Unsupported(f"column {path!r}: arrow-rs does not encode {physical} with "
                              f"{encoding} (measured)")
        if (encoding == DICTIONARY_LABEL and physical == FLBA
                and case.parquet_options.page_version == 1):
            raise Unsupported(f"column {path!r}: measured: with writer_version '1.0' arrow-rs "
                              "writes FIXED_LEN_BYTE_ARRAY columns PLAIN even with "
                              "dictionary_enabled=True")


def _metadata_options(case: Case) -> dict:
    """Statistics, page index and bloom filter knobs (None: DataFusion's default)."""
    o = case.parquet_options
    options: dict = {}
    if o.page_index is False:
        raise Unsupported(f"page_index=False: {OFFSET_INDEX_ALWAYS}")
    if o.page_index and o.statistics is False:
        raise Unsupported("arrow-rs builds the ColumnIndex from page statistics: with "
                          f"statistics_enabled='none' it writes none, and {OFFSET_INDEX_ALWAYS}")
    if o.statistics is not None:
        # 'page' adds the ColumnIndex (measured), which page_index=None leaves to the writer.
        options["statistics_enabled"] = STATISTICS_PAGE if o.statistics else STATISTICS_NONE
    if o.page_index:
        options["statistics_enabled"] = STATISTICS_PAGE
    if o.statistics_truncate_length is not None:
        options["statistics_truncate_length"] = o.statistics_truncate_length
        options["column_index_truncate_length"] = o.statistics_truncate_length
    if o.bloom_filter_columns:
        options["column_specific_options"] = {
            name: ParquetColumnOptions(bloom_filter_enabled=True, bloom_filter_ndv=o.bloom_filter_ndv,
                                       bloom_filter_fpp=o.bloom_filter_fpp)
            for name in o.bloom_filter_columns}
    return options


# ---- types ------------------------------------------------------------------------

DECIMAL_INT32_MAX_PRECISION = 9
DECIMAL_INT64_MAX_PRECISION = 18


def arrow_rs_physical(t: DataType) -> str:
    """The physical type arrow-rs stores the Arrow form of `t` on (measured: one column per
    Arrow type, written with DataFusion and read back from the footer)."""
    match t.kind:
        case "boolean":
            return "BOOLEAN"
        case "int":
            return "INT64" if t.bit_width == 64 else "INT32"
        case "float":
            return {16: FLBA, 32: "FLOAT", 64: "DOUBLE"}[t.bit_width]
        case "decimal":
            if t.decimal_precision <= DECIMAL_INT32_MAX_PRECISION:
                return "INT32"
            return "INT64" if t.decimal_precision <= DECIMAL_INT64_MAX_PRECISION else FLBA
        case "fixed" | "uuid":
            return FLBA
        case "date" | "unknown":  # Arrow null: INT32 with the UNKNOWN annotation
            return "INT32"
        case "time":
            return "INT32" if t.unit == "ms" else "INT64"
        case "timestamp":
            return "INT64"
    return "BYTE_ARRAY"  # binary and text


def _check_types(case: Case) -> None:
    for path, f in all_fields(case.schema):
        t = f.type
        if t.kind in ("list", "map", "struct"):
            continue
        if t.physical is not None and t.physical != arrow_rs_physical(t):
            raise Unsupported(f"column {path!r} ({t.describe()}): arrow-rs stores this type on "
                              f"{arrow_rs_physical(t)}, not {t.physical} (measured; "
                              "ParquetWriterOptions has no physical type option)")


if __name__ == "__main__":
    run_adapter({"start": start, "read": read, "write": write})
