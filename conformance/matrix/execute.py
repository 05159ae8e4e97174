"""Run one cell in this process: write a case's file, read one and compare (a
catalogue file, or a golden file against its ``expected.json``), or read a bad file
that must be rejected (``conformance.golden.rejection``).

Every exception an engine raises becomes an outcome with its evidence, classified
once for every cell kind (``failures``); nothing an engine does makes this function
raise. (A crash or a hang is caught one level up, by ``cell_runner``.)

A read of a forward-incompatible case (``conformance.cases.model.FORWARD_INCOMPATIBLE``:
a file using an addition a reader that predates it cannot read, e.g. the ALP encoding)
is judged by what such a reader must do, not by whether it implements the addition:
exactly the expected rows -> ``pass`` (it implements it); the engine's own error ->
``unsupported``, detail ``measured: rejected cleanly a file using <addition> ...`` and
the engine's message (a measured error, never a failure); other values -> ``mismatch``
(a finding). A crash or a harness error stays what it is.

A read of an encrypted case by a reader that has no way to take keys (its capabilities'
``reads_keyless``) is judged against the view the specification gives such a reader, the
format's keyless view of the case (ORC: each encrypted column as its mask writes it,
``conformance.cases.orc.masked_view``), not against the true rows; its record carries
``view:keyless`` beside the case's tags (``expected_view``). A reader that takes keys (the
reference) is judged against the true rows.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from pathlib import Path

from conformance.cases.model import KEYLESS_VIEW_TAG, forward_incompatible_additions
from conformance.cases.predicate import Predicate
from conformance.engines import get_engine
from conformance.formats import FileFormat, file_format
from conformance.golden.rejection import reject_cell
from conformance.values import Table, diff_tables

from .cells import request_case, result_record, sha256_of
from .failures import ENGINE, describe_exception, failure_kind, failure_outcome

MAX_DETAIL_CHARS = 4_000  # keep the evidence readable; the file is there for the rest
REJECTED_CLEANLY = "rejected cleanly a file using"


def run_cell(request: dict, workdir: Path) -> dict:
    started = time.perf_counter()
    outcome, detail, extra = _PHASES[request["phase"]](request, workdir)
    return result_record(request, outcome, detail[:MAX_DETAIL_CHARS],
                         time.perf_counter() - started, **extra)


def _write(request: dict, workdir: Path) -> tuple[str, str, dict]:
    case = request_case(request)
    engine = get_engine(request["engine"], case.format)
    gap = engine.capabilities.write_gap(case.write_features)
    if gap:
        return "unsupported", gap, {"file": None}
    path = workdir / request["file"]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    try:
        engine.write(case, path)
    except Exception as exc:  # noqa: BLE001 - any engine failure is an outcome
        return (*failure_outcome(exc), {"file": None})
    if not path.is_file():
        return "error", f"{engine.name} reported success but wrote no file at {path}", {"file": None}
    return "pass", "", {"file_sha256": sha256_of(path)}


def _read(request: dict, workdir: Path) -> tuple[str, str, dict]:
    case = request_case(request)
    if request["file"] is None:
        return ("skipped",
                f"no file to read: writer {request['writer']} {request['writer_outcome']}", {})
    path = workdir / request["file"]
    mode = request.get("mode", "full")
    if mode == "validate":
        return _validate(path, file_format(case.format))
    predicate = case.predicate if mode == "filter" else None
    return read_and_compare(get_engine(request["engine"], case.format), case.features, path,
                            case.expected, predicate, case.options)


def expected_view(engine, features: Iterable[str], expected: Table, options) -> tuple[Table, dict]:
    """The rows `engine` must read of a file of the case `expected` written with `options`,
    and what its cell's record adds: the true rows; for a case the engine reads without keys
    (`Capabilities.reads_without_keys`), the format's keyless view, the record's features
    marked with KEYLESS_VIEW_TAG."""
    features = tuple(features)
    if not engine.capabilities.reads_without_keys(features):
        return expected, {}
    masked = file_format(engine.format).keyless_rows(expected, options)
    return masked, {"features": sorted({*features, KEYLESS_VIEW_TAG})}


def read_and_compare(engine, features, path: Path, expected: Table,
                     predicate: Predicate | None = None, options=None) -> tuple[str, str, dict]:
    """A read cell's outcome: `engine` reads `path` (its filtered read when `predicate` is
    given) and the result is compared with `expected` (with `predicate` applied), or with
    the keyless view of it (`expected_view`) that `options` give."""
    expected, marked = expected_view(engine, features, expected, options)
    return (*_compare_read(engine, features, path, expected, predicate), marked)


def _compare_read(engine, features, path: Path, expected: Table,
                  predicate: Predicate | None) -> tuple[str, str]:
    gap = engine.capabilities.read_gap(features)
    if gap:
        return "unsupported", gap
    try:
        table = engine.read(path) if predicate is None else engine.read_filtered(path, predicate)
    except Exception as exc:  # noqa: BLE001 - any engine failure (LossyConversion too) is an outcome
        return _read_failure(exc, features)
    if predicate is None:
        diff = diff_tables(expected, table)
    else:
        matching = predicate.apply(expected)
        diff = diff_tables(matching, table)
        if diff is not None:
            diff = (f"filtered read WHERE {predicate.describe()}: {len(table.rows)} row(s), "
                    f"expected the {len(matching.rows)} a full scan finds\n{diff}")
    return ("pass", "") if diff is None else ("mismatch", diff)


def _read_failure(exc: Exception, features: Iterable[str]) -> tuple[str, str]:
    """A failed read's (outcome, detail); the engine's own error on a forward-incompatible
    case is the clean rejection a reader that does not know the addition owes."""
    additions = forward_incompatible_additions(features)
    if additions and failure_kind(exc) == ENGINE:
        return "unsupported", (f"measured: {REJECTED_CLEANLY} {' and '.join(additions)}, which "
                               f"it does not implement: {describe_exception(exc)}")
    return failure_outcome(exc)


def _golden(request: dict, workdir: Path) -> tuple[str, str, dict]:
    """A golden cell (``conformance.golden.verify``): the file must be the one the corpus
    lists, then it is read and compared with its ``expected.json``."""
    path = Path(request["file"])
    actual = sha256_of(path)
    if actual != request["file_sha256"]:
        return "error", (f"golden file {path} is not the corpus's: sha256 {actual}, "
                         f"expected.json says {request['file_sha256']}"), {}
    document = json.loads(Path(request["expected"]).read_text(encoding="utf-8"))
    fmt = file_format(document["format"])
    engine = get_engine(request["engine"], fmt.name)
    return read_and_compare(engine, document["features"], path, Table.from_document(document),
                            options=fmt.options_class().from_json(document["options"]))


_PHASES = {"write": _write, "read": _read, "golden": _golden, "reject": reject_cell}


def _validate(path: Path, fmt: FileFormat) -> tuple[str, str, dict]:
    """The validator's cell: mismatch when any metadata item is untrue to the data."""
    try:
        findings = fmt.validate()(path)
    except Exception as exc:  # noqa: BLE001 - an unreadable file is the cell's outcome
        return "error", describe_exception(exc), {}
    untrue = [f for f in findings if f.severity == "untrue"]
    lines = [f"{f.severity}: {f.kind} {f.where}: {f.message}" for f in findings]
    extra = {"findings": json.dumps([f.to_json() for f in findings])}
    return ("mismatch" if untrue else "pass"), "\n".join(lines), extra
