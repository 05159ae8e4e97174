"""`conformance.golden.regressions`: a finding is saved once per example and pair, and
saved examples come back as catalogue cases (issue 6 item 4)."""

from __future__ import annotations

from conformance.cases import Case, WriteOptions, _catalogue, all_cases
from conformance.golden.paths import default_corpus
from conformance.golden.regressions import (
    AREA,
    Finding,
    as_regression,
    known_findings,
    load_regressions,
    regression_id,
    save_regression,
    saved_kinds,
    signature,
)
from conformance.values import DataType, Field, Schema, Table, diff_tables
from conformance.values import types as T

CASE = Case("property/x", "an example", ("parquet.thrift: enum Type",),
            Schema((Field("c", T.integer(8)),)), ((1,), (None,)), WriteOptions(codec="LZO"))
FILE = b"PAR1 not really PAR1"


def _finding(reader: str, outcome: str = "error") -> Finding:
    return Finding("reference", "0", reader, "1", outcome, "boom", "2026-01-01T00:00:00+00:00", "test")


def test_the_id_depends_on_the_definition_not_on_the_name():
    renamed = Case("other/y", "another title", CASE.spec, CASE.schema, CASE.rows, CASE.options)
    assert regression_id(renamed) == regression_id(CASE)
    assert regression_id(Case("property/x", "t", CASE.spec, CASE.schema, ((2,),), CASE.options)) \
        != regression_id(CASE)


def test_a_finding_is_saved_once_and_loads_back_as_a_case(tmp_path):
    finding = _finding("pyarrow")
    assert save_regression(CASE, finding, FILE, tmp_path)
    assert not save_regression(CASE, finding, FILE, tmp_path)
    assert saved_kinds(tmp_path, "parquet") == {("reference", "pyarrow", "error", "boom")}
    assert save_regression(CASE, _finding("duckdb"), FILE, tmp_path)
    assert [f.reader for f in known_findings(CASE, tmp_path)] == ["pyarrow", "duckdb"]
    (loaded,) = load_regressions(tmp_path)
    assert loaded == as_regression(CASE) and loaded.id == f"{AREA}/{regression_id(CASE)}"
    folder = tmp_path / "regressions" / regression_id(CASE)
    assert (folder / "reference.parquet").read_bytes() == FILE


def test_one_bug_met_by_two_examples_has_one_signature():
    """What varies between examples (names, values, numbers, paths) is blanked."""
    assert signature("CorruptPage: column ca.key_value.key, row group 0, page 3: varint value 8589934590\n"
                     "  File x") == signature("CorruptPage: column cb, row group 1, page 0: varint value 7")
    assert signature("row 0, column 'ca': expected [[1, 2]], got null") == \
        signature("row 5, column 'cb': expected false, got true") == "row <n>, column <name>: values differ"
    assert signature("OSError: Failed to read /tmp/a/b.parquet: 'LZO' not supported") == \
        "OSError: Failed to read <path>: <name> not supported"
    assert signature("column 'ca' type: expected ENUM, got BINARY") != \
        signature("column 'ca' type: expected UNKNOWN, got INT(32, signed)")


def test_a_type_difference_has_one_signature_at_any_depth():
    """An engine that reads ENUM as BINARY is one finding, at the top or deep in a column."""
    def detail(t: DataType, read_as: DataType) -> str:
        return diff_tables(Table(Schema((Field("ca", t),)), ()), Table(Schema((Field("ca", read_as),)), ()))

    assert signature(detail(T.enum(), T.binary())) == signature(
        detail(T.list_of(T.map_of(T.enum(), T.string())), T.list_of(T.map_of(T.binary(), T.string()))))


def test_no_regressions_folder_means_no_cases(tmp_path):
    assert load_regressions(tmp_path) == []


def test_the_catalogue_lists_every_saved_regression():
    # The catalogue is built once per process; a property test may have saved one since.
    _catalogue.cache_clear()
    ids = {c.id for c in all_cases()}
    assert {c.id for c in load_regressions(default_corpus())} <= ids
