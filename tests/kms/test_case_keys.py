"""The cases' test keys: explicit names and wrapped key material both lead back to the key."""

from __future__ import annotations

import json

import pytest

from conformance.kms.case_keys import (
    case_key_retriever,
    column_master_keys,
    explicit_key,
    explicit_key_name,
    wrapped_key_material,
)
from conformance.kms.key_material import parse_key_material


@pytest.mark.parametrize("bits", [128, 192, 256])
def test_explicit_names_lead_to_their_key(bits):
    name = explicit_key_name("column:a.b", bits)
    key = case_key_retriever()(name.encode())
    assert key == explicit_key("column:a.b", bits) and len(key) * 8 == bits
    assert key != explicit_key("footer", bits)


@pytest.mark.parametrize("double", [False, True])
@pytest.mark.parametrize("footer", [False, True])
def test_wrapped_material_unwraps_to_the_data_key(double, footer):
    dek = bytes(range(32))
    material = wrapped_key_material(dek, "column_key_2", is_footer_key=footer, double_wrapping=double)
    parsed = parse_key_material(material)
    assert (parsed.is_footer_key, parsed.double_wrapping, parsed.master_key_id) == (footer, double,
                                                                                     "column_key_2")
    assert ("kmsInstanceID" in json.loads(material)) == footer
    assert case_key_retriever()(material) == dek


def test_columns_alternate_between_the_column_master_keys():
    assert column_master_keys(["a", "b", "c"]) == {"column_key_1": ["a", "c"], "column_key_2": ["b"]}


def test_a_key_named_by_nothing_is_the_256_bit_explicit_footer_key():
    assert case_key_retriever()(None) == explicit_key("footer", 256)


def test_key_material_of_another_kms_is_no_key_of_ours():
    foreign = wrapped_key_material(bytes(16), "column_key_1", is_footer_key=False, double_wrapping=False)
    assert case_key_retriever()(foreign.replace(b"column_key_1", b"their_master_key")) is None
    assert case_key_retriever()(b"not key material at all") is None
