"""The results dataset survives interruption; it reads back with pyarrow and DuckDB."""

from __future__ import annotations

import duckdb
import pyarrow.parquet as pq
import pytest

from conformance.cases import case_by_id
from conformance.matrix import results
from conformance.matrix.cells import RESULT_SCHEMA, result_record, subject
from conformance.matrix.results import CellLog, consolidate, logged, read_cell_logs


def _record(i: int, outcome: str = "pass") -> dict:
    case = case_by_id("physical/int32-required")
    request = {"run_id": "r", "phase": "read", "case_id": case.id, "cell_id": f"read/w/r/{i}",
               "writer": "w", "writer_version": "1", "reader": "r", "reader_version": "2",
               "file": "files/w/x.parquet", "file_sha256": "ab", "subject": subject(case)}
    return result_record(request, outcome, "" if outcome == "pass" else "why", 0.5)


def _interrupted_cells():
    yield _record(0)
    yield _record(1, "mismatch")
    raise KeyboardInterrupt


def test_cells_finished_before_an_interrupt_are_kept(tmp_path):
    with pytest.raises(KeyboardInterrupt):
        for _ in logged(_interrupted_cells(), tmp_path, "read-0000"):
            pass
    kept = read_cell_logs(tmp_path)
    assert [r["cell_id"] for r in kept] == ["read/w/r/0", "read/w/r/1"]
    results = consolidate(tmp_path)
    table = pq.read_table(results)
    assert table.schema.equals(RESULT_SCHEMA)
    assert table.column("outcome").to_pylist() == ["pass", "mismatch"]
    rows = duckdb.sql(f"select cell_id, features from '{results}/*.parquet' order by cell_id").fetchall()
    assert rows[0][0] == "read/w/r/0"
    assert "type:INT(32,signed)" in rows[0][1]


def test_each_cell_is_readable_at_once_and_fsynced_by_interval_and_at_close(tmp_path, monkeypatch):
    synced, clock = [], [100.0]
    monkeypatch.setattr(results.os, "fsync", synced.append)
    monkeypatch.setattr(results.time, "monotonic", lambda: clock[0])
    log = CellLog(tmp_path, "read-0000")
    for i in range(3):  # within one interval: flushed (another process reads it), not fsynced
        log.append(_record(i))
        assert len(read_cell_logs(tmp_path)) == i + 1
    assert synced == []
    clock[0] += results.FSYNC_INTERVAL_S
    log.append(_record(3))
    assert len(synced) == 1
    log.append(_record(4))
    assert len(synced) == 1
    log.close()
    assert len(synced) == 2
    assert len(read_cell_logs(tmp_path)) == 5


def test_a_cell_run_twice_keeps_its_last_result(tmp_path):
    list(logged([_record(0, "error")], tmp_path, "a"))
    list(logged([_record(0, "pass")], tmp_path, "b"))
    assert [r["outcome"] for r in read_cell_logs(tmp_path)] == ["pass"]


def test_unknown_outcomes_are_refused():
    with pytest.raises(ValueError, match="outcome"):
        _record(0, "fail")
