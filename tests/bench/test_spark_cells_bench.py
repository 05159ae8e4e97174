"""bench/spark_cells_bench.py at local[1] on one and two threads: a row each, every read
done by Spark in the driver's pool, and its figures measured."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.spark]

REPO = Path(__file__).resolve().parents[2]


def test_each_thread_count_has_a_row_of_the_same_reads():
    done = subprocess.run([sys.executable, "bench/spark_cells_bench.py", "--master", "local[1]",
                           "--threads", "1,2"], cwd=REPO, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    rows = [line.strip("|").split("|") for line in done.stdout.splitlines()
            if line.startswith("| ") and line[2].isdigit()]
    assert [row[0].strip() for row in rows] == ["1", "2"]
    reads = {int(row[1]) for row in rows}
    assert len(reads) == 1 and reads.pop() > 0  # every written case read, at each count
    assert all(float(row[2]) > 0 for row in rows)
