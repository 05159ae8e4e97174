"""The engine adapter contract (DESIGN.md, "Core contracts": Engine adapter).

An adapter has a name, the exact version of the library it drives, declared
capabilities as feature-tag patterns, `write(case, path)` and
`read(path) -> Table`, and optionally `read_filtered(path, predicate) -> Table`
(the rows matching a case's predicate, with the engine's own pruning). What an
engine cannot do is declared with the reason (its documentation or a measured
error) and becomes an `unsupported` outcome, distinct from a failure. An adapter
converts its engine's values into canonical values exactly; where a conversion
would lose information it raises `LossyConversion`, which the harness records as
a finding.
"""

from __future__ import annotations

import fnmatch
import importlib.metadata
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from conformance.cases import Case
from conformance.cases.predicate import Predicate
from conformance.values import Table


class Unsupported(Exception):
    """The engine cannot express this case or feature; the message says why."""


class LossyConversion(Exception):
    """The engine handed back a value the canonical model cannot hold without loss."""


@dataclass(frozen=True)
class Capabilities:
    """Feature-tag patterns (fnmatch) an engine writes and reads.

    `cannot_*` maps a pattern to the documented or measured reason; it wins over
    the positive patterns, so `writes=("*",), cannot_write={"type:INT96": "..."}`
    reads as "everything but INT96".
    """

    writes: tuple[str, ...] = ()
    reads: tuple[str, ...] = ("*",)
    cannot_write: Mapping[str, str] = field(default_factory=dict)
    cannot_read: Mapping[str, str] = field(default_factory=dict)

    def write_gap(self, features: Iterable[str]) -> str | None:
        return _gap(features, self.writes, self.cannot_write, "write")

    def read_gap(self, features: Iterable[str]) -> str | None:
        return _gap(features, self.reads, self.cannot_read, "read")

    def to_json(self) -> dict:
        return {"writes": list(self.writes), "reads": list(self.reads),
                "cannot_write": dict(self.cannot_write), "cannot_read": dict(self.cannot_read)}


def _gap(features: Iterable[str], positive: tuple[str, ...], negative: Mapping[str, str],
         verb: str) -> str | None:
    """The reason the first unsupported feature cannot be handled, or None."""
    for tag in sorted(features):
        for pattern, reason in negative.items():
            if fnmatch.fnmatchcase(tag, pattern):
                return f"cannot {verb} {tag}: {reason}"
        if not any(fnmatch.fnmatchcase(tag, p) for p in positive):
            return f"cannot {verb} {tag}: not among the engine's declared capabilities"
    return None


class Engine(ABC):
    """One implementation under test."""

    name: str
    distribution: str  # the installed distribution whose version the engine reports
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

    def read_filtered(self, path: Path, predicate: Predicate) -> Table:
        """Read the rows matching `predicate`, letting the engine prune with whatever
        metadata it uses (statistics, page index, bloom filters, dictionaries).

        The result is a full canonical table (every column) of the matching rows in
        file order, converted exactly like `read`.
        """
        raise Unsupported(f"{self.name} has no filtered read in this adapter")

    def describe(self) -> dict:
        return {"name": self.name, "version": self.version,
                "capabilities": self.capabilities.to_json()}
