"""Reading a column chunk: its metadata checked, then its pages, into values and levels.

Spec: README.md, 'Column chunks' ("Column chunks are composed of pages
written back to back"), 'Data Pages'; Encodings.md, 'Dictionary Encoding
(PLAIN_DICTIONARY = 2 and RLE_DICTIONARY = 8)' ("The dictionary page is
written first, before the data pages of the column chunk"); README.md, 'Extensibility';
parquet.thrift ``ColumnMetaData``.

:func:`read_column_chunk` walks the pages from the first one (the
dictionary page if ``dictionary_page_offset`` says so, else the first data
page) until the chunk's ``num_values`` entries are read. It accepts the
dictionary page anywhere before the data pages that need it (a data page with
dictionary indices and no dictionary page before it is :class:`CorruptPage`),
any mix of page versions and encodings, pages split at any entry (v1), and it
skips INDEX_PAGE and page types it does not know ("Additional page types can be
added and safely skipped", '3.2 - Extensibility'). It decodes only as many
values as entries have the maximum definition level, and refuses a page of
more than ``MAX_PAGE_ENTRIES`` entries (a resource limit, see there). The pages' ``num_values``
must add up to the chunk's: a page claiming more than the values left, a chunk ending before
they are all read, and a data page left after they are all read are :class:`CorruptPage`.
Every error names the column, the row group and the page ordinal, and carries the byte offset.

Two broken rules have a single reading (``reference_impl.common.leniency``): a
DataPageHeaderV2.num_rows that disagrees with the repetition levels
(:data:`V2_NUM_ROWS`: the levels count the rows), and a plaintext page that
runs past its chunk's declared ``total_compressed_size`` while it stays before
the footer (:data:`PAGE_PAST_CHUNK`: the header delimits the page).

Encrypted chunks ('3.7.3 - Parquet Modular Encryption'): each page header and
each page is an encrypted module read with the chunk's ``ColumnDecryptor``. The
data page ordinal of the AADs counts data pages from 0; the dictionary page has
none and must come first (the reader expects it where ``dictionary_page_offset``
says there is one). ``compressed_page_size`` is the page module as stored, its
4-byte length included, and the CRC covers those stored (encrypted) bytes.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import cached_property

import numpy as np

from reference_impl.common.decoded_values import as_list, joined
from reference_impl.common.leniency import Rule, Strength, breach
from reference_impl.common.mapped_file import FileBytes, in_place, owned
from reference_impl.parquet.encodings.dictionary import decode_dictionary_entries, lookup_array
from reference_impl.parquet.encodings.plain import Values
from reference_impl.parquet.encodings.registry import Use, encodings_for
from reference_impl.parquet.encodings.values import decode_page_values
from reference_impl.parquet.encryption.decryptor import ColumnDecryptor, decode_plaintext
from reference_impl.parquet.errors import CorruptMetadata, CorruptPage, ParquetError, UnsupportedFeature
from reference_impl.parquet.metadata.file_layout import MAGIC
from reference_impl.parquet.metadata.parquet_thrift import (
    ColumnChunk,
    ColumnMetaData,
    CompressionCodec,
    Encoding,
    PageHeader,
    PageType,
)
from reference_impl.parquet.metadata.unknown_enum_values import require_known
from reference_impl.parquet.nested.levels import decode_levels_v1, decode_levels_v2
from reference_impl.parquet.pages.checksum import verify_page_crc
from reference_impl.parquet.pages.compression import CODECS
from reference_impl.parquet.pages.encrypted_pages import PAGE_MODULES
from reference_impl.parquet.pages.page import Content, page_content, read_page_header
from reference_impl.parquet.schema.tree import LeafColumn

__all__ = [
    "PAGE_PAST_CHUNK",
    "V2_NUM_ROWS",
    "ChunkData",
    "PageExtent",
    "check_chunk_metadata",
    "chunk_range",
    "read_column_chunk",
]

# A resource limit, not a rule of the format: level runs can claim any number of
# entries in a few bytes (legitimately: one RLE run for a page of nulls), and this
# reader materialises a page's levels at once, so a page may hold at most this
# many entries (writers cut pages at about 20,000 rows by default).
MAX_PAGE_ENTRIES = 1 << 26


# The repetition levels say where every row starts; num_rows only repeats them
# (parquet-cpp-arrow 8.0 wrote num_values there for repeated columns).
V2_NUM_ROWS = Rule(
    id="parquet.page.v2-num-rows",
    format="parquet",
    spec="parquet.thrift: DataPageHeaderV2.num_rows",
    sentence="Number of rows in this data page.",
    strength=Strength.MUST,
    reading="the rows the repetition levels start (entries at repetition level 0)",
    error=CorruptPage,
)


# A page header delimits its page (compressed_page_size); a chunk whose declared
# size falls short of its pages leaves that reading the only one, as long as
# the page stays in the data region, before the footer.
PAGE_PAST_CHUNK = Rule(
    id="parquet.chunk.page-past-chunk",
    format="parquet",
    spec="parquet.thrift: ColumnMetaData.total_compressed_size",
    sentence="total byte size of all compressed, and potentially encrypted, pages in this column chunk "
    "(including the headers)",
    strength=Strength.MUST,
    reading="the page as its header delimits it (compressed_page_size), read past the chunk's declared "
    "end while it stays before the footer",
    error=CorruptPage,
)


def _name(value: object) -> str:
    return getattr(value, "name", str(value))


DICTIONARY_INDEX_ENCODINGS = encodings_for(Use.DICTIONARY_INDICES)


@dataclass(frozen=True)
class PageExtent:
    """Where one page lies in the file and which of the chunk's entries and values it holds.

    ``offset`` is the page header's; ``end`` is just past the page's bytes. A
    dictionary (or skipped) page holds no entries: its ranges are empty.
    """

    offset: int
    body_start: int
    end: int
    header: PageHeader
    entries: range
    values: range


@dataclass
class ChunkData:
    """What a column chunk holds: its non-null values and one level pair per entry,
    and every page it was read from (``pages``, in file order).

    ``pieces`` are the values page by page as decoded (``plain.Values``: numbers
    stay arrays); ``decoded`` are they end to end (one array where every piece is one),
    ``values`` the Python values, both made on first use.
    A level array is all zeros when its maximum is 0 (the pages store none).
    """

    pieces: list[Values]
    definition_levels: np.ndarray
    repetition_levels: np.ndarray
    pages: list[PageExtent] = field(default_factory=list)

    @cached_property
    def decoded(self) -> Values:
        return joined(self.pieces)

    @cached_property
    def values(self) -> list[object]:
        return as_list(self.decoded)


@contextmanager
def _located(where: str) -> Iterator[None]:
    """Prefix the message of any ParquetError with ``where``; keep class and offset."""
    try:
        yield
    except ParquetError as error:
        raise type(error)(f"{where}: {error.message}", error.offset) from error


def check_chunk_metadata(
    leaf: LeafColumn,
    chunk: ColumnChunk,
    num_rows: int,
    where: str,
    footer_start: int,
    crypto: ColumnDecryptor | None = None,
) -> ColumnMetaData:
    """The chunk's ColumnMetaData (decrypted with ``crypto`` if it is encrypted),
    checked against the schema and its row group."""
    if crypto is None and (chunk.crypto_metadata is not None or chunk.encrypted_column_metadata is not None):
        raise CorruptMetadata(
            f"{where}: an encrypted column chunk in a file that declares no encryption algorithm",
            footer_start,
        )
    if chunk.file_path is not None:
        raise UnsupportedFeature(
            f"{where}: column chunk stored in another file ({chunk.file_path!r})", footer_start
        )
    meta = chunk.meta_data if crypto is None else crypto.file.column_metadata(crypto, chunk)
    if meta is None:
        raise CorruptMetadata(f"{where}: column chunk without meta_data", footer_start)
    with _located(where):
        codec = require_known(CompressionCodec, meta.codec, "ColumnMetaData.codec")
    if codec not in CODECS:
        raise UnsupportedFeature(f"{where}: compression codec {codec.name}", footer_start)
    if meta.type != leaf.node.physical_type:
        raise CorruptMetadata(
            f"{where}: chunk type {_name(meta.type)} differs from the schema's "
            f"{_name(leaf.node.physical_type)}",
            footer_start,
        )
    if tuple(meta.path_in_schema) != leaf.path:
        raise CorruptMetadata(
            f"{where}: chunk path_in_schema is {meta.path_in_schema}, the schema's leaf is {list(leaf.path)}",
            footer_start,
        )
    if leaf.max_repetition_level == 0 and meta.num_values != num_rows:
        # Without repetition every record is exactly one entry.
        raise CorruptMetadata(
            f"{where}: chunk has {meta.num_values} values, its row group {num_rows} rows", footer_start
        )
    if leaf.max_repetition_level > 0 and meta.num_values < num_rows:
        raise CorruptMetadata(
            f"{where}: chunk has {meta.num_values} values, fewer than its row group's {num_rows} "
            f"rows (every row has at least one)",
            footer_start,
        )
    return meta


def chunk_range(meta: ColumnMetaData) -> tuple[int, int]:
    """Where the chunk's pages start and end: from its first page (the dictionary
    page's offset if set, else the first data page's) for ``total_compressed_size``
    bytes. ``dictionary_page_offset`` 0 (written by some writers for "none") is
    not a page: offset 0 is the magic."""
    offsets = [offset for offset in (meta.dictionary_page_offset, meta.data_page_offset) if offset]
    start = min(offsets) if offsets else meta.data_page_offset
    return start, start + meta.total_compressed_size


class _ChunkReader:
    def __init__(
        self,
        file: FileBytes,
        leaf: LeafColumn,
        meta: ColumnMetaData,
        where: str,
        verify_checksums: bool,
        data_end: int,
        crypto: ColumnDecryptor | None = None,
    ) -> None:
        self.file = file
        self.in_place = in_place(file)  # what an uncompressed page is decoded from
        self.data_end = data_end  # where the data region ends: the footer's start
        self.crypto = crypto
        self.data_pages = 0  # data pages read so far: the page ordinal of the AADs
        self.verify_checksums = verify_checksums
        self.leaf = leaf
        self.meta = meta
        self.where = where
        self.codec = CompressionCodec(meta.codec)  # known: check_chunk_metadata
        self.node = leaf.node
        self.dictionary: np.ndarray | None = None
        self.pieces: list[Values] = []
        self.value_count = 0
        self.definition: list[np.ndarray] = []
        self.repetition: list[np.ndarray] = []
        self.extents: list[PageExtent] = []
        self.entries = 0
        self.ordinal = 0  # of the page being read, every page type counted

    @property
    def page_where(self) -> str:
        return f"{self.where}, page {self.ordinal}"

    def read(self, start: int, end: int) -> ChunkData:
        """The chunk's pages from ``start``, declared to end at ``end``."""
        position = start
        # Pages until the chunk's entries are all read; each header takes at
        # least one byte, so this ends.
        while self.entries < self.meta.num_values:
            if position >= end:
                raise CorruptPage(
                    f"{self.where}: the chunk ends after {self.entries} of its {self.meta.num_values} values",
                    position,
                )
            with _located(self.page_where):
                position = self.page(position, end)
            self.ordinal += 1
        self.check_no_page_left(position, end)
        count = self.entries
        return ChunkData(
            pieces=self.pieces,
            definition_levels=_joined(self.definition, count),
            repetition_levels=_joined(self.repetition, count),
            pages=self.extents,
        )

    def check_no_page_left(self, position: int, end: int) -> None:
        """The chunk's ``num_values`` entries are read: a data page still before the chunk's
        end means the pages' ``num_values`` (DataPageHeader, DataPageHeaderV2) sum to more
        than ColumnMetaData.num_values, "the number of values in this column" (parquet.thrift)
        (a page that claims more entries than it holds hides the next one). Bytes there that
        are no page header claim no values and are left alone; an encrypted chunk's headers
        are not decrypted for this."""
        if position >= end or self.crypto is not None:
            return
        try:
            header, _, _ = read_page_header(self.file, position, self.data_end)
        except ParquetError:
            return
        if header.type in (PageType.DATA_PAGE, PageType.DATA_PAGE_V2):
            raise CorruptPage(
                f"{self.page_where}: a data page starts after the pages before it already hold all "
                f"{self.meta.num_values} values of the chunk (ColumnMetaData.num_values): the pages' "
                "num_values sum to more",
                position,
            )

    def page(self, position: int, chunk_end: int) -> int:
        if self.crypto is None:
            header, body_start, body_end = read_page_header(
                self.file, position, self.data_end, region="the data region (the footer starts there)"
            )
            if body_end > chunk_end:
                breach(
                    PAGE_PAST_CHUNK,
                    f"{self.page_where}: the page ends {body_end - chunk_end} byte(s) past the end of "
                    f"its column chunk (declared to end at {chunk_end})",
                    position,
                )
            self.check_crc(header, body_start, body_end, position)
            body = Content(self.in_place, body_start, body_end, True, body_start)
        else:
            header, body = self.encrypted_page(position, chunk_end)
            body_start, body_end = body.stored_at, body.stored_at + header.compressed_page_size
        first_entry, first_value = self.entries, self.value_count
        if header.type == PageType.DICTIONARY_PAGE:
            self.dictionary_page(header, position, body)
        elif header.type == PageType.DATA_PAGE:
            self.data_page_v1(header, position, body)
        elif header.type == PageType.DATA_PAGE_V2:
            self.data_page_v2(header, position, body)
        if header.type != PageType.DICTIONARY_PAGE:
            self.data_pages += 1
        # INDEX_PAGE and page types from newer specs carry no values: skipped.
        self.extents.append(
            PageExtent(
                position,
                body_start,
                body_end,
                header,
                range(first_entry, self.entries),
                range(first_value, self.value_count),
            )
        )
        return body_end

    def check_crc(self, header: PageHeader, body_start: int, body_end: int, position: int) -> None:
        # The CRC covers the bytes as stored: encrypted ones in an encrypted column.
        if self.verify_checksums and header.crc is not None:
            verify_page_crc(header.crc, self.file[body_start:body_end], position)

    def encrypted_page(self, position: int, chunk_end: int) -> tuple[PageHeader, Content]:
        """Decrypt the header module at ``position``, then the page module after it.

        Which header comes first is the metadata's word, as in parquet-java: a
        chunk with a ``dictionary_page_offset`` starts with the dictionary page
        (its AAD has no page ordinal), every other page is a data page with the
        next page ordinal. A page in the wrong place fails authentication.
        """
        crypto = self.crypto
        assert crypto is not None
        first = self.dictionary is None and not self.data_pages
        dictionary = bool(self.meta.dictionary_page_offset) and first
        ordinal = None if dictionary else self.data_pages
        body_type, header_type = PAGE_MODULES[dictionary]
        name = "dictionary page" if dictionary else f"data page {ordinal}"
        plain, module = crypto.open(
            self.file, position, chunk_end, header_type, ordinal, what=f"{name} header (encrypted)"
        )
        header = decode_plaintext(PageHeader, plain, module, f"{name} header")
        if (header.type == PageType.DICTIONARY_PAGE) != dictionary:
            raise CorruptPage(f"the {name} header decrypts to a {_name(header.type)} page", position)
        if header.compressed_page_size < 0 or header.uncompressed_page_size < 0:
            raise CorruptPage(
                f"page sizes are negative (compressed {header.compressed_page_size}, "
                f"uncompressed {header.uncompressed_page_size})",
                position,
            )
        body_end = module.end + header.compressed_page_size
        if body_end > chunk_end:
            raise CorruptPage(
                f"encrypted page of {header.compressed_page_size} bytes runs {body_end - chunk_end} byte(s) "
                f"past the end of its column chunk",
                position,
            )
        self.check_crc(header, module.end, body_end, position)
        body, page_module = crypto.open(self.file, module.end, body_end, body_type, ordinal, what=name)
        if page_module.end != body_end:
            raise CorruptPage(
                f"compressed_page_size says {header.compressed_page_size} bytes, the encrypted page "
                f"module takes {page_module.end - module.end}",
                position,
            )
        return header, Content(body, 0, len(body), False, module.end)

    def dictionary_page(self, header: PageHeader, position: int, body: Content) -> None:
        page = header.dictionary_page_header
        if page is None:
            raise CorruptPage("DICTIONARY_PAGE header without dictionary_page_header", position)
        if self.dictionary is not None:
            raise CorruptPage("a second dictionary page in one column chunk", position)
        content = self.content(body, header.uncompressed_page_size)
        with content.errors():
            self.dictionary = decode_dictionary_entries(
                self.node.leaf_type,
                content.data,
                page.num_values,
                page.encoding,
                type_length=self.node.type_length,
                start=content.start,
                end=content.end,
            )

    def wanted(self, num_values: int, position: int) -> int:
        left = self.meta.num_values - self.entries
        if not 0 <= num_values <= left:
            raise CorruptPage(
                f"data page claims {num_values} values, the column chunk has {left} left", position
            )
        if num_values > MAX_PAGE_ENTRIES:
            raise UnsupportedFeature(
                f"a data page of {num_values} entries: this reader materialises at most "
                f"{MAX_PAGE_ENTRIES} per page",
                position,
            )
        return num_values

    def content(self, body: Content, uncompressed_size: int, *, compressed: bool = True) -> Content:
        """The page's bytes decompressed (``pages.page_content``), from the file or decrypted."""
        stored_at = None if body.in_file else body.stored_at
        return page_content(
            body.data,
            body.start,
            body.end,
            uncompressed_size,
            self.codec,
            compressed=compressed,
            stored_at=stored_at,
        )

    def data_page_v1(self, header: PageHeader, position: int, body: Content) -> None:
        page = header.data_page_header
        if page is None:
            raise CorruptPage("DATA_PAGE header without data_page_header", position)
        count = self.wanted(page.num_values, position)
        content = self.content(body, header.uncompressed_page_size)
        with content.errors():
            at = content.start
            repetition = definition = None
            if self.leaf.max_repetition_level:
                repetition, at = decode_levels_v1(
                    content.data,
                    count,
                    self.leaf.max_repetition_level,
                    page.repetition_level_encoding,
                    kind="repetition",
                    start=at,
                    end=content.end,
                )
            if self.leaf.max_definition_level:
                definition, at = decode_levels_v1(
                    content.data,
                    count,
                    self.leaf.max_definition_level,
                    page.definition_level_encoding,
                    kind="definition",
                    start=at,
                    end=content.end,
                )
        present = self.present(count, definition)
        self.check_dictionary(page.encoding, present, position)
        with content.errors():
            # Bytes after the last value are not read: the header's counts define
            # the page (fastparquet pads pages with zero bytes; parquet-java,
            # Arrow C++ and DuckDB ignore such padding too).
            self.add_values(self.page_values(page.encoding, content, at, present))
        self.add_levels(count, definition, repetition)

    def data_page_v2(self, header: PageHeader, position: int, body: Content) -> None:
        page = header.data_page_header_v2
        if page is None:
            raise CorruptPage("DATA_PAGE_V2 header without data_page_header_v2", position)
        count = self.wanted(page.num_values, position)
        repetition_length, definition_length = (
            page.repetition_levels_byte_length,
            page.definition_levels_byte_length,
        )
        levels_length = repetition_length + definition_length
        if repetition_length < 0 or definition_length < 0:
            raise CorruptPage(
                f"negative level byte lengths (repetition {repetition_length}, definition "
                f"{definition_length})",
                position,
            )
        stored_size = body.end - body.start  # compressed_page_size, less the encryption framing
        room = min(stored_size, header.uncompressed_page_size)
        if levels_length > room:
            raise CorruptPage(
                f"the level byte lengths (repetition {repetition_length} + definition "
                f"{definition_length} = {levels_length}) exceed the page's "
                f"{'compressed' if room == stored_size else 'uncompressed'} size {room}",
                position,
            )
        # Levels: never compressed, at their place in the file (or the decrypted page).
        definitions_at = body.start + repetition_length
        values_at = definitions_at + definition_length
        repetition = definition = None
        with body.errors():
            if self.leaf.max_repetition_level:
                repetition = decode_levels_v2(
                    body.data,
                    count,
                    self.leaf.max_repetition_level,
                    kind="repetition",
                    start=body.start,
                    end=definitions_at,
                )
            if self.leaf.max_definition_level:
                definition = decode_levels_v2(
                    body.data,
                    count,
                    self.leaf.max_definition_level,
                    kind="definition",
                    start=definitions_at,
                    end=values_at,
                )
        present = self.present(count, definition)
        self.check_v2_counts(page.num_nulls, page.num_rows, count, present, repetition, position)
        self.check_dictionary(page.encoding, present, position)
        compressed = page.is_compressed is not False  # "If missing it is considered compressed"
        values = replace(body, start=values_at)
        content = self.content(values, header.uncompressed_page_size - levels_length, compressed=compressed)
        with content.errors():
            self.add_values(self.page_values(page.encoding, content, content.start, present))
        self.add_levels(count, definition, repetition)

    def check_v2_counts(
        self,
        num_nulls: int,
        num_rows: int,
        count: int,
        present: int,
        repetition: np.ndarray | None,
        position: int,
    ) -> None:
        if num_nulls != count - present:
            raise CorruptPage(
                f"DataPageHeaderV2.num_nulls is {num_nulls}, but the definition levels leave "
                f"{count - present} of the {count} entries without a value",
                position,
            )
        rows = count if repetition is None else int(np.count_nonzero(repetition == 0))
        if num_rows != rows:
            breach(
                V2_NUM_ROWS,
                f"{self.page_where}: DataPageHeaderV2.num_rows is {num_rows}, but {rows} of the page's "
                f"entries start a row (repetition level 0)",
                position,
            )

    def present(self, count: int, definition: np.ndarray | None) -> int:
        """How many of ``count`` entries hold a value: those at the maximum definition level."""
        if definition is None:
            return count
        return int(np.count_nonzero(definition == self.leaf.max_definition_level))

    def check_dictionary(self, encoding: Encoding | int, present: int, position: int) -> None:
        if encoding in DICTIONARY_INDEX_ENCODINGS and self.dictionary is None and present:
            raise CorruptPage(
                f"a {_name(encoding)} data page with {present} value(s), but no dictionary page "
                f"precedes it in the column chunk",
                position,
            )

    def page_values(self, encoding: Encoding | int, content: Content, start: int, present: int) -> Values:
        """The page's ``present`` non-null values, decoded from ``content`` at ``start``."""
        if encoding in DICTIONARY_INDEX_ENCODINGS:
            if not present:
                return []
            assert self.dictionary is not None  # check_dictionary
            return lookup_array(self.dictionary, content.data, present, start=start, end=content.end)
        return decode_page_values(
            encoding,
            self.node.leaf_type,
            content.data,
            present,
            type_length=self.node.type_length,
            start=start,
            end=content.end,
        )

    def add_values(self, values: Values) -> None:
        self.pieces.append(owned(values, self.file))
        self.value_count += len(values)

    def add_levels(self, count: int, definition: np.ndarray | None, repetition: np.ndarray | None) -> None:
        self.definition.append(owned(definition, self.file) if definition is not None
                               else np.zeros(count, dtype=np.uint8))
        self.repetition.append(owned(repetition, self.file) if repetition is not None
                               else np.zeros(count, dtype=np.uint8))
        self.entries += count


def _joined(pieces: Sequence[np.ndarray], count: int) -> np.ndarray:
    if not pieces:
        return np.zeros(count, dtype=np.int64)
    return np.concatenate(pieces, dtype=np.int64)


def read_column_chunk(
    file: FileBytes,
    leaf: LeafColumn,
    chunk: ColumnChunk,
    num_rows: int,
    *,
    where: str,
    footer_start: int,
    verify_checksums: bool = False,
    crypto: ColumnDecryptor | None = None,
) -> ChunkData:
    """Every entry of one column chunk (see the module docstring).

    With ``verify_checksums``, every page that carries a ``crc`` is checked
    ('3.7.4 - Checksumming'); a mismatch raises ChecksumMismatch naming the page.
    ``crypto`` decrypts an encrypted chunk ('3.7.3'): its ColumnMetaData, page
    headers and pages; a module that does not authenticate is DecryptionFailed.
    """
    meta = check_chunk_metadata(leaf, chunk, num_rows, where, footer_start, crypto)
    if meta.num_values == 0:
        # Nothing to read. Writers differ in what offsets they give an empty
        # chunk (pyarrow writes data_page_offset 0 and no pages), so none are used.
        empty = np.zeros(0, dtype=np.int64)
        return ChunkData([], empty, empty)
    start, end = chunk_range(meta)
    if not (len(MAGIC) <= start and meta.total_compressed_size >= 0 and end <= footer_start):
        raise CorruptMetadata(
            f"{where}: chunk [{start}, {end}) lies outside the data region [{len(MAGIC)}, {footer_start})",
            footer_start,
        )
    return _ChunkReader(file, leaf, meta, where, verify_checksums, footer_start, crypto).read(start, end)
