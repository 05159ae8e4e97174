"""A test-only in-driver engine whose reads start a Spark job that never ends,
to prove the matrix turns a hung Spark cell into a timeout and goes on."""

from __future__ import annotations

import time
from pathlib import Path

from conformance.engines.base import Capabilities, Engine

HANG_S = 3_600


def _sleep(_):
    time.sleep(HANG_S)
    return 0


class HangingSparkEngine(Engine):
    name = "hanging-spark"
    capabilities = Capabilities(writes=(), reads=("*",))
    isolated = False

    @property
    def version(self) -> str:
        return "0-test"

    def write(self, case, path: Path) -> None:
        raise AssertionError("never called: the engine declares no write capability")

    def read(self, path: Path):
        from conformance.matrix.spark_session import get_session

        get_session().sparkContext.parallelize([0], 1).map(_sleep).collect()
        raise AssertionError("unreachable: the job above never finishes")
