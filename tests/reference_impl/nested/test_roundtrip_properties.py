"""Properties: shred -> assemble is the identity on random schemas and records;
the logical view round-trips through every list and map style."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.parquet.metadata.parquet_thrift import FieldRepetitionType
from reference_impl.parquet.nested.assembly import assemble_records
from reference_impl.parquet.nested.shredding import shred_records
from reference_impl.parquet.schema.nested_types import (
    LIST_STYLES,
    MAP_STYLES,
    ListShape,
    MapShape,
    logical_shape,
    records_from_logical,
    records_to_logical,
)
from reference_impl.parquet.schema.tree import (
    leaf_columns,
    schema_tree_from_elements,
    schema_tree_to_elements,
)
from tests.reference_impl.nested.strategies import logical_rows, logical_trees, physical_trees, raw_records
from tests.reference_impl.parquet_helpers import budget

REQUIRED = FieldRepetitionType.REQUIRED


@given(st.data())
def test_shred_then_assemble_is_the_identity(data) -> None:
    tree = data.draw(physical_trees())
    records = data.draw(raw_records(tree))
    columns = shred_records(tree, records)
    for leaf, (values, definition, repetition) in zip(leaf_columns(tree), columns, strict=True):
        assert len(definition) == len(repetition)
        assert len(values) == definition.count(leaf.max_definition_level)
        assert all(0 <= d <= leaf.max_definition_level for d in definition)
        assert all(0 <= r <= leaf.max_repetition_level for r in repetition)
        assert repetition.count(0) == len(records)  # one record starts per level 0
    assert assemble_records(tree, columns, expected_records=len(records)) == records


@budget(40)
@given(st.data())
def test_shredding_is_a_function_of_the_records_alone(data) -> None:
    """Re-shredding what assembly returns gives the same columns, also when
    levels of max 0 are omitted as a reader would see them."""
    tree = data.draw(physical_trees())
    records = data.draw(raw_records(tree))
    columns = shred_records(tree, records)
    stored = [
        (values, definition if leaf.max_definition_level else None,
         repetition if leaf.max_repetition_level else None)
        for leaf, (values, definition, repetition) in zip(leaf_columns(tree), columns, strict=True)
    ]
    assert shred_records(tree, assemble_records(tree, stored, expected_records=len(records))) == columns


def _logical_round_trip(tree, rows) -> None:
    # the schema survives the footer form, and the rows survive shredding
    tree = schema_tree_from_elements(schema_tree_to_elements(tree))
    records = records_from_logical(tree, rows)
    assembled = assemble_records(tree, shred_records(tree, records), expected_records=len(rows))
    assert assembled == records
    assert records_to_logical(tree, assembled) == rows


@given(st.data())
def test_logical_view_round_trips_for_random_mixes_of_styles(data) -> None:
    tree = data.draw(logical_trees())
    _logical_round_trip(tree, data.draw(logical_rows(tree)))


# Each style also appears in the random mixes above; these focus on one at a time.
@pytest.mark.parametrize("style", LIST_STYLES)
@budget(25)
@given(data=st.data())
def test_logical_view_round_trips_for_each_list_style(style: str, data) -> None:
    tree = data.draw(logical_trees(list_styles=(style,), map_styles=("standard",)))
    _logical_round_trip(tree, data.draw(logical_rows(tree)))


@pytest.mark.parametrize("style", MAP_STYLES)
@budget(25)
@given(data=st.data())
def test_logical_view_round_trips_for_each_map_style(style: str, data) -> None:
    tree = data.draw(logical_trees(list_styles=("three_level",), map_styles=(style,)))
    _logical_round_trip(tree, data.draw(logical_rows(tree)))


def _shapes(shape):
    yield shape
    for attribute in ("fields",):
        for child in getattr(shape, attribute, ()):
            yield from _shapes(child)
    if isinstance(shape, ListShape):
        yield from _shapes(shape.element)
    if isinstance(shape, MapShape):
        yield from _shapes(shape.key)
        if shape.value is not None:
            yield from _shapes(shape.value)


@budget(40)
@given(logical_trees(list_styles=("three_level",), map_styles=("standard",)))
def test_default_builders_write_only_the_standard_forms(tree) -> None:
    """LogicalTypes.md: "New writer implementations should always produce the
    3-level LIST structure"; MAP: key_value / key / value."""
    for shape in _shapes(logical_shape(tree)):
        if isinstance(shape, ListShape):
            assert shape.rule == "5"
            assert (shape.repeated.name, shape.element_field) == ("list", "element")
            assert shape.node.repetition in (REQUIRED, FieldRepetitionType.OPTIONAL)
            assert shape.node.logical_type.kind == "LIST"
        if isinstance(shape, MapShape):
            key_value = shape.key_value
            assert key_value.name == "key_value"
            assert [c.name for c in key_value.children] in (["key"], ["key", "value"])
            assert key_value.children[0].repetition == REQUIRED
            assert shape.node.logical_type.kind == "MAP"
