"""ORCv1.md, 'Byte Run Length Encoding' and 'Boolean Run Length Encoding': the spec's
examples byte by byte, round trips, positioned reading and corrupt input."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.orc.encodings.boolean_rle import BooleanRleReader, decode_booleans, encode_booleans
from reference_impl.orc.encodings.byte_rle import ByteRleReader, decode_bytes, encode_bytes
from reference_impl.orc.errors import CorruptRle

RUN_CONTROL_MINUS_3 = 100 - 3  # "a hundred 0's is encoded as [0x61, 0x00]"
LITERALS_OF_TWO = 0x100 - 2  # "the control byte for literal lists is the negative length"


def test_spec_example_hundred_zeros() -> None:
    encoded = bytes([RUN_CONTROL_MINUS_3, 0x00])
    assert encoded == bytes([0x61, 0x00])
    assert encode_bytes([0] * 100) == encoded
    assert decode_bytes(encoded, 100) == [0] * 100


def test_spec_example_two_literals() -> None:
    encoded = bytes([LITERALS_OF_TWO, 0x44, 0x45])
    assert encoded == bytes([0xFE, 0x44, 0x45])
    assert encode_bytes([0x44, 0x45]) == encoded
    assert decode_bytes(encoded, 2) == [0x44, 0x45]


def test_spec_example_booleans() -> None:
    """"the byte sequence [0xff, 0x80] would be one true followed by seven false values":
    a literal list of one byte, 0b10000000."""
    values = [True] + [False] * 7
    assert encode_booleans(values) == bytes([0xFF, 0x80])
    assert decode_booleans(bytes([0xFF, 0x80]), 8) == values


def test_longest_run_and_literal_list() -> None:
    values = [9] * 130 + list(range(128))
    encoded = encode_bytes(values)
    assert encoded[:2] == bytes([0x7F, 9])  # 130 - 3
    assert encoded[2] == 0x80  # -128
    assert decode_bytes(encoded, len(values)) == values


@given(st.lists(st.integers(0, 255) | st.sampled_from([0, 0xFF]), max_size=600))
def test_bytes_round_trip(values: list[int]) -> None:
    encoded = encode_bytes(values)
    reader = ByteRleReader(encoded)
    assert reader.read(len(values)).tolist() == values
    assert reader.exhausted


@given(st.lists(st.booleans(), max_size=300), st.data())
def test_booleans_round_trip_and_skip(values: list[bool], data: st.DataObject) -> None:
    encoded = encode_booleans(values)
    assert decode_booleans(encoded, len(values)) == values
    skipped = data.draw(st.integers(0, len(values)))
    reader = BooleanRleReader(encoded)
    reader.skip(skipped)
    assert reader.read(len(values) - skipped).tolist() == values[skipped:]
    assert reader.exhausted


def test_reader_starts_at_a_run_and_skips_inside_it() -> None:
    encoded = encode_bytes([1, 2] + [7] * 50 + [3])
    run_start = 3  # the literal list [0xfe, 1, 2] comes first
    reader = ByteRleReader(encoded, start=run_start)
    reader.skip(48)
    assert reader.read(3).tolist() == [7, 7, 3]
    assert reader.exhausted


@pytest.mark.parametrize(("data", "where", "message"), [
    (bytes([0x05]), 1, "inside a run's value"),
    (bytes([0xFB, 1, 2]), 0, "literal list of 5 bytes"),
    (bytes([0x00, 4]), 2, "ends 1 values short"),
])
def test_corrupt_byte_rle(data: bytes, where: int, message: str) -> None:
    base = 1000
    with pytest.raises(CorruptRle, match=message) as caught:
        decode_bytes(data, 4, base_offset=base)
    assert caught.value.offset == base + where


def test_booleans_past_the_end() -> None:
    with pytest.raises(CorruptRle) as caught:
        decode_booleans(bytes([0xFF, 0x80]), 9, base_offset=10)
    assert caught.value.offset == 12


def test_encode_rejects_non_bytes() -> None:
    with pytest.raises(ValueError, match="index 1"):
        encode_bytes([0, 256])
