"""TEST-ONLY keys of the conformance cases: which key a case's file uses, and how a
reader finds it again from the file's ``key_metadata`` alone.

Encryption.md, '4.3 Key metadata': a writer stores an arbitrary
``key_metadata`` per footer and column key, "made available to file readers to
enable recovery of the key". Two forms are used here:

* explicit (`EncryptionOptions.key_management == "explicit"`): the data key is
  derived from its name and size, and ``key_metadata`` is that name,
  ``conformance-test:<role>:<bits>`` (role ``footer`` or ``column:<path>``). Any
  reader handed the name can derive the key; nothing is wrapped.
* kms / kms_double: a random data key wrapped by a master key of the test KMS
  (`in_memory.TEST_MASTER_KEYS`), stored as key material (`key_material`),
  exactly as pyarrow's CryptoFactory and parquet-java's PropertiesDrivenCryptoFactory
  write it, so those engines read the files and we read theirs.

`case_key_retriever` answers ``key_metadata -> key`` for both forms; it is what
every reader adapter of the run uses to open encrypted files. The master key of
a role: the footer uses ``footer_key``; the columns with keys of their own use
``column_key_1`` and ``column_key_2`` in turn (`master_key_for_column`).
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
from collections.abc import Callable, Sequence

from conformance.kms.errors import KmsError
from conformance.kms.in_memory import TEST_MASTER_KEYS, InMemoryTestKms
from conformance.kms.key_material import (
    DOUBLE_WRAPPING_FIELD,
    INTERNAL_STORAGE_FIELD,
    IS_FOOTER_KEY_FIELD,
    KEK_ID_FIELD,
    KEY_MATERIAL_TYPE,
    KEY_MATERIAL_TYPE_FIELD,
    KMS_INSTANCE_ID_FIELD,
    KMS_INSTANCE_URL_FIELD,
    MASTER_KEY_ID_FIELD,
    WRAPPED_DEK_FIELD,
    WRAPPED_KEK_FIELD,
    KeyRetriever,
)
from conformance.kms.local_wrap import GCM_NONCE_LENGTH, encrypt_key_locally
from reference_impl.parquet.encryption.ciphers import KEY_SIZES

EXPLICIT_PREFIX = "conformance-test:"
FOOTER_ROLE = "footer"
FOOTER_MASTER_KEY = "footer_key"
COLUMN_MASTER_KEYS = ("column_key_1", "column_key_2")
DEFAULT_KMS_INSTANCE = "DEFAULT"  # what pyarrow and parquet-java write without a KMS instance
KEK_ID_BYTES = 16
KEK_BYTES = 16
BITS_PER_BYTE = 8
AES_KEY_BITS = frozenset(size * BITS_PER_BYTE for size in KEY_SIZES)
# DuckDB stores no key_metadata at all (measured) and takes only 256-bit keys: a file
# that names no key is opened with the cases' explicit footer key of that size.
UNNAMED_KEY_BITS = 256


def column_role(path: str) -> str:
    return f"column:{path}"


def explicit_key_name(role: str, bits: int) -> str:
    return f"{EXPLICIT_PREFIX}{role}:{bits}"


def explicit_key(role: str, bits: int) -> bytes:
    """The data key of an explicit-management role: a hash of its name, cut to size."""
    digest = hashlib.sha256(explicit_key_name(role, bits).encode("utf-8")).digest()
    return digest[: bits // BITS_PER_BYTE]


def _explicit_key_from_name(name: str) -> bytes | None:
    """The key of an explicit test key name; None for a name that names no test key
    (no role, or a size that is no AES key size), so the reader reports it missing."""
    role, _, bits = name[len(EXPLICIT_PREFIX):].rpartition(":")
    if not role or not bits.isdigit() or int(bits) not in AES_KEY_BITS:
        return None
    return explicit_key(role, int(bits))


def master_key_for_column(index: int) -> str:
    """The test master key wrapping the data key of the `index`-th column with its own key."""
    return COLUMN_MASTER_KEYS[index % len(COLUMN_MASTER_KEYS)]


def column_master_keys(columns: Sequence[str]) -> dict[str, list[str]]:
    """master key id -> the columns it wraps the keys of (pyarrow's and Spark's column_keys form)."""
    grouped: dict[str, list[str]] = {}
    for index, column in enumerate(columns):
        grouped.setdefault(master_key_for_column(index), []).append(column)
    return grouped


def wrapped_key_material(dek: bytes, master_key_id: str, *, is_footer_key: bool, double_wrapping: bool,
                         kms: InMemoryTestKms | None = None,
                         secret: Callable[[int], bytes] = os.urandom) -> bytes:
    """The key material JSON of `dek` wrapped by `master_key_id` (`key_material` documents it).

    `secret(n)` draws the key-encryption key, its id and the wrapping nonces (seeded
    only for the golden corpus's deterministic files)."""
    kms = kms or InMemoryTestKms(TEST_MASTER_KEYS)
    material: dict[str, object] = {KEY_MATERIAL_TYPE_FIELD: KEY_MATERIAL_TYPE, INTERNAL_STORAGE_FIELD: True,
                                   IS_FOOTER_KEY_FIELD: is_footer_key}
    if is_footer_key:
        material[KMS_INSTANCE_ID_FIELD] = material[KMS_INSTANCE_URL_FIELD] = DEFAULT_KMS_INSTANCE
    material.update({MASTER_KEY_ID_FIELD: master_key_id, DOUBLE_WRAPPING_FIELD: double_wrapping})
    if double_wrapping:
        kek, kek_id = secret(KEK_BYTES), secret(KEK_ID_BYTES)
        material[WRAPPED_DEK_FIELD] = encrypt_key_locally(dek, kek, kek_id, nonce=secret(GCM_NONCE_LENGTH))
        material[KEK_ID_FIELD] = base64.b64encode(kek_id).decode("ascii")
        material[WRAPPED_KEK_FIELD] = kms.wrap_key(kek, master_key_id, nonce=secret(GCM_NONCE_LENGTH))
    else:
        material[WRAPPED_DEK_FIELD] = kms.wrap_key(dek, master_key_id, nonce=secret(GCM_NONCE_LENGTH))
    return json.dumps(material).encode("utf-8")


class _CaseKeyRetriever:
    """key_metadata -> data key, for explicit names and for the test KMS's key material."""

    def __init__(self) -> None:
        self._kms_keys = KeyRetriever(InMemoryTestKms(TEST_MASTER_KEYS))

    def __call__(self, key_metadata: bytes | None) -> bytes | None:
        """The key, or None when the metadata names no key of the cases (another KMS's
        material, another naming scheme): the reader then reports the key missing. A
        key named by nothing is the 256-bit explicit footer key (`UNNAMED_KEY_BITS`)."""
        if not key_metadata:
            return explicit_key(FOOTER_ROLE, UNNAMED_KEY_BITS)
        text = bytes(key_metadata).decode("utf-8", errors="replace")
        if text.startswith(EXPLICIT_PREFIX):
            return _explicit_key_from_name(text)
        try:
            return self._kms_keys(bytes(key_metadata))
        except KmsError:
            return None


def case_key_retriever() -> _CaseKeyRetriever:
    """The run's ``key_retriever``: every key a conformance case's file can name."""
    return _CaseKeyRetriever()
