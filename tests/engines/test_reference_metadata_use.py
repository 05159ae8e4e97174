"""Do the peers read the reference's statistics, column index and Bloom filters?

A structure a reader ignores cannot be wrong for it, so "they agree with the
values" is shown in two halves:

* honest files: each reader's filtered read returns exactly the rows a full
  scan finds (the cases' own predicates, `Predicate.apply`), and DuckDB reports
  the reference's statistics as the values' min and max;
* lying files (`WriteOptions.lies`, reference only): a reader that uses the
  structure acts on it and misses the row, which shows it read the
  reference's bytes. Which reader uses which structure is measured here and
  pinned, so a change in an engine shows up as a failing test.
"""

from __future__ import annotations

import duckdb
import pytest

from conformance.cases import case_by_id
from conformance.engines import get_engine
from conformance.values import diff_tables

HONEST = ["page_index/point-lookup", "page_index/unordered-range", "page_index/null-pages",
          "bloom_filter/string", "bloom_filter/double", "statistics/uint32-extremes",
          "statistics/binary-high-bit", "statistics/decimal-fixed_len_byte_array-mixed-sign"]
LIES = ["page_index/lying-statistics", "page_index/lying-column-index", "bloom_filter/lying-int32"]
# DuckDB prunes pages with the column index since 2.0.1 (measured: 2.0.0 did not).
_DUCKDB_USES_COLUMN_INDEX = tuple(int(p) for p in duckdb.__version__.split(".")[:3]) >= (2, 0, 1)
# Measured: the readers that act on each lie (and so read that structure of ours).
TRUSTED = {
    "reference": {"page_index/lying-statistics", "page_index/lying-column-index",
                  "bloom_filter/lying-int32"},
    "pyarrow": {"page_index/lying-statistics"},
    "duckdb": {"page_index/lying-statistics", "bloom_filter/lying-int32"}
              | ({"page_index/lying-column-index"} if _DUCKDB_USES_COLUMN_INDEX else set()),
    "spark": {"page_index/lying-statistics", "page_index/lying-column-index",
              "bloom_filter/lying-int32"},
}
READERS = [pytest.param(name, marks=pytest.mark.spark) if name == "spark" else name
           for name in TRUSTED]


@pytest.fixture(scope="module")
def reference_files(tmp_path_factory):
    folder = tmp_path_factory.mktemp("reference-metadata")
    paths = {}
    for case_id in HONEST + LIES:
        paths[case_id] = folder / (case_id.replace("/", "__") + ".parquet")
        get_engine("reference").write(case_by_id(case_id), paths[case_id])
    return paths


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("case_id", HONEST)
def test_filtered_reads_of_honest_reference_files_match_a_full_scan(reference_files, reader, case_id,
                                                                      request):
    if reader == "spark":
        request.getfixturevalue("spark")
    case = case_by_id(case_id)
    got = get_engine(reader).read_filtered(reference_files[case_id], case.predicate)
    assert diff_tables(case.predicate.apply(case.expected), got) is None


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("case_id", LIES)
def test_which_reader_acts_on_which_lie(reference_files, reader, case_id, request):
    if reader == "spark":
        request.getfixturevalue("spark")
    case = case_by_id(case_id)
    got = get_engine(reader).read_filtered(reference_files[case_id], case.predicate)
    expected = case.predicate.apply(case.expected)
    assert len(expected.rows) == 1
    if case_id in TRUSTED[reader]:
        assert got.rows == ()  # it pruned the row's row group or page on the lie
    else:
        assert diff_tables(expected, got) is None


def test_duckdb_reads_the_reference_statistics_as_the_values_bounds(reference_files):
    path = reference_files["page_index/point-lookup"]
    rows = duckdb.sql(
        "SELECT row_group_id, path_in_schema, stats_min_value, stats_max_value, stats_null_count "
        f"FROM parquet_metadata('{path}') ORDER BY row_group_id, path_in_schema").fetchall()
    case = case_by_id("page_index/point-lookup")
    for group, column, low, high, nulls in rows:
        index = case.schema.names.index(column)
        values = [row[index] for row in case.rows[group * 30:(group + 1) * 30]]
        present = [v for v in values if v is not None]
        assert (low, high) == (str(min(present)), str(max(present)))
        assert nulls == len(values) - len(present)
