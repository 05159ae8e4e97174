"""exit_code: the reference must agree with itself; fail_on adds outcomes that fail the run."""

from __future__ import annotations

import pytest

from conformance.report import exit_code, load_results, summarise

from .synthetic import DELTA, INT32, make_cell, synthetic_rows, write_dataset


def _summary(rows, tmp_path):
    return summarise(load_results(write_dataset(rows, tmp_path / "results")))


def test_default_policy_passes_when_reference_agrees_with_itself(report):
    summary, _ = report
    assert summary.reference_failures() == ()
    assert exit_code(summary) == 0  # engines under test failing is a finding, not a failure
    assert exit_code(summary, set()) == 0


@pytest.mark.parametrize("outcome", ["mismatch", "error", "crash", "unsupported", "skipped"])
def test_reference_self_disagreement_fails(tmp_path, outcome):
    rows = [r for r in synthetic_rows() if r["cell_id"] != "read/reference/reference/" + DELTA[0]]
    rows.append(make_cell("read", "reference", "reference", DELTA, outcome, "differs"))
    summary = _summary(rows, tmp_path)
    assert len(summary.reference_failures()) == 1
    assert exit_code(summary) == 1


@pytest.mark.parametrize(
    ("fail_on", "expected"),
    [
        ({"mismatch"}, 1),
        ({"mismatch", "crash"}, 1),
        ({"timeout"}, 1),
        ({"unsupported"}, 1),
        ({"any"}, 1),
        (frozenset(), 0),
    ],
)
def test_fail_on_outcomes(report, fail_on, expected):
    summary, _ = report
    assert exit_code(summary, fail_on) == expected


def test_any_ignores_pass_and_unsupported(tmp_path):
    rows = [
        make_cell("write", "pyarrow", None, INT32, "pass"),
        make_cell("write", "pyarrow", None, DELTA, "unsupported", "cannot express"),
        make_cell("read", "pyarrow", "duckdb", INT32, "pass"),
    ]
    summary = _summary(rows, tmp_path)
    assert exit_code(summary, {"any"}) == 0
    assert exit_code(summary, {"unsupported"}) == 1
    assert exit_code(summary, {"mismatch", "crash"}) == 0


def test_any_counts_skipped(tmp_path):
    rows = [make_cell("read", "pyarrow", "duckdb", INT32, "skipped", "no file")]
    assert exit_code(_summary(rows, tmp_path), {"any"}) == 1


def test_fail_on_rejects_typos(report):
    summary, _ = report
    with pytest.raises(ValueError, match="mismach"):
        exit_code(summary, {"mismach"})
    with pytest.raises(TypeError):
        exit_code(summary, "mismatch")
