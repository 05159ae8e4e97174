"""Variant values by meaning: the comparison key and a readable form (docs/canonical-values.md,
'Variants').

Spec: VariantEncoding.md, 'Encoding types', 'Value Data for Object', 'Object field
ID order and uniqueness'.

A canonical variant is its ``(metadata, value)`` bytes, but two valid encodings of one
variant differ in bytes (an object's values "can be in any order", offsets and ids
wider than needed, a string short or long, a metadata dictionary in another order or
with unused names). Two variants are the same when their decoded values
(`reference_impl.parquet.schema.variant_encoding.decode_variant`) are: the same Variant
primitive type and value at every place, objects with the same fields by name, arrays
with the same elements in order. The *Equivalence Class* column of 'Encoding types'
says what user expressions must treat alike (an int8 1 and a decimal16 1.00); it does
not make them one value, and a reader that hands back another type than the file holds
has changed the value, so those stay different.
"""

from __future__ import annotations

import json
import math
import struct
from dataclasses import dataclass, field
from fractions import Fraction

from reference_impl.parquet.errors import ParquetError
from reference_impl.parquet.schema.variant_encoding import (
    Primitive,
    VariantArray,
    VariantObject,
    VariantPrimitive,
    VariantValue,
    decode_variant,
)

WHERE = "canonical variant"
_FLOAT_FORMATS = {Primitive.FLOAT: ("<I", "<f"), Primitive.DOUBLE: ("<Q", "<d")}


@dataclass(frozen=True)
class Undecodable:
    """Bytes that are no valid variant: equal only to the same bytes."""

    metadata: bytes
    value: bytes
    reason: str = field(compare=False)


VariantKey = VariantValue | Undecodable


def variant_key(variant: tuple[bytes, bytes]) -> VariantKey:
    """The decoded value of a canonical variant, or its bytes when they do not decode."""
    metadata, value = variant
    try:
        return decode_variant(metadata, value, WHERE)
    except ParquetError as error:
        return Undecodable(metadata, value, str(error))


def describe(key: VariantKey) -> str:
    """A readable form: JSON-like, each primitive named by its Variant type."""
    if isinstance(key, Undecodable):
        return (f"undecodable variant (metadata {key.metadata.hex()}, value {key.value.hex()}: "
                f"{key.reason})")
    if isinstance(key, VariantObject):
        return "{" + ", ".join(f"{json.dumps(n, ensure_ascii=False)}: {describe(v)}"
                               for n, v in key.fields) + "}"
    if isinstance(key, VariantArray):
        return "[" + ", ".join(describe(e) for e in key.elements) + "]"
    return _primitive(key)


def _primitive(p: VariantPrimitive) -> str:
    kind, value = p.type, p.value
    if kind in (Primitive.NULL, Primitive.TRUE, Primitive.FALSE):
        return {Primitive.NULL: "null", Primitive.TRUE: "true", Primitive.FALSE: "false"}[kind]
    if kind is Primitive.STRING:
        return json.dumps(value, ensure_ascii=False)
    name = kind.name.lower()
    if kind in _FLOAT_FORMATS:
        bits_format, float_format = _FLOAT_FORMATS[kind]
        number = struct.unpack(float_format, struct.pack(bits_format, value))[0]
        return f"{name} {number!r}" + (f" (bits {value:#x})" if math.isnan(number) else "")
    if isinstance(value, tuple):  # a decimal: (scale, unscaled)
        scale, unscaled = value
        return f"{name} {unscaled}e-{scale}" if scale else f"{name} {unscaled}"
    if isinstance(value, bytes):
        return f"{name} {value.hex()}"
    return f"{name} {value}"


def first_difference(expected: VariantKey, actual: VariantKey,
                     path: str = "$") -> tuple[str, str] | None:
    """Where two variants first differ (a JSON path) and how, or None when they are the same."""
    if expected == actual:
        return None
    if isinstance(expected, VariantObject) and isinstance(actual, VariantObject):
        want, got = dict(expected.fields), dict(actual.fields)
        if want.keys() != got.keys():
            return path, f"fields {sorted(want)} expected, got {sorted(got)}"
        return next(filter(None, (first_difference(want[n], got[n], f"{path}.{n}") for n in want)))
    if isinstance(expected, VariantArray) and isinstance(actual, VariantArray):
        if len(expected.elements) != len(actual.elements):
            return path, f"{len(expected.elements)} elements expected, got {len(actual.elements)}"
        pairs = enumerate(zip(expected.elements, actual.elements, strict=True))
        return next(filter(None, (first_difference(e, a, f"{path}[{i}]") for i, (e, a) in pairs)))
    return path, f"{describe(expected)} expected, got {describe(actual)}{_same_number(expected, actual)}"


def _same_number(expected: VariantKey, actual: VariantKey) -> str:
    """A hint when two exact numbers differ only in Variant type or scale."""
    numbers = [_exact_number(k) for k in (expected, actual)]
    if None in numbers or numbers[0] != numbers[1]:
        return ""
    return " (the same number in another Variant type or scale: a different value)"


def _exact_number(key: VariantKey) -> Fraction | None:
    if not isinstance(key, VariantPrimitive) or key.type in _FLOAT_FORMATS:
        return None
    if key.type in (Primitive.INT8, Primitive.INT16, Primitive.INT32, Primitive.INT64):
        assert isinstance(key.value, int)
        return Fraction(key.value)
    if isinstance(key.value, tuple):
        scale, unscaled = key.value
        return Fraction(unscaled, 10**scale)
    return None
