"""Crash and hang isolation: a dying engine becomes a crash/timeout cell, the run goes on."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from conformance.cases import case_by_id
from conformance.engines.protocol.external import command_spec
from conformance.matrix.cells import subject
from conformance.matrix.isolation import IsolatedRunner, kept_runner, run_in_lanes, run_isolated
from tests.engines.protocol._adapters import broken_adapter

CRASHING = "tests.support.crashing_engine:CrashingEngine"

pytestmark = pytest.mark.usefixtures("importable_tests")


def _read_request(case_id: str, tmp_path: Path) -> dict:
    rel = f"files/x/{case_id}.parquet"
    (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / rel).write_bytes(b"PAR1")
    return {"run_id": "t", "phase": "read", "case_id": case_id, "engine": CRASHING,
            "cell_id": f"read/x/crashing/{case_id}", "file": rel, "file_sha256": "0",
            "writer": "x", "writer_version": "0", "reader": "crashing", "reader_version": "0",
            "writer_outcome": "pass", "subject": subject(case_by_id(case_id))}


HANG_LIMIT_S = 10  # the hung cell's limit; the others must start and die well within it, under load


def test_segfault_abort_hang_and_error_each_become_a_cell_and_the_run_goes_on(tmp_path):
    ids = ["physical/int32-required", "physical/int64-required", "physical/boolean-required",
           "physical/string-required"]
    results = list(run_isolated([_read_request(i, tmp_path) for i in ids], tmp_path,
                                timeout_s=HANG_LIMIT_S, memory_limit_mb=None))
    outcomes = {r["case_id"]: r for r in results}
    assert [r["case_id"] for r in results] == ids
    segv = outcomes["physical/int32-required"]
    assert segv["outcome"] == "crash"
    assert "SIGSEGV" in segv["detail"]
    hang = outcomes["physical/int64-required"]
    assert hang["outcome"] == "timeout"
    assert f"{HANG_LIMIT_S} s" in hang["detail"]
    abort = outcomes["physical/boolean-required"]
    assert abort["outcome"] == "crash"
    assert "SIGABRT" in abort["detail"]
    error = outcomes["physical/string-required"]
    assert error["outcome"] == "error"
    assert error["detail"].startswith("RuntimeError: deliberate failure reading string-required")


def test_memory_limit_turns_a_runaway_allocation_into_a_crash_or_error(tmp_path):
    # A 64 MiB address-space cap is far below what importing the harness needs: the
    # worker dies at start-up, and that too must be a recorded cell, not a hang.
    [result] = run_isolated([_read_request("physical/string-required", tmp_path)], tmp_path,
                            timeout_s=30, memory_limit_mb=64)
    assert result["outcome"] == "crash"
    assert "exited with status" in result["detail"] or "signal" in result["detail"]


def test_a_worker_that_died_between_cells_is_replaced_and_the_next_cell_is_not_a_crash(tmp_path):
    # A kept worker can die while idle between Spark tasks; the next cell is not to blame.
    runner = IsolatedRunner(tmp_path, timeout_s=30, memory_limit_mb=None)
    request = _read_request("physical/string-required", tmp_path)
    try:
        assert runner.run(request)["outcome"] == "error"
        assert runner._worker is not None
        runner._worker.kill()
        assert runner.run(request)["outcome"] == "error"
    finally:
        runner.close()


def test_the_kept_runner_serves_every_task_of_a_run_and_is_closed_for_the_next_run(tmp_path):
    first_run, next_run = tmp_path / "first", tmp_path / "next"
    first_run.mkdir(), next_run.mkdir()
    runner = kept_runner(first_run, 30, None)
    runner.run(_read_request("physical/string-required", first_run))
    worker = runner._worker
    assert kept_runner(first_run, 30, None) is runner and runner._worker is worker
    other = kept_runner(next_run, 30, None)
    try:
        assert other is not runner
        assert runner._worker is None and worker is not None and not worker.alive()
    finally:
        other.close()


LANES = 2


def test_lanes_run_cells_at_once_so_a_hung_cell_holds_only_its_own(tmp_path):
    # Two engines that hang: the crashing engine on int64 files, an adapter on any write.
    hangs = command_spec("hangs", broken_adapter("hangs"))
    hung = [_read_request("physical/int64-required", tmp_path),
            {**_read_request("physical/int64-optional", tmp_path), "phase": "write",
             "engine": hangs, "writer": "hangs", "reader": None}]
    started = time.monotonic()
    records = list(run_in_lanes(hung, tmp_path, HANG_LIMIT_S, None, LANES))
    elapsed = time.monotonic() - started
    assert [r["cell_id"] for r in records] == [r["cell_id"] for r in hung]  # the order asked
    assert [r["outcome"] for r in records] == ["timeout", "timeout"]
    assert elapsed < LANES * HANG_LIMIT_S  # one after the other, they would take both limits


def test_each_lane_keeps_to_the_engines_its_worker_started(tmp_path):
    """Cells of two engines, mixed: each engine starts in one lane's worker, not in both."""
    crashing = [_read_request("physical/string-required", tmp_path) for _ in range(3)]
    reference = [{**r, "engine": "reference", "reader": "reference"} for r in crashing]
    mixed = [cell for pair in zip(crashing, reference, strict=True) for cell in pair]
    records = list(run_in_lanes(mixed, tmp_path, HANG_LIMIT_S, None, LANES))
    runners = [kept_runner(tmp_path, HANG_LIMIT_S, None, lane) for lane in range(LANES)]
    try:
        assert [r["reader"] for r in records] == [r["reader"] for r in mixed]  # the order asked
        assert sorted(sorted(runner.engines) for runner in runners) == sorted([[CRASHING], ["reference"]])
    finally:
        for runner in runners:
            runner.close()


def test_an_engine_a_lane_ran_in_an_earlier_task_stays_with_that_lane(tmp_path):
    """The next task of the process sends the engine to the lane whose worker has it."""
    runners = [kept_runner(tmp_path, HANG_LIMIT_S, None, lane) for lane in range(LANES)]
    runners[-1].engines.add("reference")  # as an earlier task left it
    cells = [{**_read_request("physical/string-required", tmp_path), "engine": "reference",
              "reader": "reference"} for _ in range(3)]
    try:
        records = list(run_in_lanes(cells, tmp_path, HANG_LIMIT_S, None, LANES))
        assert len(records) == len(cells)
        assert [runner.engines for runner in runners] == [set()] * (LANES - 1) + [{"reference"}]
    finally:
        for runner in runners:
            runner.close()
