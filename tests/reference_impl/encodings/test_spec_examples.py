"""Every worked example of Encodings.md, byte by byte.

Each test builds the bytes field by field from the spec's text (one comment per
field), then checks that our encoder produces exactly those bytes and our
decoder reads the example's values back from them.

The DELTA_BINARY_PACKED examples use a block size of 8, which "in real cases
... would be invalid"; the codecs accept it with ``allow_example_sizes=True``.
The DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY examples only say
"DeltaEncoding(...)" without block parameters; they are built here with the
same example block (8 values, 1 miniblock), and with the parquet-java/Arrow
defaults (128 values, 4 miniblocks) in test_pyarrow_cross_check.py.
"""

from __future__ import annotations

import struct

import numpy as np

from reference_impl.parquet.encodings.bit_packed import decode_bit_packed, encode_bit_packed
from reference_impl.parquet.encodings.bit_packing import pack_bits, unpack_bits
from reference_impl.parquet.encodings.byte_stream_split import (
    decode_byte_stream_split,
    encode_byte_stream_split,
)
from reference_impl.parquet.encodings.delta_binary_packed import (
    decode_delta_binary_packed,
    encode_delta_binary_packed,
)
from reference_impl.parquet.encodings.delta_byte_array import (
    decode_delta_byte_array,
    encode_delta_byte_array,
)
from reference_impl.parquet.encodings.delta_length_byte_array import (
    decode_delta_length_byte_array,
    encode_delta_length_byte_array,
)
from reference_impl.parquet.encodings.rle_hybrid import decode_rle_hybrid, encode_rle_hybrid
from reference_impl.parquet.metadata.parquet_thrift import Type

EXAMPLE_BLOCK = {"block_size": 8, "miniblocks_per_block": 1, "allow_example_sizes": True}


# ---------------------------------------------------------------------------
# "Run Length Encoding / Bit-Packing Hybrid (RLE = 3)", note 1, and
# "Bit-packed (Deprecated) (BIT_PACKED = 4)": the same values in both bit orders.
# ---------------------------------------------------------------------------

VALUES_0_TO_7 = list(range(8))  # "dec value: 0 1 2 3 4 5 6 7" ("bit label: ABC DEF ... VWX")


def test_hybrid_bit_packing_is_lsb_first() -> None:
    # RLE = 3, note 1: "bit value: 10001000 11000110 11111010"
    expected = bytes(
        [
            0b10001000,  # "HIDEFABC": value 2's low bits HI, value 1 (DEF), value 0 (ABC) in the low bits
            0b11000110,  # "RMNOJKLG": value 5's low bit R, value 4 (MNO), value 3 (JKL), value 2's top bit G
            0b11111010,  # "VWXSTUPQ": value 7 (VWX), value 6 (STU), value 5's top bits PQ
        ]
    )
    assert pack_bits(np.array(VALUES_0_TO_7), 3) == expected
    assert unpack_bits(expected, 3, 8).tolist() == VALUES_0_TO_7


def test_hybrid_run_holding_the_example() -> None:
    # The same three bytes as one <bit-packed-run> of the grammar.
    encoded = bytes(
        [
            1 << 1 | 1,  # bit-packed-header: varint(bit-pack-scaled-run-len 1 (= 8 values / 8) << 1 | 1)
            0b10001000,  # bit-packed-values, as above
            0b11000110,
            0b11111010,
        ]
    )
    assert encode_rle_hybrid(VALUES_0_TO_7, 3) == encoded
    values, end = decode_rle_hybrid(encoded, 3, 8)
    assert values.tolist() == VALUES_0_TO_7
    assert end == len(encoded)


def test_deprecated_bit_packed_is_msb_first() -> None:
    # BIT_PACKED = 4: "bit value: 00000101 00111001 01110111"
    expected = bytes(
        [
            0b00000101,  # "ABCDEFGH": value 0 (ABC), value 1 (DEF), value 2's top bits GH
            0b00111001,  # "IJKLMNOP": value 2's low bit I, value 3 (JKL), value 4 (MNO), value 5's top bit P
            0b01110111,  # "QRSTUVWX": value 5's low bits QR, value 6 (STU), value 7 (VWX)
        ]
    )
    assert encode_bit_packed(VALUES_0_TO_7, bit_width=3) == expected
    values, end = decode_bit_packed(expected, 8, bit_width=3)
    assert values.tolist() == VALUES_0_TO_7
    assert end == 3


def test_deprecated_bit_packed_size_example() -> None:
    # "if the max repetition level was 3 (2 bits) ... to encode 30 values, we would
    # have 30 * 2 = 60 bits = 8 bytes" (the last byte padded with 0s).
    levels = [3, 0, 1, 2, 3, 3] * 5
    encoded = encode_bit_packed(levels, bit_width=2)
    assert len(encoded) == 8
    assert encoded[-1] & 0b1111 == 0  # 4 bits of zero padding
    assert decode_bit_packed(encoded, 30, bit_width=2)[0].tolist() == levels


# ---------------------------------------------------------------------------
# "Delta Encoding (DELTA_BINARY_PACKED = 5)"
# ---------------------------------------------------------------------------


def test_delta_binary_packed_example_1() -> None:
    # "1, 2, 3, 4, 5": deltas 1, 1, 1, 1; min delta 1; relative deltas 0, 0, 0, 0.
    encoded = bytes(
        [
            # header: 8 (block size), 1 (miniblock count), 5 (value count), 1 (first value)
            8,  # block size, ULEB128
            1,  # miniblock count, ULEB128
            5,  # total value count, ULEB128
            2,  # first value 1, zigzag (1 -> 2) ULEB128
            # block: 1 (minimum delta), 0 (bitwidth), (no data needed for bitwidth 0)
            2,  # min delta 1, zigzag ULEB128
            0,  # bit width of the one miniblock
        ]
    )
    assert encode_delta_binary_packed([1, 2, 3, 4, 5], bits=32, **EXAMPLE_BLOCK) == encoded
    for bits in (32, 64):
        values, end = decode_delta_binary_packed(encoded, 5, bits=bits, allow_example_sizes=True)
        assert values.tolist() == [1, 2, 3, 4, 5]
        assert end == len(encoded)


def test_delta_binary_packed_example_2() -> None:
    # "7, 5, 3, 1, 2, 3, 4, 5": deltas -2, -2, -2, 1, 1, 1, 1; min -2;
    # relative deltas 0, 0, 0, 3, 3, 3, 3.
    encoded = bytes(
        [
            # header: 8 (block size), 1 (miniblock count), 8 (value count), 7 (first value)
            8,  # block size
            1,  # miniblock count
            8,  # total value count
            14,  # first value 7, zigzag (7 -> 14)
            # block: -2 (minimum delta), 2 (bitwidth), 00000011111111b (0,0,0,3,3,3,3 packed on 2 bits)
            3,  # min delta -2, zigzag (-2 -> 3)
            2,  # bit width of the one miniblock
            # The miniblock holds 8 values (7 deltas + 1 padding value) of 2 bits = 2 bytes,
            # packed LSB first as in the hybrid. The spec's "00000011111111b" lists the
            # seven 2-bit values in order; in bytes:
            0b11_00_00_00,  # value 3 (=3), value 2 (=0), value 1 (=0), value 0 (=0)
            0b00_11_11_11,  # padding (=0), value 6 (=3), value 5 (=3), value 4 (=3)
        ]
    )
    values = [7, 5, 3, 1, 2, 3, 4, 5]
    assert encode_delta_binary_packed(values, bits=32, **EXAMPLE_BLOCK) == encoded
    decoded, end = decode_delta_binary_packed(encoded, 8, bits=32, allow_example_sizes=True)
    assert decoded.tolist() == values
    assert end == len(encoded)


# ---------------------------------------------------------------------------
# "Delta-length byte array: (DELTA_LENGTH_BYTE_ARRAY = 6)"
# ---------------------------------------------------------------------------


def test_delta_length_byte_array_example() -> None:
    # "Hello", "World", "Foobar", "ABCDEF":
    # DeltaEncoding(5, 5, 6, 6) (the string lengths), then "HelloWorldFoobarABCDEF".
    lengths = bytes(
        [
            8,  # block size
            1,  # miniblock count
            4,  # total value count
            10,  # first value 5, zigzag (5 -> 10)
            0,  # min delta 0 (deltas 0, 1, 0), zigzag
            1,  # bit width 1 (relative deltas 0, 1, 0)
            0b00000010,  # values 0, 1, 0, then 5 padding bits, LSB first
        ]
    )
    encoded = lengths + b"HelloWorldFoobarABCDEF"  # the byte array data, back to back
    values = [b"Hello", b"World", b"Foobar", b"ABCDEF"]
    assert encode_delta_length_byte_array(values, **EXAMPLE_BLOCK) == encoded
    decoded, end = decode_delta_length_byte_array(encoded, 4, allow_example_sizes=True)
    assert decoded == values
    assert end == len(encoded)


# ---------------------------------------------------------------------------
# "Delta Strings: (DELTA_BYTE_ARRAY = 7)"
# ---------------------------------------------------------------------------


def test_delta_byte_array_example() -> None:
    # "axis", "axle", "babble", "babyhood":
    # DeltaEncoding(0, 2, 0, 3) (the prefix lengths), DeltaEncoding(4, 2, 6, 5)
    # (the suffix lengths), "axislebabbleyhood".
    prefix_lengths = bytes(
        [
            8,  # block size
            1,  # miniblock count
            4,  # total value count
            0,  # first value 0, zigzag
            3,  # min delta -2 (deltas 2, -2, 3), zigzag
            3,  # bit width 3 (relative deltas 4, 0, 5)
            # 4 = 100b, 0 = 000b, 5 = 101b, LSB first, then padding:
            0b01_000_100,  # value 2's low bits (01), value 1 (000), value 0 (100)
            0b00000001,  # value 2's top bit (1), then 7 padding bits
            0b00000000,  # padding: the miniblock is 8 values x 3 bits = 3 bytes
        ]
    )
    suffix_lengths = bytes(
        [
            8,  # block size
            1,  # miniblock count
            4,  # total value count
            8,  # first value 4, zigzag
            3,  # min delta -2 (deltas -2, 4, -1), zigzag
            3,  # bit width 3 (relative deltas 0, 6, 1)
            0b01_110_000,  # value 2's low bits (01), value 1 (110), value 0 (000)
            0b00000000,  # value 2's top bit (0), then padding
            0b00000000,
        ]
    )
    encoded = prefix_lengths + suffix_lengths + b"axislebabbleyhood"
    values = [b"axis", b"axle", b"babble", b"babyhood"]
    assert encode_delta_byte_array(values, **EXAMPLE_BLOCK) == encoded
    decoded, end = decode_delta_byte_array(encoded, 4, allow_example_sizes=True)
    assert decoded == values
    assert end == len(encoded)


# ---------------------------------------------------------------------------
# "Byte Stream Split: (BYTE_STREAM_SPLIT = 9)"
# ---------------------------------------------------------------------------


def test_byte_stream_split_example() -> None:
    # "three 32-bit floats ... their raw representation":
    #        Element 0      Element 1      Element 2
    # Bytes  AA BB CC DD    00 11 22 33    A3 B4 C5 D6
    raw = bytes.fromhex("AABBCCDD00112233A3B4C5D6")
    encoded = bytes.fromhex(
        "AA 00 A3"  # stream 0: byte 0 of each element
        "BB 11 B4"  # stream 1
        "CC 22 C5"  # stream 2
        "DD 33 D6"  # stream 3
    )
    floats = [value for (value,) in struct.iter_unpack("<f", raw)]  # no NaN: unpacked exactly
    assert encode_byte_stream_split(floats, physical_type=Type.FLOAT) == encoded
    decoded, end = decode_byte_stream_split(encoded, 3, physical_type=Type.FLOAT)
    assert b"".join(struct.pack("<f", value) for value in decoded) == raw  # exact bits
    assert end == len(encoded)
    # The same bytes as FIXED_LEN_BYTE_ARRAY(4) values (newer spec).
    elements = [raw[0:4], raw[4:8], raw[8:12]]
    assert encode_byte_stream_split(elements, physical_type=Type.FIXED_LEN_BYTE_ARRAY, type_length=4) == (
        encoded
    )
    assert decode_byte_stream_split(encoded, 3, physical_type=Type.FIXED_LEN_BYTE_ARRAY, type_length=4) == (
        elements,
        len(encoded),
    )
