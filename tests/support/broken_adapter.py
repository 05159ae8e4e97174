"""A test-only engine-protocol adapter that breaks the protocol on purpose, to prove
`conformance protocol-check` and `ExternalEngine` say what is wrong.

    python tests/support/broken_adapter.py FAULT

It answers like the reference adapter, except for its FAULT:

* ``wrong-shape``: its start answer lacks ``language`` and lists a capability as a number;
* ``dies``: it exits (status 3) on its first read request, saying why on stderr
  (``DYING_WORDS``);
* ``complains``: on a read request it writes `NOISE_BYTES` of log lines and then
  ``LAST_WORDS`` to stderr, and answers with the error ``COMPLAINT``;
* ``hangs``: it never answers a write request, after writing ``HANGING_WORDS`` to stderr;
* ``not-json``: it answers a write request with a line that is not JSON;
* ``bad-document``: its read answers hold a document whose rows lack a column;
* ``refuses-writes``: it answers every write request with ``unsupported``;
* ``lingers``: it answers ``stop`` but does not exit;
* ``accepts-anything``: it answers a read the reference rejects with an empty document
  instead of the error.
"""

from __future__ import annotations

import json
import sys
import time

from conformance.engines.protocol.adapter_kit import answer
from conformance.engines.protocol.reference_adapter import OPERATIONS
from conformance.values import Schema, Table

HANG_S = 3_600
DIES_STATUS = 3
REFUSAL = "this adapter writes nothing"
DYING_WORDS = "fatal: the engine aborted reading this file"
NOISE_BYTES = 10_000  # more log than an error's evidence keeps
LAST_WORDS = "engine.cpp:42: page header checksum mismatch at offset 4"
HANGING_WORDS = "vector.h:417: assertion __n < size() failed: index out of bounds"
COMPLAINT = {"class": "EngineFault", "message": "could not read the file"}


def faulty_answer(fault: str, request: dict) -> str:
    op = request["op"]
    reply = answer(OPERATIONS, request)
    if fault == "wrong-shape" and op == "start":
        del reply["language"]
        reply["formats"]["parquet"]["writes"] = [1]
    elif fault == "dies" and op == "read":
        print(DYING_WORDS, file=sys.stderr, flush=True)
        sys.exit(DIES_STATUS)
    elif fault == "complains" and op == "read":
        print("log: reading\n" * (NOISE_BYTES // len("log: reading\n")) + LAST_WORDS,
              file=sys.stderr, flush=True)
        reply = {"error": COMPLAINT}
    elif fault == "hangs" and op == "write":
        print(HANGING_WORDS, file=sys.stderr, flush=True)
        time.sleep(HANG_S)
    elif fault == "not-json" and op == "write":
        return "written, thanks"
    elif fault == "bad-document" and "document" in reply:
        reply["document"]["rows"] = [row[:-1] for row in reply["document"]["rows"]]
    elif fault == "refuses-writes" and op == "write":
        reply = {"unsupported": REFUSAL}
    elif fault == "accepts-anything" and "error" in reply:
        reply = {"document": Table(Schema(()), ()).to_document()}
    return json.dumps(reply)


def main() -> None:
    fault = sys.argv[1]
    for line in sys.stdin:
        request = json.loads(line)
        print(faulty_answer(fault, request), flush=True)
        if request["op"] == "stop":
            if fault == "lingers":
                time.sleep(HANG_S)
            return


if __name__ == "__main__":
    main()
