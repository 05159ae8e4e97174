"""Each column's values, split out of the rows read: what its statistics, row groups and
Bloom filters summarise (validation/, row_index_check.py).

ORCv1.md, 'Type Information': the columns are the schema's types in pre-order, a
compound type's children after it. A STRUCT's field columns hold the fields of its
non-null values, a LIST's element column every element of its non-null lists, a MAP's
key and value columns every entry's key and value, a UNION's variant columns the values
tagged with each variant (ORCv1.md, 'Struct Columns' ... 'Union Columns'). The values
are those of the reader (``reference_impl/orc/columns/``): a STRUCT a dict by field
name, a LIST a list, a MAP a list of (key, value) pairs, a UNION a (tag, value) pair.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import cast

from reference_impl.orc.metadata.proto_enums import TypeKind
from reference_impl.orc.metadata.type_tree import TypeNode

__all__ = ["ColumnValues", "column_labels", "column_values"]

ROOT_LABEL = "<root>"
# The names of children without a field name, as ORC Java names them in its schema strings.
LIST_ELEMENT, MAP_KEY, MAP_VALUE = "_elem", "_key", "_value"


@dataclass(frozen=True)
class ColumnValues:
    node: TypeNode
    entries: list[object]  # one per value of the parent's column, None for a null
    values: list[object]  # the non-null entries

    @property
    def has_null(self) -> bool:
        return len(self.values) != len(self.entries)


def column_values(root: TypeNode, rows: Sequence[object]) -> dict[int, ColumnValues]:
    """Every column's values, by column id, for ``rows`` (the root's values)."""
    return {column.node.column_id: column for column in _walk(root, list(rows))}


def _walk(node: TypeNode, entries: list[object]) -> Iterator[ColumnValues]:
    values = [value for value in entries if value is not None]
    yield ColumnValues(node, entries, values)
    for child, child_entries in zip(node.children, _children(node, values), strict=True):
        yield from _walk(child, child_entries)


def _children(node: TypeNode, values: list[object]) -> list[list[object]]:
    if node.kind == TypeKind.STRUCT:
        rows = cast(list[dict[str, object]], values)
        return [[row[name] for row in rows] for name in node.field_names]
    if node.kind == TypeKind.LIST:
        return [[element for value in cast(list[list[object]], values) for element in value]]
    if node.kind == TypeKind.MAP:
        pairs = [pair for value in cast(list[list[tuple[object, object]]], values) for pair in value]
        return [[key for key, _ in pairs], [item for _, item in pairs]]
    if node.kind == TypeKind.UNION:
        tagged = cast(list[tuple[int, object]], values)
        return [[item for tag, item in tagged if tag == variant] for variant in range(len(node.children))]
    return []


def column_labels(root: TypeNode) -> dict[int, str]:
    """'<id> <path>' of every column, for findings: field names joined by dots."""
    labels = {}

    def visit(node: TypeNode, path: str) -> None:
        labels[node.column_id] = f"{node.column_id} {path or ROOT_LABEL}"
        for name, child in zip(_child_names(node), node.children, strict=True):
            visit(child, f"{path}.{name}" if path else name)

    visit(root, "")
    return labels


def _child_names(node: TypeNode) -> Sequence[str]:
    if node.kind == TypeKind.STRUCT:
        return node.field_names
    if node.kind == TypeKind.LIST:
        return (LIST_ELEMENT,)
    if node.kind == TypeKind.MAP:
        return (MAP_KEY, MAP_VALUE)
    return tuple(str(variant) for variant in range(len(node.children)))
