"""Record assembly: per leaf column values with definition and repetition
levels -> nested records. The inverse of ``shredding``.

Spec: README.md, 'Nested Encoding' (definition levels:
"how many optional fields in the path for the column are defined";
repetition levels: "at what repeated field in the path has the value
repeated") and '3.8 - Nulls'; the Dremel paper (VLDB 2010), 4.3 "Record
Assembly". See the module docstring of ``shredding`` for a worked example.

How the records are rebuilt. The leaves under a field share that field's
presence: in each entry, every leaf under field F at definition level
``def(F)`` (the number of optional/repeated fields down to F) or more says F
is present. Reading the record tree top down, with one cursor per leaf:

* a field is *absent* (null, or a repeated field with no occurrence) when the
  current entries of its leaves have a definition level below ``def(F)``;
  each of those leaves then spends exactly one entry on it, whose definition
  level must be ``def(F) - 1`` (F's parent is present);
* a present leaf spends one entry, at its maximum definition level, which
  carries the next value;
* after an occurrence of a repeated field F, the next entries of its leaves
  say whether F repeats: repetition level ``rep(F)`` (the number of repeated
  fields down to F) means "another occurrence of F", a smaller one means F is
  finished, and 0 starts the next record.

All leaves under a field must agree on each of these decisions; when they do
not, or a level is out of range, or the values do not match the entries that
say a value is present, :class:`InvalidLevelData` names the leaf column, the
entry index (within the level streams given) and the record. Byte offsets are
not known at this layer: the caller may pass the ``offset`` of the data it
decoded (e.g. the column chunk or page), which every error carries.

Checking without assembling (:func:`check_records`). The walk above is the
definition, one entry at a time, and the test oracle; the reader only needs to
know that it would succeed, and builds the records when they are asked for.
That is decided on whole level arrays. For one leaf, with ``D[k]`` the
definition level of the ``k``-th repeated field on its path (``D[0] = 0``), an
entry ``i > 0`` with repetition level ``k`` continues the occurrence of that
field opened by entry ``i - 1``, which must therefore define it, and lies in
it: both ``d[i - 1] >= D[k]`` and ``d[i] >= D[k]``; any definition level in
range then describes exactly one path of present and absent fields. Leaves
under a common field ``F`` take the same decisions about ``F`` and the fields
above it exactly when their entries that start an occurrence at or above ``F``
(repetition level at most ``rep(F)``) carry the same repetition levels and the
same definition levels clipped at ``def(F)``. When every check passes the walk
cannot fail (:func:`records_fit`); when one does not, :func:`check_records`
runs the walk, which raises the error naming the entry and the record
(tests/reference_impl/nested/test_record_checks.py checks with Hypothesis that
both agree).

Assembling on whole arrays (what :func:`assemble_records` does once the levels fit).
The *items* of a field F in one leaf under it are the entries that start an
occurrence at or above F (repetition level at most ``rep(F)``) and define F
(definition level at least ``def(F)``): one per present value of F, in order, the
same number in every leaf under F. Each child C of a group F then gives one value
per item of F, counted in C's own first leaf: a REQUIRED child its value; an
OPTIONAL child its next value where the item defines C (validity: definition level
at least ``def(C)``), else None; a REPEATED child the slice of its values between
the item's offset and the next one, the offsets counting C's items before each
item of F (the Dremel paper's "a new list entry where the repetition level is at
most the list's"). A leaf's items are its values. The walk stays the definition
(tests/reference_impl/nested/test_array_assembly.py checks with Hypothesis that
both build the same records), and runs whenever the levels do not fit, to raise
its error.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from typing import Any

import numpy as np

from reference_impl.parquet.errors import InvalidLevelData
from reference_impl.parquet.metadata.parquet_thrift import FieldRepetitionType
from reference_impl.parquet.schema.tree import FieldLevels, LeafColumn, SchemaNode, field_levels, leaf_columns

__all__ = ["assemble_records", "assemble_records_by_entry", "check_records", "records_fit"]

REQUIRED = FieldRepetitionType.REQUIRED
OPTIONAL = FieldRepetitionType.OPTIONAL
REPEATED = FieldRepetitionType.REPEATED

Levels = Sequence[int] | np.ndarray
LeafValues = Sequence[Any] | np.ndarray  # a leaf's non-null values: Python values or one array


def assemble_records(
    tree: SchemaNode,
    columns: Sequence[tuple[LeafValues, Levels | None, Levels | None]],
    *,
    expected_records: int | None = None,
    offset: int | None = None,
) -> list[dict[str, Any]]:
    """Rebuild the records (raw physical tree, see ``shredding``) from one
    ``(values, definition_levels, repetition_levels)`` triple per leaf, in
    ``leaf_columns(tree)`` order.

    ``definition_levels`` may be ``None`` for a leaf whose maximum definition
    level is 0, and ``repetition_levels`` ``None`` when its maximum repetition
    level is 0 (the data page stores no such levels: every one is 0).
    ``expected_records`` (e.g. ``RowGroup.num_rows``) is checked when given;
    it is also the number of records of a schema without leaves.
    """
    levels = field_levels(tree)
    if _all_fields_have_leaves(levels) and records_fit(
        tree, columns, expected_records=expected_records, offset=offset
    ):
        return _assemble_on_arrays(levels, _cursors(tree, columns, offset))
    return assemble_records_by_entry(tree, columns, expected_records=expected_records, offset=offset)


def assemble_records_by_entry(
    tree: SchemaNode,
    columns: Sequence[tuple[LeafValues, Levels | None, Levels | None]],
    *,
    expected_records: int | None = None,
    offset: int | None = None,
) -> list[dict[str, Any]]:
    """:func:`assemble_records` one entry at a time: the definition (module docstring),
    which raises InvalidLevelData naming the entry and the record."""
    cursors = _cursors(tree, columns, offset)
    record_count = _record_count(cursors, expected_records, offset)
    assembler = _Assembler(cursors, offset)
    levels = field_levels(tree)
    records = []
    for record in range(record_count):
        assembler.record = record
        records.append(assembler.present(levels, 0))
        assembler.check_record_end()
    return records


def check_records(
    tree: SchemaNode,
    columns: Sequence[tuple[LeafValues, Levels | None, Levels | None]],
    *,
    expected_records: int | None = None,
    offset: int | None = None,
) -> None:
    """Raise what :func:`assemble_records` would raise on these columns, without building
    the records: on whole level arrays (module docstring), the walk only when they fail."""
    if not records_fit(tree, columns, expected_records=expected_records, offset=offset):
        assemble_records_by_entry(tree, columns, expected_records=expected_records, offset=offset)


def records_fit(
    tree: SchemaNode,
    columns: Sequence[tuple[LeafValues, Levels | None, Levels | None]],
    *,
    expected_records: int | None = None,
    offset: int | None = None,
) -> bool:
    """Whether :func:`assemble_records` would succeed, decided on whole level arrays (module
    docstring). The checks of each column on its own and of the record count raise the
    errors the walk raises before it starts."""
    cursors = _cursors(tree, columns, offset)
    _record_count(cursors, expected_records, offset)
    return all(_paths_continue(cursor) for cursor in cursors) and _leaves_agree(field_levels(tree), cursors)


def _cursors(
    tree: SchemaNode,
    columns: Sequence[tuple[LeafValues, Levels | None, Levels | None]],
    offset: int | None,
) -> list[_Cursor]:
    leaves = leaf_columns(tree)
    if len(columns) != len(leaves):
        raise ValueError(f"the schema has {len(leaves)} leaf columns, {len(columns)} were given")
    return [_Cursor(leaf, *column, offset=offset) for leaf, column in zip(leaves, columns, strict=True)]


def _paths_continue(cursor: _Cursor) -> bool:
    """Each entry that repeats a field lies in the occurrence the entry before opened."""
    repeated_definition = [0]  # D[k]: the definition level of the k-th repeated field
    definition = 0
    for node in cursor.leaf.nodes:
        definition += node.repetition != REQUIRED
        if node.repetition == REPEATED:
            repeated_definition.append(definition)
    defs, reps = cursor.definition_levels, cursor.repetition_levels
    needed = np.asarray(repeated_definition, dtype=np.int64)[reps[1:]]
    return bool(np.all((defs[1:] >= needed) & (defs[:-1] >= needed)))


def _leaves_agree(field: FieldLevels, cursors: list[_Cursor]) -> bool:
    """The leaves under each field take the same decisions about it (module docstring):
    the first leaf of each child against the first leaf of the first child, then each
    child's own leaves, below."""
    children = [child for child in field.children if not child.node.is_leaf]
    if field.path and len(field.leaf_indices) > 1:
        first = _projection(cursors[field.leaf_indices.start], field)
        for child in field.children[1:]:
            other = _projection(cursors[child.leaf_indices.start], field)
            if not all(np.array_equal(a, b) for a, b in zip(first, other, strict=True)):
                return False
    return all(_leaves_agree(child, cursors) for child in children)


def _projection(cursor: _Cursor, field: FieldLevels) -> tuple[np.ndarray, np.ndarray]:
    """The leaf's entries that start an occurrence at or above ``field``: their repetition
    levels and their definition levels clipped at the field's."""
    starts = cursor.repetition_levels <= field.repetition_level
    return (
        cursor.repetition_levels[starts],
        np.minimum(cursor.definition_levels[starts], field.definition_level),
    )


# ---------------------------------------------------------------------------
# Assembly on whole arrays: offsets and validity from the levels
# ---------------------------------------------------------------------------


def _all_fields_have_leaves(field: FieldLevels) -> bool:
    """Items are counted in a leaf: a group without leaves (or a schema without
    columns, whose records only ``expected_records`` counts) is left to the walk."""
    return len(field.leaf_indices) > 0 and all(_all_fields_have_leaves(c) for c in field.children)


def _assemble_on_arrays(root_field: FieldLevels, cursors: list[_Cursor]) -> list[dict[str, Any]]:
    """The records of levels that fit (``records_fit``): the root's items are the records."""
    return _item_values(root_field, cursors)


def _item_values(field: FieldLevels, cursors: list[_Cursor]) -> list[Any]:
    """One value per item of ``field`` (module docstring), in order."""
    if field.node.is_leaf:
        values = cursors[field.leaf_indices.start].values
        return values.tolist() if isinstance(values, np.ndarray) else list(values)
    columns = [(child.node.name, _child_values(field, child, cursors)) for child in field.children]
    items: list[dict[str, Any]] = [{} for _ in columns[0][1]]
    for name, column in columns:  # a child at a time: cheaper than a dict(zip(...)) per item
        for item, value in zip(items, column, strict=True):
            item[name] = value
    return items


def _child_values(field: FieldLevels, child: FieldLevels, cursors: list[_Cursor]) -> list[Any]:
    """The value of ``child`` in each item of its group ``field``, counted in the child's
    first leaf."""
    cursor = cursors[child.leaf_indices.start]
    defs, reps = cursor.definition_levels, cursor.repetition_levels
    items = (reps <= field.repetition_level) & (defs >= field.definition_level)
    values = _item_values(child, cursors)
    repetition = child.node.repetition
    if repetition == REQUIRED:
        return values
    if repetition == OPTIONAL:
        validity = (defs[items] >= child.definition_level).tolist()
        defined = iter(values)
        return [next(defined) if valid else None for valid in validity]
    child_items = (reps <= child.repetition_level) & (defs >= child.definition_level)
    before = np.concatenate(([0], np.cumsum(child_items)))
    offsets = [*before[np.flatnonzero(items)].tolist(), len(values)]
    return [values[start:stop] for start, stop in zip(offsets[:-1], offsets[1:], strict=True)]


# ---------------------------------------------------------------------------
# One cursor per leaf column: checks of each column on its own
# ---------------------------------------------------------------------------


class _Cursor:
    """A leaf column's entries, checked on their own, and how far assembly got."""

    def __init__(
        self,
        leaf: LeafColumn,
        values: LeafValues,
        definition_levels: Levels | None,
        repetition_levels: Levels | None,
        *,
        offset: int | None,
    ) -> None:
        self.leaf = leaf
        self.offset = offset
        self.values = values
        self.definition_levels = self._levels(
            "definition", definition_levels, leaf.max_definition_level, repetition_levels
        )
        self.repetition_levels = self._levels(
            "repetition", repetition_levels, leaf.max_repetition_level, definition_levels
        )
        self._check()
        self.entry = 0  # the next entry to spend
        self.value = 0  # the next value to hand out

    # Plain lists for the walk: indexing them one entry at a time is faster than numpy.
    @cached_property
    def defs(self) -> list[int]:
        return self.definition_levels.tolist()

    @cached_property
    def reps(self) -> list[int]:
        return self.repetition_levels.tolist()

    def _levels(self, kind: str, levels: Levels | None, maximum: int, other: Levels | None) -> np.ndarray:
        if levels is None:
            if maximum != 0:
                raise ValueError(
                    f"leaf {self.leaf.dotted_path}: {kind} levels are required (maximum level {maximum})"
                )
            count = len(other) if other is not None else len(self.values)
            return np.zeros(count, dtype=np.int64)
        return np.asarray(levels, dtype=np.int64).reshape(-1)

    def _check(self) -> None:
        defs, reps = self.definition_levels, self.repetition_levels
        if len(defs) != len(reps):
            raise self.error(
                None, f"{len(defs)} definition levels but {len(reps)} repetition levels"
            )
        for kind, levels, maximum in (
            ("definition", defs, self.leaf.max_definition_level),
            ("repetition", reps, self.leaf.max_repetition_level),
        ):
            bad = np.flatnonzero((levels < 0) | (levels > maximum))
            if len(bad):
                entry = int(bad[0])
                raise self.error(entry, f"{kind} level {int(levels[entry])} is outside [0, {maximum}]")
        if len(reps) and reps[0] != 0:
            raise self.error(
                0, f"the first entry has repetition level {int(reps[0])}: it must start a record (0)"
            )
        defined = int(np.count_nonzero(defs == self.leaf.max_definition_level))
        if defined != len(self.values):
            raise self.error(
                None,
                f"{defined} entries have the maximum definition level "
                f"{self.leaf.max_definition_level} (a value each), but {len(self.values)} values were given",
            )

    def error(self, entry: int | None, problem: str, record: int | None = None) -> InvalidLevelData:
        where = f"leaf column {self.leaf.dotted_path}"
        if entry is not None:
            where += f", entry {entry}"
        if record is not None:
            where += f" (record {record})"
        return InvalidLevelData(f"{where}: {problem}", self.offset)

    @property
    def at_end(self) -> bool:
        return self.entry >= len(self.defs)


def _record_count(cursors: list[_Cursor], expected: int | None, offset: int | None) -> int:
    """Each leaf starts one record per repetition level 0: all must agree."""
    counts = [(int(np.count_nonzero(c.repetition_levels == 0)), c) for c in cursors]
    if counts:
        first_count, first = counts[0]
        for count, cursor in counts[1:]:
            if count != first_count:
                raise InvalidLevelData(
                    f"leaf columns disagree on the number of records: {first.leaf.dotted_path} has "
                    f"{first_count} (entries with repetition level 0), {cursor.leaf.dotted_path} has {count}",
                    offset,
                )
        if expected is not None and expected != first_count:
            raise InvalidLevelData(
                f"expected {expected} records, the level data holds {first_count}", offset
            )
        return first_count
    return expected or 0


# ---------------------------------------------------------------------------
# Assembly: the record tree, top down, all leaves of a field in step
# ---------------------------------------------------------------------------


class _Assembler:
    def __init__(self, cursors: list[_Cursor], offset: int | None) -> None:
        self.cursors = cursors
        self.offset = offset
        self.record = 0

    def field(self, field: FieldLevels, repetition_level: int) -> Any:
        """The value of ``field`` inside its present parent; the first entry
        of each leaf under it must have ``repetition_level``."""
        repetition = field.node.repetition
        if repetition == REQUIRED:
            return self.present(field, repetition_level)
        if not self.is_present(field):
            self.spend_absent(field, repetition_level)
            return [] if repetition == REPEATED else None
        if repetition == OPTIONAL:
            return self.present(field, repetition_level)
        occurrences = [self.present(field, repetition_level)]
        while self.repeats(field):
            occurrences.append(self.present(field, field.repetition_level))
        return occurrences

    def present(self, field: FieldLevels, repetition_level: int) -> Any:
        """One present value (occurrence) of ``field``."""
        if field.node.is_leaf:
            cursor = self.cursors[field.leaf_indices.start]
            self.spend(cursor, repetition_level, field.definition_level, "a value")
            value = cursor.values[cursor.value]
            cursor.value += 1
            return value
        return {child.node.name: self.field(child, repetition_level) for child in field.children}

    def is_present(self, field: FieldLevels) -> bool:
        """Whether the current entries of the leaves under ``field`` define it."""
        answers = []
        for index in field.leaf_indices:
            cursor = self.cursors[index]
            if cursor.at_end:
                raise cursor.error(cursor.entry, "the column ends in the middle of a record", self.record)
            answers.append((cursor.defs[cursor.entry] >= field.definition_level, cursor))
        self._agree(field, answers, "is present (definition level >= {level})", field.definition_level)
        return answers[0][0]

    def repeats(self, field: FieldLevels) -> bool:
        """After an occurrence of ``field``: does another one follow?"""
        answers = []
        for index in field.leaf_indices:
            cursor = self.cursors[index]
            if cursor.at_end:
                answers.append((False, cursor))
                continue
            level = cursor.reps[cursor.entry]
            if level > field.repetition_level:
                raise cursor.error(
                    cursor.entry,
                    f"repetition level {level} repeats a field nested in {field.dotted_path} that has "
                    f"no open occurrence (it is null or empty in the previous entry)",
                    self.record,
                )
            answers.append((level == field.repetition_level, cursor))
        self._agree(field, answers, "repeats (repetition level == {level})", field.repetition_level)
        return answers[0][0]

    def spend_absent(self, field: FieldLevels, repetition_level: int) -> None:
        """``field`` is null or empty: each leaf under it spends one entry, at
        the definition level of the (present) parent."""
        what = f"{field.dotted_path} {'empty' if field.node.repetition == REPEATED else 'null'}"
        for index in field.leaf_indices:
            self.spend(self.cursors[index], repetition_level, field.definition_level - 1, what)

    def spend(self, cursor: _Cursor, repetition_level: int, definition_level: int, what: str) -> None:
        """Spend the cursor's entry, which must carry exactly these levels; a
        mismatch means the entry contradicts the record structure built so far
        (e.g. it repeats a group at level 1 but says the group is absent)."""
        if cursor.at_end:
            raise cursor.error(cursor.entry, "the column ends in the middle of a record", self.record)
        for kind, found, expected in (
            ("repetition", cursor.reps[cursor.entry], repetition_level),
            ("definition", cursor.defs[cursor.entry], definition_level),
        ):
            if found != expected:
                raise cursor.error(
                    cursor.entry,
                    f"{kind} level {found} where {expected} was expected (for {what})",
                    self.record,
                )
        cursor.entry += 1

    def check_record_end(self) -> None:
        """Every leaf has spent its entries of this record: the next starts a record."""
        for cursor in self.cursors:
            if not cursor.at_end and cursor.reps[cursor.entry] != 0:
                raise cursor.error(
                    cursor.entry,
                    f"repetition level {cursor.reps[cursor.entry]} repeats a field that has no open "
                    f"occurrence (it is null or empty in the previous entry)",
                    self.record,
                )

    def _agree(
        self, field: FieldLevels, answers: list[tuple[bool, _Cursor]], question: str, level: int
    ) -> None:
        first, first_cursor = answers[0]
        for answer, cursor in answers[1:]:
            if answer != first:
                raise InvalidLevelData(
                    f"record {self.record}: the leaf columns under {field.dotted_path} disagree on whether "
                    f"it {question.format(level=level)}: {first_cursor.leaf.dotted_path} entry "
                    f"{first_cursor.entry} says {'yes' if first else 'no'}, {cursor.leaf.dotted_path} "
                    f"entry {cursor.entry} says {'yes' if answer else 'no'}",
                    self.offset,
                )
