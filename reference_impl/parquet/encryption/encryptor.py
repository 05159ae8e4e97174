"""The writer's side: which module is encrypted with which key, and the file's tail.

Spec: Encryption.md:

* '3 Technical Approach': "For encrypted columns, the following modules are
  always encrypted, with the same column key: pages and page headers (both
  dictionary and data), column indexes, offset indexes, bloom filter headers
  and bitsets";
* '4.2.2': under AES_GCM_CTR_V1 the pages (not their headers) use CTR;
* '5.2': ``RowGroup.ordinal`` and ``ColumnChunk.crypto_metadata``;
* '5.3': the ColumnMetaData of a column "encrypted with a column-specific key"
  or of any encrypted column under a plaintext footer is serialized and
  encrypted on its own (``encrypted_column_metadata``); the plaintext copy is
  omitted under an encrypted footer, and kept but "stripped of the statistics"
  under a plaintext footer;
* '5.3', the two footer layouts written by :meth:`FileEncryptor.file_tail`::

      encrypted footer:  ... | FileCryptoMetaData | footer module | length | "PARE"
      plaintext footer:  ... | FileMetaData | nonce | tag | length | "PAR1"

  (the 4-byte length counts everything between the data and itself).

What "stripped" removes here: ``statistics`` and, as parquet-java and Arrow
C++ also do, ``encoding_stats``; plus the newer ``size_statistics`` and
``geospatial_statistics``, which summarise the data just as much.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from reference_impl.parquet.encryption.ciphers import encrypt_ctr, encrypt_gcm, footer_signature
from reference_impl.parquet.encryption.modules import ModuleType, aad_suffix, module_aad
from reference_impl.parquet.encryption.nonces import Randomness
from reference_impl.parquet.encryption.properties import FileEncryptionProperties
from reference_impl.parquet.metadata.file_layout import ENCRYPTED_FOOTER_MAGIC, FOOTER_LENGTH, MAGIC
from reference_impl.parquet.metadata.parquet_thrift import (
    AesGcmCtrV1,
    AesGcmV1,
    ColumnChunk,
    ColumnCryptoMetaData,
    ColumnMetaData,
    EncryptionAlgorithm,
    EncryptionWithColumnKey,
    EncryptionWithFooterKey,
    FileCryptoMetaData,
    FileMetaData,
)
from reference_impl.parquet.metadata.thrift_struct import serialize
from reference_impl.parquet.schema.tree import LeafColumn

__all__ = ["PAGE_MODULES", "ColumnEncryptor", "FileEncryptor", "algorithm_struct", "stripped"]

# The modules AES_GCM_CTR_V1 encrypts with CTR ('4.2.2': "The pages are encrypted by the CTR cipher").
PAGE_MODULES = frozenset({ModuleType.DATA_PAGE, ModuleType.DICTIONARY_PAGE})


def algorithm_struct(
    name: str, aad_prefix: bytes | None, file_unique: bytes, supply: bool
) -> EncryptionAlgorithm:
    """'5.2': the EncryptionAlgorithm union member for ``name`` with its AAD fields."""
    supply_aad_prefix = supply or None  # unset, not false, when the prefix is stored
    if name == "AES_GCM_V1":
        return EncryptionAlgorithm(AES_GCM_V1=AesGcmV1(
            aad_prefix=aad_prefix, aad_file_unique=file_unique, supply_aad_prefix=supply_aad_prefix))
    return EncryptionAlgorithm(AES_GCM_CTR_V1=AesGcmCtrV1(
        aad_prefix=aad_prefix, aad_file_unique=file_unique, supply_aad_prefix=supply_aad_prefix))


def stripped(meta: ColumnMetaData) -> ColumnMetaData:
    """The plaintext ColumnMetaData of an encrypted column under a plaintext footer (module docstring)."""
    return replace(
        meta, statistics=None, encoding_stats=None, size_statistics=None, geospatial_statistics=None
    )


@dataclass(frozen=True)
class ColumnEncryptor:
    """Encrypts the modules of one column chunk (one row group, one column) with its key."""

    file: FileEncryptor
    key: bytes
    row_group: int
    column: int

    def module(self, module_type: ModuleType, plaintext: bytes, page: int | None = None) -> bytes:
        """The stored module ('5.1'): GCM, or CTR for pages under AES_GCM_CTR_V1."""
        nonce = self.file.randomness.nonce()
        if module_type in PAGE_MODULES and self.file.properties.algorithm == "AES_GCM_CTR_V1":
            return encrypt_ctr(self.key, nonce, plaintext)
        suffix = aad_suffix(self.file.file_unique, module_type, self.row_group, self.column, page)
        return encrypt_gcm(self.key, nonce, plaintext, module_aad(self.file.properties.aad_prefix, suffix))


class FileEncryptor:
    """One file's encryption: its nonce source and file id, and the key of each column."""

    def __init__(self, properties: FileEncryptionProperties, leaves: Sequence[LeafColumn]) -> None:
        paths = {leaf.dotted_path for leaf in leaves}
        unknown = sorted(set(properties.column_keys) - paths)
        if unknown:
            raise ValueError(f"encryption column_keys name no leaf column of the schema: {unknown}")
        self.properties = properties
        self.randomness: Randomness = properties.randomness.for_file()
        self.file_unique = self.randomness.file_unique()

    def key_of(self, leaf: LeafColumn) -> bytes | None:
        """The column's key, or None for a plaintext column."""
        if self.properties.uniform:
            return self.properties.footer_key
        return self.properties.column_keys.get(leaf.dotted_path)

    def column(self, leaf: LeafColumn, row_group: int) -> ColumnEncryptor | None:
        key = self.key_of(leaf)
        return None if key is None else ColumnEncryptor(self, key, row_group, leaf.index)

    def crypto_metadata(self, leaf: LeafColumn) -> ColumnCryptoMetaData:
        if self.properties.uniform:
            return ColumnCryptoMetaData(ENCRYPTION_WITH_FOOTER_KEY=EncryptionWithFooterKey())
        return ColumnCryptoMetaData(
            ENCRYPTION_WITH_COLUMN_KEY=EncryptionWithColumnKey(
                path_in_schema=list(leaf.path),
                key_metadata=self.properties.column_key_metadata.get(leaf.dotted_path),
            )
        )

    def seal_column_metadata(self, chunk: ColumnChunk, leaf: LeafColumn, row_group: int) -> None:
        """Set the chunk's crypto_metadata and, where '5.3' asks, its encrypted_column_metadata."""
        encryptor = self.column(leaf, row_group)
        if encryptor is None:
            return
        chunk.crypto_metadata = self.crypto_metadata(leaf)
        separate = not self.properties.uniform or self.properties.plaintext_footer
        if not separate or chunk.meta_data is None:
            return
        chunk.encrypted_column_metadata = encryptor.module(
            ModuleType.COLUMN_META_DATA, serialize(chunk.meta_data)
        )
        chunk.meta_data = stripped(chunk.meta_data) if self.properties.plaintext_footer else None

    def algorithm(self) -> EncryptionAlgorithm:
        props = self.properties
        stored = props.aad_prefix if props.store_aad_prefix else None
        supply = props.aad_prefix is not None and not props.store_aad_prefix
        return algorithm_struct(props.algorithm, stored, self.file_unique, supply)

    def file_tail(self, footer: FileMetaData) -> tuple[FileMetaData, bytes]:
        """The footer as stored and every byte after the data ('5.3', module docstring)."""
        props = self.properties
        footer_aad = module_aad(props.aad_prefix, aad_suffix(self.file_unique, ModuleType.FOOTER))
        if props.plaintext_footer:
            footer = replace(
                footer,
                encryption_algorithm=self.algorithm(),
                footer_signing_key_metadata=props.footer_key_metadata,
            )
            plain = serialize(footer)
            signature = footer_signature(props.footer_key, self.randomness.nonce(), plain, footer_aad)
            body = plain + signature
            return footer, body + FOOTER_LENGTH.pack(len(body)) + MAGIC
        crypto = FileCryptoMetaData(
            encryption_algorithm=self.algorithm(), key_metadata=props.footer_key_metadata
        )
        module = encrypt_gcm(props.footer_key, self.randomness.nonce(), serialize(footer), footer_aad)
        body = serialize(crypto) + module
        return footer, body + FOOTER_LENGTH.pack(len(body)) + ENCRYPTED_FOOTER_MAGIC
