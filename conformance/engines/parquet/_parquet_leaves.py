"""Leaf columns of a canonical schema, named as Parquet column paths.

A Parquet file stores one column chunk per leaf of the schema tree; writers that
take per-column options (pyarrow's `column_encoding`) name a leaf by its dotted
path. Nested types follow the LogicalTypes.md layouts writers use by default:
LIST as `<name>.list.element` ("Lists", 3-level structure) and MAP as
`<name>.key_value.key` / `<name>.key_value.value` ("Maps"); an unshredded VARIANT
is the group of two binaries `<name>.metadata` and `<name>.value` ("VARIANT").
"""

from __future__ import annotations

from collections.abc import Iterator

from conformance.values import DataType, Field, Schema
from conformance.values import types as T


def leaves(schema: Schema) -> list[tuple[str, DataType]]:
    """(dotted column path, canonical type) of every leaf, in schema order."""
    return [leaf for f in schema for leaf in _field_leaves(f.name, f)]


def _field_leaves(path: str, f: Field) -> Iterator[tuple[str, DataType]]:
    t = f.type
    match t.kind:
        case "list":
            yield from _field_leaves(f"{path}.list.element", t.list_element)
        case "map":
            yield from _field_leaves(f"{path}.key_value.key", t.map_key)
            yield from _field_leaves(f"{path}.key_value.value", t.map_value)
        case "struct":
            for child in t.fields:
                yield from _field_leaves(f"{path}.{child.name}", child)
        case "variant":
            yield f"{path}.metadata", T.binary()
            yield f"{path}.value", T.binary()
        case _:
            yield path, t


def all_fields(schema: Schema) -> Iterator[tuple[str, Field]]:
    """(dotted path, field) of every field, nested ones included, parents first."""
    for f in schema:
        yield from _all_fields(f.name, f)


def _all_fields(path: str, f: Field) -> Iterator[tuple[str, Field]]:
    yield path, f
    t = f.type
    children = [(f"{path}.list.element", t.element)] if t.element else []
    if t.key:
        children += [(f"{path}.key_value.key", t.map_key), (f"{path}.key_value.value", t.map_value)]
    children += [(f"{path}.{c.name}", c) for c in t.fields]
    for child_path, child in children:
        yield from _all_fields(child_path, child)
