"""Metadata validation findings per writer: the ``validator`` read cells' findings, counted.

Every file the matrix writes is checked by ``reference_impl.parquet.validation.validate``
(statistics, column and offset index, size statistics, Bloom filters, CRCs
against the file's own data). Its findings are attributed to the writer that
produced the file; this module tallies them by kind and severity, the question
"which writer writes untrue metadata, and what" answered in one table.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field

from .dataset import ReportSummary, engine_order

VALIDATOR = "validator"


@dataclass
class WriterFindings:
    files: int = 0  # files the validator checked
    files_with_untrue: int = 0
    counts: Counter = field(default_factory=Counter)  # (severity, kind) -> findings

    def to_json(self) -> dict:
        by_kind: dict[str, dict[str, int]] = {}
        for (severity, kind), count in sorted(self.counts.items()):
            by_kind.setdefault(kind, {})[severity] = count
        return {"files": self.files, "files_with_untrue": self.files_with_untrue, "by_kind": by_kind}


def findings_by_writer(summary: ReportSummary) -> dict[str, WriterFindings]:
    """Per writer (engine order), what the validator found in the files it wrote."""
    tallies: dict[str, WriterFindings] = {}
    for cell in summary.cells:
        if cell.reader != VALIDATOR or cell.outcome not in ("pass", "mismatch"):
            continue
        tally = tallies.setdefault(cell.writer, WriterFindings())
        tally.files += 1
        findings = json.loads(cell.findings or "[]")
        tally.files_with_untrue += any(f["severity"] == "untrue" for f in findings)
        tally.counts.update((f["severity"], f["kind"]) for f in findings)
    return dict(sorted(tallies.items(), key=lambda item: engine_order(item[0])))
