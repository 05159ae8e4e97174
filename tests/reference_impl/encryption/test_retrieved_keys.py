"""A key found from the file's key_metadata (Encryption.md, '4.3 Key metadata') that
is no key is a missing key: MissingKey naming the column, from the reader and the
validator alike, never a ValueError."""

from __future__ import annotations

from dataclasses import replace

import pytest

from conformance.kms.case_keys import case_key_retriever, explicit_key
from reference_impl.parquet.errors import MissingKey
from reference_impl.parquet.reader import read_parquet
from reference_impl.parquet.validation.validate import validate
from tests.reference_impl.encryption.encrypted_files import decryption, encryption, write

SHORT_KEY = b"five!"
READERS = {"read_parquet": read_parquet, "validate": validate}


def keys_without_name(**changes):
    """A file whose "name" column key must come from ``key_retriever``, and the other keys."""
    properties = encryption(layout="some plaintext", **changes)
    keys = decryption(properties)
    others = {path: key for path, key in keys.column_keys.items() if path != "name"}
    return properties, replace(keys, column_keys=others)


@pytest.mark.parametrize("reader", READERS.values(), ids=READERS.keys())
def test_a_retrieved_key_of_the_wrong_length_is_a_missing_key(reader) -> None:
    properties, keys = keys_without_name()
    raw = write(properties)
    short_for_name = {b"key of name": SHORT_KEY}
    retrieving = replace(keys, key_retriever=short_for_name.get)
    with pytest.raises(MissingKey, match=r"the key of column name \(from key_retriever\) has 5 bytes"):
        reader(raw, decryption=retrieving)


@pytest.mark.parametrize("reader", READERS.values(), ids=READERS.keys())
@pytest.mark.parametrize(
    "key_metadata",
    [b"conformance-test:nonsense", b"conformance-test:column:name:100", b"conformance-test::128"],
)
def test_key_metadata_naming_no_test_key_is_a_missing_key(reader, key_metadata: bytes) -> None:
    properties, keys = keys_without_name()
    named = replace(properties, column_key_metadata={**properties.column_key_metadata, "name": key_metadata})
    raw = write(named)
    with pytest.raises(MissingKey, match="no key for encrypted column name"):
        reader(raw, decryption=replace(keys, key_retriever=case_key_retriever()))


def test_the_case_retriever_answers_test_key_names_only() -> None:
    retriever = case_key_retriever()
    assert retriever(b"conformance-test:column:name:192") == explicit_key("column:name", 192)
    assert len(retriever(b"conformance-test:column:name:192")) == 24
    assert retriever(b"conformance-test:column:name:100") is None
    assert retriever(b"conformance-test:nonsense") is None
