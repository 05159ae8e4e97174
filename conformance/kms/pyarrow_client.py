"""pyarrow's side of the test KMS: a ``pyarrow.parquet.encryption.KmsClient`` subclass.

    factory = pyarrow_kms_client_factory(TEST_MASTER_KEYS)
    crypto = pyarrow.parquet.encryption.CryptoFactory(factory)

Without explicit master keys the factory reads them, in the Hadoop key-list
format, from ``KmsConnectionConfig.custom_kms_conf["parquet.encryption.key.list"]``.
pyarrow caches KMS clients and KEKs per CryptoFactory (per access token): use a
new CryptoFactory for a different set of master keys.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pyarrow.parquet.encryption as pe

from conformance.kms.in_memory import KEY_LIST_PROPERTY, TEST_MASTER_KEYS, InMemoryTestKms


class PyarrowTestKmsClient(pe.KmsClient):
    """Delegates to an `InMemoryTestKms` (test only)."""

    def __init__(self, kms: InMemoryTestKms):
        super().__init__()
        self.kms = kms

    def wrap_key(self, key_bytes, master_key_identifier):
        return self.kms.wrap_key(key_bytes, master_key_identifier)

    def unwrap_key(self, wrapped_key, master_key_identifier):
        return self.kms.unwrap_key(wrapped_key, master_key_identifier)


def pyarrow_kms_client_factory(
    master_keys: Mapping[str, bytes] | None = None,
) -> Callable[[pe.KmsConnectionConfig], pe.KmsClient]:
    """A `CryptoFactory` argument: explicit master keys, else the config's key list, else the test keys."""

    def create(config: pe.KmsConnectionConfig) -> pe.KmsClient:
        if master_keys is not None:
            return PyarrowTestKmsClient(InMemoryTestKms(master_keys))
        key_list = (config.custom_kms_conf or {}).get(KEY_LIST_PROPERTY)
        kms = InMemoryTestKms.from_key_list(key_list) if key_list else InMemoryTestKms(TEST_MASTER_KEYS)
        return PyarrowTestKmsClient(kms)

    return create
