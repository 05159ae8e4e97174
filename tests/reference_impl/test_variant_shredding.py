"""Shredded VARIANT columns read back as their unshredded Variant values.

Spec: VariantShredding.md ('Value Shredding', 'Shredded Value Types', 'Arrays',
'Objects', 'Nesting', 'Reconstructing a Shredded Variant'). Each file is
written by the reference writer from rows that set `value` and `typed_value`
exactly as the spec's tables do; the expected values are Variant bytes
written out here from VariantEncoding.md's grammar (1-byte ids and offsets,
fields in name order: the reassembly form of docs/canonical-values.md).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from conformance.engines.parquet.reference import ReferenceEngine
from reference_impl.parquet.errors import CorruptMetadata, CorruptPage
from reference_impl.parquet.metadata import parquet_thrift as M
from reference_impl.parquet.schema.nested_types import StructShape, logical_shape, records_from_logical
from reference_impl.parquet.schema.tree import SchemaNode, group, leaf, root
from reference_impl.parquet.schema.variant_shredding import (
    ARRAY_IN_VALUE,
    MISSING_ELEMENT,
    OBJECT_IN_VALUE,
    shred_variant,
    shredded_array,
    shredded_object,
    shredded_primitive,
    variant_layout,
    variant_node,
)
from reference_impl.parquet.validation.validate import validate
from reference_impl.parquet.writer import write_table

OPTIONAL, REQUIRED = M.FieldRepetitionType.OPTIONAL, M.FieldRepetitionType.REQUIRED
STRING = M.LogicalType(STRING=M.StringType())
TIMESTAMP_UTC_MICROS = M.LogicalType(
    TIMESTAMP=M.TimestampType(isAdjustedToUTC=True, unit=M.TimeUnit(MICROS=M.MicroSeconds())))


# ---- Variant bytes, from VariantEncoding.md --------------------------------------------

def metadata(*names: str) -> bytes:
    """header 0x01 (version 1, 1-byte offsets), dictionary_size, offsets, bytes."""
    offsets, data = [0], b""
    for name in names:
        data += name.encode()
        offsets.append(len(data))
    return bytes([0x01, len(names), *offsets]) + data


def short_string(text: str) -> bytes:
    return bytes([len(text.encode()) << 2 | 1]) + text.encode()  # basic type 1, length in the header


def primitive(type_id: int, payload: bytes = b"") -> bytes:
    return bytes([type_id << 2]) + payload


def int64(v: int) -> bytes:
    return primitive(6, v.to_bytes(8, "little", signed=True))


def obj(*fields: tuple[int, bytes]) -> bytes:
    """An object with 1-byte ids and offsets; ``fields`` (id, value) in field-name order."""
    offsets, data = [0], b""
    for _, value in fields:
        data += value
        offsets.append(len(data))
    return bytes([0x02, len(fields), *(i for i, _ in fields), *offsets]) + data


def arr(*elements: bytes) -> bytes:
    offsets, data = [0], b""
    for element in elements:
        data += element
        offsets.append(len(data))
    return bytes([0x03, len(elements), *offsets]) + data


NULL = b"\x00"
EMPTY = metadata()


# ---- files -------------------------------------------------------------------------

def write_and_read(tmp_path: Path, variant: SchemaNode, rows: list) -> list:
    """Write one VARIANT column with the reference writer, read it with the reference engine."""
    tree = root([variant])
    path = tmp_path / "variant.parquet"
    write_table(path, tree, records_from_logical(tree, [{variant.name: r} for r in rows]))
    return [row[0] for row in ReferenceEngine().read(path).rows]


def pair(value=None, typed_value=None) -> dict:
    return {"value": value, "typed_value": typed_value}


def test_measurement_example_reads_as_unshredded_values(tmp_path):
    """'Value Shredding': 34, null, "n/a", 100 shredded as int64. (The spec's table shows
    "n/a" as `13 6E 2F 61`; a short string of 3 bytes has the header 3 << 2 | 1 = 0x0D.)"""
    node = variant_node("measurement", repetition=REQUIRED, typed_value=shredded_primitive(M.Type.INT64))
    rows = [{"metadata": EMPTY, **pair(None, 34)}, {"metadata": EMPTY, **pair(NULL, None)},
            {"metadata": EMPTY, **pair(short_string("n/a"), None)}, {"metadata": EMPTY, **pair(None, 100)},
            {"metadata": EMPTY, **pair(None, None)}]
    assert write_and_read(tmp_path, node, rows) == [
        (EMPTY, int64(34)), (EMPTY, NULL), (EMPTY, b"\x0dn/a"), (EMPTY, int64(100)),
        (EMPTY, NULL),  # "if a Variant is required ... and both ... are null, ... must be `00`"
    ]


EVENT_META = metadata("event_type", "event_ts", "email", "error_msg", "click")
TYPE, TS, EMAIL, ERROR, CLICK = range(5)


def event_node() -> SchemaNode:
    return variant_node("event", repetition=OPTIONAL, typed_value=shredded_object({
        "event_type": shredded_primitive(M.Type.BYTE_ARRAY, logical_type=STRING),
        "event_ts": shredded_primitive(M.Type.INT64, logical_type=TIMESTAMP_UTC_MICROS)}))


def ts(micros: int) -> bytes:
    return primitive(12, micros.to_bytes(8, "little", signed=True))  # timestamp, UTC, micros


def event(value, typed_value) -> dict:
    return {"metadata": EVENT_META, **pair(value, typed_value)}


def fields(event_type: dict | None = None, event_ts: dict | None = None) -> dict:
    """The shredded fields; a field not given is missing (both columns null)."""
    return {"event_type": event_type or pair(), "event_ts": event_ts or pair()}


def test_event_object_example_reads_as_unshredded_objects(tmp_path):
    """'Objects': every valid row of the spec's table (fields sorted by name:
    "email" < "event_ts" < "event_type")."""
    rows = [
        event(None, fields(pair(None, b"noop"), pair(None, 1729794114937))),
        event(obj((EMAIL, short_string("user@example.com"))),
              fields(pair(None, b"login"), pair(None, 1729794146402))),
        event(obj((ERROR, short_string("malformed: ..."))), fields()),
        event(short_string("malformed: not an object"), None),
        event(obj((CLICK, short_string("_button"))), fields(event_ts=pair(None, 1729794240241))),
        event(None, fields(pair(NULL, None), pair(None, 1729794954163))),
        event(None, fields(pair(None, b"noop"), pair(short_string("2024-10-24"), None))),
        event(None, fields()),
        event(NULL, None),
        event(None, None),
        None,
    ]
    assert write_and_read(tmp_path, event_node(), rows) == [
        (EVENT_META, obj((TS, ts(1729794114937)), (TYPE, short_string("noop")))),
        (EVENT_META, obj((EMAIL, short_string("user@example.com")), (TS, ts(1729794146402)),
                         (TYPE, short_string("login")))),
        (EVENT_META, obj((ERROR, short_string("malformed: ...")))),
        (EVENT_META, short_string("malformed: not an object")),
        (EVENT_META, obj((CLICK, short_string("_button")), (TS, ts(1729794240241)))),
        (EVENT_META, obj((TS, ts(1729794954163)), (TYPE, NULL))),
        (EVENT_META, obj((TS, short_string("2024-10-24")), (TYPE, short_string("noop")))),
        (EVENT_META, obj()),
        (EVENT_META, NULL),
        (EVENT_META, NULL),  # missing: Variant null
        None,
    ]


def tags_node() -> SchemaNode:
    element = shredded_primitive(M.Type.BYTE_ARRAY, logical_type=STRING)
    return variant_node("tags", repetition=OPTIONAL, typed_value=shredded_array(element))


def test_tags_array_example_reads_as_unshredded_arrays(tmp_path):
    """'Arrays': the spec's table of `tags` arrays."""
    rows = [{"metadata": EMPTY, **pair(None, [pair(None, b"comedy"), pair(None, b"drama")])},
            {"metadata": EMPTY, **pair(None, [pair(None, b"horror"), pair(NULL, None)])},
            {"metadata": EMPTY, **pair(None, [pair(None, b"comedy"), pair(None, b"drama"),
                                              pair(None, b"romance")])},
            {"metadata": EMPTY, **pair(NULL, None)},
            {"metadata": EMPTY, **pair(None, [])}]
    assert write_and_read(tmp_path, tags_node(), rows) == [
        (EMPTY, arr(short_string("comedy"), short_string("drama"))),
        (EMPTY, arr(short_string("horror"), NULL)),
        (EMPTY, arr(short_string("comedy"), short_string("drama"), short_string("romance"))),
        (EMPTY, NULL),
        (EMPTY, arr()),
    ]


def test_nesting_example_reads_objects_in_objects_and_arrays_in_objects(tmp_path):
    """'Nesting': `location` (an object) and `tags` (an array) shredded inside `event`."""
    double = shredded_primitive(M.Type.DOUBLE)
    node = variant_node("event", repetition=OPTIONAL, typed_value=shredded_object({
        "location": shredded_object({"latitude": double, "longitude": double}),
        "tags": shredded_array(shredded_primitive(M.Type.BYTE_ARRAY, logical_type=STRING))}))
    meta = metadata("location", "latitude", "longitude", "tags", "alt")
    location = pair(obj((4, primitive(3, b"\x07"))), {"latitude": pair(None, 52.5),
                                                       "longitude": pair(short_string("east"), None)})
    tags = pair(None, [pair(None, b"a"), pair(arr(NULL), None)])
    rows = [{"metadata": meta, **pair(None, {"location": location, "tags": tags})},
            {"metadata": meta, **pair(None, {"location": pair(), "tags": pair(NULL, None)})}]
    double_52_5 = primitive(7, bytes.fromhex("0000000000404a40"))  # 52.5, IEEE little-endian
    assert write_and_read(tmp_path, node, rows) == [
        (meta, obj((0, obj((4, primitive(3, b"\x07")), (1, double_52_5), (2, short_string("east")))),
                   (3, arr(short_string("a"), arr(NULL))))),
        (meta, obj((3, NULL))),
    ]


DECIMAL_9_2 = M.LogicalType(DECIMAL=M.DecimalType(scale=2, precision=9))
DECIMAL_18_3 = M.LogicalType(DECIMAL=M.DecimalType(scale=3, precision=18))
DECIMAL_38_4 = M.LogicalType(DECIMAL=M.DecimalType(scale=4, precision=38))


def _time(kind: str, utc: bool, unit: str) -> M.LogicalType:
    units = {"MICROS": M.TimeUnit(MICROS=M.MicroSeconds()), "NANOS": M.TimeUnit(NANOS=M.NanoSeconds())}
    if kind == "TIME":
        return M.LogicalType(TIME=M.TimeType(isAdjustedToUTC=utc, unit=units[unit]))
    return M.LogicalType(TIMESTAMP=M.TimestampType(isAdjustedToUTC=utc, unit=units[unit]))


# 'Shredded Value Types', row by row: (typed_value leaf, Parquet value, Variant value).
PRIMITIVES = [
    ("boolean true", dict(physical_type=M.Type.BOOLEAN), True, primitive(1)),
    ("boolean false", dict(physical_type=M.Type.BOOLEAN), False, primitive(2)),
    ("int8", dict(physical_type=M.Type.INT32, logical_type=M.LogicalType(INTEGER=M.IntType(8, True))),
     -2, primitive(3, b"\xfe")),
    ("int16", dict(physical_type=M.Type.INT32, logical_type=M.LogicalType(INTEGER=M.IntType(16, True))),
     -2, primitive(4, b"\xfe\xff")),
    ("int32", dict(physical_type=M.Type.INT32), 1, primitive(5, b"\x01\x00\x00\x00")),
    ("int64", dict(physical_type=M.Type.INT64), -1, primitive(6, b"\xff" * 8)),
    ("float", dict(physical_type=M.Type.FLOAT), 1.5, primitive(14, bytes.fromhex("0000c03f"))),
    ("double", dict(physical_type=M.Type.DOUBLE), -0.0, primitive(7, bytes.fromhex("0000000000000080"))),
    ("decimal4", dict(physical_type=M.Type.INT32, logical_type=DECIMAL_9_2), -125,
     primitive(8, b"\x02" + (-125).to_bytes(4, "little", signed=True))),
    ("decimal8", dict(physical_type=M.Type.INT64, logical_type=DECIMAL_18_3), 10**15,
     primitive(9, b"\x03" + (10**15).to_bytes(8, "little"))),
    ("decimal16 flba", dict(physical_type=M.Type.FIXED_LEN_BYTE_ARRAY, type_length=16,
                            logical_type=DECIMAL_38_4), (-1).to_bytes(16, "big", signed=True),
     primitive(10, b"\x04" + b"\xff" * 16)),
    ("decimal16 byte array", dict(physical_type=M.Type.BYTE_ARRAY, logical_type=DECIMAL_38_4),
     b"\x01\x00", primitive(10, b"\x04" + (256).to_bytes(16, "little"))),
    ("date", dict(physical_type=M.Type.INT32, logical_type=M.LogicalType(DATE=M.DateType())), 19000,
     primitive(11, (19000).to_bytes(4, "little"))),
    ("time", dict(physical_type=M.Type.INT64, logical_type=_time("TIME", False, "MICROS")), 5,
     primitive(17, (5).to_bytes(8, "little"))),
    ("timestamptz(6)", dict(physical_type=M.Type.INT64, logical_type=_time("TIMESTAMP", True, "MICROS")),
     7, primitive(12, (7).to_bytes(8, "little"))),
    ("timestamptz(9)", dict(physical_type=M.Type.INT64, logical_type=_time("TIMESTAMP", True, "NANOS")),
     7, primitive(18, (7).to_bytes(8, "little"))),
    ("timestampntz(6)", dict(physical_type=M.Type.INT64, logical_type=_time("TIMESTAMP", False, "MICROS")),
     7, primitive(13, (7).to_bytes(8, "little"))),
    ("timestampntz(9)", dict(physical_type=M.Type.INT64, logical_type=_time("TIMESTAMP", False, "NANOS")),
     7, primitive(19, (7).to_bytes(8, "little"))),
    ("binary", dict(physical_type=M.Type.BYTE_ARRAY), b"\x00\xff",
     primitive(15, b"\x02\x00\x00\x00\x00\xff")),
    ("short string", dict(physical_type=M.Type.BYTE_ARRAY, logical_type=STRING), "é".encode(),
     short_string("é")),
    ("long string", dict(physical_type=M.Type.BYTE_ARRAY, logical_type=STRING), b"x" * 64,
     primitive(16, (64).to_bytes(4, "little") + b"x" * 64)),  # 64 bytes: no short string
    ("uuid", dict(physical_type=M.Type.FIXED_LEN_BYTE_ARRAY, type_length=16,
                  logical_type=M.LogicalType(UUID=M.UUIDType())),
     bytes(range(16)), primitive(20, bytes(range(16)))),
]


@pytest.mark.parametrize(("typed", "physical", "expected"), [p[1:] for p in PRIMITIVES],
                         ids=[p[0] for p in PRIMITIVES])
def test_each_shredded_primitive_type_reads_as_its_variant_type(tmp_path, typed, physical, expected):
    physical_type = typed.pop("physical_type")
    node = variant_node("v", repetition=REQUIRED, typed_value=shredded_primitive(physical_type, **typed))
    rows = [{"metadata": EMPTY, **pair(None, physical)}]
    assert write_and_read(tmp_path, node, rows) == [(EMPTY, expected)]


def test_shredding_writer_round_trips_values_in_reassembly_form(tmp_path):
    """`shred_variant` puts what fits into typed_value and the rest into value; reading
    gives the value back byte for byte."""
    meta = metadata("a", "b", "c")
    node = variant_node("v", repetition=OPTIONAL, typed_value=shredded_object({
        "a": shredded_primitive(M.Type.INT64),
        "b": shredded_array(shredded_primitive(M.Type.INT32, logical_type=DECIMAL_9_2))}))
    decimal_2 = primitive(8, b"\x02\x01\x00\x00\x00")
    decimal_3 = primitive(8, b"\x03\x01\x00\x00\x00")  # another scale: stays in value
    values = [
        (meta, obj((0, int64(1)), (1, arr(decimal_2, decimal_3, NULL)), (2, short_string("rest")))),
        (meta, obj((0, short_string("not an int")))),
        (meta, obj((1, short_string("not an array")))),
        (meta, arr(int64(1))),
        (meta, NULL),
        (meta, obj()),
        None,
    ]
    shape = logical_shape(root([node])).fields[0]
    assert isinstance(shape, StructShape)
    layout = variant_layout(shape, "v")
    shredded = [shred_variant(layout, v) for v in values]
    assert shredded[0]["value"] == obj((2, short_string("rest")))  # the residual object
    assert shredded[0]["typed_value"]["a"] == pair(None, 1)
    assert shredded[0]["typed_value"]["b"]["typed_value"] == [pair(None, 1), pair(decimal_3, None),
                                                              pair(NULL, None)]
    assert write_and_read(tmp_path, node, shredded) == values


def test_unshredded_group_with_optional_metadata_and_value_reads(tmp_path):
    """pyarrow 21-23 write `optional binary metadata; optional binary value;` without
    typed_value: read as the unshredded variant; a null value is Variant null."""
    binary = [leaf(n, M.Type.BYTE_ARRAY, repetition=OPTIONAL) for n in ("metadata", "value")]
    node = group("v", binary, repetition=OPTIONAL,
                 logical_type=M.LogicalType(VARIANT=M.VariantType(specification_version=1)))
    rows = [{"metadata": EMPTY, "value": primitive(3, b"\x2a")}, {"metadata": EMPTY, "value": None}, None]
    assert write_and_read(tmp_path, node, rows) == [(EMPTY, primitive(3, b"\x2a")), (EMPTY, NULL), None]


# ---- what the reader refuses ------------------------------------------------------

@pytest.mark.parametrize(("row", "rule"), [
    (event(obj((TYPE, short_string("login"))), fields(pair(None, b"login"))), "must never contain fields"),
    (event(short_string("a"), fields()), "If the value is not an object"),
    (event(None, fields(pair(short_string("x"), b"y"))), "unless the Variant value is an object"),
], ids=["field in typed_value and value", "typed_value object, value not", "field value and typed_value"])
def test_reader_refuses_ambiguous_objects(tmp_path, row, rule):
    """'Objects': the INVALID rows of the spec's table and a field with both columns set."""
    with pytest.raises(CorruptPage, match=rule) as error:
        write_and_read(tmp_path, event_node(), [event(None, fields()), row])
    assert "row 1, event" in str(error.value) and "MUST" in str(error.value)


def test_a_missing_array_element_reads_as_variant_null(tmp_path):
    """'Arrays': "All elements of an array must be present (not missing)" is the writer's
    MUST; 'Value Shredding' gives the one reading: "If a Variant is missing in a context
    where a value is required, readers must return a Variant null" (validate reports it)."""
    row = {"metadata": EMPTY, **pair(None, [pair(None, b"a"), pair(None, None)])}
    assert write_and_read(tmp_path, tags_node(), [row]) == [(EMPTY, arr(short_string("a"), NULL))]
    _, breaches = ReferenceEngine().read_with_breaches(tmp_path / "variant.parquet")
    assert [(b.rule, b.where) for b in breaches] == [
        (MISSING_ELEMENT, "row 0, tags[1]: value and typed_value are both null")]
    with pytest.raises(CorruptPage, match="parquet.variant.missing-element"):
        ReferenceEngine().read_with_breaches(tmp_path / "variant.parquet", strict=True)


def test_an_object_or_array_left_in_value_reads_as_stored_and_is_named(tmp_path):
    """'Objects': "If the value is an object, `typed_value` must be non-null"; 'Arrays':
    "If the value is an array, `value` must be null"."""
    assert write_and_read(tmp_path, event_node(), [event(obj(), None)]) == [(EVENT_META, obj())]
    _, breaches = ReferenceEngine().read_with_breaches(tmp_path / "variant.parquet")
    assert [b.rule for b in breaches] == [OBJECT_IN_VALUE]
    array = {"metadata": EMPTY, **pair(arr(NULL), None)}
    assert write_and_read(tmp_path, tags_node(), [array]) == [(EMPTY, arr(NULL))]
    _, breaches = ReferenceEngine().read_with_breaches(tmp_path / "variant.parquet")
    assert [b.rule for b in breaches] == [ARRAY_IN_VALUE]


def test_reader_refuses_a_primitive_with_both_value_and_typed_value(tmp_path):
    node = variant_node("m", repetition=REQUIRED, typed_value=shredded_primitive(M.Type.INT64))
    with pytest.raises(CorruptPage, match="both non-null"):
        write_and_read(tmp_path, node, [{"metadata": EMPTY, **pair(NULL, 1)}])


def test_reader_refuses_a_shredded_field_missing_from_the_metadata(tmp_path):
    """'Variant Metadata': "All field names ... must be present in the metadata"."""
    row = {"metadata": EMPTY, **pair(None, fields(pair(None, b"x")))}
    with pytest.raises(CorruptPage, match="must be present in the metadata"):
        write_and_read(tmp_path, event_node(), [row])


@pytest.mark.parametrize("typed", [
    shredded_primitive(M.Type.INT64, logical_type=M.LogicalType(
        TIMESTAMP=M.TimestampType(isAdjustedToUTC=True, unit=M.TimeUnit(MILLIS=M.MilliSeconds())))),
    shredded_primitive(M.Type.INT32, logical_type=M.LogicalType(INTEGER=M.IntType(8, False))),
    shredded_primitive(M.Type.FIXED_LEN_BYTE_ARRAY, type_length=2,
                       logical_type=M.LogicalType(FLOAT16=M.Float16Type())),
], ids=["timestamp millis", "uint8", "float16"])
def test_reader_refuses_a_typed_value_type_outside_the_table(tmp_path, typed):
    """'Shredded Value Types': "Shredded values must use the following Parquet types"."""
    node = variant_node("v", repetition=OPTIONAL, typed_value=typed)
    with pytest.raises(CorruptMetadata, match="Shredded values must use the following Parquet types"):
        write_and_read(tmp_path, node, [None])


def test_a_shredded_group_without_value_reads_and_is_reported_by_validate(tmp_path):
    """LogicalTypes.md, 'VARIANT': the group "must contain ... a field named `value`";
    without it every value is in typed_value, which a reader can still reassemble."""
    node = variant_node("m", repetition=REQUIRED, typed_value=shredded_primitive(M.Type.INT64))
    no_value = group("m", [node.child("metadata"), node.child("typed_value")], repetition=REQUIRED,
                     logical_type=node.logical_type)
    assert write_and_read(tmp_path, no_value, [{"metadata": EMPTY, "typed_value": 5}]) == [(EMPTY, int64(5))]
    assert [f.kind for f in validate(tmp_path / "variant.parquet")] == ["variant.value_field"]
