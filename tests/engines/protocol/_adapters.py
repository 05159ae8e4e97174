"""Adapter commands for the protocol tests: the reference adapter, and the broken one."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from conformance.engines.protocol.external import command_spec

PYTHON = shlex.quote(sys.executable)
REFERENCE_ADAPTER = f"{PYTHON} -m conformance.engines.protocol.reference_adapter"
BROKEN_ADAPTER_SCRIPT = Path(__file__).parents[2] / "support" / "broken_adapter.py"
REFERENCE_SPEC = command_spec("ref-ext", REFERENCE_ADAPTER)


def broken_adapter(fault: str) -> str:
    return f"{PYTHON} {shlex.quote(str(BROKEN_ADAPTER_SCRIPT))} {fault}"
