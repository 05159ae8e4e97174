"""Bad files (must reject): what each reader did with the files of the bad-file corpus.

The reject cells (phase ``reject``, planned by ``conformance.golden.rejection``)
have the bad-file corpus for a writer, so they stay out of the writer x reader
grid, which would otherwise gain a "bad-files" row whose every "pass" means the
opposite of a grid pass (the reader raised). This module tallies them per
reader by what the reader did (``rejection.VERDICTS``: for a ``bad`` file
rejected or accepted; for an ``acceptable`` one, read its single reading,
rejected cleanly or returned other rows; the reference's wrong class or
missing lenient reading; crash, timeout, error, unsupported) and lists every
cell whose reader failed, with the file's verdict (bad / acceptable), the
catalogue's fault and the cell's evidence. Renderers (html, markdown, jsonout)
draw from here.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from conformance.golden.rejection import PASSING, VERDICTS, fault_of, file_verdict_of, verdict

from .dataset import Cell, ReportSummary, engine_order

FINDINGS = tuple(v for v in VERDICTS if v not in (*PASSING, "unsupported"))
"""What a reader did that is a finding: it did not reject a bad file, returned other rows
than an acceptable file's single reading, crashed ..."""


@dataclass
class ReaderRejections:
    """One reader's reject cells."""

    version: str = ""
    verdicts: Counter = field(default_factory=Counter)  # verdict -> cells
    findings: list[Cell] = field(default_factory=list)  # cells with a FINDINGS verdict

    @property
    def total(self) -> int:
        return sum(self.verdicts.values())

    def to_json(self) -> dict:
        return {"version": self.version, "total": self.total,
                "counts": {v: self.verdicts[v] for v in VERDICTS},
                "findings": [finding_json(cell) for cell in self.findings]}


def cell_verdict(cell: Cell) -> str:
    return verdict(cell.outcome, cell.detail)


def fault(cell: Cell) -> str:
    """The catalogue's description of the cell's fault ("" for a file it no longer has)."""
    return fault_of(cell.case_id) or ""


def file_verdict(cell: Cell) -> str:
    """The catalogue's verdict of the cell's file, bad or acceptable ("" for a file it no
    longer has)."""
    return file_verdict_of(cell.case_id) or ""


def finding_json(cell: Cell) -> dict:
    return {"case_id": cell.case_id, "file": cell.file, "file_verdict": file_verdict(cell),
            "verdict": cell_verdict(cell), "outcome": cell.outcome, "fault": fault(cell),
            "detail": cell.detail}


def rejections_by_reader(summary: ReportSummary) -> dict[str, ReaderRejections]:
    """Per reader (engine order), its verdicts and its findings (in ``VERDICTS`` order, then
    by file)."""
    readers: dict[str, ReaderRejections] = {}
    for cell in summary.reject_cells():
        tally = readers.setdefault(cell.reading_engine, ReaderRejections(cell.reader_version or ""))
        found = cell_verdict(cell)
        tally.verdicts[found] += 1
        if found in FINDINGS:
            tally.findings.append(cell)
    for tally in readers.values():
        tally.findings.sort(key=lambda c: (VERDICTS.index(cell_verdict(c)), c.case_id))
    return dict(sorted(readers.items(), key=lambda item: engine_order(item[0])))
