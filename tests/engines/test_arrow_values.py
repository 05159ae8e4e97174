"""Exact canonical <-> Arrow conversions (conformance.engines.arrow_values)."""

from __future__ import annotations

import struct
from decimal import Decimal

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance.cases import all_cases
from conformance.engines.arrow_values import (
    DECIMAL256_MAX_PRECISION,
    NO_ARROW_FORM,
    array_to_arrow,
    array_to_values,
    arrow_to_table,
    canonical_type,
    narrow_float_bits,
    schema_to_arrow,
    table_to_arrow,
    widen_float_bits,
)
from conformance.engines.base import LossyConversion, Unsupported
from conformance.engines.geoarrow import WkbType
from conformance.values import DataType, Field, Schema, Table, diff_tables, float_bits
from conformance.values import types as T
from tests.support import strategies as S


def _round_trip(table: Table) -> Table:
    return arrow_to_table(table_to_arrow(table))


# Kinds whose Arrow mapping refuses some values or all of them, by declaration.
_REFUSED_KINDS = {*NO_ARROW_FORM, "interval", "union"}  # a null union has no Arrow form
# What else the Arrow mapping declares it cannot hold (arrow_values' Unsupported messages):
# an ORC timestamp before 1677 or after 2262 (Arrow's 64-bit count of nanoseconds), a
# DECIMAL above Arrow's 76 digits, ORC's STRUCT without fields.
_DECLARED_GAPS = ("64-bit", f"at most {DECIMAL256_MAX_PRECISION} digits", "STRUCT without fields")


@pytest.mark.parametrize("case", all_cases(), ids=lambda c: c.id)
def test_catalogue_round_trip_is_identity(case):
    try:
        arrow = table_to_arrow(case.expected)
    except Unsupported as exc:
        # Only the declared gaps may refuse a case, and they say why.
        assert case.schema.kinds() & _REFUSED_KINDS or any(gap in str(exc) for gap in _DECLARED_GAPS), exc
        return
    assert diff_tables(case.expected, arrow_to_table(arrow)) is None


# One column of every kind the Arrow mapping carries, nulls included.
_EVERY_KIND = [
    (T.floating(16), [1.5, -0.0, float("inf"), float("nan"), 65504.0, None]),
    (T.decimal(5, 2, "INT32"), [12345, -99999, 0, None]),
    (T.decimal(38, 0), [10**38 - 1, -(10**38 - 1), None]),
    (T.decimal(76, 10), [10**76 - 1, -(10**75), 1, None]),
    (T.date(), [-(2**31), 2**31 - 1, 0, None]),
    (T.time("ms", False), [0, 86_399_999, None]),
    (T.time("us"), [0, 86_399_999_999, None]),
    (T.time("ns"), [0, 86_399_999_999_999, None]),
    (T.timestamp("ms", False), [-(2**63), 2**63 - 1, None]),
    (T.timestamp("us", True), [-(2**63), 2**63 - 1, None]),
    (T.timestamp("ns", True), [1_700_000_000_123_456_789, None]),
    (T.int96(), [-(2**63), 0, None]),
    (T.uuid(), ["00112233-4455-6677-8899-aabbccddeeff", None]),
    (T.json_type(), ['{"a": [1, 2]}', "null", None]),
    (T.enum(), ["RED", None]),
    (T.bson(), [b"\x05\x00\x00\x00\x00", None]),
    (T.fixed(3), [b"\x00\x00\x00", b"abc", None]),
    (T.interval(), [(0, 0, 0), (2**31 - 1, 2**31 - 1, 2**32 - 1), None]),
    (T.geometry(), [bytes.fromhex("0101000000000000000000f03f0000000000000040"), None]),
    (T.geometry("EPSG:3857"), [b"not checked: WKB is carried as bytes", None]),
    (T.geography(), [bytes.fromhex("0101000000000000000000f03f0000000000000040"), None]),
    (T.geography("OGC:CRS83", "VINCENTY"), [b"", None]),
    (T.unknown(), [None, None]),
    (T.list_of(T.integer(64, False)), [[2**64 - 1, None], [], None]),
    (T.map_of(T.string(), T.list_of(T.floating(32))),
     [[("a", [1.5, None]), ("b", None)], [], None]),
    (T.struct_of(Field("x", T.integer(8), False), Field("y", T.list_of(T.string()))),
     [{"x": -128, "y": ["é", None]}, {"x": 0, "y": None}, None]),
]


@pytest.mark.parametrize(("t", "values"), _EVERY_KIND, ids=lambda x: getattr(x, "kind", ""))
def test_every_kind_round_trips(t, values):
    table = Table.from_columns(Schema((Field("c", t, True),)), [values])
    table.validate()
    assert diff_tables(table, _round_trip(table)) is None


def test_arrow_types_follow_the_canonical_types():
    schema = Schema((
        Field("u8", T.integer(8, False), False), Field("f16", T.floating(16)),
        Field("d", T.decimal(40, 3)), Field("t", T.time("ms")),
        Field("ts", T.timestamp("ns", True)), Field("local", T.timestamp("us", False)),
        Field("u", T.uuid()), Field("i96", T.int96()),
    ))
    arrow = schema_to_arrow(schema)
    assert arrow.field("u8").type == pa.uint8() and not arrow.field("u8").nullable
    assert arrow.field("f16").type == pa.float16()
    assert arrow.field("d").type == pa.decimal256(40, 3)
    assert arrow.field("t").type == pa.time32("ms")
    assert arrow.field("ts").type == pa.timestamp("ns", tz="UTC")
    assert arrow.field("local").type == pa.timestamp("us")
    assert arrow.field("u").type == pa.uuid()
    assert arrow.field("i96").type == pa.timestamp("ns")


def test_geoarrow_metadata_of_the_default_crs_and_edges_is_the_canonical_default():
    # Arrow C++ spells an unset CRS out as "OGC:CRS84" (measured); LogicalTypes.md makes it the default.
    metadata = b'{"crs": "OGC:CRS84", "crs_type": "authority_code", "edges": "spherical"}'
    t, values = _single(pa.ExtensionArray.from_storage(WkbType(metadata), pa.array([b"\x01"], pa.binary())))
    assert (t, values) == (T.geography(), [b"\x01"])
    assert schema_to_arrow(Schema((Field("g", T.geography(None, "KARNEY")),))).field("g").type.metadata == (
        b'{"edges": "karney"}')


def test_interval_beyond_int32_has_no_arrow_form():
    with pytest.raises(Unsupported, match="signed 32-bit"):
        array_to_arrow(T.interval(), [(2**31, 0, 0)])


# ---- hand-built Arrow arrays -> exact canonical values ------------------------

def _single(arr: pa.Array) -> tuple[DataType, list]:
    table = arrow_to_table(pa.table({"c": arr}))
    return table.schema.fields[0].type, table.column("c")


def test_uint64_max():
    t, values = _single(pa.array([2**64 - 1, 0, None], pa.uint64()))
    assert t == DataType("int", bits=64, signed=False)
    assert values == [2**64 - 1, 0, None]


def test_decimal256_unscaled_exactly():
    arr = pa.array([Decimal("-1234567890123456789012345678901234567890.1234567890"), None],
                   pa.decimal256(50, 10))
    t, values = _single(arr)
    assert t == DataType("decimal", precision=50, scale=10)
    assert values == [-12345678901234567890123456789012345678901234567890, None]


def test_decimal_slice_reads_its_own_values():
    arr = pa.array([Decimal("1.01"), Decimal("-2.02"), Decimal("3.03")], pa.decimal128(5, 2))
    assert array_to_values(arr.slice(1)) == [-202, 303]


def test_timestamp_with_any_zone_is_utc_and_exact():
    storage = pa.array([1_700_000_000_123_456_789, -1, None], pa.int64())
    t, values = _single(storage.view(pa.timestamp("ns", tz="America/New_York")))
    assert t == DataType("timestamp", unit="ns", utc=True)
    assert values == [1_700_000_000_123_456_789, -1, None]
    t, _ = _single(storage.view(pa.timestamp("ns")))
    assert t.utc is False


def test_seconds_are_read_as_exact_millis():
    t, values = _single(pa.array([3, None], pa.int64()).view(pa.timestamp("s")))
    assert (t.unit, values) == ("ms", [3000, None])


def test_time32_ms():
    t, values = _single(pa.array([0, 86_399_999, None], pa.int32()).view(pa.time32("ms")))
    assert t == DataType("time", unit="ms")
    assert values == [0, 86_399_999, None]


def test_date64_must_be_whole_days():
    _, values = _single(pa.array([86_400_000 * 3, None], pa.int64()).view(pa.date64()))
    assert values == [3, None]
    with pytest.raises(LossyConversion, match="whole number of days"):
        _single(pa.array([1], pa.int64()).view(pa.date64()))


def test_dictionary_arrays_are_decoded():
    arr = pa.array(["b", None, "a", "b"]).dictionary_encode().slice(1)
    t, values = _single(arr)
    assert t == DataType("string")
    assert values == [None, "a", "b"]


def test_chunks_with_different_dictionaries():
    chunks = [pa.array(["x", "y"]).dictionary_encode(), pa.array(["z"]).dictionary_encode()]
    table = arrow_to_table(pa.table({"c": pa.chunked_array(chunks)}))
    assert table.column("c") == ["x", "y", "z"]


@pytest.mark.parametrize("arrow_t", [pa.large_string(), pa.string_view()])
def test_large_and_view_strings(arrow_t):
    t, values = _single(pa.array(["", "emoji \U0001f389", None], arrow_t))
    assert t == DataType("string")
    assert values == ["", "emoji \U0001f389", None]


@pytest.mark.parametrize("arrow_t", [pa.large_binary(), pa.binary_view()])
def test_large_and_view_binary(arrow_t):
    t, values = _single(pa.array([b"\x00\xff", None], arrow_t))
    assert t == DataType("binary")
    assert values == [b"\x00\xff", None]


def test_float_bits_survive_including_nan_payloads():
    raw = np.array([0x7F800001, 0xFFC00000, 0x80000000, 0x00000001], np.uint32)
    values = array_to_values(pa.array(raw).view(pa.float32()))
    assert [float_bits(v) for v in values] == [
        0x7FF0000020000000, 0xFFF8000000000000, 0x8000000000000000,
        float_bits(struct.unpack("<f", bytes.fromhex("01000000"))[0])]


def test_float16_values():
    arr = pa.array(np.array([1.5, -0.0, 65504.0], np.float16))
    t, values = _single(arr)
    assert t == DataType("float", bits=16)
    assert [float_bits(v) for v in values] == [float_bits(x) for x in (1.5, -0.0, 65504.0)]


def test_nulls_at_every_level_of_nested_values():
    t = pa.list_(pa.map_(pa.string(), pa.struct([("a", pa.list_(pa.int32()))])))
    rows = [
        None,                                   # null list
        [],                                     # empty list
        [None],                                 # null map inside the list
        [[("k", None)]],                        # null struct as map value
        [[("k", {"a": None})]],                 # null list inside the struct
        [[("k", {"a": [None, 7]})], []],        # null element inside the innermost list
    ]
    arr = pa.array(rows, t)
    ctype, values = _single(arr)
    assert ctype.kind == "list" and ctype.element.type.kind == "map"
    assert ctype.element.type.value.type.fields[0].type.element.type == DataType(
        "int", bits=32, signed=True)
    assert values == rows
    assert array_to_values(arr.slice(3)) == rows[3:]


def test_struct_slice_and_nulls():
    arr = pa.array([{"x": 1, "y": "a"}, None, {"x": None, "y": "c"}],
                   pa.struct([("x", pa.int64()), ("y", pa.string())]))
    assert array_to_values(arr.slice(1)) == [None, {"x": None, "y": "c"}]


def test_fixed_size_and_view_lists():
    fixed = pa.array([[1, 2], None, [3, None]], pa.list_(pa.int8(), 2))
    assert array_to_values(fixed.slice(1)) == [None, [3, None]]
    assert canonical_type(fixed.type).kind == "list"
    view = pa.array([[1], None, [2, 3]], pa.list_view(pa.int16()))
    assert array_to_values(view) == [[1], None, [2, 3]]


def test_extension_types():
    uuid_arr = pa.ExtensionArray.from_storage(
        pa.uuid(), pa.array([bytes(range(16)), None], pa.binary(16)))
    assert _single(uuid_arr) == (DataType("uuid", length=16),
                                 ["00010203-0405-0607-0809-0a0b0c0d0e0f", None])
    bool8 = pa.ExtensionArray.from_storage(pa.bool8(), pa.array([1, 0, None, -3], pa.int8()))
    assert _single(bool8) == (DataType("boolean"), [True, False, None, True])
    json_arr = pa.ExtensionArray.from_storage(pa.json_(), pa.array(['{"a":1}', None]))
    assert _single(json_arr) == (DataType("json"), ['{"a":1}', None])


def test_duckdb_time_with_time_zone():
    # 01:02:03 at offset +00:00, as DuckDB exports TIMETZ (arrow.opaque).
    t = pa.opaque(pa.binary(8), "time_tz", "DuckDB")
    arr = pa.ExtensionArray.from_storage(
        t, pa.array([bytes.fromhex("FFE000C078E8DD00"), None], pa.binary(8)))
    assert _single(arr) == (DataType("time", unit="us", utc=True), [3_723_000_000, None])


def test_unknown_extension_is_lossy():
    arr = pa.ExtensionArray.from_storage(pa.opaque(pa.int32(), "thing", "Vendor"),
                                         pa.array([1], pa.int32()))
    with pytest.raises(LossyConversion, match="thing"):
        _single(arr)


def test_types_without_canonical_form_are_lossy():
    with pytest.raises(LossyConversion, match="duration"):
        _single(pa.array([1], pa.duration("ms")))


def test_month_day_nano_must_fit_parquet_interval():
    ok = pa.array([pa.MonthDayNano([1, 2, 3_000_000]), None], pa.month_day_nano_interval())
    assert _single(ok) == (DataType("interval"), [(1, 2, 3), None])
    with pytest.raises(LossyConversion, match="milliseconds"):
        _single(pa.array([pa.MonthDayNano([0, 0, 1])], pa.month_day_nano_interval()))
    with pytest.raises(LossyConversion, match="unsigned 32-bit"):
        _single(pa.array([pa.MonthDayNano([-1, 0, 0])], pa.month_day_nano_interval()))


# ---- properties -----------------------------------------------------------------

@given(st.integers(0, 2**32 - 1))
def test_float32_bit_patterns_round_trip(bits):
    wide = widen_float_bits(np.array([bits], np.uint32), 32)
    assert int(narrow_float_bits(np.array(wide), 32)[0]) == bits


@given(st.integers(0, 2**16 - 1))
def test_float16_bit_patterns_round_trip(bits):
    wide = widen_float_bits(np.array([bits], np.uint16), 16)
    assert int(narrow_float_bits(np.array(wide), 16)[0]) == bits


def _fits_arrow(t: DataType) -> bool:
    return t.kind not in _REFUSED_KINDS and all(_fits_arrow(f.type) for f in
                                        (t.element, t.key, t.value, *t.fields) if f)


@given(st.data())
def test_any_canonical_column_round_trips(data):
    t = data.draw(S.any_types.filter(_fits_arrow))
    values = data.draw(st.lists(S.values(t), max_size=5))
    table = Table.from_columns(Schema((Field("c", t, True),)), [values])
    assert diff_tables(table, _round_trip(table)) is None


UNION_CHILDREN = [pa.array([1, 2]), pa.array(["a", "b"])]
INVALID_UNIONS = {
    "type code not the type's": pa.UnionArray.from_sparse(pa.array([0, 5], pa.int8()), UNION_CHILDREN),
    "negative type code": pa.UnionArray.from_dense(pa.array([-33, 1], pa.int8()),
                                                   pa.array([0, 1], pa.int32()), UNION_CHILDREN),
    "offset past its child": pa.UnionArray.from_dense(pa.array([0, 1], pa.int8()),
                                                      pa.array([0, 7], pa.int32()), UNION_CHILDREN),
}


@pytest.mark.parametrize("arr", INVALID_UNIONS.values(), ids=INVALID_UNIONS.keys())
def test_an_invalid_union_from_the_engine_is_lossy_not_a_crash(arr):
    # Measured: pyarrow's ORC reader returns type code -33 for a bad file's union tag.
    with pytest.raises(LossyConversion, match="invalid Arrow union: Union value at position"):
        array_to_values(arr)
