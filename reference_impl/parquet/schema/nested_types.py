"""The logical view of nested data: LIST and MAP groups as lists and maps.

Spec: LogicalTypes.md, 'Nested Types', 'Lists' (with its 'Backward-compatibility
rules') and 'Maps' (with its 'Backward-compatibility rules').

The raw physical tree (what ``shredding`` and ``assembly`` exchange) has only
dicts (groups), lists of occurrences (REPEATED fields), ``None`` (absent
OPTIONAL fields) and leaf values. The logical view replaces

* a LIST-annotated group by a Python ``list`` of its elements (or ``None``);
* a MAP-annotated group (and, per 'Maps > Backward-compatibility rules', a
  MAP_KEY_VALUE-annotated group not inside a MAP) by a ``list`` of
  ``(key, value)`` tuples in file order (or ``None``); duplicate keys are kept,
  the spec leaves their handling to the application; a map without a value
  field ("a set of keys") has ``value`` ``None``;
* a repeated field outside any LIST or MAP by a ``list`` of its elements
  ('Nested Types': "a required list of required elements where the element
  type is the type of the field");
* every other group by a ``dict`` by field name.

Leaves keep their physical values unless a ``leaf`` hook converts them.

Which field is the element of a list. READING applies the rules of 'Lists >
Backward-compatibility rules', in order, to the repeated field R inside the
LIST-annotated group (names are not enforced: "these names may not be used
in existing data and should not be enforced as errors when reading"):

1. R is not a group: R's type is the element type, elements are required;
2. R is a group with several fields: R is the element (a struct);
3. R is a group whose one field is repeated: R is the element;
4. R is a group with one field, named ``array`` or ``<list name>_tuple``: R is
   the element (a one-field struct);
5. otherwise R's only field is the element, with its own repetition. This is
   the standard 3-level form ``<rep> group <name> (LIST) { repeated group list
   { <rep> <type> element; } }``.

For maps, the key and the value are the first and second field of the
repeated group whatever their names ("`key` and `value` can be identified by
their position in case of misnaming").

WRITING: :func:`list_node` and :func:`map_node` build the standard 3-level
forms by default, and on request each legacy shape the rules above accept, so
the reference writer can produce the files no other writer produces. Every
shape they build is read back through the reading rules before it is returned,
so a shape that would not round-trip (e.g. a 2-level list whose element is a
one-field group, which rule 5 would unwrap) is a ``ValueError``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reference_impl.parquet.errors import CorruptMetadata
from reference_impl.parquet.metadata.parquet_thrift import (
    ConvertedType,
    FieldRepetitionType,
    ListType,
    LogicalType,
    MapType,
)
from reference_impl.parquet.schema.tree import SchemaNode, group

__all__ = [
    "LIST_STYLES",
    "MAP_STYLES",
    "LeafHook",
    "ListShape",
    "MapShape",
    "PrimitiveShape",
    "Shape",
    "StructShape",
    "from_logical",
    "groups_where",
    "list_node",
    "logical_shape",
    "map_node",
    "records_from_logical",
    "records_to_logical",
    "to_logical",
]

REQUIRED = FieldRepetitionType.REQUIRED
OPTIONAL = FieldRepetitionType.OPTIONAL
REPEATED = FieldRepetitionType.REPEATED

LeafHook = Callable[[SchemaNode, Any], Any]
"""Converts one non-null leaf value, given the leaf's node (e.g. physical -> canonical)."""


# ---------------------------------------------------------------------------
# Shapes: how each schema node reads as a logical value
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PrimitiveShape:
    node: SchemaNode


@dataclass(frozen=True)
class StructShape:
    """A group read as a dict; ``fields`` in schema order."""

    node: SchemaNode
    fields: tuple[Shape, ...]


@dataclass(frozen=True)
class ListShape:
    """A list. ``node`` is the LIST-annotated group, or for an unannotated
    repeated field (``rule == "unannotated"``) the repeated field itself;
    ``repeated`` is the repeated field R holding one occurrence per element.
    ``element_field`` names R's child that holds the element (rule 5), or is
    ``None`` when each occurrence of R is itself the element (rules 1 to 4 and
    unannotated). ``rule``: "1" .. "5" or "unannotated"."""

    node: SchemaNode
    repeated: SchemaNode
    element: Shape
    element_field: str | None
    rule: str


@dataclass(frozen=True)
class MapShape:
    """A map. ``key_value`` is the repeated group; ``key``/``value`` its first
    and (optional) second field; ``value`` is ``None`` for a map without values."""

    node: SchemaNode
    key_value: SchemaNode
    key: Shape
    value: Shape | None


Shape = PrimitiveShape | StructShape | ListShape | MapShape


def logical_shape(tree: SchemaNode, *, offset: int | None = None) -> StructShape:
    """How every field of the schema reads as a logical value.

    Raises :class:`CorruptMetadata` (with ``offset``, e.g. where the footer
    starts) for a LIST or MAP annotation on a structure no rule accepts: an
    annotated leaf, a LIST without exactly one repeated field, a MAP whose one
    field is not a repeated group of one or two fields, a repeated key,
    contradicting LogicalType and ConvertedType annotations.
    """
    return _Shaper(offset).struct(tree, ())


class _Shaper:
    def __init__(self, offset: int | None) -> None:
        self.offset = offset

    def fail(self, path: tuple[str, ...], problem: str) -> CorruptMetadata:
        return CorruptMetadata(f"schema field {'.'.join(path) or '<root>'}: {problem}", self.offset)

    def field(self, node: SchemaNode, path: tuple[str, ...]) -> Shape:
        """A field of a struct (or a map value). 'Nested Types': a repeated field
        outside a LIST or MAP is a required list of required elements."""
        if node.repetition == REPEATED:
            return ListShape(node, node, self.type(node, path), None, "unannotated")
        return self.type(node, path)

    def type(self, node: SchemaNode, path: tuple[str, ...]) -> Shape:
        """What a value of ``node``'s type is, whatever its repetition."""
        annotation = self.annotation(node, path)
        if node.is_leaf:
            if annotation is not None:
                raise self.fail(path, f"{annotation} annotates a group, not a primitive {node.physical_type}")
            return PrimitiveShape(node)
        if annotation == "LIST":
            return self.list(node, path)
        if annotation == "MAP":
            return self.map(node, path)
        return self.struct(node, path)

    def struct(self, node: SchemaNode, path: tuple[str, ...]) -> StructShape:
        return StructShape(node, tuple(self.field(c, (*path, c.name)) for c in node.children or ()))

    def list(self, node: SchemaNode, path: tuple[str, ...]) -> ListShape:
        """'Lists' and its 'Backward-compatibility rules' 1 to 5."""
        children = node.children or ()
        if len(children) != 1 or children[0].repetition != REPEATED:
            raise self.fail(path, "a LIST-annotated group must contain exactly one repeated field")
        repeated = children[0]
        inner = (*path, repeated.name)
        if repeated.is_leaf:
            rule = "1"
        elif len(repeated.children or ()) > 1:
            rule = "2"
        elif (repeated.children or ())[0].repetition == REPEATED:
            rule = "3"
        elif repeated.name in ("array", f"{node.name}_tuple"):
            rule = "4"
        else:
            element = (repeated.children or ())[0]
            return ListShape(node, repeated, self.type(element, (*inner, element.name)), element.name, "5")
        return ListShape(node, repeated, self.type(repeated, inner), None, rule)

    def map(self, node: SchemaNode, path: tuple[str, ...]) -> MapShape:
        """'Maps' and its 'Backward-compatibility rules' (any names, by position)."""
        children = node.children or ()
        if len(children) != 1 or children[0].repetition != REPEATED or children[0].is_leaf:
            raise self.fail(path, "a MAP-annotated group must contain exactly one repeated group")
        key_value = children[0]
        fields = key_value.children or ()
        inner = (*path, key_value.name)
        if len(fields) > 2:
            raise self.fail(
                inner, f"the key-value group of a map has {len(fields)} fields: only a key and a value"
            )
        key = fields[0]
        if key.repetition == REPEATED:
            raise self.fail((*inner, key.name), "a map key cannot be repeated")
        value = self.field(fields[1], (*inner, fields[1].name)) if len(fields) == 2 else None
        return MapShape(node, key_value, self.type(key, (*inner, key.name)), value)

    def annotation(self, node: SchemaNode, path: tuple[str, ...]) -> str | None:
        """"LIST", "MAP" or None. The LogicalType wins; the ConvertedType is read
        when there is no LogicalType ('Metadata'); MAP_KEY_VALUE reads as MAP
        (the key-value group inside a MAP never gets here)."""
        converted = {
            ConvertedType.LIST: "LIST",
            ConvertedType.MAP: "MAP",
            ConvertedType.MAP_KEY_VALUE: "MAP",
        }.get(node.converted_type)  # type: ignore[call-overload]
        kind = node.logical_type.kind if node.logical_type is not None else None
        if kind is None:
            return converted
        logical = kind if kind in ("LIST", "MAP") else None
        if converted is not None and converted != logical:
            raise self.fail(
                path, f"LogicalType {kind} contradicts ConvertedType {node.converted_type.name}"  # type: ignore[union-attr]
            )
        return logical


# ---------------------------------------------------------------------------
# Raw physical tree <-> logical values
# ---------------------------------------------------------------------------


def to_logical(shape: Shape, raw: Any, *, leaf: LeafHook | None = None) -> Any:
    """The logical value of ``raw`` (a value of ``shape``'s node in the raw tree)."""
    if raw is None:
        return None
    if isinstance(shape, PrimitiveShape):
        return leaf(shape.node, raw) if leaf is not None else raw
    if isinstance(shape, StructShape):
        return {f.node.name: to_logical(f, raw.get(f.node.name), leaf=leaf) for f in shape.fields}
    if isinstance(shape, ListShape):
        occurrences = raw if shape.rule == "unannotated" else raw[shape.repeated.name]
        if shape.element_field is None:
            return [to_logical(shape.element, o, leaf=leaf) for o in occurrences]
        return [to_logical(shape.element, o.get(shape.element_field), leaf=leaf) for o in occurrences]
    key_name, value_name = _key_value_names(shape)
    return [
        (
            to_logical(shape.key, o.get(key_name), leaf=leaf),
            None if shape.value is None else to_logical(shape.value, o.get(value_name), leaf=leaf),
        )
        for o in raw[shape.key_value.name]
    ]


def from_logical(shape: Shape, value: Any, *, leaf: LeafHook | None = None, where: str = "value") -> Any:
    """The raw-tree value for logical ``value``; ``ValueError`` naming ``where``
    (extended with field names and list indexes) when it does not fit."""
    if value is None:
        if shape.node.repetition == OPTIONAL:
            return None
        raise ValueError(f"{where}: None for a non-nullable {shape.node.repetition.name} field")  # type: ignore[union-attr]
    if isinstance(shape, PrimitiveShape):
        return leaf(shape.node, value) if leaf is not None else value
    if isinstance(shape, StructShape):
        if not isinstance(value, Mapping):
            raise ValueError(f"{where}: a struct value must be a dict, got {type(value).__name__}")
        names = {f.node.name for f in shape.fields}
        unknown = set(value) - names
        if unknown:
            raise ValueError(f"{where}: no such field(s): {sorted(unknown)}")
        return {
            f.node.name: from_logical(f, value.get(f.node.name), leaf=leaf, where=f"{where}.{f.node.name}")
            for f in shape.fields
        }
    if isinstance(shape, ListShape):
        elements = _sequence(value, where, "a list")
        occurrences = []
        for index, element in enumerate(elements):
            raw = from_logical(shape.element, element, leaf=leaf, where=f"{where}[{index}]")
            occurrences.append(raw if shape.element_field is None else {shape.element_field: raw})
        return occurrences if shape.rule == "unannotated" else {shape.repeated.name: occurrences}
    pairs = list(value.items()) if isinstance(value, Mapping) else _sequence(value, where, "a map")
    key_name, value_name = _key_value_names(shape)
    occurrences = []
    for index, pair in enumerate(pairs):
        if not isinstance(pair, tuple | list) or len(pair) != 2:
            raise ValueError(f"{where}[{index}]: a map entry must be a (key, value) pair, got {pair!r}")
        key, item = pair
        entry = {key_name: from_logical(shape.key, key, leaf=leaf, where=f"{where}[{index}].key")}
        if shape.value is not None and value_name is not None:  # (both or neither)
            entry[value_name] = from_logical(shape.value, item, leaf=leaf, where=f"{where}[{index}].value")
        elif item is not None:
            raise ValueError(f"{where}[{index}]: this map has no value field, the value must be None")
        occurrences.append(entry)
    return {shape.key_value.name: occurrences}


def records_to_logical(
    tree: SchemaNode | StructShape, records: Sequence[Mapping[str, Any]], *, leaf: LeafHook | None = None
) -> list[dict[str, Any]]:
    """Assembled records (raw tree) -> rows of logical values, one dict each."""
    shape = tree if isinstance(tree, StructShape) else logical_shape(tree)
    return [to_logical(shape, record, leaf=leaf) for record in records]


def records_from_logical(
    tree: SchemaNode | StructShape, rows: Sequence[Mapping[str, Any]], *, leaf: LeafHook | None = None
) -> list[dict[str, Any]]:
    """Rows of logical values -> records of the raw tree, ready to shred."""
    shape = tree if isinstance(tree, StructShape) else logical_shape(tree)
    return [from_logical(shape, row, leaf=leaf, where=f"row {index}") for index, row in enumerate(rows)]


def groups_where(
    shape: Shape, value: Any, path: str, wanted: Callable[[SchemaNode], bool]
) -> Iterator[tuple[str, StructShape, Any]]:
    """Every group under ``shape`` (itself included) whose node is ``wanted`` (e.g. FILE-annotated),
    with its dotted path and each of its non-null values in ``value`` (a logical value of
    ``shape``: one per list element and map entry). A wanted group is not looked into."""
    if value is None:
        return
    if isinstance(shape, StructShape) and wanted(shape.node):
        yield path, shape, value
    elif isinstance(shape, StructShape):
        for f in shape.fields:
            yield from groups_where(f, value.get(f.node.name), f"{path}.{f.node.name}", wanted)
    elif isinstance(shape, ListShape):
        for element in value:
            yield from groups_where(shape.element, element, path, wanted)
    elif isinstance(shape, MapShape):
        for key, item in value:
            yield from groups_where(shape.key, key, path, wanted)
            if shape.value is not None:
                yield from groups_where(shape.value, item, path, wanted)


def _key_value_names(shape: MapShape) -> tuple[str, str | None]:
    fields = shape.key_value.children or ()
    return fields[0].name, fields[1].name if len(fields) == 2 else None


def _sequence(value: Any, where: str, what: str) -> Sequence[Any]:
    if isinstance(value, str | bytes | bytearray | Mapping) or not isinstance(value, Sequence):
        raise ValueError(f"{where}: {what} must be a list, got {type(value).__name__}")
    return value


# ---------------------------------------------------------------------------
# Schema builders for every list and map shape
# ---------------------------------------------------------------------------

LIST_STYLES = ("three_level", "two_level", "array", "tuple", "unannotated")
MAP_STYLES = ("standard", "map_key_value", "map_key_value_inner", "misnamed")
ANNOTATIONS = ("both", "logical_type", "converted_type")


def list_node(
    name: str,
    element: SchemaNode,
    *,
    repetition: FieldRepetitionType,
    style: str = "three_level",
    annotation: str = "both",
    repeated_name: str | None = None,
    element_name: str | None = None,
) -> SchemaNode:
    """A list field whose elements are of ``element``'s type (its name is
    replaced; its repetition is the element's nullability).

    ``style`` (LogicalTypes.md 'Lists', then the legacy shapes of its
    'Backward-compatibility rules'):

    * ``three_level`` (default, the only one writers should produce)::

        <repetition> group <name> (LIST) { repeated group list { <element-rep> <type> element; } }

      ``repeated_name``/``element_name`` override ``list``/``element`` (the
      spec's "repeated group element { required binary str; }" example);
    * ``two_level``: ``<repetition> group <name> (LIST) { repeated <type> element; }``
      (rule 1 for a primitive, 2 or 3 for a group);
    * ``array``: the same with the repeated field named ``array`` (rule 4 for a
      one-field group; parquet-avro's old layout);
    * ``tuple``: the same named ``<name>_tuple`` (rule 4; parquet-thrift's);
    * ``unannotated``: ``repeated <type> <name>;`` with no LIST group ('Nested
      Types'); ``repetition`` must be REQUIRED.

    The legacy styles hold required elements only. ``annotation``: ``both``
    (LogicalType LIST and ConvertedType LIST), ``logical_type`` or
    ``converted_type`` (older writers).
    """
    if style not in LIST_STYLES:
        raise ValueError(f"list style must be one of {LIST_STYLES}, not {style!r}")
    element_repetition = _nullability(element, "element")
    if style == "three_level":
        element_name = element_name or "element"
        element = _renamed(element, element_name, element_repetition)
        inner = group(repeated_name or "list", [element], repetition=REPEATED)
        node = _annotated_group(name, [inner], repetition, "LIST", annotation)
        return _checked_list(node, element_field=element_name)
    if element.repetition != REQUIRED:
        raise ValueError(f"a {style} list holds required elements only (LogicalTypes.md rules 1-4)")
    if style == "unannotated":
        if repetition != REQUIRED:
            raise ValueError("an unannotated repeated field is a required list: repetition must be REQUIRED")
        return _renamed(element, name, REPEATED)
    default_name = {"two_level": "element", "array": "array", "tuple": f"{name}_tuple"}[style]
    inner = _renamed(element, repeated_name or default_name, REPEATED)
    return _checked_list(_annotated_group(name, [inner], repetition, "LIST", annotation), element_field=None)


def map_node(
    name: str,
    key: SchemaNode,
    value: SchemaNode | None,
    *,
    repetition: FieldRepetitionType,
    style: str = "standard",
    annotation: str = "both",
    key_value_name: str | None = None,
    key_name: str | None = None,
    value_name: str | None = None,
) -> SchemaNode:
    """A map field from ``key``'s type (must be REQUIRED) to ``value``'s (its
    repetition is the value's nullability; ``None``: a map without a value
    field, "a set of keys").

    ``style`` (LogicalTypes.md 'Maps', then 'Backward-compatibility rules'):

    * ``standard``: ``<repetition> group <name> (MAP) { repeated group key_value
      { required <key-type> key; <value-rep> <value-type> value; } }``
    * ``map_key_value``: the spec's ``optional group my_map (MAP_KEY_VALUE) {
      repeated group map { ... } }`` (ConvertedType only: MAP_KEY_VALUE has no
      LogicalType);
    * ``map_key_value_inner``: a MAP group whose key-value group is annotated
      MAP_KEY_VALUE (what old parquet-java wrote);
    * ``misnamed``: a MAP whose groups are named ``map``, ``map_key`` and
      ``map_value`` (keys and values "identified by their position").

    ``key_value_name``, ``key_name``, ``value_name`` override any style's names.
    """
    if style not in MAP_STYLES:
        raise ValueError(f"map style must be one of {MAP_STYLES}, not {style!r}")
    if key.repetition != REQUIRED:
        raise ValueError("a map key must be REQUIRED ('Maps')")
    value_repetition = None if value is None else _nullability(value, "value")
    names = {
        "standard": ("key_value", "key", "value"),
        "map_key_value": ("map", "key", "value"),
        "map_key_value_inner": ("map", "key", "value"),
        "misnamed": ("map", "map_key", "map_value"),
    }[style]
    kv_name, k_name, v_name = key_value_name or names[0], key_name or names[1], value_name or names[2]
    fields = [_renamed(key, k_name, REQUIRED)]
    if value is not None and value_repetition is not None:  # (both or neither)
        fields.append(_renamed(value, v_name, value_repetition))
    inner_annotation = ConvertedType.MAP_KEY_VALUE if style == "map_key_value_inner" else None
    key_value = group(kv_name, fields, repetition=REPEATED, converted_type=inner_annotation)
    if style == "map_key_value":
        node = group(name, [key_value], repetition=repetition, converted_type=ConvertedType.MAP_KEY_VALUE)
    else:
        node = _annotated_group(name, [key_value], repetition, "MAP", annotation)
    shape = _Shaper(None).type(node, (name,))
    if not isinstance(shape, MapShape):  # pragma: no cover - the builders above guarantee it
        raise AssertionError(f"{node!r} does not read back as a map")
    return node


def _annotated_group(
    name: str, children: list[SchemaNode], repetition: FieldRepetitionType, kind: str, annotation: str
) -> SchemaNode:
    if annotation not in ANNOTATIONS:
        raise ValueError(f"annotation must be one of {ANNOTATIONS}, not {annotation!r}")
    logical = LogicalType(LIST=ListType()) if kind == "LIST" else LogicalType(MAP=MapType())
    converted = ConvertedType.LIST if kind == "LIST" else ConvertedType.MAP
    return group(
        name,
        children,
        repetition=repetition,
        logical_type=logical if annotation in ("both", "logical_type") else None,
        converted_type=converted if annotation in ("both", "converted_type") else None,
    )


def _nullability(node: SchemaNode, what: str) -> FieldRepetitionType:
    """A list element's or map value's repetition, which says whether it is nullable."""
    repetition = node.repetition
    if repetition not in (REQUIRED, OPTIONAL):
        raise ValueError(f"the {what}'s repetition is its nullability: REQUIRED or OPTIONAL")
    return repetition


def _renamed(node: SchemaNode, name: str, repetition: FieldRepetitionType) -> SchemaNode:
    return SchemaNode(
        name=name,
        repetition=repetition,
        children=node.children,
        physical_type=node.physical_type,
        type_length=node.type_length,
        logical_type=node.logical_type,
        converted_type=node.converted_type,
        scale=node.scale,
        precision=node.precision,
        field_id=node.field_id,
    )


def _checked_list(node: SchemaNode, *, element_field: str | None) -> SchemaNode:
    """Read ``node`` back with the reading rules: the element must be the one meant."""
    shape = _Shaper(None).type(node, (node.name,))
    assert isinstance(shape, ListShape)
    if shape.element_field != element_field:
        meant = "the repeated field" if element_field is None else f"its child {element_field!r}"
        found = "the repeated field" if shape.element_field is None else f"its child {shape.element_field!r}"
        raise ValueError(
            f"this shape would not round-trip: the element is {meant}, but readers apply rule "
            f"{shape.rule} of 'Lists > Backward-compatibility rules' and take {found}; "
            f"use another style or repeated_name (e.g. 'array' or 'tuple' for a one-field group)"
        )
    return node
