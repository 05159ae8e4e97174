"""Records that do not fit the schema (ValueError from the shredder) and level
data that cannot be assembled (InvalidLevelData with leaf path and entry)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.parquet.errors import InvalidLevelData
from reference_impl.parquet.metadata.parquet_thrift import FieldRepetitionType, Type
from reference_impl.parquet.nested.assembly import assemble_records
from reference_impl.parquet.nested.shredding import shred_records
from reference_impl.parquet.schema.nested_types import list_node
from reference_impl.parquet.schema.tree import group, leaf, root
from tests.reference_impl.nested.strategies import physical_trees, raw_records
from tests.reference_impl.parquet_helpers import budget

REQUIRED = FieldRepetitionType.REQUIRED
OPTIONAL = FieldRepetitionType.OPTIONAL
REPEATED = FieldRepetitionType.REPEATED

# optional group a (LIST) { repeated group list { optional int32 element; } }  max def 3, max rep 1
LIST = root([list_node("a", leaf("x", Type.INT32, repetition=OPTIONAL), repetition=OPTIONAL)])
# required group s { required int32 x; repeated group g { optional int32 y; required int32 z; } }
STRUCT = root([group("s", [
    leaf("x", Type.INT32, repetition=REQUIRED),
    group("g", [leaf("y", Type.INT32, repetition=OPTIONAL), leaf("z", Type.INT32, repetition=REQUIRED)],
          repetition=REPEATED),
], repetition=REQUIRED)])


# ---------------------------------------------------------------------------
# Shredding: records that do not fit
# ---------------------------------------------------------------------------

BAD_RECORDS = {
    "required leaf None": (
        STRUCT, [{"s": {"x": 1, "g": []}}, {"s": {"x": None, "g": []}}],
        "record 1, field s.x: a REQUIRED field is None or missing",
    ),
    "required leaf missing in an occurrence": (
        STRUCT, [{"s": {"x": 1, "g": [{"y": 1, "z": 2}, {"y": 1}]}}],
        r"record 0, field s.g\[1\].z: a REQUIRED field is None or missing",
    ),
    "required group None": (STRUCT, [{"s": None}], "record 0, field s: a REQUIRED field"),
    "group value not a dict": (STRUCT, [{"s": [1]}], "field s: a group value must be a dict, got list"),
    "unknown key": (
        STRUCT, [{"s": {"x": 1, "g": [], "q": 3}}], r"field s: no such field\(s\) in the schema: \['q'\]"
    ),
    "repeated not a list": (
        STRUCT, [{"s": {"x": 1, "g": {"y": 1, "z": 1}}}], "s.g: a REPEATED field's value must be a list"),
    "null occurrence": (
        STRUCT, [{"s": {"x": 1, "g": [None]}}],
        r"s.g\[0\]: an occurrence of a repeated field cannot be None",
    ),
    "list where a leaf value belongs": (
        STRUCT, [{"s": {"x": [1], "g": []}}], "s.x: a list where a value of the leaf belongs"),
    "record None": (STRUCT, [None], "record 0 is None"),
}


@pytest.mark.parametrize("case", BAD_RECORDS, ids=list(BAD_RECORDS))
def test_records_that_do_not_fit_are_value_errors(case: str) -> None:
    tree, records, message = BAD_RECORDS[case]
    with pytest.raises(ValueError, match=message):
        shred_records(tree, records)


def test_absent_keys_mean_none_and_none_for_repeated_means_no_occurrence() -> None:
    assert shred_records(LIST, [{}]) == shred_records(LIST, [{"a": None}])
    assert shred_records(STRUCT, [{"s": {"x": 1}}]) == shred_records(STRUCT, [{"s": {"x": 1, "g": []}}])


# ---------------------------------------------------------------------------
# Assembly: level data that cannot be assembled
# ---------------------------------------------------------------------------

BAD_LEVELS = {
    "definition level above the maximum": (
        LIST, [([1], [3, 4], [0, 0])],
        "leaf column a.list.element, entry 1: definition level 4 is outside \\[0, 3\\]"),
    "repetition level above the maximum": (
        LIST, [([1, 2], [3, 3], [0, 2])], "entry 1: repetition level 2 is outside \\[0, 1\\]"),
    "negative level": (LIST, [([], [-1], [0])], "entry 0: definition level -1 is outside"),
    "first entry does not start a record": (
        LIST, [([1], [3], [1])], "entry 0: the first entry has repetition level 1"),
    "level streams of different lengths": (
        LIST, [([1], [3, 0], [0])], "2 definition levels but 1 repetition levels"),
    "more values than defined entries": (
        LIST, [([1, 2], [3, 0], [0, 0])], "1 entries have the maximum definition level 3 .* but 2 values"),
    "fewer values than defined entries": (
        LIST, [([], [3], [0])], "1 entries have the maximum definition level 3 .* but 0 values"),
    "repeating a null list": (
        # row 0: a is null (def 0), then an entry says "another element of the same list"
        LIST, [([], [0, 2], [0, 1])],
        r"leaf column a.list.element, entry 1 \(record 0\): "
        r"repetition level 1 repeats a field that has no open",
    ),
    "repeating a list the entry says is null": (
        # entry 1 repeats at level 1 (another element of a's list) but its definition level 0 says a is null
        LIST, [([1], [3, 0], [0, 1])],
        r"entry 1 \(record 0\): definition level 0 where 2 was expected \(for a.list.element null\)",
    ),
    "a required leaf entry without its value": (
        # s.g.z is required: in an occurrence of g it must be at its maximum definition level 1
        STRUCT, [([1], None, None), ([5, 6], [2, 2], [0, 1]), ([7], [1, 0], [0, 1])],
        r"leaf column s.g.z, entry 1 \(record 0\): definition level 0 where 1 was expected \(for a value\)",
    ),
    "repeating an empty list": (
        LIST, [([1], [1, 3], [0, 1])], r"entry 1 \(record 0\): repetition level 1 repeats a field"),
    "leaves disagree on the number of records": (
        STRUCT, [([1, 2], None, None), ([], [0], [0]), ([], [0], [0])],
        "leaf columns disagree on the number of records: s.x has 2 .* s.g.y has 1",
    ),
    "leaves disagree on presence": (
        # s.g.y says g has an occurrence (def 1), s.g.z says g is empty (def 0)
        STRUCT, [([1], None, None), ([], [1], [0]), ([], [0], [0])],
        "record 0: the leaf columns under s.g disagree on whether it is present .* s.g.y entry 0 says yes, "
        "s.g.z entry 0 says no",
    ),
    "leaves disagree on repetition": (
        # s.g.y has two occurrences of g in record 0, s.g.z only one
        STRUCT, [([1], None, None), ([5, 6], [2, 2], [0, 1]), ([7, 8], [1, 1], [0, 0])],
        "leaf columns disagree on the number of records",
    ),
    "leaves disagree on repetition inside one record": (
        # records: 2 in every column, but the first record has 2 occurrences in y and 1 in z
        STRUCT, [([1, 2], None, None), ([5, 6, 7], [2, 2, 2], [0, 1, 0]), ([7, 8, 9], [1, 1, 1], [0, 0, 1])],
        "disagree on whether it repeats",
    ),
}


@pytest.mark.parametrize("case", BAD_LEVELS, ids=list(BAD_LEVELS))
def test_bad_level_data_is_invalid_level_data(case: str) -> None:
    tree, columns, message = BAD_LEVELS[case]
    with pytest.raises(InvalidLevelData, match=message) as raised:
        assemble_records(tree, columns, offset=4096)
    assert raised.value.offset == 4096


def test_expected_record_count_is_checked() -> None:
    columns = shred_records(LIST, [{"a": {"list": [{"element": 1}]}}, {"a": None}])
    assert len(assemble_records(LIST, columns, expected_records=2)) == 2
    with pytest.raises(InvalidLevelData, match="expected 3 records, the level data holds 2"):
        assemble_records(LIST, columns, expected_records=3)


def test_missing_levels_for_a_nested_leaf_is_a_caller_error() -> None:
    with pytest.raises(ValueError, match="definition levels are required"):
        assemble_records(LIST, [([1], None, [0])])
    with pytest.raises(ValueError, match="1 leaf columns, 2 were given"):
        assemble_records(LIST, [([], [], []), ([], [], [])])


@budget(60)
@given(st.data())
def test_corrupted_levels_never_escape_as_anything_but_invalid_level_data(data) -> None:
    """Change one level of a valid shredding: assembly either returns records
    that shred back to the changed levels or raises InvalidLevelData."""
    tree = data.draw(physical_trees())
    records = data.draw(raw_records(tree))
    columns = [list(map(list, c)) for c in shred_records(tree, records)]
    candidates = [(i, k) for i, c in enumerate(columns) for k in (1, 2) if c[k]]
    if not candidates:
        return
    index, kind = data.draw(st.sampled_from(candidates))
    entry = data.draw(st.integers(0, len(columns[index][kind]) - 1))
    columns[index][kind][entry] = data.draw(st.integers(-1, 6))
    try:
        assembled = assemble_records(tree, [tuple(c) for c in columns])
    except InvalidLevelData:
        return
    assert [list(map(list, c)) for c in shred_records(tree, assembled)] == columns
