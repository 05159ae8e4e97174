"""What an exception out of an adapter call says, and the evidence a cell keeps of it.

One classification for every kind of cell (write, read, filtered read, golden, reject):

* ``Unsupported``: the adapter found at run time that it cannot do this (measured);
* ``HarnessError``: the adapter's own code failed converting the engine's answer
  (``conformance.engines.base.converting``): a bug of this suite, outcome
  ``harness-error``, never a verdict on the engine (a reject cell does not count it
  as a rejection, a read cell not as the engine's error);
* ``LossyConversion``: the engine answered with a value the canonical model cannot
  hold: the engine did answer (a reject cell counts it as accepting the file);
* ``EngineCrashed`` / ``EngineHung``: the engine's own process (an implementation
  plugged in through the engine protocol) died or did not answer: ``crash`` and
  ``timeout``, as for a built-in engine whose worker dies or hangs;
* a *panic* (an exception class of `PANIC_CLASSES`: a Rust panic that the library's
  binding caught, e.g. PyO3's ``PanicException``, also when an adapter reports it as
  its error class): ``crash``. The engine died of the input as surely as one whose
  process ended; only its binding kept the process alive, so a bad-file cell does
  not count it as a rejection;
* anything else: the engine's own error.
"""

from __future__ import annotations

import traceback

from conformance.engines import HarnessError, LossyConversion, Unsupported
from conformance.engines.base import EngineCrashed, EngineHung, engine_stderr

UNSUPPORTED, HARNESS, LOSSY, ENGINE = "unsupported", "harness", "lossy", "engine"
CRASH, TIMEOUT = "crash", "timeout"  # kinds named as the outcomes they give
HARNESS_ERROR = "harness-error"  # the outcome of a HARNESS failure
HARNESS_PREFIX = "harness error: "
MEASURED = "measured: "
EVIDENCE_FRAMES = 3  # innermost traceback frames kept in a detail
# Error classes that are an engine's panic, not an error it raised (PyO3's, and the one
# docs/engine-protocol.md names for an adapter whose engine aborted but whose host lived).
PANIC_CLASSES = frozenset({"PanicException", "Panic"})


def failure_kind(exc: BaseException) -> str:
    """UNSUPPORTED, HARNESS, CRASH, TIMEOUT, LOSSY or ENGINE: see the module docstring."""
    if isinstance(exc, Unsupported):
        return UNSUPPORTED
    if isinstance(exc, HarnessError):
        return HARNESS
    if isinstance(exc, EngineCrashed) or type(exc).__name__ in PANIC_CLASSES:
        return CRASH
    if isinstance(exc, EngineHung):
        return TIMEOUT
    return LOSSY if isinstance(exc, LossyConversion) else ENGINE


def failure_outcome(exc: BaseException) -> tuple[str, str]:
    """(outcome, detail) of a cell whose adapter call raised `exc`: ``unsupported``,
    ``harness-error``, ``crash``, ``timeout``, or ``error`` (the engine's error, a lossy
    answer too)."""
    kind = failure_kind(exc)
    if kind in (CRASH, TIMEOUT):
        return kind, describe_exception(exc)
    if kind == UNSUPPORTED:
        text = str(exc)
        return "unsupported", text if text.startswith(MEASURED) else MEASURED + text
    if kind == HARNESS:
        cause = exc.__cause__ or exc
        return HARNESS_ERROR, f"{HARNESS_PREFIX}{exc}\n{_where(cause)}".rstrip()
    return "error", describe_exception(exc)


def describe_exception(exc: BaseException) -> str:
    """`Class: message`, then where it came from (`_where`)."""
    return f"{type(exc).__name__}: {exc}\n{_where(exc)}".rstrip()


def _where(exc: BaseException) -> str:
    """Where `exc` came from: the innermost frames; for a failure an engine's own process
    reported (docs/engine-protocol.md), the tail of that process's stderr instead."""
    stderr = engine_stderr(exc)
    if stderr is not None:
        return f"adapter stderr (tail):\n{stderr}" if stderr.strip() else "adapter stderr: empty"
    frames = traceback.extract_tb(exc.__traceback__)[-EVIDENCE_FRAMES:]
    return "".join(traceback.format_list(frames))
