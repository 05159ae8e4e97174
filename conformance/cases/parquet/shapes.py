"""Shapes of a table: nulls and empty lists and maps at every nesting level, map keys that
collide after a lossy conversion, very deep nesting, very wide schemas, a row group per row.

Spec: README.md 'Nested Encoding' (a null at one level and an empty list are different
definition levels, and every level of a deep tree is one more level to count);
LogicalTypes.md 'Nested Types', 'Lists', 'Maps' (keys are distinct values, and 0.0 and
-0.0 are two FLOAT values); parquet.thrift `struct SchemaElement` (a wide schema is a
long flat list) and README.md 'Configurations' (a row group per row).

A group without children cannot hold a value: only leaf columns store definition levels
('Nested Encoding'), so nothing says whether an empty group, or a list of them, is null,
empty or how long. No case writes one (the reference writer refuses it and every writer
measured does too); the file a writer could still produce is the bad file
`schema/group-without-children` of the corpus (docs/lenient-readings.md).

The cases of `nested.py` hold one shape per row; these hold every shape of a type tree,
over many rows, three levels down (`conformance/cases/shapes.py`).

Depth limits measured at 100 schema levels (the 32-level cases pass everywhere): pyarrow
reads at most 100 levels counted its way ("Parquet schema too deeply nested ... current
limit is 100"), polars and parquet-wasm do not write them (Arrow's C data interface
"Recursion level in ArrowSchema struct exceeded"; flatbuffers "DepthLimitReached"), the
adapters that take Arrow through pyarrow's C import (DuckDB, DataFusion, polars) stop at
the same recursion limit; Spark's reader overflowed its stack on 99 nested structs.
"""

from __future__ import annotations

from conformance.values import DataType, Field, Schema
from conformance.values import types as T
from reference_impl.parquet.schema.tree import MAX_NESTING_DEPTH

from ..model import Case, WriteOptions
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
from .nested import SPEC_LISTS, SPEC_MAPS, SPEC_NESTED

AREA = "shapes"
SPEC_NESTED_TYPES = "LogicalTypes.md: Nested Types"
SPEC_SCHEMA = "parquet.thrift: struct SchemaElement"
SPEC_ROW_GROUPS = "README.md: Configurations"
DEEP = 32
# The deepest schemas the reference reads: MAX_NESTING_DEPTH schema levels below the
# root, the leaf one of them; a LIST is two levels (the annotated group and its repeated
# group), a struct one. Past 64, a depth some implementations cap.
# (99 structs are as deep, but their document's 300 JSON levels pass Python's default
# recursion limit in the corpus's JSON Schema check, conformance/golden/verify.py.)
STRUCT_LEVELS, LIST_LEVELS = 1, 2
DEEPEST_PAIRS = (MAX_NESTING_DEPTH - 1) // (STRUCT_LEVELS + LIST_LEVELS)  # a list and a struct
# 10,000 columns: the reference writes them in 20 s and reads them in over 30 s, the
# cell's time limit (measured on this stop's machine), so the catalogue stops at 1,000.
WIDE = 1_000
ROW_GROUP_ROWS = 200
EMPTY_GROUPS_ROWS, EMPTY_GROUPS_SIZE = 30, 10  # three row groups of rows, four empty ones


def _case(name: str, title: str, spec: tuple[str, ...], columns: Columns,
          options: WriteOptions | None = None) -> Case:
    """An id column beside the `columns`; each writer's own encodings unless `options`."""
    fields, values = columns
    schema = Schema((Field("id", T.integer(32), False), *fields))
    rows = tuple((i, *row) for i, row in enumerate(zip(*values, strict=True)))
    return Case(f"{AREA}/{name}", title, (SPEC_NESTED, *spec), schema, rows,
                options or WriteOptions(encoding=None))


def _deep(name: str, title: str, t: DataType) -> Case:
    return _case(name, title, (SPEC_LISTS, SPEC_NESTED_TYPES),
                 ((Field("d", t, True),), [every_level(t, True)]))


def _deep_cases() -> list[Case]:
    def struct(t: DataType, _: int) -> DataType:
        return T.struct_of(Field("f", t, True))

    leaf = T.integer(32)
    return [
        _deep(f"deep-list-{DEEP}", f"{DEEP} lists in each other: a null and an empty list at each "
              "level", nested(leaf, DEEP, lambda t, _: T.list_of(t))),
        _deep(f"deep-struct-{DEEP}", f"{DEEP} structs in each other: a null at each level",
              nested(leaf, DEEP, struct)),
        _deep(f"deep-list-struct-{2 * DEEPEST_PAIRS}", f"{DEEPEST_PAIRS} lists and {DEEPEST_PAIRS} "
              "structs by turns: a null and an empty list at each level",
              lists_and_structs(leaf, 2 * DEEPEST_PAIRS, T)),
    ]


def cases() -> list[Case]:
    row_group_field = (Field("l", T.list_of(element_struct(T)), True),)
    return [
        _case("nulls-and-empties-every-level", "a null and an empty list or map at each of three "
              f"levels of lists, maps and structs, over {ROWS} rows",
              (SPEC_LISTS, SPEC_MAPS, SPEC_NESTED_TYPES), every_level_columns(every_level_fields(T), ROWS)),
        _case("map-colliding-keys", "maps whose keys collide after a lossy conversion: 0.0 and "
              "-0.0, NaN, 2^53 and 2^53+1, __proto__, integer-like strings, integer keys",
              (SPEC_MAPS,), colliding_key_columns(T)),
        *_deep_cases(),
        _case(f"wide-{WIDE}", f"{WIDE} top-level columns", (SPEC_SCHEMA,), wide_columns(WIDE, T)),
        _case("row-group-per-row", f"{ROW_GROUP_ROWS} rows of a list of structs, a row group each",
              (SPEC_LISTS, SPEC_ROW_GROUPS), every_level_columns(row_group_field, ROW_GROUP_ROWS),
              WriteOptions(encoding=None, row_group_size=1)),
        *_empty_row_groups(row_group_field),
    ]


def _empty_row_groups(fields: tuple[Field, ...]) -> list[Case]:
    """Row groups of no rows around and between full ones, and as a table's only one."""
    spec = (SPEC_LISTS, SPEC_ROW_GROUPS, "parquet.thrift: struct RowGroup")
    return [
        _case("empty-row-groups", f"{EMPTY_GROUPS_ROWS} rows in row groups of {EMPTY_GROUPS_SIZE}, "
              "a row group of no rows before, between and after them", spec,
              every_level_columns(fields, EMPTY_GROUPS_ROWS),
              WriteOptions(encoding=None, row_group_size=EMPTY_GROUPS_SIZE, empty_row_groups=True)),
        _case("empty-row-group-only", "no rows, in one row group of no rows", spec,
              every_level_columns(fields, 0), WriteOptions(encoding=None, empty_row_groups=True)),
    ]
