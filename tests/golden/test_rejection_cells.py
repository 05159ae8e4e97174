"""Reject cells (conformance/golden/rejection.py; issue 6, item 3, the matrix part).

Every reader reads every bad file; accepting one or returning data from it is a
finding (``mismatch``), a crash is a finding (``crash``), raising is ``pass``; the
reference must also raise the catalogue's error class. An acceptable file passes
with exactly its original's rows or a clean rejection, and returning other rows
is a ``mismatch`` with the diff; the reference must read it leniently, naming the
rule, and reject it strictly. The engines are real
(reference, pyarrow, DuckDB, fastparquet; Spark in tests/matrix/test_run_matrix.py);
where a test pins an engine's verdict, it is the one measured with the versions of
docs/engine-notes.md, and the test says so.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conformance.golden.bad_corpus import bad_files
from conformance.golden.bad_file import ACCEPTABLE, BAD, file_name
from conformance.golden.parquet.bad_files import plain_optional
from conformance.golden.rejection import (
    ACCEPTED,
    BAD_FILES_DIR,
    NO_CHECKSUM_NOTE,
    NO_KEYS_NOTE,
    NOT_LENIENT,
    OTHER_ROWS,
    REJECTED,
    REJECTED_CLEANLY,
    SINGLE_READING,
    VERDICTS,
    WRITER,
    plan_rejects,
    selected_bad_files,
    verdict,
)
from conformance.matrix.cells import OUTCOMES, RESULT_SCHEMA, engine_info
from conformance.matrix.execute import run_cell
from conformance.matrix.isolation import run_isolated
from conformance.matrix.run import RunConfig, selected_cases
from conformance.report import exit_code, summarise, write_reports
from conformance.report.grid import feature_grids, run_grid

PEERS = ("pyarrow", "duckdb", "fastparquet")
READERS = ("reference", *PEERS)
CRASHING = "tests.support.crashing_engine:CrashingEngine"
ALL_ENTRIES = bad_files()
ENTRIES = [e for e in ALL_ENTRIES if e.format == "parquet"]  # ORC: tests/golden/orc/test_bad_files.py
BYTE_FAULTS = [e for e in ENTRIES if e.valid_read_options is None]
KEY_FAULTS = [e for e in ENTRIES if e.valid_read_options is not None]
BAD_ENTRIES = [e for e in ENTRIES if e.verdict == BAD]
ACCEPTABLE_ENTRIES = [e for e in ENTRIES if e.verdict == ACCEPTABLE]
FINDINGS = (ACCEPTED, OTHER_ROWS)  # what a peer's reading of a file can be found guilty of


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("run")


@pytest.fixture(scope="module")
def requests(run_dir) -> list[dict]:
    return plan_rejects("t", run_dir, [engine_info(r) for r in READERS])


@pytest.fixture(scope="module")
def records(requests, run_dir) -> dict[str, dict]:
    """Every planned cell run once, in this process (the worker's code path, without isolation)."""
    return {r["cell_id"]: run_cell(r, run_dir) for r in requests}


def _cell(records: dict[str, dict], reader: str, bad_id: str) -> dict:
    return records[f"reject/{reader}/{bad_id}"]


# ---- planning -------------------------------------------------------------------------

def test_one_cell_per_bad_file_per_reader_and_key_faults_for_the_reference_only(requests):
    cell_ids = [r["cell_id"] for r in requests]
    assert len(set(cell_ids)) == len(cell_ids)
    assert len(requests) == len(ENTRIES) + len(PEERS) * len(BYTE_FAULTS)
    planned = {(r["reader"], r["bad_file"]) for r in requests}
    assert {("reference", e.id) for e in ENTRIES} <= planned
    assert {(p, e.id) for p in PEERS for e in BYTE_FAULTS} <= planned
    assert not {(p, e.id) for p in PEERS for e in KEY_FAULTS} & planned


def test_requests_name_the_catalogue_file_its_hash_and_subject(requests, run_dir):
    by_id = {e.id: e for e in ENTRIES}
    for r in requests:
        entry = by_id[r["bad_file"]]
        assert r["phase"] == "reject" and r["writer"] == WRITER and r["writer_version"]
        assert r["case_id"] == f"bad/{entry.id}"
        assert r["file"] == (BAD_FILES_DIR / file_name(entry)).as_posix()
        assert (run_dir / r["file"]).read_bytes() == entry.make()
        assert len(r["file_sha256"]) == 64
        assert r["subject"] == {"format": "parquet", "spec": list(entry.spec), "features": [
            f"bad:{entry.error_class}", f"fault:{entry.id.split('/')[0]}", f"verdict:{entry.verdict}"]}


def _ids(entries) -> list[str]:
    return [e.id for e in entries]


def test_bad_files_are_selected_like_cases():
    assert _ids(selected_bad_files()) == _ids(ALL_ENTRIES)
    assert selected_bad_files(["physical/int32-required"]) == []
    assert _ids(selected_bad_files(["bad/*"])) == _ids(ALL_ENTRIES)
    assert _ids(selected_bad_files(["bad/framing/*"])) == [
        e.id for e in ENTRIES if e.id.startswith("framing/")]
    assert _ids(selected_bad_files((), ["fault:encryption", "bad:MissingKey"])) == [
        e.id for e in ENTRIES if e.id.startswith("encryption/") and e.error_class == "MissingKey"]
    assert _ids(selected_bad_files((), ["verdict:acceptable"])) == [
        e.id for e in ALL_ENTRIES if e.verdict == ACCEPTABLE]  # both formats'


def test_a_run_of_bad_files_only_needs_no_case_and_can_turn_them_off():
    assert selected_cases(RunConfig(case_globs=["bad/*"])) == []
    with pytest.raises(ValueError, match="no case matches"):
        selected_cases(RunConfig(case_globs=["bad/*"], bad_files=False))


# ---- outcomes -------------------------------------------------------------------------

@pytest.mark.parametrize("entry", BAD_ENTRIES, ids=lambda e: e.id)
def test_the_reference_rejects_each_bad_file_with_its_class(records, entry):
    cell = _cell(records, "reference", entry.id)
    assert cell["outcome"] == "pass", cell["detail"]
    assert cell["detail"].startswith(f"{REJECTED}: {entry.error_class}: ")


@pytest.mark.parametrize("entry", ACCEPTABLE_ENTRIES, ids=lambda e: e.id)
def test_the_reference_reads_each_acceptable_file_leniently_naming_the_rule(records, entry):
    cell = _cell(records, "reference", entry.id)
    assert cell["outcome"] == "pass", cell["detail"]
    assert cell["detail"].startswith(f"{SINGLE_READING}: ")
    assert " names " in cell["detail"] and "read as: " in cell["detail"]
    assert verdict(cell["outcome"], cell["detail"]) == SINGLE_READING


def test_peer_cells_are_outcomes_of_the_vocabulary_with_evidence(records):
    peer_cells = [r for r in records.values() if r["reader"] in PEERS]
    assert len(peer_cells) == len(PEERS) * len(BYTE_FAULTS)
    for cell in peer_cells:
        assert cell["outcome"] in OUTCOMES
        assert cell["outcome"] != "harness-error", cell["detail"]  # the suite's own bug
        assert cell["detail"], cell["cell_id"]
        found = verdict(cell["outcome"], cell["detail"])
        if cell["case_id"].removeprefix("bad/") in {e.id for e in ACCEPTABLE_ENTRIES}:
            assert found in (SINGLE_READING, REJECTED_CLEANLY, OTHER_ROWS, "crash", "timeout"), found
            continue
        assert found in (REJECTED, ACCEPTED, "crash", "timeout"), found
        if found == ACCEPTED:
            assert cell["detail"].startswith(f"{ACCEPTED} a file that must be rejected (")
            assert "): returned " in cell["detail"]  # rows and a preview, or unconvertible values


def test_checksum_verification_is_asked_for_where_the_adapter_has_it(records):
    # Measured (pyarrow 26.0.1): page_checksum_verification=True rejects the CRC mismatch.
    pyarrow = _cell(records, "pyarrow", "checksum/crc-mismatch")
    assert pyarrow["outcome"] == "pass"
    assert "page_checksum_verification=True" in pyarrow["detail"]
    for peer in ("duckdb", "fastparquet"):
        assert NO_CHECKSUM_NOTE in _cell(records, peer, "checksum/crc-mismatch")["detail"]


def test_a_peer_without_the_files_keys_says_so(records):
    for peer in PEERS:
        detail = _cell(records, peer, "encryption/tampered-page")["detail"]
        assert NO_KEYS_NOTE in detail
    assert NO_KEYS_NOTE not in _cell(records, "pyarrow", "framing/bad-leading-magic")["detail"]


def test_the_reference_raising_another_class_is_a_mismatch_naming_both(requests, tmp_path):
    request = next(r for r in requests if r["cell_id"] == "reject/reference/checksum/crc-mismatch")
    magic = next(e for e in ENTRIES if e.id == "framing/bad-leading-magic")
    (tmp_path / request["file"]).parent.mkdir(parents=True)
    (tmp_path / request["file"]).write_bytes(magic.make())
    cell = run_cell(request, tmp_path)
    assert cell["outcome"] == "mismatch"
    assert cell["detail"].startswith(f"{REJECTED} with BadMagic, but the catalogue documents "
                                     "ChecksumMismatch")
    assert verdict(cell["outcome"], cell["detail"]) == "wrong class"


def test_returning_data_is_a_mismatch_with_the_rows(requests, tmp_path):
    request = next(r for r in requests if r["cell_id"] == "reject/reference/page/compressed-size-lies")
    entry = next(e for e in ENTRIES if e.id == "page/compressed-size-lies")
    (tmp_path / request["file"]).parent.mkdir(parents=True)
    (tmp_path / request["file"]).write_bytes(entry.original())  # the valid file it was made from
    cell = run_cell(request, tmp_path)
    assert cell["outcome"] == "mismatch"
    assert cell["detail"].startswith(f"{ACCEPTED} a file that must be rejected ({entry.fault}): "
                                     "returned 10 rows")
    assert verdict(cell["outcome"], cell["detail"]) == ACCEPTED


def _with_file(requests, cell_id: str, raw: bytes, folder: Path) -> dict:
    """The planned cell ``cell_id``, its file replaced by ``raw`` in ``folder``."""
    request = next(r for r in requests if r["cell_id"] == cell_id)
    (folder / request["file"]).parent.mkdir(parents=True, exist_ok=True)
    (folder / request["file"]).write_bytes(raw)
    return run_cell(request, folder)


ZERO_ROWS = "lenient/file-num-rows-zero"  # acceptable, its original: bad_files.plain_required


def _acceptable(bad_id: str):
    return next(e for e in ACCEPTABLE_ENTRIES if e.id == bad_id)


def test_an_acceptable_file_read_as_its_original_passes(requests, tmp_path):
    entry = _acceptable(ZERO_ROWS)
    cell = _with_file(requests, f"reject/pyarrow/{entry.id}", entry.original(), tmp_path)
    assert cell["outcome"] == "pass", cell["detail"]
    assert cell["detail"].startswith(f"{SINGLE_READING}: 10 rows")
    assert verdict(cell["outcome"], cell["detail"]) == SINGLE_READING


def test_an_acceptable_file_rejected_cleanly_passes(requests, tmp_path):
    magic = next(e for e in ENTRIES if e.id == "framing/bad-trailing-magic")
    cell = _with_file(requests, f"reject/pyarrow/{ZERO_ROWS}", magic.make(), tmp_path)
    assert cell["outcome"] == "pass"
    assert cell["detail"].startswith(f"{REJECTED_CLEANLY}: ")
    assert verdict(cell["outcome"], cell["detail"]) == REJECTED_CLEANLY


def test_an_acceptable_file_read_as_other_rows_is_a_mismatch_with_the_diff(requests, tmp_path):
    entry = _acceptable(ZERO_ROWS)
    # every third value null: the same column, other rows than the original's
    cell = _with_file(requests, f"reject/pyarrow/{entry.id}", plain_optional(), tmp_path)
    assert cell["outcome"] == "mismatch"
    assert cell["detail"].startswith(f"{OTHER_ROWS} than its single reading ({entry.fault}):\n")
    assert "row 1, column 'x': expected 1, got null" in cell["detail"]
    assert verdict(cell["outcome"], cell["detail"]) == OTHER_ROWS


def test_the_reference_rejecting_an_acceptable_file_is_not_lenient(requests, tmp_path):
    # A type-rule file: CorruptMetadata, as the entry documents, but under lenient reading too.
    refused = next(e for e in ENTRIES if e.id == "type-rule/string-on-int32")
    cell = _with_file(requests, f"reject/reference/{ZERO_ROWS}", refused.make(), tmp_path)
    assert cell["outcome"] == "mismatch"
    assert cell["detail"].startswith(f"{NOT_LENIENT}: rejected a file with a single reading: CorruptMetadata")
    assert verdict(cell["outcome"], cell["detail"]) == NOT_LENIENT


def test_the_reference_reading_an_acceptable_file_strictly_must_reject_it(requests, tmp_path):
    entry = _acceptable(ZERO_ROWS)
    cell = _with_file(requests, f"reject/reference/{entry.id}", entry.original(), tmp_path)
    assert cell["outcome"] == "mismatch"
    assert cell["detail"].startswith(f"{ACCEPTED} a file that must be rejected ({entry.fault})")


def test_a_missing_bad_file_is_an_error_not_a_rejection(requests, tmp_path):
    cell = run_cell(requests[0], tmp_path)
    assert cell["outcome"] == "error"
    assert "no bad file" in cell["detail"]


@pytest.mark.usefixtures("importable_tests")
def test_a_crashing_reader_is_a_crash_cell_and_one_that_raises_rejects(tmp_path):
    crashing, raising = plan_rejects("t", tmp_path, [engine_info(CRASHING)])[:2]
    # The crashing engine segfaults on a file named *int32*: the same bad file, renamed.
    renamed = Path(crashing["file"]).with_name("int32-" + Path(crashing["file"]).name)
    shutil.copy(tmp_path / crashing["file"], tmp_path / renamed)
    crashing = {**crashing, "file": renamed.as_posix()}
    crash, rejected = run_isolated([crashing, raising], tmp_path, timeout_s=30, memory_limit_mb=None)
    assert crash["outcome"] == "crash" and "SIGSEGV" in crash["detail"]
    assert crash["phase"] == "reject" and crash["case_id"] == crashing["case_id"]
    assert rejected["outcome"] == "pass"
    assert rejected["detail"].startswith(f"{REJECTED}: RuntimeError: deliberate failure")


# ---- the report -----------------------------------------------------------------------

@pytest.fixture(scope="module")
def crash_record(records) -> dict:
    base = _cell(records, "fastparquet", "framing/bad-leading-magic")
    return {**base, "cell_id": "reject/crashing/framing/bad-leading-magic", "reader": "crashing",
            "reader_version": "0-test", "outcome": "crash",
            "detail": "worker process killed by signal SIGSEGV"}


def _report(rows: list[dict], out: Path):
    results = out / "results"
    results.mkdir(parents=True)
    pq.write_table(pa.Table.from_pylist(rows, schema=RESULT_SCHEMA), results / "part-0.parquet")
    return write_reports(results, out / "report")


@pytest.fixture(scope="module")
def report(records, crash_record, tmp_path_factory):
    rows = [*records.values(), crash_record]
    return _report(rows, tmp_path_factory.mktemp("report"))


def _accepted(records) -> list[dict]:
    """Cells whose reader returned rows it must not: a bad file's, or other rows than an
    acceptable file's single reading."""
    return [r for r in records.values() if verdict(r["outcome"], r["detail"]) in FINDINGS]


def test_the_json_report_counts_verdicts_per_reader_and_lists_what_was_not_rejected(report, records):
    document = json.loads(report.files["results.json"].read_text())
    bad = document["bad_files"]
    assert list(bad) == ["reference", "crashing", "duckdb", "fastparquet", "pyarrow"]
    reference = {REJECTED: len(BAD_ENTRIES), SINGLE_READING: len(ACCEPTABLE_ENTRIES)}
    assert bad["reference"]["counts"] == {v: reference.get(v, 0) for v in VERDICTS}
    assert bad["crashing"]["findings"][0]["verdict"] == "crash"
    for peer in PEERS:
        accepted = sorted(r["case_id"] for r in _accepted(records) if r["reader"] == peer)
        assert sum(bad[peer]["counts"][v] for v in FINDINGS) == len(accepted)
        listed = bad[peer]["findings"]
        assert sorted(f["case_id"] for f in listed) == accepted
        for f in listed:
            expected_start = ACCEPTED if f["file_verdict"] == BAD else OTHER_ROWS
            assert f["fault"] and f["detail"].startswith(expected_start)
        assert bad[peer]["total"] == len(BYTE_FAULTS)


def test_html_and_markdown_have_the_bad_files_section(report, records):
    page = (report.files["index.html"].parent / "bad-files.html").read_text()
    markdown = report.files["REPORT.md"].read_text()
    assert "<h1>Bad files (must reject)</h1>" in page
    assert "## Bad files (must reject)" in markdown
    assert 'id="r-crashing"' in page and "### `crashing` failed (1)" in markdown
    for name in (SINGLE_READING, REJECTED_CLEANLY, OTHER_ROWS):
        assert f"<th>{name}</th>" in page and f"| {name} |" in markdown
    by_id = {e.id: e for e in ENTRIES}
    for record in _accepted(records):
        assert record["case_id"] in page
        found = verdict(record["outcome"], record["detail"])
        file_verdict = by_id[record["case_id"].removeprefix("bad/")].verdict
        assert f"**{found}** `{record['case_id']}` ({file_verdict})" in markdown


def test_reject_cells_stay_out_of_the_grids(report):
    assert WRITER not in report.writers and report.readers == ()
    assert run_grid(report).reads == {} and feature_grids(report) == {}
    assert report.roles(WRITER) == ["bad-file corpus"]
    assert report.roles("pyarrow") == ["bad-file reader"]
    assert "reject:pyarrow" in report.files["junit.xml"].read_text()


def test_the_reference_not_rejecting_fails_the_run_and_peers_do_not(records, tmp_path):
    peers_accepting = summarise(pa.Table.from_pylist(list(records.values()), schema=RESULT_SCHEMA))
    assert _accepted(records) and exit_code(peers_accepting) == 0
    reference = _cell(records, "reference", "framing/bad-leading-magic")
    wrong = {**reference, "outcome": "mismatch", "detail": "rejected with CorruptPage, but ..."}
    rows = [wrong if r is reference else r for r in records.values()]
    failing = _report(rows, tmp_path)
    assert failing.reference_failures() == tuple(c for c in failing.cells if c.outcome == "mismatch"
                                                 and c.reader == "reference")
    assert exit_code(failing) == 1
    assert "**FAILED**: 1 of" in failing.files["REPORT.md"].read_text()
