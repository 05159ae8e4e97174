"""The schema tree: SchemaElement list <-> tree, validation, paths and maximum levels.

parquet.thrift 'SchemaElement'; README.md 'Nested Encoding'.
"""

from __future__ import annotations

import pytest
from hypothesis import given

from reference_impl.parquet.errors import CorruptMetadata, UnsupportedFeature
from reference_impl.parquet.metadata.parquet_thrift import (
    ConvertedType,
    DecimalType,
    FieldRepetitionType,
    LogicalType,
    SchemaElement,
    Type,
)
from reference_impl.parquet.metadata.thrift_struct import deserialize, serialize
from reference_impl.parquet.schema.tree import (
    MAX_NESTING_DEPTH,
    field_levels,
    group,
    iter_fields,
    leaf,
    leaf_columns,
    root,
    schema_text,
    schema_tree_from_elements,
    schema_tree_to_elements,
)
from tests.reference_impl.nested.strategies import logical_trees, physical_trees
from tests.reference_impl.parquet_helpers import budget

REQUIRED = FieldRepetitionType.REQUIRED
OPTIONAL = FieldRepetitionType.OPTIONAL
REPEATED = FieldRepetitionType.REPEATED


def _group(name: str, n: int, repetition: FieldRepetitionType | None = REQUIRED, **kw) -> SchemaElement:
    return SchemaElement(name=name, repetition_type=repetition, num_children=n, **kw)


def _leaf(
    name: str, repetition: FieldRepetitionType | None = REQUIRED, type_=Type.INT32, **kw
) -> SchemaElement:
    return SchemaElement(name=name, repetition_type=repetition, type=type_, **kw)


# The Dremel paper's Document schema (VLDB 2010, Figure 2): the classic example
# of paths and maximum levels.
DOCUMENT = [
    SchemaElement(name="Document", num_children=3),
    _leaf("DocId", REQUIRED, Type.INT64),
    _group("Links", 2, OPTIONAL),
    _leaf("Backward", REPEATED, Type.INT64),
    _leaf("Forward", REPEATED, Type.INT64),
    _group("Name", 2, REPEATED),
    _group("Language", 2, REPEATED),
    _leaf("Code", REQUIRED, Type.BYTE_ARRAY),
    _leaf("Country", OPTIONAL, Type.BYTE_ARRAY),
    _leaf("Url", OPTIONAL, Type.BYTE_ARRAY),
]


def test_dremel_document_paths_and_max_levels() -> None:
    tree = schema_tree_from_elements(DOCUMENT)
    got = [(c.dotted_path, c.max_definition_level, c.max_repetition_level) for c in leaf_columns(tree)]
    # path                    max def  max rep   (optional/repeated on the path; repeated on the path)
    assert got == [
        ("DocId", 0, 0),  # required
        ("Links.Backward", 2, 1),  # optional Links, repeated Backward
        ("Links.Forward", 2, 1),
        ("Name.Language.Code", 2, 2),  # repeated Name, repeated Language, required Code
        ("Name.Language.Country", 3, 2),  # ... optional Country
        ("Name.Url", 2, 1),  # repeated Name, optional Url
    ]
    assert [c.index for c in leaf_columns(tree)] == list(range(6))
    assert leaf_columns(tree)[4].nodes[-1].name == "Country"
    assert [n.name for n in leaf_columns(tree)[4].nodes] == ["Name", "Language", "Country"]


def test_field_levels_of_groups_and_their_leaf_ranges() -> None:
    levels = field_levels(schema_tree_from_elements(DOCUMENT))
    by_path = {f.dotted_path: f for f in iter_fields(levels)}
    assert (by_path["<root>"].definition_level, by_path["<root>"].repetition_level) == (0, 0)
    assert by_path["<root>"].leaf_indices == range(0, 6)
    assert (by_path["Links"].definition_level, by_path["Links"].repetition_level) == (1, 0)
    assert by_path["Links"].leaf_indices == range(1, 3)
    assert (by_path["Name"].definition_level, by_path["Name"].repetition_level) == (1, 1)
    assert by_path["Name"].leaf_indices == range(3, 6)
    assert (by_path["Name.Language"].definition_level, by_path["Name.Language"].repetition_level) == (2, 2)
    assert by_path["Name.Language"].leaf_indices == range(3, 5)


def test_round_trip_keeps_every_annotation_exactly() -> None:
    elements = [
        SchemaElement(name="schema", repetition_type=REQUIRED, num_children=2),
        _group("l", 1, OPTIONAL, converted_type=ConvertedType.LIST, field_id=7),
        _group("list", 1, REPEATED),
        _leaf(
            "element", OPTIONAL, Type.FIXED_LEN_BYTE_ARRAY, type_length=5,
            converted_type=ConvertedType.DECIMAL, scale=2, precision=10, field_id=9,
            logicalType=LogicalType(DECIMAL=DecimalType(scale=2, precision=10)),
        ),
        _leaf("unknown_converted", OPTIONAL, converted_type=99),  # a value from a newer spec: kept as int
    ]
    tree = schema_tree_from_elements(elements)
    assert tree.repetition == REQUIRED  # a root may say REQUIRED
    assert schema_tree_to_elements(tree) == elements
    assert tree.child("l").field_id == 7


def test_schema_text_matches_the_spec_notation() -> None:
    tree = root([
        group(
            "my_list",
            [group("list", [leaf("element", Type.INT32, repetition=OPTIONAL)], repetition=REPEATED)],
            repetition=OPTIONAL,
            converted_type=ConvertedType.LIST,
        ),
        leaf("f", Type.FIXED_LEN_BYTE_ARRAY, repetition=REQUIRED, type_length=16),
    ])
    assert schema_text(tree) == (
        "message schema {\n"
        "  optional group my_list (LIST) {\n"
        "    repeated group list {\n"
        "      optional int32 element;\n"
        "    }\n"
        "  }\n"
        "  required fixed_len_byte_array(16) f;\n"
        "}"
    )
    assert repr(tree.child("f")) == "SchemaNode('required fixed_len_byte_array(16) f;')"


def test_builders_derive_converted_types_like_writers_must() -> None:
    decimal = LogicalType(DECIMAL=DecimalType(scale=3, precision=9))
    node = leaf("d", Type.INT32, repetition=OPTIONAL, logical_type=decimal)
    assert (node.converted_type, node.scale, node.precision) == (ConvertedType.DECIMAL, 3, 9)
    bare = leaf("d", Type.INT32, repetition=OPTIONAL, logical_type=decimal, converted_type=None)
    assert bare.converted_type is None
    with pytest.raises(ValueError, match="duplicate"):
        root([leaf("a", Type.INT32, repetition=REQUIRED), leaf("a", Type.INT64, repetition=REQUIRED)])
    with pytest.raises(ValueError, match="at least one child"):
        group("g", [], repetition=REQUIRED)
    with pytest.raises(ValueError, match="type_length"):
        leaf("f", Type.FIXED_LEN_BYTE_ARRAY, repetition=REQUIRED)


def test_a_schema_without_columns_is_a_root_without_children() -> None:
    tree = schema_tree_from_elements([SchemaElement(name="schema", num_children=0)])
    assert leaf_columns(tree) == []


@given(physical_trees())
def test_elements_round_trip_for_random_physical_trees(tree) -> None:
    # max levels: count the optional/repeated (definition) and repeated (repetition) fields on the path
    for column in leaf_columns(tree):
        repetitions = [n.repetition for n in column.nodes]
        assert column.max_definition_level == sum(r != REQUIRED for r in repetitions)
        assert column.max_repetition_level == sum(r == REPEATED for r in repetitions)
        assert column.path == tuple(n.name for n in column.nodes)
    elements = schema_tree_to_elements(tree)
    assert schema_tree_from_elements(elements) == tree
    # and through the Thrift compact encoding, as in a footer
    decoded = [deserialize(SchemaElement, serialize(e))[0] for e in elements]
    assert schema_tree_from_elements(decoded) == tree


@budget(50)
@given(logical_trees())
def test_elements_round_trip_for_random_logical_trees(tree) -> None:
    assert schema_tree_from_elements(schema_tree_to_elements(tree)) == tree


# ---------------------------------------------------------------------------
# Malformed schema lists: CorruptMetadata naming the element index
# ---------------------------------------------------------------------------

ROOT = SchemaElement(name="schema", num_children=1)
MALFORMED = {
    "empty": ([], "schema is empty"),
    "num_children overruns the list": (
        [SchemaElement(name="schema", num_children=2), _group("g", 2), _leaf("a")],
        r"schema element 1 \('g'\): declares num_children=2, but the schema list ends after 1",
    ),
    "root num_children overruns": (
        [SchemaElement(name="schema", num_children=3), _leaf("a")],
        r"schema element 0 \('schema'\): declares num_children=3, but the schema list ends after 1",
    ),
    "elements left over": (
        [ROOT, _leaf("a"), _leaf("b")],
        r"schema element 2 \('b'\) follows the end of the root's subtree",
    ),
    "leaf without type": ([ROOT, SchemaElement(name="x", repetition_type=OPTIONAL)],
                          r"schema element 1 \('x'\): a leaf without a physical type"),
    "group with a type": (
        [ROOT, _group("g", 1, type=Type.INT32), _leaf("a")],
        r"schema element 1 \('g'\): a group \(num_children=1\) with a physical type",
    ),
    "root with a type": ([SchemaElement(name="schema", type=Type.INT32)], "the root must be a group"),
    "root OPTIONAL": (
        [SchemaElement(name="schema", num_children=1, repetition_type=OPTIONAL), _leaf("a")],
        # read strictly (outside leniency.reading) the lenient rule is the error
        r"parquet\.schema\.root-repetition-type",
    ),
    "root REPEATED": (
        [SchemaElement(name="schema", num_children=1, repetition_type=REPEATED), _leaf("a")],
        r"parquet\.schema\.root-repetition-type",
    ),
    "field without repetition": ([ROOT, _leaf("a", None)], r"schema element 1 \('a'\): a field without"),
    "group with no children": ([ROOT, _group("g", 0)], r"schema element 1 \('g'\): a group with no children"),
    "negative num_children": ([ROOT, _group("g", -1)], r"schema element 1 \('g'\): negative num_children"),
    "duplicate names": (
        [SchemaElement(name="schema", num_children=2), _leaf("a"), _leaf("a", type_=Type.INT64)],
        r"schema element 0 \('schema'\): duplicate child names \['a'\]",
    ),
    "FLBA without length": (
        [ROOT, _leaf("f", type_=Type.FIXED_LEN_BYTE_ARRAY)],
        r"schema element 1 \('f'\): FIXED_LEN_BYTE_ARRAY needs a positive type_length",
    ),
}


@pytest.mark.parametrize("case", MALFORMED, ids=list(MALFORMED))
def test_malformed_schema_lists_are_corrupt_metadata(case: str) -> None:
    elements, message = MALFORMED[case]
    with pytest.raises(CorruptMetadata, match=message) as raised:
        schema_tree_from_elements(elements, offset=1234)
    assert raised.value.offset == 1234


def test_a_huge_num_children_fails_at_the_end_of_the_list_without_allocating() -> None:
    with pytest.raises(CorruptMetadata, match="ends after 1"):
        schema_tree_from_elements([SchemaElement(name="schema", num_children=2**31 - 1), _leaf("a")])


def test_unknown_enum_values_are_unsupported_not_corrupt() -> None:
    with pytest.raises(UnsupportedFeature, match="repetition type 7"):
        schema_tree_from_elements([ROOT, _leaf("a", 7)])  # type: ignore[arg-type]
    with pytest.raises(UnsupportedFeature, match="physical type 42"):
        schema_tree_from_elements([ROOT, _leaf("a", type_=42)])


def test_nesting_deeper_than_the_limit_is_unsupported() -> None:
    depth = MAX_NESTING_DEPTH + 5
    elements = [SchemaElement(name="schema", num_children=1)]
    elements += [_group(f"g{i}", 1, OPTIONAL) for i in range(depth)]
    elements.append(_leaf("x", OPTIONAL))
    with pytest.raises(UnsupportedFeature, match="nesting deeper than"):
        schema_tree_from_elements(elements)
    # just below the limit is fine
    ok = [SchemaElement(name="schema", num_children=1)]
    ok += [_group(f"g{i}", 1, OPTIONAL) for i in range(MAX_NESTING_DEPTH - 1)]
    ok.append(_leaf("x", OPTIONAL))
    (column,) = leaf_columns(schema_tree_from_elements(ok))
    assert column.max_definition_level == MAX_NESTING_DEPTH
