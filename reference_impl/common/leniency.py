"""Lenient reading: a file that breaks a rule but has exactly one reading is read,
and every rule it breaks is named (docs/architecture.md, 'Verdicts').

The reference gives every file one of three verdicts: conforming; read with
findings; or rejected with a documented error. This module is the middle one,
shared by every format's reader. A reader that meets a broken rule calls
:func:`breach` with the :class:`Rule` and where it met it; inside
:func:`reading` (lenient, the default) the breach is collected and the read
goes on with the rule's single reading, under ``strict=True`` the rule's
documented error is raised instead. A breach outside any :func:`reading`
block is raised too: a reader that nobody asked to be lenient is strict.

Rules are declared once, as module-level constants beside the code that
applies them, each quoting its specification sentence with the strength the
sentence has: ``MUST`` (the writer broke a requirement), ``SHOULD`` (a
recommendation) or ``SILENT`` (the text says nothing; the reading is what
real writers produce and peers accept). ``RULES`` lists every rule declared,
which the docs page of lenient readings is generated from.

The collector is a context variable, not an argument: a breach is met deep in
a decoder (a Thrift field, a page header) whose callers need not know about
it, and a read in another thread has a collector of its own.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from reference_impl.common.findings import RuleText, Strength

__all__ = ["RULES", "Breach", "Rule", "Strength", "breach", "reading"]


@dataclass(frozen=True)
class Rule:
    """One rule a readable file may break.

    ``id``: a stable name (``<format>.<area>.<rule>``); ``spec``: the citation of
    the section (``"parquet.thrift: struct DataPageHeaderV2"``); ``sentence``:
    the words of the specification (or, for ``SILENT``, what it leaves open);
    ``reading``: the single reading the reference takes; ``error``: the
    documented error class raised instead under ``strict``.
    """

    id: str
    format: str
    spec: str
    sentence: str
    strength: Strength
    reading: str
    error: type[Exception]

    def __post_init__(self) -> None:
        if self.id in RULES:
            raise ValueError(f"rule {self.id!r} is declared twice")
        RULES[self.id] = self

    @property
    def rule_text(self) -> RuleText:
        return RuleText(self.strength, self.spec, self.sentence)


RULES: dict[str, Rule] = {}


@dataclass(frozen=True)
class Breach:
    """A rule broken at one place of one file."""

    rule: Rule
    where: str
    offset: int | None = None

    def describe(self, with_offset: bool = True) -> str:
        at = "" if self.offset is None or not with_offset else f" (at byte offset {self.offset})"
        return (f"{self.rule.strength.value} {self.rule.id}: {self.where}{at}: "
                f"{self.rule.spec}: \"{self.rule.sentence}\"; read as: {self.rule.reading}")


@dataclass
class _Collector:
    strict: bool
    breaches: list[Breach] = field(default_factory=list)


_CURRENT: ContextVar[_Collector | None] = ContextVar("leniency", default=None)


@contextmanager
def reading(strict: bool = False) -> Iterator[list[Breach]]:
    """Read leniently inside the block; the list it yields fills with the breaches met
    (in the order met, each place once)."""
    collector = _Collector(strict)
    token = _CURRENT.set(collector)
    try:
        yield collector.breaches
    finally:
        _CURRENT.reset(token)


def breach(rule: Rule, where: str, offset: int | None = None) -> None:
    """Record that the file breaks ``rule`` at ``where``; raise the rule's error when
    reading strictly (or outside any :func:`reading` block)."""
    collector = _CURRENT.get()
    found = Breach(rule, where, offset)
    if collector is None or collector.strict:
        # the documented errors add the byte offset to the message themselves
        message = f"{found.describe(with_offset=False)} (read strictly)"
        raise rule.error(message, offset) if offset is not None else rule.error(message)
    if found not in collector.breaches:
        collector.breaches.append(found)
