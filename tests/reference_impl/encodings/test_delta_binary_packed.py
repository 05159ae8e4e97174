"""DELTA_BINARY_PACKED (= 5): round trips, the streams a reader must accept, and bad input.

Encodings.md, "Delta Encoding (DELTA_BINARY_PACKED = 5)".
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.common.varint import encode_uleb128, zigzag_encode
from reference_impl.parquet.encodings.bit_packing import pack_bits
from reference_impl.parquet.encodings.delta_binary_packed import (
    decode_delta_binary_packed,
    encode_delta_binary_packed,
)
from reference_impl.parquet.errors import CorruptPage
from tests.reference_impl.encodings.strategies import (
    VALID_BLOCK_PARAMETERS,
    int_sequences,
    signed_range,
)
from tests.reference_impl.parquet_helpers import budget

FAST = budget(60)
INT32_MIN, INT32_MAX = signed_range(32)
INT64_MIN, INT64_MAX = signed_range(64)


def uleb(value: int) -> bytes:
    return encode_uleb128(value)


def zigzag(value: int, bits: int = 64) -> bytes:
    return encode_uleb128(zigzag_encode(value, bits))


def as_lists(decoded: tuple[np.ndarray, int]) -> tuple[list[int], int]:
    return decoded[0].tolist(), decoded[1]


def header(block_size: int, miniblocks: int, count: int, first: int, bits: int = 64) -> bytes:
    """<block size in values> <number of miniblocks in a block> <total value count> <first value>"""
    return uleb(block_size) + uleb(miniblocks) + uleb(count) + zigzag(first, bits)


# ---------------------------------------------------------------------------
# Round trips
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("bits", [32, 64])
@given(data=st.data())
@FAST
def test_round_trip(bits: int, data: st.DataObject) -> None:
    values = data.draw(int_sequences(bits))
    block_size, miniblocks = data.draw(VALID_BLOCK_PARAMETERS)
    encoded = encode_delta_binary_packed(
        values, bits=bits, block_size=block_size, miniblocks_per_block=miniblocks
    )
    # Decoding starts mid-buffer and must stop exactly at the end of the stream.
    buffer = b"\x99" * 5 + encoded + b"\xee" * 7
    decoded, end = decode_delta_binary_packed(buffer, len(values), bits=bits, start=5)
    assert decoded.dtype == (np.int32 if bits == 32 else np.int64)
    assert decoded.tolist() == values
    assert end == 5 + len(encoded)


@pytest.mark.parametrize(
    ("bits", "values"),
    [
        (64, [INT64_MAX, INT64_MIN]),  # delta +1 after wrapping around
        (64, [INT64_MIN, INT64_MAX]),  # delta -1 after wrapping around
        (64, [0, INT64_MAX, INT64_MIN, 0, INT64_MAX]),
        (32, [INT32_MAX, INT32_MIN]),
        (32, [INT32_MIN, INT32_MAX, 0, INT32_MIN]),
        (32, []),
        (64, [INT64_MIN]),
    ],
)
def test_wrap_around_deltas(bits: int, values: list[int]) -> None:
    encoded = encode_delta_binary_packed(values, bits=bits)
    assert decode_delta_binary_packed(encoded, len(values), bits=bits)[0].tolist() == values


def test_wrapped_delta_is_small() -> None:
    # MAX then MIN is a delta of +1 modulo 2**64: min delta 1, bit width 0, no miniblock bytes.
    encoded = encode_delta_binary_packed([INT64_MAX, INT64_MIN], bits=64)
    assert encoded == header(128, 4, 2, INT64_MAX) + zigzag(1) + bytes([0, 0, 0, 0])
    # The same at 32 bits, where the first value is zigzag-encoded as an int32.
    encoded = encode_delta_binary_packed([INT32_MAX, INT32_MIN], bits=32)
    assert encoded == header(128, 4, 2, INT32_MAX, 32) + zigzag(1, 32) + bytes(4)


def test_empty_and_single_value_are_a_header_only() -> None:
    assert encode_delta_binary_packed([], bits=32) == header(128, 4, 0, 0)
    assert encode_delta_binary_packed([-3], bits=64) == header(128, 4, 1, -3)
    assert as_lists(decode_delta_binary_packed(header(128, 4, 0, 0), 0, bits=32)) == ([], 5)
    assert as_lists(decode_delta_binary_packed(header(128, 4, 1, -3), 1, bits=64)) == ([-3], 5)


def test_last_block_has_only_the_needed_miniblocks() -> None:
    # 34 values = 33 deltas: miniblock 0 full (32), miniblock 1 holds 1 delta, 2 and 3 absent.
    values = list(range(0, 34 * 3, 3))
    values[10] = 1000  # makes miniblock 0 need a wider width than miniblock 1
    encoded = encode_delta_binary_packed(values, bits=32)
    block = encoded[len(header(128, 4, 34, 0)) :]
    min_delta = -(1000 - 33)  # the drop after the spike
    assert block[:2] == zigzag(min_delta, 32)
    widths = block[2:6]
    assert widths[2:] == b"\x00\x00"  # unneeded miniblocks: width 0
    # Miniblock bodies: 32 values at each width, nothing for miniblocks 2 and 3.
    assert len(block) == 2 + 4 + 32 * widths[0] // 8 + 32 * widths[1] // 8


# ---------------------------------------------------------------------------
# Streams a reader must accept ("odd" but valid)
# ---------------------------------------------------------------------------


def test_padding_bits_may_be_anything() -> None:
    # 3 values 10, 11, 13: deltas 1, 2; min 1; relative 0, 1 at width 1 in a 32-value miniblock.
    stream = (
        header(128, 4, 3, 10)
        + zigzag(1)  # min delta
        + bytes([1, 0, 0, 0])  # bit widths
        + bytes([0b11111110, 0xFF, 0xFF, 0xFF])  # 0, 1, then 30 padding bits set to 1
    )
    assert as_lists(decode_delta_binary_packed(stream, 3, bits=64)) == ([10, 11, 13], len(stream))


def test_unneeded_miniblock_widths_may_be_anything() -> None:
    # Widths above 64 for the miniblocks that are not needed must be ignored,
    # and they have no bytes: the trailing bytes belong to whatever follows.
    stream = header(128, 4, 3, 10) + zigzag(1) + bytes([1, 0xFF, 200, 65]) + bytes([0b10, 0, 0, 0])
    decoded, end = decode_delta_binary_packed(stream + b"next", 3, bits=64)
    assert decoded.tolist() == [10, 11, 13]
    assert end == len(stream)


def test_miniblock_wider_than_needed() -> None:
    # Relative deltas 0, 1 stored at width 8 (and, at 64 bits, at the full width 64).
    for width in (8, 32, 64):
        body = pack_bits(np.array([0, 1] + [0] * 30), width)
        stream = header(128, 4, 3, 10) + zigzag(1) + bytes([width, 0, 0, 0]) + body
        assert decode_delta_binary_packed(stream, 3, bits=64)[0].tolist() == [10, 11, 13]
    body = pack_bits(np.array([0, 1] + [0] * 30), 32)
    stream = header(128, 4, 3, 10, 32) + zigzag(1, 32) + bytes([32, 0, 0, 0]) + body
    assert decode_delta_binary_packed(stream, 3, bits=32)[0].tolist() == [10, 11, 13]


def test_full_width_deltas_wrap_around() -> None:
    # Min delta INT64_MIN and relative delta 2**64 - 1 (width 64): their sum wraps to INT64_MAX.
    body = pack_bits(np.array([2**64 - 1] + [0] * 31, dtype=np.uint64), 64)
    stream = header(128, 4, 2, 0) + zigzag(INT64_MIN) + bytes([64, 0, 0, 0]) + body
    assert decode_delta_binary_packed(stream, 2, bits=64)[0].tolist() == [0, INT64_MAX]


def test_last_block_with_one_miniblock_present() -> None:
    # Two blocks: the first full (128 deltas), the last holding 5 deltas in
    # miniblock 0 only; the other three widths are garbage and have no bytes.
    values = list(range(134))  # 133 deltas of 1
    full_block = zigzag(1) + bytes(4)  # min delta 1, all widths 0
    last_block = zigzag(0) + bytes([1, 7, 7, 7]) + bytes([0b11111, 0, 0, 0])  # relative 1,1,1,1,1
    stream = header(128, 4, 134, 0) + full_block + last_block
    decoded, end = decode_delta_binary_packed(stream, 134, bits=32)
    assert decoded.tolist() == values
    assert end == len(stream)


def test_other_valid_block_parameters() -> None:
    # 256 values per block in 8 miniblocks of 32, 64 in 1 miniblock of 128 ... all legal.
    values = list(range(-500, 500, 7))
    for block_size, miniblocks in [(256, 8), (128, 1), (1024, 2), (384, 3)]:
        encoded = encode_delta_binary_packed(
            values, bits=64, block_size=block_size, miniblocks_per_block=miniblocks
        )
        assert encoded[: len(uleb(block_size))] == uleb(block_size)
        assert decode_delta_binary_packed(encoded, len(values), bits=64)[0].tolist() == values


# ---------------------------------------------------------------------------
# Bad input: CorruptPage with the offset of the offending field
# ---------------------------------------------------------------------------

GOOD_BLOCK = zigzag(1) + bytes(4)


@pytest.mark.parametrize(
    ("stream", "count", "bits", "message", "offset"),
    [
        (header(100, 4, 3, 0) + GOOD_BLOCK, 3, 64, "block size must be a positive multiple of 128", 0),
        (header(0, 4, 3, 0) + GOOD_BLOCK, 3, 64, "block size must be a positive multiple of 128", 0),
        (header(128, 0, 3, 0) + GOOD_BLOCK, 3, 64, "must divide the block size", 0),
        (header(128, 3, 3, 0) + GOOD_BLOCK, 3, 64, "must divide the block size", 0),
        (header(128, 8, 3, 0) + GOOD_BLOCK, 3, 64, "multiple of 32, got 16", 0),
        (header(128, 4, 4, 0) + GOOD_BLOCK, 3, 64, "total value count is 4, expected 3", 0),
        (header(128, 4, 2, 0) + GOOD_BLOCK, 3, 64, "total value count is 2, expected 3", 0),
        # A first value that does not fit the 32-bit type.
        (header(128, 4, 3, 2**40) + GOOD_BLOCK, 3, 32, "first value: varint", 4),
        # A needed miniblock wider than the type (width byte at offset 6).
        (header(128, 4, 3, 0) + zigzag(1) + bytes([33, 0, 0, 0]) + bytes(132), 3, 32, "bit width 33", 6),
        (header(128, 4, 3, 0) + zigzag(1) + bytes([65, 0, 0, 0]) + bytes(260), 3, 64, "bit width 65", 6),
        # Blocks missing or short.
        (header(128, 4, 3, 0), 3, 64, "block min delta: varint runs past", 5),
        (header(128, 4, 3, 0) + zigzag(1) + bytes(2), 3, 64, "bit widths .* need\\(s\\) 4 byte", 6),
        # A miniblock whose padding is missing: width 1 needs 32 bits = 4 bytes.
        (header(128, 4, 3, 0) + zigzag(1) + bytes([1, 0, 0, 0]) + b"\x02", 3, 64, "miniblock 0", 10),
        # A huge block size with a non-zero width claims more bytes than remain.
        (
            header(2**31 - 128, 1, 3, 0) + zigzag(1) + bytes([64]) + bytes(8),
            3,
            64,
            "need\\(s\\) 17179868160 byte",
            10,
        ),
    ],
)
def test_corrupt_streams(stream: bytes, count: int, bits: int, message: str, offset: int) -> None:
    with pytest.raises(CorruptPage, match=message) as info:
        decode_delta_binary_packed(stream, count, bits=bits, base_offset=1000)
    assert info.value.offset == 1000 + offset
    assert "DELTA_BINARY_PACKED" in str(info.value)


def test_example_block_sizes_only_on_request() -> None:
    example = bytes([8, 1, 5, 2, 2, 0])  # the spec's Example 1
    with pytest.raises(CorruptPage, match="multiple of 128"):
        decode_delta_binary_packed(example, 5, bits=32)
    with pytest.raises(ValueError, match="multiple of 128"):
        encode_delta_binary_packed([1, 2], bits=32, block_size=8, miniblocks_per_block=1)
    # Even relaxed, a miniblock must hold a multiple of 8 values (whole bytes).
    with pytest.raises(CorruptPage, match="multiple of 8"):
        decode_delta_binary_packed(bytes([8, 2, 5, 2, 2, 0, 0]), 5, bits=32, allow_example_sizes=True)


def test_a_huge_claimed_count_allocates_nothing_before_failing() -> None:
    # Header and caller agree on 2**31 - 1 values but only one block is present.
    stream = header(128, 4, 2**31 - 1, 0) + GOOD_BLOCK
    with pytest.raises(CorruptPage, match="block min delta"):
        decode_delta_binary_packed(stream, 2**31 - 1, bits=32)


@pytest.mark.parametrize(
    ("values", "bits"),
    [([2**31], 32), ([-(2**31) - 1], 32), ([2**63], 64), ([[1, 2]], 64)],
)
def test_encoder_refuses_values_outside_the_type(values: list, bits: int) -> None:
    with pytest.raises(ValueError):
        encode_delta_binary_packed(values, bits=bits)


def test_encoder_refuses_unsigned_values_that_would_wrap() -> None:
    with pytest.raises(ValueError):
        encode_delta_binary_packed(np.array([2**63], dtype=np.uint64), bits=64)


@pytest.mark.parametrize("bits", [8, 16, 128])
def test_only_32_and_64_bit_types(bits: int) -> None:
    with pytest.raises(ValueError, match="32- and 64-bit"):
        encode_delta_binary_packed([1], bits=bits)
    with pytest.raises(ValueError, match="32- and 64-bit"):
        decode_delta_binary_packed(b"", 0, bits=bits)
