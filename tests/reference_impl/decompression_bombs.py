"""Decompression bombs, built with the reference writers: a few hundred bytes of Brotli
(Parquet) or Zstandard (ORC) that expand to megabytes, telling the truth about their
sizes (docs/architecture.md, 'Memory budget')."""

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


def zero_strings() -> list[dict[str, bytes]]:
    value = bytes(VALUE_BYTES)  # one object: the writer's input costs 1 MiB
    return [{COLUMN: value}] * VALUES


def parquet_bomb() -> bytes:
    """One BYTE_ARRAY column, PLAIN, BROTLI, one value a page, no statistics."""
    tree = root([leaf(COLUMN, md.Type.BYTE_ARRAY, repetition=md.FieldRepetitionType.REQUIRED)])
    sink = io.BytesIO()
    write_table(sink, tree, zero_strings(), WriterOptions(codec=md.CompressionCodec.BROTLI,
                                                          page_byte_limit=VALUE_BYTES, statistics=False))
    return sink.getvalue()


def orc_bomb() -> bytes:
    """One BINARY column, ZSTD, in chunks of ORC_BLOCK_SIZE, one stripe."""
    schema = type_tree.struct([(COLUMN, type_tree.primitive(TypeKind.BINARY))])
    return write_orc(schema, zero_strings(), OrcWriterOptions(compression=CompressionKind.ZSTD,
                                                              compression_block_size=ORC_BLOCK_SIZE))
