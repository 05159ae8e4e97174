"""The engine adapters' mapping of `WriteOptions.encryption` (Parquet Modular Encryption).

For a small case (nulls, a string, a double, a list) and every EncryptionOptions
combination an engine writes: the engine reads its own file back, pyarrow and Spark
read each other's, the file really is encrypted (magic "PARE" for an encrypted footer;
FileMetaData.encryption_algorithm and ColumnChunk.crypto_metadata for a plaintext one)
and `case_key_retriever` recovers every key, proven by decrypting the footer and the
ColumnMetaData modules. What does not interoperate is kept as measured, with the
exact error: strict xfails flip when an engine changes.
"""

from __future__ import annotations

import base64
import itertools
import struct
from pathlib import Path

import pytest

from conformance.cases import Case, WriteOptions
from conformance.cases.encryption_options import EncryptionOptions
from conformance.engines import get_engine
from conformance.engines.base import Unsupported
from conformance.kms.case_keys import (
    FOOTER_ROLE,
    case_key_retriever,
    explicit_key,
    explicit_key_name,
)
from conformance.kms.file_keys import file_encryption
from conformance.values import Field, Schema, diff_tables
from conformance.values import types as T
from reference_impl.parquet.metadata import parquet_thrift as M
from reference_impl.parquet.metadata.thrift_struct import deserialize
from tests.kms._crypto_probe import open_column_metadata, open_footer, read_encrypted_file

SCHEMA = Schema((Field("id", T.integer(64), False), Field("name", T.string(), True),
                 Field("score", T.floating(64), True), Field("tags", T.list_of(T.string()), True)))
ROWS = ((1, "ann", 1.5, ["a", "b"]), (2, None, None, None), (3, "cy", -0.25, []),
        (4, "dee", None, ["c", None]), (5, None, 8.0, ["d"]))
SECRET_COLUMNS = ("name", "score")
ALGORITHMS = ("AES_GCM_V1", "AES_GCM_CTR_V1")
FOOTERS = ("encrypted", "plaintext")
LAYOUTS = ((), SECRET_COLUMNS)
KMS_MODES = ("kms", "kms_double")
KEY_BITS = (128, 192, 256)
# Every combination pyarrow's CryptoFactory and Spark's PropertiesDrivenCryptoFactory write.
KMS_OPTIONS = [EncryptionOptions(a, f, c, bits, key_management=m)
               for a, f, c, bits, m in itertools.product(ALGORITHMS, FOOTERS, LAYOUTS, KEY_BITS, KMS_MODES)]
# pyarrow writes them all but a plaintext footer with uniform encryption (see the finding).
PYARROW_OPTIONS = [e for e in KMS_OPTIONS if e.footer == "encrypted" or e.column_keys]
# The one combination DuckDB writes.
DUCKDB_OPTIONS = EncryptionOptions("AES_GCM_V1", "encrypted", (), 256, key_management="explicit")


def _id(e: EncryptionOptions) -> str:
    return "-".join((e.algorithm, e.footer, e.layout, str(e.key_bits), e.key_management))


def encrypted_case(e: EncryptionOptions) -> Case:
    return Case("test/encryption", "encryption", (), SCHEMA, ROWS,
                WriteOptions(encoding=None, encryption=e))


def written(engine_name: str, e: EncryptionOptions, tmp_path: Path, tag: str = "") -> Path:
    path = tmp_path / f"{engine_name}{tag}.parquet"
    get_engine(engine_name).write(encrypted_case(e), path)
    return path


def assert_reads_back(reader: str, path: Path) -> None:
    table = get_engine(reader).read(path)
    difference = diff_tables(Case("test/expected", "", (), SCHEMA, ROWS).expected, table)
    assert not difference, difference


def assert_encrypted_as_asked(path: Path, e: EncryptionOptions) -> None:
    """The raw footer shows the algorithm, footer mode and which columns have their own keys."""
    data = path.read_bytes()
    info = file_encryption(path)
    assert info is not None and info.algorithm == e.algorithm
    if e.footer == "encrypted":
        assert data[:4] == data[-4:] == b"PARE"
        (length,) = struct.unpack_from("<I", data, len(data) - 8)
        crypto, _ = deserialize(M.FileCryptoMetaData, data, start=len(data) - 8 - length)
        assert crypto.encryption_algorithm.kind == e.algorithm
        return
    assert data[-4:] == b"PAR1"
    (length,) = struct.unpack_from("<I", data, len(data) - 8)
    metadata, _ = deserialize(M.FileMetaData, data, start=len(data) - 8 - length)
    assert metadata.encryption_algorithm.kind == e.algorithm
    for chunk in metadata.row_groups[0].columns:
        name = chunk.meta_data.path_in_schema[0]
        crypto = chunk.crypto_metadata
        if not e.column_keys:  # uniform: every column with the footer key
            assert crypto is not None and crypto.ENCRYPTION_WITH_FOOTER_KEY is not None, name
        elif name in e.column_keys:
            assert crypto is not None and crypto.ENCRYPTION_WITH_COLUMN_KEY is not None, name
            assert chunk.encrypted_column_metadata, name
        else:
            assert crypto is None, name


def assert_keys_recovered(path: Path, e: EncryptionOptions) -> None:
    """`case_key_retriever` finds every key from key_metadata alone; each opens its module."""
    retriever = case_key_retriever()
    encrypted = read_encrypted_file(path.read_bytes())
    footer_key = retriever(encrypted.footer_key_metadata)
    assert footer_key is not None and len(footer_key) * 8 == e.key_bits
    open_footer(encrypted, footer_key)
    own = {".".join(c.path) for c in encrypted.columns if c.key_metadata is not None}
    assert own == set(e.column_keys)
    for column in encrypted.columns:
        if column.key_metadata is None:
            continue
        key = retriever(column.key_metadata)
        assert len(key) * 8 == e.key_bits
        assert open_column_metadata(encrypted, column, key).path_in_schema == column.path


# ---- pyarrow ------------------------------------------------------------------------

@pytest.mark.parametrize("e", PYARROW_OPTIONS, ids=_id)
def test_pyarrow_writes_reads_and_names_its_keys(e, tmp_path):
    path = written("pyarrow", e, tmp_path)
    assert_encrypted_as_asked(path, e)
    assert_keys_recovered(path, e)
    assert_reads_back("pyarrow", path)


@pytest.mark.parametrize(("e", "reason"), [
    (EncryptionOptions(key_management="explicit"), "no key_metadata"),
    (EncryptionOptions(aad_prefix="x", key_management="kms"), "no AAD prefix attribute"),
])
def test_pyarrow_cannot_write(e, reason):
    case = encrypted_case(e)
    assert reason in get_engine("pyarrow").capabilities.write_gap(case.write_features)
    with pytest.raises(Unsupported, match=reason):
        get_engine("pyarrow").write(case, Path("/nonexistent/never.parquet"))


def test_pyarrow_finding_uniform_encryption_ignores_plaintext_footer(tmp_path):
    """Finding: pyarrow 26's CryptoFactory writes an encrypted footer ("PARE") when asked for
    uniform encryption with a plaintext footer; the adapter declares the mode unsupported."""
    import pyarrow as pa
    import pyarrow.parquet as pq
    import pyarrow.parquet.encryption as pe

    from conformance.engines.parquet.pyarrow_engine import crypto_factory

    config = pe.EncryptionConfiguration(footer_key="footer_key", uniform_encryption=True,
                                        plaintext_footer=True)
    assert config.plaintext_footer
    path = tmp_path / "uniform-plaintext.parquet"
    pq.write_table(pa.table({"a": [1]}), path, encryption_properties=crypto_factory()
                   .file_encryption_properties(pe.KmsConnectionConfig(), config))
    assert path.read_bytes()[-4:] == b"PARE"
    with pytest.raises(Unsupported, match="ignores plaintext_footer"):
        get_engine("pyarrow").write(encrypted_case(EncryptionOptions(footer="plaintext",
                                                                     key_management="kms")), path)


def test_pyarrow_cannot_write_bloom_filters_with_encryption():
    case = Case("test/e", "e", (), SCHEMA, ROWS, WriteOptions(
        encoding=None, bloom_filter_columns=("name",), encryption=KMS_OPTIONS[0]))
    with pytest.raises(Unsupported, match="Encryption is not currently supported with bloom filter"):
        get_engine("pyarrow").write(case, Path("/nonexistent/never.parquet"))


def test_pyarrow_reads_plaintext_files_unchanged(tmp_path):
    path = tmp_path / "plain.parquet"
    get_engine("pyarrow").write(Case("test/plain", "plain", (), SCHEMA, ROWS, WriteOptions(encoding=None)),
                                path)
    assert file_encryption(path) is None
    assert_reads_back("pyarrow", path)


# ---- DuckDB -------------------------------------------------------------------------

def test_duckdb_writes_and_reads_its_one_mode(tmp_path):
    path = written("duckdb", DUCKDB_OPTIONS, tmp_path)
    assert_encrypted_as_asked(path, DUCKDB_OPTIONS)
    assert_reads_back("duckdb", path)


def test_duckdb_finding_no_key_metadata_and_empty_aad(tmp_path):
    """Finding: DuckDB 2.0 stores no key_metadata (so no reader can find the key from the
    file) and encrypts the footer with an empty AAD instead of aad_prefix + aad_file_unique
    + module type ('4.4 Additional Authenticated Data'): no aad_file_unique is stored."""
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    path = written("duckdb", DUCKDB_OPTIONS, tmp_path)
    encrypted = read_encrypted_file(path.read_bytes())
    assert encrypted.footer_key_metadata is None
    assert encrypted.aad_file_unique is None
    # Nothing in the file names the key: readers fall back on the suite's convention.
    assert case_key_retriever()(encrypted.footer_key_metadata) == explicit_key(FOOTER_ROLE, 256)
    module = encrypted.footer_region
    (length,) = struct.unpack_from("<I", module)
    body = module[4:4 + length]
    footer = AESGCM(explicit_key(FOOTER_ROLE, 256)).decrypt(body[:12], body[12:], b"")
    metadata, _ = deserialize(M.FileMetaData, footer)
    assert metadata.created_by.startswith("DuckDB")
    assert all(c.crypto_metadata is None for c in metadata.row_groups[0].columns)


def test_duckdb_finding_binary_128_bit_keys_cannot_be_given(tmp_path):
    """Finding: add_parquet_key uses a 16/24/32-character text as the raw key, so the base64
    text of a binary 128-bit key (24 characters) becomes a 192-bit key."""
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    key = explicit_key(FOOTER_ROLE, 128)
    con = get_engine("duckdb")._connection()
    con.execute("SET force_mbedtls_unsafe = 'true'")
    con.execute(f"PRAGMA add_parquet_key('k128', '{base64.b64encode(key).decode()}')")
    path = tmp_path / "k128.parquet"
    con.execute(f"COPY (SELECT 1 AS a) TO '{path}' "
                "(FORMAT parquet, ENCRYPTION_CONFIG {footer_key: 'k128'})")
    module = read_encrypted_file(path.read_bytes()).footer_region
    (length,) = struct.unpack_from("<I", module)
    body = module[4:4 + length]
    AESGCM(base64.b64encode(key)).decrypt(body[:12], body[12:], b"")  # the text itself is the key
    case = encrypted_case(EncryptionOptions(key_bits=128))
    assert "add_parquet_key" in get_engine("duckdb").capabilities.write_gap(case.write_features)


@pytest.mark.parametrize(("e", "reason"), [
    (EncryptionOptions("AES_GCM_CTR_V1", key_bits=256), "AES_GCM_V1 only"),
    (EncryptionOptions(footer="plaintext", key_bits=256), "plaintext_footer"),
    (EncryptionOptions(column_keys=SECRET_COLUMNS, key_bits=256), "column_keys not yet implemented"),
    (EncryptionOptions(key_bits=256, key_management="kms"), "no KMS"),
    (EncryptionOptions(key_bits=256, aad_prefix="x"), "aad_prefix"),
])
def test_duckdb_cannot_write(e, reason):
    case = encrypted_case(e)
    assert reason in get_engine("duckdb").capabilities.write_gap(case.write_features)


def test_duckdb_option_errors_are_as_declared(tmp_path):
    con = get_engine("duckdb")._connection()
    get_engine("duckdb")._register_key(FOOTER_ROLE, 256)
    name = explicit_key_name(FOOTER_ROLE, 256)
    for extra, error in (("plaintext_footer: true", "Unknown key in encryption_config"),
                         ("algorithm: 'AES_GCM_CTR_V1'", "Unknown key in encryption_config"),
                         ("aad_prefix: 'x'", "Unknown key in encryption_config"),
                         ("column_keys: {name: 'k'}", "column_keys not yet implemented")):
        with pytest.raises(Exception, match=error):
            con.execute(f"COPY (SELECT 1 AS a) TO '{tmp_path / 'x.parquet'}' "
                        f"(FORMAT parquet, ENCRYPTION_CONFIG {{footer_key: '{name}', {extra}}})")


@pytest.mark.xfail(strict=True, raises=OSError,
                   reason="finding: pyarrow cannot open DuckDB's file with the right key: OSError "
                          "'Failed decryption finalization' (DuckDB's empty AAD)")
def test_pyarrow_reads_duckdb_file(tmp_path):
    assert_reads_back("pyarrow", written("duckdb", DUCKDB_OPTIONS, tmp_path))


@pytest.mark.xfail(strict=True, reason="finding: DuckDB cannot open a spec-following uniform "
                   "AES_GCM_V1 file with the right key: 'Invalid Input Error: Computed AES tag "
                   "differs from read AES tag, are you using the right key?'")
def test_duckdb_reads_reference_file_in_its_mode(tmp_path):
    path = written("reference", DUCKDB_OPTIONS, tmp_path)
    assert_reads_back("duckdb", path)


def test_duckdb_error_on_spec_following_file_is_the_aad(tmp_path):
    path = written("reference", DUCKDB_OPTIONS, tmp_path)
    assert_reads_back("reference", path)  # the key is right
    with pytest.raises(Exception, match="Computed AES tag differs from read AES tag"):
        get_engine("duckdb").read(path)


# ---- fastparquet ----------------------------------------------------------------------

def test_fastparquet_declares_no_encryption():
    features = encrypted_case(KMS_OPTIONS[0]).features
    capabilities = get_engine("fastparquet").capabilities
    assert "no Parquet modular encryption" in capabilities.write_gap(features)
    assert "no Parquet modular encryption" in capabilities.read_gap(features)
    with pytest.raises(Unsupported, match="no Parquet modular encryption"):
        get_engine("fastparquet").write(encrypted_case(KMS_OPTIONS[0]), Path("/nonexistent/x.parquet"))


# ---- Spark ----------------------------------------------------------------------------

@pytest.mark.spark
@pytest.mark.parametrize("e", KMS_OPTIONS, ids=_id)
def test_spark_writes_reads_and_names_its_keys(spark, e, tmp_path):
    path = written("spark", e, tmp_path)
    assert_encrypted_as_asked(path, e)
    assert_keys_recovered(path, e)
    assert_reads_back("spark", path)
    assert_reads_back("pyarrow", path)


@pytest.mark.spark
@pytest.mark.parametrize("e", PYARROW_OPTIONS, ids=_id)
def test_spark_reads_pyarrow(spark, e, tmp_path):
    assert_reads_back("spark", written("pyarrow", e, tmp_path))


@pytest.mark.spark
@pytest.mark.parametrize(("e", "reason"), [
    (EncryptionOptions(key_management="explicit"), "no property takes an explicit key"),
    (EncryptionOptions(aad_prefix="x", key_management="kms"), "reads no AAD-prefix property"),
])
def test_spark_cannot_write(spark, e, reason):
    case = encrypted_case(e)
    assert reason in get_engine("spark").capabilities.write_gap(case.write_features)
    with pytest.raises(Unsupported, match=reason):
        get_engine("spark").write(case, Path("/nonexistent/never.parquet"))


@pytest.mark.spark
def test_spark_cannot_read_explicit_keys_as_declared(spark, tmp_path):
    path = written("reference", EncryptionOptions(), tmp_path)
    case = encrypted_case(EncryptionOptions())
    assert "Failed to parse key metadata" in get_engine("spark").capabilities.read_gap(case.features)
    with pytest.raises(Exception, match="Failed to parse key metadata conformance-test:footer:128"):
        get_engine("spark").read(path)


@pytest.mark.spark
def test_spark_reads_plaintext_files_with_the_crypto_factory_set(spark, tmp_path):
    path = tmp_path / "plain.parquet"
    get_engine("pyarrow").write(Case("test/plain", "plain", (), SCHEMA, ROWS, WriteOptions(encoding=None)),
                                path)
    assert_reads_back("spark", path)


@pytest.mark.spark
@pytest.mark.parametrize("case_id", ["encryption/kms-bloom-filter",
                                     "encryption/kms-aes-gcm-ctr-v1-plaintext-footer-per_column"])
def test_the_reference_reads_and_validates_spark_encrypted_files(spark, case_id, tmp_path):
    """parquet-java 1.17 pads the Thrift of its encrypted modules (footer, ColumnMetaData,
    Bloom filter header) with zero bytes; the reference reads through the padding."""
    from conformance.cases import case_by_id
    from conformance.kms.file_keys import case_decryption
    from reference_impl.parquet.validation.validate import validate

    case = case_by_id(case_id)
    path = tmp_path / "spark.parquet"
    get_engine("spark").write(case, path)
    assert diff_tables(case.expected, get_engine("reference").read(path)) is None
    findings = validate(path, decryption=case_decryption(path))
    # parquet-java 1.17 predates parquet-format 2.13, whose nan_count is a MUST for floats
    assert {f.kind for f in findings} <= {"statistics.nan_count_missing", "page_statistics.nan_count_missing"}
