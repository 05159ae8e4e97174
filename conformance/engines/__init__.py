"""Engine adapters, looked up by name and format, by an importable
`package.module:Class` spec, or by an external command `cmd:NAME=COMMAND`.

An engine name stands for one adapter per format it handles (``pyarrow`` is
``pyarrow.parquet`` for Parquet and ``pyarrow.orc`` for ORC); the matrix pairs
writers and readers per format. The spec form lets another team plug a Python
adapter in without editing this registry (and lets the tests add a deliberately
crashing engine); such an adapter handles the one format its class declares. The
command form runs an implementation in any language behind the engine protocol
(`conformance.engines.protocol.external`, docs/engine-protocol.md); its formats are
those its adapter's `start` answer declares. The adapters this project ships for
third-party implementations (`bundled`: hyparquet, parquet-java, polars, ...) are
such engines known by a plain name; they take part in a run by default when they can
be prepared on this machine (`available_engines`).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable

from conformance.formats import DEFAULT_FORMAT, FORMATS

from .base import COMMAND_PREFIX, Capabilities, Engine, HarnessError, LossyConversion, Unsupported, converting
from .bundled import BUNDLED, AdapterUnavailable, adapter_command

# Built-in engines: name -> format -> "module:Class" (imported lazily: each pulls in a big library).
# The reference's adapters and its golden writers are facts of each format (conformance.formats).
BUILTIN: dict[str, dict[str, str]] = {
    "reference": {f.name: f.reference_engine for f in FORMATS.values()},
    "pyarrow": {"parquet": "conformance.engines.parquet.pyarrow_engine:PyArrowEngine",
                "orc": "conformance.engines.orc.pyarrow_orc:PyArrowOrcEngine"},
    "fastparquet": {"parquet": "conformance.engines.parquet.fastparquet_engine:FastparquetEngine"},
    "duckdb": {"parquet": "conformance.engines.parquet.duckdb_engine:DuckDBEngine"},
    "spark": {"parquet": "conformance.engines.parquet.spark_engine:SparkEngine",
              "orc": "conformance.engines.orc.spark_orc:SparkOrcEngine"},
    "pyorc": {"orc": "conformance.engines.orc.pyorc_engine:PyorcEngine"},
}
BUILTIN_ENGINES = tuple(BUILTIN)
# A run's engines when none are named: the built-in ones and every bundled adapter.
DEFAULT_ENGINES = (*BUILTIN_ENGINES, *BUNDLED)
# The reference writer of the golden corpus (seeded randomness: the corpus regenerates
# byte for byte); not a default engine.
GOLDEN_REFERENCE = "golden-reference"
BUILTIN[GOLDEN_REFERENCE] = {f.name: f.golden_engine for f in FORMATS.values()}

_instances: dict[tuple[str, str], Engine] = {}


class UnknownEngine(LookupError):
    pass


def formats_of(spec: str) -> tuple[str, ...]:
    """The formats engine `spec` has an adapter for."""
    if spec in BUILTIN:
        return tuple(BUILTIN[spec])
    if spec in BUNDLED:
        return BUNDLED[spec].formats
    if spec.startswith(COMMAND_PREFIX):
        from .protocol.external import formats_of_command

        return formats_of_command(spec)
    return (_imported(spec).format,)


def engine_class(spec: str, fmt: str = DEFAULT_FORMAT) -> type[Engine]:
    if spec in BUILTIN:
        target = BUILTIN[spec].get(fmt)
        if target is None:
            raise UnknownEngine(f"engine {spec!r} has no {fmt} adapter; it handles "
                                f"{', '.join(BUILTIN[spec])}")
        return _imported(target)
    cls = _imported(spec)
    if cls.format != fmt:
        raise UnknownEngine(f"adapter {spec!r} handles {cls.format}, not {fmt}")
    return cls


def _external(spec: str, fmt: str) -> Engine:
    from .protocol.external import ExternalEngine, command_spec  # its adapter process starts here

    if spec in BUNDLED:
        spec = command_spec(spec, adapter_command(spec))
    try:
        return ExternalEngine(spec, fmt)
    except ValueError as exc:  # not cmd:NAME=COMMAND
        raise UnknownEngine(str(exc)) from None
    except LookupError as exc:  # a format the adapter does not declare
        raise UnknownEngine(f"engine {spec!r}: {exc}") from None


def _imported(target: str) -> type[Engine]:
    module_name, sep, class_name = target.partition(":")
    if not sep:
        raise UnknownEngine(f"unknown engine {target!r}; known: {', '.join(DEFAULT_ENGINES)} "
                            "(or give package.module:Class)")
    return getattr(importlib.import_module(module_name), class_name)


def get_engine(spec: str, fmt: str = DEFAULT_FORMAT) -> Engine:
    """The one instance of an engine's adapter for `fmt` per process (Spark's session is
    expensive)."""
    if (spec, fmt) not in _instances:
        if spec.startswith(COMMAND_PREFIX) or spec in BUNDLED:
            _instances[spec, fmt] = _external(spec, fmt)
        else:
            _instances[spec, fmt] = engine_class(spec, fmt)()
    return _instances[spec, fmt]


def available_engines(specs: Iterable[str]) -> tuple[list[str], dict[str, str]]:
    """`specs` that can run here, and each bundled adapter that cannot, with the reason
    (preparing each bundled adapter on first use: `bundled.adapter_command`)."""
    available, unavailable = [], {}
    for spec in specs:
        try:
            if spec in BUNDLED:
                adapter_command(spec)
            available.append(spec)
        except AdapterUnavailable as exc:
            unavailable[spec] = str(exc)
    return available, unavailable


__all__ = ["BUILTIN", "BUILTIN_ENGINES", "BUNDLED", "AdapterUnavailable", "Capabilities",
           "DEFAULT_ENGINES", "DEFAULT_FORMAT", "Engine", "GOLDEN_REFERENCE", "HarnessError",
           "LossyConversion", "Unsupported", "UnknownEngine", "available_engines", "converting",
           "engine_class", "formats_of", "get_engine"]
