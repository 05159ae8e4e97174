"""The committed golden corpus cut down to a few cases, for tests that verify a corpus."""

from __future__ import annotations

import shutil
from pathlib import Path

from conformance.golden.manifest import write_manifest
from conformance.golden.paths import BAD_DIR, CASES_DIR, SCHEMA_DIR, default_corpus


def cut_corpus(copy: Path, *cases: str) -> Path:
    """A copy at `copy` of the committed corpus holding only `cases`, its MANIFEST rewritten."""
    source = default_corpus()
    for part in (BAD_DIR, SCHEMA_DIR, *(f"{CASES_DIR}/{case}" for case in cases)):
        shutil.copytree(source / part, copy / part)
    write_manifest(copy)
    return copy
