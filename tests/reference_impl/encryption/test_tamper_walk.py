"""Every GCM-protected module of a file, tampered one byte at a time: 100% detected.

'3.7.3', 4.1.1: GCM "supports two levels of integrity verification
(authentication)". The walk finds every module of a file (``modules_of``: page
headers, pages under AES_GCM_V1, dictionary pages and headers, ColumnIndex,
OffsetIndex, Bloom filter headers and bitsets, ColumnMetaData modules stored in
a plaintext footer, the encrypted footer, the plaintext footer's signature),
flips one byte of its nonce, one of its ciphertext and one of its tag, and
reads everything each time: every flip must raise DecryptionFailed. The
4-byte length field is not counted here: changing it moves the module's end
(``test_negative.test_truncated_module``). CTR pages are outside the walk:
they are not authenticated (``test_negative.test_ctr_page_tampering_is_not_authenticated``).
"""

from __future__ import annotations

import pytest

from reference_impl.parquet.encryption.modules import ModuleType
from reference_impl.parquet.errors import DecryptionFailed
from tests.reference_impl.encryption.encrypted_files import decryption, encryption, modules_of, write
from tests.reference_impl.encryption.test_negative import flipped, read_everything

MODES = [
    ("AES_GCM_V1", False),
    ("AES_GCM_V1", True),
    ("AES_GCM_CTR_V1", False),
    ("AES_GCM_CTR_V1", True),
]


def _gcm_kinds(algorithm: str, plaintext_footer: bool) -> set[ModuleType | None]:
    """The GCM module types a file of this mode stores where a byte can be flipped."""
    kinds: set[ModuleType | None] = set(ModuleType)
    if algorithm == "AES_GCM_CTR_V1":
        kinds -= {ModuleType.DATA_PAGE, ModuleType.DICTIONARY_PAGE}  # CTR
    if plaintext_footer:
        kinds = kinds - {ModuleType.FOOTER} | {None}  # the signature instead of a footer module
    else:
        kinds.discard(ModuleType.COLUMN_META_DATA)  # inside the encrypted footer module
    return kinds


@pytest.mark.parametrize(("algorithm", "plaintext_footer"), MODES)
def test_every_gcm_module_tamper_is_detected(algorithm: str, plaintext_footer: bool) -> None:
    properties = encryption(algorithm, plaintext_footer=plaintext_footer, layout="column keys")
    raw = write(properties, row_group_size=20, page_row_limit=10)
    keys = decryption(properties)
    read_everything(raw, keys)  # the untouched file reads
    modules = [m for m in modules_of(raw, keys) if m.gcm]
    assert {m.module_type for m in modules} == _gcm_kinds(algorithm, plaintext_footer)
    tampered = detected = 0
    for module in modules:
        middle = [module.ciphertext[len(module.ciphertext) // 2]] if module.ciphertext else []
        for position in [module.nonce_at, *middle, module.tag_at]:
            tampered += 1
            try:
                read_everything(flipped(raw, position), keys)
            except DecryptionFailed:
                detected += 1
            else:  # pragma: no cover - the failure this test exists for
                pytest.fail(f"{module.name}: a flipped byte at {position} went unnoticed")
    assert detected == tampered
    # Three flips per module; the signature has no ciphertext to flip.
    assert tampered == 3 * len(modules) - plaintext_footer
    print(
        f"{algorithm}, {'plaintext' if plaintext_footer else 'encrypted'} footer: "
        f"{detected}/{tampered} tampered bytes in {len(modules)} GCM modules detected"
    )
