"""Cells of readers with no way to take ORC keys (`Capabilities.reads_keyless`): their reads
of encrypted files are judged against the masked view of the case (ORCv1.md, 'Encryption
Variants': a reader without the key reads the unencrypted masked variant), marked
``view:keyless``; the reference, which takes keys, against the true rows. pyarrow and pyorc
run for real on the reference's files; no JVM."""

from __future__ import annotations

import dataclasses
import json

import pytest

from conformance.cases import case_by_id
from conformance.cases.model import KEYLESS_VIEW_TAG
from conformance.engines import get_engine
from conformance.golden.paths import CASES_DIR, EXPECTED, default_corpus
from conformance.golden.verify import plan_golden
from conformance.matrix.cells import EngineInfo, plan_reads, plan_writes
from conformance.matrix.execute import expected_view, read_and_compare, run_cell

REDACT = "orc/encryption/mask-redact"
ORC = "orc"


def _info(name: str) -> EngineInfo:
    return EngineInfo(spec=name, name=name, version="0", isolated=True, format=ORC)


def _cells(case_id: str, tmp_path) -> dict[str, dict]:
    """The reference writes `case_id`; the reference, pyarrow and pyorc read the file."""
    case = case_by_id(case_id)
    (write,) = plan_writes("run", [case], {ORC: [_info("reference")]})
    written = run_cell(write, tmp_path)
    assert written["outcome"] == "pass", written["detail"]
    readers = [_info(name) for name in ("reference", "pyarrow", "pyorc")]
    return {r["reader"]: run_cell(r, tmp_path) for r in plan_reads("run", [case], [written], {ORC: readers})}


def test_keyless_readers_of_the_redact_file_read_the_masked_view(tmp_path) -> None:
    """Measured: both ORC C++ readers give 'Xxxx 9 Xxx' for 'Name 1 Ünï', the masked view."""
    cells = _cells(REDACT, tmp_path)
    for reader in ("pyarrow", "pyorc"):
        assert cells[reader]["outcome"] == "pass", cells[reader]["detail"]
        assert KEYLESS_VIEW_TAG in cells[reader]["features"]
    assert cells["reference"]["outcome"] == "pass", cells["reference"]["detail"]
    assert KEYLESS_VIEW_TAG not in cells["reference"]["features"]


def test_a_key_taking_reader_expects_the_true_rows_and_a_keyless_one_the_masked_view() -> None:
    case = case_by_id(REDACT)
    args = (case.features, case.expected, case.options)
    true_rows, marked = expected_view(get_engine("reference", ORC), *args)
    assert (true_rows, marked) == (case.expected, {})
    masked, marked = expected_view(get_engine("pyorc", ORC), *args)
    assert masked.rows[1][1] == "Xxxx 9 Xxx"
    assert marked["features"] == sorted({*case.features, KEYLESS_VIEW_TAG})


def test_pyarrow_reads_the_masked_values_not_the_true_ones(tmp_path) -> None:
    """Judged against the true rows (as a reader that holds the key is), pyarrow's read of
    the reference's file is a mismatch: it returns the masked values, as the text asks."""
    case = case_by_id(REDACT)
    written = _cells(REDACT, tmp_path)["reference"]
    outcome, detail, _ = read_and_compare(get_engine("pyarrow", ORC), (), tmp_path / written["file"],
                                          case.expected)
    assert outcome == "mismatch"
    assert "Name 1 Ünï" in detail and "Xxxx 9 Xxx" in detail


def test_a_keyless_reader_giving_the_true_rows_is_a_mismatch(tmp_path) -> None:
    """A file whose column is not masked (the case written without encryption) read as the
    encrypted case: pyarrow returns the true values where the masked view is expected."""
    case = case_by_id(REDACT)
    plain = dataclasses.replace(case, options=dataclasses.replace(case.orc_options, encrypt={}, masks={}))
    path = tmp_path / "plain.orc"
    get_engine("reference", ORC).write(plain, path)
    outcome, detail, marked = read_and_compare(get_engine("pyarrow", ORC), case.features, path,
                                               case.expected, options=case.options)
    assert outcome == "mismatch" and "Xxxx 9 Xxx" in detail
    assert KEYLESS_VIEW_TAG in marked["features"]


@pytest.mark.parametrize("mask", ["nullify", "redact", "sha256"])
def test_golden_cells_of_keyless_readers_judge_the_masked_view(mask, tmp_path) -> None:
    expected = default_corpus() / CASES_DIR / "orc/encryption" / f"mask-{mask}" / EXPECTED
    document = json.loads(expected.read_text(encoding="utf-8"))
    requests = plan_golden("run", [(expected, document)], [_info("pyarrow"), _info("reference")])
    cells = {r["reader"]: run_cell(r, tmp_path) for r in requests}
    outcomes = {reader: cell["outcome"] for reader, cell in cells.items()}
    assert outcomes == {"pyarrow": "pass", "reference": "pass"}
    assert KEYLESS_VIEW_TAG in cells["pyarrow"]["features"]
