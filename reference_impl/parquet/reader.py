"""Reading Parquet files: any schema, every page type, encoding and codec.

The reader follows the format, not our writer: it starts from the footer
('3 - File Format': "Readers are expected to first read the file metadata to
find all the column chunks"), rebuilds the schema tree (``schema_tree``), reads
every column chunk of every row group page by page (``column_chunk``: data
page v1 and v2, dictionary pages, every encoding, every codec, INDEX_PAGE and
unknown page types skipped, '3.2 - Extensibility'), and assembles the records
of each row group from the leaves' values and levels (``assembly``, '3.5 -
Nested Encoding'), checking their count against ``RowGroup.num_rows``.

:func:`read_parquet` returns :class:`ParquetContents`: the schema tree, the
per-leaf values and levels, the records (raw physical tree, see
``shredding``; ``logical_rows`` gives lists and maps) and, for a flat schema,
the old flat view (``columns`` and ``data``).

Anything valid but outside this implementation is refused with
:class:`UnsupportedFeature` naming it (encryption, column chunks in other
files, codecs and encodings it does not know) instead of being misread.
Anything malformed raises the specific error of ``errors`` with the byte
offset, the column path, the row group and the page ordinal. Every length and
count is checked against the bytes that hold it before it is used.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, BinaryIO

import numpy as np

from .assembly import assemble_records
from .column_chunk import ChunkData, read_column_chunk
from .errors import (
    BadMagic,
    CorruptMetadata,
    FooterLengthOutOfRange,
    TruncatedFile,
    UnsupportedFeature,
)
from .file_layout import ENCRYPTED_FOOTER_MAGIC, FOOTER_LENGTH, MAGIC, MIN_FILE_SIZE
from .metadata import FileMetaData, RowGroup
from .nested_logical import LeafHook, records_to_logical
from .schema import ColumnSpec, column_of, is_flat
from .schema_tree import LeafColumn, SchemaNode, leaf_columns, schema_tree_from_elements
from .thrift_struct import deserialize

__all__ = ["LeafData", "ParquetContents", "read_footer", "read_parquet", "values_with_nulls"]

Source = str | os.PathLike[str] | bytes | bytearray | memoryview | BinaryIO


@dataclass(eq=False)
class LeafData:
    """One leaf column over the whole file: its non-null values, and its
    definition and repetition levels (one pair per entry; all zeros when the
    maximum level is 0), row group after row group."""

    leaf: LeafColumn
    values: list[object]
    definition_levels: np.ndarray
    repetition_levels: np.ndarray


@dataclass(eq=False)
class ParquetContents:
    """What :func:`read_parquet` returns.

    ``schema`` is the file's schema tree, ``leaves`` the per-leaf data (in
    ``leaf_columns(schema)`` order), ``metadata`` the footer. ``records`` are
    the rows as raw physical records (one dict per row; for a nested schema
    assembled row group by row group while reading). For a flat schema,
    ``columns`` and ``data`` are the flat view: a ColumnSpec per column, and
    per column name the physical values with ``None`` for null.
    """

    schema: SchemaNode
    leaves: list[LeafData]
    metadata: FileMetaData
    # The records assembled while reading a nested schema; a flat schema's are
    # built from ``data`` when first asked for.
    _records: list[dict[str, Any]] | None = field(default=None, repr=False)

    @property
    def is_flat(self) -> bool:
        return is_flat(self.schema)

    @cached_property
    def columns(self) -> list[ColumnSpec]:
        """One ColumnSpec per column of a flat schema (:class:`UnsupportedFeature`
        naming the first nested field otherwise)."""
        return [column_of(child) for child in self.schema.children or ()]

    @cached_property
    def data(self) -> dict[str, list[object]]:
        """Per top-level field, its value in each row: physical values with
        ``None`` for null (for a nested field, its raw physical tree value)."""
        if not self.is_flat:
            return {
                child.name: [record[child.name] for record in self.records]
                for child in self.schema.children or ()
            }
        return {leaf.leaf.path[0]: _with_nulls(leaf) for leaf in self.leaves}

    @cached_property
    def records(self) -> list[dict[str, Any]]:
        if self._records is not None:
            return self._records
        names = list(self.data)
        return (
            [dict(zip(names, row, strict=True)) for row in zip(*self.data.values(), strict=True)]
            if names
            else []
        )

    def logical_rows(self, leaf: LeafHook | None = None) -> list[dict[str, Any]]:
        """The records with LIST and MAP fields as lists and ``(key, value)`` lists
        (``nested_logical``); ``leaf`` converts each non-null leaf value."""
        return records_to_logical(self.schema, self.records, leaf=leaf)


def _with_nulls(leaf: LeafData) -> list[object]:
    return values_with_nulls(leaf.leaf, leaf.values, leaf.definition_levels)


def values_with_nulls(leaf: LeafColumn, values: list[object], definition_levels: np.ndarray) -> list[object]:
    """A flat column's values with None where the definition level says null."""
    if leaf.max_definition_level == 0:
        return list(values)
    present = (definition_levels == leaf.max_definition_level).tolist()
    remaining = iter(values)
    return [next(remaining) if is_present else None for is_present in present]


def read_parquet(source: Source, *, verify_checksums: bool = False) -> ParquetContents:
    """Read a whole Parquet file; with ``verify_checksums``, check every page's CRC
    ('3.7.4 - Checksumming') and raise ChecksumMismatch at the first bad one."""
    file = _load(source)
    metadata, footer_start = read_footer(file)
    tree = schema_tree_from_elements(metadata.schema, offset=footer_start)
    leaves = leaf_columns(tree)
    _check_row_groups(metadata, leaves, footer_start)
    flat = is_flat(tree)
    per_leaf: list[list[ChunkData]] = [[] for _ in leaves]
    records: list[dict[str, Any]] | None = None if flat else []
    for index, row_group in enumerate(metadata.row_groups):
        chunks = [
            read_column_chunk(
                file,
                leaf,
                chunk,
                row_group.num_rows,
                where=f"column {leaf.dotted_path}, row group {index}",
                footer_start=footer_start,
                verify_checksums=verify_checksums,
            )
            for leaf, chunk in zip(leaves, row_group.columns, strict=True)
        ]
        if records is not None:
            records += assemble_records(
                tree,
                [(c.values, c.definition_levels, c.repetition_levels) for c in chunks],
                expected_records=row_group.num_rows,
                offset=_row_group_offset(row_group, footer_start),
            )
        for pieces, chunk in zip(per_leaf, chunks, strict=True):
            pieces.append(chunk)
    leaf_data = [_joined(leaf, pieces) for leaf, pieces in zip(leaves, per_leaf, strict=True)]
    return ParquetContents(schema=tree, leaves=leaf_data, metadata=metadata, _records=records)


def _joined(leaf: LeafColumn, pieces: list[ChunkData]) -> LeafData:
    values: list[object] = []
    for piece in pieces:
        values += piece.values
    levels = {
        kind: np.concatenate([getattr(p, kind) for p in pieces]) if pieces else np.zeros(0, np.int64)
        for kind in ("definition_levels", "repetition_levels")
    }
    return LeafData(leaf, values, levels["definition_levels"], levels["repetition_levels"])


def _row_group_offset(row_group: RowGroup, footer_start: int) -> int:
    """Where a row group's data starts, for errors found across its columns."""
    if row_group.file_offset:
        return row_group.file_offset
    for chunk in row_group.columns:
        if chunk.meta_data is not None and chunk.meta_data.data_page_offset:
            return chunk.meta_data.dictionary_page_offset or chunk.meta_data.data_page_offset
    return footer_start


def _load(source: Source) -> bytes:
    if isinstance(source, bytes | bytearray | memoryview):
        return bytes(source)
    if isinstance(source, str | os.PathLike):
        with open(source, "rb") as file:
            return file.read()
    return source.read()


# ---------------------------------------------------------------------------
# The footer ('3 - File Format')
# ---------------------------------------------------------------------------


def read_footer(file: bytes) -> tuple[FileMetaData, int]:
    """Check the framing and decode the FileMetaData; return it and where it starts."""
    size = len(file)
    if size < MIN_FILE_SIZE:
        raise TruncatedFile(
            f"a Parquet file has at least {MIN_FILE_SIZE} bytes (magic, footer length, "
            f"magic), this one has {size}",
            size,
        )
    trailing_magic_at = size - len(MAGIC)
    for magic, at in ((file[:4], 0), (file[trailing_magic_at:], trailing_magic_at)):
        if magic == ENCRYPTED_FOOTER_MAGIC:
            raise UnsupportedFeature("encrypted footer (magic 'PARE')", at)
        if magic != MAGIC:
            raise BadMagic(f"expected the magic {MAGIC!r}, found {magic!r}", at)

    length_at = trailing_magic_at - FOOTER_LENGTH.size
    (footer_length,) = FOOTER_LENGTH.unpack_from(file, length_at)
    # The footer must fit between the leading magic and the length field.
    room = length_at - len(MAGIC)
    if not 0 < footer_length <= room:
        raise FooterLengthOutOfRange(
            f"footer length is {footer_length}, but it must be between 1 and {room} "
            f"(the bytes between the leading magic and the length field)",
            length_at,
        )
    footer_start = length_at - footer_length
    metadata, footer_end = deserialize(FileMetaData, file, start=footer_start, end=length_at)
    if metadata.encryption_algorithm is not None:
        raise UnsupportedFeature("encrypted columns (plaintext footer mode)", footer_start)
    if footer_end != length_at:
        raise CorruptMetadata(
            f"the footer length says {footer_length} bytes, but FileMetaData ends after "
            f"{footer_end - footer_start}",
            footer_end,
        )
    return metadata, footer_start


def _check_row_groups(metadata: FileMetaData, leaves: list[LeafColumn], footer_start: int) -> None:
    total_rows = 0
    for index, row_group in enumerate(metadata.row_groups):
        if len(row_group.columns) != len(leaves):
            raise CorruptMetadata(
                f"row group {index} has {len(row_group.columns)} column chunks, "
                f"the schema has {len(leaves)} columns",
                footer_start,
            )
        if row_group.num_rows < 0:
            raise CorruptMetadata(f"row group {index} has {row_group.num_rows} rows", footer_start)
        total_rows += row_group.num_rows
    if total_rows != metadata.num_rows:
        raise CorruptMetadata(
            f"FileMetaData.num_rows is {metadata.num_rows}, the row groups hold {total_rows}",
            footer_start,
        )
