"""What a validator reports, in both formats: a finding's rule text and severity
(docs/architecture.md, 'Verdicts'; docs/validation.md).

Every finding checks one sentence of the specification, and says so: its
:class:`RuleText` quotes the sentence, cites its section and gives the strength the
sentence has (RFC 2119 words, as the texts use them). The severity follows from the
strength, most severe first:

* ``untrue`` (:attr:`Strength.FACT`): the sentence says what a field holds, and the
  field contradicts the data: a reader that trusts it skips rows it should return, or
  rejects good data;
* ``nonconforming`` (MUST, MUST NOT, "has to", REQUIRED): a requirement is broken
  without the metadata being untrue;
* ``ambiguous`` (:attr:`Strength.SILENT`): the text is silent or has more than one
  reading; the sentence names the readings and which implementations take each;
* ``advisory`` (SHOULD, SHOULD NOT, RECOMMENDED, and MAY where the text permits
  something only under a condition): a recommendation is not followed.

Each format's ``validation.findings`` says where a finding is (Parquet: column, row
group, page; ORC: column, stripe, row group) and its ``rule_texts`` holds the text of
every kind it reports.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from enum import Enum
from typing import Protocol

__all__ = ["ADVISORY", "AMBIGUOUS", "NONCONFORMING", "SEVERITIES", "SHOWN_BYTES", "UNTRUE",
           "RuleFinding", "RuleText", "Strength", "at_or_above", "show"]

SEVERITIES = ("untrue", "nonconforming", "ambiguous", "advisory")  # most severe first
UNTRUE, NONCONFORMING, AMBIGUOUS, ADVISORY = SEVERITIES
SHOWN_BYTES = 24  # longer byte values are cut in messages


class Strength(Enum):
    """How strongly the specification states a rule (RFC 2119 words, or none)."""

    FACT = "fact"  # what a field holds ("count of distinct values occurring")
    MUST = "MUST"
    SHOULD = "SHOULD"
    MAY = "MAY"  # permitted only under a condition: outside it, a recommendation broken
    SILENT = "silent"  # the text says nothing, or more than one thing

    @property
    def severity(self) -> str:
        return _SEVERITY_OF[self]


_SEVERITY_OF = {Strength.FACT: UNTRUE, Strength.MUST: NONCONFORMING, Strength.SHOULD: ADVISORY,
                Strength.MAY: ADVISORY, Strength.SILENT: AMBIGUOUS}


@dataclass(frozen=True)
class RuleText:
    """The sentence a finding checks: its strength, its section (``spec``, e.g.
    ``"parquet.thrift: struct Statistics"``) and its words. For ``SILENT`` the words say
    what the text leaves open, the readings, and which implementations take each."""

    strength: Strength
    spec: str
    sentence: str

    @property
    def severity(self) -> str:
        return self.strength.severity

    def quote(self) -> str:
        return f"{self.strength.value}: \"{self.sentence}\" ({self.spec})"

    def to_json(self) -> dict:
        return {"strength": self.strength.value, "spec": self.spec, "sentence": self.sentence}


class RuleFinding:
    """What both formats' findings (dataclasses with a ``rule`` field) share: the severity
    their rule text gives, and the JSON form with that text."""

    rule: RuleText

    @property
    def severity(self) -> str:
        return self.rule.severity

    def to_json(self) -> dict:
        doc = asdict(self)  # type: ignore[call-overload]  # each format's Finding is a dataclass
        doc.update(severity=self.severity, rule=self.rule.to_json())
        return doc


class _Severe(Protocol):
    @property
    def severity(self) -> str: ...


def at_or_above(findings: Iterable[_Severe], severity: str) -> list:
    """The findings as severe as ``severity`` or more (``SEVERITIES`` order)."""
    if severity not in SEVERITIES:
        raise ValueError(f"severity must be one of {SEVERITIES}, not {severity!r}")
    worst = SEVERITIES.index(severity)
    return [f for f in findings if SEVERITIES.index(f.severity) <= worst]


def show(value: object) -> str:
    """A value for a message (long byte strings cut)."""
    if isinstance(value, bytes | bytearray) and len(value) > SHOWN_BYTES:
        return f"{bytes(value[:SHOWN_BYTES])!r}... ({len(value)} bytes)"
    return repr(value)
