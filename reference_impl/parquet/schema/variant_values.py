"""Every Variant value a file stores decodes as VariantEncoding.md defines.

Spec: VariantEncoding.md, 'Variant in Parquet': "The `metadata` field is `required`
and must be a valid Variant metadata" and "When present, the `value` field must be a
valid Variant value"; 'Metadata encoding', 'Value encoding', 'String values must be
UTF-8 encoded'. VariantShredding.md, 'Value Shredding': every `value` field of a
shredded variant (the group's own, an object field's, an array element's) holds
Variant-encoded bytes with the group's one `metadata`.

The reader decodes each of them (:func:`check_variant_values`) and raises
:class:`InvalidVariant` at the first that is malformed, naming the column, the row,
the place inside the variant (``v.typed_value.a``, ``[2]``) and the byte within
the metadata or value; the validator reports each (:func:`decode_stored`). An object
whose field ids are out of the order of their names breaks a MUST ('Object field ID
order and uniqueness') but has one reading, its fields by name: a breach of
:data:`FIELD_ORDER` (``reference_impl.common.leniency``). Only
the encoding is judged here: how ``value`` and ``typed_value`` combine is
``variant_shredding``'s. The walks to a schema's VARIANT groups, at any depth
inside structs, lists and maps, are shared with the validator.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reference_impl.common import leniency
from reference_impl.parquet.errors import InvalidVariant
from reference_impl.parquet.schema.nested_types import (
    ListShape,
    MapShape,
    Shape,
    StructShape,
    logical_shape,
    to_logical,
)
from reference_impl.parquet.schema.tree import SchemaNode
from reference_impl.parquet.schema.variant_encoding import VariantMetadata, decode_value, parse_metadata
from reference_impl.parquet.schema.variant_shredding import (
    RULES,
    ArrayTyped,
    ObjectTyped,
    Rule,
    ShreddedPair,
    VariantLayout,
    is_variant,
    variant_layout,
)

__all__ = [
    "FIELD_ORDER",
    "StoredVariant",
    "check_variant_values",
    "decode_stored",
    "has_variant",
    "variant_group_values",
    "variant_groups",
]

FIELD_ORDER = leniency.Rule(
    id="parquet.variant.field-order",
    format="parquet",
    spec="VariantEncoding.md: Object field ID order and uniqueness",
    sentence=RULES["field_order"].text,
    strength=leniency.Strength.MUST,
    reading="the object's fields by name, whatever the order of their ids",
    error=InvalidVariant,
)


@dataclass(frozen=True)
class StoredVariant:
    """What decoding one VARIANT group's stored bytes found: the first malformed
    metadata or value, else the places of the objects whose ids are out of order."""

    error: InvalidVariant | None
    unordered: tuple[str, ...] = ()


def has_variant(node: SchemaNode) -> bool:
    """Whether ``node`` is, or holds at any depth, a VARIANT group."""
    return is_variant(node) or any(has_variant(child) for child in node.children or ())


def check_variant_values(tree: SchemaNode, records: Sequence[Mapping[str, Any]], where: str,
                         offset: int) -> None:
    """Raise :class:`InvalidVariant` (at ``offset``) for the first VARIANT value of
    ``records`` (one row group's raw records of ``tree``; ``where`` names the row
    group) that is not a valid Variant."""
    tops = [f for f in logical_shape(tree, offset=offset).fields if has_variant(f.node)]
    layouts = {path: variant_layout(shape, path, _ignore) for top in tops
               for path, shape in variant_groups(top, top.node.name)}
    parsed: dict[bytes, VariantMetadata] = {}  # rows mostly share their metadata
    for row, record in enumerate(records):
        for top in tops:
            value = to_logical(top, record.get(top.node.name))
            for path, group_value in variant_group_values(top, value, top.node.name):
                stored = decode_stored(layouts[path], group_value, f"{where}, row {row}", parsed)
                if stored.error is not None:
                    raise InvalidVariant(f"column {path}: {stored.error.message}", offset)
                for place in stored.unordered:
                    leniency.breach(FIELD_ORDER, f"column {path}: {place}", offset)


def decode_stored(layout: VariantLayout, group_value: Mapping[str, Any] | None, where: str,
                  parsed: dict[bytes, VariantMetadata] | None = None) -> StoredVariant:
    """Decode the metadata and every stored value of one VARIANT group's logical value
    (``where`` names the row); ``parsed`` keeps the metadata already parsed, by their bytes."""
    metadata = None if group_value is None else group_value.get("metadata")
    if metadata is None:  # a null group; a null metadata is a shredding rule's
        return StoredVariant(None)
    where = f"{where}, {layout.name}"
    unordered: list[str] = []
    try:
        names = _parsed(metadata, where, {} if parsed is None else parsed)
        for inner, value in _stored_values(layout.pair, group_value, where):
            decode_value(value, names, inner, unordered)
    except InvalidVariant as error:
        return StoredVariant(error)
    return StoredVariant(None, tuple(unordered))


def _parsed(metadata: bytes, where: str, parsed: dict[bytes, VariantMetadata]) -> VariantMetadata:
    if metadata not in parsed:
        parsed[metadata] = parse_metadata(metadata, where)
    return parsed[metadata]


def _stored_values(pair: ShreddedPair, group_value: Mapping[str, Any] | None,
                   where: str) -> Iterator[tuple[str, bytes]]:
    """Every non-null ``value`` field under a pair, where it is."""
    if group_value is None:
        return
    if (value := group_value.get("value")) is not None:
        yield where, value
    typed, typed_value = pair.typed, group_value.get("typed_value")
    if typed_value is None:
        return
    if isinstance(typed, ObjectTyped):
        for name, field in typed.fields.items():
            yield from _stored_values(field, typed_value.get(name), f"{where}.{name}")
    elif isinstance(typed, ArrayTyped):
        for index, element in enumerate(typed_value):
            yield from _stored_values(typed.element, element, f"{where}[{index}]")


def _ignore(rule: Rule, where: str, found: str) -> None:
    """A sink for the shredding rules: they are not the encoding's (see the module docstring)."""


# ---------------------------------------------------------------------------
# The VARIANT groups of a shape, and their values
# ---------------------------------------------------------------------------


def variant_groups(shape: Shape, path: str) -> Iterator[tuple[str, StructShape]]:
    """Every VARIANT group under ``shape`` (itself included), with its dotted path."""
    for child, child_path, _ in _children(shape, path, None):
        if isinstance(child, StructShape) and is_variant(child.node):
            yield child_path, child
        else:
            yield from variant_groups(child, child_path)


def variant_group_values(shape: Shape, value: Any, path: str) -> Iterator[tuple[str, Any]]:
    """Each VARIANT group's logical value under ``shape``'s ``value`` (nulls skipped)."""
    if value is None:
        return
    for child, child_path, child_value in _children(shape, path, value):
        if isinstance(child, StructShape) and is_variant(child.node):
            yield child_path, child_value
        else:
            yield from variant_group_values(child, child_value, child_path)


def _children(shape: Shape, path: str, value: Any) -> Iterator[tuple[Shape, str, Any]]:
    """``shape`` itself when it is a variant, else its child shapes with their values
    (one per list element and map entry; ``value`` None: the shapes alone)."""
    if isinstance(shape, StructShape) and is_variant(shape.node):
        yield shape, path, value
    elif isinstance(shape, StructShape):
        for field in shape.fields:
            yield field, f"{path}.{field.node.name}", None if value is None else value.get(field.node.name)
    elif isinstance(shape, ListShape):
        for element in [None] if value is None else value:
            yield shape.element, path, element
    elif isinstance(shape, MapShape):
        for key, item in [(None, None)] if value is None else value:
            yield shape.key, path, key
            if shape.value is not None:
                yield shape.value, path, item
