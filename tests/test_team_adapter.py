"""A team's adapter outside the repository, written with the public kit only (the example
of docs/adapter-kit.md), passes protocol-check with a non-zero count of checks and joins
a run of the matrix like a built-in engine."""

from __future__ import annotations

import json
import re

import pytest

from conformance.cli import main
from tests.support.team_adapter import NAME, write_adapter

CASE = "physical/int32-required"


def test_a_teams_kit_adapter_passes_protocol_check_with_checks_counted(tmp_path, capsys):
    command = write_adapter(tmp_path)
    assert main(["protocol-check", command, "--cases-per-format", "2"]) == 0
    out = capsys.readouterr().out
    (counts,) = re.findall(r"checked parquet: write (\d+), read (\d+), .*bad files (\d+)", out)
    assert all(int(n) > 0 for n in counts), out


@pytest.mark.spark
def test_a_teams_kit_adapter_joins_a_run(tmp_path):
    command = write_adapter(tmp_path)
    report = tmp_path / "report"
    main(["run", "--engines", f"reference,{NAME}", "--engine-cmd", f"{NAME}={command}",
          "--cases", CASE, "--workdir", str(tmp_path / "work"), "--report", str(report),
          "--no-progress"])
    cells = {c["cell_id"]: c["outcome"] for c in json.loads((report / "results.json").read_text())["cells"]}
    assert cells[f"write/{NAME}/{CASE}"] == "pass"
    assert cells[f"read/{NAME}/reference/{CASE}"] == "pass"
    assert cells[f"read/reference/{NAME}/{CASE}"] == "pass"
