"""The isolated worker: runs cells sent as JSON lines, one reply line per cell.

Started by `isolation.IsolatedWorker` as `python -m conformance.matrix.worker
WORKDIR [ADAPTER_LIMIT_S]`: with ADAPTER_LIMIT_S, an engine adapter that has not answered
that long after its cell began is killed here (`external.answer_by`), not the whole worker.
Once its imports are done it says so with one `READY` line, so a
cell's time limit counts the cell's work, not the worker's start-up. The
protocol channel is a private copy of stdout; the real fd 1 is pointed at
stderr, so whatever an engine prints cannot corrupt a reply.
`serve` is that loop for any handler (the fuzzer's worker, `conformance.fuzz.worker`,
answers its own requests with it).
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

from conformance.engines.protocol.external import answer_by

from .execute import run_cell

READY = {"ready": True}  # the first line a worker writes, before any request
ADAPTER_LIMIT_ARG = 2  # sys.argv's index of the optional ADAPTER_LIMIT_S


def serve(handle: Callable[[dict, Path], dict]) -> None:
    """Answer each JSON request line on stdin with ``handle(request, WORKDIR)``'s JSON line."""
    workdir = Path(sys.argv[1])
    replies = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    replies.write(json.dumps(READY) + "\n")
    replies.flush()
    for line in sys.stdin:
        reply = handle(json.loads(line), workdir)
        replies.write(json.dumps(reply) + "\n")
        replies.flush()


def main() -> None:
    if len(sys.argv) <= ADAPTER_LIMIT_ARG:
        serve(run_cell)
        return
    adapter_limit_s = float(sys.argv[ADAPTER_LIMIT_ARG])

    def run_by_deadline(request: dict, workdir: Path) -> dict:
        answer_by(time.monotonic() + adapter_limit_s, adapter_limit_s)
        return run_cell(request, workdir)

    serve(run_by_deadline)


if __name__ == "__main__":
    main()
