"""Decrypted Thrift modules: zero padding after the struct is tolerated (parquet-java 1.17
writes it), any other trailing byte is refused."""

from __future__ import annotations

import pytest

from reference_impl.parquet.encryption.ciphers import Module
from reference_impl.parquet.encryption.decryptor import decode_plaintext
from reference_impl.parquet.errors import CorruptMetadata
from reference_impl.parquet.metadata.parquet_thrift import PageLocation
from reference_impl.parquet.metadata.thrift_struct import serialize

LOCATION = PageLocation(offset=4, compressed_page_size=100, first_row_index=0)
MODULE = Module(offset=1000, end=1100, nonce=bytes(12), ciphertext=b"", tag=bytes(16))


def test_zero_padding_after_the_struct_is_tolerated():
    assert decode_plaintext(PageLocation, serialize(LOCATION) + bytes(150), MODULE, "padded") == LOCATION


def test_other_trailing_bytes_are_refused():
    with pytest.raises(CorruptMetadata, match="struct ends after") as caught:
        decode_plaintext(PageLocation, serialize(LOCATION) + b"\x00\x01", MODULE, "trailing")
    assert caught.value.offset == MODULE.offset
