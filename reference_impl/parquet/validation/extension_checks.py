"""Where does the file carry binary protocol extension bytes?

Spec: BinaryProtocolExtensions.md. Extension bytes are a binary field 32767
appended to a Thrift struct (``metadata.binary_protocol_extensions``, which
also explains the two spellings of its id); "Existing readers will ignore
these extensions", and the reference reader does: the rows of a file with
extensions are those of the file without them.

Their presence is allowed, so the finding, kind ``thrift.extension``, only
says where they are: the struct (its path from FileMetaData, e.g.
``FileMetaData.row_groups[0].columns[1].meta_data``, or a chunk's page
header), the byte offset of the field header and the number of bytes. It
quotes the sentence that permits them (``validation.rule_texts``), strength
MAY, so its severity is ``advisory``. The ColumnMetaData of an encrypted column is decrypted first: its
offset is within the decrypted module.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

from reference_impl.parquet.metadata.binary_protocol_extensions import is_extension
from reference_impl.parquet.metadata.parquet_thrift import FileMetaData
from reference_impl.parquet.metadata.thrift_compact import FieldHeader
from reference_impl.parquet.metadata.thrift_struct import ThriftStruct
from reference_impl.parquet.pages.page import DATA_PAGE_TYPES
from reference_impl.parquet.validation.chunk import Chunk
from reference_impl.parquet.validation.findings import Finding
from reference_impl.parquet.validation.rule_checks import FILE_COLUMN, FILE_ROW_GROUP
from reference_impl.parquet.validation.rule_texts import rule_text

__all__ = ["KIND", "check_footer_extensions", "check_page_header_extensions"]

KIND = "thrift.extension"


def extensions(struct: ThriftStruct, path: str) -> Iterator[tuple[str, FieldHeader]]:
    """Every extension field of ``struct`` and of the structs inside it, with the struct's path."""
    for header in struct.skipped_fields:
        if is_extension(header.field_id, header.wire_type):
            yield path, header
    for field in dataclasses.fields(struct):
        yield from _inside(getattr(struct, field.name), f"{path}.{field.name}")


def _inside(value: Any, path: str) -> Iterator[tuple[str, FieldHeader]]:
    if isinstance(value, ThriftStruct):
        yield from extensions(value, path)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _inside(item, f"{path}[{index}]")


def check_footer_extensions(metadata: FileMetaData) -> list[Finding]:
    """The extensions of FileMetaData and every struct in it (ColumnMetaData included)."""
    return [Finding(KIND, rule_text(KIND), FILE_COLUMN, FILE_ROW_GROUP, None, _message(path, header))
            for path, header in extensions(metadata, "FileMetaData")]


def check_page_header_extensions(state: Chunk) -> list[Finding]:
    """The extensions of the chunk's page headers (data page ordinal as the finding's page;
    a dictionary page's finding has none)."""
    findings = []
    data_pages = 0
    for page in state.data.pages:
        data_ordinal = data_pages if page.header.type in DATA_PAGE_TYPES else None
        for path, header in extensions(page.header, "PageHeader"):
            findings.append(state.report.at(data_ordinal)(KIND, _message(path, header)))
        data_pages += data_ordinal is not None
    return findings


def _message(path: str, header: FieldHeader) -> str:
    return (f"{path} carries binary protocol extension bytes (field id {header.field_id}) at byte offset "
            f"{header.offset}, which readers ignore; {rule_text(KIND).quote()}")
