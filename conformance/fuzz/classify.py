"""The outcome classes of a mutant, one per tool that met it (docs/fuzzing.md, 'Classes').

==================  ===================================================================
class               the tool (the reference reader, or ``validate``) ...
==================  ===================================================================
read                returned (rows, or findings) without raising
documented-error    raised an error class of its format's ``errors.py`` (the closed
                    vocabulary the bad-file corpus holds the reference to,
                    ``conformance/golden/rejection.py``), or the reference
                    engine's Unsupported for a value no canonical type names
undocumented        raised any other exception (a bug: docs/architecture.md, 'Bad input')
hang                gave no answer within the time limit (the worker is killed)
memory              raised MemoryError, or its worker died at the memory limit
crash               its worker died otherwise (a signal, an exit)
silent-change       read, after a metadata-only mutation, rows other than its seed's
==================  ===================================================================

A mutant's *key* is (class, exception type, location): location is the innermost frame
of this repository the exception passed through (``path:function``), or for a silent
change the structures its mutation changed (``mutation.Edit.target``). The campaign
keeps one reproducer per key.
"""

from __future__ import annotations

import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from conformance.engines.base import Unsupported
from reference_impl.orc import errors as orc_errors
from reference_impl.parquet import errors as parquet_errors

READ = "read"
DOCUMENTED = "documented-error"
UNDOCUMENTED = "undocumented"
HANG = "hang"
MEMORY = "memory"
CRASH = "crash"
SILENT_CHANGE = "silent-change"
CLASSES = (READ, DOCUMENTED, UNDOCUMENTED, HANG, MEMORY, CRASH, SILENT_CHANGE)
# The classes CI gates on: the reference must never do these (docs/architecture.md, 'Bad input').
GATING = frozenset({UNDOCUMENTED, HANG, MEMORY, CRASH})
ERRORS: dict[str, ModuleType] = {"parquet": parquet_errors, "orc": orc_errors}
# What a worker's death notice says when the memory limit killed it (the C library's,
# C++'s and Python's words for a failed allocation).
OUT_OF_MEMORY_SIGNS = ("MemoryError", "bad_alloc", "Cannot allocate memory", "out of memory")
REPOSITORY = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Outcome:
    """What one tool did with one file."""

    klass: str
    exc_type: str | None = None
    location: str | None = None
    message: str = ""
    rows_digest: str | None = None  # the rows read (class read, reading tools only)

    @property
    def key(self) -> tuple[str, str | None, str | None]:
        return self.klass, self.exc_type, self.location

    def to_json(self) -> dict:
        return {"class": self.klass, "exc_type": self.exc_type, "location": self.location,
                "message": self.message, "rows_digest": self.rows_digest}

    @classmethod
    def from_json(cls, reply: dict) -> Outcome:
        return cls(reply["class"], reply.get("exc_type"), reply.get("location"), reply.get("message", ""),
                   reply.get("rows_digest"))


def is_documented(exc: BaseException, file_format: str) -> bool:
    """Whether ``exc`` is one of the classes ``errors.py`` of ``file_format`` declares, or
    the reference engine's ``Unsupported`` for a value the canonical model cannot name (a
    ConvertedType no version of the text has: docs/unknown-enum-values.md)."""
    module = ERRORS[file_format]
    return isinstance(exc, Unsupported) or getattr(module, type(exc).__name__, None) is type(exc)


def location(exc: BaseException) -> str | None:
    """``path:function`` of the innermost frame inside this repository."""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        path = Path(frame.filename).resolve()
        if path.is_relative_to(REPOSITORY):
            return f"{path.relative_to(REPOSITORY).as_posix()}:{frame.name}"
    return None


def of_exception(exc: BaseException, file_format: str) -> Outcome:
    """The class of a tool that raised ``exc``."""
    if isinstance(exc, MemoryError):
        klass = MEMORY
    else:
        klass = DOCUMENTED if is_documented(exc, file_format) else UNDOCUMENTED
    return Outcome(klass, type(exc).__name__, location(exc), str(exc))


def of_death(notice: str) -> Outcome:
    """The class of a tool whose worker died (``notice``: its status and stderr tail)."""
    klass = MEMORY if any(sign in notice for sign in OUT_OF_MEMORY_SIGNS) else CRASH
    status = notice.splitlines()[0] if notice else "worker died"
    return Outcome(klass, None, status.removeprefix("worker process "), notice)


def of_timeout(limit_s: float) -> Outcome:
    return Outcome(HANG, None, None, f"no answer within {limit_s:g} s")


def silent_location(targets: Sequence[str]) -> str:
    """A silent change's location: the structures its mutation steps changed."""
    return " + ".join(sorted(set(targets)))


def after_read(outcome: Outcome, seed_digest: str | None, metadata_only: bool, kinds: str) -> Outcome:
    """``outcome``, or a silent change: a metadata-only mutant read as rows other than
    its seed's (a seed the reference cannot read has no rows to differ from)."""
    if (outcome.klass != READ or not metadata_only or seed_digest is None
            or outcome.rows_digest == seed_digest):
        return outcome
    return Outcome(SILENT_CHANGE, None, kinds, "read rows other than its seed's", outcome.rows_digest)
