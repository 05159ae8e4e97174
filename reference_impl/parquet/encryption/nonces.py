"""Where nonces and the file's unique id come from.

Spec: Encryption.md, '4.1.3 Nonces and IVs': "Parquet
encryption uses the RBG-based (random bit generator) nonce construction as
defined in the section 8.2.2 of the NIST SP 800-38D document ... a unique nonce
with a length of 12 bytes"; '4.4.2 AAD suffix': the "internal file
identifier - a random byte array generated for each file (implementation-defined
length)".

:class:`SystemRandomness` (the default) draws both from the operating system.
:class:`DeterministicRandomness` is for TESTS ONLY: it derives them from a seed,
so a golden file is byte-for-byte reproducible. Never use it for real data: two
files written with one seed and one key reuse nonces, which breaks AES-GCM.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from typing import Protocol

from reference_impl.parquet.encryption.ciphers import NONCE_LENGTH

__all__ = ["FILE_UNIQUE_LENGTH", "DeterministicRandomness", "Randomness", "SystemRandomness"]

# 8 bytes, the length parquet-java and Arrow C++ give the file id ("implementation-defined").
FILE_UNIQUE_LENGTH = 8


class Randomness(Protocol):
    def for_file(self) -> Randomness:
        """The source for one file (the writer asks once per file)."""

    def nonce(self) -> bytes:
        """A fresh 12-byte nonce."""

    def file_unique(self) -> bytes:
        """A fresh file id for the AAD suffix."""

    def secret(self, length: int) -> bytes:
        """Fresh key bytes for a writer's key tools (data keys, key-encryption keys,
        key-wrapping nonces); the encryptor itself draws none."""


class SystemRandomness:
    """Nonces and file ids from ``os.urandom``."""

    def for_file(self) -> SystemRandomness:
        return self

    def nonce(self) -> bytes:
        return os.urandom(NONCE_LENGTH)

    def file_unique(self) -> bytes:
        return os.urandom(FILE_UNIQUE_LENGTH)

    def secret(self, length: int) -> bytes:
        return os.urandom(length)

    def __repr__(self) -> str:
        return "SystemRandomness()"


class DeterministicRandomness:
    """TEST ONLY: HMAC-SHA256(seed, label | counter) as the "random" bytes.

    Every draw increments one counter; :meth:`for_file` starts a fresh counter,
    so the same seed and the same write give the same file. Unsafe for real
    data (see the module docstring).
    """

    def __init__(self, seed: bytes) -> None:
        self._seed = bytes(seed)
        self._counter = 0

    def for_file(self) -> DeterministicRandomness:
        return DeterministicRandomness(self._seed)

    def _draw(self, label: bytes, length: int) -> bytes:
        self._counter += 1
        message = label + self._counter.to_bytes(8, "big")
        return hmac.new(self._seed, message, hashlib.sha256).digest()[:length]

    def nonce(self) -> bytes:
        return self._draw(b"nonce", NONCE_LENGTH)

    def file_unique(self) -> bytes:
        return self._draw(b"file unique", FILE_UNIQUE_LENGTH)

    def secret(self, length: int) -> bytes:
        return self._draw(b"secret", length)

    def __repr__(self) -> str:
        return f"DeterministicRandomness(seed={self._seed!r}) [TEST ONLY]"
