"""Cells of the writer x reader x case matrix, and the one-row-per-cell result record.

A write cell asks one writer to produce one case's file; a read cell asks one
reader to read the file one writer produced and compares it with the case's
expected values. Two kinds of read cell go beside the plain ones (``mode``):

* ``filter``: for a case with a predicate, the reader's filtered read (it may
  prune with statistics, page index, Bloom filters) against the case's rows
  that match; its reader is named ``<reader>:filter``;
* ``validate``: the reference validator (``reference_impl.parquet.validation.validate``)
  checks that the file's statistics, indexes, Bloom filters and CRCs are true
  to its data; its reader is ``validator`` and its ``findings`` column holds
  every finding as JSON, attributed to the writer.

Requests and results are plain JSON-able dicts, because they cross process
boundaries (Spark tasks, isolated worker subprocesses).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pyarrow as pa

from conformance.cases import Case, case_by_id
from conformance.cases.orc.options import ENCRYPTION_TAG
from conformance.engines import formats_of, get_engine
from conformance.formats import DEFAULT_FORMAT, ORC, file_format, validated_formats

OUTCOMES = ("pass", "mismatch", "error", "crash", "timeout", "unsupported", "skipped",
            "harness-error", "flaky")
SHA256_CHUNK = 1 << 20

RESULT_SCHEMA = pa.schema([
    ("run_id", pa.string()),
    ("cell_id", pa.string()),
    ("phase", pa.string()),
    ("case_id", pa.string()),
    ("format", pa.string()),
    ("features", pa.list_(pa.string())),
    ("spec", pa.list_(pa.string())),
    ("writer", pa.string()),
    ("writer_version", pa.string()),
    ("reader", pa.string()),
    ("reader_version", pa.string()),
    ("outcome", pa.string()),
    ("detail", pa.string()),
    ("duration_s", pa.float64()),
    ("file", pa.string()),
    ("file_sha256", pa.string()),
    ("findings", pa.string()),  # validate cells: JSON list of validation findings
])

VALIDATOR = "validator"
FILTER_SUFFIX = ":filter"


@dataclass(frozen=True)
class EngineInfo:
    spec: str  # how to construct it: a built-in name or package.module:Class
    name: str
    version: str
    isolated: bool
    format: str = DEFAULT_FORMAT  # the format of this adapter of the engine
    # It reads ORC's encrypted columns with the suite's keys (it claims ``encryption:column``),
    # so it meets the faults under an encryption variant (BadFile.for_key_holders).
    holds_orc_keys: bool = False


# Per format, the adapters of the engines a run takes that handle it.
EnginesByFormat = dict[str, list[EngineInfo]]


def new_run_id() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ-") + secrets.token_hex(3)


def engine_info(spec: str, fmt: str = DEFAULT_FORMAT) -> EngineInfo:
    engine = get_engine(spec, fmt)
    return EngineInfo(spec=spec, name=engine.name, version=engine.version,
                      isolated=engine.isolated, format=fmt,
                      holds_orc_keys=fmt == ORC and engine.capabilities.read_gap([ENCRYPTION_TAG]) is None
                      and not engine.capabilities.reads_without_keys([ENCRYPTION_TAG]))


def engines_by_format(specs: Sequence[str], formats: Sequence[str]) -> EnginesByFormat:
    """The adapters of `specs` for each of `formats` (an engine without an adapter for a
    format takes no part in its cells)."""
    return {fmt: [engine_info(s, fmt) for s in specs if fmt in formats_of(s)] for fmt in formats}


def sha256_of(path: Path) -> str:
    """The sha256 a result record gives a cell's file (its identity in the results)."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(SHA256_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def file_for(writer: str, case: Case) -> str:
    """Where, relative to the run's work dir, `writer` puts the file of `case`."""
    return f"files/{writer}/{case.id}{file_format(case.format).suffix}"


def subject(case: Case) -> dict:
    """What a cell is about, as its result record reports it. Requests carry it, so a
    cell whose subject is not a catalogue case (a golden or bad file) runs the same way."""
    return {"format": case.format, "features": list(case.features), "spec": list(case.spec)}


def write_cell_id(writer: str, case_id: str) -> str:
    """The id of the cell in which `writer` writes the file of case `case_id`."""
    return f"write/{writer}/{case_id}"


def write_request(run_id: str, case: Case, writer: EngineInfo) -> dict:
    return {"run_id": run_id, "phase": "write", "case_id": case.id, "subject": subject(case),
            "engine": writer.spec,
            "cell_id": write_cell_id(writer.name, case.id), "file": file_for(writer.name, case),
            "writer": writer.name, "writer_version": writer.version}


def read_request(run_id: str, case: Case, write_result: dict, reader: EngineInfo,
                 mode: str = "full") -> dict:
    """A read of the file `write_result` describes; `file` is None when it failed to write."""
    produced = write_result["outcome"] == "pass"
    name = reader.name + (FILTER_SUFFIX if mode == "filter" else "")
    return {"run_id": run_id, "phase": "read", "mode": mode, "case_id": case.id,
            "subject": subject(case), "engine": reader.spec,
            "cell_id": f"read/{write_result['writer']}/{name}/{case.id}",
            "file": write_result["file"] if produced else None,
            "file_sha256": write_result["file_sha256"] if produced else None,
            "writer": write_result["writer"], "writer_version": write_result["writer_version"],
            "reader": name, "reader_version": reader.version,
            "writer_outcome": write_result["outcome"]}


def with_definition(request: dict, case: Case) -> dict:
    """`request` carrying its case's definition, for a case the catalogue does not hold
    (a property-test example), so any process can run it."""
    return {**request, "case": case.to_json()}


def request_case(request: dict) -> Case:
    """The case a cell is about: its carried definition, else the catalogue's."""
    definition = request.get("case")
    return case_by_id(request["case_id"]) if definition is None else Case.from_json(definition)


def validator_info() -> EngineInfo:
    """The validator as a reader: the reference implementation's version."""
    return EngineInfo(spec=VALIDATOR, name=VALIDATOR,
                      version=importlib.metadata.version("columnar-conformance"), isolated=True)


def result_record(request: dict, outcome: str, detail: str, duration_s: float, **extra) -> dict:
    if outcome not in OUTCOMES:
        raise ValueError(f"unknown outcome {outcome!r}")
    record: dict[str, object] = {name: None for name in RESULT_SCHEMA.names}
    record.update({k: request.get(k) for k in (
        "run_id", "cell_id", "phase", "case_id", "writer", "writer_version", "reader",
        "reader_version", "file", "file_sha256")})
    record.update(request["subject"])
    record.update(outcome=outcome, detail=detail, duration_s=round(duration_s, 6))
    record.update(extra)
    return record


def unfinished_record(request: dict, outcome: str, detail: str, duration_s: float) -> dict:
    """The record of a cell that gave no answer of its own (a crash, a timeout): a write
    cell's file, if any, is not the writer's."""
    no_file = {"file": None} if request["phase"] == "write" else {}
    return result_record(request, outcome, detail, duration_s, **no_file)


def plan_writes(run_id: str, cases: Sequence[Case], writers: EnginesByFormat) -> list[dict]:
    """Every writer of each case's format writes the case; a case of an engine's native
    types (conformance.cases.native), that engine alone."""
    return [write_request(run_id, case, w) for case in cases for w in writers.get(case.format, ())
            if case.native_writer in (None, w.name)]


def plan_reads(run_id: str, cases: Sequence[Case], write_results: Sequence[dict],
               readers: EnginesByFormat) -> list[dict]:
    """Every reader's full read of every file (the readers of the case's format), its
    filtered read of every file of a case with a predicate, and the validator's check
    of every file of a format it validates."""
    by_id = {c.id: c for c in cases}
    validator = validator_info()
    requests = []
    for w in write_results:
        case = by_id[w["case_id"]]
        format_readers = readers.get(case.format, [])
        requests += [read_request(run_id, case, w, r) for r in format_readers]
        if case.predicate is not None:
            requests += [read_request(run_id, case, w, r, "filter") for r in format_readers]
        if case.format in validated_formats():
            requests.append(read_request(run_id, case, w, validator, "validate"))
    return requests


def reads_per_write(case: Case, readers: int) -> int:
    """How many read cells `plan_reads` makes of one written file of `case`, with
    `readers` readers of its format."""
    validation = 1 if case.format in validated_formats() else 0
    return readers * (2 if case.predicate is not None else 1) + validation
