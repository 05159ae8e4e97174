"""Definition and repetition levels worked out by hand, shredded and assembled both ways.

README.md, 'Nested Encoding', describes the levels but has
no worked example, so the first one is the Dremel paper's (Melnik et al., VLDB
2010, Figures 2 and 3), which the spec's overview names as its algorithm; the
others are hand-worked. Each ``(value, def, rep)`` triple below is commented.
"""

from __future__ import annotations

from typing import Any

import pytest

from reference_impl.parquet.metadata.parquet_thrift import (
    FieldRepetitionType,
    LogicalType,
    SchemaElement,
    StringType,
    Type,
)
from reference_impl.parquet.nested.assembly import assemble_records
from reference_impl.parquet.nested.shredding import ShreddedColumn, shred_records
from reference_impl.parquet.schema.nested_types import (
    list_node,
    map_node,
    records_from_logical,
    records_to_logical,
)
from reference_impl.parquet.schema.tree import (
    group,
    leaf,
    leaf_columns,
    root,
    schema_text,
    schema_tree_from_elements,
)

REQUIRED = FieldRepetitionType.REQUIRED
OPTIONAL = FieldRepetitionType.OPTIONAL
REPEATED = FieldRepetitionType.REPEATED
STRING = LogicalType(STRING=StringType())


def column(entries: list[tuple[Any, int, int]]) -> ShreddedColumn:
    """``[(value or None, def, rep), ...]`` -> the column; a value is stored only
    at the maximum definition level, which the caller marks by a non-None value."""
    return ShreddedColumn(
        [v for v, _, _ in entries if v is not None], [d for _, d, _ in entries], [r for _, _, r in entries]
    )


def check_both_ways(tree, records, expected: list[ShreddedColumn]) -> None:
    got = shred_records(tree, records)
    for leaf_column, got_column, want in zip(leaf_columns(tree), got, expected, strict=True):
        assert got_column == want, leaf_column.dotted_path
    assert assemble_records(tree, expected) == records


# ---------------------------------------------------------------------------
# The Dremel paper's Document example
# ---------------------------------------------------------------------------

DOCUMENT = [
    SchemaElement(name="Document", num_children=3),
    SchemaElement(name="DocId", repetition_type=REQUIRED, type=Type.INT64),
    SchemaElement(name="Links", repetition_type=OPTIONAL, num_children=2),
    SchemaElement(name="Backward", repetition_type=REPEATED, type=Type.INT64),
    SchemaElement(name="Forward", repetition_type=REPEATED, type=Type.INT64),
    SchemaElement(name="Name", repetition_type=REPEATED, num_children=2),
    SchemaElement(name="Language", repetition_type=REPEATED, num_children=2),
    SchemaElement(name="Code", repetition_type=REQUIRED, type=Type.BYTE_ARRAY),
    SchemaElement(name="Country", repetition_type=OPTIONAL, type=Type.BYTE_ARRAY),
    SchemaElement(name="Url", repetition_type=OPTIONAL, type=Type.BYTE_ARRAY),
]
R1 = {
    "DocId": 10,
    "Links": {"Backward": [], "Forward": [20, 40, 60]},
    "Name": [
        {"Language": [{"Code": b"en-us", "Country": b"us"}, {"Code": b"en", "Country": None}], "Url": b"http://A"},
        {"Language": [], "Url": b"http://B"},
        {"Language": [{"Code": b"en-gb", "Country": b"gb"}], "Url": None},
    ],
}
R2 = {"DocId": 20, "Links": {"Backward": [10, 30], "Forward": [80]}, "Name": [{"Language": [], "Url": b"http://C"}]}


def test_dremel_paper_document_example() -> None:
    tree = schema_tree_from_elements(DOCUMENT)
    check_both_ways(tree, [R1, R2], [
        # DocId (max def 0, max rep 0)
        column([(10, 0, 0), (20, 0, 0)]),
        # Links.Backward (max def 2, max rep 1)
        column([
            (None, 1, 0),  # r1: Links present, Backward empty
            (10, 2, 0),  # r2: first Backward
            (30, 2, 1),  # r2: Backward repeats (level 1)
        ]),
        # Links.Forward (max def 2, max rep 1)
        column([(20, 2, 0), (40, 2, 1), (60, 2, 1), (80, 2, 0)]),
        # Name.Language.Code (max def 2, max rep 2)
        column([
            (b"en-us", 2, 0),  # r1, Name 1, Language 1
            (b"en", 2, 2),  # Language repeats (level 2)
            (None, 1, 1),  # Name 2 (repeats at level 1) has no Language
            (b"en-gb", 2, 1),  # Name 3, Language 1
            (None, 1, 0),  # r2: Name 1 without Language
        ]),
        # Name.Language.Country (max def 3, max rep 2)
        column([(b"us", 3, 0), (None, 2, 2), (None, 1, 1), (b"gb", 3, 1), (None, 1, 0)]),
        # Name.Url (max def 2, max rep 1)
        column([(b"http://A", 2, 0), (b"http://B", 2, 1), (None, 1, 1), (b"http://C", 2, 0)]),
    ])


# ---------------------------------------------------------------------------
# 3-level optional list of optional ints: [1, None, 2], [], None
# ---------------------------------------------------------------------------

OPTIONAL_LIST = root([list_node("a", leaf("x", Type.INT32, repetition=OPTIONAL), repetition=OPTIONAL)])


def test_three_level_optional_list_of_optional_ints() -> None:
    assert schema_text(OPTIONAL_LIST) == (
        "message schema {\n"
        "  optional group a (LIST) {\n"
        "    repeated group list {\n"
        "      optional int32 element;\n"
        "    }\n"
        "  }\n"
        "}"
    )
    (leaf_column,) = leaf_columns(OPTIONAL_LIST)
    assert (leaf_column.max_definition_level, leaf_column.max_repetition_level) == (3, 1)
    rows = [{"a": [1, None, 2]}, {"a": []}, {"a": None}]
    records = records_from_logical(OPTIONAL_LIST, rows)
    assert records == [
        {"a": {"list": [{"element": 1}, {"element": None}, {"element": 2}]}},
        {"a": {"list": []}},
        {"a": None},
    ]
    check_both_ways(OPTIONAL_LIST, records, [
        column([
            (1, 3, 0),  # row 0 starts (rep 0); element defined (def 3 = a, list, element)
            (None, 2, 1),  # another element (rep 1); a and list defined, element null (def 2)
            (2, 3, 1),
            (None, 1, 0),  # row 1: a defined, list has no occurrence (def 1): empty list
            (None, 0, 0),  # row 2: a is null (def 0)
        ])
    ])
    assert records_to_logical(OPTIONAL_LIST, assemble_records(OPTIONAL_LIST, shred_records(
        OPTIONAL_LIST, records))) == rows


# ---------------------------------------------------------------------------
# A map<string, int32> with a null value, an empty map and a null map
# ---------------------------------------------------------------------------


def test_map_with_null_value_empty_and_null_map() -> None:
    tree = root([map_node(
        "m", leaf("k", Type.BYTE_ARRAY, repetition=REQUIRED, logical_type=STRING),
        leaf("v", Type.INT32, repetition=OPTIONAL), repetition=OPTIONAL,
    )])
    key, value = leaf_columns(tree)
    assert (key.dotted_path, key.max_definition_level, key.max_repetition_level) == ("m.key_value.key", 2, 1)
    assert (value.dotted_path, value.max_definition_level, value.max_repetition_level) == (
        "m.key_value.value", 3, 1)
    rows = [{"m": [("a", 1), ("b", None)]}, {"m": []}, {"m": None}]
    records = records_from_logical(tree, rows)
    check_both_ways(tree, records, [
        # m.key_value.key (max def 2: m, key_value; key is required)
        column([("a", 2, 0), ("b", 2, 1), (None, 1, 0), (None, 0, 0)]),
        # m.key_value.value (max def 3)
        column([
            (1, 3, 0),
            (None, 2, 1),  # "b" -> null: key_value present, value null
            (None, 1, 0),  # empty map
            (None, 0, 0),  # null map
        ]),
    ])
    assert records_to_logical(tree, records) == rows


# ---------------------------------------------------------------------------
# A struct with an optional inner struct
# ---------------------------------------------------------------------------


def test_struct_with_optional_inner_struct() -> None:
    tree = root([group("s", [
        leaf("a", Type.INT32, repetition=OPTIONAL),
        group("inner", [
            leaf("c", Type.BYTE_ARRAY, repetition=REQUIRED),
            leaf("d", Type.INT32, repetition=OPTIONAL),
        ], repetition=OPTIONAL),
    ], repetition=OPTIONAL)])
    assert [(c.dotted_path, c.max_definition_level, c.max_repetition_level) for c in leaf_columns(tree)] == [
        ("s.a", 2, 0), ("s.inner.c", 2, 0), ("s.inner.d", 3, 0)]
    records = [
        {"s": {"a": 1, "inner": {"c": b"x", "d": 5}}},
        {"s": {"a": None, "inner": {"c": b"y", "d": None}}},
        {"s": {"a": 2, "inner": None}},
        {"s": None},
    ]
    check_both_ways(tree, records, [
        # s.a: 2 = s and a defined, 1 = a null, 0 = s null
        column([(1, 2, 0), (None, 1, 0), (2, 2, 0), (None, 0, 0)]),
        # s.inner.c: required, so defined whenever inner is: 2, else the level of the null ancestor
        column([(b"x", 2, 0), (b"y", 2, 0), (None, 1, 0), (None, 0, 0)]),
        # s.inner.d
        column([(5, 3, 0), (None, 2, 0), (None, 1, 0), (None, 0, 0)]),
    ])


# ---------------------------------------------------------------------------
# Nulls and empty lists at every level of a list of lists
# ---------------------------------------------------------------------------


def test_nulls_and_empty_lists_at_every_level() -> None:
    inner = list_node("x", leaf("x", Type.INT32, repetition=OPTIONAL), repetition=OPTIONAL)
    tree = root([list_node("outer", inner, repetition=OPTIONAL)])
    (leaf_column,) = leaf_columns(tree)
    assert leaf_column.dotted_path == "outer.list.element.list.element"
    # outer (opt) list (rep) element (opt) list (rep) element (opt)
    assert (leaf_column.max_definition_level, leaf_column.max_repetition_level) == (5, 2)
    rows = [
        {"outer": None},
        {"outer": []},
        {"outer": [None]},
        {"outer": [[]]},
        {"outer": [[None]]},
        {"outer": [[1, 2], None, [], [3]]},
    ]
    records = records_from_logical(tree, rows)
    assert records[5] == {"outer": {"list": [
        {"element": {"list": [{"element": 1}, {"element": 2}]}},
        {"element": None},
        {"element": {"list": []}},
        {"element": {"list": [{"element": 3}]}},
    ]}}
    check_both_ways(tree, records, [column([
        (None, 0, 0),  # outer null
        (None, 1, 0),  # outer empty
        (None, 2, 0),  # outer has one element, which is null
        (None, 3, 0),  # ... which is an empty inner list
        (None, 4, 0),  # ... whose one element is null
        (1, 5, 0),  # row 5: [[1, 2], None, [], [3]]
        (2, 5, 2),  # the inner list repeats (level 2)
        (None, 2, 1),  # the outer list repeats (level 1): a null inner list
        (None, 3, 1),  # ... an empty inner list
        (3, 5, 1),  # ... [3]
    ])])
    assert records_to_logical(tree, records) == rows


def test_flat_columns_have_the_flat_levels() -> None:
    """'3.7 - Data Pages': a non-nested column has no repetition levels (all 0) and
    a required one no definition levels; assembly accepts None for them."""
    tree = root([leaf("r", Type.INT32, repetition=REQUIRED), leaf("o", Type.INT32, repetition=OPTIONAL)])
    records = [{"r": 1, "o": None}, {"r": 2, "o": 5}]
    check_both_ways(tree, records, [column([(1, 0, 0), (2, 0, 0)]), column([(None, 0, 0), (5, 1, 0)])])
    assert assemble_records(tree, [([1, 2], None, None), ([5], [0, 1], None)]) == records


def test_a_repeated_group_with_empty_occurrence_groups() -> None:
    """A repeated group whose occurrences have all fields null still counts them."""
    tree = root([group("g", [leaf("a", Type.INT32, repetition=OPTIONAL),
                             leaf("b", Type.INT32, repetition=REPEATED)], repetition=REPEATED)])
    records = [{"g": [{"a": None, "b": []}, {"a": None, "b": []}]}, {"g": []}]
    check_both_ways(tree, records, [
        column([(None, 1, 0), (None, 1, 1), (None, 0, 0)]),  # g.a: occurrence present, a null
        column([(None, 1, 0), (None, 1, 1), (None, 0, 0)]),  # g.b: occurrence present, b empty
    ])


@pytest.mark.parametrize("records", [[], [{"x": {"y": []}}]])
def test_zero_records_and_all_empty(records) -> None:
    tree = root([group("x", [leaf("y", Type.INT32, repetition=REPEATED)], repetition=REQUIRED)])
    assert assemble_records(tree, shred_records(tree, records)) == records
