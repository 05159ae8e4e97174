"""`conformance golden generate`: the golden corpus, built from one matrix run.

Modelled on Arrow's frozen "gold" integration files and toml-test's ``valid/``
tree, with Wycheproof's ``result`` field. For every catalogue case the corpus
holds, in ``cases/<case id>/``:

* ``<writer>/<name>.parquet`` (``.orc``): the file each writer able to write the case
  produced, kept when the reference reads the case's values back from it (a file
  it does not is a finding of the run, listed under ``not_in_corpus``). The
  reference's own files come from ``GoldenReferenceEngine``: seeded, so
  regenerating them on the same versions gives the same bytes. The file keeps the
  case's name: encrypted cases that take their AAD prefix from the file name
  (``encryption_options.FILE_NAME``) read only under it.
* ``expected.json`` (``schemas/expected.schema.json``): the case (id, title, spec
  sections, feature tags, write options, predicate), its expected canonical values
  (``canonical_version``, ``schema``, ``rows``: docs/canonical-values.md), the
  ``result`` (valid / acceptable), each file's writer, version, sha256, size and
  validator counts, the keys of an encrypted case, and the ``agreement``: which
  independent implementations (peers of the reference) agree with the expected
  values, or why none can.

``bad/`` gets the must-reject files (``bad_files``), ``schema/`` a copy of the
JSON Schemas, and ``MANIFEST`` the sha256 and size of everything.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from conformance.cases import Case, all_cases
from conformance.cases.encryption_options import EncryptionOptions
from conformance.cases.model import KEYLESS_VIEW_TAG
from conformance.engines import GOLDEN_REFERENCE
from conformance.formats import file_format
from conformance.kms.case_keys import FOOTER_ROLE, column_role, explicit_key
from conformance.kms.in_memory import TEST_MASTER_KEYS
from conformance.matrix.cells import VALIDATOR
from conformance.matrix.progress import ProgressCallback
from conformance.matrix.run import RunConfig, run_matrix, selected_cases

from .bad_corpus import write_bad_files
from .manifest import write_manifest
from .paths import BAD_DIR, CASES_DIR, EXPECTED, SCHEMA_DIR, SCHEMAS

EXPECTED_VERSION = 1
REFERENCE = "reference"
PASS = "pass"
VALID, ACCEPTABLE = "valid", "acceptable"
PEER_READS_REFERENCE = "read the reference file"
REFERENCE_READS_PEER = "wrote a file the reference reads"


@dataclass(frozen=True)
class GenerateSummary:
    run_id: str
    cases: int
    files: Counter  # writer -> files kept
    without_peer: tuple[str, ...]  # case ids no peer agrees on
    corpus_bytes: int


def case_result(case: Case) -> str:
    """Wycheproof's ``result``: ``acceptable`` when the case's metadata is untrue on
    purpose (``lies``): a reader may reject the file, or read its (correct) values and
    prune wrongly with the lie; everything else is ``valid``: it must be read."""
    lies = file_format(case.format).lies and case.options.lies
    return ACCEPTABLE if lies else VALID


def golden_file(case: Case, writer: str) -> str:
    """Where, relative to the case's folder, the file `writer` produced lives."""
    return f"{writer}/{case.id.rsplit('/', 1)[-1]}{file_format(case.format).suffix}"


def generate(corpus: Path, config: RunConfig,
             on_progress: ProgressCallback | None = None) -> GenerateSummary:
    """Run the matrix with the seeded reference writer, then build the corpus from it."""
    if REFERENCE not in config.writers:
        raise ValueError("the reference must be among the writers: its files are the corpus's backbone")
    writers = [GOLDEN_REFERENCE if w == REFERENCE else w for w in config.writers]
    # The bad files are written straight into the corpus (below), not read in this run.
    result = run_matrix(replace(config, writers=writers, bad_files=False), on_progress)
    if result.interrupted:
        raise KeyboardInterrupt
    cases = selected_cases(config)
    return build_corpus(corpus, cases, result.records, result.run_dir, result.run_id)


def build_corpus(corpus: Path, cases: Iterable[Case], records: list[dict], run_dir: Path,
                 run_id: str) -> GenerateSummary:
    """Replace the corpus's folders of ``cases`` (those `--cases` selected, or all) and of the
    cases the catalogue no longer has, and its ``bad/``, with this run's; keep the other
    cases' folders; then write the MANIFEST."""
    cells = _Cells(records)
    cases = list(cases)
    _remove_stale_cases(corpus / CASES_DIR, {case.id for case in cases})
    for stale in (BAD_DIR, SCHEMA_DIR):
        shutil.rmtree(corpus / stale, ignore_errors=True)
    shutil.copytree(SCHEMAS, corpus / SCHEMA_DIR)
    files: Counter = Counter()
    without_peer = []
    for case in cases:
        document = _write_case(corpus / CASES_DIR / case.id, case, cells, run_dir)
        files.update(f["writer"] for f in document["files"])
        if not document["agreement"]["peers"]:
            without_peer.append(case.id)
    write_bad_files(corpus / BAD_DIR)
    write_manifest(corpus)
    size = sum(p.stat().st_size for p in corpus.rglob("*") if p.is_file())
    return GenerateSummary(run_id, len(cases), files, tuple(without_peer), size)


def _remove_stale_cases(folder: Path, regenerated: set[str]) -> None:
    """Remove the case folders this run rewrites, and those of cases the catalogue lost."""
    known = {case.id for case in all_cases()}
    for expected in list(folder.rglob(EXPECTED)) if folder.is_dir() else ():
        case_id = expected.parent.relative_to(folder).as_posix()
        if case_id in regenerated or case_id not in known:
            shutil.rmtree(expected.parent)


class _Cells:
    """The run's write, full-read and validator cells, by case, writer and reader."""

    def __init__(self, records: list[dict]):
        self.writes: dict[tuple[str, str], dict] = {}
        self.reads: dict[tuple[str, str, str], dict] = {}
        for r in records:
            if r["phase"] == "write":
                self.writes[r["case_id"], r["writer"]] = r
            elif r["phase"] == "read":
                self.reads[r["case_id"], r["writer"], r["reader"]] = r

    def written(self, case_id: str) -> list[dict]:
        return [r for (c, _), r in sorted(self.writes.items()) if c == case_id]

    def read(self, case_id: str, writer: str, reader: str) -> dict | None:
        return self.reads.get((case_id, writer, reader))

    def peer_readers(self, case_id: str) -> list[dict]:
        """Full reads of the reference's file by the other engines."""
        return [r for (c, w, reader), r in sorted(self.reads.items())
                if c == case_id and w == REFERENCE and reader != REFERENCE
                and reader != VALIDATOR and ":" not in reader]


def _write_case(folder: Path, case: Case, cells: _Cells, run_dir: Path) -> dict[str, Any]:
    files, not_in_corpus = [], []
    for write in cells.written(case.id):
        writer = write["writer"]
        reference_read = cells.read(case.id, writer, REFERENCE)
        if write["outcome"] == PASS and reference_read and reference_read["outcome"] == PASS:
            files.append(_keep_file(folder, case, write, run_dir, cells.read(case.id, writer, VALIDATOR)))
        else:
            not_in_corpus.append(_why_not(write, reference_read))
    document = {
        "expected_version": EXPECTED_VERSION,
        **case.to_json(),
        "result": case_result(case),
        "files": files,
        "not_in_corpus": not_in_corpus,
        "agreement": _agreement(case, cells),
    }
    if case.predicate is not None:
        document["filtered_rows"] = case.filtered.to_document()["rows"]
    encryption = case.parquet_options.encryption if file_format(case.format).encryption_keys else None
    if encryption is not None:
        document["keys"] = _keys(encryption, case)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / EXPECTED).write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n",
                                   encoding="utf-8")
    return document


def _keep_file(folder: Path, case: Case, write: dict, run_dir: Path, validation: dict | None) -> dict:
    relative = golden_file(case, write["writer"])
    target = folder / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(run_dir / write["file"], target)
    entry = {"path": relative, "writer": write["writer"], "writer_version": write["writer_version"],
             "sha256": write["file_sha256"], "size": target.stat().st_size}
    if validation is not None and validation["findings"] is not None:
        severities = Counter(f["severity"] for f in json.loads(validation["findings"]))
        entry["validator"] = dict(sorted(severities.items()))
    return entry


def _why_not(write: dict, reference_read: dict | None) -> dict:
    """A writer whose file is not golden: it wrote none, or the reference does not read
    the case's values from it."""
    entry = {"writer": write["writer"], "writer_version": write["writer_version"]}
    if write["outcome"] != PASS:
        return {**entry, "outcome": write["outcome"], "reason": _first_line(write["detail"])}
    outcome = reference_read["outcome"] if reference_read else "skipped"
    detail = reference_read["detail"] if reference_read else "the reference did not read it"
    return {**entry, "outcome": f"reference read: {outcome}", "reason": _first_line(detail)}


def _agreement(case: Case, cells: _Cells) -> dict[str, Any]:
    """Who, besides the reference, agrees with the expected values; or why no one can.

    A peer agrees when it reads the reference's file as the expected values, or when
    the reference reads those values from the peer's file. A peer that read the keyless
    view of an encrypted case (KEYLESS_VIEW_TAG: it takes no keys) read other values."""
    peers, evidence = [], []
    for read in cells.peer_readers(case.id):
        if KEYLESS_VIEW_TAG in (read.get("features") or ()):
            evidence.append(f"{read['reader']} reading the reference file: {read['outcome']} "
                            "against the masked view (it takes no keys)")
        elif read["outcome"] == PASS:
            peers.append({"engine": read["reader"], "version": read["reader_version"],
                          "how": PEER_READS_REFERENCE})
        else:
            evidence.append(f"{read['reader']} reading the reference file: {read['outcome']}: "
                            f"{_first_line(read['detail'])}")
    for write in cells.written(case.id):
        if write["writer"] == REFERENCE:
            continue
        reference_read = cells.read(case.id, write["writer"], REFERENCE)
        if reference_read is not None and reference_read["outcome"] == PASS:
            peers.append({"engine": write["writer"], "version": write["writer_version"],
                          "how": REFERENCE_READS_PEER})
        else:
            why = _why_not(write, reference_read)
            evidence.append(f"{write['writer']} writing: {why['outcome']}: {why['reason']}")
    agreement: dict[str, Any] = {"peers": peers}
    if not peers:
        agreement["no_peer_reason"] = "; ".join(evidence) or "no peer engine was run"
    return agreement


def _keys(e: EncryptionOptions, case: Case) -> dict[str, Any]:
    """What a reader needs to open the case's files: the test KMS's master keys, or the
    explicit keys, and the AAD prefix when the file does not store it."""
    if e.key_management == "explicit":
        keys: dict[str, Any] = {
            "footer_key": explicit_key(FOOTER_ROLE, e.key_bits).hex(),
            "column_keys": {c: explicit_key(column_role(c), e.key_bits).hex() for c in e.column_keys}}
    else:
        keys = {"kms_master_keys": {name: key.hex() for name, key in sorted(TEST_MASTER_KEYS.items())}}
    prefix = e.aad_prefix_for(Path(golden_file(case, REFERENCE)))
    if prefix is not None and not e.store_aad_prefix:
        keys["aad_prefix"] = prefix.decode("utf-8")
    return keys


def _first_line(text: str | None) -> str:
    return (text or "").strip().splitlines()[0] if (text or "").strip() else ""
