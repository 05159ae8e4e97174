"""Shapes of an ORC table: nulls and empty lists and maps at every nesting level, structs
without fields, map keys that collide after a lossy conversion, very deep type trees, very
wide schemas, a stripe per row.

Spec: ORCv1.md 'Type Information' (the type tree, flattened in pre-order: a deep tree is a
long chain of subtypes, a wide one a root with many; "Struct ... fields", and nothing asks
a STRUCT for at least one), 'Struct Columns', 'List Columns' and 'Map Columns' of 'Column
Encodings' (a compound column's PRESENT stream says which values are null; a null list
and an empty one differ only there, one has no LENGTH entry and the other a length of 0),
'Stripes' and 'Stripe Information' (a stripe per row).

The cases of `nested.py` hold one shape per row; these hold every shape of a type tree,
over many rows, three levels down (`conformance/cases/shapes.py`).

Measured: pyarrow and pyorc write and read 99 levels; Spark reads no more than its
analyzer's 100 resolution iterations allow ("Max iterations (100) reached for batch
Resolution"). Only the reference writes a stripe of no rows (OrcWriteOptions.empty_stripes).
"""

from __future__ import annotations

from conformance.values import DataType, Field, Schema
from reference_impl.orc.metadata.type_tree import MAX_NESTING_DEPTH

from ..model import Case
from ..shapes import (
    ROWS,
    Columns,
    colliding_key_columns,
    element_struct,
    every_level,
    every_level_columns,
    every_level_fields,
    lists_and_structs,
    nested,
    wide_columns,
)
from . import sections as S
from . import types as T
from .options import OrcWriteOptions

AREA = "orc/shapes"
DEEP = 32
# The deepest type trees the reference reads: MAX_NESTING_DEPTH types below the root
# STRUCT, the leaf one of them.
DEEPEST = MAX_NESTING_DEPTH - 1
WIDE = 1_000
STRIPE_ROWS = 200
EMPTY_STRIPES_ROWS, EMPTY_STRIPES_SIZE = 30, 10  # three stripes of rows, four empty ones
EMPTY = T.struct_of()
# Structs without fields at each level: alone, in a list, as a map's value, beside a field.
EMPTY_STRUCTS = (
    Field("e", EMPTY), Field("l", T.list_of(EMPTY)), Field("m", T.map_of(T.string(), EMPTY)),
    Field("s", T.struct_of(Field("a", T.integer(32)), Field("e", EMPTY))),
    Field("ll", T.list_of(T.list_of(EMPTY))),
)
NESTED_SPEC = (S.STRUCT_COLUMNS, S.LIST_COLUMNS, S.MAP_COLUMNS)


def _case(name: str, title: str, spec: tuple[str, ...], columns: Columns,
          options: OrcWriteOptions | None = None) -> Case:
    """An id column beside the `columns`."""
    fields, values = columns
    schema = Schema((Field("id", T.integer(32)), *fields))
    rows = tuple((i, *row) for i, row in enumerate(zip(*values, strict=True)))
    return Case(f"{AREA}/{name}", title, (S.TYPE_INFORMATION, *spec), schema, rows,
                options or OrcWriteOptions(), format="orc")


def _deep(name: str, title: str, t: DataType) -> Case:
    return _case(name, title, (S.STRUCT_COLUMNS, S.LIST_COLUMNS),
                 ((Field("d", t),), [every_level(t, True)]))


def _deep_cases() -> list[Case]:
    leaf = T.integer(32)
    return [
        _deep(f"deep-list-{DEEP}", f"{DEEP} lists in each other: a null and an empty list at each "
              "level", nested(leaf, DEEP, lambda t, _: T.list_of(t))),
        _deep(f"deep-struct-{DEEP}", f"{DEEP} structs in each other: a null at each level",
              nested(leaf, DEEP, lambda t, _: T.struct_of(Field("f", t)))),
        _deep(f"deep-list-struct-{DEEPEST}", f"{DEEPEST} levels of lists and structs by turns "
              f"({MAX_NESTING_DEPTH} types below the root): a null and an empty list at each level",
              lists_and_structs(leaf, DEEPEST, T)),
    ]


def cases() -> list[Case]:
    stripe_field = (Field("l", T.list_of(element_struct(T))),)
    return [
        _case("nulls-and-empties-every-level", "a null and an empty list or map at each of three "
              f"levels of lists, maps and structs, over {ROWS} rows", NESTED_SPEC,
              every_level_columns(every_level_fields(T), ROWS)),
        _case("empty-structs", "STRUCT without fields: alone, in a list, in a list of lists, as "
              "a map value and beside a field; null and present", NESTED_SPEC,
              every_level_columns(EMPTY_STRUCTS, ROWS)),
        _case("map-colliding-keys", "maps whose keys collide after a lossy conversion: 0.0 and "
              "-0.0, NaN, 2^53 and 2^53+1, __proto__, integer-like strings, integer keys",
              (S.MAP_COLUMNS,), colliding_key_columns(T)),
        *_deep_cases(),
        _case(f"wide-{WIDE}", f"{WIDE} top-level columns", (), wide_columns(WIDE, T)),
        _case("stripe-per-row", f"{STRIPE_ROWS} rows of a list of structs, a stripe each",
              (S.LIST_COLUMNS, S.STRIPES, S.STRIPE_INFORMATION),
              every_level_columns(stripe_field, STRIPE_ROWS), OrcWriteOptions(stripe_row_limit=1)),
        *_empty_stripes(stripe_field),
    ]


def _empty_stripes(fields: tuple[Field, ...]) -> list[Case]:
    """Stripes of no rows around and between full ones, and as a table's only one."""
    spec = (S.LIST_COLUMNS, S.STRIPES, S.STRIPE_INFORMATION)
    return [
        _case("empty-stripes", f"{EMPTY_STRIPES_ROWS} rows in stripes of {EMPTY_STRIPES_SIZE}, a "
              "stripe of no rows before, between and after them", spec,
              every_level_columns(fields, EMPTY_STRIPES_ROWS),
              OrcWriteOptions(stripe_row_limit=EMPTY_STRIPES_SIZE, empty_stripes=True)),
        _case("empty-stripe-only", "no rows, in one stripe of no rows", spec,
              every_level_columns(fields, 0), OrcWriteOptions(empty_stripes=True)),
    ]
