"""The isolated worker: runs one tool on one mutant per request, in its own process.

Started by ``pool`` through ``conformance.matrix.isolation.IsolatedWorker`` (the
matrix's supervised subprocess: the memory limit is its ``RLIMIT_AS``, the time limit
its answer timeout) as ``python -m conformance.fuzz.worker WORKDIR``, and served by
the matrix worker's loop (``conformance.matrix.worker.serve``). A request is
``{"format", "tool", "path", "keys"}``; the reply is the tool's ``classify.Outcome``.

The tools are those a user runs (``conformance read`` and ``conformance validate``),
called as those commands call them: the reference engine's ``read_with_breaches``
(lenient, with the test keys of the cases, or the explicit keys a bad file is read
with), and ``validate`` with the same keys. ``TOOLS`` is the table: a tool of a format
is one line; ``validate`` is each format's validator entry point (conformance.formats).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from functools import partial
from pathlib import Path

from conformance.engines.orc.reference import OrcReferenceEngine
from conformance.engines.parquet.reference import ReferenceEngine
from conformance.formats import file_format
from conformance.matrix.worker import serve
from conformance.values import Table
from reference_impl.common.findings import UNTRUE
from reference_impl.parquet.encryption.properties import FileDecryptionProperties

from .classify import READ, Outcome, of_exception

READ_TOOL, VALIDATE_TOOL = "read", "validate"


def explicit_keys(keys: dict | None) -> FileDecryptionProperties | None:
    """The keys a bad file's catalogue entry reads it with (hex, as its index.json has them)."""
    if not keys:
        return None
    prefix = keys.get("aad_prefix")
    return FileDecryptionProperties(
        footer_key=bytes.fromhex(keys["footer_key"]) if keys.get("footer_key") else None,
        column_keys={path: bytes.fromhex(key) for path, key in (keys.get("column_keys") or {}).items()},
        aad_prefix=None if prefix is None else prefix.encode("utf-8"))


def rows_digest(table: Table) -> str:
    """The sha256 of the rows' canonical JSON (the schema's names are not compared)."""
    rows = json.dumps(table.to_document()["rows"], ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(rows.encode("utf-8")).hexdigest()


def _read_parquet(path: Path, keys: dict | None) -> Outcome:
    table, _ = ReferenceEngine(explicit_keys(keys)).read_with_breaches(path)
    return Outcome(READ, rows_digest=rows_digest(table))


def _validate(path: Path, keys: dict | None, fmt: str) -> Outcome:
    """The format's reference validator (conformance.formats): its outcome, the count of its
    findings."""
    findings = file_format(fmt).validate()(path, explicit_keys(keys))
    untrue = sum(finding.severity == UNTRUE for finding in findings)
    return Outcome(READ, message=f"{len(findings)} findings, {untrue} {UNTRUE}")


def _read_orc(path: Path, keys: dict | None) -> Outcome:
    table, _ = OrcReferenceEngine().read_with_breaches(path)
    return Outcome(READ, rows_digest=rows_digest(table))


# (format, tool) -> the call: a reading tool's outcome carries its rows' digest, validate's
# the count of its findings.
TOOLS: dict[tuple[str, str], Callable[[Path, dict | None], Outcome]] = {
    ("parquet", READ_TOOL): _read_parquet,
    ("parquet", VALIDATE_TOOL): partial(_validate, fmt="parquet"),
    ("orc", READ_TOOL): _read_orc,
    ("orc", VALIDATE_TOOL): partial(_validate, fmt="orc"),
}


def tools_of(file_format: str) -> list[str]:
    return [tool for (fmt, tool) in TOOLS if fmt == file_format]


def run_tool(request: dict) -> Outcome:
    """One tool on one file, in this process: its outcome, whatever it raised."""
    call = TOOLS[(request["format"], request["tool"])]
    try:
        return call(Path(request["path"]), request.get("keys"))
    except Exception as exc:  # noqa: BLE001 - every exception is classified
        return of_exception(exc, request["format"])


def handle(request: dict, workdir: Path) -> dict:
    if request.get("ping"):
        return {}
    try:
        return run_tool(request).to_json()
    except MemoryError as exc:  # raised while classifying: the outcome is the same
        return of_exception(exc, request["format"]).to_json()


if __name__ == "__main__":
    serve(handle)
