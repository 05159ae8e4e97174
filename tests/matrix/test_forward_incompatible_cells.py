"""Cells of forward-incompatible cases (``conformance.cases.model.FORWARD_INCOMPATIBLE``):
the ALP encoding, in Preview. A reader is judged by what a reader that does not know the
addition must do: the expected rows (it implements it) or a clean error (``unsupported``,
naming the addition and the engine's message); other values are a ``mismatch``.
Run in-process with the reference and pyarrow (no JVM)."""

from __future__ import annotations

from conformance.cases import case_by_id, select
from conformance.cases.model import FORWARD_INCOMPATIBLE_TAG
from conformance.cases.spec_versions import PREVIEW_TAG
from conformance.engines import get_engine
from conformance.matrix.cells import EngineInfo, plan_reads, plan_writes
from conformance.matrix.execute import read_and_compare, run_cell

REFERENCE = EngineInfo(spec="reference", name="reference", version="0", isolated=True)
PYARROW = EngineInfo(spec="pyarrow", name="pyarrow", version="0", isolated=True)
CASE = "encoding/alp-double-optional-v1"


def _written(case_id: str, tmp_path) -> dict:
    (request,) = plan_writes("run", [case_by_id(case_id)], {"parquet": [REFERENCE]})
    record = run_cell(request, tmp_path)
    assert record["outcome"] == "pass", record["detail"]
    return record


def test_alp_cases_are_marked_preview_and_forward_incompatible() -> None:
    cases = select([case_by_id(CASE)], features=["encoding:ALP"])
    assert cases and {PREVIEW_TAG, FORWARD_INCOMPATIBLE_TAG} <= set(cases[0].features)
    # Markings, not features: no writer is asked whether it "writes spec:preview".
    assert PREVIEW_TAG not in cases[0].write_features
    assert FORWARD_INCOMPATIBLE_TAG not in cases[0].write_features
    assert PREVIEW_TAG not in case_by_id("encoding/byte_stream_split-double-optional-v1").features


def test_pyarrow_declares_it_cannot_write_alp_with_the_measured_error() -> None:
    gap = get_engine("pyarrow").capabilities.write_gap(case_by_id(CASE).write_features)
    assert gap is not None and "Unsupported column encoding: 'ALP'" in gap


def test_a_reader_that_rejects_alp_cleanly_is_unsupported_and_the_reference_passes(tmp_path) -> None:
    case = case_by_id(CASE)
    requests = plan_reads("run", [case], [_written(CASE, tmp_path)], {"parquet": [REFERENCE, PYARROW]})
    cells = {r["reader"]: run_cell(r, tmp_path) for r in requests}
    assert cells["reference"]["outcome"] == "pass", cells["reference"]["detail"]
    assert cells["validator"]["outcome"] == "pass", cells["validator"]["detail"]
    pyarrow = cells["pyarrow"]
    assert pyarrow["outcome"] == "unsupported"
    assert pyarrow["detail"].startswith("measured: rejected cleanly a file using the ALP encoding")
    assert "OSError: Unknown encoding type." in pyarrow["detail"]  # pyarrow 26's own message


def test_other_values_than_the_expected_rows_are_a_mismatch(tmp_path) -> None:
    """A reader that returns values for a forward-incompatible case is judged on them: here
    the reference reads the FLOAT case's file against the DOUBLE case's rows."""
    other = _written("encoding/alp-float-optional-v1", tmp_path)
    case = case_by_id(CASE)
    outcome, detail, _ = read_and_compare(get_engine("reference"), case.features,
                                          tmp_path / other["file"], case.expected)
    assert outcome == "mismatch" and detail
