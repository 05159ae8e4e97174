"""Decompression bombs, built with the reference writers: a few hundred bytes of Brotli
(Parquet) or Zstandard (ORC) that expand to megabytes, telling the truth about their
sizes (docs/architecture.md, 'Memory budget'). bench/bomb_bench.py builds larger ones
with the same functions."""

from __future__ import annotations

import io

from reference_impl.orc.metadata import type_tree
from reference_impl.orc.metadata.proto_enums import CompressionKind, TypeKind
from reference_impl.orc.writer import write_orc
from reference_impl.orc.writer_options import OrcWriterOptions
from reference_impl.parquet.metadata import parquet_thrift as md
from reference_impl.parquet.schema.tree import leaf, root
from reference_impl.parquet.writer import write_table
from reference_impl.parquet.writer_options import WriterOptions

COLUMN = "s"
VALUE_BYTES = 1 << 20  # each value: 1 MiB of zero bytes...
VALUES = 8  # ...this many: 8 MiB decompressed
DECOMPRESSED = VALUE_BYTES * VALUES
ORC_BLOCK_SIZE = 64 << 10  # ORC: many chunks of a small block size


def zero_strings(value_bytes: int = VALUE_BYTES, values: int = VALUES) -> list[dict[str, bytes]]:
    value = bytes(value_bytes)  # one object: the writer's input costs one value
    return [{COLUMN: value}] * values


def parquet_bomb(value_bytes: int = VALUE_BYTES, values: int = VALUES) -> bytes:
    """One BYTE_ARRAY column, PLAIN, BROTLI, one value a page, no statistics."""
    tree = root([leaf(COLUMN, md.Type.BYTE_ARRAY, repetition=md.FieldRepetitionType.REQUIRED)])
    sink = io.BytesIO()
    options = WriterOptions(codec=md.CompressionCodec.BROTLI, page_byte_limit=value_bytes, statistics=False)
    write_table(sink, tree, zero_strings(value_bytes, values), options)
    return sink.getvalue()


def orc_bomb(value_bytes: int = VALUE_BYTES, values: int = VALUES) -> bytes:
    """One BINARY column, ZSTD, in chunks of ORC_BLOCK_SIZE, one stripe."""
    schema = type_tree.struct([(COLUMN, type_tree.primitive(TypeKind.BINARY))])
    options = OrcWriterOptions(compression=CompressionKind.ZSTD, compression_block_size=ORC_BLOCK_SIZE)
    return write_orc(schema, zero_strings(value_bytes, values), options)
