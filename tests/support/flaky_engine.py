"""A test-only engine whose answer flips between identical reads, to prove the expectations
gate reports a flaky cell as ``flaky`` with every outcome seen.

It reads with the reference reader, except on every other read of the same file: the
first, third, ... read of a file raise. The count of reads of each file is kept in the
folder the ``FLAKY_ENGINE_STATE`` environment variable names, so it carries across the
isolated worker processes that run the cells (a fresh one for each try). It writes nothing.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from conformance.engines import get_engine
from conformance.engines.base import Capabilities, Engine
from conformance.values import Table

STATE_VARIABLE = "FLAKY_ENGINE_STATE"
FAILS_EVERY = 2  # reads 1, 3, 5, ... of a file fail; 2, 4, ... pass


class FlakyEngine(Engine):
    name = "flaky"
    capabilities = Capabilities(writes=(), reads=("*",))
    version = "0-test"

    def write(self, case, path: Path) -> None:
        raise AssertionError("never called: the engine declares no write capability")

    def read(self, path: Path) -> Table:
        reads = _count_read(path)
        if reads % FAILS_EVERY == 1:
            raise RuntimeError(f"deliberate failure on read {reads} of {path.name}")
        return get_engine("reference").read(path)


def _count_read(path: Path) -> int:
    """How many times `path` has been read, this read included."""
    state = Path(os.environ[STATE_VARIABLE]) / hashlib.sha256(str(path).encode()).hexdigest()
    reads = int(state.read_text()) + 1 if state.exists() else 1
    state.write_text(str(reads))
    return reads
