"""The FILE values of a Parquet file, each resolved as LogicalTypes.md 'Resolution' says.

Spec: LogicalTypes.md, 'FILE' ('Resolution'). Every FILE-annotated group of the
schema, at any depth (inside lists and maps too), is found in every row; each
non-null value is resolved by ``schema.file_type.resolve`` against the file's own
bytes: the inline bytes, a self-reference's range of this file, or an external
reference (its ``uri`` and range, not fetched). ``validate`` checks the values
(``validation.file_type_checks``); ``conformance read --resolve-file-references``
prints them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from reference_impl.common.leniency import reading
from reference_impl.common.mapped_file import FileBytes, close_file, map_file
from reference_impl.parquet.encryption.properties import FileDecryptionProperties
from reference_impl.parquet.metadata.parquet_thrift import FileMetaData
from reference_impl.parquet.reader import read_footer_with_decryptor, read_parquet
from reference_impl.parquet.schema.file_type import Resolution, is_file, resolve, typed_fields
from reference_impl.parquet.schema.nested_types import groups_where, logical_shape, to_logical
from reference_impl.parquet.schema.tree import SchemaNode, schema_tree_from_elements

__all__ = ["FileReference", "file_groups", "file_references"]


@dataclass(frozen=True)
class FileReference:
    """One non-null FILE value: where it is, its fields (those the table names and types,
    raw: strings as UTF-8 bytes) and what it resolves to."""

    row_group: int
    row: int  # within the row group
    column: str  # the FILE group's dotted path
    value: dict[str, Any]
    resolution: Resolution


def file_groups(node: SchemaNode, path: str = "") -> Iterator[tuple[str, SchemaNode]]:
    """Every FILE-annotated group of the schema tree under ``node``, with its dotted path."""
    for child in node.children or ():
        child_path = f"{path}.{child.name}" if path else child.name
        if child.is_group and is_file(child):
            yield child_path, child
        else:
            yield from file_groups(child, child_path)


def file_references(
    source: str | os.PathLike | FileBytes, *, decryption: FileDecryptionProperties | None = None
) -> list[FileReference]:
    """Every non-null FILE value of ``source``, in row order, resolved against its bytes
    (a path mapped, as the reader maps it)."""
    file = map_file(source) if isinstance(source, str | os.PathLike) else source
    metadata, footer_start, _ = read_footer_with_decryptor(file, decryption=decryption)
    references = list(_references(file, metadata, footer_start, decryption))
    if file is not source:
        close_file(file)  # unmapped once read; after an error, when the error is dropped
    return references


def _references(file: FileBytes, metadata: FileMetaData, footer_start: int,
                 decryption: FileDecryptionProperties | None) -> Iterator[FileReference]:
    tree = schema_tree_from_elements(metadata.schema, offset=footer_start)
    tops_named = {path.split(".")[0] for path, _ in file_groups(tree)}
    if not tops_named:
        return
    tops = [f for f in logical_shape(tree, offset=footer_start).fields if f.node.name in tops_named]
    with reading():  # a reader's leniency; validate reports its breaches from its own walk
        records = read_parquet(file, decryption=decryption, columns=[t.node.name for t in tops]).records
    first_row = 0
    for ordinal, row_group in enumerate(metadata.row_groups):
        for row in range(row_group.num_rows):
            for top in tops:
                logical = to_logical(top, records[first_row + row].get(top.node.name))
                for path, group, raw in groups_where(top, logical, top.node.name, is_file):
                    value = {name: raw.get(name) for name in typed_fields(group.node)}
                    yield FileReference(ordinal, row, path, value, resolve(value, file))
        first_row += row_group.num_rows
