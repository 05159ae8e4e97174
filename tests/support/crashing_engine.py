"""A test-only engine that dies on purpose, to prove the harness survives it.

Reading a file whose name contains `int32` kills the process with SIGSEGV (as a
native crash would), `int64` hangs, `boolean` aborts; anything else raises.
It writes nothing.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

from conformance.engines.base import Capabilities, Engine

HANG_S = 3_600


class CrashingEngine(Engine):
    name = "crashing"
    capabilities = Capabilities(writes=(), reads=("*",))

    @property
    def version(self) -> str:
        return "0-test"

    def write(self, case, path: Path) -> None:
        raise AssertionError("never called: the engine declares no write capability")

    def read(self, path: Path):
        if "int32" in path.name:
            os.kill(os.getpid(), signal.SIGSEGV)
        if "int64" in path.name:
            time.sleep(HANG_S)
        if "boolean" in path.name:
            os.abort()
        raise RuntimeError(f"deliberate failure reading {path.name}")
