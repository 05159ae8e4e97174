"""What a `write` request hands an adapter for an encrypted case: the keys, resolved for
the file, that every reader of the suite then finds again from the file alone."""

from __future__ import annotations

import json
from pathlib import Path

from conformance.cases import case_by_id
from conformance.engines.protocol.keys import orc_read_keys, write_keys
from conformance.engines.protocol.messages import problems
from conformance.kms.case_keys import case_key_retriever, explicit_key, explicit_key_name
from conformance.kms.in_memory import TEST_MASTER_KEYS

PATH = Path("/tmp/out/written.parquet")


def test_a_plaintext_case_has_no_keys():
    assert write_keys(case_by_id("physical/int32-required"), PATH) is None


def test_explicit_keys_come_with_their_names():
    case = case_by_id("encryption/explicit-aes-gcm-v1-encrypted-footer-per_column")
    keys = write_keys(case, PATH)
    assert keys["footer_key"] == explicit_key("footer", 128).hex()
    assert keys["footer_key_metadata"] == explicit_key_name("footer", 128)
    assert keys["column_keys"] == {c: explicit_key(f"column:{c}", 128).hex() for c in ("name", "score")}
    assert keys["column_key_metadata"]["score"] == explicit_key_name("column:score", 128)
    request = {"op": "write", "case": case.to_json(), "path": str(PATH), "keys": keys}
    assert problems("write.request", request) == []


def test_kms_keys_are_wrapped_by_the_test_master_keys_their_material_names():
    keys = write_keys(case_by_id("encryption/kms-double-wrapping"), PATH)
    retrieve = case_key_retriever()
    assert retrieve(keys["footer_key_metadata"].encode()).hex() == keys["footer_key"]
    for column, metadata in keys["column_key_metadata"].items():
        assert retrieve(metadata.encode()).hex() == keys["column_keys"][column]
        assert json.loads(metadata)["masterKeyID"] in TEST_MASTER_KEYS
    assert keys["kms_master_keys"] == {key_id: key.hex() for key_id, key in TEST_MASTER_KEYS.items()}


def test_the_aad_prefix_is_resolved_for_the_file():
    assert write_keys(case_by_id("encryption/aad-prefix-supplied"), PATH)["aad_prefix"] == "written"
    stored = write_keys(case_by_id("encryption/aad-prefix-stored"), PATH)
    assert stored["aad_prefix"] == "employees_23May2018.part0"


def test_an_encrypted_orc_case_gets_the_test_keys_its_columns_name():
    """ORCv1.md, 'Encryption Keys': a master key by name, version and algorithm."""
    case = case_by_id("orc/encryption/two-keys")
    keys = write_keys(case, PATH.with_suffix(".orc"))
    assert keys == {"orc_master_keys": [
        {"name": "finance", "version": 2, "algorithm": "AES_CTR_256", "key": bytes(range(88, 120)).hex()},
        {"name": "pii", "version": 1, "algorithm": "AES_CTR_128", "key": bytes(range(72, 88)).hex()}]}
    request = {"op": "write", "case": case.to_json(), "path": str(PATH.with_suffix(".orc")), "keys": keys}
    assert problems("write.request", request) == []
    assert write_keys(case_by_id("orc/types/date"), PATH.with_suffix(".orc")) is None


def test_a_read_of_an_encrypted_orc_file_gets_every_test_key(tmp_path):
    from conformance.engines.orc.reference import OrcReferenceEngine

    encrypted, plain = tmp_path / "encrypted.orc", tmp_path / "plain.orc"
    OrcReferenceEngine().write(case_by_id("orc/encryption/one-column"), encrypted)
    OrcReferenceEngine().write(case_by_id("orc/types/date"), plain)
    keys = orc_read_keys(encrypted)
    assert sorted(k["name"] for k in keys["orc_master_keys"]) == ["finance", "pii"]
    request = {"op": "read", "file": str(encrypted), "format": "orc", "keys": keys}
    assert problems("read.request", request) == []
    assert orc_read_keys(plain) is None
    assert problems("read.request", {**request, "keys": {"orc_master_keys": [
        {"name": "pii", "version": 1, "algorithm": "AES_CTR_128", "key": "00" * 20}]}}) != []
