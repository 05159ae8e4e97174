"""The same run on a real standalone Spark cluster gives the same cell outcomes as local mode.

Starts a master and one worker on 127.0.0.1 from the pyspark installation
(`conformance.matrix.standalone`), runs `conformance run --master spark://...` with a
shared work directory, and checks the processes are gone afterwards.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from conformance.matrix.standalone import standalone_cluster

pytestmark = [pytest.mark.slow, pytest.mark.spark]

CASES = ["physical/int16-optional", "physical/string-optional", "physical/uint8-required",
         "shape/row-groups"]
ENGINES = "reference,pyarrow,duckdb,spark"


def _run(tmp: Path, name: str, *extra: str) -> dict[str, str]:
    args = [sys.executable, "-m", "conformance.cli", "run", "--no-progress",
            "--workdir", str(tmp / f"work-{name}"), "--report", str(tmp / f"report-{name}"),
            "--engines", ENGINES, *[a for c in CASES for a in ("--cases", c)], *extra]
    done = subprocess.run(args, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout + done.stderr
    table = pq.read_table(tmp / f"report-{name}" / "results.parquet")
    return dict(zip(table.column("cell_id").to_pylist(), table.column("outcome").to_pylist(),
                    strict=True))


def test_cluster_run_matches_local_run(tmp_path):
    with standalone_cluster(tmp_path / "cluster", workers=1, memory="1g") as cluster:
        on_cluster = _run(tmp_path, "cluster", "--master", cluster.master_url)
    assert len(cluster.processes) == 2  # the master and its worker, both stopped
    assert all(proc.poll() is not None for proc in cluster.processes)
    local = _run(tmp_path, "local")
    # 4 writers x (1 write + 4 reads + the validator's check)
    assert len(on_cluster) == len(CASES) * 4 * 6
    assert on_cluster == local
