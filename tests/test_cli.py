"""The `conformance` command as a user runs it (a subprocess, real exit codes)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conformance.cases import case_by_id
from conformance.engines import get_engine
from conformance.values import Table, diff_tables


def conformance(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "conformance.cli", *args],
                          capture_output=True, text=True, timeout=300)


def test_read_prints_the_canonical_document(tmp_path):
    case = case_by_id("physical/double-optional")
    path = tmp_path / "f.parquet"
    get_engine("reference").write(case, path)
    done = conformance("read", "--engine", "reference", str(path))
    assert done.returncode == 0, done.stderr
    table = Table.from_document(json.loads(done.stdout))
    assert diff_tables(case.expected, table) is None


def test_read_of_a_bad_file_exits_1_with_the_error_class(tmp_path):
    path = tmp_path / "bad.parquet"
    path.write_bytes(b"PAR1 this is not a parquet file PAR2")
    done = conformance("read", "--engine", "reference", str(path))
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.split(":")[0] in ("BadMagic", "FooterLengthOutOfRange", "TruncatedFile")


@pytest.mark.parametrize("args", [
    ("read", "--engine", "no-such-engine", "x.parquet"),
    ("read", "missing-file.parquet"),
    ("frobnicate",),
])
def test_usage_errors_exit_2(args):
    assert conformance(*args).returncode == 2


def test_engines_lists_versions_and_capabilities():
    done = conformance("engines", "--json", "reference", "pyarrow")
    assert done.returncode == 0, done.stderr
    described = json.loads(done.stdout)
    assert [d["name"] for d in described] == ["reference", "pyarrow"]
    import pyarrow
    assert described[1]["version"] == pyarrow.__version__
    assert "encoding:PLAIN" in described[0]["capabilities"]["writes"]


def test_cases_lists_the_catalogue():
    done = conformance("cases", "--cases", "physical/int8-*")
    assert done.returncode == 0
    assert done.stdout.split() [0] == "physical/int8-required"
