"""The committed golden corpus (golden_files/): complete, reproducible, read by the reference.

These run on every commit: the corpus's MANIFEST and schemas hold, the reference
reads every golden file (of every writer) as its expected.json says, and the
reference's files and the bad files regenerate byte for byte.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from conformance.cases import all_cases, case_by_id
from conformance.engines import GOLDEN_REFERENCE, get_engine
from conformance.engines.parquet.reference import GoldenReferenceEngine
from conformance.golden.bad_corpus import write_bad_files
from conformance.golden.bad_file import INDEX
from conformance.golden.corpus import REFERENCE, golden_file
from conformance.golden.manifest import ManifestError, check_manifest, write_manifest
from conformance.golden.paths import BAD_DIR, CASES_DIR, EXPECTED, SCHEMA_DIR, SCHEMAS, default_corpus
from conformance.golden.verify import CorpusError, check_corpus, verify

CORPUS = default_corpus()
MAX_CORPUS_BYTES = 50_000_000  # the issue: "well under 50 MB"


@pytest.fixture(scope="module")
def documents() -> dict[str, dict]:
    return {doc["id"]: doc for _, doc in check_corpus(CORPUS)}


def test_the_corpus_follows_its_manifest_and_schemas(documents):
    assert documents  # check_corpus raised on any MANIFEST or schema difference


def test_every_catalogue_case_is_in_the_corpus_with_a_reference_file(documents):
    """A new or changed case needs `conformance golden generate` (a ratchet); a native
    case is written by its engine, not by the reference."""
    missing = sorted(c.id for c in all_cases() if c.id not in documents)
    assert not missing, f"not in the corpus (run `conformance golden generate`): {missing}"
    for case in all_cases():
        writers = {f["writer"] for f in documents[case.id]["files"]}
        if case.native_writer is None:
            assert REFERENCE in writers, case.id
            continue
        # An engine's native types (conformance.cases.native): its file alone, or why the
        # reference does not read it (the writer's finding).
        left_out = {entry["writer"] for entry in documents[case.id].get("not_in_corpus", ())}
        assert writers | left_out == {case.native_writer}, case.id


def test_expected_values_are_the_catalogue_cases_values(documents):
    for case in all_cases():
        document = documents[case.id]
        assert {k: document[k] for k in case.to_json()} == case.to_json(), case.id


def test_every_feature_tag_is_in_the_corpus(documents):
    catalogue = {tag for case in all_cases() for tag in case.features}
    corpus = {tag for doc in documents.values() for tag in doc["features"]}
    assert catalogue <= corpus


def test_the_corpus_is_small():
    size = sum(p.stat().st_size for p in CORPUS.rglob("*") if p.is_file())
    assert size < MAX_CORPUS_BYTES


def test_most_cases_have_a_peer_that_agrees(documents):
    """Two independent implementations agree on the expected values, or expected.json says
    why not (the schema requires the reason); no peer is the exception."""
    without = [doc["id"] for doc in documents.values() if not doc["agreement"]["peers"]]
    assert len(without) < len(documents) // 4, without


def test_the_reference_reads_every_golden_file(tmp_path):
    result = verify(CORPUS, ["reference"], tmp_path)
    assert result.records
    failures = [(r["file"], r["detail"]) for r in result.records if r["outcome"] != "pass"]
    assert not failures


def test_the_reference_files_regenerate_byte_for_byte(tmp_path, documents):
    for case_id in documents:
        case = case_by_id(case_id)
        if case.native_writer is not None:  # no reference file: its engine alone writes it
            continue
        engine = get_engine(GOLDEN_REFERENCE, case.format)
        relative = golden_file(case, REFERENCE)
        target = tmp_path / case_id / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        engine.write(case, target)
        committed = CORPUS / CASES_DIR / case_id / relative
        assert target.read_bytes() == committed.read_bytes(), case_id


def test_the_bad_files_regenerate_byte_for_byte(tmp_path):
    write_bad_files(tmp_path)
    committed = CORPUS / BAD_DIR
    names = sorted(p.relative_to(committed).as_posix() for p in committed.rglob("*") if p.is_file())
    assert names == sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file())
    for name in names:
        assert (tmp_path / name).read_bytes() == (committed / name).read_bytes(), name
    assert (committed / INDEX).is_file()


def test_the_corpus_schemas_are_the_suites():
    for schema in SCHEMAS.glob("*.json"):
        assert (CORPUS / SCHEMA_DIR / schema.name).read_bytes() == schema.read_bytes()


# ---- a damaged copy of the corpus is refused, and says where ----------------------


@pytest.fixture
def small_corpus(tmp_path) -> Path:
    """A copy of the corpus with two cases, its MANIFEST rewritten."""
    copy = tmp_path / "corpus"
    for part in (BAD_DIR, SCHEMA_DIR):
        shutil.copytree(CORPUS / part, copy / part)
    for case_id in ("physical/int32-required", "encryption/aad-prefix-supplied"):
        shutil.copytree(CORPUS / CASES_DIR / case_id, copy / CASES_DIR / case_id)
    write_manifest(copy)
    return copy


def test_a_changed_file_breaks_the_manifest(small_corpus):
    path = small_corpus / CASES_DIR / "physical/int32-required" / golden_file(
        case_by_id("physical/int32-required"), REFERENCE)
    path.write_bytes(path.read_bytes()[:-1] + b"!")
    with pytest.raises(ManifestError, match="changed: cases/physical/int32-required/reference/"):
        check_manifest(small_corpus)
    with pytest.raises(CorpusError, match="changed"):
        check_corpus(small_corpus)


def test_an_unlisted_file_breaks_the_manifest(small_corpus):
    (small_corpus / CASES_DIR / "stray.parquet").write_bytes(b"PAR1")
    with pytest.raises(ManifestError, match="not in MANIFEST: cases/stray.parquet"):
        check_manifest(small_corpus)


def test_an_expected_json_against_its_schema_is_refused_with_the_place(small_corpus):
    path = small_corpus / CASES_DIR / "physical/int32-required" / EXPECTED
    document = json.loads(path.read_text())
    document["result"] = "maybe"
    del document["agreement"]["peers"]
    path.write_text(json.dumps(document))
    write_manifest(small_corpus)
    with pytest.raises(CorpusError) as error:
        check_corpus(small_corpus)
    assert "at /result: 'maybe' is not one of" in str(error.value)
    assert "at /agreement: 'peers' is a required property" in str(error.value)


def test_a_golden_file_that_is_not_the_listed_one_is_an_error_cell(small_corpus, tmp_path):
    """Even when the MANIFEST is rewritten to match, expected.json's sha256 catches it."""
    case = case_by_id("physical/int32-required")
    path = small_corpus / CASES_DIR / case.id / golden_file(case, REFERENCE)
    GoldenReferenceEngine().write(case_by_id("physical/int64-required"), path)
    write_manifest(small_corpus)
    records = verify(small_corpus, ["reference"], tmp_path, case_globs=[case.id]).records
    [cell] = [r for r in records if r["case_id"] == case.id and r["writer"] == "golden/reference"]
    assert cell["outcome"] == "error"
    assert "is not the corpus's" in cell["detail"]


def test_an_encrypted_golden_file_reads_only_under_its_own_name(small_corpus, tmp_path):
    """aad-prefix-supplied takes its AAD prefix from the file name: keep the name."""
    case = case_by_id("encryption/aad-prefix-supplied")
    folder = small_corpus / CASES_DIR / case.id
    original = folder / golden_file(case, REFERENCE)
    original.rename(original.with_name("renamed.parquet"))
    document = json.loads((folder / EXPECTED).read_text())
    for entry in document["files"]:
        entry["path"] = entry["path"].replace(original.name, "renamed.parquet")
    (folder / EXPECTED).write_text(json.dumps(document))
    write_manifest(small_corpus)
    records = verify(small_corpus, ["reference"], tmp_path, case_globs=[case.id]).records
    [cell] = [r for r in records if r["case_id"] == case.id and r["writer"] == "golden/reference"]
    assert cell["outcome"] == "error"
    assert "DecryptionFailed" in cell["detail"]
