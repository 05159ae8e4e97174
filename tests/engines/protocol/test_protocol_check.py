"""`conformance protocol-check`: a clean summary for a good adapter, exactly what is
wrong (with exit 1) for each adapter that breaks the protocol, and an implementation's
own findings apart (exit 0 unless --strict) (tests/support/broken_adapter.py)."""

from __future__ import annotations

import pytest

from conformance.cli import main
from tests.support.broken_adapter import DYING_WORDS

from ._adapters import REFERENCE_ADAPTER, broken_adapter

# An answer's time limit: a hang is told in this long; the start of a Python adapter
# takes 4 s on a loaded machine (measured), so less would fail a good start.
TIMEOUT_S = 10
QUICK = ["--cases-per-format", "1", "--timeout", str(TIMEOUT_S)]


def test_the_reference_adapter_passes_every_check(capsys):
    assert main(["protocol-check", "--cases-per-format", "2", REFERENCE_ADAPTER]) == 0
    out = capsys.readouterr().out
    assert not [line for line in out.splitlines() if line.startswith(("FAIL", "find"))]
    assert "ok    start: columnar-conformance reference" in out
    assert "ok    read bad file orc-tail/" in out and "ok    read bad file framing/" in out
    for fmt in ("parquet", "orc"):
        assert (f"checked {fmt}: write 2, read 2, filtered read not in protocol version 1, "
                f"bad files 2") in out
    assert "ok    stop: answered and exited" in out
    assert out.rstrip().endswith("14 checks: 14 ok, 0 protocol violations, "
                                 "0 findings of the implementation; passed")


@pytest.mark.parametrize(("fault", "expected"), [
    ("wrong-shape", "field $.formats.parquet.writes[0]: 1 is not of type 'string'"),
    ("dies", "died before answering a read request (exit status 3)"),
    ("dies", f"adapter stderr (tail):\n{DYING_WORDS}"),
    ("hangs", f"gave no answer to a write request within {TIMEOUT_S} s; killed"),
    ("not-json", "write.response: the line is not JSON"),
    ("bad-document", "field $.document is no canonical document"),
    ("lingers", "FAIL  stop: answered but still runs 5 s later; it must exit"),
])
def test_a_broken_adapter_is_told_what_is_wrong(capsys, fault, expected):
    assert main(["protocol-check", *QUICK, broken_adapter(fault)]) == 1
    out = capsys.readouterr().out
    failures = [line for line in out.splitlines() if line.startswith("FAIL")]
    assert failures and expected in out
    assert out.splitlines()[-1].endswith("FAILED")


def test_an_implementations_findings_are_listed_apart_and_fail_only_when_strict(capsys):
    """Accepting bad files is the implementation's bug, not a protocol violation."""
    adapter = broken_adapter("accepts-anything")
    assert main(["protocol-check", *QUICK, adapter]) == 0
    out = capsys.readouterr().out
    assert "find  read bad file framing/bad-leading-magic: accepted a file that must be rejected" in out
    assert not [line for line in out.splitlines() if line.startswith("FAIL")]
    assert "findings of the implementation (its own bugs, not protocol violations" in out
    assert out.rstrip().endswith("0 protocol violations, 2 findings of the implementation; passed")
    assert main(["protocol-check", "--strict", *QUICK, adapter]) == 1
    assert capsys.readouterr().out.rstrip().endswith("FAILED")


def test_an_adapter_refusing_every_write_it_declares_fails(capsys):
    """`unsupported` answers check nothing: a declared capability all refused fails."""
    assert main(["protocol-check", *QUICK, broken_adapter("refuses-writes")]) == 1
    out = capsys.readouterr().out
    assert "FAIL  parquet write: the adapter answered unsupported to all 1 tried" in out
    assert "checked parquet: write 0, read 1," in out


def test_without_the_golden_corpus_the_read_checks_fail_naming_it(capsys, tmp_path):
    assert main(["protocol-check", *QUICK, "--corpus", str(tmp_path), REFERENCE_ADAPTER]) == 1
    out = capsys.readouterr().out
    assert f"FAIL  parquet read: no golden corpus at {tmp_path}" in out
    assert f"FAIL  orc bad files: no golden corpus at {tmp_path}" in out
    assert "checked orc: write 1, read 0, filtered read not in protocol version 1, bad files 0" in out
