"""Filtered reads of ORC files (the `:filter` cells of the `orc/indexes` cases): which
reader prunes with which structure, measured on the reference's files.

* honest files: each reader's filtered read returns exactly the rows a full scan finds
  (the case's own predicate, `Predicate.apply`);
* lying files (`OrcWriteOptions.lies`, reference only): a reader that uses the structure
  acts on the lie and misses the row. Which reader uses which structure is pinned here,
  so a change in an engine shows up as a failing test
  (docs/engine-notes.md, 'Filtered reads of ORC files').
"""

from __future__ import annotations

import pytest

from conformance.cases import case_by_id
from conformance.cases.orc.indexes import cases
from conformance.engines import Unsupported, get_engine
from conformance.values import diff_tables

LIES = ["orc/indexes/lying-statistics", "orc/indexes/lying-row-index", "orc/indexes/lying-bloom-filter"]
HONEST = [case.id for case in cases() if case.id not in LIES]
# Measured: the readers that act on each lie (and so prune with that structure).
TRUSTED = {
    "reference": set(LIES),
    "pyorc": set(LIES),
    "pyarrow": set(),  # pyarrow.dataset over ORC prunes with nothing
    "spark": {"orc/indexes/lying-row-index", "orc/indexes/lying-bloom-filter"},  # no stripe statistics
}
# Spark reads an ORC TIMESTAMP as an instant in microseconds (its plain read's own tests);
# pyorc has no BINARY predicate column (below).
SPARK_HONEST = ["orc/indexes/statistics-range", "orc/indexes/bloom-filter-string-absent",
                "orc/indexes/bloom-filter-decimal", "orc/indexes/bloom-filter-date-absent"]
PYORC_UNSUPPORTED = {"orc/indexes/bloom-filter-binary", "orc/indexes/bloom-filter-binary-absent"}


def _readers(honest: bool) -> list:
    return [pytest.param(name, marks=pytest.mark.spark) if name == "spark" else name for name in TRUSTED
            if not (honest and name == "spark")]


@pytest.fixture(scope="module")
def reference_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("orc-indexes")
    paths = {}
    for case_id in HONEST + LIES:
        paths[case_id] = folder / (case_id.replace("/", "__") + ".orc")
        get_engine("reference", "orc").write(case_by_id(case_id), paths[case_id])
    return paths


def _filtered(reader: str, path, case_id: str):
    return get_engine(reader, "orc").read_filtered(path, case_by_id(case_id).predicate)


@pytest.mark.parametrize("reader", _readers(honest=True))
@pytest.mark.parametrize("case_id", HONEST)
def test_filtered_reads_of_honest_files_match_a_full_scan(reference_files, reader, case_id) -> None:
    case = case_by_id(case_id)
    if reader == "pyorc" and case_id in PYORC_UNSUPPORTED:
        with pytest.raises(Unsupported, match="BINARY"):
            _filtered(reader, reference_files[case_id], case_id)
        return
    assert diff_tables(case.predicate.apply(case.expected), _filtered(reader, reference_files[case_id],
                                                                      case_id)) is None


@pytest.mark.spark
@pytest.mark.parametrize("case_id", SPARK_HONEST)
def test_spark_filtered_reads_of_honest_files_match_a_full_scan(spark, reference_files, case_id) -> None:
    case = case_by_id(case_id)
    assert diff_tables(case.predicate.apply(case.expected), _filtered("spark", reference_files[case_id],
                                                                      case_id)) is None


@pytest.mark.parametrize("reader", _readers(honest=False))
@pytest.mark.parametrize("case_id", LIES)
def test_which_reader_acts_on_which_lie(reference_files, reader, case_id, request) -> None:
    if reader == "spark":
        request.getfixturevalue("spark")
    case = case_by_id(case_id)
    got = _filtered(reader, reference_files[case_id], case_id)
    expected = case.predicate.apply(case.expected)
    assert len(expected.rows) == 1
    if case_id in TRUSTED[reader]:
        assert got.rows == ()  # it skipped the row's stripe or row group on the lie
    else:
        assert diff_tables(expected, got) is None


# Rows pyorc returns before the adapter's filter: whole row groups (of 1,000 rows).
PYORC_ROW_GROUPS = {"orc/indexes/statistics-range": 1_000, "orc/indexes/bloom-filter-int": 1_000,
                    "orc/indexes/bloom-filter-int-absent": 0, **dict.fromkeys(LIES, 0)}


@pytest.mark.parametrize(("case_id", "rows"), PYORC_ROW_GROUPS.items())
def test_pyorc_returns_the_row_groups_it_does_not_skip(reference_files, case_id, rows) -> None:
    pyorc = get_engine("pyorc", "orc")
    assert len(pyorc.read_row_groups(reference_files[case_id], case_by_id(case_id).predicate).rows) == rows


def test_pyorc_has_no_null_test(reference_files) -> None:
    from conformance.cases.predicate import Predicate

    predicate = Predicate("x", "is_null").bind(case_by_id("orc/indexes/statistics-range").schema)
    with pytest.raises(Unsupported, match="no null test"):
        get_engine("pyorc", "orc").read_filtered(reference_files["orc/indexes/statistics-range"], predicate)
