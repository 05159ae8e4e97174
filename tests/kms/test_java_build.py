"""The Java test KMS compiles with the machine's javac into a hash-keyed cache; the Spark conf entries."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from conformance.kms.in_memory import TEST_MASTER_KEYS, format_key_list
from conformance.kms.java_build import KMS_CLIENT_CLASS, JavaBuildError, compile_kms_classes
from conformance.kms.spark_conf import CRYPTO_FACTORY_CLASS, spark_encryption_conf, spark_write_options

needs_javac = pytest.mark.skipif(shutil.which("javac") is None, reason="no javac on PATH")
CLASS_FILE = KMS_CLIENT_CLASS.replace(".", "/") + ".class"


@pytest.fixture(scope="module")
def cache_root(tmp_path_factory):
    return tmp_path_factory.mktemp("kms_cache")


@needs_javac
def test_compiles_once_into_the_cache(cache_root):
    classes = compile_kms_classes(cache_root=cache_root)
    assert (classes / CLASS_FILE).is_file()
    assert classes.parent == cache_root / "kms-java"
    marker = classes / "marker"
    marker.write_text("kept")
    assert compile_kms_classes(cache_root=cache_root) == classes and marker.exists()  # no recompilation


def test_missing_javac_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(JavaBuildError, match="javac not found"):
        compile_kms_classes(cache_root=tmp_path)


@needs_javac
def test_spark_encryption_conf(cache_root):
    conf = spark_encryption_conf(cache_root=cache_root)
    classes = conf["spark.driver.extraClassPath"]
    assert conf["spark.executor.extraClassPath"] == classes and classes.startswith(str(cache_root))
    assert conf["spark.hadoop.parquet.crypto.factory.class"] == CRYPTO_FACTORY_CLASS
    assert conf["spark.hadoop.parquet.encryption.kms.client.class"] == KMS_CLIENT_CLASS
    assert conf["spark.hadoop.parquet.encryption.key.list"] == format_key_list(TEST_MASTER_KEYS)
    # ORC Java's key provider: the test one, found through the ServiceLoader entry copied
    # beside the classes, with the ORC test keys as `conformance read --orc-key` spells them.
    assert conf["spark.hadoop.orc.key.provider"] == "conformance-test"
    assert conf["spark.hadoop.orc.conformance.test.keys"] == (
        "pii:1:48494a4b4c4d4e4f5051525354555657,"
        "finance:2:58595a5b5c5d5e5f606162636465666768696a6b6c6d6e6f7071727374757677")
    services = Path(classes) / "META-INF" / "services" / "org.apache.orc.impl.KeyProvider$Factory"
    assert services.read_text().strip() == "columnar.conformance.kms.OrcTestKeyProviderFactory"


def test_spark_write_options():
    options = spark_write_options("footer_key", {"k1": ["a", "b.c"], "k2": ["d"]}, plaintext_footer=True,
                                  algorithm="AES_GCM_CTR_V1", double_wrapping=False)
    assert options == {
        "parquet.encryption.footer.key": "footer_key",
        "parquet.encryption.column.keys": "k1:a,b.c;k2:d",
        "parquet.encryption.plaintext.footer": "true",
        "parquet.encryption.algorithm": "AES_GCM_CTR_V1",
        "parquet.encryption.double.wrapping": "false",
        "parquet.encryption.data.key.length.bits": "128",
        "parquet.encryption.key.material.store.internally": "true",
    }
    assert spark_write_options("footer_key")["parquet.encryption.uniform.key"] == "footer_key"
