"""Docs pages whose tail is generated from code: a hand-written head, a marker line, then
the generated part (docs/validation.md, docs/spec-versions.md).

Each page's module gives its ``PAGE``, its marker and ``generated()`` (the marker and what
follows it); :func:`rewrite` keeps the head and replaces the rest, and :func:`committed`
is the generated part as the repository holds it, for the test that compares the two.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["committed", "rewrite"]


def committed(page: Path, marker: str) -> str:
    """The page's generated part as committed: the marker and what follows it (ValueError
    when the page has no marker)."""
    head, found, tail = page.read_text(encoding="utf-8").partition(marker)
    if not found:
        raise ValueError(f"{page} has no line {marker!r}")
    return found + tail


def rewrite(page: Path, marker: str, generated: str) -> None:
    """Keep the page's hand-written head, replace its generated part with ``generated``."""
    head = page.read_text(encoding="utf-8").partition(marker)[0]
    page.write_text(head + generated, encoding="utf-8")
