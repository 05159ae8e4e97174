"""Every negative case of the encryption, each with its error class ('3.7.3').

==========================================================  ==================
case                                                        error
==========================================================  ==================
wrong footer key (encrypted footer, signed plaintext one)   DecryptionFailed
wrong column key                                            DecryptionFailed
missing column key (a projection of the others reads)       MissingKey
missing footer key for an encrypted footer                  MissingKey
tampered nonce / ciphertext / tag, each GCM module type     DecryptionFailed
module swapped: row group, column or page ordinal           DecryptionFailed
module swapped in from another file (same keys)             DecryptionFailed
AAD prefix: stored one differs from the expected one        DecryptionFailed
AAD prefix: a wrong one supplied for a file not storing it  DecryptionFailed
AAD prefix: none supplied for a file not storing it         MissingKey
truncated module (its length runs past its container)       TruncatedFile
tampered signed plaintext footer                            DecryptionFailed
AES_GCM_CTR_V1 page tampering                               undetectable (see its test)
==========================================================  ==================
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from reference_impl.parquet.encryption import FileDecryptionProperties
from reference_impl.parquet.encryption.ciphers import MODULE_LENGTH
from reference_impl.parquet.encryption.modules import ModuleType
from reference_impl.parquet.errors import (
    ChecksumMismatch,
    DecryptionFailed,
    MissingKey,
    ParquetError,
    TruncatedFile,
)
from reference_impl.parquet.metadata.file_layout import FOOTER_LENGTH
from reference_impl.parquet.reader import read_footer, read_parquet
from reference_impl.parquet.validation.validate import validate
from tests.reference_impl.encryption.encrypted_files import (
    RECORDS,
    ROWS,
    Located,
    decryption,
    encryption,
    modules_of,
    write,
)

OTHER_KEY = bytes(range(100, 116))


def read_everything(raw: bytes, keys: FileDecryptionProperties | None) -> None:
    """Touch every module: the data (read_parquet), the page index and Bloom filters (validate)."""
    assert read_parquet(raw, decryption=keys).records == RECORDS
    assert validate(raw, decryption=keys) == []


def flipped(raw: bytes, position: int) -> bytes:
    changed = bytearray(raw)
    changed[position] ^= 0x01
    return bytes(changed)


def swapped(raw: bytes, first: Located, second: Located) -> bytes:
    a, b = raw[first.offset : first.end], raw[second.offset : second.end]
    assert len(a) == len(b), (first.name, second.name)
    changed = bytearray(raw)
    changed[first.offset : first.end], changed[second.offset : second.end] = b, a
    return bytes(changed)


def module(modules: list[Located], name: str) -> Located:
    (found,) = [m for m in modules if m.name == name]
    return found


# ---------------------------------------------------------------------------
# Keys
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("plaintext_footer", [False, True])
def test_wrong_footer_key(plaintext_footer: bool) -> None:
    properties = encryption(plaintext_footer=plaintext_footer)
    raw = write(properties)
    wrong = decryption(properties, footer_key=OTHER_KEY)
    match = "signature" if plaintext_footer else "encrypted footer"
    with pytest.raises(DecryptionFailed, match=match):
        read_parquet(raw, decryption=wrong)


@pytest.mark.parametrize("plaintext_footer", [False, True])
def test_wrong_column_key(plaintext_footer: bool) -> None:
    properties = encryption(layout="column keys", plaintext_footer=plaintext_footer)
    raw = write(properties)
    keys = decryption(properties)
    wrong = replace(keys, column_keys={**keys.column_keys, "name": OTHER_KEY})
    with pytest.raises(DecryptionFailed, match="column name, row group 0"):
        read_parquet(raw, decryption=wrong)
    # The other columns still read with their right keys.
    assert read_parquet(raw, decryption=wrong, columns=["id", "scores"]).logical_rows() == [
        {"id": row["id"], "scores": row["scores"]} for row in ROWS
    ]


@pytest.mark.parametrize("plaintext_footer", [False, True])
def test_missing_column_key_and_the_projection_that_needs_none(plaintext_footer: bool) -> None:
    properties = encryption(layout="some plaintext", plaintext_footer=plaintext_footer)
    raw = write(properties)
    keys = decryption(properties)
    without = replace(keys, column_keys={"name": keys.column_keys["name"]})
    with pytest.raises(MissingKey, match="scores.list.element"):
        read_parquet(raw, decryption=without)
    with pytest.raises(MissingKey, match="scores.list.element"):
        validate(raw, decryption=without)
    contents = read_parquet(raw, decryption=without, columns=["id", "name", "address.city"])
    assert contents.logical_rows() == [
        {"id": row["id"], "name": row["name"], "address": row["address"]} for row in ROWS
    ]


def test_missing_footer_key() -> None:
    raw = write(encryption())
    with pytest.raises(MissingKey, match="footer key"):
        read_footer(raw)
    with pytest.raises(MissingKey, match="footer key"):
        read_parquet(raw, decryption=FileDecryptionProperties(column_keys={"id": OTHER_KEY}))
    # Uniform encryption under a plaintext footer: the footer reads, the columns need the footer key.
    raw = write(encryption(plaintext_footer=True))
    assert read_footer(raw)[0].num_rows == len(ROWS)
    with pytest.raises(MissingKey, match="footer key is needed for column id"):
        read_parquet(raw)


# ---------------------------------------------------------------------------
# Tampering, module by module type
# ---------------------------------------------------------------------------

GCM_TYPES = [t for t in ModuleType if t != ModuleType.COLUMN_META_DATA]


@pytest.mark.parametrize("module_type", list(ModuleType), ids=lambda t: t.name)
@pytest.mark.parametrize("part", ["nonce", "ciphertext", "tag"])
def test_tampered_module_of_each_type(module_type: ModuleType, part: str) -> None:
    # ColumnMetaData modules lie in the plaintext footer of the "column keys" layout; read them
    # without the footer key so that the module itself, not the footer signature, must notice.
    plaintext_footer = module_type == ModuleType.COLUMN_META_DATA
    properties = encryption(layout="column keys", plaintext_footer=plaintext_footer)
    raw = write(properties)
    keys = decryption(properties)
    target = next(m for m in modules_of(raw, keys) if m.module_type == module_type)
    position = {
        "nonce": target.nonce_at,
        "ciphertext": target.ciphertext[len(target.ciphertext) // 2],
        "tag": target.tag_at,
    }[part]
    if plaintext_footer:
        keys = replace(keys, footer_key=None)
    with pytest.raises(DecryptionFailed, match="does not authenticate"):
        read_everything(flipped(raw, position), keys)


# ---------------------------------------------------------------------------
# Swapped modules and files
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second", "ordinal"),
    [
        ("rg 0 id data page 0", "rg 1 id data page 0", "row group"),
        ("rg 0 id data page 0", "rg 0 twin data page 0", "column"),
        ("rg 0 id data page 0", "rg 0 id data page 1", "page"),
        ("rg 0 id Bloom filter bitset", "rg 1 id Bloom filter bitset", "row group"),
        ("rg 0 id ColumnIndex", "rg 0 twin ColumnIndex", "column"),
        ("rg 0 id ColumnIndex", "rg 1 id ColumnIndex", "row group"),
    ],
)
def test_module_swapped_with_another_of_its_type(first: str, second: str, ordinal: str) -> None:
    # Uniform encryption: both modules have the same key, only the AAD's ordinals differ.
    properties = encryption()
    raw = write(properties)
    keys = decryption(properties)
    modules = modules_of(raw, keys)
    with pytest.raises(DecryptionFailed, match="does not authenticate"):
        read_everything(swapped(raw, module(modules, first), module(modules, second)), keys)


def test_module_from_another_file_with_the_same_keys() -> None:
    # No AAD prefix: the file unique id in every AAD suffix still tells the files apart.
    properties = encryption()
    raw, other = write(properties), write(replace(properties, randomness=type(properties.randomness)(b"2")))
    keys = decryption(properties)
    mine, theirs = (
        module(modules_of(raw, keys), "rg 0 id data page 0"),
        module(modules_of(other, keys), "rg 0 id data page 0"),
    )
    assert (mine.offset, mine.end) == (theirs.offset, theirs.end)
    transplanted = raw[: mine.offset] + other[theirs.offset : theirs.end] + raw[mine.end :]
    with pytest.raises(DecryptionFailed, match="data page 0"):
        read_parquet(transplanted, decryption=keys)


@pytest.mark.parametrize("plaintext_footer", [False, True])
def test_aad_prefix_of_a_file_swapped_for_another(plaintext_footer: bool) -> None:
    stored = encryption(plaintext_footer=plaintext_footer, aad_prefix=b"employees.part0")
    raw = write(stored)
    with pytest.raises(DecryptionFailed, match="AAD prefix mismatch"):
        read_parquet(raw, decryption=decryption(stored, aad_prefix=b"employees.part1"))
    assert read_parquet(raw, decryption=decryption(stored, aad_prefix=b"employees.part0")).records == RECORDS

    withheld = encryption(
        plaintext_footer=plaintext_footer, aad_prefix=b"employees.part0", store_aad_prefix=False
    )
    raw = write(withheld)
    with pytest.raises(DecryptionFailed, match="does not authenticate|does not verify"):
        read_parquet(raw, decryption=decryption(withheld, aad_prefix=b"employees.part1"))
    with pytest.raises(MissingKey, match="supply_aad_prefix"):
        read_parquet(raw, decryption=decryption(withheld, aad_prefix=None))


# ---------------------------------------------------------------------------
# Truncation and the signed plaintext footer
# ---------------------------------------------------------------------------


def test_truncated_module() -> None:
    properties = encryption()
    raw = write(properties)
    keys = decryption(properties)
    modules = modules_of(raw, keys)
    # A page header whose length runs past its column chunk.
    header = module(modules, "rg 0 id data page 0 header")
    changed = bytearray(raw)
    MODULE_LENGTH.pack_into(changed, header.offset, 1 << 20)
    with pytest.raises(TruncatedFile, match="only") as caught:
        read_parquet(bytes(changed), decryption=keys)
    assert caught.value.offset == header.offset
    # The encrypted footer cut short: 10 bytes gone, the footer length kept consistent.
    footer = module(modules, "footer")
    length_at = len(raw) - 8
    (length,) = FOOTER_LENGTH.unpack_from(raw, length_at)
    cut = raw[: footer.end - 10] + FOOTER_LENGTH.pack(length - 10) + raw[-4:]
    with pytest.raises(TruncatedFile, match="encrypted footer"):
        read_parquet(cut, decryption=keys)


def test_tampered_signed_plaintext_footer() -> None:
    properties = encryption(layout="some plaintext", plaintext_footer=True)
    raw = write(properties)
    created_by = raw.rfind(b"columnar-conformance reference")
    tampered = raw[:created_by] + b"C" + raw[created_by + 1 :]  # still a valid FileMetaData
    with pytest.raises(DecryptionFailed, match="signature does not verify"):
        read_parquet(tampered, decryption=decryption(properties))
    with pytest.raises(DecryptionFailed, match="signature does not verify"):
        read_footer(tampered, decryption=FileDecryptionProperties(footer_key=properties.footer_key))
    # Without the footer key the footer cannot be verified: a legacy-style read of the plaintext
    # columns goes on (the reader's documented choice), and says it did not verify.
    from reference_impl.parquet.reader import read_footer_with_decryptor

    _, _, decryptor = read_footer_with_decryptor(tampered)
    assert decryptor is not None and not decryptor.footer_verified


# ---------------------------------------------------------------------------
# AES_GCM_CTR_V1: page tampering is undetectable by design
# ---------------------------------------------------------------------------


def test_ctr_page_tampering_is_not_authenticated() -> None:
    """'4.2.2': "tampering with the page data might go unnoticed". A flipped bit of a CTR
    page flips the same bit of the plaintext: the read returns altered data, with no
    authentication error. Only a CRC (itself inside the GCM-protected header) notices, and a
    CRC is no authentication: its changes under bit flips are computable."""
    properties = encryption("AES_GCM_CTR_V1")
    raw = write(properties, page_checksum=False)
    keys = decryption(properties)
    page = module(modules_of(raw, keys), "rg 0 id data page 0")
    assert not page.gcm
    # The page is PLAIN INT64 without levels: plaintext byte 0 is the low byte of id 0.
    contents = read_parquet(flipped(raw, page.ciphertext.start), decryption=keys)
    assert [record["id"] for record in contents.records[:3]] == [1, 1, 2]  # id 0 became 1, silently

    raw = write(properties)  # with CRCs
    page = module(modules_of(raw, keys), "rg 0 id data page 0")
    assert read_parquet(flipped(raw, page.ciphertext.start), decryption=keys).records[0]["id"] == 1
    with pytest.raises(ChecksumMismatch):
        read_parquet(flipped(raw, page.ciphertext.start), decryption=keys, verify_checksums=True)
    # A flipped byte of a dictionary page may also just fail decoding: still no DecryptionFailed.
    dictionary = module(modules_of(raw, keys), "rg 0 name dictionary page")
    try:
        read_parquet(flipped(raw, dictionary.ciphertext.start), decryption=keys)
    except DecryptionFailed:  # pragma: no cover - would be a false claim of authentication
        pytest.fail("a CTR page cannot fail authentication")
    except ParquetError:
        pass
