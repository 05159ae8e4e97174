"""`conformance report RUN RUN ...`: several runs as one report, each engine that ran in
several versions named engine@version (conformance/report/run_merge.py)."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq

from conformance.cli import main
from conformance.report import RESULTS_SCHEMA, load_results
from conformance.report.run_merge import merge_runs

from .synthetic import INT32, make_cell

OLD, NEW = "17.0.0", "26.0.1"


def run(pyarrow_version: str, outcome: str, run_id: str) -> pa.Table:
    """A run where pyarrow (at `pyarrow_version`) reads the reference's INT32 file, plainly
    and filtered, and the reference reads its own."""
    cells = [make_cell("read", "reference", "reference", INT32, "pass", run_id=run_id),
             make_cell("read", "reference", "pyarrow", INT32, outcome, run_id=run_id),
             make_cell("read", "reference", "pyarrow:filter", INT32, outcome, run_id=run_id),
             make_cell("write", "pyarrow", None, INT32, "pass", run_id=run_id)]
    for cell in cells:
        for role in ("writer", "reader"):
            if (cell[role] or "").startswith("pyarrow"):
                cell[f"{role}_version"] = pyarrow_version
    return pa.Table.from_pylist(cells, schema=RESULTS_SCHEMA)


def by_cell(table: pa.Table) -> dict[str, dict]:
    return {row["cell_id"]: row for row in table.to_pylist()}


def test_an_engine_in_two_versions_becomes_two_columns():
    merged = by_cell(merge_runs([run(OLD, "mismatch", "old"), run(NEW, "pass", "new")]))
    case = INT32[0]
    assert merged[f"read/reference/pyarrow@{OLD}/{case}"]["outcome"] == "mismatch"
    assert merged[f"read/reference/pyarrow@{NEW}/{case}"]["outcome"] == "pass"
    assert merged[f"read/reference/pyarrow@{OLD}:filter/{case}"]["reader"] == f"pyarrow@{OLD}:filter"
    assert merged[f"write/pyarrow@{NEW}/{case}"]["writer"] == f"pyarrow@{NEW}"


def test_an_engine_in_one_version_keeps_its_name_and_its_cell_appears_once():
    merged = merge_runs([run(OLD, "mismatch", "old"), run(NEW, "pass", "new")])
    reference_self = [row for row in merged.to_pylist() if row["reader"] == "reference"]
    assert len(reference_self) == 1 and reference_self[0]["run_id"] == "new"
    assert merged.num_rows == 1 + 3 * 2


def test_one_run_is_unchanged():
    table = run(NEW, "pass", "new")
    assert merge_runs([table]).to_pylist() == table.to_pylist()


def test_the_report_command_merges_run_folders(tmp_path):
    for name, version, outcome in (("old", OLD, "mismatch"), ("new", NEW, "pass")):
        (tmp_path / name).mkdir()
        pq.write_table(run(version, outcome, name), tmp_path / name / "part-0.parquet")
    out = tmp_path / "report"
    assert main(["report", str(tmp_path / "old"), str(tmp_path / "new"), "--out", str(out)]) == 0
    readers = set(load_results(out / "results.parquet")["reader"].to_pylist())
    assert {f"pyarrow@{OLD}", f"pyarrow@{NEW}", "reference"} <= readers
    assert f"pyarrow@{OLD}" in (out / "REPORT.md").read_text()
    status = json.loads((out / "results.json").read_text())["status"]["parquet"]
    columns = {e["engine"]: e for e in status["engines"]}
    assert {f"pyarrow@{OLD}", f"pyarrow@{NEW}"} <= set(columns)  # one status column per release
    front = (out / "index.html").read_text()
    assert f"pyarrow@{OLD}@{OLD}" not in front


def test_an_engine_not_at_the_golden_corpuss_version_is_named_in_the_report(tmp_path):
    from conformance.golden.paths import default_corpus
    from conformance.golden.writer_versions import corpus_versions, version_notes

    recorded = corpus_versions(default_corpus())
    assert recorded["pyarrow"], "the corpus records the pyarrow version of its files"
    notes = version_notes({"pyarrow": [OLD], f"pyarrow@{OLD}:filter": [OLD], "reference":
                           sorted(recorded["reference"]), "polars": ["2.1.0"]}, default_corpus())
    assert set(notes) == {"pyarrow", f"pyarrow@{OLD}:filter"}
    assert f"pyarrow {OLD} is not the version the golden corpus was written with" in notes["pyarrow"]
    out = tmp_path / "report"
    (tmp_path / "old").mkdir()
    pq.write_table(run(OLD, "pass", "old"), tmp_path / "old" / "part-0.parquet")
    assert main(["report", str(tmp_path / "old"), "--out", str(out)]) == 0
    assert "is not the version the golden corpus was written with" in (out / "REPORT.md").read_text()
