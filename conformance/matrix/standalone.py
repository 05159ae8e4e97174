"""A Spark standalone cluster on this machine, for running the matrix on a real cluster.

The pyspark wheel carries what a standalone cluster needs (docs/engine-notes.md, 'Spark'):
`bin/spark-class` starts `org.apache.spark.deploy.master.Master` and `...worker.Worker`
processes, which is what a cluster's machines run. `standalone_cluster` starts one master
and `workers` workers on 127.0.0.1, yields the cluster (its master's URL for `conformance
run --master`, and its processes), and stops every process it started, whatever happens. The cluster test
(`tests/matrix/test_cluster.py`) and the scaling benchmark (`bench/matrix_bench.py`) use it.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

MASTER_CLASS = "org.apache.spark.deploy.master.Master"
WORKER_CLASS = "org.apache.spark.deploy.worker.Worker"
HOST = "127.0.0.1"
STARTUP_TIMEOUT_S = 90
STOP_TIMEOUT_S = 20
POLL_S = 0.5
REGISTERED = "Successfully registered with master"  # the worker's log line
LOG_TAIL_CHARS = 2_000


class ClusterError(RuntimeError):
    """A master or worker did not start; carries the tail of its log."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


@dataclass
class Cluster:
    master_url: str
    processes: list[subprocess.Popen] = field(default_factory=list)  # the master's first


@contextlib.contextmanager
def standalone_cluster(logdir: Path, workers: int = 2, cores: int = 1,
                       memory: str = "2g") -> Iterator[Cluster]:
    """A running cluster of `workers` workers of `cores` cores each."""
    logdir.mkdir(parents=True, exist_ok=True)
    port = free_port()
    cluster = Cluster(f"spark://{HOST}:{port}")
    started = cluster.processes
    try:
        master_log = logdir / "master.log"
        started.append(_start([MASTER_CLASS, "--host", HOST, "--port", str(port),
                               "--webui-port", str(free_port())], master_log))
        _wait_for_port(port, started[0], master_log)
        for number in range(workers):
            log = logdir / f"worker-{number}.log"
            started.append(_start([WORKER_CLASS, cluster.master_url, "--host", HOST,
                                   "--cores", str(cores), "--memory", memory,
                                   "--webui-port", str(free_port())], log))
            _wait_for_line(log, started[-1], REGISTERED)
        yield cluster
    finally:
        for proc in reversed(started):
            _stop(proc)


def _start(args: list[str], log: Path) -> subprocess.Popen:
    import pyspark

    spark_class = Path(pyspark.__file__).parent / "bin" / "spark-class"
    env = {**os.environ, "SPARK_LOCAL_IP": HOST, "PYSPARK_PYTHON": sys.executable}
    return subprocess.Popen([str(spark_class), *args], stdout=log.open("w"),
                            stderr=subprocess.STDOUT, env=env, start_new_session=True)


def _wait_for_port(port: int, proc: subprocess.Popen, log: Path) -> None:
    def listening() -> bool:
        with socket.socket() as s:
            return s.connect_ex((HOST, port)) == 0
    _wait(listening, proc, log, f"nothing listening on {port}")


def _wait_for_line(log: Path, proc: subprocess.Popen, line: str) -> None:
    _wait(lambda: line in log.read_text(), proc, log, f"no {line!r} in {log.name}")


def _wait(ready, proc: subprocess.Popen, log: Path, what: str) -> None:
    deadline = time.monotonic() + STARTUP_TIMEOUT_S
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise ClusterError(f"exited early: {log.read_text()[-LOG_TAIL_CHARS:]}")
        if ready():
            return
        time.sleep(POLL_S)
    raise ClusterError(f"{what} after {STARTUP_TIMEOUT_S} s: {log.read_text()[-LOG_TAIL_CHARS:]}")


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is not None:
        return
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=STOP_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
