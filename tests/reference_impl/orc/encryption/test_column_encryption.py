"""ORC column encryption in the reference (ORCv1.md, 'Column Encryption' and its sections):
the IV byte by byte, round trips with keys, the masked view without them (read by ORC C++
too: pyarrow.orc and pyorc ignore the Encryption message), wrong keys and altered bytes."""

from __future__ import annotations

import dataclasses
import hashlib

import pyarrow.orc as pa_orc
import pyorc
import pytest
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes

from reference_impl.orc.encryption.data_masks import mask_values
from reference_impl.orc.encryption.encryption_keys import KeyProvider, MasterKey, local_key
from reference_impl.orc.encryption.encryption_variants import ColumnEncryption
from reference_impl.orc.encryption.stream_encryption import stream_iv
from reference_impl.orc.errors import DecryptionFailed, InvalidValue, UnsupportedFeature
from reference_impl.orc.metadata import type_tree as T
from reference_impl.orc.metadata.file_tail import read_file_tail
from reference_impl.orc.metadata.orc_proto import FileStatistics, decode
from reference_impl.orc.metadata.proto_enums import CompressionKind, EncryptionAlgorithm, StreamKind, TypeKind
from reference_impl.orc.reader import read_orc
from reference_impl.orc.streams.compression import decompress_stream
from reference_impl.orc.writer import write_orc
from reference_impl.orc.writer_options import OrcWriterOptions

PII = MasterKey("pii", 1, bytes(range(16)))
FINANCE = MasterKey("finance", 3, bytes(range(100, 132)))
SCHEMA = T.struct([("id", T.primitive(TypeKind.LONG)), ("name", T.primitive(TypeKind.STRING)),
                   ("card", T.struct([("number", T.primitive(TypeKind.STRING)),
                                      ("expiry", T.primitive(TypeKind.INT))]))])
ROWS = [{"id": i, "name": None if i % 4 == 0 else f"Ann Lee {i}",
         "card": {"number": f"4111-{i:04}", "expiry": i}} for i in range(12)]


def _write(compression: CompressionKind = CompressionKind.NONE, masks: dict[str, str] | None = None) -> bytes:
    encryption = ColumnEncryption((PII, FINANCE), {"name": "pii", "card": "finance"}, masks or {}, seed=1)
    return write_orc(SCHEMA, ROWS, OrcWriterOptions(compression=compression, stripe_row_limit=5,
                                                    row_index_stride=2, encryption=encryption))


def test_iv_is_column_kind_stripe_then_counter_most_significant_byte_first():
    # 'Stream Encryption': bytes 0-2 column id, 3-4 stream kind, 5-7 stripe id, 8-15 counter.
    iv = stream_iv(0x012345, StreamKind.DATA, 0x0A0B0C)
    assert iv == bytes([0x01, 0x23, 0x45, 0x00, 0x01, 0x0A, 0x0B, 0x0C]) + bytes(8)
    assert stream_iv(2, StreamKind.FILE_STATISTICS, 3)[:8] == bytes([0, 0, 2, 0, 101, 0, 0, 3])
    with pytest.raises(UnsupportedFeature, match="column id"):
        stream_iv(1 << 24, StreamKind.DATA, 1)


def test_the_file_statistics_are_sealed_with_the_root_and_one_past_the_last_stripe():
    # 'Encryption Variants' (serialized, compressed, encrypted) with the IV of 'Stream
    # Encryption'; the stripe id is ORC Java's (docs/orc-spec-notes.md, note 19).
    data = _write()
    tail = read_file_tail(data, decompress_stream)
    variant = tail.footer.encryption.variants[0]
    key = local_key(PII, variant.encrypted_key)
    iv = stream_iv(variant.root, StreamKind.FILE_STATISTICS, len(tail.footer.stripes) + 1)
    plain = Cipher(algorithms.AES(key), modes.CTR(iv)).decryptor().update(variant.file_statistics)
    statistics = decode(FileStatistics, plain)
    assert [s.number_of_values for s in statistics.column] == [sum(r["name"] is not None for r in ROWS)]


def test_local_key_is_the_encrypted_key_decrypted_with_its_first_16_bytes_as_iv():
    encrypted = bytes(range(200, 216))
    expected = Cipher(algorithms.AES(PII.key), modes.CTR(encrypted)).decryptor().update(encrypted)
    assert local_key(PII, encrypted) == expected
    assert FINANCE.algorithm == EncryptionAlgorithm.AES_CTR_256


@pytest.mark.parametrize("compression", [CompressionKind.NONE, CompressionKind.ZLIB])
def test_round_trip_with_keys(compression):
    data = _write(compression)
    assert read_orc(data, KeyProvider.of(PII, FINANCE)).rows == ROWS
    assert data == _write(compression)  # seeded local keys: the same bytes every time


def test_the_footer_describes_keys_variants_and_masks():
    tail = read_file_tail(_write(), decompress_stream)
    encryption = tail.footer.encryption
    assert [(k.key_name, k.key_version, k.algorithm) for k in encryption.key] == [
        ("pii", 1, EncryptionAlgorithm.AES_CTR_128), ("finance", 3, EncryptionAlgorithm.AES_CTR_256)]
    assert [(v.root, v.key, len(v.encrypted_key)) for v in encryption.variants] == [(2, 0, 16), (3, 1, 32)]
    assert [(m.name, m.columns) for m in encryption.mask] == [("nullify", [2]), ("nullify", [3])]
    first, second = tail.footer.stripes[:2]
    assert first.encrypt_stripe_id == 1 and len(first.encrypted_local_keys) == 2
    assert second.encrypt_stripe_id is None and not second.encrypted_local_keys
    assert tail.postscript.stripe_statistics_length > 0


def test_without_keys_the_masked_view_for_the_reference_and_orc_cpp(tmp_path):
    data = _write(masks={"name": "redact"})
    masked = [{"id": r["id"], "name": None if r["name"] is None else f"Xxx Xxx {'9' * len(str(r['id']))}",
               "card": None} for r in ROWS]
    assert read_orc(data).rows == masked
    one_key = [dict(m, card=r["card"]) for m, r in zip(masked, ROWS, strict=True)]
    assert read_orc(data, KeyProvider.of(FINANCE)).rows == one_key
    path = tmp_path / "encrypted.orc"
    path.write_bytes(data)
    assert pa_orc.read_table(path).to_pylist() == masked
    with path.open("rb") as handle:
        assert [tuple(m.values()) for m in masked] == list(pyorc.Reader(handle))


def test_masks():
    assert mask_values("redact", ["Ab-12 é", None]) == ["Xx-99 x", None]
    assert mask_values("sha256", ["abc"]) == [hashlib.sha256(b"abc").hexdigest().upper()]
    assert mask_values("nullify", ["abc", 1]) == [None, None]
    with pytest.raises(InvalidValue, match="strings only"):
        _write(masks={"card": "sha256"})


@pytest.mark.parametrize("compression", [CompressionKind.NONE, CompressionKind.ZLIB])
def test_wrong_key_is_decryption_failed(compression):
    wrong = dataclasses.replace(FINANCE, key=bytes(32))
    with pytest.raises(DecryptionFailed, match="encryption variant 1 .root column 3., file statistics"):
        read_orc(_write(compression), KeyProvider.of(PII, wrong))


def test_altered_file_statistics_are_decryption_failed():
    data = _write()  # uncompressed: the footer holds the sealed file statistics as they are
    sealed = read_file_tail(data, decompress_stream).footer.encryption.variants[0].file_statistics
    start = data.index(sealed)
    altered = data[:start] + bytes(b ^ 0xFF for b in sealed) + data[start + len(sealed):]
    with pytest.raises(DecryptionFailed, match="variant 0 .root column 2., file statistics"):
        read_orc(altered, KeyProvider.of(PII))
    assert read_orc(altered).rows[0]["name"] is None  # no key: the masked view, untouched
