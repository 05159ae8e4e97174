"""Byte-by-byte checks of the encryption primitives ('3.7.3', 4.2, 4.4.2, 5.1, 5.3)."""

from __future__ import annotations

import struct

import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM

from reference_impl.parquet.encryption.ciphers import (
    CTR_OVERHEAD,
    GCM_OVERHEAD,
    check_key,
    ctr_iv,
    decrypt_ctr,
    decrypt_gcm,
    encrypt_ctr,
    encrypt_gcm,
    footer_signature,
    read_module,
    verify_footer_signature,
)
from reference_impl.parquet.encryption.modules import ModuleType, aad_suffix, module_aad
from reference_impl.parquet.encryption.nonces import DeterministicRandomness, SystemRandomness
from reference_impl.parquet.encryption.properties import FileDecryptionProperties, FileEncryptionProperties
from reference_impl.parquet.errors import CorruptMetadata, DecryptionFailed, TruncatedFile

FILE_ID = b"\x01\x02\x03\x04\x05\x06\x07\x08"
KEY = bytes(range(16))
NONCE = bytes(range(100, 112))

# (module type, row group, column, page) -> the suffix after the file id, spelled out.
SUFFIXES = [
    (ModuleType.FOOTER, None, None, None, b"\x00"),
    (ModuleType.COLUMN_META_DATA, 1, 2, None, b"\x01\x01\x00\x02\x00"),
    (ModuleType.DATA_PAGE, 3, 4, 5, b"\x02\x03\x00\x04\x00\x05\x00"),
    (ModuleType.DICTIONARY_PAGE, 0, 0, None, b"\x03\x00\x00\x00\x00"),
    (ModuleType.DATA_PAGE_HEADER, 258, 1, 32767, b"\x04\x02\x01\x01\x00\xff\x7f"),
    (ModuleType.DICTIONARY_PAGE_HEADER, 7, 9, None, b"\x05\x07\x00\x09\x00"),
    (ModuleType.COLUMN_INDEX, 1, 0, None, b"\x06\x01\x00\x00\x00"),
    (ModuleType.OFFSET_INDEX, 0, 1, None, b"\x07\x00\x00\x01\x00"),
    (ModuleType.BLOOM_FILTER_HEADER, 2, 3, None, b"\x08\x02\x00\x03\x00"),
    (ModuleType.BLOOM_FILTER_BITSET, 3, 2, None, b"\x09\x03\x00\x02\x00"),
]


@pytest.mark.parametrize(("module_type", "row_group", "column", "page", "expected"), SUFFIXES)
def test_aad_suffix_of_every_module_type(module_type, row_group, column, page, expected) -> None:
    assert aad_suffix(FILE_ID, module_type, row_group, column, page) == FILE_ID + expected


def test_module_types_are_the_spec_numbers() -> None:
    assert [m.value for m in ModuleType] == list(range(10))


@pytest.mark.parametrize(
    ("module_type", "row_group", "column", "page", "problem"),
    [
        (ModuleType.FOOTER, 0, None, None, "no row group"),
        (ModuleType.COLUMN_INDEX, 0, 0, 0, "no page"),
        (ModuleType.DATA_PAGE, 0, 0, None, "needs a page"),
        (ModuleType.COLUMN_META_DATA, None, 0, None, "needs a row group"),
        (ModuleType.DATA_PAGE, 0, 0, 32768, "does not fit"),
        (ModuleType.OFFSET_INDEX, -1, 0, None, "does not fit"),
    ],
)
def test_aad_suffix_refuses_wrong_parts(module_type, row_group, column, page, problem) -> None:
    with pytest.raises(ValueError, match=problem):
        aad_suffix(FILE_ID, module_type, row_group, column, page)


def test_module_aad_is_prefix_then_suffix() -> None:
    assert module_aad(b"table.part0", b"suffix") == b"table.part0suffix"
    assert module_aad(None, b"suffix") == b"suffix"


def test_gcm_module_layout_and_independent_check() -> None:
    plaintext, aad = b"some page bytes", b"the aad"
    module = encrypt_gcm(KEY, NONCE, plaintext, aad)
    assert len(module) == len(plaintext) + GCM_OVERHEAD
    (length,) = struct.unpack_from("<I", module)
    assert length == len(module) - 4 == 12 + len(plaintext) + 16
    assert module[4:16] == NONCE
    ciphertext, tag = module[16:-16], module[-16:]
    # Independently: the GCM mode object of the Cipher API.
    encryptor = Cipher(algorithms.AES(KEY), modes.GCM(NONCE)).encryptor()
    encryptor.authenticate_additional_data(aad)
    assert encryptor.update(plaintext) + encryptor.finalize() == ciphertext
    assert encryptor.tag == tag
    # GCM's keystream is CTR from nonce | 00000002 (J0 + 1, NIST SP 800-38D).
    ctr = Cipher(algorithms.AES(KEY), modes.CTR(NONCE + b"\x00\x00\x00\x02")).encryptor()
    assert ctr.update(plaintext) == ciphertext
    assert decrypt_gcm(KEY, read_module(module, 0, len(module), tagged=True, what="m"), aad, "m") == plaintext


def test_ctr_iv_and_module_layout() -> None:
    assert ctr_iv(NONCE) == NONCE + b"\x00\x00\x00\x01"
    plaintext = bytes(range(40))  # three AES blocks, the last partial
    module = encrypt_ctr(KEY, NONCE, plaintext)
    assert len(module) == len(plaintext) + CTR_OVERHEAD
    assert struct.unpack_from("<I", module)[0] == 12 + len(plaintext)
    assert module[4:16] == NONCE
    # Independently: XOR with AES-ECB of the counter blocks nonce|1, nonce|2, nonce|3.
    ecb = Cipher(algorithms.AES(KEY), modes.ECB()).encryptor()
    keystream = b"".join(ecb.update(NONCE + counter.to_bytes(4, "big")) for counter in (1, 2, 3))
    assert module[16:] == bytes(p ^ k for p, k in zip(plaintext, keystream, strict=False))
    assert decrypt_ctr(KEY, read_module(module, 0, len(module), tagged=False, what="m")) == plaintext


@pytest.mark.parametrize("size", [16, 24, 32])
def test_every_key_size_round_trips(size: int) -> None:
    key = bytes(range(size))
    module = encrypt_gcm(key, NONCE, b"x" * 100, b"aad")
    assert (
        decrypt_gcm(key, read_module(module, 0, len(module), tagged=True, what="m"), b"aad", "m")
        == b"x" * 100
    )


@pytest.mark.parametrize("size", [0, 8, 15, 17, 31, 33, 64])
def test_other_key_sizes_are_refused(size: int) -> None:
    with pytest.raises(ValueError, match="16, 24 or 32"):
        check_key(bytes(size), "footer_key")
    with pytest.raises(ValueError, match="16, 24 or 32"):
        FileEncryptionProperties("AES_GCM_V1", bytes(size))
    with pytest.raises(ValueError, match="16, 24 or 32"):
        FileDecryptionProperties(column_keys={"a": bytes(size)})


def test_gcm_refuses_wrong_key_aad_and_any_flipped_byte() -> None:
    module = encrypt_gcm(KEY, NONCE, b"secret", b"aad")
    split = read_module(module, 0, len(module), tagged=True, what="m")
    with pytest.raises(DecryptionFailed):
        decrypt_gcm(bytes(16), split, b"aad", "m")
    with pytest.raises(DecryptionFailed):
        decrypt_gcm(KEY, split, b"other aad", "m")
    for index in range(4, len(module)):
        tampered = bytearray(module)
        tampered[index] ^= 0x01
        part = read_module(bytes(tampered), 0, len(module), tagged=True, what="m")
        with pytest.raises(DecryptionFailed, match="does not authenticate"):
            decrypt_gcm(KEY, part, b"aad", "m")


def test_module_length_is_checked_before_use() -> None:
    module = encrypt_gcm(KEY, NONCE, b"secret", b"aad")
    data = b"\x00" * 10 + module
    with pytest.raises(TruncatedFile, match="only") as caught:
        read_module(data, 10, len(data) - 1, tagged=True, what="page")
    assert caught.value.offset == 10
    huge = b"\xff\xff\xff\x7f" + module[4:]
    with pytest.raises(TruncatedFile, match="2147483647"):
        read_module(huge, 0, len(huge), tagged=True, what="page")
    short = struct.pack("<I", 20) + bytes(20)
    with pytest.raises(CorruptMetadata, match="less than"):
        read_module(short, 0, len(short), tagged=True, what="page")
    with pytest.raises(TruncatedFile, match="4-byte length"):
        read_module(b"\x01\x02", 0, 2, tagged=True, what="page")


def test_footer_signature_is_nonce_and_gcm_tag() -> None:
    footer, aad = b"serialized FileMetaData", FILE_ID + b"\x00"
    signature = footer_signature(KEY, NONCE, footer, aad)
    assert len(signature) == 28
    assert signature == NONCE + AESGCM(KEY).encrypt(NONCE, footer, aad)[-16:]
    verify_footer_signature(KEY, footer, signature, aad, 0)
    with pytest.raises(DecryptionFailed, match="signature"):
        verify_footer_signature(KEY, footer + b"!", signature, aad, 0)
    with pytest.raises(DecryptionFailed, match="signature"):
        verify_footer_signature(bytes(16), footer, signature, aad, 0)


def test_deterministic_randomness_is_reproducible_per_file() -> None:
    source = DeterministicRandomness(b"seed")
    first = source.for_file()
    draws = [first.file_unique(), first.nonce(), first.nonce()]
    second = source.for_file()
    assert [second.file_unique(), second.nonce(), second.nonce()] == draws
    assert len(draws[0]) == 8 and len(draws[1]) == 12 and draws[1] != draws[2]
    assert DeterministicRandomness(b"other").for_file().file_unique() != draws[0]
    system = SystemRandomness()
    assert system.nonce() != system.nonce()
