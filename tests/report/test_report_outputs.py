"""write_reports writes every file, and each file says what the dataset says."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import duckdb
import pyarrow.parquet as pq

from conformance.report import OUTCOMES, REPORT_FILES
from conformance.report.dataset import Cell
from conformance.report.markdown import _cell_item

from .synthetic import EXPECTED_COUNTS, INT32, NASTY, RUN_ID, make_cell, synthetic_rows


def test_every_file_is_written(report):
    summary, out = report
    for name in REPORT_FILES:
        assert (out / name).is_file(), name
        assert (out / name).stat().st_size > 0, name
        assert summary.files[name] == out / name


def test_summary_counts_engines_and_run(report):
    summary, _ = report
    assert dict(summary.counts) == EXPECTED_COUNTS
    assert list(summary.counts) == list(OUTCOMES)
    assert summary.total == len(synthetic_rows()) == 17
    assert summary.run_id == RUN_ID
    assert summary.formats == ("parquet",)
    assert list(summary.engines) == ["reference", "duckdb", "fastparquet", "pyarrow"]
    assert summary.engines["pyarrow"] == ("17.0.0",)
    assert summary.writers == ("reference", "fastparquet", "pyarrow")
    assert summary.readers == ("reference", "duckdb", "pyarrow")


def test_results_json_round_trips(report):
    summary, out = report
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert doc["schema_version"] == 1
    assert doc["run_id"] == RUN_ID
    assert doc["counts"] == EXPECTED_COUNTS
    assert doc["total"] == 17 == len(doc["cells"])
    assert doc["engines"]["duckdb"] == ["1.1.3"]
    assert doc["reference_self_check"] == {"cells": 2, "non_pass": 0}
    by_id = {c["cell_id"]: c for c in doc["cells"]}
    mismatch = by_id["read/reference/pyarrow/physical/byte-array-delta"]
    assert mismatch["detail"] == NASTY  # verbatim, control character included
    assert mismatch["features"][0] == "type:BYTE_ARRAY"
    assert isinstance(mismatch["spec"], list)
    write = by_id["write/pyarrow/physical/byte-array-delta"]
    assert write["reader"] is None and write["reader_version"] is None
    assert set(mismatch) == {f for f in pq.read_schema(out / "results.parquet").names}
    counted = {o: sum(c["outcome"] == o for c in doc["cells"]) for o in OUTCOMES}
    assert counted == doc["counts"]


def test_junit_parses_and_counts(report):
    _, out = report
    root = ET.parse(out / "junit.xml").getroot()
    assert root.tag == "testsuites"
    assert (root.get("tests"), root.get("failures"), root.get("errors"), root.get("skipped")) == (
        "17",
        "1",
        "4",
        "3",
    )
    suites = {s.get("name"): s for s in root.iter("testsuite")}
    assert list(suites) == ["write", "read:reference", "read:duckdb", "read:pyarrow"]
    assert len(root.findall(".//failure")) == 1
    assert len(root.findall(".//error")) == 4
    assert len(root.findall(".//skipped")) == 3
    duck = suites["read:duckdb"]
    assert (duck.get("tests"), duck.get("errors"), duck.get("skipped")) == ("4", "3", "1")
    write = suites["write"]
    assert (write.get("tests"), write.get("errors"), write.get("skipped")) == ("6", "1", "1")
    err = write.find("testcase[@name='physical/byte-array-delta [pyarrow]']/error")
    assert err.get("type") == "error" and err.get("message").startswith("ArrowNotImplementedError")
    assert "\\x01" in err.text and "\x01" not in err.text
    failure = root.find(".//failure")
    case = next(c for c in root.iter("testcase") if c.find("failure") is not None)
    assert case.get("classname") == "pyarrow"
    assert case.get("name") == "physical/byte-array-delta [reference -> pyarrow]"
    assert '<script>alert("x")</script>' in failure.text
    assert failure.get("type") == "mismatch"
    crash = root.find(".//error[@type='crash']")
    assert crash is not None and "SIGSEGV" in crash.get("message")


def test_results_parquet_reads_back_with_pyarrow_and_duckdb(report):
    _, out = report
    path = out / "results.parquet"
    table = pq.read_table(path)
    assert table.num_rows == 17
    con = duckdb.connect()
    try:
        assert con.sql(f"select count(*) from '{path}'").fetchall() == [(17,)]
        assert len(duckdb.sql(f"select * from '{path}'").fetchall()) == 17
        rows = con.sql(
            f"select outcome, count(*) from '{path}' group by outcome order by outcome"
        ).fetchall()
        assert dict(rows) == {k: v for k, v in EXPECTED_COUNTS.items() if v}
        cell = "write/reference/physical/int32-optional"
        query = f"select features from '{path}' where cell_id = ?"
        [(features,)] = con.execute(query, [cell]).fetchall()
        assert features[0] == "type:INT32"
    finally:
        con.close()


def test_markdown_overview(report):
    _, out = report
    md = (out / "REPORT.md").read_text(encoding="utf-8")
    assert f"**Run:** {RUN_ID}" in md
    assert "| crash | 1 |" in md and "| pass | 9 |" in md
    grid_row = next(line for line in md.splitlines() if line.startswith("| **reference** |"))
    assert grid_row.split(" | ")[1:5] == ["2/2", "2/2", "0/2 (2 failed)", "1/2 (1 failed)"]
    # failing cells one line each, by reader; the unsupported one is a declared gap, not listed
    assert "### Reader `duckdb` 1.1.3 (3)" in md
    assert "### Reader `pyarrow` 17.0.0 (1)" in md
    assert "#### Writer `pyarrow` (1)" in md
    assert "- **crash** `physical/int32-optional` written by `reference`" in md
    # the failures grouped by cause, each with its evidence in a fence longer than its ``` runs
    assert "## Failures by cause" in md and "5 failing cells in 5 groups" in md
    assert "````\nsignal 11 (SIGSEGV)" in md
    assert "\x01" not in md and "got \\x01" in md
    # raw markup from engines appears only inside code fences
    fence, inside = None, []
    for line in md.splitlines():
        marker = re.fullmatch(r"\s*(`{3,})\s*", line)
        if marker and (fence is None or marker.group(1) == fence):
            fence = marker.group(1) if fence is None else None
        elif "<script>" in line or "<b>" in line:
            inside.append(fence is not None)
    assert inside == [True, True]


def test_markdown_marks_a_preview_case():
    """A cell of a case tagged spec:preview (an addition "in Preview", e.g. ALP) says so."""
    alp = ("encoding/alp-double-required-v1", ["encoding:ALP", "spec:preview", "forward_incompatible"])
    cell = Cell.from_row(make_cell("read", "reference", "pyarrow", alp, "unsupported", "OSError"))
    assert _cell_item(cell, by_reader=True)[0].startswith(
        "- **unsupported** `encoding/alp-double-required-v1` (`spec:preview`) written by")
    plain = Cell.from_row(make_cell("read", "reference", "pyarrow", INT32, "mismatch", "diff"))
    assert "spec:preview" not in _cell_item(plain, by_reader=True)[0]


def test_what_each_engine_did_skipped_cells_apart(report):
    _, out = report
    section = (out / "REPORT.md").read_text(encoding="utf-8").split("## What each engine did")[1]
    row = next(line for line in section.splitlines() if line.startswith("| pyarrow |"))
    header = next(line for line in section.splitlines() if line.startswith("| Engine |"))
    reads = header.split(" | ").index("parquet reads")
    # 4 reads ran (3 passed), its own DELTA file was never written: 1 not run, not a failure
    assert row.split(" | ")[reads] == "3/4 (1 failed, 1 not run)"
    roles = json.loads((out / "results.json").read_text())["engine_summaries"]["pyarrow"]["roles"]
    assert roles["parquet/reads"] == {"passes": 3, "performed": 4, "not_run": 1,
                                      "counts": {"pass": 3, "mismatch": 1, "skipped": 1}}
    assert roles["parquet/writes"]["passes"] == 1 and roles["parquet/writes"]["performed"] == 2
