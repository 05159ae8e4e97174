"""The messages of the engine protocol (docs/engine-protocol.md), built and checked
against their JSON Schemas (``schemas/``, one per message).

A message is one JSON object on one line. `problems` lists every way a message
breaks its schema, each naming the field (a JSON path), what the schema expects and
what came; `check` raises `ProtocolError` with them.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource

from conformance.engines.base import EngineCrashed, EngineHung, HarnessError

PROTOCOL_VERSION = 1
SCHEMAS = Path(__file__).parent / "schemas"
# Every message kind: "<op>.request" and "<op>.response".
OPS = ("start", "read", "write", "stop")
MAX_SHOWN_CHARS = 200  # how much of an offending value a problem quotes


class ProtocolError(HarnessError):
    """An adapter broke the protocol: a message off its schema, a line that is not JSON,
    a process that died or did not answer. The message says what. It is the adapter's
    fault, never the engine's verdict (a bad-file cell does not count it as a
    rejection): a `harness-error` cell."""


class AdapterDied(EngineCrashed):
    """The adapter process ended (or closed its stdout) before answering: the
    implementation crashed (a `crash` cell)."""


class AdapterHung(EngineHung):
    """The adapter gave no answer within its time and was killed (a `timeout` cell)."""


@cache
def _registry() -> Registry:
    resources = [Resource.from_contents(json.loads(p.read_text(encoding="utf-8")))
                 for p in sorted(SCHEMAS.glob("*.json"))]
    return Registry().with_resources((r.id(), r) for r in resources)  # type: ignore[misc]


@cache
def _validator(kind: str) -> Draft202012Validator:
    schema = json.loads((SCHEMAS / f"{kind}.json").read_text(encoding="utf-8"))
    return Draft202012Validator(schema, registry=_registry())


def problems(kind: str, message: object) -> list[str]:
    """Every way `message` breaks the schema of `kind` (e.g. ``read.response``), one line
    each: ``field $.document.rows: expected type array, got {...}``."""
    return [_describe(error) for error in _leaf_errors(_validator(kind).iter_errors(message))]


def check(kind: str, message: object) -> dict:
    """`message`, when it is a valid `kind`; else `ProtocolError` listing its problems."""
    found = problems(kind, message)
    if found:
        raise ProtocolError(f"{kind} breaks its schema (schemas/{kind}.json):\n  "
                            + "\n  ".join(found))
    assert isinstance(message, dict)  # every schema requires an object
    return message


def _leaf_errors(errors) -> list[ValidationError]:
    """The most specific errors: for a `oneOf` no branch matched, those of the branch the
    message came closest to (the one with the fewest errors of its own)."""
    found = []
    for error in errors:
        if error.context:
            branches: dict[int, list[ValidationError]] = {}
            for sub in error.context:
                branches.setdefault(sub.relative_schema_path[0], []).append(sub)
            found += _leaf_errors(min(branches.values(), key=len))
        else:
            found.append(error)
    return found


def _describe(error: ValidationError) -> str:
    shown = json.dumps(error.instance)
    if len(shown) > MAX_SHOWN_CHARS:
        shown = shown[:MAX_SHOWN_CHARS] + "..."
    expected = f"{error.validator} {json.dumps(error.validator_value)}"
    return f"field {error.json_path}: {error.message} (expected {expected}; got {shown})"


def parse_line(kind: str, line: str) -> dict:
    """One line of an adapter's output, as a valid `kind` message."""
    try:
        message = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ProtocolError(f"{kind}: the line is not JSON ({exc}): {line[:MAX_SHOWN_CHARS]!r}") from None
    return check(kind, message)


# ---- the harness's requests -------------------------------------------------------

def start_request() -> dict:
    return check("start.request", {"op": "start", "protocol": PROTOCOL_VERSION})


def read_request(file: Path, fmt: str, keys: dict | None = None) -> dict:
    request = {"op": "read", "file": str(file), "format": fmt}
    return check("read.request", request if keys is None else {**request, "keys": keys})


def write_request(case_document: dict, path: Path, keys: dict | None = None) -> dict:
    request = {"op": "write", "case": case_document, "path": str(path)}
    return check("write.request", request if keys is None else {**request, "keys": keys})


def stop_request() -> dict:
    return check("stop.request", {"op": "stop"})
