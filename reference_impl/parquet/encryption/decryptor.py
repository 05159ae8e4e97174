"""The reader's side: the footer in either mode, the AAD prefix, and each column's key.

Spec: Encryption.md:

* '5.4 Encrypted footer mode': "A Thrift-serialized FileCryptoMetaData structure is
  written before the encrypted footer ... Then the combined length of this
  structure and of the encrypted footer is written as a 4-byte little endian
  integer, followed by a final magic string, 'PARE'";
* '5.5 Plaintext footer mode': "The 28-byte footer signature is written after the
  plaintext footer, followed by a 4-byte little endian integer that contains
  the combined length of the footer and its signature";
* '4.4.1 AAD prefix': "A reader of a file created with an AAD prefix, should be
  able to verify the prefix (file identity)"; with ``supply_aad_prefix`` "readers
  must supply the AAD prefix for this file in order to be able to decrypt it";
* '5.2' / '5.3': a chunk's ``crypto_metadata`` says which key, and its
  ``encrypted_column_metadata`` (if set) holds the real ColumnMetaData.

Decisions where the spec leaves room:

* the AAD prefix: one supplied by the caller must equal the stored one
  (:class:`DecryptionFailed` otherwise: the file is not the one expected); a
  file that needs a supplied prefix raises :class:`MissingKey` only when
  something must be decrypted or verified;
* a plaintext footer is verified when the footer key is available (given, or
  from ``key_retriever``); without it the footer is used unverified, as a legacy
  reader would, and only plaintext columns can be read
  (``FileDecryptor.footer_verified`` says which);
* the row group ordinal of the AADs is the row group's position in the footer;
  a ``RowGroup.ordinal`` that disagrees is :class:`CorruptMetadata`.
"""

from __future__ import annotations

from dataclasses import dataclass

from reference_impl.common.mapped_file import FileBytes
from reference_impl.parquet.encryption.ciphers import (
    MODULE_LENGTH,
    NONCE_LENGTH,
    SIGNATURE_LENGTH,
    Module,
    decrypt_ctr,
    decrypt_gcm,
    read_module,
    verify_footer_signature,
)
from reference_impl.parquet.encryption.encryptor import PAGE_MODULES
from reference_impl.parquet.encryption.modules import ModuleType, aad_suffix, module_aad
from reference_impl.parquet.encryption.properties import FileDecryptionProperties
from reference_impl.parquet.errors import CorruptMetadata, DecryptionFailed, MissingKey, ParquetError
from reference_impl.parquet.metadata.parquet_thrift import (
    ColumnChunk,
    ColumnMetaData,
    EncryptionAlgorithm,
    FileCryptoMetaData,
    FileMetaData,
)
from reference_impl.parquet.metadata.thrift_struct import ThriftStruct, deserialize
from reference_impl.parquet.schema.tree import LeafColumn

__all__ = [
    "ColumnDecryptor",
    "FileDecryptor",
    "decode_plaintext",
    "read_encrypted_footer",
    "verify_plaintext_footer",
]

NO_KEYS = FileDecryptionProperties()


def _algorithm_name(algorithm: EncryptionAlgorithm, offset: int) -> str:
    name = algorithm.kind
    if name is None:
        raise CorruptMetadata("EncryptionAlgorithm: no member this reader knows is set", offset)
    return name


def decode_plaintext(struct_class: type[ThriftStruct], plaintext: bytes, module: Module, what: str):
    """Decode a Thrift struct that is the plaintext of ``module``.

    Offsets in errors are those of the matching ciphertext bytes (GCM and CTR
    are stream ciphers: plaintext byte i is ciphertext byte i). Zero bytes after
    the struct are tolerated: parquet-java 1.17 encrypts its serialization buffer
    with zero padding after the Thrift (measured), which Thrift readers, parquet-java's
    and Arrow's among them, never look at; any other trailing byte is an error.
    """
    ciphertext_at = module.offset + MODULE_LENGTH.size + NONCE_LENGTH
    value, end = deserialize(struct_class, plaintext, base_offset=ciphertext_at)
    if end != len(plaintext) and any(plaintext[end:]):
        raise CorruptMetadata(
            f"{what}: the decrypted module has {len(plaintext)} bytes, the struct ends after {end}",
            module.offset,
        )
    return value


class FileDecryptor:
    """What a reader knows after the footer: algorithm, AAD parts and keys."""

    def __init__(
        self,
        algorithm: EncryptionAlgorithm,
        properties: FileDecryptionProperties | None,
        footer_key_metadata: bytes | None,
        footer_offset: int,
    ) -> None:
        self.name = _algorithm_name(algorithm, footer_offset)
        parameters = algorithm.member
        self.properties = properties or NO_KEYS
        self.footer_offset = footer_offset
        self.file_unique = parameters.aad_file_unique or b""
        self.stored_prefix = parameters.aad_prefix
        self.supply_prefix = bool(parameters.supply_aad_prefix)
        self.footer_key = self.properties.footer_key_for(footer_key_metadata)
        self.footer_verified = False
        supplied = self.properties.aad_prefix
        if supplied is not None and self.stored_prefix is not None and bytes(supplied) != self.stored_prefix:
            raise DecryptionFailed(
                f"AAD prefix mismatch: the file stores {self.stored_prefix!r}, the reader expects "
                f"{bytes(supplied)!r} (this is not the file expected)",
                footer_offset,
            )

    @property
    def aad_prefix(self) -> bytes | None:
        """The prefix to decrypt with; :class:`MissingKey` if the file needs one supplied."""
        if self.properties.aad_prefix is not None:
            return bytes(self.properties.aad_prefix)
        if self.supply_prefix and self.properties.aad_prefix_supplier is not None:
            return bytes(self.properties.aad_prefix_supplier())
        if self.supply_prefix:
            raise MissingKey(
                "the file was written with supply_aad_prefix: the reader must supply its AAD prefix",
                self.footer_offset,
            )
        return self.stored_prefix

    def aad(self, module_type: ModuleType, row_group=None, column=None, page=None) -> bytes:
        return module_aad(self.aad_prefix, aad_suffix(self.file_unique, module_type, row_group, column, page))

    def needed_footer_key(self, what: str) -> bytes:
        if self.footer_key is None:
            raise MissingKey(f"the footer key is needed for {what}", self.footer_offset)
        return self.footer_key

    def column(self, leaf: LeafColumn, chunk: ColumnChunk, row_group: int) -> ColumnDecryptor | None:
        """The decryptor of one encrypted chunk (None if the chunk is plaintext).

        :class:`MissingKey` naming the column when its key is not available.
        """
        crypto = chunk.crypto_metadata
        if crypto is None:
            return None
        where = f"column {leaf.dotted_path}, row group {row_group}"
        if crypto.kind == "ENCRYPTION_WITH_FOOTER_KEY":
            key = self.needed_footer_key(f"{where} (encrypted with the footer key)")
        elif (member := crypto.ENCRYPTION_WITH_COLUMN_KEY) is not None:
            if tuple(member.path_in_schema) != leaf.path:
                raise CorruptMetadata(
                    f"{where}: crypto_metadata names column {'.'.join(member.path_in_schema)}",
                    self.footer_offset,
                )
            found = self.properties.column_key_for(leaf.dotted_path, member.key_metadata)
            if found is None:
                raise MissingKey(
                    f"{where}: no key for encrypted column {leaf.dotted_path}", self.footer_offset
                )
            key = found
        else:
            raise CorruptMetadata(
                f"{where}: ColumnCryptoMetaData has no member this reader knows", self.footer_offset
            )
        return ColumnDecryptor(self, key, row_group, leaf.index, where)

    def column_metadata(self, decryptor: ColumnDecryptor, chunk: ColumnChunk) -> ColumnMetaData | None:
        """The chunk's full ColumnMetaData: decrypted from encrypted_column_metadata if set."""
        sealed = chunk.encrypted_column_metadata
        if sealed is None:
            return chunk.meta_data
        what = f"{decryptor.where}: encrypted ColumnMetaData"
        try:
            plain, module = decryptor.open(sealed, 0, len(sealed), ModuleType.COLUMN_META_DATA, what=what)
            return decode_plaintext(ColumnMetaData, plain, module, what)
        except ParquetError as error:
            # The module lives inside the footer: report the footer's offset.
            raise type(error)(error.message, self.footer_offset) from error


@dataclass(frozen=True)
class ColumnDecryptor:
    """Decrypts the modules of one column chunk with its key."""

    file: FileDecryptor
    key: bytes
    row_group: int
    column: int
    where: str

    def open(
        self,
        data: FileBytes,
        start: int,
        end: int,
        module_type: ModuleType,
        page: int | None = None,
        *,
        what: str,
    ) -> tuple[bytes, Module]:
        """Read the module at ``data[start:]`` (ending by ``end``) and decrypt it."""
        ctr = module_type in PAGE_MODULES and self.file.name == "AES_GCM_CTR_V1"
        module = read_module(data, start, end, tagged=not ctr, what=what)
        if ctr:
            return decrypt_ctr(self.key, module), module
        aad = self.file.aad(module_type, self.row_group, self.column, page)
        return decrypt_gcm(self.key, module, aad, what), module


# ---------------------------------------------------------------------------
# The footer
# ---------------------------------------------------------------------------


def read_encrypted_footer(
    file: FileBytes, footer_start: int, length_at: int, properties: FileDecryptionProperties | None
) -> tuple[FileMetaData, FileDecryptor]:
    """'5.3' encrypted footer: FileCryptoMetaData then the footer module, in [footer_start, length_at)."""
    crypto, module_start = deserialize(FileCryptoMetaData, file, start=footer_start, end=length_at)
    decryptor = FileDecryptor(crypto.encryption_algorithm, properties, crypto.key_metadata, footer_start)
    key = decryptor.needed_footer_key("the encrypted footer")
    module = read_module(file, module_start, length_at, tagged=True, what="encrypted footer")
    if module.end != length_at:
        raise CorruptMetadata(
            f"the footer module ends {length_at - module.end} byte(s) before the footer length field",
            module.end,
        )
    plain = decrypt_gcm(key, module, decryptor.aad(ModuleType.FOOTER), "encrypted footer")
    metadata = decode_plaintext(FileMetaData, plain, module, "encrypted footer")
    decryptor.footer_verified = True
    return metadata, decryptor


def verify_plaintext_footer(
    file: FileBytes,
    metadata: FileMetaData,
    footer_start: int,
    footer_end: int,
    length_at: int,
    properties: FileDecryptionProperties | None,
) -> FileDecryptor:
    """'5.3' plaintext footer: the 28-byte signature follows it; verify it if the footer key is known."""
    if length_at - footer_end != SIGNATURE_LENGTH:
        raise CorruptMetadata(
            f"a signed plaintext footer is followed by its {SIGNATURE_LENGTH}-byte signature, but "
            f"{length_at - footer_end} byte(s) lie between FileMetaData and the length field",
            footer_end,
        )
    if metadata.encryption_algorithm is None:
        raise ValueError("verify_plaintext_footer: the footer has no encryption_algorithm to verify")
    decryptor = FileDecryptor(
        metadata.encryption_algorithm, properties, metadata.footer_signing_key_metadata, footer_start
    )
    if decryptor.footer_key is not None:
        verify_footer_signature(
            decryptor.footer_key,
            file[footer_start:footer_end],
            file[footer_end:length_at],
            decryptor.aad(ModuleType.FOOTER),
            footer_end,
        )
        decryptor.footer_verified = True
    return decryptor
