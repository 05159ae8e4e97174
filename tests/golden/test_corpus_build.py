"""build_corpus: which files become golden, and who agrees with the expected values.

The run's cells are given as records (what `run_matrix` logs), the files are real
ones written by the reference; no engine is stood in for: the records say what
the engines did, and the builder only sorts them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.cases import case_by_id
from conformance.cases.model import KEYLESS_VIEW_TAG
from conformance.engines.parquet.reference import GoldenReferenceEngine
from conformance.golden.corpus import (
    PEER_READS_REFERENCE,
    REFERENCE_READS_PEER,
    build_corpus,
    case_result,
    golden_file,
)
from conformance.golden.manifest import check_manifest
from conformance.golden.paths import CASES_DIR, EXPECTED
from conformance.golden.verify import check_corpus
from conformance.matrix.cells import sha256_of

CASE = case_by_id("physical/int32-required")


def _write(run_dir: Path, writer: str, outcome: str = "pass", detail: str = "") -> dict:
    file = f"files/{writer}/{CASE.id}.parquet"
    record = {"phase": "write", "case_id": CASE.id, "writer": writer, "writer_version": "1.0",
              "outcome": outcome, "detail": detail, "file": None, "file_sha256": None}
    if outcome == "pass":
        path = run_dir / file
        path.parent.mkdir(parents=True, exist_ok=True)
        GoldenReferenceEngine().write(CASE, path)  # the bytes stand for what `writer` wrote
        record.update(file=file, file_sha256=sha256_of(path))
    return record


def _read(writer: str, reader: str, outcome: str = "pass", detail: str = "", findings=None) -> dict:
    return {"phase": "read", "case_id": CASE.id, "writer": writer, "reader": reader,
            "reader_version": "2.0", "outcome": outcome, "detail": detail, "findings": findings}


def _build(tmp_path: Path, records: list[dict]) -> dict:
    corpus = tmp_path / "corpus"
    build_corpus(corpus, [CASE], records, tmp_path, "run")
    check_manifest(corpus)
    check_corpus(corpus)  # the document follows the schema
    return json.loads((corpus / CASES_DIR / CASE.id / EXPECTED).read_text())


def test_files_the_reference_reads_are_golden_the_others_say_why_not(tmp_path):
    records = [
        _write(tmp_path, "reference"), _write(tmp_path, "pyarrow"), _write(tmp_path, "fastparquet"),
        _write(tmp_path, "duckdb", "unsupported", "cannot write type:X: documented"),
        _read("reference", "reference"), _read("pyarrow", "reference"),
        _read("fastparquet", "reference", "mismatch", "row 0: expected 1, got 2\nmore"),
        _read("reference", "validator", findings=json.dumps([{"severity": "nonconforming"}])),
    ]
    document = _build(tmp_path, records)
    assert [(f["writer"], f["path"]) for f in document["files"]] == [
        ("pyarrow", golden_file(CASE, "pyarrow")), ("reference", golden_file(CASE, "reference"))]
    assert document["files"][1]["validator"] == {"nonconforming": 1}
    assert document["not_in_corpus"] == [
        {"writer": "duckdb", "writer_version": "1.0", "outcome": "unsupported",
         "reason": "cannot write type:X: documented"},
        {"writer": "fastparquet", "writer_version": "1.0", "outcome": "reference read: mismatch",
         "reason": "row 0: expected 1, got 2"}]
    assert document["result"] == "valid"


def test_a_peer_agrees_by_reading_the_reference_file_or_by_writing_one_the_reference_reads(tmp_path):
    records = [_write(tmp_path, "reference"), _write(tmp_path, "pyarrow"),
               _read("reference", "reference"), _read("reference", "duckdb"),
               _read("pyarrow", "reference"), _read("reference", "pyarrow:filter")]
    peers = _build(tmp_path, records)["agreement"]["peers"]
    assert peers == [{"engine": "duckdb", "version": "2.0", "how": PEER_READS_REFERENCE},
                     {"engine": "pyarrow", "version": "1.0", "how": REFERENCE_READS_PEER}]


def test_without_a_peer_the_case_says_why_from_the_measured_cells(tmp_path):
    records = [_write(tmp_path, "reference"), _read("reference", "reference"),
               _read("reference", "spark", "unsupported", "cannot read type:INT96: documented"),
               _write(tmp_path, "duckdb", "error", "IOException: boom\ntrace")]
    agreement = _build(tmp_path, records)["agreement"]
    assert agreement["peers"] == []
    assert agreement["no_peer_reason"] == (
        "spark reading the reference file: unsupported: cannot read type:INT96: documented; "
        "duckdb writing: error: IOException: boom")


def test_a_keyless_read_of_the_masked_view_is_no_agreement_with_the_true_values(tmp_path):
    masked = {**_read("reference", "pyorc"), "features": [*CASE.features, KEYLESS_VIEW_TAG]}
    agreement = _build(tmp_path, [_write(tmp_path, "reference"), _read("reference", "reference"), masked])
    assert agreement["agreement"]["peers"] == []
    assert agreement["agreement"]["no_peer_reason"] == (
        "pyorc reading the reference file: pass against the masked view (it takes no keys)")


@pytest.mark.parametrize("case_id, result", [("page_index/lying-column-index", "acceptable"),
                                             ("checksum/corrupted", "acceptable"),
                                             ("checksum/v1-plain", "valid")])
def test_cases_with_untrue_metadata_are_acceptable_not_valid(case_id, result):
    assert case_result(case_by_id(case_id)) == result


def test_a_generation_of_some_cases_keeps_the_others_and_drops_cases_the_catalogue_lost(tmp_path):
    corpus = tmp_path / "corpus"
    kept, lost = corpus / CASES_DIR / "physical/int64-required", corpus / CASES_DIR / "gone/case"
    for folder in (kept, lost):
        folder.mkdir(parents=True)
        (folder / EXPECTED).write_text("{}")
    records = [_write(tmp_path, "reference"), _read("reference", "reference")]
    build_corpus(corpus, [CASE], records, tmp_path, "run")
    assert (kept / EXPECTED).read_text() == "{}"  # `--cases` chose another case: left as it was
    assert not lost.exists()
    assert (corpus / CASES_DIR / CASE.id / EXPECTED).is_file()
