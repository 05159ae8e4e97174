"""Run one cell in this process: write a case's file, or read one and compare.

Every exception an engine raises becomes an outcome with its evidence; nothing
an engine does makes this function raise. (A crash or a hang is caught one level
up, by the isolated worker that runs this code.)
"""

from __future__ import annotations

import hashlib
import json
import time
import traceback
from pathlib import Path

from conformance.cases.predicate import Predicate
from conformance.engines import Unsupported, get_engine
from conformance.engines.reference import decryption_properties
from conformance.values import Table, diff_tables
from reference_impl.parquet.validation.validate import validate

from .cells import request_case, result_record

SHA256_CHUNK = 1 << 20
MEASURED = "measured: "
MAX_DETAIL_CHARS = 4_000  # keep the evidence readable; the file is there for the rest


def run_cell(request: dict, workdir: Path) -> dict:
    started = time.perf_counter()
    outcome, detail, extra = _PHASES[request["phase"]](request, workdir)
    return result_record(request, outcome, detail[:MAX_DETAIL_CHARS],
                         time.perf_counter() - started, **extra)


def _write(request: dict, workdir: Path) -> tuple[str, str, dict]:
    case = request_case(request)
    engine = get_engine(request["engine"])
    gap = engine.capabilities.write_gap(case.write_features)
    if gap:
        return "unsupported", gap, {"file": None}
    path = workdir / request["file"]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    try:
        engine.write(case, path)
    except Unsupported as exc:
        return "unsupported", _measured(exc), {"file": None}
    except Exception as exc:  # noqa: BLE001 - any engine failure is an outcome
        return "error", describe_exception(exc), {"file": None}
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
        return _validate(path)
    predicate = case.predicate if mode == "filter" else None
    return read_and_compare(get_engine(request["engine"]), case.features, path, case.expected, predicate)


def read_and_compare(engine, features, path: Path, expected: Table,
                     predicate: Predicate | None = None) -> tuple[str, str, dict]:
    """A read cell's outcome: `engine` reads `path` (its filtered read when `predicate` is
    given) and the result is compared with `expected` (with `predicate` applied)."""
    gap = engine.capabilities.read_gap(features)
    if gap:
        return "unsupported", gap, {}
    try:
        table = engine.read(path) if predicate is None else engine.read_filtered(path, predicate)
    except Unsupported as exc:
        return "unsupported", _measured(exc), {}
    except Exception as exc:  # noqa: BLE001 - any engine failure (LossyConversion too) is an outcome
        return "error", describe_exception(exc), {}
    if predicate is None:
        diff = diff_tables(expected, table)
    else:
        matching = predicate.apply(expected)
        diff = diff_tables(matching, table)
        if diff is not None:
            diff = (f"filtered read WHERE {predicate.describe()}: {len(table.rows)} row(s), "
                    f"expected the {len(matching.rows)} a full scan finds\n{diff}")
    return ("pass", "", {}) if diff is None else ("mismatch", diff, {})


def _golden(request: dict, workdir: Path) -> tuple[str, str, dict]:
    # Imported here: conformance.golden builds on this module.
    from conformance.golden.verify import read_golden_cell

    return read_golden_cell(request)


def _reject(request: dict, workdir: Path) -> tuple[str, str, dict]:
    from conformance.golden.rejection import reject_cell

    return reject_cell(request, workdir)


_PHASES = {"write": _write, "read": _read, "golden": _golden, "reject": _reject}


def _validate(path: Path) -> tuple[str, str, dict]:
    """The validator's cell: mismatch when any metadata item is untrue to the data."""
    try:
        findings = validate(path, decryption=decryption_properties(path))
    except Exception as exc:  # noqa: BLE001 - an unreadable file is the cell's outcome
        return "error", describe_exception(exc), {}
    untrue = [f for f in findings if f.severity == "untrue"]
    lines = [f"{f.severity}: {f.kind} column {f.column} row group {f.row_group}"
             + ("" if f.page is None else f" page {f.page}") + f": {f.message}" for f in findings]
    extra = {"findings": json.dumps([f.to_json() for f in findings])}
    return ("mismatch" if untrue else "pass"), "\n".join(lines), extra


def _measured(exc: Unsupported) -> str:
    """An engine's Unsupported raised at run time: measured, and said so once."""
    text = str(exc)
    return text if text.startswith(MEASURED) else MEASURED + text


def describe_exception(exc: BaseException) -> str:
    """`Class: message`, then the innermost frames, so the evidence shows where it came from."""
    frames = traceback.extract_tb(exc.__traceback__)[-3:]
    where = "".join(traceback.format_list(frames))
    return f"{type(exc).__name__}: {exc}\n{where}".rstrip()


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(SHA256_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()
