"""The reference ORC reader: the file tail once, then one stripe at a time.

ORCv1.md, 'File Tail' (metadata/file_tail.py), 'Stripes' (streams/stripe.py),
'Column Encodings' (columns/) and 'Column Encryption' (encryption/). Rows are dicts by
the root STRUCT's field names, with the values described in columns/registry.py's modules.

The root (type 0, 'Type Information') may be of any kind: ORC Java writes files whose
root is a bare TIMESTAMP or BIGINT, and ORC C++ reads them as one column
(docs/orc-spec-notes.md, note 7). Such a file reads as rows of one field,
:data:`ROOT_FIELD` (metadata/type_tree.py), whose value may be null;
``OrcContents.schema`` is then a STRUCT of that one field around the root, so a caller
sees one shape for every file, and ``OrcContents.root`` is the file's type 0.

``read_orc`` reads each top-level field as a column (columns/present.py: a numpy array
where the values have a natural one, else a list); ``OrcContents.rows`` builds the dicts
from the columns on first use.

Checks made here: the stripes lie in order without overlapping, every row of a root
STRUCT is non-null (:class:`CorruptMetadata`, :class:`InvalidValue`); after each
stripe, every stream it read was consumed exactly (streams/stripe.py) and the row
counts agree (row_counts.py).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from reference_impl.orc.columns.calendar import file_calendar
from reference_impl.orc.columns.present import ColumnValues, as_list
from reference_impl.orc.columns.registry import build_reader
from reference_impl.orc.columns.struct_columns import StructReader
from reference_impl.orc.encryption.encryption_keys import KeyProvider
from reference_impl.orc.encryption.encryption_variants import (
    OpenVariant,
    decrypt_stripe,
    open_variants,
    stripe_keys,
)
from reference_impl.orc.errors import CorruptMetadata, InvalidValue
from reference_impl.orc.metadata.file_tail import (
    DEFAULT_COMPRESSION_BLOCK_SIZE,
    FileTail,
    file_version,
    read_file_tail,
)
from reference_impl.orc.metadata.proto_enums import CompressionKind, TypeKind
from reference_impl.orc.metadata.type_tree import ROOT_FIELD, TypeNode, from_types, row_struct
from reference_impl.orc.row_counts import check_file_rows, check_file_values, check_stripe_rows
from reference_impl.orc.streams.compression import decompress_stream
from reference_impl.orc.streams.stripe import HEADER_LENGTH, read_stripe

__all__ = ["ROOT_FIELD", "OrcContents", "iter_stripe_columns", "iter_stripes", "read_orc", "root_of",
           "root_values", "schema_of"]


OLDEST_VERSION = (0, 11)


@dataclass(frozen=True)
class OrcContents:
    tail: FileTail
    schema: TypeNode  # the rows' STRUCT: the root, or a STRUCT of ROOT_FIELD around it
    columns: dict[str, ColumnValues]  # each top-level field's values, the stripes' in turn
    row_count: int

    @cached_property
    def rows(self) -> list[dict[str, object]]:
        """One dict per row by top-level field name, built on first use."""
        return _rows(self.columns, self.row_count)

    @property
    def root(self) -> TypeNode:
        """The file's type 0."""
        return root_of(self.tail)


def read_orc(source: bytes | bytearray | memoryview | str | os.PathLike[str],
             keys: KeyProvider | None = None) -> OrcContents:
    """The whole file ``source`` (its bytes, or a path to it). An encrypted column whose key
    ``keys`` holds reads as its true values, another as its masked ones ('Column
    Encryption'); its tail then holds the decrypted statistics."""
    data = bytes(source) if isinstance(source, (bytes, bytearray, memoryview)) else Path(source).read_bytes()
    tail = read_file_tail(data, decompress_stream)
    tail, variants = open_variants(data, tail, root_of(tail), keys or KeyProvider(), _decompressor(tail))
    stripes = list(iter_stripe_columns(data, tail, variants))
    names = schema_of(tail).field_names
    columns = {name: _joined([stripe[name] for _, stripe in stripes]) for name in names}
    return OrcContents(tail, schema_of(tail), columns, sum(count for count, _ in stripes))


def root_of(tail: FileTail) -> TypeNode:
    return from_types(tail.footer.types, tail.footer_offset)


def schema_of(tail: FileTail) -> TypeNode:
    """The STRUCT the rows are dicts of: the root, or one field around a root of another kind."""
    return row_struct(root_of(tail))


def root_values(root: TypeNode, rows: list[dict[str, object]]) -> list[object]:
    """The values of the file's type 0 in ``rows``: the rows themselves (a root STRUCT), or
    their one field around a root of another kind."""
    return list(rows) if root.kind == TypeKind.STRUCT else [row[ROOT_FIELD] for row in rows]


def _decompressor(tail: FileTail) -> Callable[[bytes, int], bytes]:
    kind = CompressionKind(tail.postscript.compression or CompressionKind.NONE)
    block_size = tail.postscript.compression_block_size or DEFAULT_COMPRESSION_BLOCK_SIZE

    def decompress(raw: bytes, offset: int) -> bytes:
        return decompress_stream(raw, kind, block_size, offset)
    return decompress


def iter_stripes(data: bytes, tail: FileTail,
                 variants: Sequence[OpenVariant] = ()) -> Iterator[list[dict[str, object]]]:
    """The rows of each stripe of the file ``data`` in turn; the columns of ``variants``
    (encryption/encryption_variants.py, ``open_variants``) decrypted, the others as stored."""
    for count, columns in iter_stripe_columns(data, tail, variants):
        yield _rows(columns, count)


def iter_stripe_columns(data: bytes, tail: FileTail, variants: Sequence[OpenVariant] = ()
                        ) -> Iterator[tuple[int, dict[str, ColumnValues]]]:
    """:func:`iter_stripes` as each stripe's number of rows and top-level fields as columns."""
    footer, postscript = tail.footer, tail.postscript
    root = root_of(tail)
    check_file_rows(tail)
    _check_stripe_places(tail)
    version = "0.11" if file_version(postscript) == OLDEST_VERSION else "0.12"
    kind = CompressionKind(postscript.compression or CompressionKind.NONE)
    calendar = file_calendar(footer.calendar)
    decompress = _decompressor(tail)
    column_count = len(footer.types)
    values_read: dict[int, int] = {}
    local_keys = stripe_keys(tail, variants)
    for index, information in enumerate(footer.stripes):
        stripe = read_stripe(data, information, index, column_count, tail.encrypted_statistics_offset,
                             decompress, kind != CompressionKind.NONE)
        if variants:
            stripe_id, keys = local_keys[index]
            decrypt_stripe(data, stripe, variants, stripe_id, keys, decompress, kind != CompressionKind.NONE)
        rows = information.number_of_rows or 0
        reader = build_reader(root, stripe, version, calendar)
        present, columns = (reader.read_fields(rows) if isinstance(reader, StructReader)
                            else (None, {ROOT_FIELD: reader.read_column(rows)}))
        stripe.check_consumed()
        check_stripe_rows(tail, stripe)
        for column, count in stripe.values_read.items():
            values_read[column] = values_read.get(column, 0) + count
        if present is not None and not present.all():
            raise InvalidValue(f"stripe {index}, row {int(np.argmin(present))}: the root struct is null",
                               information.offset)
        yield rows, columns
    check_file_values(tail, values_read)


def _check_stripe_places(tail: FileTail) -> None:
    end = HEADER_LENGTH
    for index, stripe in enumerate(tail.footer.stripes):
        start = stripe.offset or 0
        if start < end:
            raise CorruptMetadata(f"stripe {index} starts at {start}, before the end of what precedes "
                                  f"it at {end}", start)
        end = start + (stripe.index_length or 0) + (stripe.data_length or 0) + (stripe.footer_length or 0)


def _joined(stripes: list[ColumnValues]) -> ColumnValues:
    """One field's columns of the stripes, end to end: one array if all are arrays."""
    if len(stripes) == 1:
        return stripes[0]
    arrays = [values for values in stripes if isinstance(values, np.ndarray)]
    if arrays and len(arrays) == len(stripes):
        return np.concatenate(arrays)
    return [value for values in stripes for value in as_list(values)]


def _rows(columns: dict[str, ColumnValues], count: int) -> list[dict[str, object]]:
    """The dicts of ``count`` rows by field name from the fields' columns."""
    if not columns:
        return [{} for _ in range(count)]
    names = list(columns)
    return [dict(zip(names, values, strict=True))
            for values in zip(*(as_list(column) for column in columns.values()), strict=True)]
