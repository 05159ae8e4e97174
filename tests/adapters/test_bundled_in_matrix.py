"""The bundled Parquet adapters in the matrix, by name, as `conformance run` uses them:
prepared by the run, writing and reading beside the reference, in the report."""

from __future__ import annotations

import pytest

from conformance.engines import available_engines
from conformance.engines.bundled import BUNDLED
from conformance.matrix.run import RunConfig, run_matrix
from conformance.report import write_reports

CASE = "physical/int32-optional"
PARQUET_BUNDLED = [name for name, a in BUNDLED.items() if "parquet" in a.formats]
ENGINES = ["reference", *PARQUET_BUNDLED]

pytestmark = [pytest.mark.spark, pytest.mark.jvm]


@pytest.fixture(scope="module")
def run(spark, tmp_path_factory):
    config = RunConfig(workdir=tmp_path_factory.mktemp("work"), writers=ENGINES, readers=ENGINES,
                       case_globs=[CASE], formats=["parquet"])
    return run_matrix(config)


def test_every_bundled_engine_reads_the_references_file(run):
    cells = {r["cell_id"]: r for r in run.records}
    assert run.unavailable == {}
    for name in PARQUET_BUNDLED:
        cell = cells[f"read/reference/{name}/{CASE}"]
        assert (cell["outcome"], cell["detail"]) == ("pass", ""), name
        assert cell["reader_version"], name


def test_every_bundled_engine_writes_and_no_cell_is_the_harness_s_fault(run):
    cells = {r["cell_id"]: r for r in run.records}
    assert not [r["cell_id"] for r in run.records if r["outcome"] == "harness-error"]
    for name in PARQUET_BUNDLED:
        write = cells[f"write/{name}/{CASE}"]
        assert write["outcome"] in ("pass", "unsupported"), (name, write["detail"])
        if write["outcome"] == "pass":
            read = cells[f"read/{name}/reference/{CASE}"]
            assert read["outcome"] == "pass", (name, read["detail"])


def test_the_report_lists_them(run, tmp_path):
    summary = write_reports(run.results_dir, tmp_path)
    assert set(PARQUET_BUNDLED) <= set(summary.engines)


def test_an_unavailable_engine_is_prepared_once_and_the_run_goes_on(spark, tmp_path, monkeypatch):
    from conformance.engines import bundled
    from conformance.matrix import run as run_module

    real_which, calls = bundled.shutil.which, []
    monkeypatch.setattr(bundled.shutil, "which",
                        lambda name, *a, **k: None if name == "node" else real_which(name, *a, **k))
    monkeypatch.setattr(run_module, "available_engines",
                        lambda specs: calls.append(list(specs)) or available_engines(specs))
    config = RunConfig(workdir=tmp_path, writers=["reference", "hyparquet"],
                       readers=["reference", "hyparquet"], case_globs=[CASE], formats=["parquet"])
    result = run_matrix(config)
    assert calls == [["reference", "hyparquet"]]
    assert list(result.unavailable) == ["hyparquet"]
    assert {(r["writer"], r["reader"]) for r in result.records} == {
        ("reference", None), ("reference", "reference"), ("reference", "validator")}
