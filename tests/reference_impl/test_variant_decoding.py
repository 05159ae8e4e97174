"""`decode_variant` (VariantEncoding.md, 'Encoding types', 'Value Data for Object'): the
value a variant means, from bytes built by hand; bad bytes are InvalidVariant naming where
and the byte, never a raw exception; what a newer specification may define
('Versions and extensions') is UnsupportedFeature."""

from __future__ import annotations

import re
import struct

import pytest

from reference_impl.parquet.errors import InvalidVariant, UnsupportedFeature
from reference_impl.parquet.schema.variant_encoding import (
    MAX_NESTING,
    Primitive,
    VariantArray,
    VariantObject,
    VariantPrimitive,
    decode_variant,
    encode_array,
    encode_metadata,
    encode_primitive,
    parse_metadata,
)

EMPTY = encode_metadata([])
DECIMAL8_SCALE_39 = encode_primitive(Primitive.DECIMAL8, bytes([39]) + struct.pack("<q", 1))


def test_an_object_decodes_to_fields_by_name_whatever_the_value_order():
    # {"b": int8 1, "a": "x"}: ids [a=1, b=0] sorted by name, b's value first.
    metadata = encode_metadata(["b", "a"])
    value = bytes([0x02, 2, 1, 0, 2, 0, 4, 0x0C, 1, 0x05]) + b"x"
    assert decode_variant(metadata, value, "row 0") == VariantObject((
        ("a", VariantPrimitive(Primitive.STRING, "x")), ("b", VariantPrimitive(Primitive.INT8, 1))))


def test_primitives_keep_their_type_and_exact_value():
    cases = {
        encode_primitive(Primitive.INT16, struct.pack("<h", -2)): (Primitive.INT16, -2),
        encode_primitive(Primitive.DOUBLE, struct.pack("<d", -0.0)): (Primitive.DOUBLE, 1 << 63),
        encode_primitive(Primitive.DECIMAL4, bytes([2]) + struct.pack("<i", 150)):
            (Primitive.DECIMAL4, (2, 150)),
        encode_primitive(Primitive.BINARY, b""): (Primitive.BINARY, b""),
        encode_primitive(Primitive.STRING, b"long form"): (Primitive.STRING, "long form"),
        encode_primitive(Primitive.TRUE): (Primitive.TRUE, None),
    }
    for value, (kind, expected) in cases.items():
        assert decode_variant(EMPTY, value, "row 0") == VariantPrimitive(kind, expected)


def test_arrays_keep_their_order():
    one, two = (encode_primitive(Primitive.INT8, bytes([n])) for n in (1, 2))
    assert decode_variant(EMPTY, encode_array([two, one]), "row 0") == VariantArray(
        (VariantPrimitive(Primitive.INT8, 2), VariantPrimitive(Primitive.INT8, 1)))


@pytest.mark.parametrize(("value", "message"), [
    (b"", "row 3: an empty variant value"),
    (bytes([0x0C, 1, 0]), "row 3: 1 bytes after the 2-byte variant value"),
    (DECIMAL8_SCALE_39, "row 3: variant decimal8 scale 39 is outside [0, 38]"),
    (bytes([0x02, 1, 5, 0, 1, 0]), "row 3, field id at byte 2: field id 5 past the metadata's 0 names"),
    (bytes([0x09]) + b"\xff\xfe", "row 3: a string that is not UTF-8 (invalid start byte at byte 1)"),
    # an object whose header claims 7 fields, its bytes ending after 2 ids
    (bytes([0x02, 7, 0, 0]), "row 3: 7 fields of 1 bytes at byte 2 run past its 4 bytes"),
    # an array whose last offset (9) runs past its 1 byte of values
    (bytes([0x03, 1, 0, 9, 0x0C]), "row 3: variant field offsets [0, 9] run past the 1 bytes of values"),
])
def test_bad_bytes_are_invalid_variant_naming_where(value, message):
    with pytest.raises(InvalidVariant, match=re.escape(message)):
        decode_variant(EMPTY, value, "row 3")


@pytest.mark.parametrize(("metadata", "message"), [
    # header 0x00: version 0
    (bytes([0x00, 0, 0]), "version 0 at byte 0"),
    # the one offset is 1, but no string byte follows
    (bytes([0x01, 1, 0, 1]), r"string offsets \[0, 1\] at byte 2 are not 0, ascending, ending at its 0"),
    # one byte after the last string: "the last `offset` value will always be the total length of `bytes`"
    (bytes([0x01, 1, 0, 1]) + b"ab", r"string offsets \[0, 1\] at byte 2"),
    # sorted_strings (0x10) set over "b", "a"
    (bytes([0x11, 2, 0, 1, 2]) + b"ba", "sorted_strings is set"),
    # sorted_strings set over "a", "a": sorted, not unique
    (bytes([0x11, 2, 0, 1, 2]) + b"aa", "sorted_strings is set"),
    (bytes([0x01, 1, 0, 1]) + b"\xff", r"a string that is not UTF-8 \(invalid start byte at byte 4\)"),
])
def test_bad_metadata_is_invalid_variant_naming_the_byte(metadata, message):
    with pytest.raises(InvalidVariant, match=message):
        decode_variant(metadata, encode_primitive(Primitive.NULL), "row 3")


def test_what_a_newer_specification_may_define_is_unsupported_not_invalid():
    """'Versions and extensions': a higher metadata version, a primitive type id the table
    does not list yet."""
    with pytest.raises(UnsupportedFeature, match="version 2 at byte 0"):
        decode_variant(bytes([0x02, 0, 0]), encode_primitive(Primitive.NULL), "row 0")
    with pytest.raises(UnsupportedFeature, match="primitive type id 21 at byte 0"):
        decode_variant(EMPTY, bytes([21 << 2]), "row 0")


def test_nesting_past_the_limit_is_unsupported_not_a_recursion_error():
    value = encode_primitive(Primitive.NULL)
    for _ in range(MAX_NESTING + 1):
        value = encode_array([value])
    with pytest.raises(UnsupportedFeature, match=f"nested deeper than {MAX_NESTING} levels"):
        decode_variant(EMPTY, value, "row 0")


def test_encode_metadata_round_trips_and_sets_sorted_strings_only_when_sorted():
    assert parse_metadata(encode_metadata(["b", "a"]), "m").names == ("b", "a")
    sorted_bit = 0x10
    assert encode_metadata(["a", "b"])[0] & sorted_bit
    assert not encode_metadata(["b", "a"])[0] & sorted_bit
