"""Spark-side settings of the test KMS: session conf (at JVM start) and per-write options.

``spark_encryption_conf()`` gives the entries the run's SparkSession needs
*before its JVM starts* (the classpath cannot change afterwards):

* ``spark.driver.extraClassPath`` / ``spark.executor.extraClassPath``: the
  compiled test KMS (`java_build.compile_kms_classes`);
* ``spark.hadoop.parquet.crypto.factory.class``: parquet-java's
  PropertiesDrivenCryptoFactory (a write without encryption options stays plaintext);
* ``spark.hadoop.parquet.encryption.kms.client.class``: the test KMS;
* ``spark.hadoop.parquet.encryption.key.list``: the master keys;
* ``spark.hadoop.orc.key.provider`` and ``spark.hadoop.orc.conformance.test.keys``: ORC
  Java's key provider, the test one (``OrcTestKeyProviderFactory.java``) with the ORC
  test keys (`conformance.kms.orc_keys`), so Spark writes and reads encrypted ORC columns
  (ORCv1.md, 'Column Encryption').

parquet-java caches KMS clients per access token for
``parquet.encryption.cache.lifetime.seconds`` (600 s): the key list read at a
client's creation holds in the JVM. A write with other master keys must also
pass a new ``parquet.encryption.key.access.token`` (see `spark_write_options`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from conformance.kms.in_memory import KEY_LIST_PROPERTY, TEST_MASTER_KEYS, format_key_list
from conformance.kms.java_build import KMS_CLIENT_CLASS, compile_kms_classes
from conformance.kms.orc_keys import ORC_TEST_KEYS, format_orc_key
from reference_impl.orc.encryption.encryption_keys import MasterKey

CRYPTO_FACTORY_CLASS = "org.apache.parquet.crypto.keytools.PropertiesDrivenCryptoFactory"
CRYPTO_FACTORY_PROPERTY = "parquet.crypto.factory.class"
KMS_CLIENT_PROPERTY = "parquet.encryption.kms.client.class"
FOOTER_KEY_PROPERTY = "parquet.encryption.footer.key"
COLUMN_KEYS_PROPERTY = "parquet.encryption.column.keys"
UNIFORM_KEY_PROPERTY = "parquet.encryption.uniform.key"
PLAINTEXT_FOOTER_PROPERTY = "parquet.encryption.plaintext.footer"
ALGORITHM_PROPERTY = "parquet.encryption.algorithm"
DOUBLE_WRAPPING_PROPERTY = "parquet.encryption.double.wrapping"
DATA_KEY_LENGTH_PROPERTY = "parquet.encryption.data.key.length.bits"
KEY_MATERIAL_INTERNAL_PROPERTY = "parquet.encryption.key.material.store.internally"
ACCESS_TOKEN_PROPERTY = "parquet.encryption.key.access.token"
ORC_KEY_PROVIDER_PROPERTY = "orc.key.provider"
ORC_TEST_KEY_PROVIDER = "conformance-test"  # OrcTestKeyProviderFactory.KIND
ORC_KEYS_PROPERTY = "orc.conformance.test.keys"  # OrcTestKeyProviderFactory.KEYS_PROPERTY
ORC_ENCRYPT_PROPERTY = "orc.encrypt"  # "key:column,column;key:column"
ORC_MASK_PROPERTY = "orc.mask"  # "mask:column,column;mask:column"
HADOOP_PREFIX = "spark.hadoop."
DRIVER_CLASSPATH = "spark.driver.extraClassPath"
EXECUTOR_CLASSPATH = "spark.executor.extraClassPath"


def spark_encryption_conf(
    master_keys: Mapping[str, bytes] = TEST_MASTER_KEYS,
    cache_root: Path | str | None = None,
    orc_keys: Iterable[MasterKey] = ORC_TEST_KEYS.values(),
) -> dict[str, str]:
    """Spark conf entries for the session builder (``.config(key, value)`` each)."""
    classes = str(compile_kms_classes(cache_root))
    return {
        DRIVER_CLASSPATH: classes,
        EXECUTOR_CLASSPATH: classes,
        HADOOP_PREFIX + CRYPTO_FACTORY_PROPERTY: CRYPTO_FACTORY_CLASS,
        HADOOP_PREFIX + KMS_CLIENT_PROPERTY: KMS_CLIENT_CLASS,
        HADOOP_PREFIX + KEY_LIST_PROPERTY: format_key_list(master_keys),
        HADOOP_PREFIX + ORC_KEY_PROVIDER_PROPERTY: ORC_TEST_KEY_PROVIDER,
        HADOOP_PREFIX + ORC_KEYS_PROPERTY: ",".join(map(format_orc_key, orc_keys)),
    }


def orc_encryption_options(encrypt: Mapping[str, str], masks: Mapping[str, str]) -> dict[str, str]:
    """ORC Java's ``orc.encrypt`` / ``orc.mask`` for columns -> key names and columns ->
    masks (OrcWriteOptions.encrypt / masks); a column with no mask named is nullified, the
    default of ORCv1.md 'Data Masks'."""
    options = {ORC_ENCRYPT_PROPERTY: _grouped(encrypt)} if encrypt else {}
    if masks:
        options[ORC_MASK_PROPERTY] = _grouped(masks)
    return options


def _grouped(by_column: Mapping[str, str]) -> str:
    """``{"a": "k", "b": "k", "c": "j"}`` -> ``"k:a,b;j:c"``."""
    columns: dict[str, list[str]] = {}
    for column, name in by_column.items():
        columns.setdefault(name, []).append(column)
    return ";".join(f"{name}:{','.join(names)}" for name, names in columns.items())


def format_column_keys(column_keys: Mapping[str, Sequence[str]]) -> str:
    """``{"k1": ["a", "b.c"]}`` -> ``"k1:a,b.c"`` (``;`` between master keys)."""
    return ";".join(f"{key_id}:{','.join(columns)}" for key_id, columns in column_keys.items())


def spark_write_options(
    footer_key: str,
    column_keys: Mapping[str, Sequence[str]] | None = None,
    *,
    plaintext_footer: bool = False,
    algorithm: str = "AES_GCM_V1",
    double_wrapping: bool = True,
    data_key_length_bits: int = 128,
    internal_key_material: bool = True,
    access_token: str | None = None,
) -> dict[str, str]:
    """DataFrameWriter options of one encrypted write (PropertiesDrivenCryptoFactory properties).

    Without `column_keys` every column is encrypted with the footer key (uniform encryption).
    """
    options = {
        PLAINTEXT_FOOTER_PROPERTY: str(plaintext_footer).lower(),
        ALGORITHM_PROPERTY: algorithm,
        DOUBLE_WRAPPING_PROPERTY: str(double_wrapping).lower(),
        DATA_KEY_LENGTH_PROPERTY: str(data_key_length_bits),
        KEY_MATERIAL_INTERNAL_PROPERTY: str(internal_key_material).lower(),
    }
    if column_keys:
        options[FOOTER_KEY_PROPERTY] = footer_key
        options[COLUMN_KEYS_PROPERTY] = format_column_keys(column_keys)
    else:
        options[UNIFORM_KEY_PROPERTY] = footer_key
    if access_token is not None:
        options[ACCESS_TOKEN_PROPERTY] = access_token
    return options
