"""In-driver cells run several at once, each on a child session of its own
(conformance.matrix.cell_runner.run_in_driver_pool, spark_session.bind_session)."""

from __future__ import annotations

import threading

import pytest

from conformance.matrix.run import RunConfig, run_matrix
from conformance.matrix.spark_session import bind_session, child_session, get_session
from tests.support import session_probe_engine

PROBE = "tests.support.session_probe_engine:SessionProbeEngine"
CASES = ["physical/int32-optional", "physical/string-required", "physical/uint64-optional",
         "physical/boolean-required"]

pytestmark = [pytest.mark.spark, pytest.mark.usefixtures("importable_tests")]


def test_a_bound_thread_gets_its_child_session_and_others_the_process_one(spark):
    child = child_session()
    seen = {}

    def bound() -> None:
        bind_session(child)
        seen["bound"] = get_session()

    thread = threading.Thread(target=bound)
    thread.start()
    thread.join()
    assert seen["bound"] is child and get_session() is spark
    assert child.sparkContext is spark.sparkContext  # one JVM, one SparkContext
    child.conf.set(session_probe_engine.PROBE_KEY, "child")
    assert spark.conf.get(session_probe_engine.PROBE_KEY, None) is None


def test_in_driver_cells_overlap_without_sharing_session_options(spark, tmp_path):
    assert spark.sparkContext.defaultParallelism == 2  # the fixture's local[2]: four threads
    session_probe_engine.spans.clear()
    config = RunConfig(workdir=tmp_path, writers=["reference"], readers=[PROBE],
                       case_globs=CASES, bad_files=False)
    cells = {r["cell_id"]: r for r in run_matrix(config).records}
    probes = {k: r for k, r in cells.items() if r["reader"] == "session-probe"}
    assert len(probes) == len(CASES)
    assert {r["outcome"] for r in probes.values()} == {"pass"}, probes
    spans = sorted(session_probe_engine.spans)
    at_once = max(sum(start <= moment < end for start, end in spans) for moment, _ in spans)
    assert at_once > spark.sparkContext.defaultParallelism, spans  # more than one per slot
