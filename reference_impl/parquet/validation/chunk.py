"""One column chunk as the checks see it: its metadata, its decoded data, its order.

README.md, 'Column chunks' and 'Data Pages': a chunk is its pages one after
another; the per-page structures (page statistics, the page index, page
CRCs) count data pages only (parquet.thrift ``enum PageType``: DATA_PAGE and
DATA_PAGE_V2), in file order. README.md, 'Nulls': an entry is null when its
definition level is below the column's maximum. For a repeated column that is one
reading of "Count of null values"; the other counts only the null values inside the
innermost list (``rule_texts.NULL_COUNT_READINGS``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from reference_impl.common.decoded_values import DecodedValues
from reference_impl.common.mapped_file import FileBytes
from reference_impl.parquet.encryption.decryptor import ColumnDecryptor
from reference_impl.parquet.metadata.parquet_thrift import ColumnChunk, ColumnMetaData, FieldRepetitionType
from reference_impl.parquet.pages.chunk_reader import ChunkData, PageExtent
from reference_impl.parquet.pages.page import DATA_PAGE_TYPES
from reference_impl.parquet.schema.tree import LeafColumn
from reference_impl.parquet.validation.column_order import Order
from reference_impl.parquet.validation.findings import Report

__all__ = ["Chunk"]


@dataclass
class Chunk:
    """One column chunk, its decoded data and how to compare its values."""

    file: FileBytes
    leaf: LeafColumn
    chunk: ColumnChunk
    data: ChunkData
    order: Order
    report: Report
    meta: ColumnMetaData  # decrypted, for an encrypted chunk
    crypto: ColumnDecryptor | None = None

    @property
    def where(self) -> str:
        return self.report.where

    @cached_property
    def data_pages(self) -> list[PageExtent]:
        return [page for page in self.data.pages if page.header.type in DATA_PAGE_TYPES]

    def values(self, page: PageExtent | None = None) -> list[object]:
        """The non-null values of the chunk, or of one page."""
        if page is None:
            return self.data.values
        return self.data.values[page.values.start : page.values.stop]

    def decoded(self, page: PageExtent | None = None) -> DecodedValues:
        """``values`` as decoded: one numpy array where the column is fixed width."""
        if page is None:
            return self.data.decoded
        return self.data.decoded[page.values.start : page.values.stop]

    def levels(self, kind: str, page: PageExtent | None = None) -> np.ndarray:
        levels = getattr(self.data, f"{kind}_levels")
        return levels if page is None else levels[page.entries.start : page.entries.stop]

    def null_count(self, page: PageExtent | None = None) -> int:
        definition = self.levels("definition", page)
        return int(np.count_nonzero(definition < self.leaf.max_definition_level))

    def null_values_in_lists(self, page: PageExtent | None = None) -> int:
        """The null values inside the innermost list: the entries that reach its elements
        (definition level at least the innermost REPEATED field's) and stop short of the leaf."""
        definition = self.levels("definition", page)
        inside = (definition >= _innermost_repeated_level(self.leaf)) & (
            definition < self.leaf.max_definition_level)
        return int(np.count_nonzero(inside))


def _innermost_repeated_level(leaf: LeafColumn) -> int:
    """The definition level of an entry that holds an element of the innermost list."""
    level = reached = 0
    for node in leaf.nodes:
        level += node.repetition != FieldRepetitionType.REQUIRED
        if node.repetition == FieldRepetitionType.REPEATED:
            reached = level
    return reached
