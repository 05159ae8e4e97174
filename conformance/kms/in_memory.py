"""A TEST-ONLY in-memory KMS: master keys held in a dict, never for real data.

It behaves as parquet-java's test class ``InMemoryKMS`` (and this project's
Java twin, ``java/columnar/conformance/kms/InMemoryTestKms.java``), so files
wrapped on one side unwrap on the other:

* ``wrap_key(key, master_key_id)`` = ``encrypt_key_locally(key, master_key,
  aad=master_key_id.encode("utf-8"))``: base64(nonce | AES-GCM ciphertext | tag);
* master keys come as the Hadoop property ``parquet.encryption.key.list``:
  ``"keyId1:base64Key1, keyId2:base64Key2"``.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping

from conformance.kms.errors import KeyMaterialError, KeyUnwrapError
from conformance.kms.local_wrap import check_aes_key, decode_base64, decrypt_key_locally, encrypt_key_locally

KEY_LIST_PROPERTY = "parquet.encryption.key.list"
KEY_LIST_SEPARATOR = ","
KEY_ID_SEPARATOR = ":"

# Fixed, public test master keys: the default of a run (Spark's JVM gets them at start-up).
# 128-, 192- and 256-bit keys, so every AES key length is exercised by the KEK / DEK wrapping.
TEST_MASTER_KEYS: dict[str, bytes] = {
    "footer_key": bytes(range(16)),
    "column_key_1": bytes(range(16, 40)),
    "column_key_2": bytes(range(40, 72)),
}


def format_key_list(master_keys: Mapping[str, bytes]) -> str:
    """``{"k": key}`` -> ``"k:base64key, ..."`` (the ``parquet.encryption.key.list`` value)."""
    return ", ".join(f"{key_id}{KEY_ID_SEPARATOR}{base64.b64encode(key).decode('ascii')}"
                     for key_id, key in master_keys.items())


def parse_key_list(text: str) -> dict[str, bytes]:
    """``"k1:base64, k2:base64"`` -> ``{"k1": key1, "k2": key2}``; entries are trimmed."""
    master_keys: dict[str, bytes] = {}
    for entry in filter(None, (part.strip() for part in text.split(KEY_LIST_SEPARATOR))):
        key_id, separator, encoded = entry.partition(KEY_ID_SEPARATOR)
        if not separator or not key_id.strip():
            raise KeyMaterialError(f"{KEY_LIST_PROPERTY}: entry {entry!r}: expected 'keyId:base64Key'")
        master_keys[key_id.strip()] = decode_base64(encoded.strip(), f"{KEY_LIST_PROPERTY}: key {key_id!r}")
    return master_keys


class InMemoryTestKms:
    """Test-only KMS with master keys in memory; wraps as parquet-java's InMemoryKMS does."""

    def __init__(self, master_keys: Mapping[str, bytes] = TEST_MASTER_KEYS):
        for key_id, key in master_keys.items():
            check_aes_key(key, f"master key {key_id!r}")
        self.master_keys = dict(master_keys)

    @classmethod
    def from_key_list(cls, text: str) -> InMemoryTestKms:
        return cls(parse_key_list(text))

    def key_list(self) -> str:
        return format_key_list(self.master_keys)

    def _master_key(self, master_key_id: str) -> bytes:
        try:
            return self.master_keys[master_key_id]
        except KeyError:
            raise KeyUnwrapError(
                f"master key {master_key_id!r} is not in this test KMS (holds {sorted(self.master_keys)})"
            ) from None

    def wrap_key(self, key_bytes: bytes, master_key_identifier: str, *, nonce: bytes | None = None) -> str:
        """pyarrow's KmsClient.wrap_key; `nonce` only for deterministic golden files."""
        aad = master_key_identifier.encode("utf-8")
        return encrypt_key_locally(bytes(key_bytes), self._master_key(master_key_identifier), aad,
                                   nonce=nonce)

    def unwrap_key(self, wrapped_key: str, master_key_identifier: str) -> bytes:
        aad = master_key_identifier.encode("utf-8")
        return decrypt_key_locally(wrapped_key, self._master_key(master_key_identifier), aad,
                                   what=f"key wrapped with master key {master_key_identifier!r}")
