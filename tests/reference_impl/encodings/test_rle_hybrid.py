"""The RLE / bit-packing hybrid (RLE = 3) and its bit packing order."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.common.varint import encode_uleb128
from reference_impl.parquet.encodings.bit_packing import pack_bits, unpack_bits, unpack_bits_by_bit
from reference_impl.parquet.encodings.rle_hybrid import (
    bit_width_for,
    decode_rle_hybrid,
    decode_rle_hybrid_length_prefixed,
    encode_rle_hybrid,
    encode_rle_hybrid_length_prefixed,
)
from reference_impl.parquet.errors import InvalidLevelData
from tests.reference_impl.parquet_helpers import budget

FAST = budget(60)


def test_bit_packing_example_from_the_spec() -> None:
    # "The numbers 1 through 7 using bit width 3 ... would be encoded like this:
    #  bit value: 10001000 11000110 11111010"
    packed = pack_bits(list(range(8)), 3)
    assert packed == bytes([0b10001000, 0b11000110, 0b11111010])
    assert unpack_bits(packed, 3, 8).tolist() == list(range(8))


def test_bit_packed_run_byte_by_byte() -> None:
    encoded = encode_rle_hybrid(list(range(8)), 3)
    assert encoded == bytes(
        [
            0b00000011,  # header: varint(1 group << 1 | 1), a bit-packed run of 8 values
            0b10001000,  # the spec example's three bytes
            0b11000110,
            0b11111010,
        ]
    )


def test_rle_run_byte_by_byte() -> None:
    # 100 ones at bit width 1: header varint(100 << 1) = 200 = c8 01, value 1 in one byte.
    assert encode_rle_hybrid([1] * 100, 1) == b"\xc8\x01\x01"
    # Bit width 9 needs a two-byte repeated value ("round-up-to-next-byte").
    assert encode_rle_hybrid([300] * 10, 9) == b"\x14\x2c\x01"


def test_mixed_runs_and_padding() -> None:
    values = [1] * 10 + [0, 1, 0]
    encoded = encode_rle_hybrid(values, 1)
    assert encoded == b"".join(
        [
            b"\x14\x01",  # RLE run: varint(10 << 1) = 0x14, value 1 in one byte
            b"\x03",  # bit-packed run of 1 group: 0, 1, 0 and five zero bits of padding
            bytes([0b00000010]),
        ]
    )
    assert decode_rle_hybrid(encoded, 1, len(values))[0].tolist() == values


def test_length_prefixed_form_for_data_page_v1() -> None:
    encoded = encode_rle_hybrid_length_prefixed([1] * 100, 1)
    assert encoded == b"\x03\x00\x00\x00" + b"\xc8\x01\x01"
    values, end = decode_rle_hybrid_length_prefixed(encoded + b"trailing", 1, 100)
    assert values.tolist() == [1] * 100
    assert end == 7


@pytest.mark.parametrize(("max_level", "width"), [(0, 0), (1, 1), (2, 2), (3, 2), (4, 3), (255, 8)])
def test_bit_width_for_max_level(max_level: int, width: int) -> None:
    assert bit_width_for(max_level) == width


@given(st.integers(0, 32).flatmap(lambda w: st.tuples(st.just(w), st.data())))
@FAST
def test_round_trip(width_and_data) -> None:
    bit_width, data = width_and_data
    top = (1 << bit_width) - 1
    # Mix long runs with noise so both run kinds and the transitions appear.
    piece = st.one_of(
        st.lists(st.integers(0, top), max_size=20),
        st.tuples(st.integers(0, top), st.integers(1, 40)).map(lambda vr: [vr[0]] * vr[1]),
    )
    values = [v for part in data.draw(st.lists(piece, max_size=6)) for v in part]
    encoded = encode_rle_hybrid(values, bit_width)
    decoded, end = decode_rle_hybrid(encoded, bit_width, len(values))
    assert decoded.tolist() == values
    assert end == len(encoded)


def test_bit_width_zero() -> None:
    encoded = encode_rle_hybrid([0] * 20, 0)
    assert encoded == b"\x28"  # an RLE run of 20 with a zero-byte value
    assert decode_rle_hybrid(encoded, 0, 20)[0].tolist() == [0] * 20


def test_long_runs_are_not_materialised_beyond_what_is_asked() -> None:
    # A run claiming 2**31 - 1 values, of which 3 are wanted.
    encoded = b"\xfe\xff\xff\xff\x0f\x01"
    values, _ = decode_rle_hybrid(encoded, 1, 3)
    assert values.tolist() == [1, 1, 1]


@pytest.mark.parametrize(
    ("data", "count", "message"),
    [
        (b"\x03\xff", 16, "data ended after 8"),  # one group, then nothing more
        (b"\x05\xff", 8, "needs 2 byte"),  # two groups of width 1 claimed, one byte present
        (b"\x7f\xff", 8, "504 values needs 63"),  # 63 groups claimed
        (b"\x01", 8, "zero groups"),
        (b"\x00\x01", 8, "length zero"),
        (b"\x10", 8, "1-byte value"),  # RLE run of 8 with its value missing
        (b"\x10\x02", 8, "does not fit in 1 bit"),
        (b"\x80\x80", 1, "varint runs past"),
        (b"", 1, "data ended after 0"),
    ],
)
def test_invalid_runs_raise_invalid_level_data(data: bytes, count: int, message: str) -> None:
    with pytest.raises(InvalidLevelData, match=message) as info:
        decode_rle_hybrid(data, 1, count, base_offset=40)
    assert info.value.offset is not None and info.value.offset >= 40


def test_length_prefix_larger_than_the_page() -> None:
    with pytest.raises(InvalidLevelData, match="claims 1000 byte") as info:
        decode_rle_hybrid_length_prefixed(b"\xe8\x03\x00\x00\xc8\x01\x01", 1, 100, base_offset=7)
    assert info.value.offset == 7
    with pytest.raises(InvalidLevelData, match="4-byte length prefix"):
        decode_rle_hybrid_length_prefixed(b"\x03\x00", 1, 1)


def test_runs_confined_to_the_length_prefix() -> None:
    # The prefix says 1 byte, so the run's value byte lies outside: refused.
    with pytest.raises(InvalidLevelData):
        decode_rle_hybrid_length_prefixed(b"\x01\x00\x00\x00\xc8\x01\x01", 1, 100)


def test_every_truncation_is_refused() -> None:
    values = [0, 1] * 7 + [1] * 30 + [0, 0, 1]
    encoded = encode_rle_hybrid(values, 1)
    for cut in range(len(encoded)):
        with pytest.raises(InvalidLevelData):
            decode_rle_hybrid(encoded[:cut], 1, len(values))


@given(
    st.integers(1, 32),
    st.lists(st.tuples(st.integers(0, 1500), st.booleans()), max_size=5),
    st.integers(0, 2**32),
)
@FAST
def test_long_and_short_bit_packed_runs_together(
    bit_width: int, parts: list[tuple[int, bool]], seed: int
) -> None:
    # Noise of up to 1500 values makes short and long bit-packed runs, between RLE runs.
    rng = np.random.default_rng(seed)
    values: list[int] = []
    for length, repeated in parts:
        noise = rng.integers(0, 1 << bit_width, size=length, dtype=np.uint64).tolist()
        values += [noise[0]] * length if repeated and noise else noise
    encoded = encode_rle_hybrid(values, bit_width)
    decoded, end = decode_rle_hybrid(encoded, bit_width, len(values))
    assert decoded.tolist() == values
    assert end == len(encoded)


# A run as a test builds it: bit-packed (its groups, and a seed for their bytes: any bits
# at all) or RLE (its length and repeated value).
packed_runs = st.tuples(st.integers(1, 70), st.integers(0, 2**32 - 1))
rle_runs = st.tuples(st.integers(1, 50), st.integers(0, 2**32 - 1))


@given(
    st.integers(0, 32),
    st.lists(st.one_of(packed_runs.map(lambda r: (True, r)), rle_runs.map(lambda r: (False, r))),
             min_size=1, max_size=8),
    st.integers(0, 2**32 - 1),
)
@FAST
def test_runs_as_arrow_writes_them_agree_with_a_run_by_run_reading(
    bit_width: int, runs: list[tuple[bool, tuple[int, int]]], cut: int
) -> None:
    # Arrow writes dictionary indices as bit-packed runs of at most 63 groups back to back,
    # which the decoder unpacks together. Expected: each run on its own, its values read
    # bit by bit (unpack_bits_by_bit), the last wanted run cut short at `count`.
    encoded, expected, ends = bytearray(), [], []
    for packed, (size, seed) in runs:
        if packed:
            body = np.random.default_rng(seed).bytes(size * bit_width)  # 8 values: bit_width bytes
            encoded += encode_uleb128(size << 1 | 1) + body
            expected += unpack_bits_by_bit(body, bit_width, size * 8).tolist()
        else:
            value = seed % (1 << bit_width)
            encoded += encode_uleb128(size << 1) + value.to_bytes(-(-bit_width // 8), "little")
            expected += [value] * size
        ends.append((len(expected), len(encoded)))
    count = 1 + cut % len(expected)
    values, position = decode_rle_hybrid(bytes(encoded), bit_width, count)
    assert values.tolist() == expected[:count]
    assert position == next(end for produced, end in ends if produced >= count)
