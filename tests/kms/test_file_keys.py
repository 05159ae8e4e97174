"""Keys are resolved once per read (conformance.kms.file_keys): the reference reads a
file's footer once, plaintext or encrypted, and finds its keys and AAD prefix while
reading it; the engines that must pick their key tools first parse it once more."""

from __future__ import annotations

import sys

import pytest

from conformance.cases import case_by_id
from conformance.engines import get_engine
from conformance.engines.protocol.keys import parquet_read_keys
from conformance.kms.file_keys import file_encryption, own_column_key_metadata
from conformance.values import diff_tables
from reference_impl.parquet.metadata import parquet_thrift as M
from reference_impl.parquet.metadata import thrift_struct

FOOTERS = (M.FileMetaData, M.FileCryptoMetaData)
PLAINTEXT = "physical/int32-required"
ENCRYPTED_FOOTER = "encryption/kms-aes-gcm-v1-encrypted-footer-per_column"
PLAINTEXT_FOOTER = "encryption/explicit-aes-gcm-v1-plaintext-footer-uniform"
SUPPLIED_PREFIX = "encryption/aad-prefix-supplied"  # an encrypted footer; no prefix stored


@pytest.fixture
def footer_parses(monkeypatch):
    """Counts the FileMetaData and FileCryptoMetaData decoded, wherever from."""
    counts = {cls.__name__: 0 for cls in FOOTERS}
    original = thrift_struct.deserialize

    def counting(cls, *args, **kwargs):
        if cls in FOOTERS:
            counts[cls.__name__] += 1
        return original(cls, *args, **kwargs)

    for module in list(sys.modules.values()):
        if getattr(module, "deserialize", None) is original:
            monkeypatch.setattr(module, "deserialize", counting)
    return counts


def _written(case_id, tmp_path):
    case = case_by_id(case_id)
    path = tmp_path / f"{case_id.rsplit('/', 1)[-1]}.parquet"
    get_engine("reference").write(case, path)
    return case, path


@pytest.mark.parametrize(("case_id", "parses"), [
    (PLAINTEXT, {"FileMetaData": 1, "FileCryptoMetaData": 0}),
    (PLAINTEXT_FOOTER, {"FileMetaData": 1, "FileCryptoMetaData": 0}),
    (ENCRYPTED_FOOTER, {"FileMetaData": 1, "FileCryptoMetaData": 1}),
])
def test_the_reference_parses_the_footer_once_per_read(case_id, parses, tmp_path, footer_parses):
    case, path = _written(case_id, tmp_path)
    footer_parses.update(dict.fromkeys(footer_parses, 0))
    assert diff_tables(case.expected, get_engine("reference").read(path)) is None
    assert footer_parses == parses


def test_a_supplied_aad_prefix_is_resolved_while_reading(tmp_path, footer_parses):
    """The file stores no AAD prefix and asks for it: the reader is given the suite's
    (the file's name) only when it meets that request, with no parse before the read."""
    case, path = _written(SUPPLIED_PREFIX, tmp_path)
    assert file_encryption(path).supply_aad_prefix
    footer_parses.update(dict.fromkeys(footer_parses, 0))
    assert diff_tables(case.expected, get_engine("reference").read(path)) is None
    assert footer_parses == {"FileMetaData": 1, "FileCryptoMetaData": 1}


@pytest.mark.parametrize(("case_id", "parses"), [
    (PLAINTEXT_FOOTER, 1),  # the plaintext footer shows every column's key_metadata
    (ENCRYPTED_FOOTER, 3),  # FileCryptoMetaData; then decrypting the footer: it again, and FileMetaData
])
def test_the_protocol_read_keys_parse_what_they_must(case_id, parses, tmp_path, footer_parses):
    _, path = _written(case_id, tmp_path)
    footer_parses.update(dict.fromkeys(footer_parses, 0))
    keys = parquet_read_keys(path)
    assert sum(footer_parses.values()) == parses
    assert keys["footer_key"]
    encryption = file_encryption(path)
    assert set(keys["column_keys"]) == set(own_column_key_metadata(path, encryption))
