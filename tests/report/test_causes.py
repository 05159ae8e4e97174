"""Failures grouped by cause (conformance.report.causes, .signature)."""

from __future__ import annotations

import pyarrow as pa

from conformance.report import RESULTS_SCHEMA, summarise
from conformance.report.causes import causes, causes_markdown, engine_groups, write_causes_page
from conformance.report.markdown import md_block, md_text
from conformance.report.signature import difference_kind, normalise_message

from .synthetic import DELTA, INT32, make_cell

R = "read"
PATH_ERROR_1 = ("OSError: Could not open '/tmp/run-1/files/a.parquet': offset 52 beyond 4096\n"
                '  File "/x/y.py", line 3, in read')
PATH_ERROR_2 = "OSError: Could not open '/tmp/run-2/files/b/c.parquet': offset 7 beyond 128"
OTHER_CLASS = "ArrowInvalid: Could not open '/tmp/run-1/files/a.parquet': offset 52 beyond 4096"


def _summary(rows):
    return summarise(pa.Table.from_pylist(rows, schema=RESULTS_SCHEMA))


def _rows():
    return [
        make_cell(R, "reference", "duckdb", INT32, "error", PATH_ERROR_1),
        make_cell(R, "pyarrow", "duckdb", DELTA, "error", PATH_ERROR_2),
        make_cell(R, "fastparquet", "duckdb", INT32, "error", OTHER_CLASS),
        make_cell(R, "reference", "pyarrow", INT32, "skipped", "no file to read: writer x error"),
        make_cell(R, "reference", "pyarrow", DELTA, "skipped", "no file to read: writer x error"),
        make_cell(R, "reference", "fastparquet", DELTA, "unsupported", "cannot read DELTA_BYTE_ARRAY"),
        make_cell(R, "reference", "fastparquet", INT32, "pass"),
        make_cell("write", "pyarrow", None, INT32, "error", "ArrowNotImplementedError: no INT32"),
    ]


def test_errors_differing_only_by_numbers_and_paths_are_one_group():
    report = causes(_summary(_rows()))
    duckdb = engine_groups(report.failures, "duckdb")
    assert [g.count for g in duckdb] == [2, 1]
    assert duckdb[0].signature.kind == "OSError: Could not open <value>: offset <n> beyond <n>"
    assert duckdb[0].signature.error_class == "OSError"
    assert duckdb[0].cases == sorted([INT32[0], DELTA[0]])
    assert "encoding:DELTA_BYTE_ARRAY" in duckdb[0].features


def test_different_error_classes_are_different_groups():
    report = causes(_summary(_rows()))
    classes = {g.signature.error_class for g in engine_groups(report.failures, "duckdb")}
    assert classes == {"OSError", "ArrowInvalid"}


def test_skipped_and_unsupported_cells_are_not_failures():
    report = causes(_summary(_rows()))
    assert report.failing_cells == 4  # three reads and the write
    assert all(g.signature.outcome not in ("skipped", "unsupported", "pass") for g in report.failures)
    assert report.skipped == {("pyarrow", "no file to read: writer x error"): 2}
    assert [(g.signature.engine, g.count) for g in report.gaps] == [("fastparquet", 1)]


def test_a_write_failure_is_the_writers():
    report = causes(_summary(_rows()))
    [write] = engine_groups(report.failures, "pyarrow")
    assert (write.signature.outcome, write.reproducer.phase) == ("error", "write")


def test_message_placeholders():
    assert normalise_message("X: 'col' at 0x7f3a9c and LocalInputFile@30506c0d, file:///tmp/a/b.parquet") \
        == "X: <value> at <hex> and LocalInputFile@<hex>, <path>"
    assert normalise_message("Illegal type FLOAT16 in column a.b at offset 12") \
        == "Illegal type FLOAT16 in column <name> at offset <n>"


def test_kinds_of_value_difference():
    nan = 'row 0, column \'x\': expected "nan:0x7ff0000000000001", got "nan"'
    assert difference_kind(nan) == "float bits: NaN payload or sign changed"
    assert difference_kind("row 3, column 'l': expected null, got []") == "null read as an empty list"
    assert difference_kind("row 3, column 'l': expected [[1], null], got [[1], []]") \
        == "null read as an empty list"
    assert difference_kind("column 'v' type: expected TIMESTAMP(us, utc=False), got TIMESTAMP(us, "
                           "utc=True) (isAdjustedToUTC differs)") \
        == "type: TIMESTAMP(local) read as TIMESTAMP(UTC)"
    assert difference_kind("row count: expected 3, got 1") == "row count: fewer rows"
    assert difference_kind('row 0, column \'t\': expected "7919000055433" (INT96), got "7919000055" '
                           "(TIMESTAMP(us, utc=False))") \
        == "values changed: INT96 read as TIMESTAMP(us, utc=False)"
    assert difference_kind("filtered read WHERE x != nan: 3 row(s), expected the 8 a full scan finds\n"
                           "row count: expected 8, got 3") \
        == "filtered read (x != NAN): fewer rows than a full scan finds"


def test_causes_page_and_markdown(tmp_path):
    report = causes(_summary(_rows()))
    page = write_causes_page(tmp_path, report).read_text(encoding="utf-8")
    anchor = report.failures[0].anchor
    assert f'id="{anchor}"' in page and f'href="#{anchor}"' in page
    assert "pairs/reference--duckdb.html#c-" in page  # every cell links to its evidence
    lines = causes_markdown(report, md_text, md_block)
    assert lines[0].startswith("4 failing cells in 3 groups (2 skipped and 1 unsupported")
    assert sum(map(len, lines)) < 10_000


def test_the_reference_failing_on_a_peers_file_is_the_writers_finding():
    nan = 'row 0, column \'x\': expected "nan:0x7ff0000000000001", got "nan"'
    report = causes(_summary([make_cell(R, "pyarrow", "reference", INT32, "mismatch", nan),
                              make_cell(R, "reference", "reference", INT32, "mismatch", nan)]))
    assert sorted((g.signature.engine, g.signature.kind) for g in report.failures) == [
        ("pyarrow", "file read by the reference: float bits: NaN payload or sign changed"),
        ("reference", "float bits: NaN payload or sign changed")]
