"""pyarrow.orc (the ORC C++ library inside Arrow) as an ORC writer and reader.

Write: the case becomes an Arrow table (arrow_values.table_to_arrow; UNION as a
sparse union whose type codes are the tags) written by `pyarrow.orc.write_table`
with the case's OrcWriteOptions (each measured with pyarrow 26.0.1):

- codec -> `compression` (NONE is pyarrow's 'UNCOMPRESSED'); file_version ->
  `file_version`; row_index_stride -> `row_index_stride`.
- compression_block_size -> `compression_block_size`. Measured: ORC C++ refuses a size
  that is not a multiple of its memory block size ('Compression block size must be a
  multiple of memory block size'), 64 KiB, which pyarrow does not expose.
- string_encoding -> `dictionary_key_size_threshold`: ORC C++ keeps a dictionary while
  the ratio of distinct to non-null values stays at or below it, so 0 never keeps one
  (DIRECT) and 1 always does (DICTIONARY).
- stripe_row_limit -> `batch_size=limit` with the smallest `stripe_size` (1 byte): the
  writer closes a stripe after a batch once its estimated size reaches the stripe size.
  Measured: integer and boolean columns buffer their runs in the encoder and estimate
  0 bytes after a small batch, so no stripe is cut; `stripe_size=0` is refused
  ('Invalid ORC stripe size: 0'). Stripes end only at batch ends, so the file has the
  limit's layout exactly when it has ceil(rows / limit) stripes; the adapter checks
  that after writing and reports the case unsupported otherwise.

Read: `pyarrow.orc.ORCFile(path).read()`, then arrow_values.engine_table. Measured:
CHAR and VARCHAR columns come back as Arrow strings holding the stored text (CHAR
padded); TIMESTAMP as timestamp[ns], TIMESTAMP_INSTANT as timestamp[ns, tz=UTC]
(a value outside 1677-2262 fails the read: the engine's error); UNION as a sparse
union, where a null union reads as type code 0 with a null child, exactly like a
union holding a null in its first alternative: that value raises LossyConversion.

Filtered read: `pyarrow.dataset.dataset(path, format="orc").to_table(filter=...)`, the
expression as for Parquet (arrow_values.filter_expression), converted as `read`
converts. Measured: it prunes with none of the ORC structures, returning the matching
rows of every `orc/indexes/lying-*` file, whose statistics, row index or Bloom filters
exclude them (docs/engine-notes.md); the stripe statistics pushdown for ORC datasets is
a proposal (apache/arrow issue GH-48986).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from conformance.cases import Case
from conformance.cases.orc.options import (
    BARE_ROOT_TAG,
    ENCRYPTION_REASON,
    ENCRYPTION_TAG,
    LIES_REASON,
    WRITER_TIMEZONE_TAG,
)
from conformance.cases.predicate import Predicate
from conformance.values import DataType, Schema, Table

from ..arrow_native import NATIVE_ARROW, native_tags, with_native_columns
from ..arrow_values import arrow_to_table, filter_expression, table_to_arrow
from ..base import Capabilities, Engine, LossyConversion, Unsupported, converting
from .reference import orc_type

# OrcWriteOptions.codec -> pyarrow `compression`.
_CODECS = {"NONE": "UNCOMPRESSED", "ZLIB": "ZLIB", "SNAPPY": "SNAPPY", "LZ4": "LZ4",
           "ZSTD": "ZSTD"}
# dictionary_key_size_threshold for each string_encoding (see the module docstring).
DICTIONARY_THRESHOLD = {"DIRECT": 0.0, "DICTIONARY": 1.0}
MEMORY_BLOCK_SIZE = 65536  # ORC C++ WriterOptions default; pyarrow has no knob for it
SMALLEST_STRIPE_SIZE = 1  # bytes; measured: 0 raises 'Invalid ORC stripe size: 0'
# pyarrow's native types (arrow_native) that ORC C++ writes, and why not the others.
ORC_NATIVE = ("LARGE_STRING", "LARGE_BINARY", "LARGE_LIST", "FIXED_SIZE_LIST", "MAP_SORTED")
_NO_ORC_FORM = ("measured: pyarrow.orc.write_table raises ArrowNotImplementedError 'Unknown or "
                "unsupported Arrow type' (dictionary, string_view, binary_view, list_view)")
_NO_CODEC = "measured: pyarrow.orc.write_table raises ValueError 'Unknown CompressionKind: {}'"

CAPABILITIES = Capabilities(
    writes=("type:*", "version:*", "rle:*", "compression:block_size", "stripes:multiple",
            "row_index:stride", "encoding:*", "nulls:*", "rows:*", "bloom",
            *(f"codec:{c}" for c in _CODECS), *native_tags(ORC_NATIVE)),
    cannot_write={
        "lie:*": LIES_REASON,
        ENCRYPTION_TAG: ENCRYPTION_REASON,
        "mask:*": ENCRYPTION_REASON,
        **{tag: _NO_ORC_FORM for tag in native_tags(sorted(set(NATIVE_ARROW) - set(ORC_NATIVE)))},
        "codec:LZO": _NO_CODEC.format("LZO"),
        "codec:BROTLI": _NO_CODEC.format("BROTLI"),
        "type:CHAR": "Arrow has no CHAR type",
        **dict.fromkeys(("type:GEOMETRY", "type:GEOGRAPHY"),
                        "measured: pyarrow.orc.write_table of a geoarrow.wkb column raises "
                        "ArrowNotImplementedError 'Unknown or unsupported Arrow type: "
                        "extension<geoarrow.wkb<WkbType>>'"),
        "type:VARCHAR": "Arrow has no VARCHAR type",
        "row_index:none": "measured: row_index_stride=0 raises ValueError 'Invalid ORC row "
                          "index stride: 0'",
        "rle_v2:*:forced": "ORC C++ picks the RLE v2 sub-encoding itself; no pyarrow knob "
                           "forces one",
        WRITER_TIMEZONE_TAG: "pyarrow.orc.write_table has no time zone parameter; measured: "
                             "every StripeFooter says writerTimezone 'GMT' (ORC C++ "
                             "WriterOptions' default)",
        "calendar:*": "ORC C++ writes no Footer.calendar and has no knob for it (measured; "
                      "docs/engine-notes.md, 'ORC writers and readers')",
        BARE_ROOT_TAG: "pyarrow.orc.write_table writes an Arrow Table, whose columns are the "
                       "fields of the root STRUCT; there is no other schema to give it (and "
                       "measured: its reader refuses a root of another kind, 'Only ORC files "
                       "with a top-level struct can be handled')",
    },
    # pyarrow.orc.read_table takes no key or key provider: its cells on encrypted files are
    # judged against the masked view (conformance/cases/orc/masked_view.py).
    reads_keyless=(ENCRYPTION_TAG,),
)


class PyArrowOrcEngine(Engine):
    name = "pyarrow"
    distribution = "pyarrow"
    format = "orc"
    capabilities = CAPABILITIES

    def write(self, case: Case, path: Path) -> None:
        import pyarrow.orc as po

        kwargs = write_kwargs(case)
        table = with_native_columns(table_to_arrow(case.expected), case.orc_options.native_types)
        po.write_table(table, str(path), **kwargs)
        check_stripes(path, len(case.rows), case.orc_options.stripe_row_limit)

    def read(self, path: Path) -> Table:
        import pyarrow.orc as po

        return self._table(po.ORCFile(str(path)).read())

    def read_filtered(self, path: Path, predicate: Predicate) -> Table:
        import pyarrow.dataset as ds

        dataset = ds.dataset(str(path), format="orc")
        return self._table(dataset.to_table(filter=filter_expression(predicate, dataset.schema)))

    def _table(self, arrow_table) -> Table:
        with converting(self.name):
            table = arrow_to_table(arrow_table)
            refuse_null_first_alternatives(table)
        return table


def write_kwargs(case: Case) -> dict[str, Any]:
    o = case.orc_options
    gap = CAPABILITIES.write_gap(o.tags(len(case.rows)))
    if gap:
        raise Unsupported(gap)
    kwargs: dict[str, Any] = {"compression": _CODECS[o.codec], "file_version": o.file_version}
    if o.compression_block_size is not None:
        if o.compression_block_size % MEMORY_BLOCK_SIZE:
            raise Unsupported(f"compression_block_size {o.compression_block_size}: measured, "
                              "ORC C++ refuses a block size that is not a multiple of its "
                              f"memory block size ({MEMORY_BLOCK_SIZE} bytes), which pyarrow "
                              "does not expose")
        kwargs["compression_block_size"] = o.compression_block_size
    if o.row_index_stride is not None:
        kwargs["row_index_stride"] = o.row_index_stride
    if o.string_encoding is not None:
        kwargs["dictionary_key_size_threshold"] = DICTIONARY_THRESHOLD[o.string_encoding]
    if o.stripe_row_limit is not None:
        kwargs.update(batch_size=o.stripe_row_limit, stripe_size=SMALLEST_STRIPE_SIZE)
    if o.bloom_filter_columns:
        # ORC column ids, not field positions (measured: 0 is the root struct's)
        ids = top_level_column_ids(case.schema)
        kwargs["bloom_filter_columns"] = [ids[name] for name in o.bloom_filter_columns]
    if o.bloom_filter_fpp is not None:
        kwargs["bloom_filter_fpp"] = o.bloom_filter_fpp
    return kwargs


def top_level_column_ids(schema: Schema) -> dict[str, int]:
    """Each top-level field's ORC column id: ids number the types in pre-order, the root
    struct 0 (ORCv1.md, 'Type Information')."""
    ids, next_id = {}, 1
    for f in schema:
        ids[f.name] = next_id
        next_id += sum(1 for _ in orc_type(f.type).walk())
    return ids


def check_stripes(path: Path, rows: int, limit: int | None) -> None:
    """Unsupported (and no file) unless every batch of `limit` rows became a stripe."""
    import pyarrow.orc as po

    if limit is None or rows <= limit:
        return
    wanted, got = math.ceil(rows / limit), po.ORCFile(str(path)).nstripes
    if got != wanted:
        path.unlink()
        raise Unsupported(f"stripe_row_limit {limit}: pyarrow wrote {got} stripes for {rows} "
                          f"rows, not {wanted}; ORC C++ cuts a stripe only when a batch leaves "
                          "a non-zero estimated size, and integer and boolean encoders buffer "
                          "small batches (measured)")


def refuse_null_first_alternatives(table: Table) -> None:
    """LossyConversion for a union read as (0, None): Arrow's ORC reader gives a null union
    type code 0 and a null child (measured), so it cannot be told from a null value of the
    first alternative."""
    for f_index, f in enumerate(table.schema):
        for row_index, row in enumerate(table.rows):
            for v in _unions(f.type, row[f_index]):
                if v == (0, None):
                    raise LossyConversion(
                        f"column {f.name!r}, row {row_index}: Arrow reads a null ORC union as "
                        "type code 0 with a null child, the same as a null in the first "
                        "alternative; the two cannot be told apart")


def _unions(t: DataType, v: Any) -> Iterator[Any]:
    """Every union value inside value `v` of type `t`."""
    if v is None:
        return
    match t.kind:
        case "union":
            yield v
            yield from _unions(t.fields[v[0]].type, v[1])
        case "list":
            for e in v:
                yield from _unions(t.list_element.type, e)
        case "map":
            for k, x in v:
                yield from _unions(t.map_key.type, k)
                yield from _unions(t.map_value.type, x)
        case "struct":
            for f in t.fields:
                yield from _unions(f.type, v[f.name])
