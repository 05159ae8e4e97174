"""Table shapes the cases of both formats write: a null and an empty container at every
level of a nested type, type trees nested to any depth, map keys that collide once a
reader converts them with loss, and table widths.

Neither format's cases own them: a Parquet LIST, MAP and group (LogicalTypes.md, 'Nested
Types'; README.md, 'Nested Encoding') and an ORC LIST, MAP and STRUCT (ORCv1.md, 'Type
Information') hold the same canonical values, and a reader that moves a null one level,
reads an empty list as a null one, or merges two keys is wrong in either format. Each
format's `shapes` module builds its types with its own constructors and these values.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

from conformance.values import DataType, Field

# One non-null value of each scalar kind the shapes use; keys are numbered to stay distinct.
_SCALAR_SAMPLES = {"int": 7, "string": "s", "float": 1.5, "boolean": True}
_KEY_OF = {"int": lambda i: i, "string": lambda i: f"k{i}"}
NULL_PAIR = [None, None]  # a container holding nothing but nulls

# Map keys equal after a lossy conversion, and distinct in the file (docs/canonical-values.md
# compares floats by their bits). 0.0 and -0.0 are equal as numbers; every NaN is unequal to
# itself, so one NaN key per map. 2^53 + 1 is not a JS number, it rounds to 2^53.
JS_SAFE_LIMIT = 2**53
DOUBLE_KEY_MAPS: list[list[tuple[float, Any]]] = [
    [(0.0, 1), (-0.0, 2)], [(-0.0, 3), (0.0, 4)], [(float("nan"), 5), (0.0, 6), (-0.0, 7)],
    [(float("inf"), 8), (float("-inf"), 9)],
]
BIGINT_KEY_MAPS: list[list[tuple[int, Any]]] = [
    [(JS_SAFE_LIMIT, "2^53"), (JS_SAFE_LIMIT + 1, "2^53+1")],
    [(-JS_SAFE_LIMIT - 1, "-2^53-1"), (-JS_SAFE_LIMIT, "-2^53")],
    [(2**63 - 1, "max"), (2**63 - 2, "max-1"), (-(2**63), "min")],
]
# Keys a JS object treats specially: inherited names, and integer-like names it orders
# first and ascending whatever the insertion order (ECMA-262 OrdinaryOwnPropertyKeys).
STRING_KEY_MAPS: list[list[tuple[str, Any]]] = [
    [("__proto__", 1), ("constructor", 2), ("toString", 3), ("hasOwnProperty", 4)],
    [("b", 1), ("10", 2), ("2", 3), ("a", 4), ("1", 5)],
    [("1", 1), ("01", 2), ("1.0", 3), ("-0", 4), ("0", 5)],
]
INT_KEY_MAPS: list[list[tuple[int, Any]]] = [[(2, "two"), (1, "one"), (10, "ten"), (-1, "minus one")]]


def every_level(t: DataType, nullable: bool) -> list[Any]:
    """Values of `t` putting, at each level in turn, a null (where the level may be null)
    and an empty list or map, beside values that fill the level: a null list, a list of
    nulls, a null struct in a list, a struct of nulls, a null map, a map of null values,
    and each of them again at every depth below. Their count and size grow with the depth
    of `t`, not exponentially: around each shape the other levels hold one filled value."""
    own: list[Any] = [None] if nullable else []
    match t.kind:
        case "list":
            element = t.list_element
            own += [[], *([v] for v in every_level(element.type, element.nullable))]
            if element.nullable:
                own += [list(NULL_PAIR), [filled(element.type), None, filled(element.type)]]
        case "map":
            key, value = t.map_key.type, t.map_value
            own += [[], *([(_KEY_OF[key.kind](0), v)] for v in every_level(value.type, value.nullable))]
            if value.nullable:
                own.append([(_KEY_OF[key.kind](0), None), (_KEY_OF[key.kind](1), filled(value.type))])
        case "struct":
            own += list(_struct_values(t.fields))
        case _:
            own.append(_SCALAR_SAMPLES[t.kind])
    return own


def filled(t: DataType) -> Any:
    """A value of `t` with no null and no empty container at any level: one of each."""
    match t.kind:
        case "list":
            return [filled(t.list_element.type)]
        case "map":
            return [(_KEY_OF[t.map_key.type.kind](0), filled(t.map_value.type))]
        case "struct":
            return {f.name: filled(f.type) for f in t.fields}
    return _SCALAR_SAMPLES[t.kind]


def _struct_values(fields: tuple[Field, ...]) -> Iterator[dict[str, Any]]:
    """A struct of nulls, then a struct per value of each field in turn, the other fields
    filled."""
    full = {f.name: filled(f.type) for f in fields}
    if all(f.nullable for f in fields):
        yield dict.fromkeys(full)  # for a struct without fields: the empty struct
    for f in fields:
        for v in every_level(f.type, f.nullable):
            yield {**full, f.name: v}


def cycled(values: list[Any], count: int) -> list[Any]:
    """`count` values, `values` over and over: many rows of few shapes."""
    return [values[i % len(values)] for i in range(count)]


Nest = Callable[[DataType, int], DataType]  # (child type, level) -> the type one level up
Columns = tuple[tuple[Field, ...], list[list[Any]]]  # fields, and the values of each
ROWS = 600  # many rows of few shapes: the shapes meet each other and page or stripe boundaries
KEY_ROWS = 60
WIDE_ROWS = 3


def nested(leaf: DataType, depth: int, nest: Nest) -> DataType:
    """`leaf` wrapped `depth` times by `nest`, innermost first."""
    t = leaf
    for level in range(depth):
        t = nest(t, level)
    return t


def lists_and_structs(leaf: DataType, depth: int, types: ModuleType) -> DataType:
    """`depth` levels of lists and single-field structs by turns around `leaf`, a struct
    innermost. `types` is the format's module of type constructors (its `list_of`,
    `struct_of`, ...)."""
    return nested(leaf, depth, lambda t, level: types.list_of(t) if level % 2 else
                  types.struct_of(Field("f", t, True)))


def element_struct(types: ModuleType) -> DataType:
    """A struct of a list and a scalar: a list of them holds a null struct, a struct of
    nulls and a null list in a struct."""
    return types.struct_of(Field("v", types.list_of(types.integer(32)), True),
                           Field("s", types.string(), True))


def every_level_fields(types: ModuleType) -> tuple[Field, ...]:
    """Three levels down, each kind of container inside each other (`every_level`)."""
    element = element_struct(types)
    point = types.struct_of(Field("r", types.integer(32), True))
    return (
        Field("l", types.list_of(types.list_of(element)), True),
        Field("m", types.map_of(types.string(), types.list_of(
            types.map_of(types.integer(32), types.integer(32)))), True),
        Field("s", types.struct_of(
            Field("p", types.struct_of(Field("q", types.list_of(point), True)), True),
            Field("m", types.map_of(types.string(), types.string()), True)), True),
    )


def every_level_columns(fields: tuple[Field, ...], count: int) -> Columns:
    """`count` rows of `fields`, each column cycling through `every_level`."""
    return fields, [cycled(every_level(f.type, f.nullable), count) for f in fields]


def colliding_key_columns(types: ModuleType) -> Columns:
    """A map column per kind of colliding key; between the colliding maps a null map, an
    empty one and one whose value is null."""
    maps = ((types.floating(64), DOUBLE_KEY_MAPS), (types.floating(32), DOUBLE_KEY_MAPS),
            (types.integer(64), BIGINT_KEY_MAPS), (types.string(), STRING_KEY_MAPS),
            (types.integer(32), INT_KEY_MAPS))
    fields = tuple(Field(f"m{i}", types.map_of(key, types.string() if key.kind == "int"
                                               else types.integer(32)), True)
                   for i, (key, _) in enumerate(maps))
    columns = [cycled([*entries, None, [], [(entries[0][0][0], None)]], KEY_ROWS)
               for _, entries in maps]
    return fields, columns


def wide_columns(count: int, types: ModuleType) -> Columns:
    """`count` nullable scalar columns of `WIDE_ROWS` rows, a null on a diagonal."""
    kinds = (types.integer(32), types.string(), types.floating(64))
    fields = tuple(Field(f"c{i:05d}", kinds[i % len(kinds)], True) for i in range(count))
    columns = [[None if (i + row) % len(kinds) == 0 else filled(f.type) for row in range(WIDE_ROWS)]
               for i, f in enumerate(fields)]
    return fields, columns
