"""Master keys by name and version, and the local keys they encrypt.

ORCv1.md, 'Encryption Keys': a file names each master key by "name, their version, and
the encryption algorithm" (message EncryptionKey; AES_CTR_128 for a 16-byte key,
AES_CTR_256 for a 32-byte one). 'Column Encryption': each variant has a random local
key, stored encrypted; with the Hadoop KMS (KeyProviderKind HADOOP, the kind written
here) "it generates a random encrypted local key (16 or 32 bytes for 128 or 256 bit AES
respectively). Using the first 16 bytes as the IV, it uses AES/CTR to decrypt the local
key" with the master key: :func:`local_key`.

:class:`KeyProvider` is a TEST-ONLY in-memory key store (key name -> version and key
bytes), the reference's stand-in for a KMS; never for real data.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from reference_impl.orc.encryption.stream_encryption import IV_LENGTH, crypt
from reference_impl.orc.metadata.proto_enums import EncryptionAlgorithm

__all__ = ["KEY_LENGTHS", "KeyProvider", "MasterKey", "local_key", "new_encrypted_local_key"]

KEY_LENGTHS = {EncryptionAlgorithm.AES_CTR_128: 16, EncryptionAlgorithm.AES_CTR_256: 32}


@dataclass(frozen=True)
class MasterKey:
    """A master key: its name and version as the file's EncryptionKey gives them, and its bytes."""

    name: str
    version: int
    key: bytes

    def __post_init__(self) -> None:
        if len(self.key) not in KEY_LENGTHS.values():
            raise ValueError(
                f"master key {self.name!r}: {len(self.key)} bytes; AES/CTR keys here are "
                f"{sorted(KEY_LENGTHS.values())} bytes"
            )

    @property
    def algorithm(self) -> EncryptionAlgorithm:
        return next(kind for kind, length in KEY_LENGTHS.items() if length == len(self.key))


class KeyProvider:
    """TEST-ONLY: master keys held in memory, looked up by name and version."""

    def __init__(self, keys: Mapping[str, MasterKey] | None = None) -> None:
        self._keys = dict(keys or {})

    @classmethod
    def of(cls, *keys: MasterKey) -> KeyProvider:
        return cls({key.name: key for key in keys})

    def get(self, name: str, version: int) -> MasterKey | None:
        """The key of that name and version; None when this provider has no such key."""
        found = self._keys.get(name)
        return found if found is not None and found.version == version else None

    def __bool__(self) -> bool:
        return bool(self._keys)


def new_encrypted_local_key(algorithm: EncryptionAlgorithm, rng: random.Random) -> bytes:
    """A random encrypted local key, as long as the algorithm's keys."""
    return rng.randbytes(KEY_LENGTHS[algorithm])


def local_key(master: MasterKey, encrypted: bytes) -> bytes:
    """The local key that ``encrypted`` decrypts to under ``master`` (the module docstring)."""
    return crypt(master.key, encrypted[:IV_LENGTH], encrypted)
