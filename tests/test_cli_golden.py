"""`conformance golden generate` and `verify` as a user runs them (subprocess, exit codes)."""

from __future__ import annotations

import json

import pytest

from conformance.golden.manifest import write_manifest
from conformance.golden.paths import CASES_DIR, EXPECTED
from tests.support.corpus import cut_corpus
from tests.test_cli import conformance

CASES = ("physical/int32-optional", "encryption/kms-aes-gcm-v1-encrypted-footer-uniform")


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """A two-case corpus written by the reference and pyarrow (one matrix run on Spark)."""
    root = tmp_path_factory.mktemp("golden")
    corpus = root / "corpus"
    args = ["golden", "generate", "--corpus", str(corpus), "--workdir", str(root / "work"),
            "--engines", "reference,pyarrow", "--no-progress"]
    for case_id in CASES:
        args += ["--cases", case_id]
    done = conformance(*args)
    assert done.returncode == 0, done.stderr
    return root, corpus, done.stdout


@pytest.mark.spark
def test_generate_writes_both_writers_files_and_their_agreement(generated):
    _, corpus, stdout = generated
    assert "2 cases, files: pyarrow 2, reference 2" in stdout
    for case_id in CASES:
        document = json.loads((corpus / CASES_DIR / case_id / EXPECTED).read_text())
        assert {f["writer"] for f in document["files"]} == {"reference", "pyarrow"}
        assert {(p["engine"], p["how"]) for p in document["agreement"]["peers"]} == {
            ("pyarrow", "read the reference file"), ("pyarrow", "wrote a file the reference reads")}
    encrypted = json.loads((corpus / CASES_DIR / CASES[1] / EXPECTED).read_text())
    assert set(encrypted["keys"]["kms_master_keys"]) == {"footer_key", "column_key_1", "column_key_2"}


@pytest.mark.spark
def test_verify_reads_every_file_with_each_engine_and_writes_the_report(generated):
    root, corpus, _ = generated
    report = root / "report"
    done = conformance("golden", "verify", "--corpus", str(corpus), "--workdir", str(root / "work"),
                       "--engine", "reference,pyarrow", "--report", str(report), "--no-bad-files")
    assert done.returncode == 0, done.stderr
    assert "8 cells" in done.stdout and "8 pass" in done.stdout
    markdown = (report / "REPORT.md").read_text()
    assert "| **golden/pyarrow** |" in markdown and "| **golden/reference** |" in markdown


@pytest.mark.spark
def test_verify_refuses_a_damaged_corpus_with_exit_2(generated, tmp_path):
    root, corpus, _ = generated
    (corpus / CASES_DIR / "stray.txt").write_text("not listed")
    try:
        done = conformance("golden", "verify", "--corpus", str(corpus), "--workdir", str(tmp_path),
                           "--engine", "reference")
    finally:
        (corpus / CASES_DIR / "stray.txt").unlink()
    assert done.returncode == 2
    assert "not in MANIFEST: cases/stray.txt" in done.stderr


@pytest.mark.spark
def test_verify_exits_1_when_the_reference_fails_a_golden_file(generated, tmp_path):
    root, corpus, _ = generated
    expected = corpus / CASES_DIR / CASES[0] / EXPECTED
    original = expected.read_text()
    document = json.loads(original)
    document["rows"][0] = [12345]
    expected.write_text(json.dumps(document))
    write_manifest(corpus)
    try:
        done = conformance("golden", "verify", "--corpus", str(corpus), "--workdir", str(tmp_path),
                           "--engine", "reference", "--report", str(tmp_path / "report"))
    finally:
        expected.write_text(original)
        write_manifest(corpus)
    assert done.returncode == 1
    assert "reference: mismatch" in done.stderr


@pytest.mark.spark
def test_run_with_golden_reads_the_selected_cases_golden_files_too(generated, tmp_path):
    _, corpus, _ = generated
    report = tmp_path / "report"
    done = conformance("run", "--cases", CASES[0], "--engines", "reference", "--golden", str(corpus),
                       "--no-bad-files", "--no-progress", "--workdir", str(tmp_path / "work"),
                       "--report", str(report))
    assert done.returncode == 0, done.stderr
    cells = json.loads((report / "results.json").read_text())["cells"]
    golden = sorted((c["writer"], c["reader"], c["outcome"]) for c in cells if c["phase"] == "golden")
    assert golden == [("golden/pyarrow", "reference", "pass"), ("golden/reference", "reference", "pass")]


# Measured (pyarrow 26.0.1): pyarrow reads this bad file (its leading magic is 'PAR0'; only
# the trailing one is checked), as tests/golden/test_harness_errors.py pins.
ACCEPTED_BY_PYARROW = "bad/framing/bad-leading-magic"


def test_verify_reads_the_selected_bad_files_and_gates_an_accepted_one(tmp_path):
    corpus = cut_corpus(tmp_path / "corpus", CASES[0])
    verify = ("golden", "verify", "--corpus", str(corpus), "--workdir", str(tmp_path / "work"),
              "--engines", "reference,pyarrow", "--cases", ACCEPTED_BY_PYARROW, "--no-progress")
    done = conformance(*verify, "--report", str(tmp_path / "report"))
    assert done.returncode == 0, done.stderr  # a peer's finding fails nothing by default
    assert "2 cells" in done.stdout and "1 pass, 1 mismatch" in done.stdout
    cells = json.loads((tmp_path / "report" / "results.json").read_text())["cells"]
    assert sorted((c["phase"], c["reader"], c["outcome"]) for c in cells) == [
        ("reject", "pyarrow", "mismatch"), ("reject", "reference", "pass")]
    gated = conformance(*verify, "--report", str(tmp_path / "gated"), "--fail-on", "mismatch")
    assert gated.returncode == 1, gated.stderr


def test_by_default_a_native_case_is_written_by_its_own_engine_with_the_built_in_ones():
    from conformance.cli import _golden_writers
    from conformance.engines import BUILTIN_ENGINES

    assert _golden_writers(["native/polars/categorical"]) == [*BUILTIN_ENGINES, "polars"]
    assert _golden_writers(["physical/*"]) == list(BUILTIN_ENGINES)
    # ORC Java direct writes the ORC cases Spark's DataFrame writer cannot.
    assert _golden_writers(["orc/types/*"]) == [*BUILTIN_ENGINES, "orc-java"]
