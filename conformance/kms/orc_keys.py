"""TEST-ONLY master keys of the suite's encrypted ORC cases, never for real data.

ORCv1.md, 'Encryption Keys': a key is known by name and version. The reference writes the
``orc/encryption/*`` cases with these and reads every ORC file with them (a reader with
the key gets the true values, 'Column Encryption'); one 128-bit and one 256-bit key, so
both AES_CTR algorithms are written. ``conformance read --orc-key`` replaces them.
"""

from __future__ import annotations

from reference_impl.orc.encryption.encryption_keys import KeyProvider, MasterKey

__all__ = ["ENCRYPTION_SEED", "ORC_TEST_KEYS", "format_orc_key", "orc_key", "test_key_provider"]

ORC_TEST_KEYS: dict[str, MasterKey] = {
    "pii": MasterKey("pii", 1, bytes(range(72, 88))),
    "finance": MasterKey("finance", 2, bytes(range(88, 120))),
}
# The reference's local keys come from this seed, so a case's file is the same on every run.
ENCRYPTION_SEED = 20_260_101


def test_key_provider() -> KeyProvider:
    return KeyProvider(ORC_TEST_KEYS)


def format_orc_key(key: MasterKey) -> str:
    """The master key as ``NAME:VERSION:HEX``, the form `orc_key` parses."""
    return f"{key.name}:{key.version}:{key.key.hex()}"


def orc_key(text: str) -> MasterKey:
    """``NAME:VERSION:HEX`` (the CLI's --orc-key) -> the master key; ValueError otherwise."""
    name, version, key = (text.split(":") + ["", ""])[:3]
    if not name or not version.isdigit() or not key:
        raise ValueError(f"--orc-key {text!r}: expected NAME:VERSION:HEX")
    return MasterKey(name, int(version), bytes.fromhex(key))
