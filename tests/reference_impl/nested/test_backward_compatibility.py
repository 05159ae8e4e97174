"""LogicalTypes.md 'Nested Types', 'Lists' and 'Maps', each example and each
backward-compatibility rule as its own test.

Every schema is written out as the ``FileMetaData.schema`` list a file would
carry (legacy shapes with a ConvertedType only, as the old writers that made
them wrote), checked against the spec's own snippet, then read: raw records
go through shredding and assembly, and the logical view must give the values
the spec's comment promises.
"""

from __future__ import annotations

from typing import Any

import pytest

from reference_impl.parquet.errors import CorruptMetadata
from reference_impl.parquet.metadata.parquet_thrift import (
    ConvertedType,
    FieldRepetitionType,
    ListType,
    LogicalType,
    MapType,
    SchemaElement,
    StringType,
    Type,
)
from reference_impl.parquet.nested.assembly import assemble_records
from reference_impl.parquet.nested.shredding import shred_records
from reference_impl.parquet.schema.nested_types import (
    ListShape,
    MapShape,
    list_node,
    logical_shape,
    map_node,
    records_from_logical,
    records_to_logical,
)
from reference_impl.parquet.schema.tree import (
    group,
    leaf,
    root,
    schema_text,
    schema_tree_from_elements,
    schema_tree_to_elements,
)

REQUIRED = FieldRepetitionType.REQUIRED
OPTIONAL = FieldRepetitionType.OPTIONAL
REPEATED = FieldRepetitionType.REPEATED
LIST = ConvertedType.LIST
MAP = ConvertedType.MAP
MAP_KEY_VALUE = ConvertedType.MAP_KEY_VALUE


def G(name: str, repetition, children: int, converted=None, logical=None) -> SchemaElement:  # noqa: N802
    return SchemaElement(name=name, repetition_type=repetition, num_children=children,
                         converted_type=converted, logicalType=logical)


def INT32(name: str, repetition) -> SchemaElement:  # noqa: N802
    return SchemaElement(name=name, repetition_type=repetition, type=Type.INT32)


def STR(name: str, repetition) -> SchemaElement:  # noqa: N802
    """binary (STRING): LogicalType STRING with its ConvertedType UTF8."""
    return SchemaElement(name=name, repetition_type=repetition, type=Type.BYTE_ARRAY,
                         converted_type=ConvertedType.UTF8, logicalType=LogicalType(STRING=StringType()))


def ROOT(*children: SchemaElement, count: int = 1) -> list[SchemaElement]:  # noqa: N802
    return [SchemaElement(name="schema", num_children=count), *children]


def _normalized(text: str) -> str:
    return " ".join(text.replace("};", "}").split())


def read(elements: list[SchemaElement], snippet: str, records: list[dict[str, Any]]) -> tuple[Any, list]:
    """Build the tree, check it is the spec's snippet, run the raw records through
    shredding and assembly; return the first field's shape and the logical rows."""
    tree = schema_tree_from_elements(elements)
    assert _normalized(schema_text(tree)) == _normalized(f"message schema {{ {snippet} }}")
    assembled = assemble_records(tree, shred_records(tree, records))
    assert assembled == records
    rows = records_to_logical(tree, assembled)
    return logical_shape(tree).fields[0], [next(iter(row.values())) for row in rows]


# ---------------------------------------------------------------------------
# 'Nested Types': unannotated repeated fields
# ---------------------------------------------------------------------------


def test_unannotated_repeated_primitive_is_a_required_list_of_required_elements() -> None:
    # // List<Integer> (non-null list, non-null elements)
    shape, values = read(ROOT(INT32("num", REPEATED)), "repeated int32 num;",
                         [{"num": [1, 2]}, {"num": []}])
    assert isinstance(shape, ListShape) and shape.rule == "unannotated"
    assert values == [[1, 2], []]


def test_unannotated_repeated_group_is_a_list_of_tuples() -> None:
    # // List<Tuple<Integer, String>> (non-null list, non-null elements)
    shape, values = read(
        ROOT(G("my_list", REPEATED, 2), INT32("num", REQUIRED), STR("str", OPTIONAL)),
        "repeated group my_list { required int32 num; optional binary str (STRING); }",
        [{"my_list": [{"num": 1, "str": "a"}, {"num": 2, "str": None}]}, {"my_list": []}],
    )
    assert isinstance(shape, ListShape) and shape.rule == "unannotated"
    assert values == [[{"num": 1, "str": "a"}, {"num": 2, "str": None}], []]


# ---------------------------------------------------------------------------
# 'Lists': the 3-level structure
# ---------------------------------------------------------------------------

LIST_LOGICAL = LogicalType(LIST=ListType())


def test_standard_list_non_null_list_nullable_elements() -> None:
    # // List<String> (list non-null, elements nullable)
    shape, values = read(
        ROOT(G("my_list", REQUIRED, 1, LIST, LIST_LOGICAL), G("list", REPEATED, 1), STR("element", OPTIONAL)),
        "required group my_list (LIST) { repeated group list { optional binary element (STRING); } }",
        [{"my_list": {"list": [{"element": "a"}, {"element": None}]}}, {"my_list": {"list": []}}],
    )
    assert (shape.rule, shape.element_field) == ("5", "element")
    assert values == [["a", None], []]


def test_standard_list_nullable_list_non_null_elements() -> None:
    # // List<String> (list nullable, elements non-null)
    _, values = read(
        ROOT(G("my_list", OPTIONAL, 1, LIST, LIST_LOGICAL), G("list", REPEATED, 1), STR("element", REQUIRED)),
        "optional group my_list (LIST) { repeated group list { required binary element (STRING); } }",
        [{"my_list": {"list": [{"element": "a"}]}}, {"my_list": None}],
    )
    assert values == [["a"], None]


def test_standard_list_of_lists() -> None:
    # // List<List<Integer>>
    _, values = read(
        ROOT(G("array_of_arrays", OPTIONAL, 1, LIST, LIST_LOGICAL), G("list", REPEATED, 1),
             G("element", REQUIRED, 1, LIST, LIST_LOGICAL), G("list", REPEATED, 1),
             INT32("element", REQUIRED)),
        "optional group array_of_arrays (LIST) { repeated group list { required group element (LIST) {"
        " repeated group list { required int32 element; } } } }",
        [{"array_of_arrays": {"list": [{"element": {"list": [{"element": 1}, {"element": 2}]}},
                                       {"element": {"list": []}}]}}],
    )
    assert values == [[[1, 2], []]]


def test_misnamed_three_level_list_reads_by_rule_5() -> None:
    """"the following field schema should produce a nullable list of non-null
    strings, even though the repeated group is named `element`"."""
    shape, values = read(
        ROOT(G("my_list", OPTIONAL, 1, LIST), G("element", REPEATED, 1), STR("str", REQUIRED)),
        "optional group my_list (LIST) { repeated group element { required binary str (STRING); }; }",
        [{"my_list": {"element": [{"str": "a"}, {"str": "b"}]}}, {"my_list": None}],
    )
    assert (shape.rule, shape.element_field) == ("5", "str")
    assert values == [["a", "b"], None]


# ---------------------------------------------------------------------------
# 'Lists > Backward-compatibility rules' 1 to 5
# ---------------------------------------------------------------------------


def test_rule_1_repeated_primitive_is_the_element() -> None:
    # // Rule 1: List<Integer> (nullable list, non-null elements)
    shape, values = read(
        ROOT(G("my_list", OPTIONAL, 1, LIST), INT32("element", REPEATED)),
        "optional group my_list (LIST) { repeated int32 element; }",
        [{"my_list": {"element": [1, 2]}}, {"my_list": {"element": []}}, {"my_list": None}],
    )
    assert (shape.rule, shape.element_field) == ("1", None)
    assert values == [[1, 2], [], None]


def test_rule_2_repeated_group_with_several_fields_is_the_element() -> None:
    # // Rule 2: List<Tuple<String, Integer>> (nullable list, non-null elements)
    shape, values = read(
        ROOT(G("my_list", OPTIONAL, 1, LIST), G("element", REPEATED, 2), STR("str", REQUIRED),
             INT32("num", REQUIRED)),
        "optional group my_list (LIST) { repeated group element { required binary str (STRING);"
        " required int32 num; }; }",
        [{"my_list": {"element": [{"str": "a", "num": 1}, {"str": "b", "num": 2}]}}, {"my_list": None}],
    )
    assert (shape.rule, shape.element_field) == ("2", None)
    assert values == [[{"str": "a", "num": 1}, {"str": "b", "num": 2}], None]


def test_rule_3_repeated_group_whose_one_field_is_repeated_is_the_element() -> None:
    # // Rule 3: List<List<Integer>> (nullable outer list, non-null elements)
    shape, values = read(
        ROOT(G("my_list", OPTIONAL, 1, LIST), G("array", REPEATED, 1, LIST), INT32("array", REPEATED)),
        "optional group my_list (LIST) { repeated group array (LIST) { repeated int32 array; }; }",
        [{"my_list": {"array": [{"array": [1, 2]}, {"array": []}]}}, {"my_list": {"array": []}}],
    )
    assert (shape.rule, shape.element_field) == ("3", None)
    assert isinstance(shape.element, ListShape) and shape.element.rule == "1"
    assert values == [[[1, 2], []], []]


def test_rule_3_applies_to_an_unannotated_group_too() -> None:
    shape, values = read(
        ROOT(G("my_list", OPTIONAL, 1, LIST), G("element", REPEATED, 1), INT32("x", REPEATED)),
        "optional group my_list (LIST) { repeated group element { repeated int32 x; } }",
        [{"my_list": {"element": [{"x": [1]}, {"x": []}]}}],
    )
    assert shape.rule == "3"
    assert values == [[{"x": [1]}, {"x": []}]]  # the element is the group; x an unannotated list


def test_rule_4_repeated_group_named_array_is_the_element() -> None:
    # // Rule 4: List<OneTuple<String>> (nullable list, non-null elements)
    shape, values = read(
        ROOT(G("my_list", OPTIONAL, 1, LIST), G("array", REPEATED, 1), STR("str", REQUIRED)),
        "optional group my_list (LIST) { repeated group array { required binary str (STRING); }; }",
        [{"my_list": {"array": [{"str": "a"}]}}, {"my_list": None}],
    )
    assert (shape.rule, shape.element_field) == ("4", None)
    assert values == [[{"str": "a"}], None]


def test_rule_4_repeated_group_named_list_name_tuple_is_the_element() -> None:
    # // Rule 4: List<OneTuple<String>> (nullable list, non-null elements)
    shape, values = read(
        ROOT(G("my_list", OPTIONAL, 1, LIST), G("my_list_tuple", REPEATED, 1), STR("str", REQUIRED)),
        "optional group my_list (LIST) { repeated group my_list_tuple { required binary str (STRING); }; }",
        [{"my_list": {"my_list_tuple": [{"str": "a"}, {"str": "b"}]}}],
    )
    assert (shape.rule, shape.element_field) == ("4", None)
    assert values == [[{"str": "a"}, {"str": "b"}]]


def test_rule_4_wins_over_rule_5_even_with_an_optional_field() -> None:
    shape, values = read(
        ROOT(G("my_list", OPTIONAL, 1, LIST), G("my_list_tuple", REPEATED, 1), STR("str", OPTIONAL)),
        "optional group my_list (LIST) { repeated group my_list_tuple { optional binary str (STRING); } }",
        [{"my_list": {"my_list_tuple": [{"str": None}]}}],
    )
    assert shape.rule == "4"
    assert values == [[{"str": None}]]  # a one-tuple holding null, not a null element


def test_rule_5_the_only_field_is_the_element_with_its_repetition() -> None:
    # // Rule 5: List<String> (nullable list, nullable elements)
    shape, values = read(
        ROOT(G("my_list", OPTIONAL, 1, LIST), G("element", REPEATED, 1), STR("str", OPTIONAL)),
        "optional group my_list (LIST) { repeated group element { optional binary str (STRING); }; }",
        [{"my_list": {"element": [{"str": "a"}, {"str": None}]}}, {"my_list": None}],
    )
    assert (shape.rule, shape.element_field) == ("5", "str")
    assert values == [["a", None], None]


def test_list_annotation_from_logical_type_alone() -> None:
    _, values = read(
        ROOT(G("l", OPTIONAL, 1, None, LIST_LOGICAL), INT32("element", REPEATED)),
        "optional group l (LIST) { repeated int32 element; }",
        [{"l": {"element": [7]}}],
    )
    assert values == [[7]]


# ---------------------------------------------------------------------------
# 'Maps' and its 'Backward-compatibility rules'
# ---------------------------------------------------------------------------

MAP_LOGICAL = LogicalType(MAP=MapType())


def test_standard_map() -> None:
    # // Map<String, Integer>
    shape, values = read(
        ROOT(G("my_map", REQUIRED, 1, MAP, MAP_LOGICAL), G("key_value", REPEATED, 2), STR("key", REQUIRED),
             INT32("value", OPTIONAL)),
        "required group my_map (MAP) { repeated group key_value { required binary key (STRING);"
        " optional int32 value; } }",
        [{"my_map": {"key_value": [{"key": "a", "value": 1}, {"key": "b", "value": None}]}},
         {"my_map": {"key_value": []}}],
    )
    assert isinstance(shape, MapShape)
    assert values == [[("a", 1), ("b", None)], []]


def test_duplicate_keys_are_kept_in_file_order() -> None:
    """"If there are multiple key-value pairs for the same key, then the final
    value for that key must be the last value": the view keeps every pair in
    order, so the last one is last."""
    _, values = read(
        ROOT(G("m", OPTIONAL, 1, MAP, MAP_LOGICAL), G("key_value", REPEATED, 2), STR("key", REQUIRED),
             INT32("value", REQUIRED)),
        "optional group m (MAP) { repeated group key_value { required binary key (STRING);"
        " required int32 value; } }",
        [{"m": {"key_value": [{"key": "a", "value": 1}, {"key": "a", "value": 2}]}}],
    )
    assert values == [[("a", 1), ("a", 2)]]


def test_misnamed_map_fields_are_identified_by_position() -> None:
    # // Map<String, Integer> (nullable map, non-null values)
    shape, values = read(
        ROOT(G("my_map", OPTIONAL, 1, MAP), G("map", REPEATED, 2), STR("str", REQUIRED),
             INT32("num", REQUIRED)),
        "optional group my_map (MAP) { repeated group map { required binary str (STRING);"
        " required int32 num; } }",
        [{"my_map": {"map": [{"str": "a", "num": 1}]}}, {"my_map": None}],
    )
    assert isinstance(shape, MapShape)
    assert values == [[("a", 1)], None]


def test_map_key_value_outside_a_map_is_a_map() -> None:
    # // Map<String, Integer> (nullable map, nullable values)
    shape, values = read(
        ROOT(G("my_map", OPTIONAL, 1, MAP_KEY_VALUE), G("map", REPEATED, 2), STR("key", REQUIRED),
             INT32("value", OPTIONAL)),
        "optional group my_map (MAP_KEY_VALUE) { repeated group map { required binary key (STRING);"
        " optional int32 value; } }",
        [{"my_map": {"map": [{"key": "a", "value": None}]}}, {"my_map": None}],
    )
    assert isinstance(shape, MapShape)
    assert values == [[("a", None)], None]


def test_map_key_value_on_the_key_value_group_inside_a_map() -> None:
    """Old parquet-java annotated the repeated group MAP_KEY_VALUE: it is
    contained by a MAP group, so it is just the key-value group."""
    _, values = read(
        ROOT(G("my_map", OPTIONAL, 1, MAP), G("map", REPEATED, 2, MAP_KEY_VALUE), STR("key", REQUIRED),
             INT32("value", OPTIONAL)),
        "optional group my_map (MAP) { repeated group map (MAP_KEY_VALUE) { required binary key (STRING);"
        " optional int32 value; } }",
        [{"my_map": {"map": [{"key": "a", "value": 1}]}}],
    )
    assert values == [[("a", 1)]]


def test_map_without_a_value_field_is_a_set_of_keys() -> None:
    """'Maps': the value field "can be required, optional, or omitted"."""
    shape, values = read(
        ROOT(G("my_set", OPTIONAL, 1, MAP, MAP_LOGICAL), G("key_value", REPEATED, 1), STR("key", REQUIRED)),
        "optional group my_set (MAP) { repeated group key_value { required binary key (STRING); } }",
        [{"my_set": {"key_value": [{"key": "a"}, {"key": "b"}]}}, {"my_set": {"key_value": []}}],
    )
    assert isinstance(shape, MapShape) and shape.value is None
    assert values == [[("a", None), ("b", None)], []]


# ---------------------------------------------------------------------------
# Annotations no rule accepts: CorruptMetadata
# ---------------------------------------------------------------------------

UNREADABLE = {
    "LIST on a primitive": (
        ROOT(SchemaElement(name="l", repetition_type=OPTIONAL, type=Type.INT32, converted_type=LIST)),
        "schema field l: LIST annotates a group",
    ),
    "LIST with two fields": (
        ROOT(G("l", OPTIONAL, 2, LIST), INT32("a", REPEATED), INT32("b", REPEATED)),
        "schema field l: a LIST-annotated group must contain exactly one repeated field",
    ),
    "LIST whose field is not repeated": (
        ROOT(G("l", OPTIONAL, 1, LIST), INT32("a", OPTIONAL)),
        "exactly one repeated field",
    ),
    "MAP over a repeated primitive": (
        ROOT(G("m", OPTIONAL, 1, MAP), INT32("k", REPEATED)),
        "schema field m: a MAP-annotated group must contain exactly one repeated group",
    ),
    "MAP with three fields": (
        ROOT(G("m", OPTIONAL, 1, MAP), G("key_value", REPEATED, 3), INT32("key", REQUIRED),
             INT32("value", REQUIRED), INT32("extra", REQUIRED)),
        "schema field m.key_value: the key-value group of a map has 3 fields",
    ),
    "repeated key": (
        ROOT(G("m", OPTIONAL, 1, MAP), G("key_value", REPEATED, 1), INT32("key", REPEATED)),
        "schema field m.key_value.key: a map key cannot be repeated",
    ),
    "LogicalType LIST with ConvertedType MAP": (
        ROOT(G("l", OPTIONAL, 1, MAP, LIST_LOGICAL), INT32("a", REPEATED)),
        "schema field l: LogicalType LIST contradicts ConvertedType MAP",
    ),
}


@pytest.mark.parametrize("case", UNREADABLE, ids=list(UNREADABLE))
def test_annotations_no_rule_accepts_are_corrupt_metadata(case: str) -> None:
    elements, message = UNREADABLE[case]
    with pytest.raises(CorruptMetadata, match=message) as raised:
        logical_shape(schema_tree_from_elements(elements), offset=77)
    assert raised.value.offset == 77


# ---------------------------------------------------------------------------
# The builders reproduce the spec's legacy snippets (for files only the
# reference writer produces), and refuse shapes that would not round-trip
# ---------------------------------------------------------------------------

INT = leaf("x", Type.INT32, repetition=REQUIRED)
STRING = leaf("str", Type.BYTE_ARRAY, repetition=REQUIRED, logical_type=LogicalType(STRING=StringType()))


@pytest.mark.parametrize(("node", "snippet"), [
    (list_node("my_list", INT, repetition=OPTIONAL, style="two_level"),
     "optional group my_list (LIST) { repeated int32 element; }"),
    (list_node("my_list",
               group("e", [STRING, leaf("num", Type.INT32, repetition=REQUIRED)], repetition=REQUIRED),
               repetition=OPTIONAL, style="two_level"),
     "optional group my_list (LIST) { repeated group element { required binary str (STRING);"
     " required int32 num; } }"),
    (list_node("my_list", list_node("e", INT, repetition=REQUIRED, style="array"), repetition=OPTIONAL,
               style="array"),
     "optional group my_list (LIST) { repeated group array (LIST) { repeated int32 array; } }"),
    (list_node("my_list", group("e", [STRING], repetition=REQUIRED), repetition=OPTIONAL, style="array"),
     "optional group my_list (LIST) { repeated group array { required binary str (STRING); } }"),
    (list_node("my_list", group("e", [STRING], repetition=REQUIRED), repetition=OPTIONAL, style="tuple"),
     "optional group my_list (LIST) { repeated group my_list_tuple { required binary str (STRING); } }"),
    (list_node("my_list", STRING, repetition=OPTIONAL, repeated_name="element", element_name="str"),
     "optional group my_list (LIST) { repeated group element { required binary str (STRING); } }"),
    (list_node("num", INT, repetition=REQUIRED, style="unannotated"), "repeated int32 num;"),
    (map_node("my_map", STRING, leaf("num", Type.INT32, repetition=REQUIRED), repetition=OPTIONAL,
              style="misnamed", key_name="str", value_name="num"),
     "optional group my_map (MAP) { repeated group map { required binary str (STRING);"
     " required int32 num; } }"),
    (map_node("my_map", STRING, leaf("v", Type.INT32, repetition=OPTIONAL), repetition=OPTIONAL,
              style="map_key_value"),
     "optional group my_map (MAP_KEY_VALUE) { repeated group map { required binary key (STRING);"
     " optional int32 value; } }"),
])
def test_builders_produce_the_spec_snippets(node, snippet: str) -> None:
    tree = root([node])
    assert _normalized(schema_text(tree)) == _normalized(f"message schema {{ {snippet} }}")
    assert schema_tree_from_elements(schema_tree_to_elements(tree)) == tree


def test_legacy_annotations_can_be_converted_type_only() -> None:
    node = list_node("l", INT, repetition=OPTIONAL, style="two_level", annotation="converted_type")
    assert (node.logical_type, node.converted_type) == (None, LIST)
    node = list_node("l", INT, repetition=OPTIONAL, annotation="logical_type")
    assert (node.logical_type, node.converted_type) == (LIST_LOGICAL, None)
    node = map_node("m", STRING, None, repetition=OPTIONAL)
    assert (node.logical_type, node.converted_type) == (MAP_LOGICAL, MAP)
    assert [c.name for c in node.children[0].children] == ["key"]


@pytest.mark.parametrize(("build", "message"), [
    (lambda: list_node("l", group("e", [INT], repetition=REQUIRED), repetition=OPTIONAL, style="two_level"),
     "would not round-trip: .* rule 5"),
    (lambda: list_node("l", INT, repetition=OPTIONAL, repeated_name="array"),
     "would not round-trip: .* rule 4"),
    (lambda: list_node("l", leaf("x", Type.INT32, repetition=OPTIONAL), repetition=OPTIONAL, style="array"),
     "required elements only"),
    (lambda: list_node("l", INT, repetition=OPTIONAL, style="unannotated"), "must be REQUIRED"),
    (lambda: list_node("l", INT, repetition=OPTIONAL, style="four_level"), "list style must be one of"),
    (lambda: map_node("m", leaf("k", Type.INT32, repetition=OPTIONAL), None, repetition=OPTIONAL),
     "a map key must be REQUIRED"),
])
def test_builders_refuse_shapes_that_would_not_round_trip(build, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        build()


def test_logical_values_that_do_not_fit_are_value_errors() -> None:
    tree = root([list_node("l", INT, repetition=REQUIRED),
                 map_node("m", STRING, None, repetition=OPTIONAL)])
    with pytest.raises(ValueError, match=r"row 0.l: None for a non-nullable REQUIRED field"):
        records_from_logical(tree, [{"l": None, "m": None}])
    with pytest.raises(ValueError, match=r"row 0.l\[1\]: None for a non-nullable REQUIRED field"):
        records_from_logical(tree, [{"l": [1, None], "m": None}])
    with pytest.raises(ValueError, match=r"row 0.l: a list must be a list, got str"):
        records_from_logical(tree, [{"l": "12", "m": None}])
    with pytest.raises(ValueError, match=r"row 0.m\[0\]: this map has no value field"):
        records_from_logical(tree, [{"l": [], "m": [("a", 1)]}])
    with pytest.raises(ValueError, match=r"row 0: no such field\(s\): \['q'\]"):
        records_from_logical(tree, [{"l": [], "m": None, "q": 1}])
    # a dict is accepted as a map on write; the view returns pairs
    assert records_from_logical(tree, [{"l": [], "m": {"a": None}}]) == [
        {"l": {"list": []}, "m": {"key_value": [{"key": "a"}]}}]


def test_leaf_hooks_convert_leaf_values_both_ways() -> None:
    tree = root([list_node("l", STRING, repetition=OPTIONAL)])
    raw = records_from_logical(tree, [{"l": ["é"]}], leaf=lambda node, v: v.encode())
    assert raw == [{"l": {"list": [{"element": "é".encode()}]}}]
    assert records_to_logical(tree, raw, leaf=lambda node, v: v.decode()) == [{"l": ["é"]}]
