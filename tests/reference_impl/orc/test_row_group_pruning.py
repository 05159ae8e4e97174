"""The reference's filtered reads of ORC files (reference_impl/orc/row_group_pruning.py):
what it skips with each structure, on files the reference, pyarrow and pyorc write during
the test, and rows always equal to a full scan's on files whose metadata is true.

The files are the `orc/indexes` cases' (conformance/cases/orc/indexes.py): 2,500 rows,
stripes of 2,048 rows, row groups of 1,000, so the first stripe has row groups of 1,000,
1,000 and 48 rows and the second one of 452; the column `x` has a null every 11th row.
"""

from __future__ import annotations

import dataclasses
import operator

import pytest

from conformance.cases import case_by_id
from conformance.cases.orc.indexes import cases
from conformance.engines import get_engine
from reference_impl.orc.row_group_pruning import Predicate, filtered_rows
from tests.reference_impl.orc.orc_mutations import with_writer_version

WRITERS = ("reference", "pyarrow", "pyorc")
STRIDE = 1_000
PYTHON_OPS = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
              ">": operator.gt, ">=": operator.ge}


def _written(tmp_path, writer: str, case_id: str) -> bytes:
    path = tmp_path / f"{writer}.orc"
    get_engine(writer, "orc").write(case_by_id(case_id), path)
    return path.read_bytes()


def _scan(data: bytes, case_id: str, op: str | None = None, value: object = None):
    predicate = case_by_id(case_id).predicate
    return filtered_rows(data, Predicate("x", op or predicate.op, predicate.value if op is None else value))


def _full_scan(case_id: str, op: str | None = None, value: object = None) -> list[int]:
    """The row numbers whose `x` satisfies the comparison, from the case's rows: Python's
    comparison of ints and ASCII strings is the predicate's order."""
    predicate = case_by_id(case_id).predicate
    compare, target = PYTHON_OPS[op or predicate.op], predicate.value if op is None else value
    return [number for number, (_, x) in enumerate(case_by_id(case_id).rows)
            if x is not None and compare(x, target)]


# (case, stripes skipped, row groups skipped, rows read): what each structure excludes.
EXPECTED_SKIPS = [
    # x < the value of row 700: the second stripe by its statistics, the first stripe's
    # row groups 1 and 2 by the row index; row group 0 is read.
    ("orc/indexes/statistics-range", {"stripe_statistics": 1}, {"row_index": 2}, STRIDE),
    # A value no row holds, inside row group 1's bounds: its Bloom filter alone excludes it.
    ("orc/indexes/bloom-filter-bigint-absent", {"stripe_statistics": 1},
     {"row_index": 2, "bloom_filter": 1}, 0),
    # Strings scattered over every row group: only the Bloom filters exclude the value.
    ("orc/indexes/bloom-filter-string-absent", {}, {"bloom_filter": 4}, 0),
    # The value of row 1,500: read from row group 1 alone.
    ("orc/indexes/bloom-filter-int", {"stripe_statistics": 1}, {"row_index": 2}, STRIDE),
]


@pytest.mark.parametrize("writer", WRITERS)
@pytest.mark.parametrize(("case_id", "stripes", "row_groups", "rows_read"), EXPECTED_SKIPS)
def test_what_each_structure_skips(tmp_path, writer, case_id, stripes, row_groups, rows_read) -> None:
    found = _scan(_written(tmp_path, writer, case_id), case_id)
    assert found.stripes_skipped == stripes
    assert found.row_groups_skipped == row_groups
    assert found.rows_read == rows_read
    assert found.row_numbers == _full_scan(case_id)


@pytest.mark.parametrize("writer", WRITERS)
@pytest.mark.parametrize("op", list(PYTHON_OPS))
@pytest.mark.parametrize("row", [0, 999, 1_000, 2_047, 2_048, 2_499])
def test_every_comparison_finds_what_a_full_scan_finds(tmp_path, writer, op, row) -> None:
    case_id = "orc/indexes/statistics-range"
    data = _written(tmp_path, writer, case_id)
    rows = case_by_id(case_id).rows
    value = rows[row][1] if rows[row][1] is not None else rows[row + 1][1]  # row 0 is a null
    found = _scan(data, case_id, op, value)
    assert found.row_numbers == _full_scan(case_id, op, value)
    assert [row["id"] for row in found.rows] == found.row_numbers  # the id column is the row number


def test_null_tests_use_has_null_and_the_count_of_values(tmp_path) -> None:
    data = _written(tmp_path, "reference", "orc/indexes/statistics-range")
    nulls = filtered_rows(data, Predicate("x", "is_null"))
    assert nulls.row_numbers == list(range(0, 2_500, 11))
    assert filtered_rows(data, Predicate("x", "is_not_null")).rows_read == 2_500


@pytest.mark.parametrize(("case_id", "structure"), [
    ("orc/indexes/lying-statistics", "stripe_statistics"), ("orc/indexes/lying-row-index", "row_index"),
    ("orc/indexes/lying-bloom-filter", "bloom_filter")])
def test_a_lie_is_trusted_as_a_pruning_reader_trusts_it(tmp_path, case_id, structure) -> None:
    found = _scan(_written(tmp_path, "reference", case_id), case_id)
    assert _full_scan(case_id) == [1_500]
    assert found.rows == []
    assert structure in {**found.stripes_skipped, **found.row_groups_skipped}


@pytest.mark.parametrize(("version", "found"), [(0, [1_500]), (7, [])])
def test_statistics_of_orc_java_before_hive_8732_are_not_trusted(tmp_path, version, found) -> None:
    """validation/writer_version.py: a file of ORC Java before HIVE-8732 (writer_version 1)
    has untrue stripe and file maxima, so its stripe bounds prune nothing; its row index
    (true here) still does."""
    case_id = "orc/indexes/lying-statistics"
    data = with_writer_version(_written(tmp_path, "reference", case_id), version)
    assert _scan(data, case_id).row_numbers == found


def test_boolean_bloom_filters_skip_nothing(tmp_path) -> None:
    """ORC Java writes BOOLEAN Bloom filters with no bit set (docs/orc-spec-notes.md, note 12),
    as the reference's lie does: a reader that trusted them would lose every true."""
    case = case_by_id("orc/indexes/bloom-filter-boolean")
    no_bits = dataclasses.replace(case, options=dataclasses.replace(case.options, lies=("bloom_filter",)))
    path = tmp_path / "boolean.orc"
    get_engine("reference", "orc").write(no_bits, path)
    found = filtered_rows(path.read_bytes(), Predicate("x", "==", True))
    assert found.row_groups_skipped == {}
    assert found.row_numbers == _full_scan(case.id)


TYPED_CASES = [case.id for case in cases() if case.id.startswith("orc/indexes/bloom-filter-")
               and not case.id.endswith(("-absent", "-boolean"))]


@pytest.mark.parametrize("case_id", TYPED_CASES)
def test_every_type_and_comparison_finds_what_a_full_scan_finds(tmp_path, case_id) -> None:
    """Each type's bounds (integers, floats, UTF-8 strings, binary without bounds, decimals
    as text, dates, timestamps in UTC milliseconds) against every comparison with the probe."""
    data = _written(tmp_path, "reference", case_id)
    for op in PYTHON_OPS:
        assert _scan(data, case_id, op, case_by_id(case_id).predicate.value).row_numbers == \
            _full_scan(case_id, op, case_by_id(case_id).predicate.value), op
