"""Honest verdicts: only the engine's own error rejects a bad file or fails a read cell;
the suite's adapter code failing is a `harness-error` cell (conformance/matrix/failures.py).

The engines here are test-only adapters around the real pyarrow reader: the read is
pyarrow's, the conversion of its answer is deliberately broken (a TypeError, as a bug
in arrow_values.py would raise) or lossy.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conformance.cases import case_by_id
from conformance.engines import Capabilities, Engine, LossyConversion, converting
from conformance.engines.base import HarnessError, engine_call
from conformance.engines.parquet.reference import ReferenceEngine
from conformance.golden.bad_corpus import bad_files
from conformance.golden.rejection import ACCEPTED, REJECTED, plan_rejects, verdict
from conformance.matrix.cells import RESULT_SCHEMA, engine_info, read_request, write_request
from conformance.matrix.execute import run_cell
from conformance.report import exit_code, summarise, write_reports

BUGGY = "tests.golden.test_harness_errors:BuggyConversionEngine"
LOSSY = "tests.golden.test_harness_errors:LossyConversionEngine"
# Measured (pyarrow 26.0.1): pyarrow refuses the first file, reads the second (its
# leading magic is 'PAR0'; only the trailing one is checked).
REFUSED, ACCEPTED_BY_PYARROW = "framing/bad-trailing-magic", "framing/bad-leading-magic"
CASE = "physical/int32-required"


class BuggyConversionEngine(Engine):
    """pyarrow reads; this adapter's conversion of the answer has a bug."""

    name = "buggy-conversion"
    capabilities = Capabilities(reads=("*",))
    version = "0-test"

    def write(self, case, path: Path) -> None:
        raise AssertionError("never called: the tests only read with it")

    def read(self, path: Path):
        answer = pq.read_table(str(path))  # the engine's call
        with converting(self.name):
            return self.convert(answer)

    def convert(self, answer: pa.Table):
        return answer.num_rows + "rows"  # TypeError: the suite's bug, not pyarrow's


class LossyConversionEngine(BuggyConversionEngine):
    """pyarrow reads; its answer has a value the canonical model cannot hold."""

    name = "lossy-conversion"

    def convert(self, answer: pa.Table):
        raise LossyConversion(f"{answer.num_rows} rows of a type with no canonical form")


def _reject_request(tmp_path: Path, spec: str, bad_file: str) -> dict:
    [request] = [r for r in plan_rejects("t", tmp_path, [engine_info(spec)])
                 if r["bad_file"] == bad_file]
    return request


def test_an_engine_error_on_a_bad_file_is_still_a_rejection(tmp_path):
    cell = run_cell(_reject_request(tmp_path, BUGGY, REFUSED), tmp_path)
    assert cell["outcome"] == "pass"
    assert cell["detail"].startswith(f"{REJECTED}: ArrowInvalid: ")


def test_a_conversion_bug_on_a_file_the_engine_accepts_is_a_harness_error_not_a_rejection(tmp_path):
    cell = run_cell(_reject_request(tmp_path, BUGGY, ACCEPTED_BY_PYARROW), tmp_path)
    assert cell["outcome"] == "harness-error"
    assert cell["detail"].startswith(
        "harness error: the buggy-conversion adapter failed converting the engine's result: "
        "TypeError: unsupported operand type(s) for +: 'int' and 'str'")
    assert "test_harness_errors.py" in cell["detail"]  # the frame of the bug
    assert verdict(cell["outcome"], cell["detail"]) == "harness-error"


def test_a_lossy_answer_to_a_bad_file_is_accepting_it(tmp_path):
    cell = run_cell(_reject_request(tmp_path, LOSSY, ACCEPTED_BY_PYARROW), tmp_path)
    fault = next(e.fault for e in bad_files() if e.id == ACCEPTED_BY_PYARROW)
    assert cell["outcome"] == "mismatch"
    assert cell["detail"].startswith(f"{ACCEPTED} a file that must be rejected ({fault}): "
                                     "returned values its adapter cannot convert exactly: "
                                     "LossyConversion: 10 rows")
    assert verdict(cell["outcome"], cell["detail"]) == ACCEPTED


@pytest.fixture
def written(tmp_path) -> dict:
    case = case_by_id(CASE)
    return run_cell(write_request("t", case, engine_info("reference")), tmp_path)


def test_a_read_cell_tells_a_conversion_bug_from_an_engine_error(tmp_path, written):
    case = case_by_id(CASE)
    buggy = run_cell(read_request("t", case, written, engine_info(BUGGY)), tmp_path)
    assert buggy["outcome"] == "harness-error"
    assert "TypeError: unsupported operand" in buggy["detail"]
    (tmp_path / written["file"]).write_bytes(b"not parquet")
    refused = run_cell(read_request("t", case, written, engine_info(BUGGY)), tmp_path)
    assert refused["outcome"] == "error"
    assert refused["detail"].startswith("ArrowInvalid: ")


def test_a_harness_error_is_reported_apart_and_fails_the_run(tmp_path, written):
    case = case_by_id(CASE)
    reference = ReferenceEngine.name
    cells = [written, run_cell(read_request("t", case, written, engine_info(reference)), tmp_path)]
    results = pa.Table.from_pylist(cells, schema=RESULT_SCHEMA)
    assert exit_code(summarise(results)) == 0
    buggy = run_cell(read_request("t", case, written, engine_info(BUGGY)), tmp_path)
    results = pa.Table.from_pylist([*cells, buggy], schema=RESULT_SCHEMA)
    assert buggy["outcome"] == "harness-error"
    assert exit_code(summarise(results)) == 1  # without any --fail-on
    lossy = run_cell(read_request("t", case, written, engine_info(LOSSY)), tmp_path)
    assert lossy["outcome"] == "error"  # the engine's verdict: a finding, not a failed run
    assert exit_code(summarise(pa.Table.from_pylist([*cells, lossy], schema=RESULT_SCHEMA))) == 0
    (tmp_path / "results").mkdir()
    pq.write_table(results, tmp_path / "results" / "part-0.parquet")
    report = write_reports(tmp_path / "results", tmp_path / "report")
    assert report.counts["harness-error"] == 1
    assert "o-harness-error" in report.files["index.html"].read_text()
    assert 'type="harness-error"' in report.files["junit.xml"].read_text()


# Files whose fastparquet answer contradicts the file's schema or itself (measured,
# fastparquet 2026.9.0, pandas 3.1.1): each was a harness-error cell; each is fastparquet's
# verdict, recorded with the evidence (conformance/engines/parquet/_pd_read.py ContradictoryAnswer).
CONTRADICTORY_ANSWERS = [
    # a legacy MAP_KEY_VALUE group missing from the frame
    ("reference", "nested/legacy-map-key-value",
     "ContradictoryAnswer: column 'm' of the file's schema is missing from fastparquet's "
     "answer (its columns: ['id'])"),
    # the map's struct values dropped: a list of keys for each map
    ("reference", "nested/map-of-structs",
     "ContradictoryAnswer: column 'm': fastparquet returned a MAP value whose entry "
     "np.int32(1) is not a (key, value) pair"),
    # fastparquet's own v1 BOOLEAN dictionary pages read into codes beyond its categories
    ("fastparquet", "encoding/rle_dictionary-boolean-required-v1",
     "ContradictoryAnswer: column 'value': fastparquet returned dictionary codes "),
]


@pytest.mark.parametrize(("writer", "case_id", "evidence"), CONTRADICTORY_ANSWERS)
def test_a_fastparquet_answer_that_contradicts_the_schema_is_its_error(tmp_path, writer, case_id,
                                                                      evidence):
    case = case_by_id(case_id)
    written = run_cell(write_request("t", case, engine_info(writer)), tmp_path)
    cell = run_cell(read_request("t", case, written, engine_info("fastparquet")), tmp_path)
    assert (cell["outcome"], cell["detail"][:len(evidence)]) == ("error", evidence)


def test_fastparquet_finds_a_misnamed_maps_key_and_value_by_position(tmp_path):
    """LogicalTypes.md, 'Maps', 'Backward-compatibility rules': key and value fields named
    otherwise are still the map's; fastparquet then answers nulls, a mismatch of its own."""
    case = case_by_id("nested/legacy-misnamed-map")
    written = run_cell(write_request("t", case, engine_info("reference")), tmp_path)
    cell = run_cell(read_request("t", case, written, engine_info("fastparquet")), tmp_path)
    assert cell["outcome"] == "mismatch"  # the types agree, only the values differ
    assert cell["detail"].startswith("""row 0, column 'm': expected [["a", 1], ["b", null]], got null""")


def test_an_engine_call_inside_a_conversion_stays_the_engines_verdict():
    """A second read the conversion makes (fastparquet's float columns are read again for
    their null masks) raises the engine's own error, not a harness error."""
    with pytest.raises(IndexError):
        with converting("fastparquet"), engine_call():
            raise IndexError("too many indices for array")
    with pytest.raises(HarnessError):
        with converting("fastparquet"):
            raise IndexError("the adapter's own indexing")
