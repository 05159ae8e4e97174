"""The seeds of a campaign: every file of the golden corpus in the format (README
"Golden corpus", ``conformance/golden/paths.py``): the cases' files, the regressions and
the bad files, each bad file with the keys its catalogue entry reads it with
(``bad/index.json``, ``read_options``; the others are read with the cases' test keys).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from conformance.formats import file_format
from conformance.golden.paths import BAD_DIR, CASES_DIR, REGRESSIONS_DIR

BAD_INDEX = "index.json"


@dataclass(frozen=True)
class Seed:
    path: Path
    format: str
    keys: dict | None  # explicit keys (hex), as in bad/index.json; None: the test keys

    def relative(self, corpus: Path) -> str:
        return self.path.relative_to(corpus).as_posix()


def seeds(corpus: Path, name: str) -> list[Seed]:
    """The corpus's files of format ``name``, in a fixed order (a campaign's seed picks
    among them by position)."""
    suffix = file_format(name).suffix
    keys = _bad_file_keys(corpus)
    found = []
    for folder in (CASES_DIR, REGRESSIONS_DIR, BAD_DIR):
        for path in sorted((corpus / folder).rglob(f"*{suffix}")):
            found.append(Seed(path, name, keys.get(path.relative_to(corpus).as_posix())))
    return found


def _bad_file_keys(corpus: Path) -> dict[str, dict]:
    index = corpus / BAD_DIR / BAD_INDEX
    if not index.is_file():
        return {}
    keys = {}
    for entry in json.loads(index.read_text(encoding="utf-8")):
        options = entry.get("read_options") or {}
        if options.get("footer_key") or options.get("column_keys"):
            path = f"{BAD_DIR}/{entry['id']}{file_format(entry['format']).suffix}"
            keys[path] = {"footer_key": options.get("footer_key"), "column_keys": options.get("column_keys")}
    return keys
