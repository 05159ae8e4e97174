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

import pyarrow as pa
import pyarrow.parquet as pq
import pyarrow.parquet.encryption as pe
import pytest

from conformance.kms import InMemoryTestKms, KeyRetriever, KeyUnwrapError, parse_key_metadata
from conformance.kms.in_memory import KEY_LIST_PROPERTY, TEST_MASTER_KEYS, format_key_list
from conformance.kms.pyarrow_client import pyarrow_kms_client_factory
from tests.kms._crypto_probe import open_column_metadata, open_footer, read_encrypted_file

ALGORITHMS = ["AES_GCM_V1", "AES_GCM_CTR_V1"]
FOOTERS = ["encrypted_footer", "plaintext_footer"]
WRAPPINGS = ["single_wrapping", "double_wrapping"]
FOOTER_KEY = "footer_key"
# Column "b" shares the footer's master key (separate DEK); "c" stays plaintext.
COLUMN_KEYS = {"column_key_1": ["a"], "footer_key": ["b"], "column_key_2": ["d"]}
ENCRYPTED_COLUMNS = {"a": "column_key_1", "b": "footer_key", "d": "column_key_2"}


def sample_table() -> pa.Table:
    return pa.table({
        "a": pa.array([1, 2, None, 4], pa.int64()),
        "b": ["w", "x", "y", None],
        "c": [1.5, 2.5, 3.5, 4.5],
        "d": pa.array([True, False, True, None]),
    })


def write_encrypted(path, *, algorithm="AES_GCM_V1", footer="encrypted_footer", wrapping="double_wrapping",
                    data_key_length_bits=128, column_keys=COLUMN_KEYS) -> None:
    config = pe.EncryptionConfiguration(
        footer_key=FOOTER_KEY,
        column_keys=column_keys,
        encryption_algorithm=algorithm,
        plaintext_footer=footer == "plaintext_footer",
        double_wrapping=wrapping == "double_wrapping",
        data_key_length_bits=data_key_length_bits,
    )
    factory = pe.CryptoFactory(pyarrow_kms_client_factory(TEST_MASTER_KEYS))
    properties = factory.file_encryption_properties(pe.KmsConnectionConfig(), config)
    pq.write_table(sample_table(), path, encryption_properties=properties)


def read_with_pyarrow(path, kms_config: pe.KmsConnectionConfig | None = None, master_keys=None) -> pa.Table:
    factory = pe.CryptoFactory(pyarrow_kms_client_factory(master_keys))
    properties = factory.file_decryption_properties(kms_config or pe.KmsConnectionConfig(),
                                                    pe.DecryptionConfiguration())
    return pq.read_table(path, decryption_properties=properties)


def recover_and_check(data: bytes, retriever: KeyRetriever, expected_key_bytes: int = 16) -> dict[str, str]:
    """Recover the footer and column DEKs, prove them by decryption; return column -> master key id."""
    encrypted = read_encrypted_file(data)
    footer_dek = retriever(encrypted.footer_key_metadata)
    assert len(footer_dek) == expected_key_bytes
    open_footer(encrypted, footer_dek)
    masters = {}
    for column in encrypted.columns:
        assert column.key_metadata is not None, "per-column keys: every encrypted column has key_metadata"
        material = retriever.material(column.key_metadata)
        assert not material.is_footer_key
        column_dek = retriever(column.key_metadata)
        assert len(column_dek) == expected_key_bytes
        assert open_column_metadata(encrypted, column, column_dek).path_in_schema == column.path
        masters[".".join(column.path)] = material.master_key_id
    return masters


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
    config = pe.EncryptionConfiguration(footer_key=FOOTER_KEY, uniform_encryption=True)
    factory = pe.CryptoFactory(pyarrow_kms_client_factory(TEST_MASTER_KEYS))
    pq.write_table(sample_table(), path,
                   encryption_properties=factory.file_encryption_properties(pe.KmsConnectionConfig(), config))
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
