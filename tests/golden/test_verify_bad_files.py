"""`golden verify` reads the corpus's bad files (golden_files/bad/) as the reject cells a run
makes (conformance/golden/rejection.py), judged by the catalogue's verdicts, into the same
results dataset as its golden cells; before reading, bad/index.json must follow its schema,
its MANIFEST and the catalogue (conformance/golden/verify.py). The readers are real
(reference and pyarrow); where a test pins pyarrow's verdict, it is the one measured with
the versions of docs/engine-notes.md, and the test says so.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conformance.golden.bad_corpus import bad_files
from conformance.golden.bad_file import BAD, INDEX, file_name
from conformance.golden.manifest import write_manifest
from conformance.golden.paths import BAD_DIR
from conformance.golden.rejection import (
    ACCEPTED,
    REJECTED,
    REJECTED_CLEANLY,
    SINGLE_READING,
    WRITER,
    verdict,
)
from conformance.golden.verify import CorpusError, verify
from conformance.report import write_reports
from conformance.report.dataset import REJECT
from tests.support.corpus import cut_corpus

CASE = "physical/boolean-required"
READERS = ("reference", "pyarrow")
# Measured (pyarrow 26.0.1): pyarrow refuses the first file and reads the second (its leading
# magic is 'PAR0'; only the trailing one is checked), as tests/golden/test_harness_errors.py pins.
REFUSED, ACCEPTED_BY_PYARROW = "framing/bad-trailing-magic", "framing/bad-leading-magic"
ZERO_ROWS = "lenient/file-num-rows-zero"  # acceptable: one reading, its original's rows
# Measured (pyarrow 26.0.1, docs/engine-notes.md "What the ORC readers do with the ORC bad
# files"): no ORC reader checks the
# header magic, so pyarrow reads the file that starts with 'ORX'.
ORC_HEADER_MAGIC = "orc-tail/bad-header-magic"
BAD_IDS = (REFUSED, ACCEPTED_BY_PYARROW, ZERO_ROWS, ORC_HEADER_MAGIC)
CATALOGUE = {entry.id: entry for entry in bad_files()}


def _globs(*bad_ids: str) -> list[str]:
    return [f"bad/{bad_id}" for bad_id in bad_ids]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    return cut_corpus(tmp_path_factory.mktemp("golden") / "corpus", CASE)


@pytest.fixture(scope="module")
def result(corpus, tmp_path_factory):
    return verify(corpus, READERS, tmp_path_factory.mktemp("work"), case_globs=[CASE, *_globs(*BAD_IDS)])


@pytest.fixture(scope="module")
def rejects(result) -> dict[tuple[str, str], dict]:
    """(reader, bad-file id) -> its reject cell."""
    return {(r["reader"], r["case_id"].removeprefix("bad/")): r for r in result.records
            if r["phase"] == REJECT}


def test_each_selected_bad_file_is_one_reject_cell_per_reader_of_the_corpus_copy(result, rejects, corpus):
    assert set(rejects) == {(reader, bad_id) for reader in READERS for bad_id in BAD_IDS}
    for (reader, bad_id), cell in rejects.items():
        assert cell["cell_id"] == f"reject/{reader}/{bad_id}"  # the run's cell, the same id
        assert cell["writer"] == WRITER
        assert cell["file"] == (corpus.resolve() / BAD_DIR / file_name(CATALOGUE[bad_id])).as_posix()
    golden = [r for r in result.records if r["phase"] == "golden"]
    assert golden and {r["case_id"] for r in golden} == {CASE}
    assert {r["outcome"] for r in golden if r["reader"] == "reference"} == {"pass"}


def test_the_reference_rejects_with_the_documented_class_or_reads_leniently(rejects):
    for bad_id in BAD_IDS:
        entry, cell = CATALOGUE[bad_id], rejects["reference", bad_id]
        assert cell["outcome"] == "pass", cell["detail"]
        if entry.verdict == BAD:
            assert verdict(cell["outcome"], cell["detail"]) == REJECTED
            assert cell["detail"].startswith(f"{REJECTED}: {entry.error_class}: ")
        else:
            assert verdict(cell["outcome"], cell["detail"]) == SINGLE_READING


def test_pyarrow_has_its_measured_verdicts(rejects):
    found = {bad_id: verdict(cell["outcome"], cell["detail"])
             for (reader, bad_id), cell in rejects.items() if reader == "pyarrow"}
    assert found[REFUSED] == REJECTED
    assert found[ACCEPTED_BY_PYARROW] == ACCEPTED and found[ORC_HEADER_MAGIC] == ACCEPTED
    assert found[ZERO_ROWS] in (SINGLE_READING, REJECTED_CLEANLY)
    accepted = rejects["pyarrow", ACCEPTED_BY_PYARROW]
    assert accepted["outcome"] == "mismatch"  # a non-pass, as in a run: the gate sees it
    assert accepted["detail"].startswith(f"{ACCEPTED} a file that must be rejected "
                                         f"({CATALOGUE[ACCEPTED_BY_PYARROW].fault}): returned ")


def test_the_results_dataset_and_report_hold_the_reject_cells(result, rejects, tmp_path):
    summary = write_reports(result.results_dir, tmp_path / "report")
    cells = {(c.reader, c.case_id): c.outcome for c in summary.reject_cells()}
    assert cells == {(reader, f"bad/{bad_id}"): cell["outcome"] for (reader, bad_id), cell in rejects.items()}
    assert summary.roles("pyarrow") == ["reader", "bad-file reader"]
    assert f"bad/{ACCEPTED_BY_PYARROW}" in summary.files["REPORT.md"].read_text()


def test_a_glob_of_cases_only_or_no_bad_files_reads_none(corpus, tmp_path):
    records = verify(corpus, ["reference"], tmp_path, case_globs=[CASE]).records
    assert records and {r["phase"] for r in records} == {"golden"}
    with pytest.raises(ValueError, match="no golden case and no bad file matches"):
        verify(corpus, ["reference"], tmp_path, case_globs=_globs(REFUSED), bad_files=False)


# ---- a tampered bad/index.json is refused before anything is read --------------------

def _tamper_class(index: list[dict]) -> None:
    _entry(index, REFUSED)["error_class"] = "CorruptPage"


def _drop_entry(index: list[dict]) -> None:
    index.remove(_entry(index, REFUSED))


def _add_unknown_entry(index: list[dict]) -> None:
    index.append({**_entry(index, REFUSED), "id": "framing/not-in-the-catalogue"})


def _break_schema(index: list[dict]) -> None:
    _entry(index, REFUSED)["verdict"] = "maybe"


def _entry(index: list[dict], bad_id: str) -> dict:
    return next(item for item in index if item["id"] == bad_id)


@pytest.mark.parametrize(("tamper", "message"), [
    (_tamper_class, f"{REFUSED}: error_class is 'CorruptPage', the catalogue's 'BadMagic'"),
    (_drop_entry, f"{REFUSED}: not listed"),
    (_add_unknown_entry, "framing/not-in-the-catalogue: not in the catalogue"),
    (_break_schema, "verdict: 'maybe' is not one of"),
])
def test_an_index_that_does_not_document_the_catalogue_is_a_corpus_error(tmp_path, tamper, message):
    corpus = cut_corpus(tmp_path / "corpus", CASE)
    path = corpus / BAD_DIR / INDEX
    index = json.loads(path.read_text())
    tamper(index)
    path.write_text(json.dumps(index))
    write_manifest(corpus)
    with pytest.raises(CorpusError, match="does not") as error:
        verify(corpus, READERS, tmp_path / "work", case_globs=_globs(REFUSED))
    assert message in str(error.value)
    assert not (tmp_path / "work").exists()  # nothing was read


def test_a_changed_index_breaks_the_manifest(tmp_path):
    corpus = cut_corpus(tmp_path / "corpus", CASE)
    path = corpus / BAD_DIR / INDEX
    path.write_text(path.read_text().replace("BadMagic", "CorruptPage", 1))
    with pytest.raises(CorpusError, match=f"changed: {BAD_DIR}/{INDEX}"):
        verify(corpus, READERS, tmp_path / "work", case_globs=_globs(REFUSED))


def test_a_bad_file_that_is_not_the_listed_one_is_a_corpus_error(tmp_path):
    """Even when the MANIFEST is rewritten to match, the index's sha256 catches it."""
    corpus = cut_corpus(tmp_path / "corpus", CASE)
    bad = corpus / BAD_DIR
    other = (bad / file_name(CATALOGUE[ACCEPTED_BY_PYARROW])).read_bytes()
    (bad / file_name(CATALOGUE[REFUSED])).write_bytes(other)
    write_manifest(corpus)
    with pytest.raises(CorpusError, match=f"{REFUSED}: sha256 is '[0-9a-f]+', the catalogue's"):
        verify(corpus, READERS, tmp_path / "work", case_globs=_globs(REFUSED))
