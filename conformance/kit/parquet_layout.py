"""What a Parquet file holds, leaf by leaf: the physical type each leaf was written as
and the encodings of its data pages.

Spec: parquet.thrift `SchemaElement` (type, type_length), `PageHeader` and
`DataPageHeader.encoding`; README.md 'Data Pages'. Some writers choose a leaf's physical
type or a page's encoding by themselves; an adapter whose library offers no such
option reads what it wrote here and answers `unsupported` when it is not what the case
asks (`ColumnMetaData.encodings` cannot tell: it mixes in the level encodings). Read with
the reference's metadata decoder, no value is decoded.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import cast

from reference_impl.parquet.metadata.parquet_thrift import DataPageHeader, Encoding, PageType
from reference_impl.parquet.pages.chunk_reader import chunk_range
from reference_impl.parquet.pages.page import read_page_header
from reference_impl.parquet.reader import read_footer
from reference_impl.parquet.schema.tree import leaf_columns, schema_tree_from_elements

DATA_PAGE_V2 = "DATA_PAGE_V2"  # a v2 data page, named as such whatever its encoding


@dataclass(frozen=True)
class LeafLayout:
    """One leaf column as written: its dotted path, physical type and FIXED_LEN_BYTE_ARRAY
    length, and the encodings of its data pages over every row group (a v2 page counts as
    `DATA_PAGE_V2`)."""

    path: str
    physical: str
    type_length: int | None
    data_page_encodings: frozenset[str]


def parquet_layout(path: Path | str) -> list[LeafLayout]:
    """The leaves of the unencrypted Parquet file at `path`, in schema order."""
    data = Path(path).read_bytes()
    metadata, _ = read_footer(data)
    leaves = leaf_columns(schema_tree_from_elements(metadata.schema))
    encodings: list[set[str]] = [set() for _ in leaves]
    for row_group in metadata.row_groups:
        for leaf, chunk in enumerate(row_group.columns):
            if chunk.meta_data is None:
                raise ValueError(f"{path}: column chunk {leaf} has no plaintext metadata "
                                 "(an encrypted column); parquet_layout reads plaintext files")
            encodings[leaf] |= _data_page_encodings(data, *chunk_range(chunk.meta_data))
    return [LeafLayout(".".join(leaf.path), leaf.node.leaf_type.name, leaf.node.type_length,
                       frozenset(found)) for leaf, found in zip(leaves, encodings, strict=True)]


def _data_page_encodings(data: bytes, position: int, end: int) -> set[str]:
    found = set()
    while position < end:
        header, _, position = read_page_header(data, position, end)
        if header.type == PageType.DATA_PAGE:
            found.add(Encoding(cast(DataPageHeader, header.data_page_header).encoding).name)
        elif header.type == PageType.DATA_PAGE_V2:
            found.add(DATA_PAGE_V2)
    return found
