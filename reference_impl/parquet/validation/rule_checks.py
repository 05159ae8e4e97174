"""Rules the file breaks that the reader reads past: its lenient readings as findings.

docs/architecture.md, 'Verdicts': a file read with findings names each rule it
breaks. ``validate`` does all its reading inside one
``reference_impl.common.leniency.reading`` block; every breach the reader meets there
(docs/lenient-readings.md lists the rules) becomes one finding of kind
``rule.<rule id>`` (``rule.parquet.page.v2-num-rows`` ...), whose severity is
the strength of the rule's sentence (a broken MUST is ``nonconforming``, a SHOULD
``advisory``, a silent text ``ambiguous``): the reader has one reading of it, so
no reader that trusts it returns wrong rows. The message is the
breach's own (:meth:`~reference_impl.common.leniency.Breach.describe`): where, the
byte offset, the spec section, the quoted sentence with its strength, and the
reading taken.

A breach is placed where it was met: one met while reading a column chunk at
that chunk, one met in the footer at the file (column ``FILE_COLUMN``, row
group ``FILE_ROW_GROUP``). The same breach met again by a later read of the
same bytes (the VARIANT checks read the file once more) is the collector's
already, and is reported once.
"""

from __future__ import annotations

from collections.abc import Sequence

from reference_impl.common.leniency import Breach
from reference_impl.parquet.validation.findings import Finding

__all__ = ["FILE_COLUMN", "FILE_ROW_GROUP", "KIND_PREFIX", "RuleFindings"]

KIND_PREFIX = "rule."
FILE_COLUMN = ""  # a breach of the footer belongs to no column
FILE_ROW_GROUP = 0  # file findings are reported at the first row group, as schema ones


class RuleFindings:
    """The breaches collected in ``breaches`` (a ``reading`` block's list), as
    findings at the place each was met: :meth:`at` takes those met since it was
    last called."""

    def __init__(self, breaches: Sequence[Breach]) -> None:
        self.breaches = breaches
        self.reported = 0

    def at(self, column: str = FILE_COLUMN, row_group: int = FILE_ROW_GROUP) -> list[Finding]:
        met = self.breaches[self.reported:]
        self.reported = len(self.breaches)
        return [
            Finding(f"{KIND_PREFIX}{found.rule.id}", found.rule.rule_text, column, row_group, None,
                    found.describe())
            for found in met
        ]
