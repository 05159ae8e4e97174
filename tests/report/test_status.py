"""The measured status tables and the conformance score, over small synthetic runs.

Each test builds the cells it needs with ``synthetic.make_cell`` (the dataset's own
schema) and reads them back through ``load_results``/``summarise`` as a report does.
"""

from __future__ import annotations

import pytest

from conformance.cases.model import KEYLESS_VIEW_TAG
from conformance.report import load_results, summarise
from conformance.report.status import (
    SIDE_NONE,
    SIDE_OK,
    STATE_BOTH,
    STATE_NO_DATA,
    STATE_READS,
    STATE_UNSUPPORTED,
    STATE_WRONG,
    status_tables,
    tables_json,
)
from conformance.report.status_rows import ROWS, Selector, tag_matches
from conformance.specs import citations

from .synthetic import make_cell, write_dataset

INT96 = ("physical/int96-optional", ["physical:INT96", "type:INT96", "encoding:PLAIN", "page:v1"])
INT96_MORE = ("physical/int96-required", ["physical:INT96", "type:INT96", "encoding:PLAIN", "page:v1"])
INT96_ROW = "physical-int96"
W, R = "write", "read"


def _passing_pair(case, writer: str, reader: str) -> list[dict]:
    """``writer`` writes ``case``, the reference and the validator accept it, ``reader`` reads it."""
    return [make_cell(W, writer, None, case, "pass"),
            make_cell(R, writer, "reference", case, "pass"),
            make_cell(R, writer, "validator", case, "pass"),
            make_cell(R, writer, reader, case, "pass")]


def _tables(rows: list[dict], tmp_path):
    return status_tables(summarise(load_results(write_dataset(rows, tmp_path / "results"))))


def _square(tables, engine: str, key: str = INT96_ROW, fmt: str = "parquet"):
    table = tables[fmt]
    row = next(r for r in table.rows if r.key == key)
    return table.square(row, engine)


def _base() -> list[dict]:
    return [*_passing_pair(INT96, "reference", "pyarrow"), *_passing_pair(INT96, "pyarrow", "pyarrow")]


def test_an_engine_reading_and_writing_a_feature_correctly_is_both(tmp_path) -> None:
    square = _square(_tables(_base(), tmp_path), "pyarrow")
    assert square.state == STATE_BOTH
    assert (square.read.state, square.write.state) == (SIDE_OK, SIDE_OK)
    assert square.value() == 1.0


def test_a_wrong_read_is_counted_with_its_cells(tmp_path) -> None:
    bad = make_cell(R, "reference", "duckdb", INT96, "mismatch", "row 1: expected 1, got 0")
    square = _square(_tables([*_base(), bad], tmp_path), "duckdb")
    assert square.state == STATE_WRONG
    assert [c.cell_id for c in square.wrong_cells] == [bad["cell_id"]]
    assert square.value() == 0.0


def test_a_declared_gap_of_the_feature_is_not_supported_with_its_reason(tmp_path) -> None:
    rows = [*_base(), make_cell(W, "fastparquet", None, INT96, "unsupported",
                                "cannot write type:INT96: no INT96 writer")]
    square = _square(_tables(rows, tmp_path), "fastparquet")
    assert square.state == STATE_UNSUPPORTED
    assert square.reason() == "cannot write type:INT96: no INT96 writer"


def test_a_gap_declared_for_another_feature_of_the_case_says_nothing(tmp_path) -> None:
    """A writer of data page v2 only cannot write the v1 INT96 case: no data on INT96."""
    rows = [*_base(), make_cell(W, "hyparquet", None, INT96, "unsupported",
                                "cannot write page:v1: writes data page v2 only"),
            make_cell(R, "reference", "hyparquet", INT96, "pass")]
    square = _square(_tables(rows, tmp_path), "hyparquet")
    assert (square.read.state, square.write.state) == (SIDE_OK, SIDE_NONE)
    assert square.state == STATE_READS


def test_a_skipped_cell_is_never_a_failure(tmp_path) -> None:
    rows = [*_base(), make_cell(R, "fastparquet", "pyarrow", INT96, "skipped", "no file to read")]
    tables = _tables(rows, tmp_path)
    assert _square(tables, "pyarrow").state == STATE_BOTH
    only_skipped = _square(tables, "fastparquet")
    assert only_skipped.state == STATE_NO_DATA and only_skipped.value() is None


def test_a_file_the_reference_cannot_read_judges_its_writer_not_its_readers(tmp_path) -> None:
    rows = [*_base(), make_cell(W, "duckdb", None, INT96, "pass"),
            make_cell(R, "duckdb", "reference", INT96, "mismatch", "nanos read as 0"),
            make_cell(R, "duckdb", "pyarrow", INT96, "mismatch", "nanos read as 0")]
    tables = _tables(rows, tmp_path)
    assert _square(tables, "pyarrow").state == STATE_BOTH
    assert _square(tables, "reference").state == STATE_BOTH
    duckdb = _square(tables, "duckdb")
    assert duckdb.write.state != SIDE_OK and duckdb.state == STATE_WRONG


def test_a_passing_case_added_to_a_passing_row_leaves_the_score(tmp_path) -> None:
    before = _tables(_base(), tmp_path / "before")["parquet"].score("pyarrow")
    more = [*_base(), *_passing_pair(INT96_MORE, "pyarrow", "pyarrow")]
    after = _tables(more, tmp_path / "after")["parquet"].score("pyarrow")
    assert before == after
    assert (after.value, after.measured, after.wrong_rows) == (100, 2, 0)  # INT96 and PLAIN


def test_one_more_failing_cell_in_a_wrong_row_leaves_the_score(tmp_path) -> None:
    one = [*_base(), make_cell(R, "reference", "duckdb", INT96, "error", "boom")]
    two = [*one, make_cell(R, "pyarrow", "duckdb", INT96, "error", "boom")]
    first = _tables(one, tmp_path / "one")["parquet"].score("duckdb")
    second = _tables(two, tmp_path / "two")["parquet"].score("duckdb")
    assert first.value == second.value == 0


def test_the_score_averages_fixed_row_values(tmp_path) -> None:
    """Reads ok on INT96 (1), reads ok and writes not supported on DATE: one side of value
    0 and one of 1, a row of 0.5: the mean over the two rows is 75."""
    date = ("physical/date-optional", ["physical:INT32", "type:DATE", "page:v1"])
    rows = [*_base(), *_passing_pair(date, "reference", "pyarrow"),
            make_cell(W, "pyarrow", None, date, "unsupported", "cannot write type:DATE: no")]
    table = _tables(rows, tmp_path)["parquet"]
    assert table.score("pyarrow", "Physical types").value == 75


def test_a_row_no_case_measures_is_no_data_and_listed(tmp_path) -> None:
    table = _tables(_base(), tmp_path)["parquet"]
    no_data = {r.key for r in table.no_data_rows()}
    assert {"format-size-statistics", "api-sorting-columns"} <= no_data
    assert INT96_ROW not in no_data


def test_the_json_names_states_and_wrong_cells(tmp_path) -> None:
    bad = make_cell(R, "reference", "duckdb", INT96, "crash", "SIGSEGV")
    data = tables_json(_tables([*_base(), bad], tmp_path))["parquet"]
    row = next(r for r in data["rows"] if r["key"] == INT96_ROW)
    assert row["squares"]["duckdb"]["state"] == STATE_WRONG
    assert row["squares"]["duckdb"]["wrong_cells"] == [bad["cell_id"]]
    assert row["squares"]["pyarrow"]["sides"] == {"read": SIDE_OK, "write": SIDE_OK}
    assert {e["engine"] for e in data["engines"]} == {"reference", "pyarrow", "duckdb"}


def test_filtered_reads_measure_the_pruning_rows(tmp_path) -> None:
    stats = ("statistics/int32-signed", ["physical:INT32", "type:INT(32,signed)", "predicate",
                                         "statistics"])
    rows = [*_passing_pair(stats, "reference", "pyarrow"),
            make_cell(R, "reference", "pyarrow:filter", stats, "mismatch", "pruned a matching row"),
            make_cell(R, "reference", "duckdb:filter", stats, "unsupported",
                      "measured: duckdb has no filtered read in this adapter")]
    tables = _tables(rows, tmp_path)
    assert _square(tables, "pyarrow", "api-rowgroup-pruning-stats").state == STATE_WRONG
    assert _square(tables, "duckdb", "api-rowgroup-pruning-stats").state == STATE_NO_DATA


def test_a_bad_file_rejected_is_a_read_and_one_accepted_is_wrong(tmp_path) -> None:
    bad = ("bad/footer/truncated", ["verdict:bad", "fault:footer", "bad:TruncatedFile"])
    rows = [*_base(), make_cell("reject", "bad-files", "reference", bad, "pass", "rejected"),
            make_cell("reject", "bad-files", "pyarrow", bad, "mismatch", "accepted a bad file")]
    tables = _tables(rows, tmp_path)
    assert _square(tables, "reference", "reject-footer").state == STATE_READS
    assert _square(tables, "pyarrow", "reject-footer").state == STATE_WRONG


def test_a_keyless_read_of_the_masked_view_counts_in_its_own_row_not_as_encryption(tmp_path) -> None:
    """pyarrow has no way to take ORC keys: its passing read of the masked view
    (``view:keyless``) says nothing of reading encrypted columns with the keys."""
    case_id, tags = "orc/encryption/mask-redact", ["encryption:column", "mask:redact", "type:STRING"]
    true_view, masked_view = (case_id, tags), (case_id, [*tags, KEYLESS_VIEW_TAG])
    rows = [make_cell(W, "reference", None, true_view, "pass"),
            make_cell(R, "reference", "reference", true_view, "pass"),
            make_cell(R, "reference", "validator", true_view, "pass"),
            make_cell(R, "reference", "pyarrow", masked_view, "pass")]
    tables = _tables([{**row, "format": "orc"} for row in rows], tmp_path)
    assert _square(tables, "pyarrow", "orc-masked-view", "orc").state == STATE_READS
    assert _square(tables, "pyarrow", "orc-encryption", "orc").state == STATE_NO_DATA
    assert _square(tables, "reference", "orc-encryption", "orc").state == STATE_BOTH
    assert _square(tables, "reference", "orc-masked-view", "orc").state == STATE_NO_DATA


def test_rows_are_unique_and_measure_something_or_say_why_not() -> None:
    for fmt, rows in ROWS.items():
        keys = [r.key for r in rows]
        assert len(keys) == len(set(keys)), fmt
        for row in rows:
            assert row.selector is not None or row.note, row.key


def test_every_row_cites_a_section_that_exists() -> None:
    index = citations.load_index()
    problems = {}
    for row in (r for rows in ROWS.values() for r in rows):
        citation = citations.entry_citation(row.spec, 0, index)
        problems[row.key] = (citations.unresolved(index, citation) if citation
                             else "not a 'SPEC: Section' entry")
    assert not {key: why for key, why in problems.items() if why}


@pytest.mark.parametrize(("pattern", "tag", "expected"), [
    ("bloom", "bloom", True), ("bloom", "bloom:x", False),
    ("type:INT(*", "type:INT(8,signed)", True), ("type:INT(*", "type:INT96", False),
])
def test_tag_patterns(pattern: str, tag: str, expected: bool) -> None:
    assert tag_matches(pattern, tag) is expected


def test_a_selector_takes_area_all_any_and_none() -> None:
    selector = Selector(all_of=("type:LIST",), none_of=("legacy:*",), areas=("nested/",))
    assert selector.matches_case("nested/list-int32", ["type:LIST"])
    assert not selector.matches_case("nested/legacy-two-level", ["type:LIST", "legacy:two_level"])
    assert not selector.matches_case("logical/list", ["type:LIST"])
