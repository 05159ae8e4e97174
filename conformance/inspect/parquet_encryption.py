"""The encryption of a Parquet file, for `conformance inspect` (parquet_file.py).

Encryption.md: the algorithm and its AAD fields ('5.2 Crypto structures', '4.4.1 AAD
prefix'), where the footer key's metadata is in either footer mode ('5.4 Encrypted footer
mode', '5.5 Plaintext footer mode'), and every module of an encrypted column chunk as
stored ('5.1 Encrypted module serialization': length, nonce, ciphertext, tag) with the
AAD suffix its type and ordinals give ('4.4.2 AAD suffix'). The modules are found with the
reference's own readers (the page walk, `encryption.ciphers.read_module`).
"""

from __future__ import annotations

from typing import Any

from conformance.inspect.render import record, text_or_hex
from reference_impl.parquet.encryption.ciphers import read_module
from reference_impl.parquet.encryption.decryptor import ColumnDecryptor, FileDecryptor
from reference_impl.parquet.encryption.encryptor import PAGE_MODULES
from reference_impl.parquet.encryption.modules import ModuleType, aad_suffix
from reference_impl.parquet.metadata import parquet_thrift as M
from reference_impl.parquet.metadata.file_layout import ENCRYPTED_FOOTER_MAGIC, FOOTER_LENGTH, MAGIC
from reference_impl.parquet.metadata.thrift_struct import deserialize
from reference_impl.parquet.pages.chunk_reader import PageExtent

# (page module, header module) of a data page and of a dictionary page ('4.4.2 AAD suffix').
PAGE_MODULE_TYPES = {False: (ModuleType.DATA_PAGE, ModuleType.DATA_PAGE_HEADER),
                     True: (ModuleType.DICTIONARY_PAGE, ModuleType.DICTIONARY_PAGE_HEADER)}


def crypto_metadata(file: bytes, footer_start: int) -> M.FileCryptoMetaData:
    """'5.4 Encrypted footer mode': the FileCryptoMetaData before the encrypted footer."""
    crypto, _ = deserialize(M.FileCryptoMetaData, file, start=footer_start, end=length_at(file))
    return crypto


def footer_key_metadata(file: bytes, footer_start: int, metadata: M.FileMetaData) -> bytes | None:
    """The footer key's metadata: in FileCryptoMetaData ('5.4'), or beside a signed plaintext
    footer (FileMetaData.footer_signing_key_metadata, '5.5 Plaintext footer mode')."""
    if file[-len(MAGIC):] == ENCRYPTED_FOOTER_MAGIC:
        return crypto_metadata(file, footer_start).key_metadata
    return metadata.footer_signing_key_metadata


def algorithm_fields(algorithm: M.EncryptionAlgorithm) -> dict[str, Any]:
    """'5.2 Crypto structures': the algorithm and the AAD fields of its member."""
    parameters = algorithm.member
    stored = None if parameters is None else parameters.aad_prefix
    return record({
        "algorithm": algorithm.kind,
        "aad_prefix": _prefix(stored),
        "supply_aad_prefix": None if parameters is None else bool(parameters.supply_aad_prefix),
        "aad_file_unique": None if parameters is None else _hex(parameters.aad_file_unique),
    })


def encryption_fields(decryptor: FileDecryptor, key_metadata: bytes | None) -> dict[str, Any]:
    """The file's encryption as the reader learnt it from the footer (either mode)."""
    return record({"algorithm": decryptor.name, "aad_prefix": _prefix(decryptor.stored_prefix),
                   "supply_aad_prefix": decryptor.supply_prefix,
                   "aad_file_unique": decryptor.file_unique.hex(),
                   "footer_key_metadata": text_or_hex(key_metadata),
                   "footer_verified": decryptor.footer_verified,
                   "footer_module": _module(decryptor, ModuleType.FOOTER)})


def _prefix(stored: bytes | None) -> str:
    """'4.4.1 AAD prefix': stored in the file, or left for the reader to supply."""
    return "not stored" if stored is None else f"stored: {text_or_hex(stored)}"


def _module(decryptor: FileDecryptor, module_type: ModuleType, row_group: int | None = None,
            column: int | None = None, page: int | None = None) -> dict[str, Any]:
    """One encrypted module: its type, ordinals and AAD suffix ('4.4.2 AAD suffix'); AES_GCM_CTR_V1
    encrypts pages with CTR, which has no AAD ('4.2.2 AES_GCM_CTR_V1')."""
    ctr = _is_ctr(decryptor, module_type)
    return record({"module": module_type.name, "type": int(module_type),
                   "row_group": row_group, "column": column, "page": page,
                   "cipher": "AES-CTR (no AAD)" if ctr else "AES-GCM",
                   "aad_suffix": None if ctr else
                   aad_suffix(decryptor.file_unique, module_type, row_group, column, page).hex()})


def _is_ctr(decryptor: FileDecryptor, module_type: ModuleType) -> bool:
    return module_type in PAGE_MODULES and decryptor.name == "AES_GCM_CTR_V1"


def _stored_module(crypto: ColumnDecryptor, module_type: ModuleType, page: int | None, data: bytes,
                   start: int, in_file: bool = True) -> tuple[dict[str, Any], int]:
    """A module of the chunk as stored at `data[start:]` ('5.1 Encrypted module serialization':
    length, nonce, ciphertext, tag), and where it ends."""
    module = read_module(data, start, len(data), tagged=not _is_ctr(crypto.file, module_type),
                         what=f"{module_type.name} module")
    fields = _module(crypto.file, module_type, crypto.row_group, crypto.column, page)
    return record({**fields, "offset": start if in_file else None, "length": module.end - module.offset,
                   "nonce": module.nonce.hex()}), module.end


def chunk_crypto(chunk: M.ColumnChunk) -> dict[str, Any] | None:
    crypto = chunk.crypto_metadata
    if crypto is None:
        return None
    member = crypto.ENCRYPTION_WITH_COLUMN_KEY
    return record({
        "key": "column key" if member is not None else "footer key",
        "key_metadata": None if member is None else text_or_hex(member.key_metadata),
        "encrypted_column_metadata": None if chunk.encrypted_column_metadata is None
        else f"{len(chunk.encrypted_column_metadata)} bytes",
    })


def chunk_modules(file: bytes, crypto: ColumnDecryptor, chunk: M.ColumnChunk, meta: M.ColumnMetaData,
                   pages: list[PageExtent]) -> list[dict[str, Any]]:
    """Every module of an encrypted chunk, in the order '4.4.2 AAD suffix' lists the types."""
    modules = []
    if chunk.encrypted_column_metadata is not None:  # a module inside the footer
        sealed = chunk.encrypted_column_metadata
        modules.append(_stored_module(crypto, ModuleType.COLUMN_META_DATA, None, sealed, 0, in_file=False)[0])
    data_pages = 0
    for extent in pages:
        dictionary = extent.header.type == M.PageType.DICTIONARY_PAGE
        page = None if dictionary else data_pages
        body_type, header_type = PAGE_MODULE_TYPES[dictionary]
        modules.append(_stored_module(crypto, header_type, page, file, extent.offset)[0])
        modules.append(_stored_module(crypto, body_type, page, file, extent.body_start)[0])
        data_pages += not dictionary
    for module_type, offset in ((ModuleType.COLUMN_INDEX, chunk.column_index_offset),
                                (ModuleType.OFFSET_INDEX, chunk.offset_index_offset)):
        if offset is not None:
            modules.append(_stored_module(crypto, module_type, None, file, offset)[0])
    if meta.bloom_filter_offset is not None:  # two modules back to back, the header's first
        header, header_end = _stored_module(crypto, ModuleType.BLOOM_FILTER_HEADER, None, file,
                                            meta.bloom_filter_offset)
        modules += [header, _stored_module(crypto, ModuleType.BLOOM_FILTER_BITSET, None, file, header_end)[0]]
    return modules


def _hex(value: bytes | None) -> str | None:
    return None if value is None else bytes(value).hex()


def length_at(file: bytes) -> int:
    """Where the footer length field lies: before the closing magic."""
    return len(file) - FOOTER_LENGTH.size - len(MAGIC)
