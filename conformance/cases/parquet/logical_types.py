"""Every logical type of LogicalTypes.md, with edge values, required and optional.

Spec: LogicalTypes.md (each section named in the case), parquet.thrift
`union LogicalType`, `enum ConvertedType`. PLAIN, uncompressed, data page v1,
so that a failure here is about the type, not about an encoding.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Sequence
from typing import Any

from conformance.values import Field, Schema
from conformance.values import types as T
from reference_impl.parquet.schema.variant_encoding import (
    VARIANT_NULL,
    BasicType,
    Primitive,
    encode_array,
    encode_metadata,
    encode_object,
    encode_primitive,
    encode_string,
    parse_metadata,
)

from ..float_edges import nan_payloads
from ..model import Case, WriteOptions

INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
MILLIS_PER_DAY = 86_400_000
FLOAT16_MAX = 65504.0
FLOAT16_MIN_SUBNORMAL = 2.0**-24

# WKB (ISO/OGC Simple Features): byte order 1 = little endian, geometry type 1 = Point.
WKB_POINT = struct.Struct("<BIdd")


def _wkb_point(x: float, y: float) -> bytes:
    return WKB_POINT.pack(1, 1, x, y)


# VARIANT (LogicalTypes.md "VARIANT"; the Variant binary encoding, VariantEncoding.md):
# metadata 0x01 0x00 0x00 is version 1 with an empty dictionary; each value starts
# with its header byte: 0x00 null, 0x04 true, 0x0c int8 (then the byte),
# 0x09 a short string of length 2 (then its bytes).
VARIANT_EMPTY_METADATA = b"\x01\x00\x00"
VARIANT_VALUES = [b"\x00", b"\x04", b"\x0c\x2a", b"\x09hi"]


# Shredded VARIANT (VariantShredding.md): values built with the Variant encoders,
# then shredded by each writer into the case's shredding schema.
def _int(kind: Primitive, n: int) -> bytes:
    width = {Primitive.INT8: 1, Primitive.INT16: 2, Primitive.INT64: 8}[kind]
    return encode_primitive(kind, n.to_bytes(width, "little", signed=True))


def _text(s: str) -> bytes:
    return encode_string(s.encode("utf-8"))


def _variants(names: Sequence[str], values: Sequence[Any]) -> list[Any]:
    """``values`` (encoded bytes, or dicts of field name -> value for objects) as
    canonical variants sharing one metadata of ``names``."""
    metadata = encode_metadata(names)
    names_of = parse_metadata(metadata, "case")

    def encode(v: Any) -> bytes:
        if isinstance(v, dict):
            return encode_object({k: encode(x) for k, x in v.items()}, names_of, "case")
        return v

    return [None if v is None else (metadata, encode(v)) for v in values]


LONG_TEXT = "y" * 70  # past the 63 bytes of a short string
# {"d": "not an object", "c": []} with its values in insertion order (d's first), as
# Spark lays them out: 1-byte ids and offsets, field ids [c=0, d=1], c's offset past d's value ("The `value`
# list can be in any order"; VariantEncoding.md, 'Value Data for Object').
_D, _C = _text("not an object"), encode_array([])
INSERTION_ORDER_OBJECT = bytes([BasicType.OBJECT, 2, 0, 1, len(_D), 0, len(_D) + len(_C)]) + _D + _C

# (name, shredding schema, metadata names, values, spec sections)
_SHREDDED: list[tuple[str, Any, list[str], list[Any], str]] = [
    ("int64", "int64", [],
     [_int(Primitive.INT64, 34), VARIANT_NULL, _text("n/a"), _int(Primitive.INT64, 100),
      _int(Primitive.INT8, 1), None], "Primitive Types"),
    ("string", "string", [],
     [_text("x"), _text(LONG_TEXT), _int(Primitive.INT8, 7), _text(""), None], "Primitive Types"),
    ("object", {"object": {"a": "int8", "b": "string"}}, ["a", "b", "z"],
     [{"a": _int(Primitive.INT8, 1), "b": _text("x"),
       "z": encode_primitive(Primitive.DOUBLE, struct.pack("<d", 2.5))},
      {"a": _text("no")}, {"b": _text(LONG_TEXT)}, {"a": VARIANT_NULL}, {},
      _int(Primitive.INT8, 7), None], "Objects"),
    ("array", {"array": "string"}, [],
     [encode_array([_text("p"), _text("q")]), encode_array([_text("p"), _int(Primitive.INT8, 3)]),
      encode_array([]), encode_array([VARIANT_NULL]), _text("not an array"), None], "Arrays"),
    ("nested", {"object": {"c": {"array": "string"}, "d": {"object": {"e": "int8"}}}},
     ["c", "d", "e", "f"],
     [{"c": encode_array([_text("p"), _int(Primitive.INT8, 3)]),
       "d": {"e": _int(Primitive.INT8, 4), "f": VARIANT_NULL}},
      INSERTION_ORDER_OBJECT, {"d": _int(Primitive.INT16, 4)}, None], "Nesting"),
]


def _shredded_case(name: str, shredding: Any, names: list[str], values: list[Any],
                   section: str) -> Case:
    return Case(
        id=f"logical/variant-shredded-{name}",
        title=f"VARIANT shredded as {shredding}: values that fit typed_value and values that do not",
        spec=(f"VariantShredding.md: {section}", "VariantShredding.md: Reconstructing a Shredded Variant",
              "LogicalTypes.md: VARIANT"),
        schema=Schema((Field("v", T.variant(), True),)),
        rows=tuple((v,) for v in _variants(names, values)),
        options=WriteOptions(variant_shredding={"v": shredding}))


def _decimal_edges(precision: int) -> list[int]:
    largest = 10**precision - 1
    return [-largest, -1, 0, 1, largest]


# (name, type, edge values, LogicalTypes.md section)
_LOGICAL: list[tuple[str, T.DataType, list[Any], str]] = [
    ("enum", T.enum(), ["", "RED", "ünïcødé"], "ENUM"),
    ("uuid", T.uuid(), ["00000000-0000-0000-0000-000000000000",
                        "ffffffff-ffff-ffff-ffff-ffffffffffff",
                        "123e4567-e89b-12d3-a456-426614174000"], "UUID"),
    ("decimal-int32", T.decimal(9, 2, "INT32"), _decimal_edges(9), "DECIMAL"),
    ("decimal-int64", T.decimal(18, 6, "INT64"), _decimal_edges(18), "DECIMAL"),
    ("decimal-flba", T.decimal(38, 10, "FIXED_LEN_BYTE_ARRAY"), _decimal_edges(38), "DECIMAL"),
    ("decimal-flba-short", T.decimal(4, 4, "FIXED_LEN_BYTE_ARRAY"), _decimal_edges(4), "DECIMAL"),
    ("decimal-byte-array", T.decimal(30, 0, "BYTE_ARRAY"), [*_decimal_edges(30), 127, 128, -128,
                                                            -129], "DECIMAL"),
    ("float16", T.floating(16), [0.0, -0.0, 1.0, -2.5, FLOAT16_MAX, -FLOAT16_MAX,
                                 FLOAT16_MIN_SUBNORMAL, math.inf, -math.inf, math.nan], "FLOAT16"),
    ("float16-nan-payloads", T.floating(16), nan_payloads(16), "FLOAT16"),
    ("date", T.date(), [INT32_MIN, -1, 0, 19_000, INT32_MAX], "DATE"),
    ("time-millis-utc", T.time("ms", True), [0, 1, MILLIS_PER_DAY - 1], "TIME"),
    ("time-millis-local", T.time("ms", False), [0, 1, MILLIS_PER_DAY - 1], "TIME"),
    ("time-micros-utc", T.time("us", True), [0, 1, MILLIS_PER_DAY * 1000 - 1], "TIME"),
    ("time-micros-local", T.time("us", False), [0, 1, MILLIS_PER_DAY * 1000 - 1], "TIME"),
    ("time-nanos-utc", T.time("ns", True), [0, 1, MILLIS_PER_DAY * 10**6 - 1], "TIME"),
    ("time-nanos-local", T.time("ns", False), [0, 1, MILLIS_PER_DAY * 10**6 - 1], "TIME"),
    ("timestamp-millis-utc", T.timestamp("ms", True), [0, -1, 1_700_000_000_123,
                                                       253_402_300_799_999], "TIMESTAMP"),
    ("timestamp-millis-local", T.timestamp("ms", False), [0, -1, 1_700_000_000_123], "TIMESTAMP"),
    ("timestamp-micros-utc", T.timestamp("us", True), [0, -1, 1_700_000_000_123_456,
                                                       INT64_MAX, INT64_MIN], "TIMESTAMP"),
    ("timestamp-micros-local", T.timestamp("us", False), [0, -1, 1_700_000_000_123_456],
     "TIMESTAMP"),
    ("timestamp-nanos-utc", T.timestamp("ns", True), [0, -1, 1_700_000_000_123_456_789,
                                                      INT64_MAX, INT64_MIN], "TIMESTAMP"),
    ("timestamp-nanos-local", T.timestamp("ns", False), [0, -1, 1_700_000_000_123_456_789],
     "TIMESTAMP"),
    ("interval", T.interval(), [(0, 0, 0), (1, 2, 3), (2**32 - 1, 2**32 - 1, 2**32 - 1),
                                (0, 0, MILLIS_PER_DAY + 1)], "INTERVAL"),
    ("json", T.json_type(), ["{}", '{"a": [1, 2.5, null]}', '"text"', "12345678901234567890"],
     "JSON"),
    ("bson", T.bson(), [bytes.fromhex("0500000000"),  # the empty document
                        bytes.fromhex("0c0000001061000100000000")],  # {"a": 1} (int32)
     "BSON"),
    ("geometry", T.geometry(), [_wkb_point(1.0, 2.0), _wkb_point(-180.0, 90.0)], "GEOMETRY"),
    ("geography", T.geography(), [_wkb_point(13.4, 52.5), _wkb_point(-0.0, 0.0)], "GEOGRAPHY"),
    ("variant", T.variant(), [(VARIANT_EMPTY_METADATA, v) for v in VARIANT_VALUES], "VARIANT"),
]


def _with_nulls(values: Sequence[Any]) -> list[Any]:
    out: list[Any] = [None]
    for v in values:
        out += [v, None]
    return out


def _case(name: str, t: T.DataType, nullable: bool, values: Sequence[Any], section: str) -> Case:
    repetition = "optional" if nullable else "required"
    return Case(
        id=f"logical/{name}-{repetition}",
        title=f"{t.describe()} {repetition.upper()}, edge values",
        spec=(f"LogicalTypes.md: {section}", "parquet.thrift: union LogicalType"),
        schema=Schema((Field("value", t, nullable),)),
        rows=tuple((v,) for v in (_with_nulls(values) if nullable else values)))


def cases() -> list[Case]:
    out = []
    for name, t, values, section in _LOGICAL:
        out.append(_case(name, t, False, values, section))
        out.append(_case(name, t, True, values, section))
    out.append(Case(
        id="logical/unknown", title="UNKNOWN: a column that is always null",
        spec=("LogicalTypes.md: UNKNOWN (always null)",),
        schema=Schema((Field("nothing", T.unknown(), True), Field("id", T.integer(32), False))),
        rows=tuple((None, i) for i in range(4)), extra_features=("nulls:all",)))
    out.extend(_shredded_case(*shredded) for shredded in _SHREDDED)
    return out
