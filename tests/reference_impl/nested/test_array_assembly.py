"""Record assembly on whole arrays builds the records of the entry-by-entry walk.

README.md, 'Nested Encoding': ``assemble_records_by_entry`` rebuilds records one
entry at a time and is the definition; ``assemble_records`` builds them from list
offsets and validity found on whole level arrays when the levels fit. Random physical
schemas (lists of lists, optional and required structs, repeated leaves) and logical
ones (every list and map style), with nulls and empty lists, shredded, and read back
with the levels a page stores (none where the maximum is 0) and numpy level arrays.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.parquet.metadata.parquet_thrift import FieldRepetitionType, Type
from reference_impl.parquet.nested.assembly import assemble_records, assemble_records_by_entry
from reference_impl.parquet.nested.shredding import shred_records
from reference_impl.parquet.schema.nested_types import records_from_logical
from reference_impl.parquet.schema.tree import SchemaNode, group, leaf, leaf_columns, root
from tests.reference_impl.nested.strategies import logical_rows, logical_trees, physical_trees, raw_records
from tests.reference_impl.parquet_helpers import budget

OPTIONAL, REPEATED = FieldRepetitionType.OPTIONAL, FieldRepetitionType.REPEATED


def _stored(tree: SchemaNode, records: list[Any], as_arrays: bool) -> list[Any]:
    """The shredded columns as a reader holds them: no levels where the maximum is 0."""
    stored = []
    columns = shred_records(tree, records)
    for column, (values, definition, repetition) in zip(leaf_columns(tree), columns, strict=True):
        levels = [np.asarray(level, np.int16) if as_arrays else level for level in (definition, repetition)]
        stored.append((values, levels[0] if column.max_definition_level else None,
                       levels[1] if column.max_repetition_level else None))
    return stored


def _both(tree: SchemaNode, records: list[Any], as_arrays: bool) -> None:
    columns = _stored(tree, records, as_arrays)
    by_entry = assemble_records_by_entry(tree, columns, expected_records=len(records))
    assert by_entry == records
    assert assemble_records(tree, columns, expected_records=len(records)) == by_entry


@budget(300)
@given(st.data(), st.booleans())
def test_arrays_build_the_records_of_the_walk_on_physical_schemas(
    data: st.DataObject, as_arrays: bool
) -> None:
    tree = data.draw(physical_trees())
    _both(tree, data.draw(raw_records(tree)), as_arrays)


@budget(200)
@given(st.data(), st.booleans())
def test_arrays_build_the_records_of_the_walk_on_lists_and_maps(
    data: st.DataObject, as_arrays: bool
) -> None:
    tree = data.draw(logical_trees())
    _both(tree, records_from_logical(tree, data.draw(logical_rows(tree))), as_arrays)


def test_a_list_of_lists_with_nulls_and_empty_lists() -> None:
    """README.md, 'Nested Encoding': an optional list of optional lists of optional
    values, every way of being absent at every level."""
    inner = group("inner", [leaf("value", Type.INT32, repetition=OPTIONAL)], repetition=REPEATED)
    outer = group("outer", [group("list", [inner], repetition=OPTIONAL)], repetition=REPEATED)
    tree = root([group("lists", [outer], repetition=OPTIONAL)])
    records = [
        {"lists": None},
        {"lists": {"outer": []}},
        {"lists": {"outer": [{"list": None}, {"list": {"inner": []}}]}},
        {"lists": {"outer": [
            {"list": {"inner": [{"value": 1}, {"value": None}]}},
            {"list": {"inner": [{"value": 2}]}},
        ]}},
    ]
    _both(tree, records, as_arrays=True)
