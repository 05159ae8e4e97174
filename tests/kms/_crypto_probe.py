"""A tiny, independent check that recovered data keys are the file's keys.

Reads only what key recovery needs from an encrypted Parquet file, with AES-GCM
from `cryptography` and the reference implementation's thrift structs:

* encrypted footer: ``... | FileCryptoMetaData | footer module | len (4 LE) | "PARE"``,
  the footer module being ``length (4 LE) | nonce (12) | ciphertext | tag (16)``;
* plaintext footer: ``... | FileMetaData | nonce (12) | tag (16) | len | "PAR1"``,
  the signature being the GCM tag of the footer under the footer key;
* an encrypted column's ``encrypted_column_metadata`` is a GCM module (with its
  length prefix) holding the ColumnMetaData.

Module AAD = aad_prefix + aad_file_unique + module type (1 byte) [+ row group and
column ordinals, 2-byte little-endian each].
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from reference_impl.parquet.metadata.parquet_thrift import ColumnMetaData, FileCryptoMetaData, FileMetaData
from reference_impl.parquet.metadata.thrift_struct import deserialize

ENCRYPTED_FOOTER_MAGIC = b"PARE"
PLAINTEXT_MAGIC = b"PAR1"
TAIL_LENGTH = 8
LENGTH_PREFIX = 4
NONCE_LENGTH = 12
TAG_LENGTH = 16
FOOTER_MODULE = 0
COLUMN_METADATA_MODULE = 1


def footer_aad(aad_prefix: bytes, aad_file_unique: bytes) -> bytes:
    return aad_prefix + aad_file_unique + bytes([FOOTER_MODULE])


def column_metadata_aad(aad_prefix: bytes, aad_file_unique: bytes, row_group: int, column: int) -> bytes:
    ordinals = struct.pack("<hh", row_group, column)
    return aad_prefix + aad_file_unique + bytes([COLUMN_METADATA_MODULE]) + ordinals


def decrypt_gcm_module(module: bytes, key: bytes, aad: bytes) -> bytes:
    """Open ``length | nonce | ciphertext | tag`` (raises cryptography's InvalidTag on a wrong key)."""
    (length,) = struct.unpack_from("<I", module)
    body = module[LENGTH_PREFIX:LENGTH_PREFIX + length]
    return AESGCM(key).decrypt(body[:NONCE_LENGTH], body[NONCE_LENGTH:], aad)


@dataclass
class EncryptedColumn:
    row_group: int
    ordinal: int
    path: list[str]
    key_metadata: bytes | None  # None: encrypted with the footer key
    encrypted_column_metadata: bytes | None


@dataclass
class EncryptedFile:
    """What the tail of an encrypted file says about its keys."""

    encrypted_footer: bool
    algorithm: str  # "AES_GCM_V1" | "AES_GCM_CTR_V1"
    aad_prefix: bytes
    aad_file_unique: bytes
    footer_key_metadata: bytes | None
    footer_region: bytes  # the footer module (encrypted) or footer + signature (plaintext)
    metadata: FileMetaData | None = None  # known at once for a plaintext footer
    columns: list[EncryptedColumn] = field(default_factory=list)


def _algorithm_fields(algorithm) -> tuple[str, bytes, bytes]:
    name = "AES_GCM_V1" if algorithm.AES_GCM_V1 is not None else "AES_GCM_CTR_V1"
    params = algorithm.AES_GCM_V1 or algorithm.AES_GCM_CTR_V1
    return name, params.aad_prefix or b"", params.aad_file_unique


def read_encrypted_file(data: bytes) -> EncryptedFile:
    (footer_length,) = struct.unpack_from("<I", data, len(data) - TAIL_LENGTH)
    start = len(data) - TAIL_LENGTH - footer_length
    region = data[start:len(data) - TAIL_LENGTH]
    if data[-4:] == ENCRYPTED_FOOTER_MAGIC:
        crypto, end = deserialize(FileCryptoMetaData, data, start=start)
        name, prefix, unique = _algorithm_fields(crypto.encryption_algorithm)
        footer_module = data[end:len(data) - TAIL_LENGTH]
        return EncryptedFile(True, name, prefix, unique, crypto.key_metadata, footer_module)
    if data[-4:] != PLAINTEXT_MAGIC:
        raise ValueError(f"not a Parquet file: magic {data[-4:]!r}")
    metadata, _ = deserialize(FileMetaData, data, start=start)
    if metadata.encryption_algorithm is None:
        raise ValueError("plaintext file: no encryption_algorithm in the footer")
    name, prefix, unique = _algorithm_fields(metadata.encryption_algorithm)
    encrypted = EncryptedFile(False, name, prefix, unique, metadata.footer_signing_key_metadata, region)
    _attach_metadata(encrypted, metadata)
    return encrypted


def _attach_metadata(encrypted: EncryptedFile, metadata: FileMetaData) -> None:
    encrypted.metadata = metadata
    for rg_index, row_group in enumerate(metadata.row_groups):
        for ordinal, chunk in enumerate(row_group.columns):
            crypto = chunk.crypto_metadata
            if crypto is None:
                continue
            with_key = crypto.ENCRYPTION_WITH_COLUMN_KEY
            path = with_key.path_in_schema if with_key else chunk.meta_data.path_in_schema
            encrypted.columns.append(EncryptedColumn(
                rg_index, ordinal, list(path), with_key.key_metadata if with_key else None,
                chunk.encrypted_column_metadata,
            ))


def open_footer(encrypted: EncryptedFile, footer_key: bytes) -> FileMetaData:
    """Decrypt (encrypted footer) or verify the signature of (plaintext footer) the footer."""
    aad = footer_aad(encrypted.aad_prefix, encrypted.aad_file_unique)
    if encrypted.encrypted_footer:
        plaintext = decrypt_gcm_module(encrypted.footer_region, footer_key, aad)
        metadata, _ = deserialize(FileMetaData, plaintext)
        _attach_metadata(encrypted, metadata)
        return metadata
    signature_length = NONCE_LENGTH + TAG_LENGTH
    region = encrypted.footer_region
    footer, signature = region[:-signature_length], region[-signature_length:]
    nonce, tag = signature[:NONCE_LENGTH], signature[NONCE_LENGTH:]
    expected_tag = AESGCM(footer_key).encrypt(nonce, footer, aad)[-TAG_LENGTH:]
    if expected_tag != tag:
        raise ValueError("plaintext footer signature does not verify with this footer key")
    return encrypted.metadata


def open_column_metadata(encrypted: EncryptedFile, column: EncryptedColumn, key: bytes) -> ColumnMetaData:
    aad = column_metadata_aad(encrypted.aad_prefix, encrypted.aad_file_unique,
                              column.row_group, column.ordinal)
    metadata, _ = deserialize(ColumnMetaData, decrypt_gcm_module(column.encrypted_column_metadata, key, aad))
    return metadata
