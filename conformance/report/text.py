"""Evidence text made safe to embed: detail strings come from engines under test.

A detail may hold anything an engine printed: markup (``<script>``), control
characters, lone surrogates, megabytes of stderr. Renderers escape for their
own syntax (HTML, XML, Markdown); this module does the part common to all of
them: line endings become ``\\n``, and every character that XML 1.0 forbids or
a terminal would interpret (C0/C1 controls other than tab and newline, DEL,
lone surrogates, U+FFFE/U+FFFF) is shown as a visible escape such as ``\\x01``,
so the evidence is kept rather than silently dropped.
"""

from __future__ import annotations

import re

_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible_controls(text: str) -> str:
    """``text`` with normalised newlines and control characters shown as escapes."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _CONTROL.sub(_escape, text)


def truncate(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, with a note of how much was cut."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}\n... [{len(text) - limit} more characters]"


def first_lines(text: str, lines: int = 3, width: int = 200) -> list[str]:
    """The first ``lines`` non-empty lines of ``text``, each cut to ``width`` characters."""
    picked = [line for line in visible_controls(text).split("\n") if line.strip()]
    out = [line if len(line) <= width else line[: width - 3] + "..." for line in picked[:lines]]
    if len(picked) > lines:
        out.append(f"... ({len(picked) - lines} more lines)")
    return out


def first_line(text: str, width: int = 200) -> str:
    """The first non-empty line of ``text`` (for one-line messages), or ``""``."""
    found = first_lines(text, 1, width)
    return found[0] if found else ""
