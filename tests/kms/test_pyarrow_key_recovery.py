"""pyarrow writes with the test KMS; `KeyRetriever` recovers every data key, proven by decryption.

Each file mode (algorithm x footer mode x single/double wrapping) is written by
pyarrow's CryptoFactory with the Python test KMS, then:
* pyarrow reads it back through a fresh CryptoFactory (the KMS round trip);
* the footer DEK recovered from key_metadata decrypts the footer module (or
  verifies the plaintext footer's signature), independently of pyarrow;
* each column DEK decrypts that column's encrypted ColumnMetaData module.
"""

from __future__ import annotations

import itertools

import pyarrow.parquet.encryption as pe
import pytest

from conformance.kms import InMemoryTestKms, KeyRetriever, KeyUnwrapError, parse_key_metadata
from conformance.kms.in_memory import KEY_LIST_PROPERTY, TEST_MASTER_KEYS, format_key_list
from tests.kms._crypto_probe import open_footer, read_encrypted_file
from tests.kms._pyarrow_cases import (
    ALGORITHMS,
    ENCRYPTED_COLUMNS,
    FOOTER_KEY,
    FOOTERS,
    WRAPPINGS,
    read_with_pyarrow,
    recover_and_check,
    sample_table,
    write_encrypted,
)

MODES = list(itertools.product(ALGORITHMS, FOOTERS, WRAPPINGS))


@pytest.mark.parametrize(("algorithm", "footer", "wrapping"), MODES, ids=["-".join(m) for m in MODES])
def test_pyarrow_file_keys_recovered(tmp_path, algorithm, footer, wrapping):
    path = tmp_path / "encrypted.parquet"
    write_encrypted(path, algorithm=algorithm, footer=footer, wrapping=wrapping)
    data = path.read_bytes()
    assert data.endswith(b"PARE" if footer == "encrypted_footer" else b"PAR1")

    assert read_with_pyarrow(path, master_keys=TEST_MASTER_KEYS).equals(sample_table())

    encrypted = read_encrypted_file(data)
    assert encrypted.algorithm == algorithm
    footer_material = parse_key_metadata(encrypted.footer_key_metadata).material
    assert footer_material.is_footer_key and footer_material.master_key_id == FOOTER_KEY
    assert footer_material.double_wrapping == (wrapping == "double_wrapping")
    assert recover_and_check(data, KeyRetriever(InMemoryTestKms())) == ENCRYPTED_COLUMNS


@pytest.mark.parametrize("bits", [128, 192, 256])
def test_data_key_lengths(tmp_path, bits):
    path = tmp_path / "encrypted.parquet"
    write_encrypted(path, data_key_length_bits=bits)
    recover_and_check(path.read_bytes(), KeyRetriever(InMemoryTestKms()), expected_key_bytes=bits // 8)


def test_uniform_encryption_footer_key_columns(tmp_path):
    """Columns encrypted with the footer key carry no key_metadata: the footer DEK opens them."""
    path = tmp_path / "uniform.parquet"
    write_encrypted(path, uniform=True)
    encrypted = read_encrypted_file(path.read_bytes())
    metadata = open_footer(encrypted, KeyRetriever(InMemoryTestKms())(encrypted.footer_key_metadata))
    assert all(chunk.crypto_metadata.ENCRYPTION_WITH_FOOTER_KEY is not None
               for chunk in metadata.row_groups[0].columns)


def test_master_keys_from_custom_kms_conf(tmp_path):
    """The factory also takes the Hadoop-format key list from KmsConnectionConfig.custom_kms_conf."""
    path = tmp_path / "encrypted.parquet"
    write_encrypted(path)
    config = pe.KmsConnectionConfig(custom_kms_conf={KEY_LIST_PROPERTY: format_key_list(TEST_MASTER_KEYS)})
    assert read_with_pyarrow(path, kms_config=config).equals(sample_table())


def test_kek_cache_one_kms_call_per_master_key(tmp_path):
    path = tmp_path / "encrypted.parquet"
    write_encrypted(path, column_keys={"column_key_1": ["a", "b", "d"]})
    calls = []

    class CountingKms(InMemoryTestKms):
        def unwrap_key(self, wrapped_key, master_key_identifier):
            calls.append(master_key_identifier)
            return super().unwrap_key(wrapped_key, master_key_identifier)

    recover_and_check(path.read_bytes(), KeyRetriever(CountingKms()))
    assert sorted(calls) == ["column_key_1", "footer_key"]


@pytest.mark.parametrize("wrapping", WRAPPINGS)
def test_wrong_master_key_is_a_key_unwrap_error(tmp_path, wrapping):
    path = tmp_path / "encrypted.parquet"
    write_encrypted(path, wrapping=wrapping)
    impostor = InMemoryTestKms({**TEST_MASTER_KEYS, FOOTER_KEY: bytes(16)})
    encrypted = read_encrypted_file(path.read_bytes())
    with pytest.raises(KeyUnwrapError, match="footer_key"):
        KeyRetriever(impostor)(encrypted.footer_key_metadata)


def test_unknown_master_key_is_a_key_unwrap_error(tmp_path):
    path = tmp_path / "encrypted.parquet"
    write_encrypted(path)
    encrypted = read_encrypted_file(path.read_bytes())
    with pytest.raises(KeyUnwrapError, match="'footer_key' is not in this test KMS"):
        KeyRetriever(InMemoryTestKms({"column_key_1": bytes(16)}))(encrypted.footer_key_metadata)


def test_external_key_material_written_by_pyarrow(tmp_path):
    """pyarrow's internal_key_material=False: a key reference in the file, the material beside it."""
    path = tmp_path / "external.parquet"
    write_encrypted(path, internal_key_material=False)
    encrypted = read_encrypted_file(path.read_bytes())
    metadata = parse_key_metadata(encrypted.footer_key_metadata)
    assert not metadata.internal_storage and metadata.key_reference == "footerKey"
    retriever = KeyRetriever.for_file(InMemoryTestKms(), path)
    assert recover_and_check(path.read_bytes(), retriever) == ENCRYPTED_COLUMNS
    assert read_with_pyarrow(path, master_keys=TEST_MASTER_KEYS).equals(sample_table())
