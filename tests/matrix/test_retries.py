"""Flaky cells in the matrix (conformance/matrix/retries.py): the cells a run wants tried
again run in fresh workers after the phases; a write cell's tries leave the run's file alone."""

from __future__ import annotations

import pytest

from conformance.matrix.cells import sha256_of
from conformance.matrix.retries import RETRY_DIR, Retries
from conformance.matrix.run import RunConfig, run_matrix

FLAKY = "tests.support.flaky_engine:FlakyEngine"
CASE = "physical/boolean-required"

pytestmark = [pytest.mark.spark, pytest.mark.usefixtures("importable_tests")]


def test_a_flipping_read_is_flaky_and_a_steady_write_keeps_its_file(spark, tmp_path):
    config = RunConfig(workdir=tmp_path / "work", writers=["reference"], readers=["reference", FLAKY],
                       case_globs=[CASE], bad_files=False, retries=Retries(2, lambda record: True))
    result = run_matrix(config)
    cells = {r["cell_id"]: r for r in result.records}

    flaky = cells[f"read/reference/flaky/{CASE}"]
    assert flaky["outcome"] == "flaky"
    assert flaky["detail"].startswith("outcomes seen: error, pass, error (the run, then 2 isolated tries)")
    assert cells[f"read/reference/reference/{CASE}"]["outcome"] == "pass"

    write = cells[f"write/reference/{CASE}"]
    assert write["outcome"] == "pass"
    assert sha256_of(result.run_dir / write["file"]) == write["file_sha256"]
    for attempt in (1, 2):  # each try wrote a file of its own, the same bytes
        assert sha256_of(result.run_dir / RETRY_DIR / str(attempt) / write["file"]) == write["file_sha256"]
