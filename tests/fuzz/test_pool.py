"""The worker pool: a real isolated worker, replaced after a hang."""

from __future__ import annotations

from conformance.fuzz.classify import HANG, READ
from conformance.fuzz.pool import Caller, Limits, WorkerPool
from conformance.golden.paths import default_corpus

LARGE = default_corpus() / "cases/orc/codecs/lz4/pyarrow/lz4.orc"  # about 20 ms to read
TOO_SHORT_S = 1e-4


def _request() -> dict:
    return {"format": "orc", "tool": "read", "path": str(LARGE), "keys": None}


def test_a_worker_past_its_time_limit_is_a_hang_and_the_next_call_gets_a_new_one(tmp_path,
                                                                                 importable_tests):
    caller = Caller(tmp_path, Limits(time_s=TOO_SHORT_S))
    try:
        assert caller.call(_request()).klass == HANG
        caller.limits = Limits()
        outcome = caller.call(_request())
        assert outcome.klass == READ and outcome.rows_digest
    finally:
        caller.close()


def test_results_come_back_in_task_order_whatever_the_workers(tmp_path, importable_tests):
    with WorkerPool(2, tmp_path, Limits()) as pool:
        results = pool.run(range(6), lambda n, caller: (n, caller.call(_request()).klass))
    assert results == [(n, READ) for n in range(6)]
