"""How a case asks for Parquet Modular Encryption, engine-neutrally.

Spec: Encryption.md '3 Technical Approach': the two algorithms ('4.2 Parquet
encryption algorithms'), 128/192/256-bit AES keys, the footer encrypted or
plaintext and signed ('5.4 Encrypted footer mode', '5.5 Plaintext footer
mode'), a footer key with per-column keys or the footer key for every column
("uniform"), columns left unencrypted, the AAD prefix stored or to be supplied
('4.4.1 AAD prefix') and the key metadata ('4.3 Key metadata').

The keys themselves are test keys named after their role (``footer``,
``column:<name>``) and derived from the name and size, so every engine of a run
(and every later reader) finds the same key for the same name; see
``conformance.kms``. ``key_management`` says how a file names its keys in
``key_metadata``: ``explicit`` stores the key's name (the reader is handed the
keys), ``kms`` stores key material whose data key is wrapped by a master key
of the test KMS (the form pyarrow's CryptoFactory and parquet-java's
PropertiesDrivenCryptoFactory write), ``kms_double`` wraps it twice (through a
key-encryption key).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

ALGORITHMS = ("AES_GCM_V1", "AES_GCM_CTR_V1")
FOOTER_MODES = ("encrypted", "plaintext")
KEY_BITS = (128, 192, 256)
KEY_MANAGEMENT = ("explicit", "kms", "kms_double")
# The AAD prefix convention of the suite: the file's own name (without ".parquet"), the
# file identity '4.4.1 AAD prefix' describes. A reader of a file written without storing
# its prefix supplies the name of the file it opens, so a renamed (swapped) file fails.
FILE_NAME = "<file name>"


@dataclass(frozen=True)
class EncryptionOptions:
    algorithm: str = "AES_GCM_V1"
    footer: str = "encrypted"
    # Columns with a key of their own; the others stay plaintext. () is uniform
    # encryption: every column with the footer key.
    column_keys: tuple[str, ...] = ()
    key_bits: int = 128
    aad_prefix: str | None = None  # the file identity: a fixed text or FILE_NAME
    store_aad_prefix: bool = True  # False: supply_aad_prefix, the reader must know the prefix
    key_management: str = "explicit"

    def __post_init__(self) -> None:
        for name, value, allowed in (("algorithm", self.algorithm, ALGORITHMS),
                                     ("footer", self.footer, FOOTER_MODES),
                                     ("key_bits", self.key_bits, KEY_BITS),
                                     ("key_management", self.key_management, KEY_MANAGEMENT)):
            if value not in allowed:
                raise ValueError(f"encryption {name} must be one of {allowed}, not {value!r}")
        if not isinstance(self.column_keys, tuple) or len(set(self.column_keys)) != len(self.column_keys):
            raise ValueError(f"encryption column_keys must be a tuple of distinct names, "
                             f"not {self.column_keys!r}")
        if not self.store_aad_prefix and self.aad_prefix != FILE_NAME:
            raise ValueError("store_aad_prefix=False needs aad_prefix=FILE_NAME: readers supply the "
                             "file's name, the suite's file identity convention")

    def to_json(self) -> dict:
        return {**dataclasses.asdict(self), "column_keys": list(self.column_keys)}

    @classmethod
    def from_json(cls, doc: dict) -> EncryptionOptions:
        """Inverse of `to_json`."""
        return cls(**{**doc, "column_keys": tuple(doc["column_keys"])})

    def aad_prefix_for(self, path: Path) -> bytes | None:
        """The AAD prefix of the file written at `path` (FILE_NAME: its name without suffix)."""
        if self.aad_prefix is None:
            return None
        return (path.stem if self.aad_prefix == FILE_NAME else self.aad_prefix).encode("utf-8")

    @property
    def layout(self) -> str:
        return "per_column" if self.column_keys else "uniform"

    def tags(self) -> set[str]:
        """`encryption:<algorithm>` and one tag per further choice the case makes."""
        tags = {f"encryption:{self.algorithm}", f"encryption:footer={self.footer}",
                f"encryption:keys={self.layout}", f"encryption:key_bits={self.key_bits}",
                f"encryption:key_management={self.key_management}"}
        if self.aad_prefix is not None:
            tags.add("encryption:aad_prefix=" + ("stored" if self.store_aad_prefix else "supplied"))
        return tags
