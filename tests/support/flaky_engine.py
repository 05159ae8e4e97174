"""A test-only engine whose answer flips between identical reads, to prove the expectations
gate reports a flaky cell as ``flaky`` with every outcome seen.

It reads with the reference reader, except on every other read of the same file: the
first, third, ... read of a file raise. The count of reads of each file is kept beside it
(``.<name>.reads``), so it carries across the processes that run the cells (a fresh worker
for each try, under Spark's Python workers too, which see no environment a test sets
late). It writes nothing.
"""

from __future__ import annotations

from pathlib import Path

from conformance.engines import get_engine
from conformance.engines.base import Capabilities, Engine
from conformance.values import Table

COUNT_SUFFIX = ".reads"
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
    state = path.with_name(f".{path.name}{COUNT_SUFFIX}")
    reads = int(state.read_text()) + 1 if state.exists() else 1
    state.write_text(str(reads))
    return reads
