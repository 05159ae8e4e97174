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

Each top-level field is read as a column (columns/present.py: a numpy array where the
values have a natural one, else a list); ``OrcContents.rows`` builds the dicts from the
columns on first use. :func:`open_orc` reads the tail and gives the stripes one at a time
(:class:`OrcStripes`), each stripe's decompression one unit of the decoded budget
(reference_impl/common/decoded_budget.py); :func:`read_orc` joins them.

Checks made here: the stripes lie in order without overlapping, every row of a root
STRUCT is non-null (:class:`CorruptMetadata`, :class:`InvalidValue`); after each
stripe, every stream it read was consumed exactly (streams/stripe.py) and the row
counts agree (row_counts.py).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from reference_impl.common.decoded_budget import budget_unit
from reference_impl.common.decoded_values import as_list, joined
from reference_impl.common.mapped_file import FileBytes, close_file, map_file, release_pages
from reference_impl.orc.bloom_filter_index import BLOOM_FILTER_KINDS
from reference_impl.orc.columns.calendar import file_calendar
from reference_impl.orc.columns.present import ColumnValues
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
    FileTail,
    file_version,
    read_file_tail,
)
from reference_impl.orc.metadata.proto_enums import TypeKind
from reference_impl.orc.metadata.type_tree import ROOT_FIELD, TypeNode, from_types, row_struct
from reference_impl.orc.row_counts import check_file_rows, check_file_values, check_stripe_rows
from reference_impl.orc.streams.compression import decompress_stream
from reference_impl.orc.streams.stripe import HEADER_LENGTH, read_stripe
from reference_impl.orc.streams.stripe_layout import StreamCodec

__all__ = ["ROOT_FIELD", "OrcContents", "OrcStripes", "iter_stripe_columns", "iter_stripes", "open_orc",
           "read_orc", "root_of", "root_values", "schema_of"]


OLDEST_VERSION = (0, 11)
# 'Bloom Filter Index': the filters let a reader skip row groups; one that reads every
# value does not decompress them (the validator checks them: validation/bloom_filter_checks.py).
UNREAD_INDEX_KINDS = frozenset(BLOOM_FILTER_KINDS)
LENGTH_KINDS = frozenset({TypeKind.LIST, TypeKind.MAP})


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


Source = bytes | bytearray | memoryview | str | os.PathLike[str]
StripeColumns = tuple[int, dict[str, ColumnValues]]  # a stripe's row count and its fields' columns


def read_orc(source: Source, keys: KeyProvider | None = None) -> OrcContents:
    """The whole file ``source`` (its bytes, or a path to it). An encrypted column whose key
    ``keys`` holds reads as its true values, another as its masked ones ('Column
    Encryption'); its tail then holds the decrypted statistics."""
    stripes = open_orc(source, keys)
    contents = stripes.joined(list(stripes))
    # Unmapped here once read; after an error, when the error (whose frames may still
    # view the map) is dropped.
    stripes.close()
    return contents


def open_orc(source: Source, keys: KeyProvider | None = None) -> OrcStripes:
    """The file's tail read (and its encryption variants opened with ``keys``, as
    :func:`read_orc` does), its stripes ready to be read one at a time."""
    data = bytes(source) if isinstance(source, (bytes, bytearray, memoryview)) else map_file(source)
    tail = read_file_tail(data, decompress_stream)
    tail, variants = open_variants(data, tail, root_of(tail), keys or KeyProvider(),
                                   StreamCodec.of(tail).decompress)
    return OrcStripes(data, tail, tuple(variants))


@dataclass(frozen=True)
class OrcStripes:
    """A file whose tail :func:`open_orc` has read: iterating gives each stripe in turn as
    :class:`OrcContents` (of that stripe's rows alone), so that a caller holds one decoded
    stripe at a time (docs/architecture.md, 'Memory budget'). A file read from a path is
    mapped (``reference_impl/common/mapped_file.py``): its pages are released after each
    stripe, and it is unmapped by :meth:`close`, or with this object."""

    data: FileBytes
    tail: FileTail
    variants: tuple[OpenVariant, ...]

    def __iter__(self) -> Iterator[OrcContents]:
        # map holds no stripe given out: the caller's dropping it frees it.
        return map(self.contents, iter_stripe_columns(self.data, self.tail, self.variants))

    @cached_property
    def schema(self) -> TypeNode:
        return schema_of(self.tail)

    def contents(self, stripe: StripeColumns) -> OrcContents:
        """One stripe's columns as contents of this file."""
        count, columns = stripe
        return OrcContents(self.tail, self.schema, columns, count)

    def joined(self, parts: Sequence[OrcContents]) -> OrcContents:
        """The stripes ``parts`` end to end (none: the file's schema and no rows)."""
        schema = self.schema
        columns = {name: joined([part.columns[name] for part in parts]) for name in schema.field_names}
        return OrcContents(self.tail, schema, columns, sum(part.row_count for part in parts))

    def close(self) -> None:
        """Unmap the file (a file given as bytes: nothing); no stripe can be read after."""
        close_file(self.data)


def root_of(tail: FileTail) -> TypeNode:
    return from_types(tail.footer.types, tail.footer_offset)


def schema_of(tail: FileTail) -> TypeNode:
    """The STRUCT the rows are dicts of: the root, or one field around a root of another kind."""
    return row_struct(root_of(tail))


def root_values(root: TypeNode, rows: list[dict[str, object]]) -> list[object]:
    """The values of the file's type 0 in ``rows``: the rows themselves (a root STRUCT), or
    their one field around a root of another kind."""
    return list(rows) if root.kind == TypeKind.STRUCT else [row[ROOT_FIELD] for row in rows]


def iter_stripes(data: FileBytes, tail: FileTail,
                 variants: Sequence[OpenVariant] = ()) -> Iterator[list[dict[str, object]]]:
    """The rows of each stripe of the file ``data`` in turn; the columns of ``variants``
    (encryption/encryption_variants.py, ``open_variants``) decrypted, the others as stored."""
    # map holds no stripe given out (a for loop's name would, while the next is decoded).
    yield from map(_stripe_rows, iter_stripe_columns(data, tail, variants))


def iter_stripe_columns(data: FileBytes, tail: FileTail, variants: Sequence[OpenVariant] = ()
                        ) -> Iterator[StripeColumns]:
    """:func:`iter_stripes` as each stripe's number of rows and top-level fields as columns."""
    check_file_rows(tail)
    _check_stripe_places(tail)
    reading = _StripeReading(data, tail, variants, stripe_keys(tail, variants))
    # No name holds a stripe's columns given out: the caller's dropping them frees them.
    yield from map(reading.columns, range(len(tail.footer.stripes)))
    check_file_values(tail, reading.values_read)


@dataclass
class _StripeReading:
    """What reading each stripe of one file needs, and the values read so far per column."""

    data: FileBytes
    tail: FileTail
    variants: Sequence[OpenVariant]
    local_keys: list[tuple[int, dict[int, bytes]]]
    values_read: dict[int, int] = field(default_factory=dict)

    # What the file's stripes share (codec, type tree, whether it has lengths), made for its
    # first stripe and reused for the others.
    @cached_property
    def codec(self) -> StreamCodec:
        return StreamCodec.of(self.tail)

    @cached_property
    def root(self) -> TypeNode:
        return root_of(self.tail)

    @cached_property
    def has_lengths(self) -> bool:
        """Whether a column of the file is a LIST or MAP (whose lengths a stripe's size bounds)."""
        return any(node.kind in LENGTH_KINDS for node in self.tail.footer.types)

    def columns(self, index: int) -> StripeColumns:
        """Stripe ``index``'s row count and columns, its decompression one unit of the
        decoded budget."""
        tail, information, codec = self.tail, self.tail.footer.stripes[index], self.codec
        # The stripe's streams are decompressed in here, a compressed one as it is read.
        with budget_unit(f"stripe {index}"):
            stripe = read_stripe(self.data, information, index, len(tail.footer.types),
                                 tail.encrypted_statistics_offset, codec.decompress, codec.compressed,
                                 codec.decompress_lazily, unread=UNREAD_INDEX_KINDS)
            if self.has_lengths:  # checked against the decompressed size (StripeStreams.value_budget)
                stripe.decompress_whole()
            if self.variants:
                stripe_id, keys = self.local_keys[index]
                decrypt_stripe(self.data, stripe, self.variants, stripe_id, keys, codec.decompress,
                               codec.compressed)
            root = self.root
            version = "0.11" if file_version(tail.postscript) == OLDEST_VERSION else "0.12"
            rows = information.number_of_rows or 0
            reader = build_reader(root, stripe, version, file_calendar(tail.footer.calendar))
            present, columns = (reader.read_fields(rows) if isinstance(reader, StructReader)
                                else (None, {ROOT_FIELD: reader.read_column(rows)}))
            stripe.check_consumed()
        check_stripe_rows(tail, stripe)
        release_pages(self.data)  # the stripe's pages are read (its data streams viewed them)
        for column, count in stripe.values_read.items():
            self.values_read[column] = self.values_read.get(column, 0) + count
        if present is not None and not present.all():
            raise InvalidValue(f"stripe {index}, row {int(np.argmin(present))}: the root struct is null",
                               information.offset)
        return rows, columns


def _check_stripe_places(tail: FileTail) -> None:
    end = HEADER_LENGTH
    for index, stripe in enumerate(tail.footer.stripes):
        start = stripe.offset or 0
        if start < end:
            raise CorruptMetadata(f"stripe {index} starts at {start}, before the end of what precedes "
                                  f"it at {end}", start)
        end = start + (stripe.index_length or 0) + (stripe.data_length or 0) + (stripe.footer_length or 0)


def _stripe_rows(stripe: StripeColumns) -> list[dict[str, object]]:
    count, columns = stripe
    return _rows(columns, count)


def _rows(columns: dict[str, ColumnValues], count: int) -> list[dict[str, object]]:
    """The dicts of ``count`` rows by field name from the fields' columns."""
    if not columns:
        return [{} for _ in range(count)]
    names = list(columns)
    return [dict(zip(names, values, strict=True))
            for values in zip(*(as_list(column) for column in columns.values()), strict=True)]
