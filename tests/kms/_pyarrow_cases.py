"""Shared by the KMS tests: the sample table, pyarrow encrypted writes/reads, DEK recovery checks."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pyarrow.parquet.encryption as pe

from conformance.kms import KeyRetriever
from conformance.kms.in_memory import TEST_MASTER_KEYS
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
                    data_key_length_bits=128, column_keys=COLUMN_KEYS, uniform=False,
                    internal_key_material=True) -> None:
    config = pe.EncryptionConfiguration(
        footer_key=FOOTER_KEY,
        column_keys=None if uniform else column_keys,
        uniform_encryption=uniform,
        encryption_algorithm=algorithm,
        plaintext_footer=footer == "plaintext_footer",
        double_wrapping=wrapping == "double_wrapping",
        data_key_length_bits=data_key_length_bits,
        internal_key_material=internal_key_material,
    )
    factory = pe.CryptoFactory(pyarrow_kms_client_factory(TEST_MASTER_KEYS))
    properties = factory.file_encryption_properties(pe.KmsConnectionConfig(), config,
                                                    parquet_file_path=str(path))
    pq.write_table(sample_table(), path, encryption_properties=properties)


def read_with_pyarrow(path, kms_config: pe.KmsConnectionConfig | None = None, master_keys=None) -> pa.Table:
    factory = pe.CryptoFactory(pyarrow_kms_client_factory(master_keys))
    properties = factory.file_decryption_properties(kms_config or pe.KmsConnectionConfig(),
                                                    pe.DecryptionConfiguration(),
                                                    parquet_file_path=str(Path(path)))
    return pq.read_table(path, decryption_properties=properties)


def recover_and_check(data: bytes, retriever: KeyRetriever, expected_key_bytes: int = 16) -> dict[str, str]:
    """Recover the footer and column DEKs, prove them by decryption; return column -> master key id.

    Columns encrypted with the footer key (no key_metadata) are mapped to "<footer key>".
    """
    encrypted = read_encrypted_file(data)
    footer_dek = retriever(encrypted.footer_key_metadata)
    assert len(footer_dek) == expected_key_bytes
    open_footer(encrypted, footer_dek)
    masters = {}
    for column in encrypted.columns:
        name = ".".join(column.path)
        if column.key_metadata is None:
            masters[name] = "<footer key>"
            continue
        material = retriever.material(column.key_metadata)
        assert not material.is_footer_key
        column_dek = retriever(column.key_metadata)
        assert len(column_dek) == expected_key_bytes
        assert open_column_metadata(encrypted, column, column_dek).path_in_schema == column.path
        masters[name] = material.master_key_id
    return masters
