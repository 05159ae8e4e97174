"""bench/matrix_bench.py on one case and one engine at local[1]: its summary line, its
three tables and its JSON. No timing is asserted: figures come from the script itself."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.matrix_bench import IN_PROCESS, cores_busy, engine_kind

pytestmark = [pytest.mark.slow, pytest.mark.spark]

REPO_ROOT = Path(__file__).resolve().parents[2]
CASE = "physical/int32-optional"
CELLS = 3  # the reference writes it; the reference reads it, the validator checks it


def test_engine_kinds_follow_the_bundled_adapters_languages():
    assert engine_kind("spark:filter") == "in-driver Spark"
    assert engine_kind("parquet-java") == "JVM adapters"
    assert engine_kind("hyparquet") == "node adapters"
    assert engine_kind("chdb") == "Python protocol adapters"
    assert engine_kind("validator") == IN_PROCESS


def test_cores_busy_is_the_busy_share_of_the_ticks_times_the_cores():
    # 2 cores; between the readings 300 of 400 ticks were busy: 1.5 cores on average.
    assert cores_busy((1_000, 5_000), (1_300, 5_400), cpus=2) == 1.5
    assert cores_busy(None, (1_300, 5_400), cpus=2) is None


def test_one_master_prints_its_run_and_where_the_time_went(tmp_path):
    out = tmp_path / "figures.json"
    done = subprocess.run([sys.executable, "bench/matrix_bench.py", "--masters", "local[1]",
                           "--cases", CASE, "--engines", "reference", "--no-bad-files",
                           "--out", str(out)], cwd=REPO_ROOT, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert "| local[1] | " in done.stdout and f"| {CELLS} |" in done.stdout
    assert "| read: isolated cells |" in done.stdout and "| report |" in done.stdout
    [run] = json.loads(out.read_text())["runs"]
    assert run["master"] == "local[1]" and run["cells"] == run["ran"] == CELLS
    assert run["cores_busy"] is None or 0 < run["cores_busy"] <= (os.cpu_count() or 1)
    assert set(run["cell_seconds"]) == {IN_PROCESS}
    assert [s["name"] for s in run["timeline"]][-1] == "report"
