"""Encrypted pages: the module types of a page and of its header, and their encryption.

Spec: Encryption.md, '4.4.2 AAD suffix'
( the module types, and the page ordinal that data pages and their
headers carry and dictionary pages do not) and '3 Technical Approach'
(compression first, then encryption). The data page ordinal counts data pages
from 0. ``compressed_page_size`` is the page module as stored, its 4-byte
length included; the CRC covers those stored (encrypted) bytes.
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.parquet.encryption.encryptor import ColumnEncryptor
from reference_impl.parquet.encryption.modules import ModuleType
from reference_impl.parquet.metadata.parquet_thrift import PageType
from reference_impl.parquet.metadata.thrift_struct import serialize
from reference_impl.parquet.pages.page import EncodedPage

__all__ = ["PAGE_MODULES", "encrypted_body", "encrypted_header"]

MAX_I32 = (1 << 31) - 1  # PageHeader sizes are i32

# 4.4.2: the module types of a page and of its header, by whether it is the dictionary page.
PAGE_MODULES = {
    True: (ModuleType.DICTIONARY_PAGE, ModuleType.DICTIONARY_PAGE_HEADER),
    False: (ModuleType.DATA_PAGE, ModuleType.DATA_PAGE_HEADER),
}


def page_modules(page: EncodedPage, data_ordinal: int) -> tuple[ModuleType, ModuleType, int | None]:
    """The page's module type, its header's, and the page ordinal of their AADs
    (data pages only: the dictionary page has none)."""
    is_dictionary = page.header.type == PageType.DICTIONARY_PAGE
    body_type, header_type = PAGE_MODULES[is_dictionary]
    return body_type, header_type, None if is_dictionary else data_ordinal


def encrypted_body(page: EncodedPage, crypto: ColumnEncryptor, data_ordinal: int) -> EncodedPage:
    """The page with its stored bytes encrypted (compression first, '3 Technical Approach').

    ``compressed_page_size`` becomes the size of the encrypted module as stored,
    its 4-byte length included: parquet.thrift's "Compressed (and potentially
    encrypted) page size in bytes, not including this header", read as parquet-java
    and Arrow C++ write it. The CRC (set after this) covers these stored bytes.
    """
    body_type, _, ordinal = page_modules(page, data_ordinal)
    body = crypto.module(body_type, page.body, ordinal)
    header = replace(page.header, compressed_page_size=_checked_i32(len(body)))
    return EncodedPage(header, body)


def encrypted_header(page: EncodedPage, crypto: ColumnEncryptor, data_ordinal: int) -> bytes:
    _, header_type, ordinal = page_modules(page, data_ordinal)
    return crypto.module(header_type, serialize(page.header), ordinal)


def _checked_i32(size: int) -> int:
    if size > MAX_I32:
        raise ValueError(f"an encrypted page of {size} bytes: more than a page header's i32 holds")
    return size
