"""AES/CTR over a stream, with the IV ORC derives for it.

ORCv1.md, 'Stream Encryption': "To ensure that we don't reuse IV, we set the IV as:
bytes 0 to 2 - column id, bytes 3 to 4 - stream kind, bytes 5 to 7 - stripe id,
bytes 8 to 15 - cipher block counter". Each field is written most significant byte
first (as ORC Java does) and the counter starts at 0 at a stream's first byte, so a
stream is encrypted as one AES/CTR message whose first counter block is that IV. "For
data in the footer, use the number of stripes in the file as the stripe id": ORC Java
(orc-core 2.3.0, measured) uses one more, the first id no stripe has (stripes count from
1), and the reference does as it does (:func:`footer_stripe_id`; docs/orc-spec-notes.md,
note 19). CTR is its own inverse: :func:`crypt` encrypts and decrypts.

CTR carries no authentication: a wrong key or an altered byte decrypts to other bytes
without an error of its own. Readers find out only when those bytes fail to decompress
or decode (encryption_variants.py).
"""

from __future__ import annotations

from typing import Literal

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from reference_impl.orc.errors import UnsupportedFeature

__all__ = ["IV_LENGTH", "crypt", "footer_stripe_id", "stream_iv"]

COLUMN_ID_BYTES = 3
KIND_BYTES = 2
STRIPE_ID_BYTES = 3
COUNTER_BYTES = 8
IV_LENGTH = COLUMN_ID_BYTES + KIND_BYTES + STRIPE_ID_BYTES + COUNTER_BYTES  # the AES block, 16
BYTE_ORDER: Literal["big"] = "big"  # most significant byte first


def stream_iv(column: int, kind: int, stripe_id: int) -> bytes:
    """The IV of stream ``kind`` of ``column`` in the stripe whose encryption stripe id is
    ``stripe_id``, its block counter 0. UnsupportedFeature when a number does not fit its
    bytes (the IV cannot then tell two streams apart)."""
    fields = (
        ("column id", column, COLUMN_ID_BYTES),
        ("stream kind", kind, KIND_BYTES),
        ("stripe id", stripe_id, STRIPE_ID_BYTES),
    )
    for name, value, size in fields:
        if not 0 <= value < 1 << (8 * size):
            raise UnsupportedFeature(
                f"'Stream Encryption': {name} {value} does not fit the IV's {size} bytes"
            )
    return b"".join(value.to_bytes(size, BYTE_ORDER) for _, value, size in fields) + bytes(COUNTER_BYTES)


def footer_stripe_id(stripe_count: int) -> int:
    """The stripe id of the file tail's encrypted statistics: one past the last stripe's."""
    return stripe_count + 1


def crypt(key: bytes, iv: bytes, data: bytes) -> bytes:
    """``data`` encrypted (or decrypted) with AES/CTR under ``key`` from counter block ``iv``."""
    cipher = Cipher(algorithms.AES(key), modes.CTR(iv)).encryptor()
    return cipher.update(data) + cipher.finalize()
