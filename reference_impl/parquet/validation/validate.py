"""Is the metadata of a Parquet file true to its data?

:func:`validate` reads every column chunk of any file (from any writer) with the
reference reader and compares each structure that summarises the data with
the data itself: chunk and page statistics (parquet.thrift ``struct
Statistics``), the page index (PageIndex.md, 'Technical Approach'), size
statistics (``struct SizeStatistics``), Bloom filters (BloomFilter.md,
'Problem statement') and page CRCs (README.md, 'Checksumming'). Each item that
does not hold is a :class:`~reference_impl.parquet.validation.findings.Finding`;
``findings`` lists the kinds and severities, the other modules of this package
the checks.

Decisions:

* Under TYPE_ORDER, NaN values take no part in bound checks (the order gives
  them no place), and -0.0 equals +0.0 ("signed comparison of the represented
  value"); under IEEE_754_TOTAL_ORDER every value has its place (-0 < +0, NaNs
  by sign and payload), NaNs bounding a chunk or page only when it holds
  nothing else.
* Findings about a chunk are judged against its data as stored. A page whose
  CRC fails holds other bytes than the writer's, so findings next to a ``crc``
  finding may stem from that. When a chunk cannot be decoded at all and some
  page of it fails its CRC, only the ``crc`` findings are reported for it; a
  chunk that cannot be decoded without such an explanation raises the reader's
  error, as does a file whose footer or schema cannot be read, or a row group whose
  columns' levels do not assemble into records (the reader's ``InvalidLevelData``).
* Whatever the bytes, ``validate`` returns findings or raises a
  :class:`~reference_impl.parquet.errors.ParquetError`, never another
  exception.
* Encrypted files (Encryption.md, '5. File Format') are validated with
  ``decryption`` (the reader's ``FileDecryptionProperties``): statistics from
  the decrypted ColumnMetaData, the page index and Bloom filters decrypted
  (``encryption.indexes``), CRCs over the pages as stored (encrypted). A
  column whose key is not available raises the reader's ``MissingKey``; a
  module that does not authenticate raises ``DecryptionFailed``, never a
  finding: the file is not the writer's.
* A rule the file breaks that has a single reading (``reference_impl.common.leniency``)
  is read past, as the reader does, and reported as a ``rule.<id>`` finding
  (``rule_checks``): every read of ``validate`` is inside one ``reading`` block.
"""

from __future__ import annotations

import os

from reference_impl.common.decoded_budget import budget_unit
from reference_impl.common.leniency import reading
from reference_impl.common.mapped_file import FileBytes, close_file, map_file, release_pages
from reference_impl.parquet.encryption.decryptor import ColumnDecryptor
from reference_impl.parquet.encryption.properties import FileDecryptionProperties
from reference_impl.parquet.errors import CorruptMetadata, ParquetError
from reference_impl.parquet.metadata.parquet_thrift import ColumnChunk, RowGroup
from reference_impl.parquet.pages.chunk_reader import ChunkData, read_column_chunk
from reference_impl.parquet.reader import (
    check_file_num_rows,
    check_row_group,
    expect_decompressed,
    read_footer_with_decryptor,
)
from reference_impl.parquet.schema.flat import is_flat
from reference_impl.parquet.schema.tree import LeafColumn, SchemaNode, leaf_columns, schema_tree_from_elements
from reference_impl.parquet.validation.bloom_filter_checks import check_bloom_filter
from reference_impl.parquet.validation.chunk import Chunk
from reference_impl.parquet.validation.column_order import Order, column_order
from reference_impl.parquet.validation.crc_checks import check_crcs, crc_of_undecodable_chunk
from reference_impl.parquet.validation.extension_checks import (
    check_footer_extensions,
    check_page_header_extensions,
)
from reference_impl.parquet.validation.file_type_checks import check_file_type
from reference_impl.parquet.validation.findings import (
    ADVISORY,
    AMBIGUOUS,
    NONCONFORMING,
    SEVERITIES,
    UNTRUE,
    Finding,
    Report,
)
from reference_impl.parquet.validation.geospatial_statistics_checks import check_geospatial_statistics
from reference_impl.parquet.validation.page_index_checks import check_column_index, check_offset_index
from reference_impl.parquet.validation.rule_checks import RuleFindings
from reference_impl.parquet.validation.size_statistics_checks import check_size_statistics
from reference_impl.parquet.validation.statistics_checks import check_statistics
from reference_impl.parquet.validation.string_checks import check_utf8_strings
from reference_impl.parquet.validation.type_rule_checks import check_type_rules
from reference_impl.parquet.validation.unknown_enum_checks import check_unknown_enum_values
from reference_impl.parquet.validation.variant_shredding_checks import check_variant_shredding

__all__ = ["ADVISORY", "AMBIGUOUS", "NONCONFORMING", "SEVERITIES", "UNTRUE", "Finding", "validate"]

# The checks of a decoded chunk beyond its statistics, in report order.
CHUNK_CHECKS = (check_column_index, check_offset_index, check_size_statistics, check_bloom_filter, check_crcs,
                check_unknown_enum_values, check_utf8_strings, check_geospatial_statistics,
                check_page_header_extensions)


def validate(
    source: str | os.PathLike | bytes, *, decryption: FileDecryptionProperties | None = None
) -> list[Finding]:
    """Every finding about ``source``'s metadata (see the module docstring).

    Raises the reader's ParquetError when the file cannot be read.
    """
    file = source if isinstance(source, bytes) else map_file(source)
    with reading() as breaches:
        findings = _findings(file, decryption, RuleFindings(breaches))
    # Unmapped once checked; after an error, when the error (whose frames may still view
    # the map) is dropped, as the reader does.
    close_file(file)
    return findings


def _findings(
    file: FileBytes, decryption: FileDecryptionProperties | None, rules: RuleFindings
) -> list[Finding]:
    metadata, footer_start, decryptor = read_footer_with_decryptor(file, decryption=decryption)
    check_file_num_rows(metadata, footer_start)
    tree = schema_tree_from_elements(metadata.schema, offset=footer_start)
    leaves = leaf_columns(tree)
    orders = [column_order(metadata, leaf, len(leaves)) for leaf in leaves]
    findings = check_type_rules(leaves) + check_footer_extensions(metadata) + rules.at()
    for ordinal, row_group in enumerate(metadata.row_groups):
        if len(row_group.columns) != len(leaves):
            raise CorruptMetadata(
                f"row group {ordinal} has {len(row_group.columns)} column chunks for {len(leaves)} columns",
                footer_start,
            )
        decoded: list[ChunkData | None] = []  # one row group's chunks at a time
        with budget_unit(f"row group {ordinal}"):
            expect_decompressed(row_group, ordinal, leaves, footer_start)
            for leaf, chunk, order in zip(leaves, row_group.columns, orders, strict=True):
                report = Report(leaf.dotted_path, ordinal)
                crypto = decryptor.column(leaf, chunk, ordinal) if decryptor is not None else None
                chunk_findings, data = _validate_chunk(
                    file, leaf, chunk, row_group.num_rows, footer_start, order, report, crypto
                )
                findings += chunk_findings + rules.at(leaf.dotted_path, ordinal)
                decoded.append(data)
        _check_records(tree, decoded, row_group, footer_start)
        release_pages(file)  # as the reader does after each row group
    findings += check_variant_shredding(file, decryption=decryption)
    findings += check_file_type(file, decryption=decryption)
    return findings + rules.at()


def _check_records(
    tree: SchemaNode, decoded: list[ChunkData | None], row_group: RowGroup, footer_start: int
) -> None:
    """The reader's InvalidLevelData when a row group's levels do not make records (README.md,
    'Nested Encoding'): every leaf may be valid alone while together they are not. A row
    group with a chunk only its CRC findings explain is not assembled."""
    chunks = [data for data in decoded if data is not None]
    if not is_flat(tree) and len(chunks) == len(decoded):
        check_row_group(tree, chunks, row_group, footer_start)  # the walk's errors, no records


def _validate_chunk(
    file: FileBytes,
    leaf: LeafColumn,
    chunk: ColumnChunk,
    num_rows: int,
    footer_start: int,
    order: Order,
    report: Report,
    crypto: ColumnDecryptor | None = None,
) -> tuple[list[Finding], ChunkData | None]:
    """The chunk's findings, and its decoded data (None when only its CRC findings explain
    why it cannot be decoded)."""
    try:
        data = read_column_chunk(
            file, leaf, chunk, num_rows, where=report.where, footer_start=footer_start, crypto=crypto
        )
    except ParquetError:
        # An encrypted chunk's headers cannot be walked without decrypting them: no CRC excuse.
        explained = crc_of_undecodable_chunk(file, chunk, footer_start, report) if crypto is None else []
        if not explained:
            raise
        return explained, None  # the stored bytes are not the writer's: nothing else to judge
    meta = chunk.meta_data if crypto is None else crypto.file.column_metadata(crypto, chunk)
    state = Chunk(file, leaf, chunk, data, order, report, meta, crypto)  # type: ignore[arg-type]
    findings = check_statistics(state, state.meta.statistics, None, "statistics", report)
    for ordinal, page in enumerate(state.data_pages):
        header = page.header.data_page_header or page.header.data_page_header_v2
        stats = header.statistics if header is not None else None
        findings += check_statistics(state, stats, page, "page_statistics", report.at(ordinal))
    for check in CHUNK_CHECKS:
        findings += check(state)
    return findings, data
