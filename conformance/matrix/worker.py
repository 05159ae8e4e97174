"""The isolated worker: runs cells sent as JSON lines, one reply line per cell.

Started by `isolation.IsolatedWorker` as `python -m conformance.matrix.worker
WORKDIR`. The protocol channel is a private copy of stdout; the real fd 1 is
pointed at stderr, so whatever an engine prints cannot corrupt a reply.
`serve` is that loop for any handler (the fuzzer's worker, `conformance.fuzz.worker`,
answers its own requests with it).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

from .execute import run_cell


def serve(handle: Callable[[dict, Path], dict]) -> None:
    """Answer each JSON request line on stdin with ``handle(request, WORKDIR)``'s JSON line."""
    workdir = Path(sys.argv[1])
    replies = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    for line in sys.stdin:
        reply = handle(json.loads(line), workdir)
        replies.write(json.dumps(reply) + "\n")
        replies.flush()


def main() -> None:
    serve(run_cell)


if __name__ == "__main__":
    main()
