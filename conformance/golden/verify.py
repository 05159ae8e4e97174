"""`conformance golden verify`: every golden file, read by the chosen engines, against
its ``expected.json``, and every bad file, against its verdict.

First the corpus itself is checked: the MANIFEST (sha256 and size of every file),
each ``expected.json`` against the suite's ``expected.schema.json`` and
``bad/index.json`` against ``bad-index.schema.json`` (kept in
``conformance/golden/schemas/``; `generate` copies them into the corpus's
``schema/`` for consumers), and each selected bad file's entry of the index against
the catalogue's (``check_bad_files``: the cells judge by the catalogue, so the index
must document what they judge by); a corpus that fails any is not read at all
(``CorpusError``). Then each (golden file, reader) is one cell, run by the matrix's
cell runner (``conformance.matrix.cell_runner``: the same isolation and per-cell time
limit, Spark's cells too, the same outcomes) and logged to the same results dataset,
so `conformance report` renders it. Its writer is ``golden/<writer>``: the file that
writer produced when the corpus was generated, at the version ``expected.json`` records.
Each (bad file, reader) is the ``reject`` cell a run makes (``conformance.golden.
rejection``, writer ``bad-files``), of the corpus's copy of the file.

``case_globs`` select like a run's ``--cases``: golden files by case id, bad files by
``bad/<id>``; without them everything is read, with them a glob naming only catalogue
cases reads no bad file; ``bad_files=False`` (``--no-bad-files``) reads none.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

from conformance.cases import select
from conformance.engines import formats_of
from conformance.matrix.cell_runner import DEFAULT_LIMITS, CellLimits, run_cells
from conformance.matrix.cells import EngineInfo, engine_info, new_run_id
from conformance.matrix.progress import ProgressCallback
from conformance.matrix.results import consolidate, logged, read_cell_logs
from conformance.matrix.retries import Retries, retry_cells

from . import rejection
from .bad_corpus import bad_files as catalogue_bad_files
from .bad_corpus import expected_reading
from .bad_file import ACCEPTABLE, INDEX, BadFile, file_name
from .manifest import ManifestError, check_manifest
from .paths import BAD_DIR, CASES_DIR, EXPECTED, SCHEMAS

PHASE = "golden"
WRITER_PREFIX = "golden/"
EXPECTED_SCHEMA = "expected.schema.json"
BAD_INDEX_SCHEMA = "bad-index.schema.json"


class CorpusError(ValueError):
    """The corpus is not what its MANIFEST, its schemas and the bad-file catalogue say (the
    message says where)."""


@dataclass(frozen=True)
class VerifyResult:
    run_id: str
    run_dir: Path
    results_dir: Path
    records: list[dict]


@cache
def schema_validator(name: str) -> jsonschema.protocols.Validator:
    schema = json.loads((SCHEMAS / name).read_text(encoding="utf-8"))
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    return validator_class(schema)


def check_document(name: str, document: Any, where: Path) -> None:
    """Raise CorpusError listing every place `document` breaks the schema `name`."""
    errors = sorted(schema_validator(name).iter_errors(document), key=lambda e: list(e.path))
    if errors:
        lines = [f"  at /{'/'.join(map(str, e.path))}: {e.message}" for e in errors]
        raise CorpusError(f"{where} does not follow {name}:\n" + "\n".join(lines))


def expected_documents(corpus: Path, wanted: Callable[[str], bool] = lambda _: True
                       ) -> Iterator[tuple[Path, dict]]:
    """(path, document) of every ``expected.json`` whose case id is `wanted`, schema-checked,
    in path order (checking the rows costs about 20 ms a document)."""
    for path in sorted((corpus / CASES_DIR).rglob(EXPECTED)):
        document = json.loads(path.read_text(encoding="utf-8"))
        if wanted(document.get("id", "")):
            check_document(EXPECTED_SCHEMA, document, path)
            yield path, document


def check_corpus(corpus: Path, wanted: Callable[[str], bool] = lambda _: True
                 ) -> list[tuple[Path, dict]]:
    """The MANIFEST, bad/index.json and the expected.json of every `wanted` case id;
    raises CorpusError."""
    if not (corpus / CASES_DIR).is_dir():
        raise CorpusError(f"{corpus} holds no golden corpus (no {CASES_DIR}/ folder); "
                          "make one with `conformance golden generate`")
    try:
        check_manifest(corpus)
    except (ManifestError, OSError) as exc:
        raise CorpusError(str(exc)) from exc
    bad_index(corpus)
    return list(expected_documents(corpus, wanted))


def bad_index(corpus: Path) -> list[dict]:
    """The corpus's ``bad/index.json``, schema-checked; raises CorpusError."""
    path = corpus / BAD_DIR / INDEX
    index = json.loads(path.read_text(encoding="utf-8"))
    check_document(BAD_INDEX_SCHEMA, index, path)
    return index


def check_bad_files(corpus: Path, entries: Sequence[BadFile]) -> None:
    """Every entry of ``bad/index.json`` is the catalogue's, and each of `entries` is listed
    exactly as the catalogue's entry of its file would be (fault, verdict, error class,
    spec, read options, an acceptable file's single reading and the sha256 of the file the
    corpus holds); raises CorpusError naming every difference."""
    listed = {item["id"]: item for item in bad_index(corpus)}
    path = corpus / BAD_DIR / INDEX
    unknown = sorted(set(listed) - {entry.id for entry in catalogue_bad_files()})
    problems = [f"  {id_}: not in the catalogue" for id_ in unknown]
    for entry in entries:
        problems += _index_differences(corpus, entry, listed.get(entry.id))
    if problems:
        raise CorpusError(f"{path} does not document the catalogue's bad files (regenerate it "
                          "with `conformance golden generate`):\n" + "\n".join(problems))


def _index_differences(corpus: Path, entry: BadFile, listed: dict | None) -> list[str]:
    """What the index says of `entry` that the catalogue does not, one line per key."""
    if listed is None:
        return [f"  {entry.id}: not listed"]
    file = corpus / BAD_DIR / file_name(entry)
    if not file.is_file():
        return [f"  {entry.id}: no file {file}"]
    expected = expected_reading(entry) if entry.verdict == ACCEPTABLE else None
    documented = entry.to_json(file.read_bytes(), expected)
    return [f"  {entry.id}: {key} is {listed.get(key)!r}, the catalogue's {documented.get(key)!r}"
            for key in sorted(set(documented) | set(listed)) if listed.get(key) != documented.get(key)]


def plan_golden(run_id: str, documents: Sequence[tuple[Path, dict]],
                readers: Sequence[EngineInfo]) -> list[dict]:
    """One cell per golden file per reader."""
    requests = []
    for expected, doc in documents:
        subject = {"format": doc["format"], "features": doc["features"], "spec": doc["spec"]}
        for entry in doc["files"]:
            writer = WRITER_PREFIX + entry["writer"]
            requests += [{
                "run_id": run_id, "phase": PHASE, "case_id": doc["id"], "subject": subject,
                "engine": reader.spec, "cell_id": f"{PHASE}/{writer}/{reader.name}/{doc['id']}",
                "file": str(expected.parent / entry["path"]), "file_sha256": entry["sha256"],
                "expected": str(expected), "writer": writer, "writer_version": entry["writer_version"],
                "reader": reader.name, "reader_version": reader.version,
            } for reader in readers if reader.format == doc["format"]]
    return requests


def verify(corpus: Path, readers: Sequence[str], workdir: Path,
           limits: CellLimits = DEFAULT_LIMITS,
           on_progress: ProgressCallback | None = None, retries: Retries | None = None,
           case_globs: Sequence[str] = (), bad_files: bool = True) -> VerifyResult:
    """Check the corpus, read every golden file and every bad file `case_globs` select
    (all without them; no bad file without `bad_files`) with every reader; results in
    `workdir`; `on_progress(done, total, outcomes)` (`conformance.matrix.progress`) as cells
    finish; then the cells `retries` wants are tried again (`conformance.matrix.retries`).
    ValueError when nothing is selected."""
    corpus = corpus.resolve()
    documents = check_corpus(corpus, lambda case_id: bool(select([_Named(case_id)], case_globs)))
    entries = rejection.selected_bad_files(case_globs) if bad_files else []
    if not documents and not entries:
        raise ValueError(f"no golden case and no bad file matches --cases {list(case_globs)}")
    if entries:
        check_bad_files(corpus, entries)
    run_id = new_run_id()
    run_dir = (workdir / run_id).resolve()
    infos = [engine_info(spec, fmt) for spec in readers for fmt in formats_of(spec)]
    requests = plan_golden(run_id, documents, infos) + rejection.plan_reject_cells(
        run_id, run_dir, corpus / BAD_DIR, infos, entries)
    in_driver = {i.spec for i in infos if not i.isolated}
    counts: Counter[str] = Counter()
    for record in logged(run_cells(requests, run_dir, limits, in_driver), run_dir, PHASE):
        counts[record["outcome"]] += 1
        if on_progress is not None:
            on_progress(counts.total(), len(requests), counts)
    if retries is not None:
        retry_cells(requests, read_cell_logs(run_dir), run_dir, limits, in_driver, retries)
    return VerifyResult(run_id, run_dir, consolidate(run_dir), read_cell_logs(run_dir))


@dataclass(frozen=True)
class _Named:
    """A golden case id as `conformance.cases.select` sees a case (no feature filter here)."""

    id: str
    features: tuple[str, ...] = ()
