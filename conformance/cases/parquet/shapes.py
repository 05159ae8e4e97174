"""Shapes of a table: nulls and empty lists and maps at every nesting level, map keys that
collide after a lossy conversion, very deep nesting, very wide schemas, a row group per row.

Spec: README.md 'Nested Encoding' (a null at one level and an empty list are different
definition levels, and every level of a deep tree is one more level to count);
LogicalTypes.md 'Nested Types', 'Lists', 'Maps' ("The key field ... must always be
present"; keys are distinct values, and 0.0 and -0.0 are two FLOAT values);
parquet.thrift `struct SchemaElement` (a wide schema is a long flat list) and
README.md 'Configurations' (a row group per row).

A group without children cannot hold a value: only leaf columns store definition levels
('Nested Encoding'), so nothing says whether an empty group, or a list of them, is null,
empty or how long. No case writes one (the reference writer refuses it and every writer
measured does too); the file a writer could still produce is the bad file
`schema/group-without-children` of the corpus (docs/lenient-readings.md).

The cases of `nested.py` hold one shape per row; these hold every shape of a type tree,
over many rows, three levels down.
"""

from __future__ import annotations

from typing import Any

from conformance.values import DataType, Field, Schema
from conformance.values import types as T
from reference_impl.parquet.schema.tree import MAX_NESTING_DEPTH

from ..model import Case, WriteOptions
from ..shapes import (
    BIGINT_KEY_MAPS,
    DOUBLE_KEY_MAPS,
    INT_KEY_MAPS,
    STRING_KEY_MAPS,
    cycled,
    every_level,
    nested,
)
from .nested import SPEC_LISTS, SPEC_MAPS, SPEC_NESTED

AREA = "shapes"
SPEC_NESTED_TYPES = "LogicalTypes.md: Nested Types"
SPEC_SCHEMA = "parquet.thrift: struct SchemaElement"
SPEC_ROW_GROUPS = "README.md: Configurations"
ROWS = 600  # many rows of few shapes: the shapes meet each other and page boundaries
KEY_ROWS = 60
DEEP = 32
# The deepest schemas the reference reads (`MAX_NESTING_DEPTH` schema levels below the
# root, the leaf one of them): a LIST is two levels (the annotated group and its repeated
# group), a struct one. Past 64, a depth some implementations cap.
STRUCT_LEVELS, LIST_LEVELS = 1, 2
DEEPEST_STRUCTS = MAX_NESTING_DEPTH - 1
DEEPEST_PAIRS = (MAX_NESTING_DEPTH - 1) // (STRUCT_LEVELS + LIST_LEVELS)  # a list and a struct
WIDE = (1_000,)
WIDE_ROWS = 3
ROW_GROUP_ROWS = 200
WIDE_TYPES = (T.integer(32), T.string(), T.floating(64))
WIDE_VALUES = (7, "s", 1.5)

_ELEMENT = T.struct_of(Field("v", T.list_of(T.integer(32)), True), Field("s", T.string(), True))
# Three levels down, each kind of container inside each other.
EVERY_LEVEL = (
    Field("l", T.list_of(T.list_of(_ELEMENT)), True),
    Field("m", T.map_of(T.string(), T.list_of(T.map_of(T.integer(32), T.integer(32)))), True),
    Field("s", T.struct_of(
        Field("p", T.struct_of(Field("q", T.list_of(T.struct_of(Field("r", T.integer(32), True))),
                                     True)), True),
        Field("m", T.map_of(T.string(), T.string()), True)), True),
)


def _case(name: str, title: str, spec: tuple[str, ...], fields: tuple[Field, ...],
          columns: list[list[Any]], options: WriteOptions | None = None) -> Case:
    """An id column beside `fields`, whose values are `columns` (one list per field)."""
    schema = Schema((Field("id", T.integer(32), False), *fields))
    rows = tuple((i, *row) for i, row in enumerate(zip(*columns, strict=True)))
    return Case(f"{AREA}/{name}", title, (SPEC_NESTED, *spec), schema, rows,
                options or WriteOptions(encoding=None))


def _every_level(fields: tuple[Field, ...], count: int) -> list[list[Any]]:
    return [cycled(every_level(f.type, f.nullable), count) for f in fields]


def _colliding_keys() -> Case:
    maps = ((T.floating(64), DOUBLE_KEY_MAPS), (T.floating(32), DOUBLE_KEY_MAPS),
            (T.integer(64), BIGINT_KEY_MAPS), (T.string(), STRING_KEY_MAPS),
            (T.integer(32), INT_KEY_MAPS))
    fields = tuple(Field(f"m{i}", T.map_of(key, T.integer(32) if key.kind != "int" else T.string()),
                         True) for i, (key, _) in enumerate(maps))
    # A null map and an empty one between the colliding ones; a null value in each map.
    columns = [cycled([*entries, None, [], [(entries[0][0][0], None)]], KEY_ROWS)
               for _, entries in maps]
    return _case("map-colliding-keys", "maps whose keys collide after a lossy conversion: 0.0 "
                 "and -0.0, NaN, 2^53 and 2^53+1, __proto__, integer-like strings, integer keys",
                 (SPEC_MAPS,), fields, columns)


def _deep(name: str, title: str, t: DataType) -> Case:
    field = Field("d", t, True)
    return _case(name, title, (SPEC_LISTS, SPEC_NESTED_TYPES), (field,),
                 [every_level(t, True)])


def _deep_cases() -> list[Case]:
    lists = nested(T.integer(32), DEEP, lambda t, _: T.list_of(t))
    structs = nested(T.integer(32), DEEP, lambda t, _: T.struct_of(Field("f", t, True)))
    deepest = nested(T.integer(32), DEEPEST_STRUCTS, lambda t, _: T.struct_of(Field("f", t, True)))
    mixed = nested(T.integer(32), 2 * DEEPEST_PAIRS, lambda t, level: T.list_of(t) if level % 2 else
                   T.struct_of(Field("f", t, True)))
    return [
        _deep(f"deep-list-{DEEP}", f"{DEEP} lists in each other: a null and an empty list at each "
              "level", lists),
        _deep(f"deep-struct-{DEEP}", f"{DEEP} structs in each other: a null at each level", structs),
        _deep(f"deep-struct-{DEEPEST_STRUCTS}", f"{DEEPEST_STRUCTS} structs in each other "
              f"({MAX_NESTING_DEPTH} schema levels): a null at each level", deepest),
        _deep(f"deep-list-struct-{2 * DEEPEST_PAIRS}", f"{DEEPEST_PAIRS} lists and {DEEPEST_PAIRS} "
              "structs by turns: a null and an empty list at each level", mixed),
    ]


def _wide(columns: int) -> Case:
    fields = tuple(Field(f"c{i:05d}", WIDE_TYPES[i % len(WIDE_TYPES)], True) for i in range(columns))
    values = [[None if (i + row) % len(WIDE_TYPES) == 0 else WIDE_VALUES[i % len(WIDE_TYPES)]
               for row in range(WIDE_ROWS)] for i in range(columns)]
    return _case(f"wide-{columns}", f"{columns} top-level columns, {WIDE_ROWS} rows",
                 (SPEC_SCHEMA,), fields, values)


def cases() -> list[Case]:
    row_group_field = (Field("l", T.list_of(_ELEMENT), True),)
    return [
        _case("nulls-and-empties-every-level", "a null and an empty list or map at each of three "
              f"levels of lists, maps and structs, over {ROWS} rows",
              (SPEC_LISTS, SPEC_MAPS, SPEC_NESTED_TYPES), EVERY_LEVEL, _every_level(EVERY_LEVEL, ROWS)),
        _colliding_keys(),
        *_deep_cases(),
        *(_wide(n) for n in WIDE),
        _case("row-group-per-row", f"{ROW_GROUP_ROWS} rows of a list of structs, a row group each",
              (SPEC_LISTS, SPEC_ROW_GROUPS), row_group_field,
              _every_level(row_group_field, ROW_GROUP_ROWS), WriteOptions(encoding=None, row_group_size=1)),
    ]
