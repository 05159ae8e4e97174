"""Canonical values: JSON round trips, exactness, validation (docs/canonical-values.md)."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance.values import (
    CanonicalValueError,
    DataType,
    DocumentError,
    Field,
    Schema,
    Table,
    float_bits,
    from_json,
    to_json,
    validate,
)
from conformance.values import types as T
from tests.support.strategies import any_types, values


@given(st.data())
def test_value_json_value_is_identity(data):
    t = data.draw(any_types)
    v = data.draw(values(t))
    validate(t, v)
    # Through real JSON text, as another implementation would see it.
    back = from_json(t, json.loads(json.dumps(to_json(t, v))))
    assert _exact(back) == _exact(v)


@given(any_types)
def test_type_json_type_is_identity(t):
    assert DataType.from_json(json.loads(json.dumps(t.to_json()))) == t


def _exact(v):
    """Python equality, except floats by bit pattern (NaN == NaN, -0.0 != 0.0)."""
    if isinstance(v, float):
        return ("float", float_bits(v))
    if isinstance(v, (list, tuple)):
        return tuple(_exact(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _exact(x)) for k, x in v.items()))
    return v


@pytest.mark.parametrize(("t", "value", "text"), [
    (T.integer(64), 2**63 - 1, "9223372036854775807"),  # survives any JSON parser
    (T.integer(64, False), 2**64 - 1, "18446744073709551615"),
    (T.integer(32), -(2**31), -(2**31)),  # 32-bit ints stay JSON numbers
    (T.timestamp("ns"), -1, "-1"),
    (T.floating(64), -0.0, "-0.0"),
    (T.floating(32), math.inf, "inf"),
    (T.floating(64), math.nan, "nan"),
    (T.decimal(9, 2, "INT32"), -5, "-0.05"),
    (T.decimal(38, 0), 10**38 - 1, "9" * 38),
    (T.decimal(5, 5), 12345, "0.12345"),
    (T.binary(), b"\x00\xff", "00ff"),
    (T.interval(), (1, 2, 3), [1, 2, 3]),
])
def test_json_forms(t, value, text):
    assert to_json(t, value) == text
    assert from_json(t, text) == value or math.isnan(value)


def test_nan_payload_is_kept():
    bits = 0x7FF8000000000001
    from conformance.values.codec import float_from_bits
    x = float_from_bits(bits)
    assert to_json(T.floating(64), x) == "nan:0x7ff8000000000001"
    assert float_bits(from_json(T.floating(64), "nan:0x7ff8000000000001")) == bits


@pytest.mark.parametrize(("t", "bad"), [
    (T.integer(8), 128),
    (T.integer(8, False), -1),
    (T.integer(32), True),  # a bool is not an int here
    (T.floating(32), 0.1),  # not exactly representable in 32 bits
    (T.decimal(3, 1), 1000),
    (T.fixed(4), b"abc"),
    (T.uuid(), "not-a-uuid"),
    (T.string(), b"bytes"),
    (T.interval(), (1, 2)),
    (T.unknown(), 0),
    (T.list_of(T.integer(8), element_nullable=False), [1, None]),
    (T.map_of(T.string(), T.integer(8)), [("k",)]),
    (T.struct_of(Field("a", T.boolean())), {"b": True}),
])
def test_invalid_values_are_rejected(t, bad):
    with pytest.raises(CanonicalValueError):
        validate(t, bad)


def test_null_in_non_nullable_field_is_rejected():
    with pytest.raises(CanonicalValueError, match="null"):
        validate(T.integer(8), None, nullable=False)


def test_document_round_trip_and_version_check():
    schema = Schema((Field("a", T.integer(64)), Field("b", T.list_of(T.string()))))
    table = Table.from_rows(schema, [(1, ["x", None]), (None, None)])
    text = table.to_json_text()
    assert Table.from_json_text(text) == table
    doc = json.loads(text)
    doc["canonical_version"] = 99
    with pytest.raises(DocumentError, match="canonical_version"):
        Table.from_document(doc)


def test_malformed_document_is_a_document_error():
    with pytest.raises(DocumentError):
        Table.from_document({"canonical_version": 1, "schema": [{"name": "a"}], "rows": []})
