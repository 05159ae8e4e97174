"""The same run on a real standalone Spark cluster gives the same cell outcomes as local mode.

Starts a master and one worker on 127.0.0.1 from the pyspark installation
(`bin/spark-class ...Master` / `...Worker`), runs `conformance run --master
spark://...` with a shared work directory, and stops both processes by id.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest

pytestmark = [pytest.mark.slow, pytest.mark.spark]

CASES = ["physical/int16-optional", "physical/string-optional", "physical/uint8-required",
         "shape/row-groups"]
ENGINES = "reference,pyarrow,duckdb,spark"
STARTUP_TIMEOUT_S = 90


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for_port(port: int, proc: subprocess.Popen, log: Path) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"process exited early: {log.read_text()[-2000:]}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.5)
    raise TimeoutError(f"nothing listening on {port}: {log.read_text()[-2000:]}")


def _wait_for_worker(log: Path) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while time.monotonic() < deadline:
        if "Successfully registered with master" in log.read_text():
            return
        time.sleep(0.5)
    raise TimeoutError(f"worker did not register: {log.read_text()[-2000:]}")


def _start(args: list[str], log: Path) -> subprocess.Popen:
    import pyspark

    spark_class = Path(pyspark.__file__).parent / "bin" / "spark-class"
    env = {**os.environ, "SPARK_LOCAL_IP": "127.0.0.1", "PYSPARK_PYTHON": sys.executable}
    return subprocess.Popen([str(spark_class), *args], stdout=log.open("w"),
                            stderr=subprocess.STDOUT, env=env, start_new_session=True)


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


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
    port, master_ui, worker_ui = _free_port(), _free_port(), _free_port()
    master_log, worker_log = tmp_path / "master.log", tmp_path / "worker.log"
    master = _start(["org.apache.spark.deploy.master.Master", "--host", "127.0.0.1",
                     "--port", str(port), "--webui-port", str(master_ui)], master_log)
    worker = None
    try:
        _wait_for_port(port, master, master_log)
        worker = _start(["org.apache.spark.deploy.worker.Worker", f"spark://127.0.0.1:{port}",
                         "--host", "127.0.0.1", "--cores", "1", "--memory", "1g",
                         "--webui-port", str(worker_ui)], worker_log)
        _wait_for_worker(worker_log)
        on_cluster = _run(tmp_path, "cluster", "--master", f"spark://127.0.0.1:{port}")
    finally:
        for proc in (worker, master):
            if proc is not None:
                _stop(proc)
    assert master.poll() is not None and (worker is None or worker.poll() is not None)
    local = _run(tmp_path, "local")
    # 4 writers x (1 write + 4 reads + the validator's check)
    assert len(on_cluster) == len(CASES) * 4 * 6
    assert on_cluster == local
