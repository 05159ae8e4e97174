"""The canonical kinds ORC adds: char, varchar and union (docs/canonical-values.md, 'ORC')."""

from __future__ import annotations

import pytest

from conformance.values import Field, Schema, Table, diff_tables
from conformance.values import types as T
from conformance.values.codec import CanonicalValueError, from_json, to_json, validate

UNION = T.union_of(T.integer(32), T.string())


def test_a_union_value_is_its_tag_and_the_alternative_value_in_json():
    assert to_json(UNION, (1, "x")) == {"tag": 1, "value": "x"}
    assert to_json(UNION, (0, 2**31 - 1)) == {"tag": 0, "value": 2**31 - 1}
    assert from_json(UNION, {"tag": 1, "value": "x"}) == (1, "x")
    assert T.DataType.from_json(UNION.to_json()) == UNION


@pytest.mark.parametrize("value", [(2, "x"), (-1, 3), ("0", 3), [0, 3], (0, "not an int")])
def test_a_union_value_names_an_existing_alternative_with_its_type(value):
    with pytest.raises(CanonicalValueError):
        validate(UNION, value)


def test_char_values_are_padded_to_their_length_and_varchar_values_fit():
    validate(T.char(3), "ab ")
    validate(T.varchar(3), "ab")
    for t, value in ((T.char(3), "ab"), (T.char(3), "abcd"), (T.varchar(3), "abcd")):
        with pytest.raises(CanonicalValueError):
            validate(t, value)


def test_unions_compare_by_tag_and_value_and_char_compares_as_text():
    schema = Schema((Field("u", UNION), Field("c", T.char(3))))
    expected = Table(schema, (((1, "x"), "ab "),))
    assert diff_tables(expected, Table(schema, (((1, "x"), "ab "),))) is None
    assert diff_tables(expected, Table(schema, (((0, 1), "ab "),))) is not None
    as_string = Table(Schema((Field("u", UNION), Field("c", T.string()))), (((1, "x"), "ab"),))
    assert 'expected "ab " (CHAR(3)), got "ab" (STRING)' in diff_tables(expected, as_string)
