"""The adapter side of the engine protocol (docs/engine-protocol.md), for adapters
written in Python: the request loop, so an adapter is only its operations.

    from conformance.engines.protocol.adapter_kit import run_adapter
    run_adapter({"start": start, "read": read, "write": write})

Each operation takes the request (a dict) and returns the response. `Unsupported`
becomes ``{"unsupported": reason}`` and any other exception ``{"error": {"class",
"message"}}``, and the adapter carries on; ``stop`` is answered here. Only a request
line that is not JSON ends the adapter.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Mapping
from typing import TextIO

from conformance.engines.base import Unsupported

Operations = Mapping[str, Callable[[dict], dict]]
STOP = "stop"


def answer(operations: Operations, request: dict) -> dict:
    """The response to one request: the operation's, or its failure as the protocol says."""
    if request["op"] == STOP:
        return {"ok": True}
    try:
        return operations[request["op"]](request)
    except Unsupported as exc:
        return {"unsupported": str(exc)}
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # noqa: BLE001 - every engine failure is an answer
        # BaseException: PyO3 raises a Rust panic as PanicException, which is no
        # Exception; its class name tells the harness it was a panic (a crash cell).
        return {"error": {"class": type(exc).__name__, "message": str(exc)}}


def serve(operations: Operations, requests: TextIO, responses: TextIO) -> None:
    for line in requests:
        request = json.loads(line)
        responses.write(json.dumps(answer(operations, request)) + "\n")
        responses.flush()
        if request["op"] == STOP:
            return


def run_adapter(operations: Operations) -> None:
    """Serve stdin. Responses go to a private copy of stdout; fd 1 becomes stderr, so
    whatever a library prints lands in the log instead of corrupting a response."""
    responses = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    serve(operations, sys.stdin, responses)
