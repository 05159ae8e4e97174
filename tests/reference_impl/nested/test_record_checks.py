"""Checking levels on whole arrays (``assembly.records_fit``) agrees with the walk.

README.md, 'Nested Encoding': ``assemble_records`` rebuilds records one entry at a
time and is the definition; ``records_fit`` decides on whole level arrays whether
that walk succeeds, and ``check_records`` raises what it raises. Valid shreddings
of arbitrary schemas, with some levels changed, entries dropped or repeated.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.parquet.errors import InvalidLevelData
from reference_impl.parquet.metadata.parquet_thrift import FieldRepetitionType, Type
from reference_impl.parquet.nested.assembly import assemble_records, check_records, records_fit
from reference_impl.parquet.nested.shredding import shred_records
from reference_impl.parquet.schema.tree import group, leaf, leaf_columns, root
from tests.reference_impl.nested.strategies import physical_trees, raw_records
from tests.reference_impl.parquet_helpers import budget

Column = tuple[list[Any], list[int], list[int]]


@st.composite
def changed_columns(draw: st.DrawFn) -> tuple[Any, list[Column]]:
    """A valid shredding with up to 3 changes; each column keeps one value per entry at
    its maximum definition level (when the change drew the maximum), so that the
    structure is what differs, not the value count."""
    tree = draw(physical_trees())
    records = draw(raw_records(tree))
    columns = [list(map(list, column)) for column in shred_records(tree, records)]
    for _ in range(draw(st.integers(0, 3))):
        _, definition, repetition = columns[draw(st.integers(0, len(columns) - 1))]
        if not definition:
            continue
        entry = draw(st.integers(0, len(definition) - 1))
        change = draw(st.sampled_from(["definition", "repetition", "drop", "repeat"]))
        if change == "definition":
            definition[entry] = draw(st.integers(0, 4))
        elif change == "repetition":
            repetition[entry] = draw(st.integers(0, 4))
        elif change == "drop":
            del definition[entry], repetition[entry]
        else:
            definition.insert(entry, definition[entry])
            repetition.insert(entry, repetition[entry])
    changed = []
    for column, leaf_column in zip(columns, leaf_columns(tree), strict=True):
        _, definition, repetition = column
        present = sum(level == leaf_column.max_definition_level for level in definition)
        changed.append(([0] * present, definition, repetition))
    return tree, changed


def _walk(tree: Any, columns: list[Column]) -> str | None:
    try:
        assemble_records(tree, columns)
    except (InvalidLevelData, ValueError) as error:
        return f"{type(error).__name__}: {error}"
    return None


@budget(300)
@given(changed_columns())
def test_whole_arrays_and_the_walk_agree(case: tuple[Any, list[Column]]) -> None:
    tree, columns = case
    walk_error = _walk(tree, columns)
    try:
        fit = records_fit(tree, columns)
    except (InvalidLevelData, ValueError) as error:
        # A check of one column on its own, or of the record count: the walk's own error.
        assert walk_error == f"{type(error).__name__}: {error}"
        return
    assert fit == (walk_error is None)
    if walk_error is None:
        check_records(tree, columns)
    else:
        with pytest.raises((InvalidLevelData, ValueError)) as raised:
            check_records(tree, columns)
        assert f"{type(raised.value).__name__}: {raised.value}" == walk_error


def test_an_entry_repeating_a_list_the_entry_before_left_empty() -> None:
    # optional group a (def 1) / repeated int32 b (def 2, rep 1): record 0 has a.b empty
    # (definition level 1), and the next entry says it repeats b (repetition level 1).
    tree = root([_list_of_int32()])
    columns = [([7], [1, 2], [0, 1])]
    assert not records_fit(tree, columns)
    with pytest.raises(InvalidLevelData, match="entry 1"):
        check_records(tree, columns)


def _list_of_int32() -> Any:
    return group(
        "a",
        [leaf("b", Type.INT32, repetition=FieldRepetitionType.REPEATED)],
        repetition=FieldRepetitionType.OPTIONAL,
    )
