"""`FileDecryptionProperties.aad_prefix_supplier` (Encryption.md, '4.4.1 AAD prefix'):
asked for the prefix only when the file says supply_aad_prefix and no prefix is given."""

from __future__ import annotations

from dataclasses import replace

import pytest

from reference_impl.parquet.errors import DecryptionFailed, MissingKey
from reference_impl.parquet.reader import read_parquet
from tests.reference_impl.encryption.encrypted_files import RECORDS, decryption, encryption, write

PREFIX = b"table.part7"


def _asked(answer: bytes, asked: list[bytes]):
    def supplier() -> bytes:
        asked.append(answer)
        return answer
    return supplier


@pytest.mark.parametrize("plaintext_footer", [False, True])
def test_a_file_asking_for_its_prefix_gets_the_supplier_answer(plaintext_footer) -> None:
    properties = encryption(aad_prefix=PREFIX, store_aad_prefix=False, plaintext_footer=plaintext_footer)
    raw, asked = write(properties), []
    keys = replace(decryption(properties), aad_prefix=None, aad_prefix_supplier=_asked(PREFIX, asked))
    assert read_parquet(raw, decryption=keys).records == RECORDS
    assert asked and set(asked) == {PREFIX}


def test_a_file_storing_its_prefix_never_asks_the_supplier() -> None:
    properties = encryption(aad_prefix=PREFIX, store_aad_prefix=True)
    asked: list[bytes] = []
    keys = replace(decryption(properties), aad_prefix_supplier=_asked(b"another file", asked))
    assert read_parquet(write(properties), decryption=keys).records == RECORDS
    assert asked == []


def test_a_wrong_supplied_prefix_fails_and_none_is_a_missing_key() -> None:
    properties = encryption(aad_prefix=PREFIX, store_aad_prefix=False)
    raw = write(properties)
    wrong = replace(decryption(properties), aad_prefix=None, aad_prefix_supplier=lambda: b"another file")
    with pytest.raises(DecryptionFailed):
        read_parquet(raw, decryption=wrong)
    with pytest.raises(MissingKey, match="must supply its AAD prefix"):
        read_parquet(raw, decryption=replace(decryption(properties), aad_prefix=None))
