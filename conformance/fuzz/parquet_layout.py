"""A Parquet file's layout as the mutators see it: footer, page headers and bodies,
encrypted modules.

README.md, 'File format': the pages of each column chunk, then the FileMetaData, its
4-byte length and the magic; PageHeader ('Data Pages'); Encryption.md, '5.1 Encrypted
module serialization' (a 4-byte length, then the module) and '5.4 Encrypted footer
mode' (magic "PARE", FileCryptoMetaData, then the encrypted footer module). Located with the
reference's own reader (``read_footer_with_decryptor``, ``chunk_range``,
``deserialize``), with the seed's keys for encrypted files.
"""

from __future__ import annotations

from dataclasses import dataclass

from reference_impl.parquet.encryption.ciphers import MODULE_LENGTH
from reference_impl.parquet.encryption.properties import FileDecryptionProperties
from reference_impl.parquet.metadata.file_layout import ENCRYPTED_FOOTER_MAGIC, FOOTER_LENGTH, MAGIC
from reference_impl.parquet.metadata.parquet_thrift import PageHeader
from reference_impl.parquet.metadata.thrift_struct import deserialize
from reference_impl.parquet.pages.chunk_reader import chunk_range
from reference_impl.parquet.reader import read_footer_with_decryptor
from reference_impl.parquet.schema.tree import leaf_columns, schema_tree_from_elements

from .thrift_fields import struct_end


@dataclass(frozen=True)
class PageExtent:
    """A plaintext page: its header at ``[header_start, body_start)``, body up to ``end``."""

    header_start: int
    body_start: int
    end: int


@dataclass(frozen=True)
class Module:
    """An encrypted module: its 4-byte length at ``start``, up to ``end``."""

    start: int
    end: int
    is_header: bool  # a page header module (the footer module counts as one)


@dataclass(frozen=True)
class ParquetLayout:
    raw: bytes
    footer_start: int
    length_at: int  # where the 4-byte footer length lies
    encrypted_footer: bool
    crypto_metadata_end: int  # "PARE": where the FileCryptoMetaData ends (the footer module starts)
    pages: tuple[PageExtent, ...]
    modules: tuple[Module, ...]

    def data_regions(self) -> list[tuple[int, int]]:
        """Page bodies, plaintext or encrypted: the rest is metadata."""
        return ([(p.body_start, p.end) for p in self.pages]
                + [(m.start, m.end) for m in self.modules if not m.is_header])


def parse(raw: bytes, decryption: FileDecryptionProperties | None) -> ParquetLayout | None:
    """The layout of ``raw``, or None when the reference cannot read its footer."""
    try:
        metadata, footer_start, decryptor = read_footer_with_decryptor(raw, decryption=decryption)
    except Exception:  # noqa: BLE001 - no footer, nothing to aim at
        return None
    encrypted_footer = raw[-len(MAGIC):] == ENCRYPTED_FOOTER_MAGIC
    length_at = len(raw) - len(MAGIC) - FOOTER_LENGTH.size
    crypto_end = _crypto_metadata_end(raw, footer_start, length_at) if encrypted_footer else footer_start
    pages: list[PageExtent] = []
    modules: list[Module] = [Module(crypto_end, length_at, True)] if encrypted_footer else []
    try:
        leaves = leaf_columns(schema_tree_from_elements(metadata.schema))
    except Exception:  # noqa: BLE001 - a schema the reader refuses: the footer alone is aimed at
        leaves = []
    for ordinal, row_group in enumerate(metadata.row_groups):
        for leaf, chunk in zip(leaves, row_group.columns, strict=False):
            try:
                crypto = decryptor.column(leaf, chunk, ordinal) if decryptor is not None else None
                meta = chunk.meta_data if crypto is None else crypto.file.column_metadata(crypto, chunk)
                if meta is None:
                    continue
                start, end = chunk_range(meta)
                if crypto is None:
                    pages += _pages(raw, start, min(end, footer_start))
                else:
                    modules += _modules(raw, start, min(end, footer_start))
            except Exception:  # noqa: BLE001 - a chunk we cannot walk is simply not aimed at
                continue
    return ParquetLayout(raw, footer_start, length_at, encrypted_footer, crypto_end, tuple(pages),
                         tuple(modules))


def _crypto_metadata_end(raw: bytes, footer_start: int, length_at: int) -> int:
    try:
        return struct_end(raw, footer_start, length_at)
    except Exception:  # noqa: BLE001 - unreadable: the whole footer is one region
        return footer_start


def _pages(raw: bytes, start: int, end: int) -> list[PageExtent]:
    pages, position = [], start
    while position < end:
        header, body_start = deserialize(PageHeader, raw, start=position, end=end)
        page_end = body_start + header.compressed_page_size
        if page_end > end or header.compressed_page_size < 0:
            break
        pages.append(PageExtent(position, body_start, page_end))
        position = page_end
    return pages


def _modules(raw: bytes, start: int, end: int) -> list[Module]:
    """Header and page modules alternate (Encryption.md, '5.1 Encrypted module serialization')."""
    modules, position, header = [], start, True
    while position + MODULE_LENGTH.size <= end:
        (length,) = MODULE_LENGTH.unpack_from(raw, position)
        module_end = position + MODULE_LENGTH.size + length
        if module_end > end:
            break
        modules.append(Module(position, module_end, header))
        position, header = module_end, not header
    return modules
