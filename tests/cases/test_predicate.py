"""The case-level predicate: validation against a schema, SQL/IEEE semantics, JSON."""

from __future__ import annotations

import json
import math

import pytest

from conformance.cases.predicate import OPS, Predicate
from conformance.values import Field, Schema, Table
from conformance.values import types as T
from conformance.values.codec import float_bits

SCHEMA = Schema((
    Field("i", T.integer(32)), Field("u", T.integer(64, signed=False)), Field("f", T.floating(64)),
    Field("f32", T.floating(32)), Field("s", T.string()), Field("b", T.binary()),
    Field("fx", T.fixed(2)), Field("d", T.decimal(9, 2, "INT32")), Field("dt", T.date()),
    Field("t", T.time("us")), Field("ts", T.timestamp("us", utc=False)),
    Field("flag", T.boolean()), Field("j", T.json_type()), Field("uu", T.uuid()),
    Field("iv", T.interval()), Field("n96", T.int96()), Field("lst", T.list_of(T.integer(32))),
    Field("st", T.struct_of(Field("a", T.integer(32)))),
))


def _one(column: str, values: list) -> Table:
    schema = Schema(tuple(f for f in SCHEMA if f.name == column))
    return Table(schema, tuple((v,) for v in values))


@pytest.mark.parametrize(("column", "value"), [
    ("i", 5), ("u", 2**64 - 1), ("f", 1.5), ("f", float("nan")), ("f32", 0.5), ("s", "é"),
    ("b", b"\x80"), ("fx", b"ab"), ("d", -12345), ("dt", 19000), ("t", 1), ("ts", -1),
])
@pytest.mark.parametrize("op", ["==", "!=", "<", "<=", ">", ">="])
def test_comparisons_on_orderable_kinds_check(column, value, op):
    Predicate(column, op, value).check(SCHEMA)


@pytest.mark.parametrize("column", [f.name for f in SCHEMA if f.name not in ("lst", "st")])
@pytest.mark.parametrize("op", ["is_null", "is_not_null"])
def test_null_tests_on_every_primitive_column_check(column, op):
    Predicate(column, op).check(SCHEMA)


@pytest.mark.parametrize(("predicate", "message"), [
    (Predicate("nope", "==", 1), "not a top-level column"),
    (Predicate("lst", "is_null"), "nested"),
    (Predicate("st", "is_not_null"), "nested"),
    (Predicate("flag", "<", True), "only == and !="),
    (Predicate("j", "==", "{}"), "no order"),
    (Predicate("uu", "==", "00000000-0000-0000-0000-000000000000"), "no order"),
    (Predicate("iv", "==", (0, 0, 0)), "no order"),
    (Predicate("n96", "<", 0), "no order"),
    (Predicate("i", "<", 2**31), "outside"),
    (Predicate("i", "<", 1.0), "expected int"),
    (Predicate("i", "==", True), "expected int"),
    (Predicate("u", ">", -1), "outside"),
    (Predicate("u", ">", 2**64), "outside"),
    (Predicate("f32", "<", 0.1), "not exactly representable"),
    (Predicate("f", "<", 1), "expected float"),
    (Predicate("s", "<", b"a"), "expected str"),
    (Predicate("b", "<", "a"), "expected bytes"),
    (Predicate("fx", "<", b"abc"), "expected 2 bytes"),
    (Predicate("d", "<", 10**9), "more than 9 digits"),
])
def test_check_refuses(predicate, message):
    with pytest.raises(ValueError, match=message):
        predicate.check(SCHEMA)


@pytest.mark.parametrize("args", [("i", "~", 1), ("i", "is_null", 1), ("i", "<"), ("i", "==")])
def test_construction_refuses_bad_ops_and_values(args):
    with pytest.raises(ValueError):
        Predicate(*args)


def test_nulls_never_satisfy_a_comparison():
    for op in OPS[:6]:
        assert not Predicate("i", op, 1).matches(None)
    assert Predicate("i", "is_null").matches(None)
    assert not Predicate("i", "is_null").matches(0)
    assert Predicate("i", "is_not_null").matches(0)
    assert not Predicate("i", "is_not_null").matches(None)


def test_integers_and_unsigned_64_bit_values_compare_as_numbers():
    table = _one("u", [0, 2**63 - 1, 2**63, 2**64 - 1, None])
    assert Predicate("u", ">", 2**63 - 1).apply(table).rows == ((2**63,), (2**64 - 1,))
    assert Predicate("u", "<", 2**63).apply(table).rows == ((0,), (2**63 - 1,))
    assert Predicate("u", "==", 2**64 - 1).apply(table).rows == ((2**64 - 1,),)


def test_byte_strings_compare_unsigned_byte_by_byte():
    table = _one("b", [b"\x7f", b"\x80", b"\xff", b"", b"\x7f\xff", None])
    assert Predicate("b", ">", b"\x7f\xff").apply(table).rows == ((b"\x80",), (b"\xff",))
    assert Predicate("b", "<", b"\x80").apply(table).rows == ((b"\x7f",), (b"",), (b"\x7f\xff",))
    fixed = _one("fx", [b"\x00\x80", b"\x00\x7f", b"\x80\x00"])
    assert Predicate("fx", ">=", b"\x00\x80").apply(fixed).rows == ((b"\x00\x80",), (b"\x80\x00",))


def test_strings_compare_in_utf8_byte_order():
    values = ["a", "z", "é", "\uffff", "\U0001f600", "", None]
    table = _one("s", values)
    got = [r[0] for r in Predicate("s", ">", "z").apply(table).rows]
    assert got == ["é", "\uffff", "\U0001f600"]
    # code-point order is the UTF-8 byte order, also across the BMP boundary
    present = [v for v in values if v is not None]
    assert sorted(present) == sorted(present, key=lambda v: v.encode("utf-8"))
    assert [r[0] for r in Predicate("s", "<", "\U0001f600").apply(table).rows] == [
        "a", "z", "é", "\uffff", ""]


def test_floats_follow_ieee():
    nan = float("nan")
    table = _one("f", [-0.0, 0.0, nan, 1.0, -math.inf, math.inf, None])
    zeros = Predicate("f", "==", 0.0).apply(table).rows
    assert [float_bits(v) for (v,) in zeros] == [float_bits(-0.0), float_bits(0.0)]
    assert len(Predicate("f", "==", -0.0).apply(table).rows) == 2
    assert len(Predicate("f", "<=", -0.0).apply(table).rows) == 3  # -0.0, 0.0, -inf
    assert len(Predicate("f", ">", 0.0).apply(table).rows) == 2  # 1.0, inf; not NaN
    # comparisons with NaN are false, except != (unordered); null matches nothing
    for op in ("==", "<", "<=", ">", ">="):
        assert Predicate("f", op, nan).apply(table).rows == ()
    assert len(Predicate("f", "!=", nan).apply(table).rows) == 6
    assert len(Predicate("f", "!=", 1.0).apply(table).rows) == 5  # NaN included, null not


def test_decimals_dates_and_timestamps_compare_as_their_integers():
    assert Predicate("d", "<", -100).apply(_one("d", [-101, -100, 5])).rows == ((-101,),)
    assert Predicate("dt", ">=", 0).apply(_one("dt", [-1, 0, 1])).rows == ((0,), (1,))
    assert Predicate("ts", "!=", 0).apply(_one("ts", [-1, 0, None, 1])).rows == ((-1,), (1,))


def test_booleans_compare_for_equality():
    table = _one("flag", [True, False, None])
    assert Predicate("flag", "==", True).apply(table).rows == ((True,),)
    assert Predicate("flag", "!=", True).apply(table).rows == ((False,),)


def test_apply_keeps_order_and_the_whole_row():
    schema = Schema((Field("i", T.integer(32)), Field("s", T.string())))
    table = Table(schema, ((3, "c"), (1, "a"), (2, None), (1, "z")))
    assert Predicate("i", "<=", 2).apply(table).rows == ((1, "a"), (2, None), (1, "z"))
    assert Predicate("s", "is_null").apply(table).rows == ((2, None),)
    with pytest.raises(ValueError):
        Predicate("x", "<", 1).apply(table)


@pytest.mark.parametrize(("predicate", "text"), [
    (Predicate("i", "<", 5), "i < 5"),
    (Predicate("s", ">=", "ab"), "s >= 'ab'"),
    (Predicate("b", "==", b"\x80"), "b == b'\\x80'"),
    (Predicate("f", "!=", float("nan")), "f != nan"),
    (Predicate("i", "is_null"), "i IS NULL"),
    (Predicate("i", "is_not_null"), "i IS NOT NULL"),
])
def test_describe(predicate, text):
    assert predicate.describe() == text


@pytest.mark.parametrize(("predicate", "typed", "untyped"), [
    (Predicate("i", "<", 5), 5, 5),
    (Predicate("u", ">", 2**64 - 1), "18446744073709551615", "18446744073709551615"),
    (Predicate("f", "==", -0.0), "-0.0", "-0.0"),
    (Predicate("f", "==", float("nan")), "nan", "nan"),
    (Predicate("b", "<", b"\x80\x00"), "8000", "8000"),
    (Predicate("d", "<", -12345), "-123.45", -12345),
    (Predicate("s", "<", "é"), "é", "é"),
])
def test_json_round_trip(predicate, typed, untyped):
    doc = json.loads(json.dumps(predicate.to_json(SCHEMA)))
    assert doc == {"column": predicate.column, "op": predicate.op, "value": typed}
    back = Predicate.from_json(doc, SCHEMA)
    assert (back.column, back.op) == (predicate.column, predicate.op)
    assert float_bits(back.value) == float_bits(predicate.value) if isinstance(
        back.value, float) else back.value == predicate.value
    assert predicate.to_json()["value"] == untyped


def test_json_of_null_tests_has_no_value():
    assert Predicate("i", "is_null").to_json(SCHEMA) == {"column": "i", "op": "is_null"}
    assert Predicate.from_json({"column": "i", "op": "is_null"}, SCHEMA) == Predicate("i", "is_null")


def test_bind_attaches_the_column_type_and_a_case_binds_its_predicate():
    from conformance.cases import Case

    p = Predicate("ts", "<", 5)
    with pytest.raises(ValueError, match="not bound"):
        p.bound_type()
    bound = p.bind(SCHEMA)
    assert bound.bound_type() == T.timestamp("us", utc=False)
    assert bound == p  # the type is not part of equality
    with pytest.raises(ValueError, match="bound to"):
        bound.check(Schema((Field("ts", T.timestamp("ms", utc=False)),)))
    schema = Schema((Field("x", T.decimal(9, 2, "INT32")),))
    case = Case("test/p", "p", (), schema, ((1,), (200,)), predicate=Predicate("x", ">=", 100))
    assert case.predicate.type == T.decimal(9, 2, "INT32")
    assert case.filtered.rows == ((200,),)
