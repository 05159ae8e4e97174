"""Reading Parquet files: any schema, every page type, encoding and codec.

The reader follows the format, not our writer: it starts from the footer
('3 - File Format': "Readers are expected to first read the file metadata to
find all the column chunks"), rebuilds the schema tree (``schema_tree``), reads
every column chunk of every row group page by page (``chunk_reader``: data
page v1 and v2, dictionary pages, every encoding, every codec, INDEX_PAGE and
unknown page types skipped, '3.2 - Extensibility'), and checks that the leaves'
levels of each row group make records (``assembly.check_records``, '3.5 -
Nested Encoding'), their count that of ``RowGroup.num_rows``; the records are
assembled from the leaves' values and levels when first asked for.

:func:`read_parquet` returns :class:`ParquetContents`: the schema tree, the
per-leaf values and levels, the records (raw physical tree, see
``shredding``; ``logical_rows`` gives lists and maps) and, for a flat schema,
the old flat view (``columns`` and ``data``). :func:`open_parquet` reads the
footer and gives the same one row group at a time (:class:`ParquetRowGroups`),
so that a caller holds one decoded row group at once (docs/architecture.md,
'Memory budget'); :func:`read_parquet` joins them.

Anything valid but outside this implementation is refused with
:class:`UnsupportedFeature` naming it (column chunks in other files, codecs
and encodings it does not know) instead of being misread.

Encrypted files ('3.7.3 - Parquet Modular Encryption', ``encryption``): both
footer modes are read; a signed plaintext footer is verified when the footer
key is available, an encrypted one ("PARE") needs it. Every module of a column
being read is decrypted with its key (``decryption``: given keys, or a
``key_retriever`` asked with the stored key_metadata); a module that does not
authenticate raises :class:`DecryptionFailed` and nothing of it is returned; a
key that is needed and not available raises :class:`MissingKey` naming the
column. ``columns`` reads a projection, so the plaintext columns of a file
read without any key.
A STRING, ENUM or JSON value that is not UTF-8 is InvalidValue (``utf8_values``);
a VARIANT metadata or value that is not what VariantEncoding.md defines is
InvalidVariant (``variant_values``: every one is decoded, shredded or not).
Anything malformed raises the specific error of ``errors`` with the byte
offset, the column path, the row group and the page ordinal. Every length and
count is checked against the bytes that hold it before it is used.

A broken rule that leaves exactly one reading (docs/lenient-readings.md: here
:data:`FILE_NUM_ROWS_ZERO`, in ``chunk_reader`` and ``variant_shredding`` the
others) is a breach (``reference_impl.common.leniency``): inside ``reading()`` the
caller gets the rows and the list of breaches, otherwise (or with
``strict=True``) the rule's documented error. :func:`read_parquet` has no flag
for it: the caller decides with the block.
"""

from __future__ import annotations

import mmap
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any, BinaryIO

import numpy as np

from reference_impl.common.decoded_budget import budget_unit, expect
from reference_impl.common.decoded_values import joined
from reference_impl.common.leniency import Rule, Strength, breach
from reference_impl.common.mapped_file import FileBytes, close_file, map_file, release_pages
from reference_impl.parquet.encodings.plain import Values
from reference_impl.parquet.encodings.values import python_values
from reference_impl.parquet.encryption.decryptor import (
    FileDecryptor,
    read_encrypted_footer,
    verify_plaintext_footer,
)
from reference_impl.parquet.encryption.properties import FileDecryptionProperties
from reference_impl.parquet.errors import (
    BadMagic,
    CorruptMetadata,
    DecodedBudgetExceeded,
    FooterLengthOutOfRange,
    TruncatedFile,
)
from reference_impl.parquet.metadata.file_layout import (
    ENCRYPTED_FOOTER_MAGIC,
    FOOTER_LENGTH,
    MAGIC,
    MIN_FILE_SIZE,
)
from reference_impl.parquet.metadata.parquet_thrift import CompressionCodec, FileMetaData, RowGroup
from reference_impl.parquet.metadata.thrift_struct import deserialize
from reference_impl.parquet.nested.assembly import assemble_records, check_records
from reference_impl.parquet.pages.chunk_reader import ChunkData, read_column_chunk
from reference_impl.parquet.pages.utf8_values import check_utf8
from reference_impl.parquet.schema.flat import ColumnSpec, column_of, is_flat
from reference_impl.parquet.schema.nested_types import LeafHook, records_to_logical
from reference_impl.parquet.schema.tree import LeafColumn, SchemaNode, leaf_columns, schema_tree_from_elements
from reference_impl.parquet.schema.type_rules import check_type_rules
from reference_impl.parquet.schema.variant_shredding import check_variant_groups
from reference_impl.parquet.schema.variant_values import check_variant_values, has_variant

__all__ = [
    "FILE_NUM_ROWS_ZERO",
    "LeafData",
    "ParquetContents",
    "ParquetRowGroups",
    "read_footer",
    "read_footer_with_decryptor",
    "read_parquet",
    "check_file_num_rows",
    "check_row_groups",
    "expect_decompressed",
    "open_parquet",
    "values_with_nulls",
]

Source = str | os.PathLike[str] | FileBytes | bytearray | memoryview | BinaryIO

# A file's row count is the sum of its row groups'; 0 there, beside row groups
# that hold rows, is a count the writer never filled in, not a second answer.
# Any other disagreement leaves two readings: CorruptMetadata.
FILE_NUM_ROWS_ZERO = Rule(
    id="parquet.footer.file-num-rows-zero",
    format="parquet",
    spec="parquet.thrift: FileMetaData.num_rows",
    sentence="Number of rows in this file",
    strength=Strength.MUST,
    reading="the rows of the row groups (the sum of RowGroup.num_rows)",
    error=CorruptMetadata,
)


@dataclass(eq=False)
class LeafData:
    """One leaf column over the whole file: its non-null values, and its
    definition and repetition levels (one pair per entry; all zeros when the
    maximum level is 0), row group after row group. ``pieces`` are the values
    as decoded, page by page (``ChunkData.pieces``); ``values`` the Python values,
    made on first use."""

    leaf: LeafColumn
    pieces: list[Values]
    definition_levels: np.ndarray
    repetition_levels: np.ndarray

    @cached_property
    def values(self) -> list[object]:
        return python_values(self.pieces)


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
    # The records assembled while reading (a schema with VARIANT groups, whose values are
    # checked in them); otherwise built when first asked for: a flat schema's from
    # ``data``, a nested one's from the leaves, whose levels were checked while reading.
    _records: list[dict[str, Any]] | None = field(default=None, repr=False)
    row_count: int | None = None  # the rows held: one row group's, or None for the file's

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
        if not self.is_flat:
            columns = [(leaf.values, leaf.definition_levels, leaf.repetition_levels) for leaf in self.leaves]
            expected = self.metadata.num_rows if self.row_count is None else self.row_count
            return assemble_records(self.schema, columns, expected_records=expected or None)
        return list(self._flat_records())

    def iter_records(self) -> Iterator[dict[str, Any]]:
        """The records one at a time: a flat schema's built as they are asked for and not
        kept (``records`` keeps them all), so a caller converting them holds one at once."""
        return self._flat_records() if self._records is None and self.is_flat else iter(self.records)

    def _flat_records(self) -> Iterator[dict[str, Any]]:
        names = list(self.data)
        if names:
            yield from (dict(zip(names, row, strict=True)) for row in zip(*self.data.values(), strict=True))

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


def read_parquet(
    source: Source,
    *,
    verify_checksums: bool = False,
    decryption: FileDecryptionProperties | None = None,
    columns: Sequence[str] | None = None,
    decode_variants: bool = True,
) -> ParquetContents:
    """Read a Parquet file; with ``verify_checksums``, check every page's CRC
    ('3.7.4 - Checksumming') and raise ChecksumMismatch at the first bad one.
    ``decode_variants=False`` returns VARIANT values undecoded (the validator,
    which reports each malformed one, reads so).

    ``decryption``: the keys (and AAD prefix) of an encrypted file.
    ``columns``: read only these fields, each a dotted path naming a leaf or a
    group (all its leaves); the contents' schema is then the projected tree.
    """
    row_groups = open_parquet(source, verify_checksums=verify_checksums, decryption=decryption,
                              columns=columns, decode_variants=decode_variants)
    contents = row_groups.joined(list(row_groups))
    # Unmapped here once read; after an error, when the error (whose frames may still
    # view the map) is dropped.
    row_groups.close()
    return contents


def open_parquet(
    source: Source,
    *,
    verify_checksums: bool = False,
    decryption: FileDecryptionProperties | None = None,
    columns: Sequence[str] | None = None,
    decode_variants: bool = True,
) -> ParquetRowGroups:
    """The file's footer read and checked, its row groups ready to be read one at a time
    (:class:`ParquetRowGroups`); the arguments are :func:`read_parquet`'s."""
    file = _load(source)
    metadata, footer_start, decryptor = read_footer_with_decryptor(file, decryption=decryption)
    full_tree = schema_tree_from_elements(metadata.schema, offset=footer_start)
    all_leaves = leaf_columns(full_tree)
    check_type_rules(all_leaves, footer_start)
    check_variant_groups(full_tree, footer_start)
    check_row_groups(metadata, all_leaves, footer_start)
    tree = full_tree if columns is None else _projected(full_tree, all_leaves, columns)
    by_path = {leaf.dotted_path: leaf for leaf in all_leaves}
    stored = [by_path[leaf.dotted_path] for leaf in leaf_columns(tree)]  # with the file's column ordinals
    return ParquetRowGroups(file, metadata, footer_start, decryptor, tree, stored, verify_checksums,
                            decode_variants and has_variant(tree),
                            mapped_here=isinstance(source, str | os.PathLike))


@dataclass(eq=False)
class ParquetRowGroups:
    """A file whose footer :func:`open_parquet` has read: iterating gives each row group's
    contents in turn (a :class:`ParquetContents` of that row group's rows alone, with the
    file's metadata), so that a caller holds one decoded row group at a time. Each row
    group's decompression is one unit of the decoded budget
    (``reference_impl/common/decoded_budget.py``). A file read from a path is mapped
    (``reference_impl/common/mapped_file.py``): its pages are released after each row
    group, and it is unmapped by :meth:`close`, or with this object; a file given mapped
    (``validate`` reads its own map again) is left to its caller to unmap."""

    file: FileBytes
    metadata: FileMetaData
    footer_start: int
    decryptor: FileDecryptor | None
    schema: SchemaNode  # the tree read: the file's, or its projection
    stored: list[LeafColumn]  # the leaves read, with the file's column ordinals
    verify_checksums: bool
    variants: bool  # decode and check the VARIANT values
    mapped_here: bool  # from a path, by open_parquet: close() unmaps it

    def __iter__(self) -> Iterator[ParquetContents]:
        # No name holds a row group given out: the caller's dropping it frees it.
        for index, row_group in enumerate(self.metadata.row_groups):
            yield self.read_row_group(index, row_group)

    def read_row_group(self, index: int, row_group: RowGroup) -> ParquetContents:
        """Row group ``index``, its decompression one unit of the decoded budget."""
        with budget_unit(f"row group {index}"):
            expect_decompressed(row_group, index, self.stored, self.footer_start)
            contents = self._decoded(index, row_group)
        release_pages(self.file)
        return contents

    def close(self) -> None:
        """Unmap the file mapped here (a file given as bytes or mapped: nothing); no row
        group can be read after."""
        if self.mapped_here:
            close_file(self.file)

    def _decoded(self, index: int, row_group: RowGroup) -> ParquetContents:
        chunks = [
            _read_chunk(self.file, leaf, row_group, index, self.footer_start, self.verify_checksums,
                        self.decryptor)
            for leaf in self.stored
        ]
        records: list[dict[str, Any]] | None = None
        if self.variants:
            records = assemble_row_group(self.schema, chunks, row_group, self.footer_start)
            offset = _row_group_offset(row_group, self.footer_start)
            check_variant_values(self.schema, records, f"row group {index}", offset)
        elif not is_flat(self.schema):
            check_row_group(self.schema, chunks, row_group, self.footer_start)
        leaves = [_joined(leaf, [chunk])
                  for leaf, chunk in zip(leaf_columns(self.schema), chunks, strict=True)]
        return ParquetContents(schema=self.schema, leaves=leaves, metadata=self.metadata, _records=records,
                               row_count=row_group.num_rows)

    def joined(self, parts: Sequence[ParquetContents]) -> ParquetContents:
        """The contents of ``parts`` (row groups read from this file, in order) as one:
        no parts is the file's schema with no rows."""
        leaves = [
            _joined(leaf, [part.leaves[number] for part in parts])
            for number, leaf in enumerate(leaf_columns(self.schema))
        ]
        records = [r for part in parts for r in part.records] if self.variants else None
        return ParquetContents(schema=self.schema, leaves=leaves, metadata=self.metadata, _records=records,
                               row_count=sum(part.row_count or 0 for part in parts))


def _read_chunk(
    file: FileBytes,
    leaf: LeafColumn,
    row_group: RowGroup,
    index: int,
    footer_start: int,
    verify_checksums: bool,
    decryptor: FileDecryptor | None,
) -> ChunkData:
    chunk = row_group.columns[leaf.index]
    crypto = decryptor.column(leaf, chunk, index) if decryptor is not None else None
    where = f"column {leaf.dotted_path}, row group {index}"
    data = read_column_chunk(
        file,
        leaf,
        chunk,
        row_group.num_rows,
        where=where,
        footer_start=footer_start,
        verify_checksums=verify_checksums,
        crypto=crypto,
    )
    check_utf8(leaf, data, where)
    return data


def expect_decompressed(
    row_group: RowGroup, index: int, leaves: Sequence[LeafColumn], footer_start: int
) -> None:
    """DecodedBudgetExceeded before anything is decompressed when the compressed chunks of
    ``leaves`` in row group ``index`` declare more uncompressed bytes (``total_uncompressed_size``)
    than the decoded budget allows (a chunk whose metadata is encrypted declares nothing here)."""
    declared = [chunk.meta_data for chunk in (row_group.columns[leaf.index] for leaf in leaves)]
    size = sum(meta.total_uncompressed_size for meta in declared
               if meta is not None and meta.codec != CompressionCodec.UNCOMPRESSED)
    expect(size, what=f"the compressed column chunks read of row group {index}",
           error=DecodedBudgetExceeded, offset=_row_group_offset(row_group, footer_start))


def _projected(tree: SchemaNode, leaves: list[LeafColumn], columns: Sequence[str]) -> SchemaNode:
    """The schema tree with only the fields on the way to the named columns."""
    if isinstance(columns, str):
        raise ValueError("columns must be a sequence of dotted paths, not one string")
    wanted: set[tuple[str, ...]] = set()
    for name in columns:
        chosen = [leaf.path for leaf in leaves if f"{leaf.dotted_path}.".startswith(f"{name}.")]
        if not chosen:
            raise ValueError(f"columns: {name!r} names no field of the schema")
        wanted.update(chosen)

    def keep(node: SchemaNode, path: tuple[str, ...]) -> SchemaNode | None:
        if node.is_leaf:
            return node if path in wanted else None
        children = [kept for child in node.children or () if (kept := keep(child, (*path, child.name)))]
        return replace(node, children=tuple(children)) if children else None

    projected = keep(tree, ())
    assert projected is not None  # at least one leaf was chosen
    return projected


def _joined(leaf: LeafColumn, pieces: Sequence[ChunkData | LeafData]) -> LeafData:
    if len(pieces) == 1:  # nothing to join: no copy
        only = pieces[0]
        return LeafData(leaf, list(only.pieces), only.definition_levels, only.repetition_levels)
    values = [page for piece in pieces for page in piece.pieces]
    levels = {
        kind: np.concatenate([getattr(p, kind) for p in pieces]) if pieces else np.zeros(0, np.int64)
        for kind in ("definition_levels", "repetition_levels")
    }
    return LeafData(leaf, values, levels["definition_levels"], levels["repetition_levels"])


def assemble_row_group(
    tree: SchemaNode, chunks: Sequence[ChunkData], row_group: RowGroup, footer_start: int
) -> list[dict[str, Any]]:
    """The records of one row group, assembled from its leaves' chunks in ``leaf_columns(tree)``
    order (README.md, 'Nested Encoding'); InvalidLevelData, at the row group's offset, when
    their levels do not make records."""
    return assemble_records(
        tree,
        [(c.values, c.definition_levels, c.repetition_levels) for c in chunks],
        expected_records=row_group.num_rows,
        offset=_row_group_offset(row_group, footer_start),
    )


def check_row_group(
    tree: SchemaNode, chunks: Sequence[ChunkData], row_group: RowGroup, footer_start: int
) -> None:
    """What :func:`assemble_row_group` raises, without the records (``assembly.check_records``)."""
    check_records(
        tree,
        [(joined(c.pieces), c.definition_levels, c.repetition_levels) for c in chunks],
        expected_records=row_group.num_rows,
        offset=_row_group_offset(row_group, footer_start),
    )


def _row_group_offset(row_group: RowGroup, footer_start: int) -> int:
    """Where a row group's data starts, for errors found across its columns."""
    if row_group.file_offset:
        return row_group.file_offset
    for chunk in row_group.columns:
        if chunk.meta_data is not None and chunk.meta_data.data_page_offset:
            return chunk.meta_data.dictionary_page_offset or chunk.meta_data.data_page_offset
    return footer_start


def _load(source: Source) -> FileBytes:
    if isinstance(source, mmap.mmap):
        return source  # mapped by the caller, read in place
    if isinstance(source, bytes | bytearray | memoryview):
        return bytes(source)
    if isinstance(source, str | os.PathLike):
        return map_file(source)
    return source.read()


# ---------------------------------------------------------------------------
# The footer ('3 - File Format')
# ---------------------------------------------------------------------------


def read_footer(
    file: FileBytes, *, decryption: FileDecryptionProperties | None = None
) -> tuple[FileMetaData, int]:
    """Check the framing and decode the FileMetaData; return it and where it starts.

    For an encrypted footer, the FileMetaData decrypted, and where its
    FileCryptoMetaData starts (see :func:`read_footer_with_decryptor`).
    """
    metadata, footer_start, _ = read_footer_with_decryptor(file, decryption=decryption)
    return metadata, footer_start


def read_footer_with_decryptor(
    file: FileBytes, *, decryption: FileDecryptionProperties | None = None
) -> tuple[FileMetaData, int, FileDecryptor | None]:
    """:func:`read_footer`, and the file's decryptor (None for a plaintext file).

    '3.7.3', 5.3: magic "PARE" at both ends is an encrypted footer, which needs
    the footer key (:class:`MissingKey`); a "PAR1" footer with an
    ``encryption_algorithm`` is followed by its signature, verified when the
    footer key is available (:class:`DecryptionFailed` if it does not verify).
    """
    size = len(file)
    if size < MIN_FILE_SIZE:
        raise TruncatedFile(
            f"a Parquet file has at least {MIN_FILE_SIZE} bytes (magic, footer length, "
            f"magic), this one has {size}",
            size,
        )
    trailing_magic_at = size - len(MAGIC)
    for found, at in ((file[:4], 0), (file[trailing_magic_at:], trailing_magic_at)):
        if found not in (MAGIC, ENCRYPTED_FOOTER_MAGIC):
            raise BadMagic(f"expected the magic {MAGIC!r}, found {found!r}", at)
    magic = file[trailing_magic_at:]
    if file[:4] != magic:
        raise BadMagic(
            f"the file starts with the magic {file[:4]!r} but ends with {magic!r}", trailing_magic_at
        )

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
    if magic == ENCRYPTED_FOOTER_MAGIC:
        metadata, decryptor = read_encrypted_footer(file, footer_start, length_at, decryption)
        _check_row_group_ordinals(metadata, footer_start)
        return metadata, footer_start, decryptor
    metadata, footer_end = deserialize(FileMetaData, file, start=footer_start, end=length_at)
    if metadata.encryption_algorithm is not None:
        decryptor = verify_plaintext_footer(file, metadata, footer_start, footer_end, length_at, decryption)
        _check_row_group_ordinals(metadata, footer_start)
        return metadata, footer_start, decryptor
    if footer_end != length_at:
        raise CorruptMetadata(
            f"the footer length says {footer_length} bytes, but FileMetaData ends after "
            f"{footer_end - footer_start}",
            footer_end,
        )
    return metadata, footer_start, None


def _check_row_group_ordinals(metadata: FileMetaData, footer_start: int) -> None:
    """The AADs use each row group's position; an ordinal that disagrees is a lie ('3.7.3', 5.2)."""
    for index, row_group in enumerate(metadata.row_groups):
        if row_group.ordinal is not None and row_group.ordinal != index:
            raise CorruptMetadata(f"row group {index} says its ordinal is {row_group.ordinal}", footer_start)


def check_row_groups(metadata: FileMetaData, leaves: list[LeafColumn], footer_start: int) -> None:
    """Every row group has one column chunk per leaf and a row count the file's agrees with."""
    for index, row_group in enumerate(metadata.row_groups):
        if len(row_group.columns) != len(leaves):
            raise CorruptMetadata(
                f"row group {index} has {len(row_group.columns)} column chunks, "
                f"the schema has {len(leaves)} columns",
                footer_start,
            )
        if row_group.num_rows < 0:
            raise CorruptMetadata(f"row group {index} has {row_group.num_rows} rows", footer_start)
    check_file_num_rows(metadata, footer_start)


def check_file_num_rows(metadata: FileMetaData, footer_start: int) -> None:
    """FileMetaData.num_rows against its row groups' (:data:`FILE_NUM_ROWS_ZERO` for a 0)."""
    total_rows = sum(row_group.num_rows for row_group in metadata.row_groups)
    if metadata.num_rows == 0 and total_rows:
        where = f"FileMetaData.num_rows is 0, the row groups hold {total_rows}"
        breach(FILE_NUM_ROWS_ZERO, where, footer_start)
    elif total_rows != metadata.num_rows:
        raise CorruptMetadata(
            f"FileMetaData.num_rows is {metadata.num_rows}, the row groups hold {total_rows}",
            footer_start,
        )
