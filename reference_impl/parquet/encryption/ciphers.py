"""AES-GCM and AES-CTR module encryption, and the plaintext footer's signature.

Spec: Encryption.md:

* '4.2.1 AES_GCM_V1': "an input to the GCM cipher is an encryption key, a
  12-byte nonce, a plaintext and an AAD. The output is a ciphertext with the
  length equal to that of plaintext, and a 16-byte authentication tag";
* '4.2.2 AES_GCM_CTR_V1': "an input to the CTR cipher is an encryption key, a
  16-byte IV and a plaintext. IVs are comprised of a 12-byte nonce and a 4-byte
  initial counter field. The first 31 bits of the initial counter field are set
  to 0, the last bit is set to 1";
* '4 Encryption Algorithms and Keys': "all standard AES key sizes: 128, 192 and
  256 bits";
* '5.1 Encrypted module serialization'::

      GCM:  length (4 bytes, LE) | nonce (12) | ciphertext (length-28) | tag (16)
      CTR:  length (4 bytes, LE) | nonce (12) | ciphertext (length-12)

  "length" counts the buffer after it, not itself;
* '5.3', plaintext footer: "The footer signing is done by encrypting the
  serialized FileMetaData structure with the AES GCM algorithm ... Only the
  nonce and GCM tag are stored in the file – as a 28-byte fixed-length array".

AES itself comes from the ``cryptography`` package (``AESGCM``, and
``Cipher(AES(key), CTR(iv))``). Reading a module checks its length field
against the bytes available before using it; a module that does not
authenticate raises :class:`DecryptionFailed` and none of its bytes are returned.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from reference_impl.common.mapped_file import FileBytes
from reference_impl.parquet.errors import CorruptMetadata, DecryptionFailed, TruncatedFile

__all__ = [
    "CTR_INITIAL_COUNTER",
    "CTR_OVERHEAD",
    "GCM_OVERHEAD",
    "KEY_SIZES",
    "MODULE_LENGTH",
    "NONCE_LENGTH",
    "SIGNATURE_LENGTH",
    "TAG_LENGTH",
    "Module",
    "check_key",
    "ctr_iv",
    "decrypt_ctr",
    "decrypt_gcm",
    "encrypt_ctr",
    "encrypt_gcm",
    "footer_signature",
    "key_problem",
    "read_module",
    "verify_footer_signature",
]

KEY_SIZES = (16, 24, 32)  # AES-128, AES-192, AES-256, in bytes
NONCE_LENGTH = 12
TAG_LENGTH = 16
MODULE_LENGTH = struct.Struct("<I")  # the 4-byte little-endian length before each module's buffer
# "the last bit is set to 1": the 4-byte counter field, big-endian as AES-CTR increments it.
CTR_INITIAL_COUNTER = (1).to_bytes(4, "big")
GCM_OVERHEAD = MODULE_LENGTH.size + NONCE_LENGTH + TAG_LENGTH  # bytes a GCM module adds to its plaintext
CTR_OVERHEAD = MODULE_LENGTH.size + NONCE_LENGTH
SIGNATURE_LENGTH = NONCE_LENGTH + TAG_LENGTH  # the 28 bytes after a signed plaintext footer


def key_problem(key: object, what: str) -> str | None:
    """Why ``key`` is not an AES key (16, 24 or 32 bytes), naming ``what``; None if it is one."""
    if not isinstance(key, bytes | bytearray):
        return f"{what} must be bytes, got {type(key).__name__}"
    if len(key) not in KEY_SIZES:
        return f"{what} has {len(key)} bytes; AES keys have 16, 24 or 32 (128, 192 or 256 bits)"
    return None


def check_key(key: bytes, what: str) -> bytes:
    """``key`` as bytes if it is an AES key; ``ValueError`` naming ``what`` if not (a caller's argument)."""
    problem = key_problem(key, what)
    if problem is not None:
        raise ValueError(problem)
    return bytes(key)


def _check_nonce(nonce: bytes) -> None:
    if len(nonce) != NONCE_LENGTH:
        raise ValueError(f"a nonce has {NONCE_LENGTH} bytes, got {len(nonce)}")


def ctr_iv(nonce: bytes) -> bytes:
    """'4.2.2': the 16-byte CTR IV, the nonce then the counter 0...01."""
    _check_nonce(nonce)
    return bytes(nonce) + CTR_INITIAL_COUNTER


# ---------------------------------------------------------------------------
# Encryption: plaintext -> the module as stored ('5.1')
# ---------------------------------------------------------------------------


def encrypt_gcm(key: bytes, nonce: bytes, plaintext: bytes, aad: bytes) -> bytes:
    """length | nonce | ciphertext | tag."""
    _check_nonce(nonce)
    sealed = AESGCM(key).encrypt(nonce, bytes(plaintext), aad)  # ciphertext followed by the tag
    return MODULE_LENGTH.pack(NONCE_LENGTH + len(sealed)) + bytes(nonce) + sealed


def encrypt_ctr(key: bytes, nonce: bytes, plaintext: bytes) -> bytes:
    """length | nonce | ciphertext (no AAD, no tag: CTR authenticates nothing)."""
    encryptor = Cipher(algorithms.AES(key), modes.CTR(ctr_iv(nonce))).encryptor()
    ciphertext = encryptor.update(bytes(plaintext)) + encryptor.finalize()
    return MODULE_LENGTH.pack(NONCE_LENGTH + len(ciphertext)) + bytes(nonce) + ciphertext


def footer_signature(key: bytes, nonce: bytes, footer: bytes, aad: bytes) -> bytes:
    """'5.3': nonce | tag of the GCM encryption of the serialized footer (the ciphertext is dropped)."""
    _check_nonce(nonce)
    sealed = AESGCM(key).encrypt(nonce, bytes(footer), aad)
    return bytes(nonce) + sealed[-TAG_LENGTH:]


# ---------------------------------------------------------------------------
# Decryption: the module as stored -> plaintext
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Module:
    """One stored module, split into its parts; ``offset`` is its length field's, ``end`` just past it."""

    offset: int
    end: int
    nonce: bytes
    ciphertext: bytes
    tag: bytes  # empty for a CTR module


def read_module(data: FileBytes, start: int, end: int, *, tagged: bool, what: str) -> Module:
    """Split the module at ``data[start:]``, which must end by ``end``.

    The length field is checked against the bytes available before it is used:
    :class:`TruncatedFile` if the module would run past ``end``,
    :class:`CorruptMetadata` if it is too short to hold its nonce (and tag).
    """
    framing = MODULE_LENGTH.size + NONCE_LENGTH + (TAG_LENGTH if tagged else 0)
    if start + MODULE_LENGTH.size > end:
        raise TruncatedFile(f"{what}: {end - start} byte(s) left, not even the module's 4-byte length", start)
    (length,) = MODULE_LENGTH.unpack_from(data, start)
    body = start + MODULE_LENGTH.size
    if length > end - body:
        raise TruncatedFile(
            f"{what}: the module's length field says {length} bytes, only {end - body} are available", start
        )
    if MODULE_LENGTH.size + length < framing:
        raise CorruptMetadata(
            f"{what}: the module's length field says {length} bytes, less than its "
            f"{framing - MODULE_LENGTH.size}-byte nonce{' and tag' if tagged else ''}",
            start,
        )
    module_end = body + length
    tag_start = module_end - TAG_LENGTH if tagged else module_end
    return Module(
        offset=start,
        end=module_end,
        nonce=bytes(data[body : body + NONCE_LENGTH]),
        ciphertext=bytes(data[body + NONCE_LENGTH : tag_start]),
        tag=bytes(data[tag_start:module_end]),
    )


def decrypt_gcm(key: bytes, module: Module, aad: bytes, what: str) -> bytes:
    """The plaintext of a GCM module, or :class:`DecryptionFailed` if it does not authenticate."""
    try:
        return AESGCM(key).decrypt(module.nonce, module.ciphertext + module.tag, aad)
    except InvalidTag:
        raise DecryptionFailed(
            f"{what}: the AES-GCM module does not authenticate (wrong key, AAD prefix, "
            f"tampered or swapped bytes)",
            module.offset,
        ) from None


def decrypt_ctr(key: bytes, module: Module) -> bytes:
    """The plaintext of a CTR module; nothing can be verified ('4.2.2')."""
    decryptor = Cipher(algorithms.AES(key), modes.CTR(ctr_iv(module.nonce))).decryptor()
    return decryptor.update(module.ciphertext) + decryptor.finalize()


def verify_footer_signature(key: bytes, footer: bytes, signature: bytes, aad: bytes, offset: int) -> None:
    """Re-encrypt ``footer`` with the signature's nonce; :class:`DecryptionFailed` unless the tags agree.

    Decrypting "ciphertext" = the re-encryption, with the stored tag, checks the
    tag in constant time inside the library rather than comparing bytes here.
    """
    nonce, tag = signature[:NONCE_LENGTH], signature[NONCE_LENGTH:]
    ciphertext = AESGCM(key).encrypt(nonce, bytes(footer), aad)[:-TAG_LENGTH]
    try:
        AESGCM(key).decrypt(nonce, ciphertext + tag, aad)
    except InvalidTag:
        raise DecryptionFailed(
            "the plaintext footer's signature does not verify (wrong footer key or AAD prefix, "
            "or the footer was changed)",
            offset,
        ) from None
