"""Key material parsing, local wrapping, the in-memory test KMS and the key list format."""

from __future__ import annotations

import base64
import json

import pytest

from conformance.kms import (
    InMemoryTestKms,
    KeyMaterialError,
    KeyRetriever,
    KeyUnwrapError,
    parse_key_material,
    parse_key_metadata,
    unwrap_data_key,
)
from conformance.kms.in_memory import TEST_MASTER_KEYS, format_key_list, parse_key_list
from conformance.kms.key_material import external_key_material_path, load_external_key_material
from conformance.kms.local_wrap import decrypt_key_locally, encrypt_key_locally

# As measured on a pyarrow 26 file (footer key, double wrapping).
MEASURED_FOOTER_MATERIAL = (
    '{"keyMaterialType":"PKMT1","internalStorage":true,"isFooterKey":true,"kmsInstanceID":"DEFAULT",'
    '"kmsInstanceURL":"DEFAULT","masterKeyID":"kf","wrappedDEK":"b/aie41m53hxj88iZRINkljOD31idy2Gpwo'
    'ewvMgRU4VSPOr3adNUow3Sws=","doubleWrapping":true,"keyEncryptionKeyID":"175z6uKxKHO/jiTpwd0gWw==",'
    '"wrappedKEK":"tMQqLg/Pt6YZYo3syZnhwErwTXyFnC7mWDQpaRq0/0DC0o12eb2OEpaLL0g="}'
)
DEK = bytes(range(100, 116))
KEK = bytes(range(200, 216))
KEK_ID = bytes(range(16))


def column_material(**overrides) -> dict:
    material = {"keyMaterialType": "PKMT1", "internalStorage": True, "isFooterKey": False,
                "masterKeyID": "column_key_1", "doubleWrapping": False,
                "wrappedDEK": InMemoryTestKms().wrap_key(DEK, "column_key_1")}
    material.update(overrides)
    return {key: value for key, value in material.items() if value is not None}


def double_wrapped_material() -> dict:
    return column_material(
        doubleWrapping=True,
        wrappedDEK=encrypt_key_locally(DEK, KEK, KEK_ID),
        keyEncryptionKeyID=base64.b64encode(KEK_ID).decode(),
        wrappedKEK=InMemoryTestKms().wrap_key(KEK, "column_key_1"),
    )


def test_parse_measured_footer_material():
    metadata = parse_key_metadata(MEASURED_FOOTER_MATERIAL.encode())
    assert metadata.internal_storage
    material = metadata.material
    assert material.is_footer_key and material.double_wrapping
    assert (material.master_key_id, material.kms_instance_id, material.kms_instance_url) == ("kf", "DEFAULT",
                                                                                            "DEFAULT")
    assert material.kek_id == "175z6uKxKHO/jiTpwd0gWw=="


def test_single_and_double_unwrap():
    kms = InMemoryTestKms()
    for material in (column_material(), double_wrapped_material()):
        assert unwrap_data_key(parse_key_material(json.dumps(material)), kms) == DEK
        assert KeyRetriever(kms)(json.dumps(material).encode()) == DEK


def test_local_wrap_round_trip_and_layout():
    wrapped = encrypt_key_locally(DEK, KEK, b"aad", nonce=bytes(12))
    blob = base64.b64decode(wrapped)
    assert len(blob) == 12 + len(DEK) + 16 and blob[:12] == bytes(12)
    assert decrypt_key_locally(wrapped, KEK, b"aad") == DEK
    with pytest.raises(KeyUnwrapError, match="authentication failed"):
        decrypt_key_locally(wrapped, KEK, b"other aad")


def test_in_memory_kms_aad_is_the_master_key_id():
    kms = InMemoryTestKms({"a": KEK, "b": KEK})
    wrapped = kms.wrap_key(DEK, "a")
    assert decrypt_key_locally(wrapped, KEK, b"a") == DEK
    with pytest.raises(KeyUnwrapError):
        kms.unwrap_key(wrapped, "b")  # same key bytes, other id: the AAD differs


def test_key_list_round_trip():
    text = format_key_list(TEST_MASTER_KEYS)
    assert text.startswith("footer_key:AAECAwQFBgcICQoLDA0ODw==, ")
    assert parse_key_list(text) == TEST_MASTER_KEYS
    assert parse_key_list(" k1 : AAECAwQFBgcICQoLDA0ODw== ,") == {"k1": bytes(range(16))}


@pytest.mark.parametrize(("text", "message"), [
    ("k1", "entry 'k1': expected 'keyId:base64Key'"),
    (":AAAA", "expected 'keyId:base64Key'"),
    ("k1:not base64!", "key 'k1': expected standard base64"),
])
def test_key_list_errors(text, message):
    with pytest.raises(KeyMaterialError, match=message):
        parse_key_list(text)


def test_master_key_length_checked():
    with pytest.raises(ValueError, match="master key 'short'.*got 5 bytes"):
        InMemoryTestKms({"short": b"12345"})


@pytest.mark.parametrize(("data", "message"), [
    (b"\xff\xfe", "expected UTF-8 JSON text"),
    (b"not json", "expected a JSON object, got invalid JSON"),
    (b"[1, 2]", "expected a JSON object, got list"),
    (b'{"internalStorage": true}', "missing field 'keyMaterialType'"),
    (b'{"keyMaterialType": "PKMT2", "internalStorage": true}',
     "'keyMaterialType': expected 'PKMT1', got 'PKMT2'"),
    (b'{"keyMaterialType": "PKMT1"}', "missing field 'internalStorage'"),
    (b'{"keyMaterialType": "PKMT1", "internalStorage": "true"}',
     "field 'internalStorage': expected a JSON boolean, got 'true'"),
    (b'{"keyMaterialType": "PKMT1", "internalStorage": false}', "missing field 'keyReference'"),
])
def test_malformed_key_metadata(data, message):
    with pytest.raises(KeyMaterialError, match=message):
        parse_key_metadata(data)


@pytest.mark.parametrize(("overrides", "message"), [
    ({"isFooterKey": None}, "missing field 'isFooterKey'"),
    ({"masterKeyID": 7}, "field 'masterKeyID': expected a JSON string, got 7"),
    ({"wrappedDEK": None}, "missing field 'wrappedDEK'"),
    ({"doubleWrapping": "no"}, "field 'doubleWrapping': expected a JSON boolean"),
    ({"doubleWrapping": True}, "missing field 'keyEncryptionKeyID'"),
    ({"isFooterKey": True}, "missing field 'kmsInstanceID'"),
])
def test_malformed_key_material(overrides, message):
    with pytest.raises(KeyMaterialError, match=message):
        parse_key_metadata(json.dumps(column_material(**overrides)))


@pytest.mark.parametrize(("overrides", "error", "message"), [
    ({"wrappedDEK": "%%%"}, KeyMaterialError, "expected standard base64"),
    ({"wrappedDEK": "AAAA"}, KeyMaterialError, "expected at least 28 bytes"),
    ({"keyEncryptionKeyID": "bad id"}, KeyMaterialError, "'keyEncryptionKeyID': expected standard base64"),
    ({"keyEncryptionKeyID": base64.b64encode(b"other id").decode()}, KeyUnwrapError,
     "'wrappedDEK': AES-GCM authentication failed"),
])
def test_double_wrapping_errors(overrides, error, message):
    material = {**double_wrapped_material(), **overrides}
    with pytest.raises(error, match=message):
        KeyRetriever(InMemoryTestKms())(json.dumps(material))


def test_unwrapped_key_of_wrong_length():
    material = column_material(wrappedDEK=InMemoryTestKms().wrap_key(b"12345", "column_key_1"))
    with pytest.raises(KeyMaterialError, match="unwrapped a 5-byte data key"):
        KeyRetriever(InMemoryTestKms())(json.dumps(material))


def test_external_key_material(tmp_path):
    reference = {"keyMaterialType": "PKMT1", "internalStorage": False, "keyReference": "columnKey0"}
    data_file = tmp_path / "part-0.parquet"
    store = {"columnKey0": json.dumps(column_material())}
    external_key_material_path(data_file).write_text(json.dumps(store))
    assert external_key_material_path(data_file).name == "_KEY_MATERIAL_FOR_part-0.parquet.json"
    retriever = KeyRetriever(InMemoryTestKms(), load_external_key_material(data_file))
    assert retriever(json.dumps(reference)) == DEK
    with pytest.raises(KeyMaterialError, match="external key material 'columnKey0' not supplied"):
        KeyRetriever(InMemoryTestKms())(json.dumps(reference))
