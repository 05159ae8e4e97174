"""`conformance golden verify`: every golden file, read by the chosen engines, against
its ``expected.json``.

First the corpus itself is checked: the MANIFEST (sha256 and size of every file)
and each ``expected.json`` against the suite's ``expected.schema.json`` (kept in
``conformance/golden/schemas/``; `generate` copies it into the corpus's
``schema/`` for consumers); a corpus that fails either is not read at all
(``CorpusError``). Then each (golden file, reader) is one cell, run by the matrix's
cell runner (``conformance.matrix.cell_runner``: the same isolation and per-cell time
limit, Spark's cells too, the same outcomes) and logged to the same results dataset,
so `conformance report` renders it. Its writer is ``golden/<writer>``: the file that
writer produced when the corpus was generated, at the version ``expected.json`` records.
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

from conformance.engines import formats_of
from conformance.matrix.cell_runner import DEFAULT_LIMITS, CellLimits, run_cells
from conformance.matrix.cells import EngineInfo, engine_info, new_run_id
from conformance.matrix.progress import ProgressCallback
from conformance.matrix.results import consolidate, logged, read_cell_logs
from conformance.matrix.retries import Retries, retry_cells

from .bad_file import INDEX
from .manifest import ManifestError, check_manifest
from .paths import BAD_DIR, CASES_DIR, EXPECTED, SCHEMAS

PHASE = "golden"
WRITER_PREFIX = "golden/"
EXPECTED_SCHEMA = "expected.schema.json"
BAD_INDEX_SCHEMA = "bad-index.schema.json"


class CorpusError(ValueError):
    """The corpus is not what its MANIFEST and schemas say (the message says where)."""


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
    bad_index = corpus / BAD_DIR / INDEX
    check_document(BAD_INDEX_SCHEMA, json.loads(bad_index.read_text(encoding="utf-8")), bad_index)
    return list(expected_documents(corpus, wanted))


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
           on_progress: ProgressCallback | None = None, retries: Retries | None = None) -> VerifyResult:
    """Check the corpus, read every golden file with every reader; results in `workdir`;
    `on_progress(done, total, outcomes)` (`conformance.matrix.progress`) as cells finish;
    then the cells `retries` wants are tried again (`conformance.matrix.retries`)."""
    documents = check_corpus(corpus.resolve())
    run_id = new_run_id()
    run_dir = (workdir / run_id).resolve()
    infos = [engine_info(spec, fmt) for spec in readers for fmt in formats_of(spec)]
    requests = plan_golden(run_id, documents, infos)
    in_driver = {i.spec for i in infos if not i.isolated}
    counts: Counter[str] = Counter()
    for record in logged(run_cells(requests, run_dir, limits, in_driver), run_dir, PHASE):
        counts[record["outcome"]] += 1
        if on_progress is not None:
            on_progress(counts.total(), len(requests), counts)
    if retries is not None:
        retry_cells(requests, read_cell_logs(run_dir), run_dir, limits, in_driver, retries)
    return VerifyResult(run_id, run_dir, consolidate(run_dir), read_cell_logs(run_dir))
