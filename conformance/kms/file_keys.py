"""Which keys open a Parquet file, resolved once per read (Encryption.md, '4.3 Key
metadata', '4.4.1 AAD prefix', '5.2 Crypto structures').

A reader learns a file's encryption from the file itself: the FileCryptoMetaData
before an encrypted footer ("PARE"), or a plaintext footer's `encryption_algorithm`,
`footer_signing_key_metadata` and each column's `crypto_metadata`. The suite's test
keys are found again from that `key_metadata` (`case_keys.case_key_retriever`), and
the AAD prefix a file asks its reader to supply is, by the suite's convention, the
file's name without its suffix (`EncryptionOptions.aad_prefix_for`).

* `case_decryption(path)`: the suite's keys for the reference reader, resolved while it
  reads, from what it has parsed anyway: nothing is read before the read;
* `file_encryption(path)`: what the file says without keys (one parse of its footer
  region, read with two seeks), for the engines that must choose their key tools before
  handing the file over (pyarrow, DuckDB, the engine protocol's `read` request);
* `hidden_column_key_metadata(path)`: the column `key_metadata` an encrypted footer
  hides, by decrypting that footer once with the suite's keys.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from reference_impl.parquet.encryption.properties import FileDecryptionProperties
from reference_impl.parquet.errors import ParquetError
from reference_impl.parquet.metadata import parquet_thrift as M
from reference_impl.parquet.metadata.file_layout import ENCRYPTED_FOOTER_MAGIC, FOOTER_LENGTH, MAGIC
from reference_impl.parquet.metadata.thrift_struct import deserialize
from reference_impl.parquet.reader import read_footer

from .case_keys import case_key_retriever


@dataclass(frozen=True)
class FileEncryption:
    """What an encrypted Parquet file tells a reader before any key is known
    (Encryption.md, '5.2 Crypto structures')."""

    algorithm: str  # AES_GCM_V1 | AES_GCM_CTR_V1
    encrypted_footer: bool
    footer_key_metadata: bytes | None
    supply_aad_prefix: bool
    # Plaintext footer only (an encrypted footer hides them, `hidden_column_key_metadata`):
    # dotted path -> key_metadata of each column encrypted with a key of its own.
    column_key_metadata: Mapping[str, bytes | None] = field(default_factory=dict)


def supplied_aad_prefix(path: Path) -> bytes:
    """The AAD prefix the suite supplies for a file that asks for one: its name's stem."""
    return Path(path).stem.encode("utf-8")


def case_decryption(path: Path) -> FileDecryptionProperties:
    """The suite's keys for the file at `path`: each key from its key_metadata
    (`case_key_retriever`), the AAD prefix supplied (`supplied_aad_prefix`) only if the
    file asks, both resolved by the reader as it reads the footer."""
    return FileDecryptionProperties(key_retriever=case_key_retriever(),
                                    aad_prefix_supplier=lambda: supplied_aad_prefix(path))


def file_encryption(path: Path) -> FileEncryption | None:
    """The encryption of the Parquet file at `path`, or None for a plaintext file (or one
    too broken to tell: its read then reports what is wrong)."""
    footer = _footer_bytes(Path(path))
    if footer is None:
        return None
    data, magic = footer
    metadata: M.FileCryptoMetaData | M.FileMetaData
    try:
        if magic == ENCRYPTED_FOOTER_MAGIC:
            metadata, _ = deserialize(M.FileCryptoMetaData, data)
        else:
            metadata, _ = deserialize(M.FileMetaData, data)
    except ParquetError:  # not a readable footer: leave the verdict to the read
        return None
    algorithm = metadata.encryption_algorithm
    kind = None if algorithm is None else algorithm.kind
    if algorithm is None or kind is None:  # none, or one from a newer spec, skipped while reading
        return None
    if isinstance(metadata, M.FileCryptoMetaData):
        return FileEncryption(kind, True, metadata.key_metadata,
                              bool(algorithm.member.supply_aad_prefix))
    return FileEncryption(kind, False, metadata.footer_signing_key_metadata,
                          bool(algorithm.member.supply_aad_prefix), column_key_metadata(metadata))


def column_key_metadata(metadata: M.FileMetaData) -> dict[str, bytes | None]:
    """Dotted path -> key_metadata of each column a FileMetaData says is encrypted with a
    key of its own (parquet.thrift ColumnCryptoMetaData ENCRYPTION_WITH_COLUMN_KEY)."""
    columns = {}
    for row_group in metadata.row_groups:
        for chunk in row_group.columns:
            with_key = chunk.crypto_metadata and chunk.crypto_metadata.ENCRYPTION_WITH_COLUMN_KEY
            if with_key:
                columns[".".join(with_key.path_in_schema)] = with_key.key_metadata
    return columns


def own_column_key_metadata(path: Path, encryption: FileEncryption) -> Mapping[str, bytes | None]:
    """The columns with keys of their own and their key_metadata: from the plaintext
    footer already parsed, or from the encrypted footer decrypted once."""
    if encryption.encrypted_footer:
        return hidden_column_key_metadata(path)
    return encryption.column_key_metadata


def hidden_column_key_metadata(path: Path) -> dict[str, bytes | None]:
    """The column key_metadata an encrypted footer hides, read with the suite's keys; none
    when the footer cannot be read (a broken file, or no key: its read says what is wrong)."""
    try:
        metadata, _ = read_footer(Path(path).read_bytes(), decryption=case_decryption(path))
    except ParquetError:
        return {}
    return column_key_metadata(metadata)


def _footer_bytes(path: Path) -> tuple[bytes, bytes] | None:
    """The footer region of the file (the bytes before the length field) and its trailing
    magic, read with two seeks rather than the whole file; None if the framing cannot hold one."""
    tail_size = FOOTER_LENGTH.size + len(MAGIC)
    with open(path, "rb") as file:
        size = file.seek(0, 2)
        if size < len(MAGIC) + tail_size:
            return None
        file.seek(size - tail_size)
        tail = file.read(tail_size)
        (length,) = FOOTER_LENGTH.unpack_from(tail)
        if not 0 < length <= size - tail_size - len(MAGIC):
            return None
        file.seek(size - tail_size - length)
        return file.read(length), tail[FOOTER_LENGTH.size:]
