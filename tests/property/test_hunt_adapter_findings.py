"""A protocol adapter's finding is kept as a built-in engine's is (issue 29 item 4): under
the ``long`` profile's phases it is shrunk and saved under ``regressions/<id>/`` (case,
finding, the writer's file), the saved example runs as a case of the matrix with the same
outcome, and the next hunt, in fresh processes, knows it although the evidence of an
engine in a process of its own varies from process to process (its stderr, the identities
it prints: `regressions.signature`).

Real engines and real findings, no mocks:

* polars (a Python adapter, always installed) panics reading any INTERVAL column
  ("could not import from `month_day_millisecond_interval` type"): a ``crash`` cell whose
  evidence carries the Rust backtrace polars printed on its stderr;
* parquet-java (a JVM of its own) cannot read a BROTLI column without the codec's jar,
  and its message names the file's Java object with its identity hash
  (``LocalInputFile@30506c0d``), another one on every read.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import UnsatisfiedAssumption

from conformance.cases import Case
from conformance.engines import available_engines
from conformance.golden.regressions import (
    CASE_FILE,
    FINDINGS_FILE,
    known_findings,
    load_regressions,
    regression_id,
    signature,
)
from conformance.matrix.cell_runner import DEFAULT_LIMITS, run_cells
from conformance.matrix.cells import engines_by_format, new_run_id, plan_reads, plan_writes, with_definition
from conformance.matrix.results import read_cell_logs
from conformance.values import types as T
from tests.engines._helpers import single_column_case

from .hunt import Hunt, NewReadCrashOrHang, NewReadFailure

UINT32_MAX = 2**32 - 1
INTERVAL = (1, 2, 3)  # months, days, milliseconds
MAX_ROWS = 8  # shrinking a list of equal values is a few steps: each costs a panic's backtrace
GENERATED = 5  # a few failing examples, then Hypothesis shrinks the last
POLARS_PANIC = "could not import from `month_day_millisecond_interval` type"
JAVA_IDENTITY = re.compile(r"LocalInputFile@[0-9a-f]+")
FORMAT = "parquet"


@pytest.fixture(autouse=True)
def _no_symbolized_backtraces(monkeypatch):
    """With ``RUST_BACKTRACE=1`` each polars panic symbolizes its backtrace, seconds each;
    the panic's message is the same without it."""
    monkeypatch.setenv("RUST_BACKTRACE", "0")


def _needs(engine: str) -> None:
    _, unavailable = available_engines([engine])
    if unavailable:
        pytest.skip(unavailable[engine])


def _intervals(rows: list, name: str = "iv") -> Case:
    return single_column_case(T.interval(), rows, name=name)


def _brotli(values: list[int], name: str) -> Case:
    return single_column_case(T.integer(32), values, name=name, codec="BROTLI")


def test_a_protocol_adapters_finding_is_shrunk_saved_and_a_case_of_the_matrix(tmp_path):
    _needs("polars")
    corpus = tmp_path / "corpus"
    hunt = Hunt("reference", "polars", tmp_path / "work", corpus, shrink=True)
    failing_rows: list[int] = []

    @settings(max_examples=GENERATED, phases=(Phase.generate, Phase.shrink), derandomize=True,
              database=None, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(st.just(INTERVAL), min_size=1, max_size=MAX_ROWS))
    def examples(rows):
        try:
            hunt.check(_intervals(rows))
        except NewReadCrashOrHang:
            failing_rows.append(len(rows))
            raise

    try:
        with pytest.raises(NewReadCrashOrHang, match=POLARS_PANIC):
            examples()
    finally:
        hunt.close()
    (saved,) = hunt.save_new_findings("test")
    assert saved.startswith("read/reference/polars/test/iv crash: PanicException: ")

    (regression,) = load_regressions(corpus)
    folder = corpus / "regressions" / regression_id(regression)
    assert regression.id == f"regression/{regression_id(regression)}"
    assert len(regression.rows) == min(failing_rows) == 1, "the saved example is the shrunk one"
    assert {p.name for p in folder.iterdir()} == {CASE_FILE, FINDINGS_FILE, "reference.parquet"}
    (finding,) = known_findings(regression, corpus)
    assert (finding.writer, finding.reader, finding.outcome) == ("reference", "polars", "crash")
    assert "adapter stderr (tail):" in finding.detail  # the engine's own evidence, kept

    # The saved example, planned and run as the matrix runs a case: the same finding.
    record = _matrix_read(regression, "polars", tmp_path / "matrix")
    assert (record["outcome"], signature(record["detail"])) == ("crash", signature(finding.detail))


def _matrix_read(case: Case, reader: str, workdir: Path) -> dict:
    """The reader's read cell of `case` written by the reference, planned by the matrix."""
    run_id, engines = new_run_id(), engines_by_format(["reference", reader], [case.format])
    writes = [with_definition(r, case) for r in plan_writes(run_id, [case], engines)]
    written = [w for w in run_cells(writes, workdir, DEFAULT_LIMITS, ()) if w["writer"] == "reference"]
    reads = [with_definition(r, case) for r in plan_reads(run_id, [case], written, engines)]
    (record,) = [r for r in run_cells(reads, workdir, DEFAULT_LIMITS, ()) if r["reader"] == reader]
    return record


def test_a_saved_adapter_finding_is_known_to_the_next_hunt(tmp_path):
    _needs("polars")
    corpus = tmp_path / "corpus"
    first = Hunt("reference", "polars", tmp_path / "first", corpus, shrink=False)
    try:
        first.check(_intervals([INTERVAL]))
    finally:
        first.close()
    assert first.save_new_findings("test")
    # A fresh worker and adapter process, another example of the same bug.
    second = Hunt("reference", "polars", tmp_path / "second", corpus, shrink=True)
    try:
        second.check(_intervals([(0, 0, 0), None, (UINT32_MAX, 0, 1)], name="other"))
    finally:
        second.close()
    assert second.counts["known finding"] == 1 and not second.failures


@pytest.mark.jvm
def test_an_evidence_that_differs_per_process_still_names_one_known_finding(tmp_path):
    _needs("parquet-java")
    corpus = tmp_path / "corpus"
    first = Hunt("reference", "parquet-java", tmp_path / "first", corpus, shrink=False)
    try:
        first.check(_brotli([1], "a"))
    finally:
        first.close()
    assert first.save_new_findings("test")
    assert first.failures[NewReadFailure].record["outcome"] == "error"
    run_dir = tmp_path / "second"
    second = Hunt("reference", "parquet-java", tmp_path / "work", corpus, run_dir, shrink=True)
    try:
        second.check(_brotli([2, None], "b"))
        second.check(_brotli([3], "c"))
    finally:
        second.close()
    assert second.counts["known finding"] == 2 and not second.failures
    identities = {identity for r in read_cell_logs(run_dir) if r["phase"] == "read"
                  for identity in JAVA_IDENTITY.findall(r["detail"].splitlines()[0])}
    assert len(identities) == 2, "each read's message names its own Java object"


@pytest.mark.jvm
def test_an_example_the_reference_rejects_too_is_no_engines_finding(tmp_path):
    """VARIANT metadata 0x00 is version 0 (VariantEncoding.md, 'Metadata encoding': the
    version must be 1): parquet-java writes it as given, the reference rejects the file,
    and its own file of the example as well. The long hunt once saved this as
    parquet-java's finding."""
    _needs("parquet-java")
    invalid = single_column_case(T.variant(), [(b"\x00", b"\x00")], nullable=False)
    hunt = Hunt("parquet-java", "reference", tmp_path / "work", tmp_path / "corpus", shrink=True)
    try:
        with pytest.raises(UnsatisfiedAssumption):
            hunt.check(invalid)
    finally:
        hunt.close()
    assert not hunt.failures and hunt.counts["new finding"] == 0
    assert hunt.counts["no valid file (the reference's own pair reports it)"] == 1


def test_an_objects_identity_is_no_part_of_a_signature():
    """The messages of two reads of one file in two processes (parquet-java's, measured;
    a Python address and a UUID as engines print them)."""
    read = ("ParquetDecodingException: Can not read value at 0 in block -1 in file "
            "org.apache.parquet.io.LocalInputFile@{}; caused by BadConfigurationException")
    assert signature(read.format("30506c0d")) == signature(read.format("7b3300e5"))
    assert signature("ValueError: <Frame at 0x7f3a2b1c9e40> query 3f2a1b4c-1234-abcd-9876-0123456789ab") \
        == signature("ValueError: <Frame at 0x55d0c0ffee00> query 0b1e2c3d-aaaa-4bcd-8876-fedcba987654") \
        == "ValueError: <Frame at <n>> query <n>"
