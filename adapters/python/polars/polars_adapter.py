"""The polars adapter: polars' own Rust Parquet reader and writer behind the engine
protocol (docs/engine-protocol.md).

    .venv/bin/python adapters/python/polars/polars_adapter.py

Read:  `pl.read_parquet(file, decryption=...)` (polars' native reader, never
       `use_pyarrow=True`; an encrypted file with the keys the request hands over)
       -> `DataFrame.to_arrow()` -> canonical values (`kit.engine_table`).
Write: canonical values -> Arrow (`kit.table_to_arrow`) -> a polars
       DataFrame (zero-copy) -> `DataFrame.write_parquet(..., use_pyarrow=False)`, with
       an `arrow_schema` so that polars keeps REQUIRED fields and fixed-size binaries.

polars has no option for the value encoding nor for the physical type of a decimal:
it picks PLAIN or RLE_DICTIONARY per column chunk, and INT32 / INT64 /
FIXED_LEN_BYTE_ARRAY by precision, by itself. A write therefore checks the footer and
page headers of the file polars wrote (`parquet_layout` of the adapter kit, no
value is read) and, where they are not what the case asks for, answers `unsupported`
with what polars wrote instead (the file is removed: it is not the case's file).

A Rust panic in polars reaches Python as PyO3's PanicException (a BaseException);
the adapter kit answers it with that class, which the harness counts as a crash.

The capabilities and every reason are in README.md, with the measurements.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Literal

import polars as pl
import pyarrow as pa

from conformance.kit import (
    DATA_PAGE_V2,
    NO_ARROW_FORM,
    PROTOCOL_VERSION,
    Case,
    DataType,
    LeafLayout,
    Unsupported,
    WriteOptions,
    engine_table,
    leaves,
    parquet_layout,
    run_adapter,
    table_to_arrow,
)

NAME = "polars"

# WriteOptions.codec -> write_parquet(compression=...). Measured in the footer:
# polars' "lz4" is LZ4_RAW (codec 7).
CODECS = {"UNCOMPRESSED": "uncompressed", "SNAPPY": "snappy", "GZIP": "gzip",
          "BROTLI": "brotli", "ZSTD": "zstd", "LZ4_RAW": "lz4"}

# The data page encodings polars writes (measured); any other is `cannot_write`.
WRITTEN_ENCODINGS = ("PLAIN", "RLE_DICTIONARY")

NO_ENCODING_OPTION = ("polars' write_parquet has no encoding option (its parameters: compression, "
                      "compression_level, statistics, row_group_size, data_page_size, ...); "
                      "measured: it writes PLAIN or RLE_DICTIONARY data pages only, choosing by "
                      "itself")
CHOSEN_BY_POLARS = ("polars chooses the value encoding (PLAIN or RLE_DICTIONARY) and the physical "
                    "type of decimals by itself: write_parquet has no option for either")
NO_OPTION = "polars' write_parquet has no option for it (its documented parameters: compression, " \
            "compression_level, statistics, row_group_size, data_page_size, use_pyarrow, " \
            "pyarrow_options, partition_by, storage_options, metadata, arrow_schema, encryption)"

TIME_NANOS_LOCAL = ("polars' Time is nanoseconds only: measured, it writes every TIME column as "
                    "TIME(isAdjustedToUTC=false, NANOS); an arrow_schema with time32('ms') fails "
                    "'cannot convert (Time) to ... Time32(Millisecond)'")

PAGE_INDEX_NEEDS_STATISTICS = ("polars has no page index option; measured: it writes an OffsetIndex "
                               "always and a ColumnIndex only with statistics, so not with "
                               "statistics=False")

CANNOT_WRITE = {
    "type:FILE": "measured: polars 2.1.0 writes a Struct as a group without LogicalType (FILE is "
                 "LogicalType 19, LogicalTypes.md 'FILE')",
    **{f"encoding:{e}": NO_ENCODING_OPTION
       for e in ("RLE", "DELTA_BINARY_PACKED", "DELTA_LENGTH_BYTE_ARRAY", "DELTA_BYTE_ARRAY",
                 "BYTE_STREAM_SPLIT", "ALP")},
    "encoding:PLAIN_DICTIONARY": "measured: polars labels its dictionary-encoded data pages "
                                 "RLE_DICTIONARY, never PLAIN_DICTIONARY",
    "page:v2": "polars has no data page version option; measured: every data page it writes "
               "is a DATA_PAGE (v1) header",
    "page_v2:*": "polars writes data page v1 only (see page:v2)",
    "pages:multiple": "polars' data_page_size is a size in bytes ('Size of the data page in "
                      "bytes', write_parquet docstring); it has no rows-per-page limit",
    "dictionary:fallback": "polars has no dictionary size limit option: " + NO_OPTION,
    "levels:BIT_PACKED": "polars writes RLE levels only: " + NO_OPTION,
    "legacy:*": "polars writes the standard LIST/MAP layout only: " + NO_OPTION,
    "statistics:truncate": "polars has no statistics truncation option: " + NO_OPTION,
    "bloom": "polars has no bloom filter option: " + NO_OPTION,
    "crc": "polars has no page checksum option (measured: PageHeader.crc is never set): "
           + NO_OPTION,
    "lie:*": "deliberately untrue metadata is written by the reference writer only",
    "encryption:*": "pl.ParquetEncryptionProperties takes footer_key, column_keys, "
                    "plaintext_footer, aad_prefix and store_aad_prefix only: no key_metadata "
                    "(the cases name their keys in it, explicitly or as KMS key material) and "
                    "no algorithm choice",
    "codec:LZ4": "polars' 'lz4' writes LZ4_RAW (codec 7, measured in the footer); "
                 "write_parquet documents no other LZ4",
    "codec:LZO": "write_parquet's compression is one of 'lz4', 'uncompressed', 'snappy', "
                 "'gzip', 'brotli', 'zstd' (docstring)",
    **{f"type:{kind.upper()}": reason for kind, reason in NO_ARROW_FORM.items()},
    # Measured in the footer of what polars wrote (README.md, 'What it cannot write').
    "type:INT96": "measured: polars writes an Arrow timestamp[ns] as INT64 TIMESTAMP(ns), never INT96",
    "type:ENUM": "measured: polars writes STRING (polars has no Parquet ENUM annotation)",
    "type:JSON": "measured: polars writes an arrow.json column as STRING (no JSON annotation)",
    "type:BSON": "measured: polars writes unannotated BYTE_ARRAY (no BSON annotation)",
    "type:UUID": "measured: polars writes the arrow.uuid column as unannotated BYTE_ARRAY (as "
                 "FIXED_LEN_BYTE_ARRAY(16) without UUID annotation when given arrow_schema)",
    "type:DECIMAL(BYTE_ARRAY)": "measured: polars writes decimals on INT32, INT64 or "
                                "FIXED_LEN_BYTE_ARRAY by precision, never on BYTE_ARRAY",
    "type:TIME(ms,*)": TIME_NANOS_LOCAL, "type:TIME(us,*)": TIME_NANOS_LOCAL,
    "type:TIME(ns,utc)": TIME_NANOS_LOCAL,
    "type:INTERVAL": "measured: pl.from_arrow raises ComputeError 'could not import from "
                     "`month_day_nano_interval` type' (polars has no interval type)",
    "variant:shredded": NO_ARROW_FORM["variant"],
}

# Native types (a case's options.native_types, "polars:<NAME>"; docs/engine-protocol.md
# 'write'): polars' own dtype each column is cast to before polars writes it. Enum's
# categories are the column's distinct values in order; Array's width its lists' length.
NATIVE_TYPES = ("Categorical", "Enum", "Int128", "UInt128", "Array", "Decimal", "Duration")
# The wide integers have no Arrow form polars takes in (Arrow decimal256) nor gives out
# (measured: to_arrow() raises "Invalid or unsupported format string: '_pli128'"): built
# from the canonical integers, written without arrow_schema, so every column OPTIONAL.
WIDE_INTEGERS = {"Int128": pl.Int128, "UInt128": pl.UInt128}
DURATION_UNIT: Literal["us"] = "us"  # polars' default time unit; the canonical values are counts of it

CAPABILITIES = {
    "writes": ["physical:*", "type:*", "repetition:*", "rows:*", "nulls:*", "row_groups:*",
               "page:v1", "statistics", "statistics:none",
               # Measured: polars writes an OffsetIndex always, a ColumnIndex with statistics.
               "page_index",
               *(f"encoding:{e}" for e in WRITTEN_ENCODINGS), *(f"codec:{c}" for c in CODECS),
               *(f"native:{NAME}:{n}" for n in NATIVE_TYPES)],
    "reads": ["*"],
    "cannot_write": CANNOT_WRITE,
    "cannot_read": {},
}


def start(_request: dict) -> dict:
    return {"protocol": PROTOCOL_VERSION, "name": NAME, "version": pl.__version__,
            "language": "python", "formats": {"parquet": CAPABILITIES}}


def read(request: dict) -> dict:
    frame = pl.read_parquet(request["file"], decryption=decryption(request.get("keys")))
    return {"document": engine_table(NAME, frame.to_arrow()).to_document()}


def decryption(keys: dict | None) -> pl.ParquetDecryptionProperties | None:
    """The explicit keys of an encrypted file (hex, as the protocol sends them) as polars'
    decryption properties; None for a plaintext file (or one whose footer key the
    harness could not resolve: polars then says what it misses)."""
    if keys is None or "footer_key" not in keys:
        return None
    prefix = keys.get("aad_prefix")
    return pl.ParquetDecryptionProperties(
        footer_key=bytes.fromhex(keys["footer_key"]),
        column_keys={column: bytes.fromhex(key) for column, key in keys["column_keys"].items()},
        aad_prefix=None if prefix is None else prefix.encode("utf-8"))


def write(request: dict) -> dict:
    case = Case.from_json(request["case"])
    options = case.parquet_options
    path = Path(request["path"])
    table = table_to_arrow(case.expected)
    natives = options.native_types
    if natives:
        frame = native_frame(case, table, natives)
        schema = None
    else:
        frame = pl.DataFrame(table)  # zero-copy, as pl.from_arrow
        schema = writable_schema(frame.to_arrow().schema, table.schema)
    frame.write_parquet(path, use_pyarrow=False, arrow_schema=schema,
                        **write_kwargs(options, table.num_rows))
    mismatch = written_mismatch(path, case)
    if mismatch is not None:
        path.unlink()
        raise Unsupported(f"{CHOSEN_BY_POLARS}; for this case it wrote {mismatch}")
    return {"ok": True}


def native_frame(case: Case, table: pa.Table, natives: Mapping[str, str]) -> pl.DataFrame:
    """The case's columns, those named in native_types cast to polars' own dtype (written
    without arrow_schema: pyarrow cannot carry Int128, see WIDE_INTEGERS)."""
    names = [f.name for f in case.schema]
    columns = []
    for index, name in enumerate(names):
        spec = natives.get(name)
        if spec is None:
            columns.append(_series(table, name))
            continue
        native = spec.split(":", 1)[1]
        if native not in NATIVE_TYPES:
            raise Unsupported(f"{spec}: the polars adapter writes the native types {NATIVE_TYPES}")
        values = [row[index] for row in case.rows]
        if native in WIDE_INTEGERS:
            columns.append(pl.Series(name, values, dtype=WIDE_INTEGERS[native]))
        else:
            own = _series(table, name)
            columns.append(own.cast(native_dtype(native, own, values)))
    return pl.DataFrame(columns)


def _series(table: pa.Table, name: str) -> pl.Series:
    return pl.DataFrame(table.select([name])).to_series()  # zero-copy, as pl.from_arrow


def native_dtype(native: str, own: pl.Series, values: list) -> pl.DataType:
    """polars' dtype `native` for a column polars read from Arrow as `own`."""
    match native:
        case "Categorical":
            return pl.Categorical()
        case "Enum":
            return pl.Enum(list(dict.fromkeys(v for v in values if v is not None)))
        case "Array":
            widths = {len(v) for v in values if v is not None}
            if len(widths) != 1:
                raise Unsupported(f"a polars Array has one width; the case's lists have {widths}")
            return pl.Array(own.dtype.inner, widths.pop())  # type: ignore[attr-defined]
        case "Duration":
            return pl.Duration(DURATION_UNIT)
    return own.dtype  # Decimal: the canonical DECIMAL(p<=38) is polars' Decimal already


def writable_schema(own: pa.Schema, wanted: pa.Schema) -> pa.Schema:
    """The `arrow_schema` for write_parquet: polars' own Arrow types (its strings are
    large_string, its lists large_list; it refuses others: "cannot convert (String) to
    (Field { ..., dtype: Utf8, ...})") with the case's nullability (REQUIRED) and its
    fixed-size binaries, which polars holds as Binary but writes as given here."""
    return pa.schema([writable_field(o, w) for o, w in zip(own, wanted, strict=True)])


def writable_field(own: pa.Field, wanted: pa.Field) -> pa.Field:
    return pa.field(wanted.name, writable_type(own.type, wanted.type), nullable=wanted.nullable)


def writable_type(own: pa.DataType, wanted: pa.DataType) -> pa.DataType:
    if pa.types.is_fixed_size_binary(wanted):
        return wanted
    if pa.types.is_map(own):
        return pa.map_(writable_field(own.key_field, wanted.key_field),
                       writable_field(own.item_field, wanted.item_field))
    if pa.types.is_large_list(own):
        return pa.large_list(writable_field(own.value_field, wanted.value_field))
    if pa.types.is_struct(own):
        return pa.struct([writable_field(own.field(i), wanted.field(i))
                          for i in range(own.num_fields)])
    return own


def write_kwargs(options: WriteOptions, num_rows: int) -> dict:
    """The write_parquet arguments for the case's options (the capabilities keep the
    ones polars cannot express away)."""
    kwargs: dict = {"compression": CODECS[options.codec],
                    # None asks for a single row group; polars' default is 512^2 rows.
                    "row_group_size": options.row_group_size or max(num_rows, 1)}
    if options.statistics is not None:
        kwargs["statistics"] = options.statistics
    if options.page_index and options.statistics is False:
        raise Unsupported(PAGE_INDEX_NEEDS_STATISTICS)
    return kwargs


def written_mismatch(path: Path, case: Case) -> str | None:
    """What polars wrote otherwise than the case asks, in the choices it makes by
    itself (a leaf's physical type; a data page's encoding and version), or None."""
    layout = parquet_layout(path)
    natives = case.parquet_options.native_types
    for (column, wanted), written in zip(leaves(case.schema), layout, strict=True):
        if column.split(".", 1)[0] in natives:
            continue  # polars' own type: its form is the engine's to choose, the readers judge it
        mismatch = physical_mismatch(wanted, written)
        if mismatch is not None:
            return f"column {column!r} as {mismatch}"
    encoding = case.parquet_options.encoding
    for written in layout:
        for got in sorted(written.data_page_encodings):
            if got == DATA_PAGE_V2 or encoding not in (None, got):
                return f"{got} data pages in column {written.path!r}"
    return None


def physical_mismatch(wanted: DataType, written: LeafLayout) -> str | None:
    """The written physical type of a leaf where it is not the case's, else None."""
    if wanted.physical is not None and written.physical != wanted.physical:
        return f"{written.physical}, not {wanted.physical}"
    if wanted.physical == "FIXED_LEN_BYTE_ARRAY" and wanted.length not in (None, written.type_length):
        return f"FIXED_LEN_BYTE_ARRAY({written.type_length}), not ({wanted.length})"
    return None


if __name__ == "__main__":
    run_adapter({"start": start, "read": read, "write": write})
