"""A test-only engine-protocol adapter over one of the suite's engines, declaring the
capabilities it is given (the examples of docs/engine-protocol.md, in its tests).

    python tests/support/engine_adapter.py ENGINE 'FORMATS_JSON'

ENGINE is a built-in engine (e.g. ``pyarrow``: pyarrow really writes and reads);
FORMATS_JSON the start answer's ``formats``: per format, the capabilities to declare.
A write is the engine's write of the case, a read its read as a canonical document.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from conformance.cases import Case
from conformance.engines import get_engine
from conformance.engines.protocol.adapter_kit import run_adapter
from conformance.engines.protocol.messages import PROTOCOL_VERSION


def operations(engine_name: str, formats: dict) -> dict:
    engines = {fmt: get_engine(engine_name, fmt) for fmt in formats}

    def start(_request: dict) -> dict:
        return {"protocol": PROTOCOL_VERSION, "name": engine_name, "language": "python",
                "version": next(iter(engines.values())).version, "formats": formats}

    def write(request: dict) -> dict:
        case = Case.from_json(request["case"])
        engines[case.format].write(case, Path(request["path"]))
        return {"ok": True}

    def read(request: dict) -> dict:
        return {"document": engines[request["format"]].read(Path(request["file"])).to_document()}

    return {"start": start, "write": write, "read": read}


if __name__ == "__main__":
    run_adapter(operations(sys.argv[1], json.loads(sys.argv[2])))
