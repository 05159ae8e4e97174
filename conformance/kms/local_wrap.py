"""Local key wrapping, the scheme of parquet-java's ``KeyToolkit.encryptKeyLocally``.

Parquet's key tools (parquet-java and Arrow C++ alike) wrap a key with another
key "locally" as:

    base64( nonce (12 bytes) | AES-GCM ciphertext of the key | GCM tag (16 bytes) )

using the standard base64 alphabet with padding. The AAD depends on the caller:

* the test in-memory KMS wraps a data key or a KEK with a master key, AAD = the
  master key id as UTF-8 bytes;
* double wrapping wraps a data key with a key-encryption key (KEK), AAD = the
  KEK id's raw bytes (the material stores them base64-encoded).
"""

from __future__ import annotations

import base64
import binascii
import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from conformance.kms.errors import KeyMaterialError, KeyUnwrapError

GCM_NONCE_LENGTH = 12
GCM_TAG_LENGTH = 16
# AES key lengths in bytes (128, 192, 256 bits): the only ones Parquet encryption allows.
AES_KEY_LENGTHS = (16, 24, 32)


def check_aes_key(key: bytes, what: str) -> None:
    """Raise ValueError unless `key` is a 128, 192 or 256-bit AES key."""
    if len(key) not in AES_KEY_LENGTHS:
        raise ValueError(f"{what}: expected an AES key of {AES_KEY_LENGTHS} bytes, got {len(key)} bytes")


def decode_base64(text: str, what: str) -> bytes:
    """Strict standard base64 (with padding), as Java's Base64.getDecoder() accepts."""
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError) as error:
        raise KeyMaterialError(f"{what}: expected standard base64 text, got {text!r} ({error})") from None


def encrypt_key_locally(key: bytes, wrapping_key: bytes, aad: bytes, *, nonce: bytes | None = None) -> str:
    """Wrap `key` with `wrapping_key`: base64(nonce | ciphertext | tag).

    `nonce` is for deterministic tests only; by default a fresh random nonce is used.
    """
    check_aes_key(wrapping_key, "wrapping key")
    nonce = os.urandom(GCM_NONCE_LENGTH) if nonce is None else nonce
    if len(nonce) != GCM_NONCE_LENGTH:
        raise ValueError(f"nonce: expected {GCM_NONCE_LENGTH} bytes, got {len(nonce)}")
    sealed = AESGCM(wrapping_key).encrypt(nonce, key, aad)
    return base64.b64encode(nonce + sealed).decode("ascii")


def decrypt_key_locally(wrapped: str, wrapping_key: bytes, aad: bytes, *, what: str = "wrapped key") -> bytes:
    """Open a key wrapped by `encrypt_key_locally` (or by parquet-java / Arrow C++)."""
    check_aes_key(wrapping_key, "wrapping key")
    blob = decode_base64(wrapped, what)
    if len(blob) < GCM_NONCE_LENGTH + GCM_TAG_LENGTH:
        raise KeyMaterialError(
            f"{what}: expected at least {GCM_NONCE_LENGTH + GCM_TAG_LENGTH} bytes "
            f"(nonce + tag) after base64 decoding, got {len(blob)}"
        )
    nonce, sealed = blob[:GCM_NONCE_LENGTH], blob[GCM_NONCE_LENGTH:]
    try:
        return AESGCM(wrapping_key).decrypt(nonce, sealed, aad)
    except InvalidTag:
        raise KeyUnwrapError(
            f"{what}: AES-GCM authentication failed (wrong wrapping key, wrong AAD {aad!r} "
            f"or tampered bytes)"
        ) from None
