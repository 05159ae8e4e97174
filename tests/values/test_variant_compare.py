"""VARIANT cells compare by the value their bytes encode (conformance/values/variant.py;
docs/canonical-values.md, 'Variants'): byte-different encodings of one variant are
equal, another Variant type or value is a difference named at its path."""

from __future__ import annotations

import struct

from conformance.values import Field, Schema, Table, diff_tables
from conformance.values import types as T
from reference_impl.parquet.schema.variant_encoding import (
    Primitive,
    encode_array,
    encode_metadata,
    encode_object,
    encode_primitive,
    encode_string,
    parse_metadata,
)

OBJECT_HEADER_ONE_BYTE_SIZES = 0x02  # basic type object, 1-byte field ids and offsets
OBJECT_HEADER_TWO_BYTE_OFFSETS = 0x06  # field_offset_size 2
METADATA = encode_metadata(["c", "d"])
NOT_AN_OBJECT = encode_string(b"not an object")
EMPTY_ARRAY = encode_array([])


def _table(*variants):
    return Table.from_rows(Schema((Field("v", T.variant()),)), [(v,) for v in variants])


def _int8(n: int) -> bytes:
    return encode_primitive(Primitive.INT8, struct.pack("<b", n))


def _name_order(d: bytes = NOT_AN_OBJECT, c: bytes = EMPTY_ARRAY) -> bytes:
    """{"d": d, "c": c} laid out as the reassembly form lays it out: values in id order."""
    return encode_object({"d": d, "c": c}, parse_metadata(METADATA, "test"), "test")


def test_values_in_insertion_order_equal_values_in_name_order():
    # Spark's layout of {"d": ..., "c": []}: ids [c, d], d's value first, c's offset past it.
    insertion = (bytes([OBJECT_HEADER_ONE_BYTE_SIZES, 2, 0, 1, len(NOT_AN_OBJECT), 0,
                        len(NOT_AN_OBJECT) + len(EMPTY_ARRAY)]) + NOT_AN_OBJECT + EMPTY_ARRAY)
    assert insertion != _name_order()
    assert diff_tables(_table((METADATA, _name_order())), _table((METADATA, insertion))) is None


def test_wider_offsets_another_dictionary_and_a_long_string_are_the_same_variant():
    # Two-byte offsets ("a larger value than necessary"), a dictionary in another order with
    # an unused name, and "not an object" as a long STRING instead of a short string.
    metadata = encode_metadata(["unused", "d", "c"])
    long_string = encode_primitive(Primitive.STRING, b"not an object")
    end = len(EMPTY_ARRAY) + len(long_string)
    wide = (bytes([OBJECT_HEADER_TWO_BYTE_OFFSETS, 2, 2, 1]) + struct.pack("<HHH", 0, 3, end)
            + EMPTY_ARRAY + long_string)
    assert diff_tables(_table((METADATA, _name_order())), _table((metadata, wide))) is None


def test_int8_and_int16_of_one_number_differ_with_the_path():
    int16 = encode_primitive(Primitive.INT16, struct.pack("<h", 4))
    diff = diff_tables(_table((METADATA, _name_order(d=_int8(4)))),
                       _table((METADATA, _name_order(d=int16))))
    assert diff == ("row 0, column 'v': expected {\"c\": [], \"d\": int8 4}, got {\"c\": [], "
                    "\"d\": int16 4} (at $.d: int8 4 expected, got int16 4 (the same number in "
                    "another Variant type or scale: a different value))")


def test_a_field_with_another_value_differs_with_the_path():
    diff = diff_tables(_table((METADATA, _name_order(c=encode_array([_int8(1)])))),
                       _table((METADATA, _name_order(c=encode_array([_int8(2)])))))
    assert diff == ("row 0, column 'v': expected {\"c\": [int8 1], \"d\": \"not an object\"}, "
                    "got {\"c\": [int8 2], \"d\": \"not an object\"} (at $.c[0]: int8 1 expected, "
                    "got int8 2)")


def test_decimal_scale_and_float_bits_are_part_of_the_value():
    empty = encode_metadata([])
    one_fifty = encode_primitive(Primitive.DECIMAL4, bytes([2]) + struct.pack("<i", 150))
    fifteen = encode_primitive(Primitive.DECIMAL4, bytes([1]) + struct.pack("<i", 15))
    assert diff_tables(_table((empty, one_fifty)), _table((empty, fifteen))) == (
        "row 0, column 'v': expected decimal4 150e-2, got decimal4 15e-1")
    zero, negative_zero = (encode_primitive(Primitive.DOUBLE, struct.pack("<d", x)) for x in (0.0, -0.0))
    assert diff_tables(_table((empty, zero)), _table((empty, negative_zero))) is not None
    nan = encode_primitive(Primitive.DOUBLE, struct.pack("<Q", 0x7FF8000000000001))
    assert diff_tables(_table((empty, nan)), _table((empty, nan))) is None


def test_bytes_that_do_not_decode_equal_only_themselves():
    truncated = (METADATA, _name_order()[:-1])
    assert diff_tables(_table(truncated), _table(truncated)) is None
    diff = diff_tables(_table((METADATA, _name_order())), _table(truncated))
    assert diff is not None and "got undecodable variant" in diff
    assert "run past the 16 bytes of values" in diff
