"""The structures written outside the row groups: Bloom filters and the page index.

Spec:

* BloomFilter.md, 'File Format': "The Bloom filter data can be stored
  before the page indexes after all row groups", or "between row groups";
  ``ColumnMetaData.bloom_filter_offset`` / ``bloom_filter_length`` locate a
  column chunk's header + bitset;
* PageIndex.md, 'Technical Approach': "The new index structures are stored separately from
  RowGroup, near the footer", located by ``ColumnChunk.column_index_offset`` /
  ``_length`` and ``offset_index_offset`` / ``_length``, and "the OffsetIndexes
  for each column in a RowGroup are stored together".

The layout written here, after the last row group::

    [Bloom filters, row group by row group, column by column]   (placement "after_row_groups")
    ColumnIndex of every chunk, row group by row group, column by column
    OffsetIndex of every chunk, in the same order
    FileMetaData

With placement "between_row_groups", each row group's Bloom filters follow
its column chunks instead. For an encrypted column ('3.7.3 - Parquet Modular
Encryption'), its ColumnIndex and OffsetIndex are each one encrypted module,
and its Bloom filter two (header, then bitset); the lengths in the metadata
count the modules as stored. A chunk gets a ColumnIndex only when its column has
a sort order (``page_index.build_column_index`` returns None otherwise); every
chunk gets an OffsetIndex.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from reference_impl.parquet.encryption.encryptor import ColumnEncryptor
from reference_impl.parquet.encryption.modules import ModuleType
from reference_impl.parquet.indexes.bloom_filter import build_bloom_filter, serialize_bloom_filter
from reference_impl.parquet.indexes.page_index import build_column_index, build_offset_index
from reference_impl.parquet.lies import false_bloom_filter, false_column_index, false_nan_counts
from reference_impl.parquet.metadata.parquet_thrift import ColumnIndex, OffsetIndex
from reference_impl.parquet.metadata.thrift_struct import serialize
from reference_impl.parquet.pages.chunk_writer import WrittenChunk
from reference_impl.parquet.schema.tree import LeafColumn
from reference_impl.parquet.statistics.chunk_statistics import leaf_column_order
from reference_impl.parquet.writer_options import WriterOptions

__all__ = ["write_bloom_filters", "write_page_indexes"]


def write_bloom_filters(
    out: bytearray, leaves: Sequence[LeafColumn], chunks: Sequence[WrittenChunk], options: WriterOptions
) -> None:
    """Append the Bloom filter of each chunk whose column asks for one; set its location."""
    for leaf, written in zip(leaves, chunks, strict=True):
        if not options.for_column(leaf.dotted_path).bloom_filter:
            continue
        node = leaf.node
        bloom = build_bloom_filter(
            node.leaf_type,
            written.values,
            node.type_length,
            ndv=options.bloom_filter_ndv,
            fpp=options.bloom_filter_fpp,
        )
        if "bloom_filter" in options.lies:
            bloom = false_bloom_filter(bloom)
        stored = serialize_bloom_filter(bloom)
        if written.crypto is not None:
            stored = _encrypted_bloom_filter(stored, bloom.num_bytes, written.crypto)
        meta = written.chunk.meta_data
        meta.bloom_filter_offset, meta.bloom_filter_length = len(out), len(stored)  # type: ignore[union-attr]
        out += stored


def write_page_indexes(
    out: bytearray,
    leaves: Sequence[LeafColumn],
    row_groups: Sequence[Sequence[WrittenChunk]],
    options: WriterOptions,
) -> None:
    """Append every chunk's ColumnIndex, then every chunk's OffsetIndex; set their locations."""
    for chunks in row_groups:
        for leaf, written in zip(leaves, chunks, strict=True):
            index = _column_index(leaf, written, options)
            if index is not None:
                stored = _module(written, ModuleType.COLUMN_INDEX, serialize(index))
                written.chunk.column_index_offset, written.chunk.column_index_length = len(out), len(stored)
                out += stored
    for chunks in row_groups:
        for written in chunks:
            stored = _module(written, ModuleType.OFFSET_INDEX, serialize(_offset_index(written, options)))
            written.chunk.offset_index_offset, written.chunk.offset_index_length = len(out), len(stored)
            out += stored


def _module(written: WrittenChunk, module_type: ModuleType, serialized: bytes) -> bytes:
    """The structure as stored: encrypted with the chunk's key if its column is encrypted."""
    return serialized if written.crypto is None else written.crypto.module(module_type, serialized)


def _encrypted_bloom_filter(stored: bytes, bitset_size: int, crypto: ColumnEncryptor) -> bytes:
    """Header and bitset as two modules, back to back ('3.7.3', 4.4.2: BloomFilter Header and
    Bitset); ``bloom_filter_length`` then covers both."""
    header, bitset = stored[:-bitset_size], stored[-bitset_size:]
    return crypto.module(ModuleType.BLOOM_FILTER_HEADER, header) + crypto.module(
        ModuleType.BLOOM_FILTER_BITSET, bitset
    )


def _column_index(leaf: LeafColumn, written: WrittenChunk, options: WriterOptions) -> ColumnIndex | None:
    node = leaf.node
    index = build_column_index(
        written.pages,
        node.leaf_type,
        node.logical_type,
        node.converted_type,
        node.type_length,
        column_order=leaf_column_order(leaf, options.for_column(leaf.dotted_path)),
        truncate_length=options.statistics_truncate_length,
    )
    if index is None:
        return None
    if not options.size_statistics:
        index = replace(index, repetition_level_histograms=None, definition_level_histograms=None)
    if "nan_count" in options.lies:
        index = false_nan_counts(index)
    return false_column_index(index) if "page_index" in options.lies else index


def _offset_index(written: WrittenChunk, options: WriterOptions) -> OffsetIndex:
    index = build_offset_index(written.pages)
    if not options.size_statistics:
        index = replace(index, unencoded_byte_array_data_bytes=None)
    return index
