"""Engine adapters, looked up by name or by an importable `package.module:Class` spec.

The spec form lets another team plug a Python adapter in without editing this
registry (and lets the tests add a deliberately crashing engine).
"""

from __future__ import annotations

import importlib

from .base import Capabilities, Engine, HarnessError, LossyConversion, Unsupported, converting

# Built-in engines: name -> "module:Class" (imported lazily: each pulls in a big library).
BUILTIN = {
    "reference": "conformance.engines.parquet.reference:ReferenceEngine",
    "pyarrow": "conformance.engines.parquet.pyarrow_engine:PyArrowEngine",
    "fastparquet": "conformance.engines.parquet.fastparquet_engine:FastparquetEngine",
    "duckdb": "conformance.engines.parquet.duckdb_engine:DuckDBEngine",
    "spark": "conformance.engines.parquet.spark_engine:SparkEngine",
}
DEFAULT_ENGINES = tuple(BUILTIN)

_instances: dict[str, Engine] = {}


class UnknownEngine(LookupError):
    pass


def engine_class(spec: str) -> type[Engine]:
    target = BUILTIN.get(spec, spec)
    module_name, sep, class_name = target.partition(":")
    if not sep:
        raise UnknownEngine(f"unknown engine {spec!r}; known: {', '.join(BUILTIN)} "
                            "(or give package.module:Class)")
    return getattr(importlib.import_module(module_name), class_name)


def get_engine(spec: str) -> Engine:
    """The one instance of an engine per process (Spark's session is expensive)."""
    if spec not in _instances:
        _instances[spec] = engine_class(spec)()
    return _instances[spec]


__all__ = ["BUILTIN", "Capabilities", "DEFAULT_ENGINES", "Engine", "HarnessError",
           "LossyConversion", "Unsupported", "UnknownEngine", "converting", "engine_class",
           "get_engine"]
