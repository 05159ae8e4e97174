"""Badges: one shields.io endpoint file per engine and format, ``badges/<engine>-<format>.json``.

A badge says an engine's conformance score over a format's status table and the version
measured (docs/report.md, 'Badges'), in the endpoint schema of shields.io (schemaVersion,
label, message, color), as Bowtie publishes one per JSON Schema implementation. A README
shows it with ``https://img.shields.io/endpoint?url=<where the file is served>``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from conformance.formats import display_name

from .pages import slug
from .status import StatusTable

SCHEMA_VERSION = 1
BADGES_DIR = "badges"
NO_SCORE_COLOUR = "lightgrey"
# The least score of each colour, best first (shields.io's named colours).
COLOUR_STEPS: tuple[tuple[int, str], ...] = (
    (95, "brightgreen"), (85, "green"), (70, "yellowgreen"), (50, "yellow"), (30, "orange"),
    (0, "red"),
)


def badge_path(engine: str, fmt: str) -> str:
    """The badge's path in the report site."""
    return f"{BADGES_DIR}/{slug(engine)}-{slug(fmt)}.json"


def colour(score: int | None) -> str:
    if score is None:
        return NO_SCORE_COLOUR
    return next(name for least, name in COLOUR_STEPS if score >= least)


def badge(table: StatusTable, engine: str) -> dict:
    """The endpoint JSON of ``engine``'s badge for ``table``'s format."""
    score = table.score(engine)
    version = table.versions.get(engine, "")
    measured = "no data" if score.value is None else f"{score.value}/100"
    return {
        "schemaVersion": SCHEMA_VERSION,
        "label": f"{display_name(table.format)} conformance",
        "message": f"{measured} \u00b7 {engine} {version}".rstrip(),
        "color": colour(score.value),
    }


def write_badges(tables: Mapping[str, StatusTable], out_dir: Path) -> list[Path]:
    """Write every engine's badge of every table under ``out_dir/badges``."""
    written = []
    for table in tables.values():
        for engine in table.engines:
            path = Path(out_dir) / badge_path(engine, table.format)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(badge(table, engine), indent=2) + "\n", encoding="utf-8")
            written.append(path)
    return written
