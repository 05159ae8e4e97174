"""The engine versions the golden corpus was written with, and the engines of a run that
are at another version (README, 'Version sweep').

Each golden file's entry in its case's ``expected.json`` names its writer and the writer's
version. A run whose engine is at another version measures another release than the
corpus records: installing a library beside the suite can change the suite's own engines
(measured: installing daft moved pyarrow from 26.0.1 to 25.0.1 in the same environment),
so the report says so beside the engine.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from .paths import CASES_DIR, EXPECTED

VERSION_MARK = "@"  # a swept engine's column: engine@version (conformance.report.run_merge)
MODE_MARK = ":"  # a reader's mode suffix, in its name and cell id ("duckdb:filter")


def corpus_versions(corpus: Path) -> dict[str, set[str]]:
    """Writer name -> the versions its golden files were written with."""
    versions: dict[str, set[str]] = {}
    for path in (corpus / CASES_DIR).rglob(EXPECTED):
        for entry in json.loads(path.read_text(encoding="utf-8"))["files"]:
            versions.setdefault(entry["writer"], set()).add(entry["writer_version"])
    return versions


def version_notes(engines: Mapping[str, Sequence[str]], corpus: Path) -> dict[str, str]:
    """Engine name -> a warning, for each engine of `engines` (name -> the versions a run
    used) that wrote golden files at other versions than these."""
    if not (corpus / CASES_DIR).is_dir():
        return {}
    recorded = corpus_versions(corpus)
    notes = {}
    for name, versions in engines.items():
        engine = name.partition(VERSION_MARK)[0].partition(MODE_MARK)[0]
        other = set(versions) - recorded.get(engine, set(versions))
        if other:
            notes[name] = (f"{engine} {', '.join(sorted(other))} is not the version the golden "
                           f"corpus was written with ({', '.join(sorted(recorded[engine]))})")
    return notes
