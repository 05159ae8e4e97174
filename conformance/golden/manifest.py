"""The corpus ``MANIFEST``: sha256 and size of every file, so a consumer can check a copy.

One line per file, sorted by path, fields separated by two spaces (the sha256sum
layout with the size in the middle)::

    <sha256 hex>  <size in bytes>  <path relative to the corpus, '/'-separated>

The MANIFEST lists every file under the corpus but itself.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from .paths import MANIFEST

SEPARATOR = "  "


@dataclass(frozen=True)
class Entry:
    path: str
    sha256: str
    size: int

    def line(self) -> str:
        return SEPARATOR.join((self.sha256, str(self.size), self.path))


class ManifestError(ValueError):
    """The corpus and its MANIFEST disagree (the message lists every difference)."""


def scan(corpus: Path) -> list[Entry]:
    """The entries the MANIFEST of `corpus` should hold."""
    entries = []
    for path in sorted(p for p in corpus.rglob("*") if p.is_file()):
        relative = path.relative_to(corpus).as_posix()
        if relative != MANIFEST:
            data = path.read_bytes()
            entries.append(Entry(relative, hashlib.sha256(data).hexdigest(), len(data)))
    return entries


def write_manifest(corpus: Path) -> Path:
    target = corpus / MANIFEST
    target.write_text("".join(entry.line() + "\n" for entry in scan(corpus)), encoding="utf-8")
    return target


def read_manifest(corpus: Path) -> list[Entry]:
    entries = []
    text = (corpus / MANIFEST).read_text(encoding="utf-8")
    for number, line in enumerate(text.splitlines(), start=1):
        fields = line.split(SEPARATOR, 2)
        if len(fields) != 3 or not fields[1].isdigit():
            raise ManifestError(f"{MANIFEST} line {number}: expected 'sha256  size  path', got {line!r}")
        entries.append(Entry(fields[2], fields[0], int(fields[1])))
    return entries


def check_manifest(corpus: Path) -> None:
    """Raise ManifestError unless every file is listed with its sha256 and size, and
    every listed file exists."""
    listed = {e.path: e for e in read_manifest(corpus)}
    actual = {e.path: e for e in scan(corpus)}
    problems = [f"not in {MANIFEST}: {p}" for p in sorted(actual.keys() - listed.keys())]
    problems += [f"listed but missing: {p}" for p in sorted(listed.keys() - actual.keys())]
    problems += [f"changed: {p} (listed sha256 {listed[p].sha256[:12]}.. size {listed[p].size}, "
                 f"now {actual[p].sha256[:12]}.. size {actual[p].size})"
                 for p in sorted(listed.keys() & actual.keys()) if listed[p] != actual[p]]
    if problems:
        raise ManifestError(f"{corpus / MANIFEST} disagrees with the corpus:\n" + "\n".join(problems))
