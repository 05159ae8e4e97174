"""The schema: the Footer's flattened list of types as a tree, and back.

ORCv1.md, 'Type Information': "The type tree is flattened in to a list via a pre-order
traversal where each type is assigned the next id. Clearly the root of the type tree is
always type id 0. Compound types have a field named subtypes that contains the list of
their children's type ids." orc_proto.proto message Type gives the fields.

Checks on the list read from a file (each a :class:`CorruptMetadata`):

* every subtype id is the next id of the pre-order walk, so ids are in range, each type
  has one parent, there is no cycle, and every listed type belongs to the tree;
* a STRUCT has one field name per subtype (names unique: rows are dicts by name),
  a LIST one subtype, a MAP two, a UNION 1 to 256 ('Union Columns'), any other kind none;
* type 0 may be of any kind: the text only says the root is id 0, and ORC Java writes
  files whose root is a bare TIMESTAMP or BIGINT. Rows are dicts by field name either
  way: :func:`row_struct` puts a STRUCT of one field, :data:`ROOT_FIELD`, around such
  a root (reader.py reads it so, writer.py writes it from such rows);
* CHAR and VARCHAR carry a maximum_length of at least 1 ("the maximum length of the
  type for varchar or char in UTF-8 characters");
* DECIMAL: precision 1 to 38 and scale <= precision ('Decimal Columns': "In Hive 0.13,
  the definition was change to limit the precision to a maximum of 38 digits"). A
  precision that is absent or 0 is the Hive 0.11 decimal of unbounded precision; its
  column scale is the Type's scale, or ORC Java's default of 10 when that is absent too;
* GEOMETRY and GEOGRAPHY carry their ``crs`` (ORCv2.md, 'Coordinate Reference System':
  absent is the default, ``OGC:CRS84``, kept as absent); GEOGRAPHY its ``algorithm``
  ('Edge Interpolation Algorithm'; absent kept as absent), and a number that is no
  EdgeInterpolationAlgorithm is :class:`UnsupportedFeature` (a newer text's algorithm:
  no edge of such a value can be drawn).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reference_impl.orc.errors import CorruptMetadata, UnsupportedFeature
from reference_impl.orc.metadata.orc_proto import Type
from reference_impl.orc.metadata.proto_enums import EdgeInterpolationAlgorithm, TypeKind

__all__ = [
    "HIVE11_DEFAULT_SCALE",
    "MAX_DECIMAL_PRECISION",
    "MAX_NESTING_DEPTH",
    "MAX_UNION_VARIANTS",
    "ROOT_FIELD",
    "TypeNode",
    "char",
    "decimal",
    "from_types",
    "geography",
    "geometry",
    "list_of",
    "map_of",
    "numbered",
    "primitive",
    "row_struct",
    "struct",
    "to_types",
    "union_of",
    "varchar",
]

MAX_DECIMAL_PRECISION = 38
HIVE11_DEFAULT_SCALE = 10  # ORC Java's TypeDescription default scale
MAX_UNION_VARIANTS = 256  # 'Union Columns': "limited to 256 variants"
# Readers and writers recurse along the tree; deeper schemas are refused, not crashed on.
MAX_NESTING_DEPTH = 100
# The one field of the rows of a file whose root is not a STRUCT: ORC Java's and Hive's
# name for an unnamed column.
ROOT_FIELD = "_col0"
_CHILD_COUNTS = {TypeKind.LIST: 1, TypeKind.MAP: 2}
_COMPOUND = frozenset({TypeKind.LIST, TypeKind.MAP, TypeKind.STRUCT, TypeKind.UNION})
_STRING_LIKE_WITH_LENGTH = frozenset({TypeKind.CHAR, TypeKind.VARCHAR})
GEOSPATIAL_KINDS = frozenset({TypeKind.GEOMETRY, TypeKind.GEOGRAPHY})


@dataclass(frozen=True)
class TypeNode:
    """One type of the schema with its children; ``column_id`` is its pre-order id.

    ``precision`` None on a DECIMAL is the Hive 0.11 decimal of unbounded precision;
    ``crs`` (GEOMETRY, GEOGRAPHY) and ``algorithm`` (GEOGRAPHY) None are absent.
    """

    kind: TypeKind
    children: tuple[TypeNode, ...] = ()
    field_names: tuple[str, ...] = ()
    maximum_length: int | None = None
    precision: int | None = None
    scale: int | None = None
    crs: str | None = None
    algorithm: EdgeInterpolationAlgorithm | None = None
    column_id: int = 0

    def walk(self) -> Iterator[TypeNode]:
        """This node and its descendants in pre-order: the order of the column ids."""
        yield self
        for child in self.children:
            yield from child.walk()

    def describe(self) -> str:
        """The kind and column id, for messages."""
        return f"column {self.column_id} ({self.kind.name})"


def row_struct(root: TypeNode) -> TypeNode:
    """The STRUCT the rows are dicts of: ``root``, or one field :data:`ROOT_FIELD` around a
    root of another kind (that field's node is the root itself, column 0)."""
    return root if root.kind == TypeKind.STRUCT else TypeNode(TypeKind.STRUCT, (root,), (ROOT_FIELD,))


# Constructors for schemas built in code; numbered() assigns the column ids.

def primitive(kind: TypeKind) -> TypeNode:
    return TypeNode(kind)


def char(maximum_length: int) -> TypeNode:
    return TypeNode(TypeKind.CHAR, maximum_length=maximum_length)


def varchar(maximum_length: int) -> TypeNode:
    return TypeNode(TypeKind.VARCHAR, maximum_length=maximum_length)


def decimal(precision: int | None, scale: int) -> TypeNode:
    return TypeNode(TypeKind.DECIMAL, precision=precision, scale=scale)


def geometry(crs: str | None = None) -> TypeNode:
    return TypeNode(TypeKind.GEOMETRY, crs=crs)


def geography(crs: str | None = None, algorithm: EdgeInterpolationAlgorithm | None = None) -> TypeNode:
    return TypeNode(TypeKind.GEOGRAPHY, crs=crs, algorithm=algorithm)


def struct(fields: Mapping[str, TypeNode] | Sequence[tuple[str, TypeNode]]) -> TypeNode:
    pairs = list(fields.items()) if isinstance(fields, Mapping) else list(fields)
    return TypeNode(TypeKind.STRUCT, tuple(node for _, node in pairs), tuple(name for name, _ in pairs))


def list_of(element: TypeNode) -> TypeNode:
    return TypeNode(TypeKind.LIST, (element,))


def map_of(key: TypeNode, value: TypeNode) -> TypeNode:
    return TypeNode(TypeKind.MAP, (key, value))


def union_of(*variants: TypeNode) -> TypeNode:
    return TypeNode(TypeKind.UNION, variants)


def numbered(root: TypeNode) -> TypeNode:
    """The tree with pre-order column ids, after the same checks a file's types get."""
    return from_types(to_types(root))


def to_types(root: TypeNode) -> list[Type]:
    """The Footer's flattened, pre-order list of ``root``."""
    types: list[Type] = []
    _flatten(root, types)
    return types


def _flatten(node: TypeNode, types: list[Type]) -> None:
    message = Type(kind=node.kind, subtypes=[], field_names=list(node.field_names),
                   maximum_length=node.maximum_length, precision=node.precision, scale=node.scale,
                   crs=node.crs, algorithm=node.algorithm)
    types.append(message)
    for child in node.children:
        message.subtypes.append(len(types))
        _flatten(child, types)


def from_types(types: Sequence[Type], offset: int | None = None) -> TypeNode:
    """The tree of the Footer's ``types``; ``offset`` is the Footer's, for errors."""
    if not types:
        raise CorruptMetadata("the Footer lists no types", offset)
    root, next_id = _node(types, 0, offset, 0)
    if next_id != len(types):
        raise CorruptMetadata(f"types {next_id} to {len(types) - 1} are not in the type tree "
                              f"of type 0", offset)
    return root


def _node(types: Sequence[Type], type_id: int, offset: int | None, depth: int) -> tuple[TypeNode, int]:
    """The node of ``types[type_id]`` and the id after its subtree (pre-order)."""
    if depth > MAX_NESTING_DEPTH:
        raise UnsupportedFeature(f"type {type_id} is nested deeper than {MAX_NESTING_DEPTH} levels", offset)
    message = types[type_id]
    kind = _checked_kind(message.kind, type_id, offset)
    _check_subtype_count(kind, list(message.subtypes), type_id, offset)
    children = []
    next_id = type_id + 1
    for subtype in message.subtypes:
        if subtype != next_id or subtype >= len(types):
            raise CorruptMetadata(f"type {type_id} lists subtype {subtype}; the pre-order walk of "
                                  f"{len(types)} types has type {next_id} next", offset)
        child, next_id = _node(types, subtype, offset, depth + 1)
        children.append(child)
    node = TypeNode(kind, tuple(children), _field_names(kind, message, type_id, offset),
                    column_id=type_id, **_attributes(kind, message, type_id, offset))
    return node, next_id


def _checked_kind(kind: int | None, type_id: int, offset: int | None) -> TypeKind:
    if kind is None or kind not in TypeKind._value2member_map_:
        raise CorruptMetadata(f"type {type_id} has kind {kind}, not one of orc_proto.proto Type.Kind",
                              offset)
    return TypeKind(kind)


def _check_subtype_count(kind: TypeKind, subtypes: list[int], type_id: int, offset: int | None) -> None:
    count = len(subtypes)
    if kind in _CHILD_COUNTS and count != _CHILD_COUNTS[kind]:
        problem = f"{count} subtypes; a {kind.name} has {_CHILD_COUNTS[kind]}"
    elif kind == TypeKind.UNION and not 1 <= count <= MAX_UNION_VARIANTS:
        problem = f"{count} subtypes; a UNION has 1 to {MAX_UNION_VARIANTS}"
    elif kind not in _COMPOUND and count:
        problem = f"{count} subtypes; a {kind.name} has none"
    else:
        return
    raise CorruptMetadata(f"type {type_id} has {problem}", offset)


def _field_names(kind: TypeKind, message: Type, type_id: int, offset: int | None) -> tuple[str, ...]:
    names = tuple(message.field_names)
    if kind != TypeKind.STRUCT:
        return ()
    if len(names) != len(message.subtypes):
        raise CorruptMetadata(f"STRUCT type {type_id} has {len(names)} field names for "
                              f"{len(message.subtypes)} subtypes", offset)
    if len(set(names)) != len(names):
        raise CorruptMetadata(f"STRUCT type {type_id} repeats a field name: {list(names)}", offset)
    return names


def _attributes(kind: TypeKind, message: Type, type_id: int, offset: int | None) -> dict[str, Any]:
    """maximum_length of CHAR/VARCHAR, precision and scale of DECIMAL, crs and algorithm of
    GEOMETRY/GEOGRAPHY; None elsewhere."""
    if kind in GEOSPATIAL_KINDS:
        return _geospatial(kind, message, type_id, offset)
    if kind in _STRING_LIKE_WITH_LENGTH:
        if not message.maximum_length:
            raise CorruptMetadata(f"{kind.name} type {type_id} has maximum_length "
                                  f"{message.maximum_length}; it must be at least 1", offset)
        return {"maximum_length": message.maximum_length}
    if kind != TypeKind.DECIMAL:
        return {}
    precision = message.precision or None  # absent or 0: the Hive 0.11 decimal
    scale = message.scale if message.scale is not None else HIVE11_DEFAULT_SCALE
    bound = precision if precision is not None else MAX_DECIMAL_PRECISION
    if precision is not None and precision > MAX_DECIMAL_PRECISION or scale > bound:
        raise CorruptMetadata(f"DECIMAL type {type_id} has precision {message.precision} and scale "
                              f"{message.scale}; precision is at most {MAX_DECIMAL_PRECISION} and "
                              f"scale at most the precision", offset)
    return {"precision": precision, "scale": scale}



def _geospatial(kind: TypeKind, message: Type, type_id: int, offset: int | None) -> dict[str, Any]:
    if kind == TypeKind.GEOMETRY or message.algorithm is None:
        return {"crs": message.crs}
    if message.algorithm not in EdgeInterpolationAlgorithm._value2member_map_:
        raise UnsupportedFeature(f"GEOGRAPHY type {type_id} has edge interpolation algorithm "
                                 f"{message.algorithm}, not one of orc_proto.proto "
                                 "Type.EdgeInterpolationAlgorithm", offset)
    return {"crs": message.crs, "algorithm": EdgeInterpolationAlgorithm(message.algorithm)}
