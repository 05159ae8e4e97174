"""Golden verification runs its cells like the matrix (conformance/matrix/cell_runner.py):
the same isolation, the same per-cell time limit, in-driver (Spark) cells too."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from conformance.engines import Capabilities, Engine
from conformance.golden.verify import verify
from conformance.matrix import cell_runner
from conformance.matrix.cell_runner import CellLimits
from tests.support.corpus import cut_corpus

CASE = "physical/boolean-required"
HANGING_SPARK = "tests.support.hanging_spark_engine:HangingSparkEngine"
HANGING_PYTHON = "tests.golden.test_verify_runner:HangingInDriverEngine"
TIMEOUT_S = 8  # long enough for the reference cell under load; the hung ones wait it out


class HangingInDriverEngine(Engine):
    """A test-only in-driver engine whose read hangs outside Spark (no job to cancel)."""

    name = "hanging-in-driver"
    capabilities = Capabilities(reads=("*",))
    isolated = False
    version = "0-test"
    released = threading.Event()  # set at the test's end, so the left-behind thread ends

    def write(self, case, path: Path) -> None:
        raise AssertionError("never called: the tests only read with it")

    def read(self, path: Path):
        self.released.wait()
        raise AssertionError("released: the test is over")


@pytest.fixture
def corpus(tmp_path) -> Path:
    return cut_corpus(tmp_path / "corpus", CASE)


def _by_reader(records: list[dict]) -> dict[str, list[dict]]:
    readers: dict[str, list[dict]] = {}
    for record in records:
        readers.setdefault(record["reader"], []).append(record)
    return readers


def test_verify_reports_progress_with_outcome_counts(corpus, tmp_path):
    progress = []
    result = verify(corpus, ["reference"], tmp_path, case_globs=[CASE],
                    on_progress=lambda done, total, counts: progress.append((done, total, dict(counts))))
    files = len(result.records)
    assert files >= 1 and {r["outcome"] for r in result.records} == {"pass"}
    assert [p[:2] for p in progress] == [(n, files) for n in range(1, files + 1)]
    assert progress[-1][2] == {"pass": files}


@pytest.mark.spark
def test_a_hung_in_driver_cell_of_golden_verify_is_a_timeout(spark, corpus, tmp_path, monkeypatch,
                                                            importable_tests):
    monkeypatch.setattr(cell_runner, "CANCEL_GRACE_S", 1.0)
    try:
        result = verify(corpus, [HANGING_SPARK, HANGING_PYTHON, "reference"], tmp_path,
                        CellLimits(timeout_s=TIMEOUT_S), case_globs=[CASE])
    finally:
        HangingInDriverEngine.released.set()
    readers = _by_reader(result.records)
    for cell in readers["hanging-spark"]:
        assert cell["outcome"] == "timeout"
        assert f"no answer within {TIMEOUT_S} s; its Spark jobs were cancelled" in cell["detail"]
        assert cell["duration_s"] < 60
    for cell in readers["hanging-in-driver"]:
        assert cell["outcome"] == "timeout"
        assert "did not stop within 1 s more and was left behind on its thread" in cell["detail"]
    # The run went on, and the session still works.
    assert {c["outcome"] for c in readers["reference"]} == {"pass"}
    assert spark.range(3).count() == 3
