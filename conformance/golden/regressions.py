"""Regressions: the shrunk failing examples of the property tests, kept forever.

Issue 6 item 4, "Property-based cross-engine testing": "on a mismatch the shrunk
example is saved as a new case under `golden_files/regressions/` with its files
and expected values, so a failure found once is kept forever". Each regression
is a folder ``regressions/<id>/`` of the corpus (`paths.REGRESSIONS_DIR`):

* ``case.json``: the case definition, `Case.to_json` (schema, rows = the expected
  canonical values, write options, spec sections, features), whose id is
  ``regression/<id>``;
* ``finding.json``: a JSON list of findings, one per (writer, reader, outcome) that
  failed on this example: writer and reader with their versions, outcome, detail,
  date, and how it was found;
* ``<writer>.parquet`` (``.orc`` for an ORC case): the file each failing writer produced.

``<id>`` is a digest of the case definition (everything but its id, title and the
derived feature list), so the same example is saved once however often it is found;
a second finding on it is added to its ``finding.json``.

A finding is *known* when a saved one has the same writer, reader, outcome and
`signature`: the first line of the evidence with what varies between examples
(numbers, quoted names and values, paths) or between the processes that met it (an
object's address or identity hash) blanked, and any row-by-row value diff reduced to
"values differ". The rest of the evidence (an engine process's stderr, a traceback)
is kept in the finding but makes no part of its signature. One engine bug then costs one regression, whichever
example meets it, and a derandomized property run reaches a fixed point. `load_regressions` turns
the folders back into `Case`s, which the catalogue lists (area ``regression``), so
every regression runs through the whole writer x reader matrix and the golden corpus.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path

from conformance.cases.model import Case
from conformance.formats import file_format

from .paths import REGRESSIONS_DIR

AREA = "regression"
CASE_FILE = "case.json"
FINDINGS_FILE = "finding.json"
ID_HEX_DIGITS = 16  # 64 bits of sha256: no collision among any plausible number of examples
# Case.to_json keys that do not define the example: who names it, and what is derived.
_NOT_DEFINING = ("id", "title", "features")
# An object's identity in one process, which an engine's message may print: an
# address (``0x7f3a...``, Python's and Rust's), a Java identity hash
# (``LocalInputFile@30506c0d``), a UUID or another long hexadecimal run with a digit.
_IDENTITY = re.compile(r"\b0x[0-9a-fA-F]+\b|@[0-9a-fA-F]+\b"
                       r"|\b[0-9a-fA-F]{8}(-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}\b"
                       r"|\b(?=[0-9a-fA-F]*\d)[0-9a-fA-F]{8,}\b")
# What varies between examples of one bug, or between two processes meeting it, blanked
# in a signature (order matters: paths and quoted text before the numbers inside them,
# hexadecimal identities before the decimal numbers their digits would split them into).
_VARYING = ((re.compile(r"(/[^\s/:]+)+/?"), "<path>"),
            (re.compile(r"'[^']*'|\"[^\"]*\""), "<name>"),
            (re.compile(r"\bcolumn [\w.]+"), "column <name>"),
            (_IDENTITY, "<n>"),
            (re.compile(r"-?\d+(\.\d+)?"), "<n>"))
_VALUE_DIFF = re.compile(r"^row <n>, column <name>: .*")


@dataclass(frozen=True)
class Finding:
    """One failing cell on a regression's example."""

    writer: str
    writer_version: str
    reader: str
    reader_version: str
    outcome: str  # a failing cell outcome: mismatch, error, crash, timeout
    detail: str
    date: str  # ISO 8601, UTC
    found_by: str  # e.g. "hypothesis: tests/property/test_cross_engine.py, profile long"

    @property
    def key(self) -> tuple[str, str, str]:
        return self.writer, self.reader, self.outcome

    @property
    def kind(self) -> tuple[str, str, str, str]:
        """What makes two findings one bug: the key and the evidence's `signature`."""
        return (*self.key, signature(self.detail))

    def to_json(self) -> dict:
        return dataclasses.asdict(self)


def signature(detail: str) -> str:
    """The evidence's first line with what varies between examples blanked."""
    lines = detail.strip().splitlines()
    text = lines[0] if lines else ""
    for pattern, blank in _VARYING:
        text = pattern.sub(blank, text)
    return _VALUE_DIFF.sub("row <n>, column <name>: values differ", text)


def regression_id(case: Case) -> str:
    """The digest of the case's definition: equal definitions, equal ids."""
    definition = {k: v for k, v in case.to_json().items() if k not in _NOT_DEFINING}
    text = json.dumps(definition, sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:ID_HEX_DIGITS]


def as_regression(case: Case) -> Case:
    """`case` under its regression id, ``regression/<digest>``."""
    return dataclasses.replace(case, id=f"{AREA}/{regression_id(case)}")


def regression_folder(case: Case, corpus_dir: Path) -> Path:
    return Path(corpus_dir) / REGRESSIONS_DIR / regression_id(case)


def known_findings(case: Case, corpus_dir: Path) -> list[Finding]:
    """The findings already saved for this example (none if it was never saved)."""
    path = regression_folder(case, corpus_dir) / FINDINGS_FILE
    if not path.is_file():
        return []
    return [Finding(**doc) for doc in json.loads(path.read_text(encoding="utf-8"))]


def saved_kinds(corpus_dir: Path, fmt: str) -> set[tuple[str, str, str, str]]:
    """The `Finding.kind` of every saved finding of every regression of format `fmt`. A
    kind names no format, and a pair's Parquet finding must not hide its ORC ones."""
    return {f.kind for case in load_regressions(corpus_dir) if case.format == fmt
            for f in known_findings(case, corpus_dir)}


def save_regression(case: Case, finding: Finding, file: bytes | None, corpus_dir: Path) -> bool:
    """Save the example with its finding and the writer's file; False when this finding
    of this example was saved before (nothing is written then)."""
    findings = known_findings(case, corpus_dir)
    if any(f.key == finding.key for f in findings):
        return False
    folder = regression_folder(case, corpus_dir)
    folder.mkdir(parents=True, exist_ok=True)
    case_file = folder / CASE_FILE
    if not case_file.is_file():
        case_file.write_text(json.dumps(as_regression(case).to_json(), indent=1) + "\n",
                             encoding="utf-8")
    written = folder / f"{finding.writer}{file_format(case.format).suffix}"
    if file is not None and not written.is_file():
        written.write_bytes(file)
    docs = [f.to_json() for f in (*findings, finding)]
    (folder / FINDINGS_FILE).write_text(json.dumps(docs, indent=1) + "\n", encoding="utf-8")
    return True


def load_regressions(corpus_dir: Path) -> list[Case]:
    """Every saved regression as a `Case` with id ``regression/<id>``, in id order; none
    when the corpus has no regressions folder."""
    folder = Path(corpus_dir) / REGRESSIONS_DIR
    if not folder.is_dir():
        return []
    return [Case.from_json(json.loads(path.read_text(encoding="utf-8")))
            for path in sorted(folder.glob(f"*/{CASE_FILE}"))]
