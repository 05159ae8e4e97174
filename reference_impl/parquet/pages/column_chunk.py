"""Column chunks: one leaf column of one row group, as a sequence of pages.

Spec: parquet-format-docs.txt, '3.7.5 - Column Chunks' ("Column chunks are
composed of pages written back to back"), '3.7 - Data Pages', '3.7.2 -
Encodings' ('Dictionary Encoding': "The dictionary page is written first,
before the data pages of the column chunk"), parquet.thrift ``ColumnMetaData``
and ``PageEncodingStats``.

Writing (:func:`write_column_chunk`) takes the leaf's shredded column (values
plus definition and repetition levels, ``shredding``) and

1. cuts it into pages at record boundaries (entries with repetition level 0):
   a page is closed before the record that would exceed ``page_row_limit``
   records or take the page's estimated size past ``page_byte_limit`` (the
   estimate: the PLAIN size of the values plus the levels at their bit width;
   a page always holds at least one record);
2. with a dictionary encoding, adds each record's values to the dictionary;
   when a record would take the dictionary past ``dictionary_size_limit``, the
   current page is closed and that record and all later ones use the fallback
   encoding. So the chunk is: the dictionary page, the dictionary-encoded data
   pages written before the fallback, then the fallback pages (no dictionary
   page at all if even the first record does not fit);
3. encodes each page (``levels``, ``value_encodings`` or ``dictionary``
   indices; ``pages`` frames and compresses) and fills in ``ColumnMetaData``:
   every encoding used (values, dictionary page, levels), ``encoding_stats``
   per page type and encoding, both total sizes (headers included), the
   dictionary and first data page offsets, ``num_values`` (entries: levels,
   nulls included), the codec and the path.

Reading (:func:`read_column_chunk`) walks the pages from the first one (the
dictionary page if ``dictionary_page_offset`` says so, else the first data
page) until the chunk's ``num_values`` entries are read. It accepts the
dictionary page anywhere before the data pages that need it (a data page with
dictionary indices and no dictionary page before it is :class:`CorruptPage`),
any mix of page versions and encodings, pages split at any entry (v1), and it
skips INDEX_PAGE and page types it does not know ("Additional page types can be
added and safely skipped", '3.2 - Extensibility'). It decodes only as many
values as entries have the maximum definition level, and refuses a page of
more than ``MAX_PAGE_ENTRIES`` entries (a resource limit, see there). Every error names the
column, the row group and the page ordinal, and carries the byte offset.

Encrypted chunks ('3.7.3 - Parquet Modular Encryption'): each page header and
each page is an encrypted module (``encryption``), written with the chunk's
``ColumnEncryptor`` and read with its ``ColumnDecryptor``. The data page
ordinal of the AADs counts data pages from 0; the dictionary page has none and
must come first (the reader expects it where ``dictionary_page_offset`` says
there is one). ``compressed_page_size`` is the page module as stored, its
4-byte length included, and the CRC covers those stored (encrypted) bytes.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

import numpy as np

from reference_impl.parquet.encodings.dictionary import (
    DictionaryBuilder,
    decode_dictionary_page,
    encode_indices,
    lookup,
)
from reference_impl.parquet.encodings.plain import encode_plain
from reference_impl.parquet.encodings.rle_hybrid import bit_width_for
from reference_impl.parquet.encodings.values import decode_values, encode_values
from reference_impl.parquet.encryption.decryptor import ColumnDecryptor, decode_plaintext
from reference_impl.parquet.encryption.encryptor import ColumnEncryptor
from reference_impl.parquet.encryption.modules import ModuleType
from reference_impl.parquet.errors import CorruptMetadata, CorruptPage, ParquetError, UnsupportedFeature
from reference_impl.parquet.indexes.page_index import PageSummary
from reference_impl.parquet.lies import false_crc
from reference_impl.parquet.metadata.file_layout import MAGIC
from reference_impl.parquet.metadata.parquet_thrift import (
    ColumnChunk,
    ColumnMetaData,
    CompressionCodec,
    DataPageHeader,
    DataPageHeaderV2,
    Encoding,
    PageEncodingStats,
    PageHeader,
    PageType,
)
from reference_impl.parquet.metadata.thrift_struct import serialize
from reference_impl.parquet.nested.levels import (
    decode_levels_v1,
    decode_levels_v2,
    encode_levels_v1,
    encode_levels_v2,
)
from reference_impl.parquet.nested.shredding import ShreddedColumn
from reference_impl.parquet.pages.checksum import page_crc, verify_page_crc
from reference_impl.parquet.pages.compression import CODECS
from reference_impl.parquet.pages.page import (
    Content,
    EncodedPage,
    data_page_v1,
    data_page_v2,
    dictionary_page,
    page_content,
    read_page_header,
)
from reference_impl.parquet.schema.tree import LeafColumn
from reference_impl.parquet.statistics.chunk_statistics import (
    chunk_size_statistics,
    leaf_statistics,
    page_summary,
)
from reference_impl.parquet.writer_options import ColumnSettings

__all__ = ["ChunkData", "PageExtent", "WrittenChunk", "read_column_chunk", "write_column_chunk"]

DICTIONARY_DATA_ENCODINGS = (Encoding.PLAIN_DICTIONARY, Encoding.RLE_DICTIONARY)
# A resource limit, not a rule of the format: level runs can claim any number of
# entries in a few bytes (legitimately: one RLE run for a page of nulls), and this
# reader materialises a page's levels at once, so a page may hold at most this
# many entries (writers cut pages at about 20,000 rows by default).
MAX_PAGE_ENTRIES = 1 << 26
MAX_I32 = (1 << 31) - 1  # PageHeader sizes are i32


def _name(value: object) -> str:
    return getattr(value, "name", str(value))


# ---------------------------------------------------------------------------
# Writing
# ---------------------------------------------------------------------------


@dataclass
class _PagePlan:
    """The records of one page: its entries, its values, whether it uses the dictionary."""

    first_entry: int
    first_value: int
    dictionary: bool
    end_entry: int = 0
    end_value: int = 0
    rows: int = 0
    estimated_bytes: int = 0
    indices: list[int] = field(default_factory=list)


@dataclass
class WrittenChunk:
    """A column chunk as written: its ColumnChunk, a summary of each data page
    (placed: offsets and sizes are final) and the chunk's non-null values."""

    chunk: ColumnChunk
    pages: list[PageSummary]
    values: list[object]
    crypto: ColumnEncryptor | None = None  # the chunk's encryptor, for its page index and Bloom filter


def write_column_chunk(
    out: bytearray,
    leaf: LeafColumn,
    column: ShreddedColumn,
    settings: ColumnSettings,
    crypto: ColumnEncryptor | None = None,
) -> WrittenChunk:
    """Append the chunk's pages to ``out``; return its ColumnChunk (``file_offset`` 0,
    as parquet.thrift asks of writers that keep ColumnMetaData in the footer only)
    with the page summaries the page index is built from.

    With ``crypto``, every page and page header is an encrypted module
    ('3.7.3'; see ``_encrypted_body`` for what the sizes then count)."""
    node = leaf.node
    builder = (
        DictionaryBuilder(node.physical_type, node.type_length, settings.dictionary_size_limit)
        if settings.dictionary is not None
        else None
    )
    plans = _plan_pages(leaf, column, settings, builder)
    pages: list[EncodedPage] = []
    if builder is not None and any(plan.dictionary for plan in plans):
        page_encoding = (
            Encoding.PLAIN if settings.dictionary == Encoding.RLE_DICTIONARY else Encoding.PLAIN_DICTIONARY
        )
        pages.append(
            dictionary_page(
                builder.page_values(),
                len(builder.values),
                page_encoding,
                settings.codec,
                settings.compression_level,
            )
        )
    definition = np.asarray(column.definition_levels, dtype=np.int64)
    repetition = np.asarray(column.repetition_levels, dtype=np.int64)
    summaries = _page_summaries(leaf, column, definition, repetition, plans)
    for plan, summary in zip(plans, summaries, strict=True):
        page = _data_page(leaf, column, definition, repetition, plan, settings, builder)
        if settings.page_header_statistics:
            _page_header_of(page).statistics = leaf_statistics(
                leaf, summary.values, summary.null_count, settings
            )
        pages.append(page)

    chunk_start = len(out)
    dictionary_offset = data_offset = None
    total_uncompressed = 0
    placed: list[PageSummary] = []
    for page in pages:
        if crypto is not None:
            page = _encrypted_body(page, crypto, len(placed))
        if settings.page_checksum:
            crc = page_crc(page.body)
            page.header.crc = false_crc(crc) if "crc" in settings.lies else crc
        if page.header.type == PageType.DICTIONARY_PAGE:
            dictionary_offset = len(out)
        elif data_offset is None:
            data_offset = len(out)
        if crypto is None:
            encoded = page.to_bytes()
        else:
            encoded = _encrypted_header(page, crypto, len(placed)) + page.body
        if page.header.type != PageType.DICTIONARY_PAGE:
            summary = summaries[len(placed)]
            placed.append(replace(summary, offset=len(out), compressed_page_size=len(encoded)))
        total_uncompressed += (
            len(encoded) - page.header.compressed_page_size + page.header.uncompressed_page_size
        )
        out += encoded
    null_count = len(column.definition_levels) - len(column.values)
    statistics = leaf_statistics(leaf, column.values, null_count, settings) if settings.statistics else None
    meta = ColumnMetaData(
        type=node.physical_type,
        encodings=_encodings(leaf, pages, settings),
        path_in_schema=list(leaf.path),
        codec=settings.codec,
        num_values=len(column.definition_levels),
        total_uncompressed_size=total_uncompressed,
        total_compressed_size=len(out) - chunk_start,
        data_page_offset=data_offset if data_offset is not None else chunk_start,
        dictionary_page_offset=dictionary_offset,
        encoding_stats=_encoding_stats(pages),
        statistics=statistics,
        size_statistics=chunk_size_statistics(placed) if settings.size_statistics else None,
    )
    return WrittenChunk(ColumnChunk(file_offset=0, meta_data=meta), placed, column.values, crypto)


# '3.7.3', 4.4.2: the module types of a page and of its header.
_PAGE_MODULES = {
    True: (ModuleType.DICTIONARY_PAGE, ModuleType.DICTIONARY_PAGE_HEADER),
    False: (ModuleType.DATA_PAGE, ModuleType.DATA_PAGE_HEADER),
}


def _page_modules(page: EncodedPage, data_ordinal: int) -> tuple[ModuleType, ModuleType, int | None]:
    """The page's module type, its header's, and the page ordinal of their AADs
    (data pages only: the dictionary page has none)."""
    is_dictionary = page.header.type == PageType.DICTIONARY_PAGE
    body_type, header_type = _PAGE_MODULES[is_dictionary]
    return body_type, header_type, None if is_dictionary else data_ordinal


def _encrypted_body(page: EncodedPage, crypto: ColumnEncryptor, data_ordinal: int) -> EncodedPage:
    """The page with its stored bytes encrypted (compression first, '3 Technical Approach').

    ``compressed_page_size`` becomes the size of the encrypted module as stored,
    its 4-byte length included: parquet.thrift's "Compressed (and potentially
    encrypted) page size in bytes, not including this header", read as parquet-java
    and Arrow C++ write it. The CRC (set after this) covers these stored bytes.
    """
    body_type, _, ordinal = _page_modules(page, data_ordinal)
    body = crypto.module(body_type, page.body, ordinal)
    header = replace(page.header, compressed_page_size=_checked_i32(len(body)))
    return EncodedPage(header, body)


def _encrypted_header(page: EncodedPage, crypto: ColumnEncryptor, data_ordinal: int) -> bytes:
    _, header_type, ordinal = _page_modules(page, data_ordinal)
    return crypto.module(header_type, serialize(page.header), ordinal)


def _checked_i32(size: int) -> int:
    if size > MAX_I32:
        raise ValueError(f"an encrypted page of {size} bytes: more than a page header's i32 holds")
    return size


def _page_summaries(
    leaf: LeafColumn,
    column: ShreddedColumn,
    definition: np.ndarray,
    repetition: np.ndarray,
    plans: list[_PagePlan],
) -> list[PageSummary]:
    summaries = []
    first_row = 0
    for plan in plans:
        entries = slice(plan.first_entry, plan.end_entry)
        values = column.values[plan.first_value : plan.end_value]
        summaries.append(
            page_summary(leaf, values, definition[entries], repetition[entries], first_row, plan.rows)
        )
        first_row += plan.rows
    return summaries


def _page_header_of(page: EncodedPage) -> DataPageHeader | DataPageHeaderV2:
    return page.header.data_page_header or page.header.data_page_header_v2  # type: ignore[return-value]


def _plan_pages(
    leaf: LeafColumn, column: ShreddedColumn, settings: ColumnSettings, builder: DictionaryBuilder | None
) -> list[_PagePlan]:
    """Cut the column into pages, record by record (see the module docstring)."""
    repetition = np.asarray(column.repetition_levels, dtype=np.int64)
    definition = np.asarray(column.definition_levels, dtype=np.int64)
    entry_count = len(definition)
    record_starts = np.flatnonzero(repetition == 0).tolist() + [entry_count]
    # values_before[e]: how many values the entries before entry e hold.
    values_before = (
        np.concatenate([[0], np.cumsum(definition == leaf.max_definition_level)]).astype(np.int64).tolist()
    )
    if builder is None and settings.page_row_limit is None and settings.page_byte_limit is None:
        # Nothing to decide record by record: the chunk is one page.
        whole = _PagePlan(0, 0, dictionary=False, end_entry=entry_count, end_value=values_before[-1])
        whole.rows = len(record_starts) - 1
        return [whole]
    level_bits = bit_width_for(leaf.max_definition_level) + bit_width_for(leaf.max_repetition_level)
    node = leaf.node
    using_dictionary = builder is not None
    plans: list[_PagePlan] = []
    page: _PagePlan | None = None
    for first, end in zip(record_starts, record_starts[1:], strict=False):
        first_value, end_value = values_before[first], values_before[end]
        values = column.values[first_value:end_value]
        size = 0
        if settings.page_byte_limit is not None:
            size = len(encode_plain(node.physical_type, values, node.type_length))
            size += -(-(end - first) * level_bits // 8)
        indices = builder.try_add(values) if using_dictionary and builder is not None else None
        falls_back = using_dictionary and indices is None
        if page is not None and (
            (settings.page_row_limit is not None and page.rows >= settings.page_row_limit)
            or (
                settings.page_byte_limit is not None
                and page.estimated_bytes + size > settings.page_byte_limit
            )
            or falls_back
        ):
            page = None
        if falls_back:
            using_dictionary = False
        if page is None:
            page = _PagePlan(first, first_value, dictionary=using_dictionary)
            plans.append(page)
        page.end_entry, page.end_value = end, end_value
        page.rows += 1
        page.estimated_bytes += size
        if indices is not None:
            page.indices += indices
    return plans


def _data_page(
    leaf: LeafColumn,
    column: ShreddedColumn,
    definition: np.ndarray,
    repetition: np.ndarray,
    plan: _PagePlan,
    settings: ColumnSettings,
    builder: DictionaryBuilder | None,
) -> EncodedPage:
    node = leaf.node
    entries = slice(plan.first_entry, plan.end_entry)
    if plan.dictionary and builder is not None and settings.dictionary is not None:
        encoding = settings.dictionary
        values = encode_indices(plan.indices, len(builder.values))
    else:
        encoding = settings.encoding
        values = encode_values(
            encoding, node.physical_type, column.values[plan.first_value : plan.end_value], node.type_length
        )
    num_values = plan.end_entry - plan.first_entry
    if settings.page_version == 1:
        return data_page_v1(
            num_values=num_values,
            encoding=encoding,
            level_encoding=settings.level_encoding,
            repetition_levels=encode_levels_v1(
                repetition[entries], leaf.max_repetition_level, settings.level_encoding
            ),
            definition_levels=encode_levels_v1(
                definition[entries], leaf.max_definition_level, settings.level_encoding
            ),
            values=values,
            codec=settings.codec,
            level=settings.compression_level,
        )
    return data_page_v2(
        num_values=num_values,
        num_nulls=num_values - (plan.end_value - plan.first_value),
        num_rows=plan.rows,
        encoding=encoding,
        repetition_levels=encode_levels_v2(repetition[entries], leaf.max_repetition_level),
        definition_levels=encode_levels_v2(definition[entries], leaf.max_definition_level),
        values=values,
        codec=settings.codec,
        level=settings.compression_level,
        is_compressed=settings.v2_is_compressed,
    )


def _encodings(leaf: LeafColumn, pages: list[EncodedPage], settings: ColumnSettings) -> list[Encoding]:
    """ColumnMetaData.encodings: "Set of all encodings used for this column",
    the levels' included, in enum order."""
    used = {page.encoding for page in pages}
    if leaf.max_definition_level or leaf.max_repetition_level:
        used.add(settings.level_encoding if settings.page_version == 1 else Encoding.RLE)
    return sorted(used)


def _encoding_stats(pages: list[EncodedPage]) -> list[PageEncodingStats]:
    counts: dict[tuple[PageType, Encoding], int] = {}
    for page in pages:
        key = (page.header.type, page.encoding)
        counts[key] = counts.get(key, 0) + 1
    return [
        PageEncodingStats(page_type=page_type, encoding=encoding, count=count)
        for (page_type, encoding), count in counts.items()
    ]


# ---------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------


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

    A level array is all zeros when its maximum is 0 (the pages store none).
    """

    values: list[object]
    definition_levels: np.ndarray
    repetition_levels: np.ndarray
    pages: list[PageExtent] = field(default_factory=list)


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
    if meta.codec not in CODECS:
        raise UnsupportedFeature(f"{where}: compression codec {_name(meta.codec)}", footer_start)
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
        file: bytes,
        leaf: LeafColumn,
        meta: ColumnMetaData,
        where: str,
        verify_checksums: bool,
        crypto: ColumnDecryptor | None = None,
    ) -> None:
        self.file = file
        self.crypto = crypto
        self.data_pages = 0  # data pages read so far: the page ordinal of the AADs
        self.verify_checksums = verify_checksums
        self.leaf = leaf
        self.meta = meta
        self.where = where
        self.codec = CompressionCodec(meta.codec)
        self.node = leaf.node
        self.dictionary: list[object] | None = None
        self.values: list[object] = []
        self.definition: list[np.ndarray] = []
        self.repetition: list[np.ndarray] = []
        self.extents: list[PageExtent] = []
        self.entries = 0

    def read(self, start: int, end: int) -> ChunkData:
        position = start
        ordinal = 0
        # Pages until the chunk's entries are all read; each header takes at
        # least one byte, so this ends.
        while self.entries < self.meta.num_values:
            if position >= end:
                raise CorruptPage(
                    f"{self.where}: the chunk ends after {self.entries} of its {self.meta.num_values} values",
                    position,
                )
            with _located(f"{self.where}, page {ordinal}"):
                position = self.page(position, end)
            ordinal += 1
        count = self.entries
        return ChunkData(
            values=self.values,
            definition_levels=_joined(self.definition, count),
            repetition_levels=_joined(self.repetition, count),
            pages=self.extents,
        )

    def page(self, position: int, chunk_end: int) -> int:
        if self.crypto is None:
            header, body_start, body_end = read_page_header(self.file, position, chunk_end)
            self.check_crc(header, body_start, body_end, position)
            body = Content(self.file, body_start, body_end, True, body_start)
        else:
            header, body = self.encrypted_page(position, chunk_end)
            body_start, body_end = body.stored_at, body.stored_at + header.compressed_page_size
        first_entry, first_value = self.entries, len(self.values)
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
                range(first_value, len(self.values)),
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
        body_type, header_type = _PAGE_MODULES[dictionary]
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
            self.dictionary = decode_dictionary_page(
                self.node.physical_type,
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
            self.values += self.page_values(page.encoding, content, at, present)
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
            self.values += self.page_values(page.encoding, content, content.start, present)
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
            raise CorruptPage(
                f"DataPageHeaderV2.num_rows is {num_rows}, but {rows} of the page's entries start a "
                f"row (repetition level 0)",
                position,
            )

    def present(self, count: int, definition: np.ndarray | None) -> int:
        """How many of ``count`` entries hold a value: those at the maximum definition level."""
        if definition is None:
            return count
        return int(np.count_nonzero(definition == self.leaf.max_definition_level))

    def check_dictionary(self, encoding: Encoding | int, present: int, position: int) -> None:
        if encoding in DICTIONARY_DATA_ENCODINGS and self.dictionary is None and present:
            raise CorruptPage(
                f"a {_name(encoding)} data page with {present} value(s), but no dictionary page "
                f"precedes it in the column chunk",
                position,
            )

    def page_values(
        self, encoding: Encoding | int, content: Content, start: int, present: int
    ) -> list[object]:
        """The page's ``present`` non-null values, decoded from ``content`` at ``start``."""
        if encoding in DICTIONARY_DATA_ENCODINGS:
            if not present:
                return []
            return lookup(self.dictionary or [], content.data, present, start=start, end=content.end)
        return decode_values(
            encoding,
            self.node.physical_type,
            content.data,
            present,
            type_length=self.node.type_length,
            start=start,
            end=content.end,
        )

    def add_levels(self, count: int, definition: np.ndarray | None, repetition: np.ndarray | None) -> None:
        self.definition.append(definition if definition is not None else np.zeros(count, dtype=np.uint8))
        self.repetition.append(repetition if repetition is not None else np.zeros(count, dtype=np.uint8))
        self.entries += count


def _joined(pieces: Sequence[np.ndarray], count: int) -> np.ndarray:
    if not pieces:
        return np.zeros(count, dtype=np.int64)
    return np.concatenate([piece.astype(np.int64, copy=False) for piece in pieces])


def read_column_chunk(
    file: bytes,
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
    return _ChunkReader(file, leaf, meta, where, verify_checksums, crypto).read(start, end)
