"""`conformance protocol-check`: a clean summary for a good adapter, and exactly what is
wrong (with exit 1) for each broken one (tests/support/broken_adapter.py)."""

from __future__ import annotations

import pytest

from conformance.cli import main

from ._adapters import REFERENCE_ADAPTER, broken_adapter

QUICK = ["--cases-per-format", "1", "--timeout", "3"]


def test_the_reference_adapter_passes_every_check(capsys):
    assert main(["protocol-check", "--cases-per-format", "2", REFERENCE_ADAPTER]) == 0
    out = capsys.readouterr().out
    assert "FAIL" not in out
    assert "ok    start: columnar-conformance reference" in out
    assert "ok    read a bad orc file" in out and "ok    read a bad parquet file" in out
    assert "ok    stop: answered and exited" in out and out.rstrip().endswith("all passed")


@pytest.mark.parametrize(("fault", "expected"), [
    ("wrong-shape", "field $.formats.parquet.writes[0]: 1 is not of type 'string'"),
    ("dies", "died before answering a read request (exit status 3)"),
    ("hangs", "gave no answer to a write request within 3 s; killed"),
    ("not-json", "write.response: the line is not JSON"),
    ("bad-document", "field $.document is no canonical document"),
    ("accepts-anything", "expected an error answer; got a document"),
    ("lingers", "FAIL  stop: answered but still runs 5 s later; it must exit"),
])
def test_a_broken_adapter_is_told_what_is_wrong(capsys, fault, expected):
    assert main(["protocol-check", *QUICK, broken_adapter(fault)]) == 1
    out = capsys.readouterr().out
    failures = [line for line in out.splitlines() if line.startswith("FAIL")]
    assert failures and expected in out
    assert "failed" in out.splitlines()[-1]
