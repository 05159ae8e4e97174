"""Interoperable test key management for Parquet modular encryption.

* `key_material`: parse the key tools' key_metadata JSON and recover data keys
  (`KeyRetriever` is a ``key_retriever(key_metadata) -> key`` callable);
* `in_memory`: the TEST-ONLY in-memory KMS (Python), `pyarrow_client` its pyarrow
  KmsClient; `java/` its Java twin for Spark, built by `java_build`;
* `spark_conf`: the SparkSession entries and per-write options for Spark.
"""

from conformance.kms.errors import KeyMaterialError, KeyUnwrapError, KmsError
from conformance.kms.in_memory import TEST_MASTER_KEYS, InMemoryTestKms
from conformance.kms.key_material import (
    KeyMaterial,
    KeyMetadata,
    KeyRetriever,
    parse_key_material,
    parse_key_metadata,
    unwrap_data_key,
)

__all__ = [
    "TEST_MASTER_KEYS",
    "InMemoryTestKms",
    "KeyMaterial",
    "KeyMaterialError",
    "KeyMetadata",
    "KeyRetriever",
    "KeyUnwrapError",
    "KmsError",
    "parse_key_material",
    "parse_key_metadata",
    "unwrap_data_key",
]
