"""EncryptionOptions: validation and the feature tags a case derives from them."""

from __future__ import annotations

import pytest

from conformance.cases import Case, WriteOptions
from conformance.cases.encryption_options import FILE_NAME, EncryptionOptions
from conformance.values import Field, Schema
from conformance.values import types as T

SCHEMA = Schema((Field("a", T.integer(32)), Field("l", T.list_of(T.integer(32)))))


def test_defaults_are_uniform_gcm_with_an_encrypted_footer():
    assert EncryptionOptions().tags() == {
        "encryption:AES_GCM_V1", "encryption:footer=encrypted", "encryption:keys=uniform",
        "encryption:key_bits=128", "encryption:key_management=explicit"}


def test_per_column_keys_and_a_supplied_aad_prefix_are_tagged():
    tags = EncryptionOptions("AES_GCM_CTR_V1", "plaintext", ("a",), 256, FILE_NAME, False,
                             "kms_double").tags()
    assert {"encryption:AES_GCM_CTR_V1", "encryption:footer=plaintext", "encryption:keys=per_column",
            "encryption:key_bits=256", "encryption:aad_prefix=supplied",
            "encryption:key_management=kms_double"} == tags


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"algorithm": "AES_CBC"}, "algorithm"),
    ({"footer": "signed"}, "footer"),
    ({"key_bits": 512}, "key_bits"),
    ({"key_management": "vault"}, "key_management"),
    ({"column_keys": ("a", "a")}, "distinct"),
    ({"store_aad_prefix": False}, "aad_prefix"),
    ({"store_aad_prefix": False, "aad_prefix": "tbl.part0"}, "FILE_NAME"),
])
def test_bad_options_are_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        EncryptionOptions(**kwargs)


@pytest.mark.parametrize("column", ["missing", "l"])
def test_column_keys_name_primitive_top_level_columns(column):
    with pytest.raises(ValueError, match="not a primitive top-level column"):
        Case("t/x", "x", (), SCHEMA, ((1, [1]),),
             WriteOptions(encryption=EncryptionOptions(column_keys=(column,))))


def test_the_file_name_convention_gives_each_file_its_prefix(tmp_path):
    named = EncryptionOptions(aad_prefix=FILE_NAME, store_aad_prefix=False)
    assert named.aad_prefix_for(tmp_path / "part-0.parquet") == b"part-0"
    assert EncryptionOptions(aad_prefix="tbl").aad_prefix_for(tmp_path / "x.parquet") == b"tbl"
    assert EncryptionOptions().aad_prefix_for(tmp_path / "x.parquet") is None
