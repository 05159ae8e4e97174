"""The matrix end to end on local Spark: real engines, a crashing one, the results dataset."""

from __future__ import annotations

import duckdb
import pyarrow.parquet as pq
import pytest

from conformance.matrix.run import RunConfig, run_matrix
from conformance.report import exit_code, write_reports

CRASHING = "tests.support.crashing_engine:CrashingEngine"
CASES = ["physical/int32-optional", "physical/string-required", "physical/uint64-optional",
         "shape/row-groups"]
BAD_FILE = "framing/bad-leading-magic"  # selected like a case, by bad/<id>
# The hung cell's limit: also the other cells' (the reference's write before it), which on a
# busy machine (two test processes, their JVMs) may take more than a few seconds.
HUNG_CELL_LIMIT_S = 15

pytestmark = [pytest.mark.spark, pytest.mark.usefixtures("importable_tests")]


@pytest.fixture(scope="module")
def run(spark, tmp_path_factory):
    config = RunConfig(workdir=tmp_path_factory.mktemp("work"),
                       writers=["reference", "spark"],
                       readers=["reference", "spark", CRASHING],
                       case_globs=[*CASES, f"bad/{BAD_FILE}"], timeout_s=10)
    progress = []
    result = run_matrix(config, lambda done, total, counts: progress.append((done, total, dict(counts))))
    return result, progress


def _cells(result):
    return {r["cell_id"]: r for r in result.records}


def test_every_cell_is_recorded(run):
    result, progress = run
    # 4 cases x 2 writers x (1 write + 3 reads + the validator's check) + 1 bad file x 3 readers
    assert len(result.records) == 4 * 2 * 5 + 3
    done, total, counts = progress[-1]
    assert (done, total) == (43, 43)
    assert counts == {outcome: sum(r["outcome"] == outcome for r in result.records)
                      for outcome in {r["outcome"] for r in result.records}}


def test_every_reader_reads_the_selected_bad_file(run):
    cells = _cells(run[0])
    assert cells[f"reject/reference/{BAD_FILE}"]["outcome"] == "pass"
    # Measured (PySpark 4.3.0): Spark reads the file whose leading magic is 'PAR0'.
    spark = cells[f"reject/spark/{BAD_FILE}"]
    assert spark["outcome"] == "mismatch" and "returned 10 rows" in spark["detail"]
    assert cells[f"reject/crashing/{BAD_FILE}"]["outcome"] == "pass"  # it raises on every file


def test_the_validator_checks_every_written_file(run):
    cells = _cells(run[0])
    for case in CASES:
        cell = cells[f"read/reference/validator/{case}"]
        assert cell["outcome"] == "pass", cell["detail"]
        assert cell["findings"] == "[]"


def test_reference_agrees_with_itself(run):
    cells = _cells(run[0])
    for case in CASES:
        assert cells[f"write/reference/{case}"]["outcome"] == "pass"
        assert cells[f"read/reference/reference/{case}"]["outcome"] == "pass", case


def test_spark_cannot_write_unsigned_and_says_why(run):
    cell = _cells(run[0])["write/spark/physical/uint64-optional"]
    assert cell["outcome"] == "unsupported"
    assert "unsigned" in cell["detail"]
    read = _cells(run[0])["read/spark/reference/physical/uint64-optional"]
    assert read["outcome"] == "skipped"
    assert "writer spark unsupported" in read["detail"]


def test_a_crashing_reader_is_a_crash_cell_and_the_run_goes_on(run):
    cells = _cells(run[0])
    crash = cells["read/reference/crashing/physical/int32-optional"]
    assert crash["outcome"] == "crash"
    assert "SIGSEGV" in crash["detail"]
    error = cells["read/reference/crashing/physical/string-required"]
    assert error["outcome"] == "error"
    # Cells after the crash in the same partition still ran.
    assert cells["read/spark/crashing/shape/row-groups"]["outcome"] in ("error", "crash")


def test_a_hung_spark_cell_is_cancelled_into_a_timeout(spark, tmp_path):
    config = RunConfig(workdir=tmp_path, writers=["reference"],
                       readers=["tests.support.hanging_spark_engine:HangingSparkEngine",
                                "reference"],
                       case_globs=["physical/boolean-required"], timeout_s=HUNG_CELL_LIMIT_S)
    cells = _cells(run_matrix(config))
    hung = cells["read/reference/hanging-spark/physical/boolean-required"]
    assert hung["outcome"] == "timeout"
    assert "Spark jobs were cancelled" in hung["detail"]
    assert hung["duration_s"] < 60
    # The run went on, and the session still works.
    assert cells["read/reference/reference/physical/boolean-required"]["outcome"] == "pass"
    assert spark.range(3).count() == 3


def test_files_are_kept_with_their_hash(run):
    result = run[0]
    cell = _cells(result)["write/spark/physical/string-required"]
    path = result.run_dir / cell["file"]
    assert path.is_file()
    assert len(cell["file_sha256"]) == 64


def test_results_dataset_reads_back_with_pyarrow_and_duckdb(run, tmp_path):
    result = run[0]
    table = pq.read_table(result.results_dir)
    assert table.num_rows == 43
    n = duckdb.sql(f"select count(*) from '{result.results_dir}/*.parquet'").fetchall()[0][0]
    assert n == 43
    summary = write_reports(result.results_dir, tmp_path / "report")
    assert (tmp_path / "report" / "index.html").is_file()
    assert exit_code(summary, set()) == 0


def test_the_timeline_says_where_the_time_went(run):
    result = run[0]
    spans = {span.name: span for span in result.timeline.spans}
    assert list(spans) == ["engines", "plan", "spark start", "write: isolated cells",
                           "write: in-driver cells", "read plan", "read: isolated cells",
                           "read: in-driver cells", "consolidate"]
    ordered = list(spans.values())
    assert all(a.start_s + a.seconds <= b.start_s + 1e-6 for a, b in zip(ordered, ordered[1:], strict=False))
    assert spans["read: in-driver cells"].seconds > 0  # Spark read every file
