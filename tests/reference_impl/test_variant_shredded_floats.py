"""A shredded Variant float keeps every bit, a signalling NaN included, in both
directions (VariantShredding.md, 'Shredded Value Types'; VariantEncoding.md,
'Encoding types': "float" is a 4-byte IEEE little-endian value)."""

from __future__ import annotations

import struct

import numpy as np

from reference_impl.common.ieee_float import narrow_float_bits
from reference_impl.parquet.metadata import parquet_thrift as M
from reference_impl.parquet.schema.nested_types import StructShape, logical_shape
from reference_impl.parquet.schema.tree import SchemaNode, root
from reference_impl.parquet.schema.variant_shredding import (
    shred_variant,
    shredded_primitive,
    variant_layout,
    variant_node,
)
from tests.reference_impl.test_variant_shredding import EMPTY, REQUIRED, pair, primitive, write_and_read

FLOAT_BITS = 32
FLOAT_TYPE_ID = 14  # VariantEncoding.md 'Encoding types': float
SIGNALLING_NAN = 0x7F800001  # exponent all ones, quiet bit clear, payload 1
SIGNALLING_NAN_VALUE = primitive(FLOAT_TYPE_ID, struct.pack("<I", SIGNALLING_NAN))


def float_variant() -> SchemaNode:
    return variant_node("v", repetition=REQUIRED, typed_value=shredded_primitive(M.Type.FLOAT))


def test_a_signalling_nan_shreds_into_typed_value_and_reads_back_bit_for_bit(tmp_path) -> None:
    node = float_variant()
    shape = logical_shape(root([node])).fields[0]
    assert isinstance(shape, StructShape)
    shredded = shred_variant(variant_layout(shape, "v"), (EMPTY, SIGNALLING_NAN_VALUE))
    typed = shredded["typed_value"]
    assert narrow_float_bits(np.array([typed]), FLOAT_BITS).tolist() == [SIGNALLING_NAN]
    assert shredded == {"metadata": EMPTY, **pair(None, typed)}
    assert write_and_read(tmp_path, node, [shredded]) == [(EMPTY, SIGNALLING_NAN_VALUE)]
