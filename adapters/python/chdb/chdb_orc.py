"""chdb's ORC half: ClickHouse's own `ORC` output and input formats (README.md beside this
file, 'ORC'). Both are built on the Apache ORC C++ library (docs/engine-notes.md, "chDB's
ORC"): the files say writer 1 (ORC C++) in their Footer.

- write: `INSERT INTO FUNCTION file(path, ORC, structure) SELECT * FROM Python(source)
  SETTINGS ...`, the structure being the ClickHouse types the case's columns map to
  (chdb_common.clickhouse_type) and the settings the case's OrcWriteOptions. ORC has
  no REQUIRED, so a LIST or MAP column is written as ClickHouse's Array or Map, which
  cannot be null: a case holding a null list or map is unsupported.
- read: `SELECT * FROM file(path, ORC)` fetched as an Arrow table, converted by
  `kit.engine_table`. ClickHouse's values are never repaired.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from chdb_common import (
    clickhouse_type,
    identifier,
    literal,
    session_query,
    settings_sql,
    string_kind,
)

from conformance.kit import Case, Field, Schema, Unsupported, engine_table, table_to_arrow

FORMAT = "orc"
# OrcWriteOptions.codec -> output_format_orc_compression_method (its description in
# system.settings: "Supported codecs: lz4, snappy, zlib, zstd, none (uncompressed)").
CODECS = {"NONE": "none", "ZLIB": "zlib", "SNAPPY": "snappy", "LZ4": "lz4", "ZSTD": "zstd"}
STRING_AS_STRING = "output_format_orc_string_as_string"
# output_format_orc_dictionary_key_size_threshold: ORC C++ keeps a dictionary while the
# ratio of distinct to non-null values stays at or below it (0: never, 1: always).
DICTIONARY_THRESHOLD = {"DIRECT": 0, "DICTIONARY": 1}
MEMORY_BLOCK_SIZE = 65536  # ORC C++ WriterOptions' default; ClickHouse does not set it
NO_SETTING = "system.settings has no output_format_orc_* setting for it"
ONLY_SETTINGS = ("ClickHouse's ORC writer sets only the codec, compression block size, row index "
                 "stride, dictionary threshold and writer time zone of ORC C++'s WriterOptions")
NO_ARROW_UNION = ("ClickHouse writes a Variant as an ORC UNION, but the adapter hands it data as "
                  "Arrow, and measured: 'Unsupported Arrow type 'sparse_union' of an input "
                  "column' (UNKNOWN_TYPE); nor has a Variant a null of one alternative (its "
                  "NULL is written as a null union, ORCBlockOutputFormat::writeColumn)")

# rle_v2:<sub-encoding>: the case's values pin the sub-encoding ORC C++ picks.
WRITES = ["type:*", "version:0.12", "rle:v2", "rle_v2:*", "codec:*", "compression:block_size",
          "row_index:*", "encoding:*", "nulls:*", "rows:*"]
CANNOT_WRITE = {
    "codec:LZO": "not among output_format_orc_compression_method's values (lz4, snappy, zlib, "
                 "zstd, none)",
    "codec:BROTLI": "not among output_format_orc_compression_method's values (lz4, snappy, "
                    "zlib, zstd, none)",
    "version:0.11": f"ClickHouse writes file version 0.12 only; {NO_SETTING}",
    "rle:v1": "ClickHouse writes file version 0.12 only, hence RLE v2",
    "stripes:*": f"{ONLY_SETTINGS}: no stripe size, so every small file is one stripe",
    "bloom": f"{ONLY_SETTINGS}: no Bloom filter columns",
    "timezone:writer": "output_format_orc_writer_time_zone_name exists, but the adapter hands "
                       "ClickHouse instants, not wall clocks of another zone (and every such "
                       "case has a TIMESTAMP_INSTANT column, which ClickHouse cannot write)",
    "calendar:*": "ORC C++ writes no Footer.calendar and ClickHouse has no setting for it",
    "rle_v2:*:forced": "ORC C++ picks the RLE v2 sub-encoding itself; " + NO_SETTING,
    "lie:*": "deliberately untrue metadata (OrcWriteOptions.lies) is written by the reference "
             "writer only",
    "root:bare": "ClickHouse writes a table, whose columns are the fields of the root STRUCT",
    "type:CHAR": "ClickHouse has no CHAR type: FixedString is written as STRING or BINARY "
                 "(ORCBlockOutputFormat::getORCType)",
    "type:VARCHAR": "ClickHouse has no VARCHAR type (String is written as STRING or BINARY)",
    "type:TIMESTAMP_INSTANT": "ClickHouse writes every DateTime64, with a time zone or not, as "
                              "TIMESTAMP (ORCBlockOutputFormat::getORCType; measured)",
    "type:UNION": NO_ARROW_UNION,
}
CANNOT_READ = {
    "type:BINARY": "ClickHouse reads BINARY as String, the type it reads STRING as (measured: "
                   "DESCRIBE gives String for both; NativeORCBlockInputFormat parseORCType), and "
                   "has no ORC metadata format to tell the adapter which a column is",
    "codec:BROTLI": "measured: 'orc::NotImplementedYet, e.what() = Unknown compression codec 6' "
                    "(the ORC C++ library ClickHouse is built with has no Brotli)",
}
# ClickHouse has no setting that hands its ORC reader keys: its cells on encrypted files are
# judged against the masked view the file holds for such a reader (ORCv1.md, 'Encryption
# Variants'; docs/engine-protocol.md, 'start').
READS_KEYLESS = ["encryption:column"]
CAPABILITIES = {"writes": WRITES, "reads": ["*"], "cannot_write": CANNOT_WRITE,
                "cannot_read": CANNOT_READ, "reads_keyless": READS_KEYLESS}

# Read settings: one thread keeps the file's row order.
READ_SETTINGS = {"max_threads": 1, "output_format_arrow_string_as_string": 1}


def read(engine: str, path: str) -> dict:
    table = session_query(f"SELECT * FROM file({literal(path)}, ORC)"
                          f" SETTINGS {settings_sql(READ_SETTINGS)}", "ArrowTable")
    return {"document": engine_table(engine, table).to_document()}


def write(case: Case, path: str) -> dict:
    schema = _containers_not_null(case)
    structure = ", ".join(f"{identifier(f.name)} {clickhouse_type(f.name, f, case)}" for f in schema)
    source = table_to_arrow(case.expected)  # noqa: F841 - read by name: Python(source)
    session_query(f"INSERT INTO FUNCTION file({literal(path)}, ORC, {literal(structure)}) "
                  f"SELECT * FROM Python(source) SETTINGS {settings_sql(write_settings(case))}")
    return {"ok": True}


def write_settings(case: Case) -> dict[str, Any]:
    """The ClickHouse settings that write `case`'s OrcWriteOptions."""
    o = case.orc_options
    settings: dict[str, Any] = {
        "max_threads": 1,  # rows reach the file in the order of the source
        "engine_file_truncate_on_insert": 1,
        "output_format_orc_compression_method": CODECS[o.codec],
        # ClickHouse String has no text/bytes distinction: one switch per file.
        STRING_AS_STRING: int(string_kind(case, STRING_AS_STRING) != "binary"),
    }
    if o.compression_block_size is not None:
        if o.compression_block_size % MEMORY_BLOCK_SIZE:
            raise Unsupported(f"compression_block_size {o.compression_block_size}: measured "
                              "'std::invalid_argument: Compression block size must be a multiple "
                              f"of memory block size' (ORC C++'s, {MEMORY_BLOCK_SIZE} bytes by "
                              "default; ClickHouse has no setting for it)")
        settings["output_format_orc_compression_block_size"] = o.compression_block_size
    if o.row_index_stride is not None:
        settings["output_format_orc_row_index_stride"] = o.row_index_stride
    if o.string_encoding is not None:
        settings["output_format_orc_dictionary_key_size_threshold"] = DICTIONARY_THRESHOLD[o.string_encoding]
    return settings


def _containers_not_null(case: Case) -> Schema:
    """The case's schema with every LIST and MAP field not nullable (ClickHouse's Array
    and Map, measured: 'Nested type Array(...) cannot be inside Nullable type'), or
    Unsupported when the case holds a null list or map."""
    for f in case.schema:
        _check_no_null_container(f.name, f, list(case.expected.column(f.name)))
    return Schema(tuple(_not_null_containers(f) for f in case.schema))


def _check_no_null_container(path: str, f: Field, values: list[Any]) -> None:
    t = f.type
    if t.kind in ("list", "map") and any(v is None for v in values):
        raise Unsupported(f"column {path!r} holds a null {t.kind.upper()}: ClickHouse's "
                          f"{'Array' if t.kind == 'list' else 'Map'} cannot be null (measured: "
                          "'Nested type ... cannot be inside Nullable type')")
    present = [v for v in values if v is not None]
    match t.kind:
        case "list":
            _check_no_null_container(f"{path}.element", t.list_element,
                                     [e for v in present for e in v])
        case "map":
            _check_no_null_container(f"{path}.key", t.map_key, [k for v in present for k, _ in v])
            _check_no_null_container(f"{path}.value", t.map_value, [x for v in present for _, x in v])
        case "struct":
            for child in t.fields:
                _check_no_null_container(f"{path}.{child.name}", child,
                                         [v[child.name] for v in present])


def _not_null_containers(f: Field) -> Field:
    t = f.type
    inner = dataclasses.replace(t, element=_child(t.element), key=_child(t.key), value=_child(t.value),
                                fields=tuple(_not_null_containers(c) for c in t.fields))
    return Field(f.name, inner, f.nullable and t.kind not in ("list", "map"))


def _child(f: Field | None) -> Field | None:
    return None if f is None else _not_null_containers(f)
