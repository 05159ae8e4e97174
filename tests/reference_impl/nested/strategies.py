"""Hypothesis strategies for nested schemas and their values.

* :func:`physical_trees` / :func:`raw_records`: arbitrary schema trees (depth <= 4,
  any mix of REQUIRED/OPTIONAL/REPEATED groups and leaves, no annotations) and
  records of the raw physical tree for them;
* :func:`logical_trees` / :func:`logical_rows`: schemas built only from the
  ``nested_logical`` builders (structs, every list style, every map style) and
  logical rows for them, generated from the schema's logical shape.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from reference_impl.parquet.metadata.parquet_thrift import FieldRepetitionType, LogicalType, StringType, Type
from reference_impl.parquet.schema.nested_types import (
    LIST_STYLES,
    MAP_STYLES,
    ListShape,
    MapShape,
    PrimitiveShape,
    Shape,
    StructShape,
    list_node,
    logical_shape,
    map_node,
)
from reference_impl.parquet.schema.tree import SchemaNode, group, leaf, root

REQUIRED = FieldRepetitionType.REQUIRED
OPTIONAL = FieldRepetitionType.OPTIONAL
REPEATED = FieldRepetitionType.REPEATED

MAX_DEPTH = 4
INT32 = st.integers(-(1 << 31), (1 << 31) - 1)
BINARY = st.binary(max_size=4)
TEXT = st.text(max_size=4)


# ---------------------------------------------------------------------------
# Physical trees and raw records
# ---------------------------------------------------------------------------


@st.composite
def physical_fields(draw: st.DrawFn, name: str, depth: int) -> SchemaNode:
    repetition = draw(st.sampled_from(list(FieldRepetitionType)))
    if depth >= MAX_DEPTH or draw(st.booleans()):
        return leaf(name, draw(st.sampled_from([Type.INT32, Type.BYTE_ARRAY])), repetition=repetition)
    count = draw(st.integers(1, 3))
    children = [draw(physical_fields(f"f{i}", depth + 1)) for i in range(count)]
    return group(name, children, repetition=repetition)


@st.composite
def physical_trees(draw: st.DrawFn) -> SchemaNode:
    count = draw(st.integers(1, 3))
    return root([draw(physical_fields(f"c{i}", 1)) for i in range(count)])


def _raw_type_values(node: SchemaNode) -> st.SearchStrategy[Any]:
    if node.is_leaf:
        return INT32 if node.physical_type == Type.INT32 else BINARY
    return st.fixed_dictionaries({c.name: _raw_field_values(c) for c in node.children or ()})


def _raw_field_values(node: SchemaNode) -> st.SearchStrategy[Any]:
    inner = _raw_type_values(node)
    if node.repetition == REPEATED:
        return st.lists(inner, max_size=3)
    if node.repetition == OPTIONAL:
        return st.none() | inner
    return inner


def raw_records(tree: SchemaNode) -> st.SearchStrategy[list[dict[str, Any]]]:
    return st.lists(_raw_type_values(tree), max_size=5)


# ---------------------------------------------------------------------------
# Logical trees (built with list_node / map_node) and logical rows
# ---------------------------------------------------------------------------


@st.composite
def primitive_fields(draw: st.DrawFn, name: str, repetition: FieldRepetitionType) -> SchemaNode:
    if draw(st.booleans()):
        return leaf(name, Type.INT32, repetition=repetition)
    return leaf(name, Type.BYTE_ARRAY, repetition=repetition, logical_type=LogicalType(STRING=StringType()))


@st.composite
def logical_fields(
    draw: st.DrawFn,
    name: str,
    repetition: FieldRepetitionType,
    depth: int,
    *,
    in_struct: bool,
    list_styles: tuple[str, ...] = LIST_STYLES,
    map_styles: tuple[str, ...] = MAP_STYLES,
) -> SchemaNode:
    """A field of a random logical type. ``in_struct``: the field may be an
    unannotated repeated field (which only a struct, or the root, can hold)."""
    kinds = ["primitive", "struct", "list", "map"] if depth < 3 else ["primitive"]
    kind = draw(st.sampled_from(kinds))
    if kind == "primitive":
        return draw(primitive_fields(name, repetition))
    sub = {"list_styles": list_styles, "map_styles": map_styles}
    if kind == "struct":
        count = draw(st.integers(1, 3))
        children = [
            draw(logical_fields(f"s{i}", draw(st.sampled_from([REQUIRED, OPTIONAL])), depth + 1,
                                in_struct=True, **sub))
            for i in range(count)
        ]
        return group(name, children, repetition=repetition)
    if kind == "list":
        style = draw(st.sampled_from(list_styles))
        if style == "unannotated" and not (in_struct and repetition == REQUIRED):
            style = "three_level"
        element_repetition = (
            draw(st.sampled_from([REQUIRED, OPTIONAL])) if style == "three_level" else REQUIRED
        )
        element = draw(logical_fields("e", element_repetition, depth + 1, in_struct=False, **sub))
        try:
            return list_node(name, element, repetition=repetition, style=style)
        except ValueError:  # e.g. a 2-level list of one-field structs: rule 5 would unwrap it
            return list_node(name, element, repetition=repetition, style="array")
    style = draw(st.sampled_from(map_styles))
    key = draw(primitive_fields("k", REQUIRED))
    value = None
    if draw(st.integers(0, 4)):  # mostly with a value field
        value_repetition = draw(st.sampled_from([REQUIRED, OPTIONAL]))
        value = draw(logical_fields("v", value_repetition, depth + 1, in_struct=False, **sub))
    return map_node(name, key, value, repetition=repetition, style=style)


@st.composite
def logical_trees(
    draw: st.DrawFn, list_styles: tuple[str, ...] = LIST_STYLES, map_styles: tuple[str, ...] = MAP_STYLES
) -> SchemaNode:
    count = draw(st.integers(1, 3))
    children = [
        draw(logical_fields(f"c{i}", draw(st.sampled_from([REQUIRED, OPTIONAL])), 0, in_struct=True,
                            list_styles=list_styles, map_styles=map_styles))
        for i in range(count)
    ]
    return root(children)


def logical_values(shape: Shape) -> st.SearchStrategy[Any]:
    """Logical values of ``shape``: None where the field is nullable."""
    if isinstance(shape, PrimitiveShape):
        inner: st.SearchStrategy[Any] = INT32 if shape.node.physical_type == Type.INT32 else TEXT
    elif isinstance(shape, StructShape):
        inner = st.fixed_dictionaries({f.node.name: logical_values(f) for f in shape.fields})
    elif isinstance(shape, ListShape):
        inner = st.lists(logical_values(shape.element), max_size=3)
    else:
        assert isinstance(shape, MapShape)
        value = logical_values(shape.value) if shape.value is not None else st.none()
        inner = st.lists(st.tuples(logical_values(shape.key), value), max_size=3)
    if shape.node.repetition == OPTIONAL:
        return st.none() | inner
    return inner


def logical_rows(tree: SchemaNode) -> st.SearchStrategy[list[dict[str, Any]]]:
    return st.lists(logical_values(logical_shape(tree)), max_size=4)
