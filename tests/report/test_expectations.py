"""The expectations gate (docs/expectations.md): `conformance expect --write` records a run,
`--expect` / `expect --check` fail only on regressions, and a cell whose outcome changes
between isolated tries is `flaky`.

The end-to-end tests verify a one-case golden corpus with real engines (no Spark): the
reference, the test-only crashing engine (it aborts on every file of a BOOLEAN case) and
the test-only flaky engine (every other read of a file fails)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest

from conformance.cli import main
from conformance.report.expectations import (
    Expectations,
    ExpectationsError,
    judge,
    read_expectations,
    record_expectations,
    to_text,
)
from tests.support.corpus import cut_corpus

CASE = "physical/boolean-required"
CRASHING = "tests.support.crashing_engine:CrashingEngine"
FLAKY = "tests.support.flaky_engine:FlakyEngine"
WRITERS = ("golden/duckdb", "golden/fastparquet", "golden/pyarrow", "golden/reference",
           "golden/spark")  # the committed corpus's files of CASE


def _record(cell_id: str, outcome: str, phase: str = "read", writer: str = "w",
            reader: str | None = "r", case: str = "c") -> dict:
    return {"cell_id": cell_id, "phase": phase, "case_id": case, "writer": writer,
            "reader": reader, "outcome": outcome, "detail": f"evidence of {outcome}"}


RUN = [
    _record("write/w/c", "pass", "write", reader=None),
    _record("write/v/c", "unsupported", "write", writer="v", reader=None),
    _record("read/w/r/c", "pass"),
    _record("read/w/s/c", "mismatch", reader="s"),
    _record("read/v/r/c", "skipped", writer="v"),
    _record("read/v/s/c", "skipped", writer="v", reader="s"),
]


def test_only_cells_whose_outcome_is_not_implied_are_listed():
    expectations = record_expectations(RUN)
    assert expectations.engines == {"w", "v", "r", "s"}
    assert expectations.cases == {"c"}
    # passes are implied; so are the skipped reads of a file whose write is listed
    assert expectations.outcomes == {"write/v/c": "unsupported", "read/w/s/c": "mismatch"}
    assert [expectations.expected(r) for r in RUN] == [r["outcome"] for r in RUN]


def test_the_file_reads_back_as_written(tmp_path):
    path = tmp_path / "expected.txt"
    expectations = record_expectations(RUN)
    path.write_text(to_text(expectations, "run x", Counter(r["outcome"] for r in RUN)))
    assert read_expectations(path) == expectations
    lines = path.read_text().splitlines()
    assert lines[-2:] == ["cell read/w/s/c mismatch", "cell write/v/c unsupported"]


def test_a_malformed_line_is_named(tmp_path):
    path = tmp_path / "expected.txt"
    path.write_text("case c\ncell read/w/r/c passed\n")
    with pytest.raises(ExpectationsError, match=r"expected.txt:2: unknown outcome 'passed'"):
        read_expectations(path)


def test_the_gate_sorts_each_change():
    expectations = record_expectations(RUN)
    now = [
        _record("read/w/r/c", "error"),                        # recorded pass: regression
        _record("read/w/s/c", "pass", reader="s"),             # recorded mismatch: progression
        _record("write/v/c", "error", "write", writer="v", reader=None),  # changed failure
        _record("read/w/t/c", "mismatch", reader="t"),         # engine t is new
        _record("read/w/u/c", "crash", reader="u"),            # a new crash: regression
        _record("read/w/r/d", "flaky", case="d"),              # flaky: its own kind
    ]
    verdict = judge(expectations, now)
    assert [c.cell_id for c in verdict.regressions] == ["read/w/u/c", "read/w/r/c"]  # worst first
    assert [c.cell_id for c in verdict.progressions] == ["read/w/s/c"]
    assert [c.cell_id for c in verdict.changed] == ["write/v/c"]
    assert [c.cell_id for c in verdict.new] == ["read/w/t/c"]
    assert [c.cell_id for c in verdict.flaky] == ["read/w/r/d"]
    assert verdict.failed()
    assert not judge(expectations, RUN).failed()
    assert judge(Expectations(frozenset(), frozenset(), {}), now[-1:]).failed(strict_flaky=True)


@pytest.fixture
def corpus(tmp_path) -> Path:
    return cut_corpus(tmp_path / "corpus", CASE)


def _verify(corpus: Path, work: Path, report: Path, engines: str, *gate: str) -> int:
    return main(["golden", "verify", "--corpus", str(corpus), "--workdir", str(work),
                 "--report", str(report), "--engines", engines, "--cases", CASE, "--no-progress", *gate])


def _run_dir(work: Path) -> Path:
    (run_dir,) = [p for p in work.iterdir() if p.is_dir()]
    return run_dir


@pytest.mark.usefixtures("importable_tests")
def test_a_recorded_run_passes_and_a_changed_cell_fails_by_name(corpus, tmp_path, capsys):
    engines = f"reference,{CRASHING}"
    assert _verify(corpus, tmp_path / "first", tmp_path / "report", engines) == 0
    expected = tmp_path / "expected.txt"
    assert main(["expect", "--write", str(expected), str(_run_dir(tmp_path / "first"))]) == 0
    crash_lines = [f"cell golden/{w}/crashing/{CASE} crash" for w in WRITERS]
    text = expected.read_text()
    assert [line for line in text.splitlines() if line.startswith("cell ")] == crash_lines
    assert f"case {CASE}" in text.splitlines()

    capsys.readouterr()
    second = tmp_path / "second"
    assert _verify(corpus, second, tmp_path / "report2", engines, "--expect", str(expected)) == 0
    assert "gate passed: 0 regression, 0 flaky, 0 progression" in capsys.readouterr().out

    # The file claims one crashing cell passed: the same run now regresses, by name.
    expected.write_text(text.replace(crash_lines[0] + "\n", ""))
    assert main(["expect", "--check", str(expected), str(_run_dir(second))]) == 1
    out = capsys.readouterr().out
    assert "gate FAILED: 1 regression" in out
    assert f"  golden/{WRITERS[0]}/crashing/{CASE}: expected pass, now crash" in out

    # A recorded failure that now passes is a progression, with the command that records it.
    reference_cell = f"golden/{WRITERS[0]}/reference/{CASE}"
    expected.write_text(text + f"cell {reference_cell} mismatch\n")
    assert main(["expect", "--check", str(expected), str(_run_dir(second))]) == 0
    out = capsys.readouterr().out
    assert f"{reference_cell}: expected mismatch, now pass" in out
    assert f"conformance expect --write {expected} {_run_dir(second)}" in out


@pytest.mark.usefixtures("importable_tests")
def test_a_cell_whose_outcome_flips_is_flaky_with_every_outcome(corpus, tmp_path, capsys):
    expected = tmp_path / "expected.txt"
    expected.write_text("# nothing known yet\n")
    report = tmp_path / "report"
    gate = ("--expect", str(expected), "--retries", "2")
    assert _verify(corpus, tmp_path / "work", report, f"reference,{FLAKY}", *gate) == 0
    out = capsys.readouterr().out
    assert f"gate passed: 0 regression, {len(WRITERS)} flaky" in out
    seen = "outcomes seen: error, pass, error (the run, then 2 isolated tries)"
    assert f"golden/{WRITERS[0]}/flaky/{CASE}: not in the file, now flaky: {seen}" in out

    cells = {c["cell_id"]: c for c in json.loads((report / "results.json").read_text())["cells"]}
    flaky = cells[f"golden/{WRITERS[0]}/flaky/{CASE}"]
    assert flaky["outcome"] == "flaky"
    assert flaky["detail"].startswith(seen) and "error: RuntimeError: deliberate failure" in flaky["detail"]
    assert "## Flaky cells" in (report / "REPORT.md").read_text()
    junit = ET.parse(report / "junit.xml")
    assert len(junit.findall(".//failure[@type='flaky']")) == len(WRITERS)

    # The same run under --strict-flaky fails the gate.
    run_dir = _run_dir(tmp_path / "work")
    assert main(["expect", "--check", str(expected), "--strict-flaky", str(run_dir)]) == 1
    # Recorded as flaky, the cells pass the strict gate.
    assert main(["expect", "--write", str(expected), str(run_dir)]) == 0
    assert f"cell golden/{WRITERS[0]}/flaky/{CASE} flaky" in expected.read_text()
    assert main(["expect", "--check", str(expected), "--strict-flaky", str(run_dir)]) == 0
