"""Parquet Modular Encryption, module by module.

Spec: Encryption.md, and the
crypto structures of parquet.thrift (``metadata`` declares them).

==============  ============================================================
module          what it holds
==============  ============================================================
``modules``     the module types and their AAD suffixes ('4.4.2')
``ciphers``     AES-GCM / AES-CTR modules ('4.2', '5.1'), footer signature ('5.3')
``nonces``      nonces and the file id ('4.1.3'); a TEST-ONLY seeded source
``properties``  what a writer and a reader are given (keys, AAD prefix, modes)
``encryptor``   the writer's side: column keys, ColumnMetaData, the file tail ('5.2', '5.3')
``decryptor``   the reader's side: both footer modes, AAD prefix checks, column keys
``indexes``     the page index and Bloom filters of encrypted columns, decrypted
==============  ============================================================

The writer takes :class:`FileEncryptionProperties` as ``WriterOptions.encryption``;
the reader takes :class:`FileDecryptionProperties` as ``read_parquet(decryption=...)``.
"""

from reference_impl.parquet.encryption.modules import ModuleType, aad_suffix, module_aad
from reference_impl.parquet.encryption.nonces import DeterministicRandomness, SystemRandomness
from reference_impl.parquet.encryption.properties import FileDecryptionProperties, FileEncryptionProperties

__all__ = [
    "DeterministicRandomness",
    "FileDecryptionProperties",
    "FileEncryptionProperties",
    "ModuleType",
    "SystemRandomness",
    "aad_suffix",
    "module_aad",
]
