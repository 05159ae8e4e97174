"""Page CRCs against the pages as stored.

README.md, 'Checksumming', and parquet.thrift ``PageHeader.crc``: "All page
types can have a CRC"; it is the CRC32 of the page's bytes after its header,
as stored (compressed, encrypted). Every page that carries one is verified
(``checksum.verify_page_crc``), one finding per bad page.

A chunk that cannot be decoded may owe it to damaged bytes: then its page
headers are walked alone (:func:`crc_of_undecodable_chunk`), so that a CRC
can say so.
"""

from __future__ import annotations

from typing import Any

from reference_impl.common.mapped_file import FileBytes
from reference_impl.parquet.errors import ChecksumMismatch, ParquetError
from reference_impl.parquet.metadata.file_layout import MAGIC
from reference_impl.parquet.metadata.parquet_thrift import ColumnChunk
from reference_impl.parquet.pages.checksum import verify_page_crc
from reference_impl.parquet.pages.chunk_reader import chunk_range
from reference_impl.parquet.pages.page import DATA_PAGE_TYPES, read_page_header
from reference_impl.parquet.validation.chunk import Chunk
from reference_impl.parquet.validation.findings import Finding, Report

__all__ = ["check_crcs", "crc_of_undecodable_chunk"]


def check_crcs(state: Chunk) -> list[Finding]:
    """A finding per page of a decoded chunk whose stored crc is wrong."""
    return _crc_findings(
        state.file,
        [(page.offset, page.body_start, page.end, page.header) for page in state.data.pages],
        state.report,
    )


def crc_of_undecodable_chunk(
    file: FileBytes, chunk: ColumnChunk, footer_start: int, report: Report
) -> list[Finding]:
    """CRC findings of a chunk whose pages cannot be decoded, walking its page headers only.

    A chunk whose range leaves the data region has no pages to walk: its
    metadata, not its bytes, is what is wrong.
    """
    if chunk.meta_data is None:
        return []
    position, end = chunk_range(chunk.meta_data)
    if not len(MAGIC) <= position <= end <= footer_start:
        return []
    pages = []
    try:
        while position < end:
            header, body_start, body_end = read_page_header(file, position, end)
            pages.append((position, body_start, body_end, header))
            position = body_end
    except ParquetError:
        pass  # the pages up to a broken header are what can be judged
    return _crc_findings(file, pages, report)


def _crc_findings(file: FileBytes, pages: list[tuple[int, int, int, Any]], report: Report) -> list[Finding]:
    """A finding per page (offset, body start, end, header) whose stored crc is wrong."""
    findings = []
    data_ordinal = 0
    for offset, body_start, end, header in pages:
        ordinal = data_ordinal if header.type in DATA_PAGE_TYPES else None
        data_ordinal += ordinal is not None
        if header.crc is None:
            continue
        try:
            verify_page_crc(header.crc, file[body_start:end], offset)
        except ChecksumMismatch as error:
            name = getattr(header.type, "name", header.type)
            findings.append(
                report.at(ordinal)("crc", f"{name} page at offset {offset}: {error.message}")
            )
    return findings
