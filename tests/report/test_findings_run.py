"""`conformance findings` on a real run: the reference, pyarrow and DuckDB on one case.

physical/int96-nanos-required holds INT96 values one nanosecond apart; DuckDB reads INT96
as TIMESTAMP(us) (measured in the main job), so its cells are a finding whose command,
run outside the suite, shows the values DuckDB returns.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys

import pytest

from conformance.cli import main

pytestmark = [pytest.mark.spark, pytest.mark.slow]  # `run` starts Spark: about a minute

CASE = "physical/int96-nanos-required"


def test_findings_of_a_real_run(tmp_path, capsys):
    work, report = tmp_path / "work", tmp_path / "report"
    assert main(["run", "--engines", "reference,pyarrow,duckdb", "--cases", CASE, "--no-progress",
                 "--workdir", str(work), "--report", str(report)]) in (0, 1)
    capsys.readouterr()
    assert main(["findings", str(report), str(work), "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    duckdb = [f for f in found if f["engine"] == "duckdb"]
    assert duckdb and "INT96 read as TIMESTAMP(us" in duckdb[0]["kind"]
    assert duckdb[0]["file"]["size"] > 0 and duckdb[0]["file"]["sha256"]
    argv = shlex.split(duckdb[0]["command"])
    shown = subprocess.run([sys.executable, *argv[1:]], capture_output=True, text=True,
                           check=True, timeout=120).stdout
    assert "TIMESTAMP" in shown
