"""Each column encoding of ORCv1.md, 'Column Encodings', built stream by stream from the
spec's own byte examples and read back through the reference reader."""

from __future__ import annotations

import struct as pystruct

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.orc.columns.timestamp_columns import decode_nanos, decoded_nanos_words, encode_nanos
from reference_impl.orc.metadata.proto_enums import ColumnEncodingKind, StreamKind, TypeKind
from reference_impl.orc.metadata.type_tree import (
    char,
    decimal,
    list_of,
    map_of,
    primitive,
    struct,
    union_of,
    varchar,
)
from reference_impl.orc.reader import read_orc
from tests.reference_impl.orc.orc_hand_built import DIRECT, DIRECT_V2, hand_built_file

S = StreamKind
E = ColumnEncodingKind
# 'Integer Run Length Encoding, version 1': "Numbers [2, 3, 6, 7, 11] would be encoded as
# [0xfb, 0x02, 0x03, 0x06, 0x07, 0xb]" (unsigned; a literal list of 5).
RLE1_2_3_6_7_11 = bytes([0xFB, 0x02, 0x03, 0x06, 0x07, 0x0B])
# 'Short Repeat': "The unsigned sequence of [10000, 10000, 10000, 10000, 10000] would be
# serialized ... as [0x0a, 0x27, 0x10]".
RLE2_FIVE_10000 = bytes([0x0A, 0x27, 0x10])
# 'Boolean Run Length Encoding': "the byte sequence [0xff, 0x80] would be one true followed
# by seven false values" ([0xff, 0x80] is Byte RLE: a literal list of one byte, 0x80).
ONE_TRUE_SEVEN_FALSE = bytes([0xFF, 0x80])


def read_column(kind_node, streams, encoding, rows, **options):  # type: ignore[no-untyped-def]
    data = hand_built_file(struct({"c": kind_node}), [(1, kind, raw) for kind, raw in streams],
                           [DIRECT, encoding], rows, **options)
    return [row["c"] for row in read_orc(data).rows]


def test_smallint_int_bigint_direct_v1_literals() -> None:
    # Signed RLE v1: the varints 2, 3, 6, 7, 11 are zigzag for 1, -2, 3, -4, -6.
    for kind in (TypeKind.SHORT, TypeKind.INT, TypeKind.LONG):
        assert read_column(primitive(kind), [(S.DATA, RLE1_2_3_6_7_11)], DIRECT, 5) == [1, -2, 3, -4, -6]


def test_int_direct_v2_short_repeat_is_unsigned_in_length_streams() -> None:
    # As a signed DATA stream, 10000 is the zigzag of 5000.
    assert read_column(primitive(TypeKind.INT), [(S.DATA, RLE2_FIVE_10000)], DIRECT_V2, 5) == [5000] * 5


def test_present_stream_spreads_values_over_rows() -> None:
    # 'Stripes': one true then seven false; DATA holds the single non-null value.
    values = read_column(primitive(TypeKind.INT), [(S.PRESENT, ONE_TRUE_SEVEN_FALSE),
                                                   (S.DATA, bytes([0xFF, 0x0E]))], DIRECT, 8)
    assert values == [7] + [None] * 7


def test_string_direct_v2_from_the_spec() -> None:
    # "if the values were ["Nevada", "California"]; the DATA would be "NevadaCalifornia"
    # and the LENGTH would be [6, 10]": LENGTH as an RLE v2 Direct run of two 4-bit values.
    length = bytes([0x46, 0x01, 0x6A])
    assert read_column(primitive(TypeKind.STRING), [(S.DATA, b"NevadaCalifornia"), (S.LENGTH, length)],
                       DIRECT_V2, 2) == ["Nevada", "California"]


def test_string_dictionary_from_the_spec() -> None:
    # "the DICTIONARY_DATA would be "CaliforniaFloridaNevada" and LENGTH would be
    # [10, 7, 6]. The DATA would be [2, 0, 2, 0, 1]."
    streams = [(S.DICTIONARY_DATA, b"CaliforniaFloridaNevada"), (S.LENGTH, bytes([0xFD, 10, 7, 6])),
               (S.DATA, bytes([0xFB, 2, 0, 2, 0, 1]))]
    expected = ["Nevada", "California", "Nevada", "California", "Florida"]
    assert read_column(varchar(10), streams, (E.DICTIONARY, 3), 5) == expected


def test_char_values_are_returned_as_stored() -> None:
    assert read_column(char(3), [(S.DATA, b"ab "), (S.LENGTH, bytes([0xFF, 3]))], DIRECT, 1) == ["ab "]


def test_boolean_and_tinyint() -> None:
    assert read_column(primitive(TypeKind.BOOLEAN), [(S.DATA, ONE_TRUE_SEVEN_FALSE)], DIRECT, 8) == \
        [True] + [False] * 7
    # 'Byte Run Length Encoding': "the sequence 0x44, 0x45 would be encoded as [0xfe, 0x44, 0x45]";
    # a hundred 0's is [0x61, 0x00]. Bytes are two's complement: 0xff is -1.
    data = bytes([0xFE, 0x44, 0xFF, 0x61, 0x00])
    assert read_column(primitive(TypeKind.BYTE), [(S.DATA, data)], DIRECT, 102) == [0x44, -1] + [0] * 100


def test_binary_direct() -> None:
    streams = [(S.DATA, b"\x00\x01\xff"), (S.LENGTH, bytes([0xFE, 1, 2]))]
    assert read_column(primitive(TypeKind.BINARY), streams, DIRECT, 2) == [b"\x00", b"\x01\xff"]


def test_float_and_double_are_little_endian_ieee() -> None:
    assert read_column(primitive(TypeKind.FLOAT), [(S.DATA, bytes.fromhex("0000c03f"))], DIRECT, 1) == [1.5]
    assert read_column(primitive(TypeKind.DOUBLE), [(S.DATA, bytes.fromhex("000000000000f8bf"))],
                       DIRECT, 1) == [-1.5]


def test_float_nan_payload_is_kept() -> None:
    (value,) = read_column(primitive(TypeKind.FLOAT), [(S.DATA, bytes.fromhex("0100807f"))], DIRECT, 1)
    assert pystruct.pack("<d", value).hex() == "000000200000f07f"  # payload bit 0 -> bit 29


def test_decimal_varints_and_rescaled_scales() -> None:
    # DATA: zigzag varints 1234 (0xa4 0x13) and -5 (0x09); SECONDARY (signed v1): scales 2 and 0.
    data = bytes([0xA4, 0x13, 0x09])
    scales = bytes([0xFE, 0x04, 0x00])
    assert read_column(decimal(10, 2), [(S.DATA, data), (S.SECONDARY, scales)], DIRECT, 2) == [1234, -500]


def test_date_days_since_1970() -> None:
    assert read_column(primitive(TypeKind.DATE), [(S.DATA, bytes([0xFE, 0x01, 0x02]))], DIRECT, 2) == [-1, 1]


WORD = 1 << 64
NANOS = 10**9
# SECONDARY values: any 64-bit word, or a valid nanosecond part (negative ones included) as written.
SECONDARY_WORDS = st.one_of(st.integers(0, WORD - 1),
                            st.integers(-NANOS + 1, NANOS - 1).map(lambda nanos: encode_nanos(nanos) % WORD))


@given(st.lists(SECONDARY_WORDS, max_size=20))
def test_nanos_in_words_are_decode_nanos(encoded: list[int]) -> None:
    """The array form (decoded_nanos_words) agrees with decode_nanos, the text's steps, bit
    for bit; it declines (None, the words untouched) exactly when a mantissa is a second
    or more."""
    words = np.array(encoded, dtype=np.uint64)
    decoded = decoded_nanos_words(words)
    mantissas = [(value - WORD if value >= WORD // 2 else value) >> 3 for value in encoded]
    if any(abs(mantissa) >= NANOS for mantissa in mantissas):
        assert decoded is None and words.tolist() == encoded
    else:
        assert decoded is not None and decoded.tolist() == [decode_nanos(value) for value in encoded]


def test_timestamp_nanos_examples_from_the_spec() -> None:
    # "1000 nanoseconds would be serialized as 0x0a and 100000 would be serialized as 0x0c".
    assert decode_nanos(0x0A) == 1000 and decode_nanos(0x0C) == 100000
    assert encode_nanos(1000) == 0x0A and encode_nanos(100000) == 0x0C
    # Writers also remove exactly two zeros (code 1), which the decoding allows.
    assert encode_nanos(500) == 5 << 3 | 1 and decode_nanos(5 << 3 | 1) == 500
    # DATA: seconds after 2015-01-01 (signed v1 literals 0 and 1), SECONDARY: 0x0a, 0x0c.
    streams = [(S.DATA, bytes([0xFE, 0x00, 0x02])), (S.SECONDARY, bytes([0xFE, 0x0A, 0x0C]))]
    epoch_2015 = 1420070400 * 10**9
    assert read_column(primitive(TypeKind.TIMESTAMP), streams, DIRECT, 2) == [epoch_2015 + 1000,
                                                                              epoch_2015 + 10**9 + 100000]


@pytest.mark.parametrize("zone", ["UTC", "America/New_York", "Asia/Kolkata"])
def test_timestamp_is_the_wall_clock_of_the_writer_zone(zone: str) -> None:
    # DATA 0 is 2015-01-01 00:00:00 in the writer's zone for TIMESTAMP, in UTC for TIMESTAMP_INSTANT.
    streams = [(S.DATA, bytes([0xFF, 0x00])), (S.SECONDARY, bytes([0xFF, 0x00]))]
    epoch_2015 = 1420070400 * 10**9
    wall = read_column(primitive(TypeKind.TIMESTAMP), streams, DIRECT, 1, writer_timezone=zone)
    instant = read_column(primitive(TypeKind.TIMESTAMP_INSTANT), streams, DIRECT, 1, writer_timezone=zone)
    assert wall == [epoch_2015] and instant == [epoch_2015]


def test_struct_list_map_union() -> None:
    schema = struct({"s": struct({"a": primitive(TypeKind.INT)}), "l": list_of(primitive(TypeKind.INT)),
                     "m": map_of(primitive(TypeKind.STRING), primitive(TypeKind.BOOLEAN)),
                     "u": union_of(primitive(TypeKind.INT), primitive(TypeKind.STRING))})
    # ids: 0 root, 1 s, 2 s.a, 3 l, 4 l.element, 5 m, 6 m.key, 7 m.value, 8 u, 9 u.int, 10 u.string
    streams = [
        (1, S.PRESENT, bytes([0xFF, 0x80])),            # s: non-null, null
        (2, S.DATA, bytes([0xFF, 0x02])),               # s.a: [1]
        (3, S.LENGTH, bytes([0xFE, 0x02, 0x00])),       # l: lengths 2, 0
        (4, S.DATA, bytes([0xFE, 0x06, 0x08])),         # elements 3, 4
        (5, S.LENGTH, bytes([0xFE, 0x00, 0x01])),       # m: lengths 0, 1
        (6, S.DATA, b"k"), (6, S.LENGTH, bytes([0xFF, 0x01])),
        (7, S.DATA, bytes([0xFF, 0x00])),               # value false
        (8, S.DATA, bytes([0xFE, 0x01, 0x00])),         # union tags 1, 0 (the table's "DIRECT" stream)
        (9, S.DATA, bytes([0xFF, 0x0A])),               # int variant: 5
        (10, S.DATA, b"hi"), (10, S.LENGTH, bytes([0xFF, 0x02])),
    ]
    data = hand_built_file(schema, streams, [DIRECT] * 11, 2)
    assert read_orc(data).rows == [
        {"s": {"a": 1}, "l": [3, 4], "m": [], "u": (1, "hi")},
        {"s": None, "l": [], "m": [("k", False)], "u": (0, 5)},
    ]
