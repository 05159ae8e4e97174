"""The engine adapter contract (docs/architecture.md, 'Engine adapter').

An adapter has a name, the exact version of the library it drives, declared
capabilities as feature-tag patterns, `write(case, path)` and
`read(path) -> Table`, and optionally `read_filtered(path, predicate) -> Table`
(the rows matching a case's predicate, with the engine's own pruning). What an
engine cannot do is declared with the reason (its documentation or a measured
error) and becomes an `unsupported` outcome, distinct from a failure. An adapter
converts its engine's values into canonical values exactly; where a conversion
would lose information it raises `LossyConversion`, which the harness records as
a finding. The adapter's own code that converts what the engine returned runs
inside `converting(...)`: a bug there (a TypeError, a MemoryError) is a
`HarnessError`, a fault of this suite, never a verdict on the engine.
"""

from __future__ import annotations

import contextlib
import fnmatch
import importlib.metadata
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from conformance.cases import Case
from conformance.cases.model import capability_features
from conformance.cases.native import NATIVE_TAG_PREFIX, reading_features
from conformance.cases.predicate import Predicate
from conformance.formats import DEFAULT_FORMAT
from conformance.values import Table

# An engine spec naming an implementation run as its own process, speaking the engine
# protocol (docs/engine-protocol.md): cmd:NAME=COMMAND.
COMMAND_PREFIX = "cmd:"


class Unsupported(Exception):
    """The engine cannot express this case or feature; the message says why."""


class LossyConversion(Exception):
    """The engine handed back a value the canonical model cannot hold without loss."""


class EngineCrashed(Exception):
    """The engine's process died before answering (an implementation plugged in as its own
    process, docs/engine-protocol.md): a `crash` cell, as a built-in engine's death is."""


class EngineHung(Exception):
    """The engine's process gave no answer in its time and was killed: a `timeout` cell."""


# Set on an exception an engine's own process reported (an implementation behind the
# engine protocol): the tail of that process's stderr, its evidence (this process's
# frames say nothing of where the failure came from).
_ENGINE_STDERR = "_conformance_engine_stderr"


def with_engine_stderr(exc: BaseException, stderr: str) -> BaseException:
    """`exc`, carrying `stderr` (the tail of the engine process's stderr) as its evidence."""
    setattr(exc, _ENGINE_STDERR, stderr)
    return exc


def engine_stderr(exc: BaseException) -> str | None:
    """The stderr tail `exc` carries (`with_engine_stderr`), or None for an exception of
    this process."""
    return getattr(exc, _ENGINE_STDERR, None)


class HarnessError(Exception):
    """The adapter's own code failed converting what its engine returned: a bug of the
    suite (its cause is the original exception), not an error of the engine."""


@contextlib.contextmanager
def converting(engine: str, verdicts: tuple[type[Exception], ...] = ()) -> Iterator[None]:
    """Mark adapter code that converts an engine's answer: whatever it raises, other than
    the adapter's verdicts `Unsupported` and `LossyConversion` (and the engine's own
    `verdicts`, for an engine whose conversion is partly its own code, as the
    reference's is), becomes a `HarnessError`. Only the adapter knows where the engine's
    call ends (a traceback cannot tell: pyarrow is both an engine and the library
    converting Arrow results)."""
    passed_on: tuple[type[Exception], ...] = (Unsupported, LossyConversion, *verdicts)
    try:
        yield
    except passed_on:
        raise
    except Exception as exc:  # noqa: BLE001 - any other failure here is the suite's bug
        if getattr(exc, _RAISED_BY_ENGINE, False):
            raise
        raise HarnessError(f"the {engine} adapter failed converting the engine's result: "
                           f"{type(exc).__name__}: {exc}") from exc


# Set on an exception the engine raised inside a `converting` block (`engine_call`).
_RAISED_BY_ENGINE = "_conformance_raised_by_engine"


@contextlib.contextmanager
def engine_call() -> Iterator[None]:
    """Mark a call to the engine made from inside a `converting` block (a second read
    the conversion needs): what it raises stays the engine's verdict."""
    try:
        yield
    except Exception as exc:
        setattr(exc, _RAISED_BY_ENGINE, True)
        raise


@dataclass(frozen=True)
class Capabilities:
    """Feature-tag patterns (fnmatch) an engine writes and reads.

    `cannot_*` maps a pattern to the documented or measured reason; it wins over
    the positive patterns, so `writes=("*",), cannot_write={"type:INT96": "..."}`
    reads as "everything but INT96".

    `reads_keyless` are patterns of encryption the engine reads without keys (it has no
    way to take them): a case with such a tag, which `reads` must still claim, is judged
    against its format's keyless view (`conformance.formats.FileFormat.keyless_view`: an
    ORC reader without a column's key reads its masked variant, ORCv1.md 'Encryption
    Variants'), not against the true values a key holder reads.
    """

    writes: tuple[str, ...] = ()
    reads: tuple[str, ...] = ("*",)
    cannot_write: Mapping[str, str] = field(default_factory=dict)
    cannot_read: Mapping[str, str] = field(default_factory=dict)
    reads_keyless: tuple[str, ...] = ()

    def write_gap(self, features: Iterable[str]) -> str | None:
        return _gap(features, self.writes, self.cannot_write, "write")

    def read_gap(self, features: Iterable[str]) -> str | None:
        return _gap(reading_features(features), self.reads, self.cannot_read, "read")

    def reads_without_keys(self, features: Iterable[str]) -> bool:
        """Does the engine read a case of `features` without its keys (`reads_keyless`)?"""
        return any(fnmatch.fnmatchcase(tag, pattern) for tag in capability_features(features)
                   for pattern in self.reads_keyless)

    def to_json(self) -> dict:
        keyless = {"reads_keyless": list(self.reads_keyless)} if self.reads_keyless else {}
        return {"writes": list(self.writes), "reads": list(self.reads),
                "cannot_write": dict(self.cannot_write), "cannot_read": dict(self.cannot_read),
                **keyless}


def _gap(features: Iterable[str], positive: tuple[str, ...], negative: Mapping[str, str],
         verb: str) -> str | None:
    """The reason the first unsupported feature cannot be handled, or None. The tags that
    mark a case (its spec release, forward incompatibility) are no engine's to declare."""
    for tag in sorted(capability_features(features)):
        for pattern, reason in negative.items():
            if fnmatch.fnmatchcase(tag, pattern):
                return f"cannot {verb} {tag}: {reason}"
        if not any(fnmatch.fnmatchcase(tag, p) for p in _claiming(tag, positive)):
            return f"cannot {verb} {tag}: not among the engine's declared capabilities"
    return None


def _claiming(tag: str, patterns: tuple[str, ...]) -> tuple[str, ...]:
    """The patterns that may claim `tag`: an engine's own native types (conformance.cases.native)
    only by a pattern naming them, so that ``*`` claims every feature of the abstract schema
    and no engine's type."""
    if not tag.startswith(NATIVE_TAG_PREFIX):
        return patterns
    return tuple(p for p in patterns if p.startswith(NATIVE_TAG_PREFIX))


class Engine(ABC):
    """One implementation under test."""

    name: str
    distribution: str  # the installed distribution whose version the engine reports
    format: str = DEFAULT_FORMAT  # the file format this adapter writes and reads
    capabilities: Capabilities
    # Whether the harness may run calls in a throwaway subprocess. An engine that
    # needs the run's shared state (Spark's session) runs in the driver instead.
    isolated: bool = True

    @property
    def version(self) -> str:
        return importlib.metadata.version(self.distribution)

    @abstractmethod
    def write(self, case: Case, path: Path) -> None:
        """Write `case.expected` with `case.options` to a single file at `path`."""

    @abstractmethod
    def read(self, path: Path) -> Table:
        """Read the whole file at `path` into a canonical table."""

    # How `read_verifying_checksums` turns page CRC checks on (README.md, 'Checksumming'), in
    # the engine's own terms; None when the adapter has no such read.
    checksum_verification: str | None = None

    def read_verifying_checksums(self, path: Path) -> Table:
        """`read` with every page's CRC checked, where `checksum_verification` says how."""
        raise Unsupported(f"{self.name} has no page checksum verification in this adapter")

    def read_filtered(self, path: Path, predicate: Predicate) -> Table:
        """Read the rows matching `predicate`, letting the engine prune with whatever
        metadata it uses (statistics, page index, bloom filters, dictionaries).

        The result is a full canonical table (every column) of the matching rows in
        file order, converted exactly like `read`.
        """
        raise Unsupported(f"{self.name} has no filtered read in this adapter")

    def describe(self) -> dict:
        return {"name": self.name, "version": self.version, "format": self.format,
                "capabilities": self.capabilities.to_json()}

