"""Record shredding ("striping"): nested records -> per leaf column, the values
with their definition and repetition levels.

Spec: README.md, 'Nested Encoding': "Parquet uses the
Dremel encoding with definition and repetition levels. Definition levels
specify how many optional fields in the path for the column are defined.
Repetition levels specify at what repeated field in the path has the value
repeated." and '3.8 - Nulls': "NULL values are not encoded in the data". The
algorithm is the one of the Dremel paper the spec refers to (Melnik et al.,
"Dremel: Interactive Analysis of Web-Scale Datasets", VLDB 2010, 4.2
"Splitting Records into Columns").

Definition and repetition levels, by example
--------------------------------------------
A nullable list of nullable ints (LogicalTypes.md, 'Lists')::

    message schema {
      optional group a (LIST) {        -- optional: +1 definition level
        repeated group list {          -- repeated: +1 definition, +1 repetition level
          optional int32 element;      -- optional: +1 definition level
        }
      }
    }

The leaf ``a.list.element`` has maximum definition level 3 and maximum
repetition level 1. Each record contributes one or more *entries* to the
column; an entry's

* definition level says how many of the optional/repeated fields on the path
  are present: 0 = ``a`` is null, 1 = ``a`` is an empty list (no occurrence of
  ``list``), 2 = an element that is null, 3 = an element with a value (only
  these entries store a value);
* repetition level says where the entry repeats: 0 = it starts a new record,
  1 = it is another occurrence of ``list`` (another list element) in the same
  record.

Three records, as logical lists and in the raw physical tree this module takes::

    [1, None, 2]  {"a": {"list": [{"element": 1}, {"element": None}, {"element": 2}]}}
    []            {"a": {"list": []}}
    None          {"a": None}

    entry   value   def  rep
      0       1      3    0    first element of record 0
      1       -      2    1    a null element, repeating at level 1 (``list``)
      2       2      3    1
      3       -      1    0    record 1: the list is present but empty
      4       -      0    0    record 2: the list is null

    values = [1, 2], definition levels = [3, 2, 3, 1, 0], repetition levels = [0, 1, 1, 0, 0]

Raw physical tree (the values taken here; ``nested_logical`` converts lists and
maps to and from it): a record, like every group value, is a dict by child
name; a REPEATED field's value is the Python list of its occurrences (a
repeated group's occurrences are dicts; ``[]`` for none, and ``None`` is
accepted as none); an OPTIONAL field's value may be ``None``; a missing key
means the same as ``None``; a leaf's value is passed through untouched (type
checks belong to the value encoder). Assembly returns exactly this form, with
every key present and ``[]`` for a repeated field without occurrences.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from reference_impl.parquet.metadata.parquet_thrift import FieldRepetitionType
from reference_impl.parquet.schema.tree import FieldLevels, SchemaNode, field_levels

__all__ = ["ShreddedColumn", "shred_records"]

REQUIRED = FieldRepetitionType.REQUIRED
OPTIONAL = FieldRepetitionType.OPTIONAL
REPEATED = FieldRepetitionType.REPEATED


class ShreddedColumn(NamedTuple):
    """One leaf column: the defined values, and one level pair per entry.

    ``len(definition_levels) == len(repetition_levels)`` and ``values`` holds
    one item per entry whose definition level is the maximum. The writer
    stores no definition levels when the maximum is 0 and no repetition levels
    when that maximum is 0 ('3.7 - Data Pages'); both lists are always full here.
    """

    values: list[Any]
    definition_levels: list[int]
    repetition_levels: list[int]


def shred_records(tree: SchemaNode, records: Iterable[Mapping[str, Any] | None]) -> list[ShreddedColumn]:
    """Stripe ``records`` (raw physical tree, one dict per record) into one
    :class:`ShreddedColumn` per leaf, in ``leaf_columns(tree)`` order.

    Raises ``ValueError`` naming the record index and the field path when a
    record does not fit the schema: a REQUIRED field that is None or missing,
    a group value that is not a dict, a dict key that names no child, a
    REPEATED field whose value is not a list, a null occurrence of a repeated
    field, a list or dict where a leaf value belongs.
    """
    levels = field_levels(tree)
    columns = [ShreddedColumn([], [], []) for _ in levels.leaf_indices]
    for index, record in enumerate(records):
        if record is None:
            raise ValueError(f"record {index} is None: a record is a dict by top-level field name")
        _shred_present(levels, record, 0, columns, (index,))
    return columns


def _shred_field(
    field: FieldLevels, value: Any, repetition_level: int, columns: list[ShreddedColumn], where: tuple
) -> None:
    """Shred ``value``, the value of ``field`` inside a present parent.

    ``repetition_level`` is the level of the first entry this value produces
    in each of its leaves; the parent is present, so an absent value writes
    the parent's definition level (this field's level minus one).
    """
    node = field.node
    if node.repetition == REPEATED:
        occurrences = _occurrences(field, value, where)
        if not occurrences:
            _shred_absent(field, repetition_level, field.definition_level - 1, columns)
        for number, occurrence in enumerate(occurrences):
            if occurrence is None:
                raise ValueError(
                    f"{_describe((*where, number))}: an occurrence of a repeated field cannot be None"
                )
            # The first occurrence continues whatever repetition the caller
            # is in; every later one repeats at this field's own level.
            level = repetition_level if number == 0 else field.repetition_level
            _shred_present(field, occurrence, level, columns, (*where, number))
    elif value is None:
        if node.repetition == REQUIRED:
            raise ValueError(f"{_describe(where)}: a REQUIRED field is None or missing")
        _shred_absent(field, repetition_level, field.definition_level - 1, columns)
    else:
        _shred_present(field, value, repetition_level, columns, where)


def _shred_present(
    field: FieldLevels, value: Any, repetition_level: int, columns: list[ShreddedColumn], where: tuple
) -> None:
    """One present value of ``field``: a leaf stores it at the full definition
    level; a group passes the same repetition level on to each child."""
    if field.node.is_leaf:
        if isinstance(value, list | dict):
            raise ValueError(
                f"{_describe(where)}: a {type(value).__name__} where a value of the leaf belongs"
            )
        column = columns[field.leaf_indices.start]
        column.values.append(value)
        column.definition_levels.append(field.definition_level)
        column.repetition_levels.append(repetition_level)
        return
    if not isinstance(value, Mapping):
        raise ValueError(f"{_describe(where)}: a group value must be a dict, got {type(value).__name__}")
    unknown = set(value) - {child.node.name for child in field.children}
    if unknown:
        raise ValueError(f"{_describe(where)}: no such field(s) in the schema: {sorted(unknown)}")
    for child in field.children:
        _shred_field(child, value.get(child.node.name), repetition_level, columns, (*where, child.node.name))


def _shred_absent(
    field: FieldLevels, repetition_level: int, definition_level: int, columns: list[ShreddedColumn]
) -> None:
    """``field`` is null (or an empty repeated field): every leaf under it gets
    one entry without a value, at the definition level of its parent."""
    for index in field.leaf_indices:
        columns[index].definition_levels.append(definition_level)
        columns[index].repetition_levels.append(repetition_level)


def _occurrences(field: FieldLevels, value: Any, where: tuple) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list | tuple):
        raise ValueError(
            f"{_describe(where)}: a REPEATED field's value must be a list of its occurrences, "
            f"got {type(value).__name__}"
        )
    return list(value)


def _describe(where: tuple) -> str:
    """``(3, "a", "list", 2, "element")`` -> ``record 3, field a.list[2].element``."""
    record, *steps = where
    path = ""
    for step in steps:
        path += f"[{step}]" if isinstance(step, int) else (f".{step}" if path else step)
    return f"record {record}, field {path}" if path else f"record {record}"
