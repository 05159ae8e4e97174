"""A test-only in-driver engine that reads with Spark (as the Spark adapter does) while
holding a SQL option of its own on its session, to prove that the in-driver cells the
matrix runs at once (conformance.matrix.cell_runner) never share a session's options."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from conformance.engines.parquet.spark_engine import SparkEngine

PROBE_KEY = "conformance.test.probe"
HOLD_S = 0.5  # long enough for the other thread's cell to start meanwhile
spans: list[tuple[float, float]] = []  # each read's (start, end): the test checks they overlap
_lock = threading.Lock()


class SessionProbeEngine(SparkEngine):
    name = "session-probe"

    def read(self, path: Path):
        spark = self._spark()
        start = time.monotonic()
        spark.conf.set(PROBE_KEY, str(path))
        time.sleep(HOLD_S)
        if spark.conf.get(PROBE_KEY) != str(path):
            raise AssertionError(f"another cell changed this cell's session option: "
                                 f"{spark.conf.get(PROBE_KEY)}")
        table = super().read(path)
        with _lock:
            spans.append((start, time.monotonic()))
        return table
