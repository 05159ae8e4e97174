"""`conformance fuzz`: the summary table and the exit code CI gates on."""

from __future__ import annotations

import json

from conformance.cli import main
from conformance.fuzz.campaign import Record, Result
from conformance.fuzz.classify import (
    CLASSES,
    CRASH,
    DOCUMENTED,
    HANG,
    MEMORY,
    READ,
    SILENT_CHANGE,
    UNDOCUMENTED,
    Outcome,
)


def test_fuzz_prints_counts_per_format_and_tool_and_exits_0_without_escapes(tmp_path, capsys,
                                                                           importable_tests):
    code = main(["fuzz", "--format", "parquet", "--mutants", "6", "--seed", "3", "--out", str(tmp_path),
                 "--workers", "1", "--shrink-budget", "0"])
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["format", "tool", *CLASSES]
    rows = {tuple(line.split()[:2]): [int(n) for n in line.split()[2:]] for line in out[1:3]}
    assert set(rows) == {("parquet", "read"), ("parquet", "validate")}
    assert all(sum(counts) == 6 for counts in rows.values())
    assert code == 0  # no Parquet mutant escapes the documented errors (tests/fuzz/test_campaign.py)
    records = [json.loads(line) for line in (tmp_path / "parquet-mutants.jsonl").read_text().splitlines()]
    assert [r["index"] for r in records] == list(range(6))
    assert all(r["mutations"] and r["targets"] for r in records)


def test_a_campaign_with_any_undocumented_hang_memory_or_crash_gates():
    def result(*classes: str) -> Result:
        return Result([Record("orc", n, None, None, {"read": Outcome(c)}) for n, c in enumerate(classes)], [])

    assert not result(READ, DOCUMENTED, SILENT_CHANGE).gating()
    for escaped in (UNDOCUMENTED, HANG, MEMORY, CRASH):
        assert result(READ, escaped).gating()
