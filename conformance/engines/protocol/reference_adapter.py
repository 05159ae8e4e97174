"""The reference implementation behind the engine protocol: the example adapter.

    python -m conformance.engines.protocol.reference_adapter

An adapter reads one JSON request per line on stdin and writes one JSON response per
line on stdout (docs/engine-protocol.md); logs go to stderr. This one drives the
suite's own reference engines, so all it does is translate:

* ``start``: who it is, and per format the capabilities (feature-tag patterns);
* ``write``: the case's canonical schema and rows (and options) -> one file;
* ``read``: one file -> the canonical JSON document, opening an encrypted Parquet or
  ORC file with the keys the request carries (never with keys of its own: an encrypted
  ORC file read without keys gives its masked view);
* ``stop``: answer, then exit.

The request loop, and the answer to an engine's failure (``{"error": {"class",
"message"}}``, after which the adapter carries on), are `adapter_kit`'s.
"""

from __future__ import annotations

from pathlib import Path

from conformance.cases import Case
from conformance.engines.base import Engine
from conformance.engines.orc.reference import OrcReferenceEngine
from conformance.engines.parquet.reference import ReferenceEngine
from conformance.formats import DEFAULT_FORMAT, FORMATS, ORC, load
from reference_impl.orc.encryption.encryption_keys import KeyProvider, MasterKey
from reference_impl.parquet.encryption.properties import FileDecryptionProperties

from .adapter_kit import run_adapter
from .keys import ORC_MASTER_KEYS
from .messages import PROTOCOL_VERSION

ENGINES: dict[str, Engine] = {f.name: load(f.reference_engine)() for f in FORMATS.values()}


def start(_request: dict) -> dict:
    return {"protocol": PROTOCOL_VERSION, "name": "columnar-conformance reference",
            "version": ENGINES[DEFAULT_FORMAT].version, "language": "python",
            "formats": {fmt: engine.capabilities.to_json() for fmt, engine in ENGINES.items()}}


def write(request: dict) -> dict:
    case = Case.from_json(request["case"])
    ENGINES[case.format].write(case, Path(request["path"]))
    return {"ok": True}


def read(request: dict) -> dict:
    engine = ENGINES[request["format"]]
    if request["format"] == ORC:
        engine = OrcReferenceEngine(_master_keys(request.get("keys", {})))
    elif "keys" in request:
        engine = ReferenceEngine(_decryption(request["keys"]))
    return {"document": engine.read(Path(request["file"])).to_document()}


def _master_keys(keys: dict) -> KeyProvider:
    """ORC master keys (ORCv1.md, 'Encryption Keys'), hex as the protocol sends them."""
    return KeyProvider.of(*(MasterKey(k["name"], k["version"], bytes.fromhex(k["key"]))
                            for k in keys.get(ORC_MASTER_KEYS, [])))


def _decryption(keys: dict) -> FileDecryptionProperties:
    """Explicit keys (Encryption.md, '4.3 Key metadata'), hex as the protocol sends them."""
    footer_key = keys.get("footer_key")
    prefix = keys.get("aad_prefix")
    return FileDecryptionProperties(
        footer_key=None if footer_key is None else bytes.fromhex(footer_key),
        column_keys={column: bytes.fromhex(key) for column, key in keys.get("column_keys", {}).items()},
        aad_prefix=None if prefix is None else prefix.encode("utf-8"))


OPERATIONS = {"start": start, "write": write, "read": read}


if __name__ == "__main__":
    run_adapter(OPERATIONS)
