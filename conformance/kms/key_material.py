"""Parquet key material (the key tools' "PKMT1" JSON) and recovery of data keys from it.

parquet-java's key tools (PropertiesDrivenCryptoFactory) and Arrow C++'s
(pyarrow's CryptoFactory) store, in each footer / column ``key_metadata``, a
JSON object. Measured on pyarrow 26 and parquet-java 1.17 (internal storage,
the default):

    {"keyMaterialType": "PKMT1", "internalStorage": true,
     "isFooterKey": true,                          # false for a column key
     "kmsInstanceID": "DEFAULT", "kmsInstanceURL": "DEFAULT",   # footer key only
     "masterKeyID": "kf",
     "wrappedDEK": "<base64>",
     "doubleWrapping": true,
     "keyEncryptionKeyID": "<base64 of 16 random bytes>",       # double wrapping only
     "wrappedKEK": "<base64>"}                                  # double wrapping only

* Single wrapping: the KMS wraps the data encryption key (DEK) with the master key:
  ``DEK = kms.unwrap_key(wrappedDEK, masterKeyID)``.
* Double wrapping: the KMS wraps a key-encryption key (KEK) with the master key,
  and the DEK is wrapped locally with the KEK (`local_wrap`, AAD = the raw KEK id):
  ``KEK = kms.unwrap_key(wrappedKEK, masterKeyID)``,
  ``DEK = decrypt_key_locally(wrappedDEK, KEK, aad=b64decode(keyEncryptionKeyID))``.

With external storage (``parquet.encryption.key.material.store.internally=false``)
the key_metadata is only ``{"keyMaterialType": "PKMT1", "internalStorage": false,
"keyReference": "footerKey" | "columnKey<N>"}`` and the material lives in a
separate JSON file mapping each reference to its material string.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from conformance.kms.errors import KeyMaterialError
from conformance.kms.local_wrap import AES_KEY_LENGTHS, decode_base64, decrypt_key_locally

KEY_MATERIAL_TYPE = "PKMT1"

# JSON field names, as parquet-java's KeyMaterial / KeyMetadata spell them.
KEY_MATERIAL_TYPE_FIELD = "keyMaterialType"
INTERNAL_STORAGE_FIELD = "internalStorage"
KEY_REFERENCE_FIELD = "keyReference"
IS_FOOTER_KEY_FIELD = "isFooterKey"
KMS_INSTANCE_ID_FIELD = "kmsInstanceID"
KMS_INSTANCE_URL_FIELD = "kmsInstanceURL"
MASTER_KEY_ID_FIELD = "masterKeyID"
WRAPPED_DEK_FIELD = "wrappedDEK"
DOUBLE_WRAPPING_FIELD = "doubleWrapping"
KEK_ID_FIELD = "keyEncryptionKeyID"
WRAPPED_KEK_FIELD = "wrappedKEK"

# parquet-java's external key material store: one file per data file, beside it.
EXTERNAL_KEY_MATERIAL_PREFIX = "_KEY_MATERIAL_FOR_"
EXTERNAL_KEY_MATERIAL_SUFFIX = ".json"


class UnwrappingKms(Protocol):
    """What key recovery needs of a KMS: pyarrow's KmsClient method, same signature."""

    def unwrap_key(self, wrapped_key: str, master_key_identifier: str) -> bytes: ...


@dataclass(frozen=True)
class KeyMaterial:
    """One footer or column key's material (see the module docstring for the JSON)."""

    is_footer_key: bool
    master_key_id: str
    wrapped_dek: str
    double_wrapping: bool
    kms_instance_id: str | None = None
    kms_instance_url: str | None = None
    kek_id: str | None = None  # base64 text, as stored
    wrapped_kek: str | None = None

    def kek(self) -> tuple[str, str]:
        """``(kek_id, wrapped_kek)`` of double-wrapped material (its parser requires both)."""
        if self.kek_id is None or self.wrapped_kek is None:
            raise KeyMaterialError(f"key material of master key {self.master_key_id!r}: double "
                                   f"wrapping without {KEK_ID_FIELD!r} and {WRAPPED_KEK_FIELD!r}")
        return self.kek_id, self.wrapped_kek


@dataclass(frozen=True)
class KeyMetadata:
    """A key_metadata value: the material itself (internal storage) or a reference to it."""

    internal_storage: bool
    material: KeyMaterial | None = None
    key_reference: str | None = None


# ---------------------------------------------------------------------------
# Parsing
# ---------------------------------------------------------------------------


def _load_json_object(data: bytes | str, what: str) -> dict[str, Any]:
    if isinstance(data, bytes | bytearray | memoryview):
        try:
            data = bytes(data).decode("utf-8")
        except UnicodeDecodeError as error:
            raise KeyMaterialError(
                f"{what}: expected UTF-8 JSON text, got undecodable bytes ({error})"
            ) from None
    try:
        value = json.loads(data)
    except json.JSONDecodeError as error:
        raise KeyMaterialError(f"{what}: expected a JSON object, got invalid JSON ({error})") from None
    if not isinstance(value, dict):
        raise KeyMaterialError(f"{what}: expected a JSON object, got {type(value).__name__}")
    return value


def _field(obj: Mapping[str, Any], name: str, kind: type, what: str, *, required: bool = True) -> Any:
    """The field `name` of `obj`, checked to be of JSON type `kind` (str or bool)."""
    if name not in obj:
        if required:
            raise KeyMaterialError(f"{what}: missing field {name!r}")
        return None
    value = obj[name]
    if not isinstance(value, kind):
        expected = {str: "a JSON string", bool: "a JSON boolean"}[kind]
        raise KeyMaterialError(f"{what}: field {name!r}: expected {expected}, got {value!r}")
    return value


def _check_material_type(obj: Mapping[str, Any], what: str) -> None:
    material_type = _field(obj, KEY_MATERIAL_TYPE_FIELD, str, what)
    if material_type != KEY_MATERIAL_TYPE:
        raise KeyMaterialError(
            f"{what}: field {KEY_MATERIAL_TYPE_FIELD!r}: expected {KEY_MATERIAL_TYPE!r}, "
            f"got {material_type!r}"
        )


def parse_key_material(data: bytes | str | Mapping[str, Any], what: str = "key material") -> KeyMaterial:
    """Parse one key material JSON object (bytes, text or an already decoded mapping)."""
    obj = data if isinstance(data, Mapping) else _load_json_object(data, what)
    _check_material_type(obj, what)
    is_footer_key = _field(obj, IS_FOOTER_KEY_FIELD, bool, what)
    double_wrapping = _field(obj, DOUBLE_WRAPPING_FIELD, bool, what)
    return KeyMaterial(
        is_footer_key=is_footer_key,
        master_key_id=_field(obj, MASTER_KEY_ID_FIELD, str, what),
        wrapped_dek=_field(obj, WRAPPED_DEK_FIELD, str, what),
        double_wrapping=double_wrapping,
        # parquet-java reads the KMS instance only from the footer key's material.
        kms_instance_id=_field(obj, KMS_INSTANCE_ID_FIELD, str, what, required=is_footer_key),
        kms_instance_url=_field(obj, KMS_INSTANCE_URL_FIELD, str, what, required=is_footer_key),
        kek_id=_field(obj, KEK_ID_FIELD, str, what, required=double_wrapping),
        wrapped_kek=_field(obj, WRAPPED_KEK_FIELD, str, what, required=double_wrapping),
    )


def parse_key_metadata(data: bytes | str, what: str = "key_metadata") -> KeyMetadata:
    """Parse a footer or column key_metadata written by the Parquet key tools."""
    obj = _load_json_object(data, what)
    _check_material_type(obj, what)
    if _field(obj, INTERNAL_STORAGE_FIELD, bool, what):
        return KeyMetadata(internal_storage=True, material=parse_key_material(obj, what))
    return KeyMetadata(internal_storage=False, key_reference=_field(obj, KEY_REFERENCE_FIELD, str, what))


def external_key_material_path(parquet_path: str | Path) -> Path:
    """Where parquet-java's external key material store keeps a data file's material."""
    path = Path(parquet_path)
    return path.with_name(f"{EXTERNAL_KEY_MATERIAL_PREFIX}{path.name}{EXTERNAL_KEY_MATERIAL_SUFFIX}")


def load_external_key_material(parquet_path: str | Path) -> dict[str, str]:
    """The external key material of a data file: key reference -> material JSON text."""
    path = external_key_material_path(parquet_path)
    obj = _load_json_object(path.read_bytes(), str(path))
    for reference, material in obj.items():
        if not isinstance(material, str):
            raise KeyMaterialError(f"{path}: entry {reference!r}: expected a JSON string, got {material!r}")
    return obj


# ---------------------------------------------------------------------------
# Unwrapping
# ---------------------------------------------------------------------------


def _check_data_key(key: bytes, what: str) -> bytes:
    if len(key) not in AES_KEY_LENGTHS:
        raise KeyMaterialError(
            f"{what}: unwrapped a {len(key)}-byte data key, expected one of {AES_KEY_LENGTHS}"
        )
    return key


def unwrap_data_key(
    material: KeyMaterial,
    kms: UnwrappingKms,
    *,
    unwrap_kek: Callable[[KeyMaterial], bytes] | None = None,
) -> bytes:
    """The data encryption key (DEK) of `material`, single or double wrapped.

    `unwrap_kek` may replace the KMS call for the KEK (a cache); by default the
    KMS unwraps ``wrappedKEK`` with the master key.
    """
    what = f"key material of master key {material.master_key_id!r}"
    if not material.double_wrapping:
        return _check_data_key(kms.unwrap_key(material.wrapped_dek, material.master_key_id), what)
    kek_id_text, wrapped_kek = material.kek()
    kek = unwrap_kek(material) if unwrap_kek else kms.unwrap_key(wrapped_kek, material.master_key_id)
    kek_id = decode_base64(kek_id_text, f"{what}: field {KEK_ID_FIELD!r}")
    dek = decrypt_key_locally(material.wrapped_dek, kek, kek_id, what=f"{what}: field {WRAPPED_DEK_FIELD!r}")
    return _check_data_key(dek, what)


class KeyRetriever:
    """``key_retriever(key_metadata) -> DEK`` for a reader that knows only explicit keys.

    Plugs into ``FileDecryptionProperties(key_retriever=...)``. KEKs are cached by
    id, as the key tools do, so a file's many column keys cost one KMS call per
    master key. `external_material` (reference -> material JSON) serves files
    written with external key material storage.
    """

    def __init__(self, kms: UnwrappingKms, external_material: Mapping[str, str] | None = None):
        self._kms = kms
        self._external = dict(external_material or {})
        self._keks: dict[tuple[str, str], bytes] = {}

    @classmethod
    def for_file(cls, kms: UnwrappingKms, parquet_path: str | Path) -> KeyRetriever:
        """A retriever for one data file: loads its external key material when the file has one."""
        external = external_key_material_path(parquet_path)
        return cls(kms, load_external_key_material(parquet_path) if external.exists() else None)

    def material(self, key_metadata: bytes | str) -> KeyMaterial:
        metadata = parse_key_metadata(key_metadata)
        if metadata.material is not None:  # internal storage: the material is the metadata's
            return metadata.material
        reference = metadata.key_reference
        if reference not in self._external:
            raise KeyMaterialError(
                f"key_metadata: external key material {reference!r} not supplied "
                f"(known references: {sorted(self._external)})"
            )
        return parse_key_material(self._external[reference], f"external key material {reference!r}")

    def _unwrap_kek(self, material: KeyMaterial) -> bytes:
        kek_id, wrapped_kek = material.kek()
        cache_key = (material.master_key_id, kek_id)
        if cache_key not in self._keks:
            self._keks[cache_key] = self._kms.unwrap_key(wrapped_kek, material.master_key_id)
        return self._keks[cache_key]

    def __call__(self, key_metadata: bytes | str) -> bytes:
        return unwrap_data_key(self.material(key_metadata), self._kms, unwrap_kek=self._unwrap_kek)
