"""The pytest plugin (conformance/pytest_plugin.py, docs/pytest-plugin.md), as a team uses
it: an adapter outside the repository, written with the public kit only (the example of
docs/adapter-kit.md), and one line in the team's pytest.ini."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from conformance import pytest_plugin
from conformance.matrix.isolation import DEFAULT_TIMEOUT_S
from tests.support.team_adapter import NAME, kit_example, write_adapter

CASE = "physical/int32-required"
BAD_FILE = "bad/footer/length-zero"
RUN_LIMIT_S = 300


def team_project(tmp_path: Path, adapter: str | None = None) -> Path:
    """A team's folder: its adapter, and the one line of configuration the plugin needs."""
    command = write_adapter(tmp_path, adapter)
    (tmp_path / "pytest.ini").write_text(f"[pytest]\nconformance_engine = cmd:{NAME}={command}\n")
    return tmp_path


def run_pytest(project: Path, *args: str) -> subprocess.CompletedProcess:
    """The team's own pytest run, without this run's PYTEST_ADDOPTS (-n 2 would print no
    verbose test lines)."""
    environment = {key: value for key, value in os.environ.items() if key != "PYTEST_ADDOPTS"}
    return subprocess.run([sys.executable, "-m", "pytest", "-v", "-p", "no:cacheprovider", *args],
                          cwd=project, capture_output=True, text=True, timeout=RUN_LIMIT_S, env=environment)


def outcomes(output: str) -> dict[str, str]:
    """Test name -> PASSED / FAILED / SKIPPED, from pytest's verbose lines."""
    return dict(re.findall(r"^conformance\[[^\]]+\]::(\S+) (PASSED|FAILED|SKIPPED|XFAIL|XPASS)",
                           output, re.M))


def test_the_plugins_time_limit_is_the_matrixs():
    assert pytest_plugin.DEFAULT_TIMEOUT_S == DEFAULT_TIMEOUT_S


def test_a_teams_kit_adapter_meets_the_case_the_corpus_and_the_bad_files(tmp_path):
    project = team_project(tmp_path)
    result = run_pytest(project, "--conformance-cases", CASE, "--conformance-cases", BAD_FILE)
    assert result.returncode == 0, result.stdout + result.stderr
    found = outcomes(result.stdout)
    assert found[f"write[{CASE}]"] == "PASSED"
    golden = {name for name in found if name.startswith("golden[")}
    assert f"golden[reference/{CASE}]" in golden and len(golden) >= 3
    assert found[f"bad[{BAD_FILE.removeprefix('bad/')}]"] == "PASSED"
    assert set(found.values()) == {"PASSED"}


def test_a_wrong_write_fails_with_the_cells_evidence(tmp_path):
    wrong = kit_example().replace("table_to_arrow(case.expected)",
                                  "table_to_arrow(case.expected)[::-1]")
    assert wrong != kit_example()
    project = team_project(tmp_path, wrong)
    result = run_pytest(project, "--conformance-cases", CASE, "-k", "write")
    assert result.returncode == 1, result.stdout + result.stderr
    assert outcomes(result.stdout) == {f"write[{CASE}]": "FAILED"}
    assert f"read/{NAME}/reference/{CASE}: mismatch" in result.stdout


def test_without_an_engine_the_plugin_adds_no_test(tmp_path):
    (tmp_path / "test_own.py").write_text("def test_own():\n    assert True\n")
    result = run_pytest(tmp_path)
    assert result.returncode == 0 and "1 passed" in result.stdout
    assert "conformance[" not in result.stdout


def test_an_unknown_engine_is_a_usage_error_naming_it(tmp_path):
    result = run_pytest(tmp_path, "--conformance-engine", "no-such-engine")
    assert result.returncode != 0
    assert "no-such-engine" in result.stdout + result.stderr


@pytest.mark.parametrize("name", ["--conformance-engine", "--conformance-cases",
                                  "--conformance-golden", "--conformance-timeout"])
def test_every_option_is_in_pytests_help(name):
    result = subprocess.run([sys.executable, "-m", "pytest", "--help"], capture_output=True,
                            text=True, timeout=RUN_LIMIT_S)
    assert name in result.stdout


def test_a_recorded_failure_is_an_expected_failure_and_its_fix_an_xpass(tmp_path):
    wrong = kit_example().replace("table_to_arrow(case.expected)",
                                  "table_to_arrow(case.expected)[::-1]")
    expectations = tmp_path / "expected.txt"
    project = team_project(tmp_path, wrong)
    first = run_pytest(project, "--conformance-cases", CASE, "-k", "write",
                       "--conformance-record", str(expectations))
    assert first.returncode == 1 and expectations.is_file()
    assert f"cell read/{NAME}/reference/{CASE} mismatch" in expectations.read_text()

    gated = run_pytest(project, "--conformance-cases", CASE, "-k", "write", "--conformance-expect",
                       str(expectations), f"--junitxml={tmp_path / 'junit.xml'}")
    assert gated.returncode == 0, gated.stdout
    assert outcomes(gated.stdout) == {f"write[{CASE}]": "XFAIL"}
    assert 'type="pytest.xfail"' in (tmp_path / "junit.xml").read_text()

    team_project(tmp_path)  # the bug fixed
    fixed = run_pytest(project, "--conformance-cases", CASE, "-k", "write", "--conformance-expect",
                       str(expectations))
    assert fixed.returncode == 0 and outcomes(fixed.stdout) == {f"write[{CASE}]": "XPASS"}
