"""Writing a column chunk: one leaf column of one row group, as a sequence of pages.

Spec: README.md, 'Column chunks' ("Column chunks are composed of pages
written back to back"), 'Data Pages'; Encodings.md, 'Dictionary Encoding
(PLAIN_DICTIONARY = 2 and RLE_DICTIONARY = 8)' ("The dictionary page is
written first, before the data pages of the column chunk"), parquet.thrift ``ColumnMetaData``
and ``PageEncodingStats``.

:func:`write_column_chunk` takes the leaf's shredded column (values plus
definition and repetition levels, ``shredding``) and

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
3. encodes each page (``levels``, ``encodings.values`` or ``dictionary``
   indices; ``page`` frames and compresses) and fills in ``ColumnMetaData``:
   every encoding used (values, dictionary page, levels), ``encoding_stats``
   per page type and encoding, both total sizes (headers included), the
   dictionary and first data page offsets, ``num_values`` (entries: levels,
   nulls included), the codec and the path.

Encrypted chunks ('3.7.3 - Parquet Modular Encryption'): each page header and
each page is an encrypted module, written with the chunk's ``ColumnEncryptor``
(``encrypted_pages``). The dictionary page comes first.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import numpy as np

from reference_impl.parquet.encodings.dictionary import DictionaryBuilder, encode_indices
from reference_impl.parquet.encodings.plain import encode_plain
from reference_impl.parquet.encodings.rle_hybrid import bit_width_for
from reference_impl.parquet.encodings.values import encode_values
from reference_impl.parquet.encryption.encryptor import ColumnEncryptor
from reference_impl.parquet.indexes.page_index import PageSummary
from reference_impl.parquet.lies import false_crc
from reference_impl.parquet.metadata.binary_protocol_extensions import TEST_EXTENSION
from reference_impl.parquet.metadata.parquet_thrift import (
    ColumnChunk,
    ColumnMetaData,
    DataPageHeader,
    DataPageHeaderV2,
    Encoding,
    PageEncodingStats,
    PageType,
)
from reference_impl.parquet.nested.levels import encode_levels_v1, encode_levels_v2
from reference_impl.parquet.nested.shredding import ShreddedColumn
from reference_impl.parquet.pages.checksum import page_crc
from reference_impl.parquet.pages.encrypted_pages import encrypted_body, encrypted_header
from reference_impl.parquet.pages.page import EncodedPage, data_page_v1, data_page_v2, dictionary_page
from reference_impl.parquet.schema.tree import LeafColumn
from reference_impl.parquet.statistics.chunk_statistics import (
    chunk_geospatial_statistics,
    chunk_size_statistics,
    leaf_statistics,
    page_summary,
)
from reference_impl.parquet.writer_options import ColumnSettings

__all__ = ["WrittenChunk", "write_column_chunk"]


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
    ('3.7.3'; see ``encrypted_pages`` for what the sizes then count)."""
    node = leaf.node
    builder = (
        DictionaryBuilder(node.leaf_type, node.type_length, settings.dictionary_size_limit)
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
            page = encrypted_body(page, crypto, len(placed))
        if settings.page_header_extension:
            page.header.extension_bytes = TEST_EXTENSION
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
            encoded = encrypted_header(page, crypto, len(placed)) + page.body
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
        type=node.leaf_type,
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
        geospatial_statistics=(
            chunk_geospatial_statistics(leaf, column.values) if settings.statistics else None
        ),
    )
    return WrittenChunk(ColumnChunk(file_offset=0, meta_data=meta), placed, column.values, crypto)


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
            size = len(encode_plain(node.leaf_type, values, node.type_length))
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
            encoding, node.leaf_type, column.values[plan.first_value : plan.end_value], node.type_length
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


def _encodings(
    leaf: LeafColumn, pages: list[EncodedPage], settings: ColumnSettings
) -> list[Encoding | int]:
    """ColumnMetaData.encodings: "Set of all encodings used for this column",
    the levels' included, in enum order."""
    used = {page.encoding for page in pages}
    if leaf.max_definition_level or leaf.max_repetition_level:
        used.add(settings.level_encoding if settings.page_version == 1 else Encoding.RLE)
    return sorted(used)


def _encoding_stats(pages: list[EncodedPage]) -> list[PageEncodingStats]:
    counts: dict[tuple[PageType | int, Encoding | int], int] = {}
    for page in pages:
        key = (page.header.type, page.encoding)
        counts[key] = counts.get(key, 0) + 1
    return [
        PageEncodingStats(page_type=page_type, encoding=encoding, count=count)
        for (page_type, encoding), count in counts.items()
    ]
