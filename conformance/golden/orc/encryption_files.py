"""ORC bad files of column encryption: a wrong key, a missing local key, altered ciphertext.

ORCv1.md, 'Column Encryption', 'Encryption Keys', 'Encryption Variants' and 'Stream
Encryption'. Each original is the reference's encrypted file of a STRING column under
the suite's test key ``pii`` (conformance/kms/orc_keys.py), and the reference reads every
entry with the suite's test keys (the default read options). AES/CTR carries no
authentication, so the reference finds a wrong key or altered bytes by decrypting the
variant's file statistics first: bytes that do not decode are ``DecryptionFailed``
(reference_impl/orc/encryption/encryption_variants.py).

A reader without the key reads each of these files' masked view, as 'Encryption
Variants' says it should: the verdict ``bad`` is that of a reader holding ``pii``
version 1, the suite's; such a reader must reject the file rather than return values.
So the entries are ``for_key_holders``: cells of the reference and of every reader the
harness hands ORC keys (conformance.golden.rejection).
"""

from __future__ import annotations

import dataclasses
from functools import cache

from conformance.formats import ORC
from conformance.kms.orc_keys import ENCRYPTION_SEED, ORC_TEST_KEYS
from reference_impl.orc.encryption.encryption_keys import MasterKey
from reference_impl.orc.encryption.encryption_variants import ColumnEncryption
from reference_impl.orc.metadata.file_tail import read_file_tail
from reference_impl.orc.metadata.orc_proto import EncryptionVariant, encode
from reference_impl.orc.metadata.proto_enums import TypeKind
from reference_impl.orc.metadata.type_tree import primitive, struct
from reference_impl.orc.streams.compression import decompress_stream
from reference_impl.orc.writer import write_orc
from reference_impl.orc.writer_options import OrcWriterOptions

from ..bad_file import BadFile

__all__ = ["encryption_files"]

SPEC_ENCRYPTION = "ORCv1.md: Column Encryption"
SPEC_KEYS = "ORCv1.md: Column Encryption, Encryption Keys"
SPEC_VARIANTS = "ORCv1.md: Column Encryption, Encryption Variants"
SPEC_STREAMS = "ORCv1.md: Column Encryption, Stream Encryption"
PROTO_STRIPE_INFORMATION = "orc_proto.proto: message StripeInformation"
KEY = ORC_TEST_KEYS["pii"]
# The same name and version as the suite's key, other bytes: what a reader holding the
# suite's key decrypts with is not what encrypted the local key.
IMPOSTOR = MasterKey(KEY.name, KEY.version, bytes(reversed(KEY.key)))
ROWS = 12
FLIP = 0xFF  # every bit of a byte flipped


def _write(key: MasterKey) -> bytes:
    rows = [{"id": row, "name": f"name {row}"} for row in range(ROWS)]
    encryption = ColumnEncryption((key,), {"name": key.name}, seed=ENCRYPTION_SEED)
    schema = struct([("id", primitive(TypeKind.LONG)), ("name", primitive(TypeKind.STRING))])
    return write_orc(schema, rows, OrcWriterOptions(encryption=encryption))


@cache
def encrypted() -> bytes:
    """The valid original: uncompressed, so the Footer holds the sealed bytes as they are."""
    return _write(KEY)


def wrong_key() -> bytes:
    return _write(IMPOSTOR)


def _flipped(raw: bytes, sealed: bytes, occurrence: int) -> bytes:
    """``raw`` with every bit of the ``occurrence``-th copy of ``sealed`` flipped (same length)."""
    start = -1
    for _ in range(occurrence + 1):
        start = raw.index(sealed, start + 1)
    return raw[:start] + bytes(b ^ FLIP for b in sealed) + raw[start + len(sealed):]


def _variant(raw: bytes) -> EncryptionVariant:
    encryption = read_file_tail(raw, decompress_stream).footer.encryption
    assert encryption is not None  # the original is encrypted
    return encryption.variants[0]


def tampered_file_statistics() -> bytes:
    raw = encrypted()
    return _flipped(raw, _variant(raw).file_statistics or b"", 0)


def tampered_footer_local_key() -> bytes:
    """The variant's encrypted local key altered; the first stripe's copy, listed before it
    in the Footer, is left as it is."""
    raw = encrypted()
    return _flipped(raw, _variant(raw).encrypted_key or b"", 1)


def missing_local_keys() -> bytes:
    """The first stripe's encrypted_local_keys left out (the Footer and PostScript re-encoded)."""
    raw = encrypted()
    tail = read_file_tail(raw, decompress_stream)
    first, *rest = tail.footer.stripes
    keyless = dataclasses.replace(first, encrypted_local_keys=[])
    footer = dataclasses.replace(tail.footer, stripes=[keyless, *rest])
    footer_bytes = encode(footer)
    postscript = encode(dataclasses.replace(tail.postscript, footer_length=len(footer_bytes)))
    return raw[:tail.footer_offset] + footer_bytes + postscript + bytes([len(postscript)])


def encryption_files() -> list[BadFile]:
    def entry(name: str, fault: str, error_class: str, spec: tuple[str, ...], make) -> BadFile:
        return BadFile(f"orc-encryption/{name}", fault, error_class, spec, make, encrypted, format=ORC,
                       for_key_holders=True)

    return [
        entry("wrong-key", f"The local key was encrypted with a key named {KEY.name!r}, version "
              f"{KEY.version}, whose bytes are not the reader's key of that name and version.",
              "DecryptionFailed", (SPEC_ENCRYPTION, SPEC_KEYS), wrong_key),
        entry("tampered-file-statistics", "Every bit of the variant's encrypted file statistics "
              "(EncryptionVariant.file_statistics) is flipped.", "DecryptionFailed",
              (SPEC_VARIANTS, SPEC_STREAMS), tampered_file_statistics),
        entry("tampered-local-key", "Every bit of the variant's encrypted local key "
              "(EncryptionVariant.encrypted_key) is flipped.", "DecryptionFailed",
              (SPEC_ENCRYPTION, SPEC_VARIANTS), tampered_footer_local_key),
        entry("missing-local-key", "The first stripe lists no encrypted local keys "
              "(StripeInformation.encrypted_local_keys): the stripes' streams have no key.",
              "CorruptMetadata", (SPEC_ENCRYPTION, PROTO_STRIPE_INFORMATION), missing_local_keys),
    ]
