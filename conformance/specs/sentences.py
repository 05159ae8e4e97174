"""The normative sentence of a cited section: what a finding quotes as the rule it breaks.

A reference as the catalogue writes it (docs/citations.md, 'Entries': ``"LogicalTypes.md:
Lists, Backward-compatibility rules"``) names a section of a specification text; this
module finds that section's text in a folder of the texts (the ones
docs/spec-sections.json indexes; the repository does not hold them, so the folder is
given: ``--spec DIR`` or ``$CONFORMANCE_SPEC_DIR``) and picks its normative sentence:
the one with the strongest requirement keyword (RFC 2119, as the Parquet and ORC texts
write them, in capitals or not: MUST / MUST NOT / REQUIRED / SHALL, then SHOULD /
RECOMMENDED, then MAY / OPTIONAL), ties broken by the words it shares with the finding,
then by order. A section without a keyword gives its first sentence, strength
``descriptive``.

Sections: a Markdown heading's text up to the next heading of its level or above; a
declaration of ``parquet.thrift`` / ``orc_proto.proto`` its doc comment (the comment
just above it). The plain-text ``parquet-format-docs.txt`` is not read: its sections
are cited beside today's files.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from .citations import Heading, _matches  # the resolution rules citations are checked by
from .headings import _ATX, _FENCE, _clean

SPEC_ENV = "CONFORMANCE_SPEC_DIR"
DESCRIPTIVE = "descriptive"
MAX_SENTENCE = 600  # characters quoted at most
STRENGTHS = (  # strongest first: (strength, keywords)
    ("MUST", ("MUST NOT", "MUST", "REQUIRED", "SHALL NOT", "SHALL")),
    ("SHOULD", ("SHOULD NOT", "SHOULD", "RECOMMENDED")),
    ("MAY", ("MAY", "OPTIONAL")),
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(*])")
_MARKUP = re.compile(r"[*_`]|\[([^\]]*)\]\([^)]*\)")
_NOT_PROSE = re.compile(r"^(\s{4}|\t|\s*\||\s*//|\s*<)")  # indented code, tables, comments, HTML
_LIST_MARK = re.compile(r"^([-*+]|\d+\.)\s+")
_WORD = re.compile(r"[a-z0-9]{3,}")
_DECLARATION = r"^\s*(?:struct|union|enum|message|exception)\s+{name}\b"
_COMMENT_LINE = re.compile(r"^\s*(/\*\*?|\*/?|//)")


@dataclass(frozen=True)
class Quote:
    reference: str  # as cited, "LogicalTypes.md: TIMESTAMP"
    sentence: str
    strength: str  # MUST, SHOULD, MAY or descriptive


def spec_folder(given: Path | None = None) -> Path | None:
    """The folder of specification texts: ``given``, else ``$CONFORMANCE_SPEC_DIR``."""
    if given is not None:
        return given
    configured = os.environ.get(SPEC_ENV)
    return Path(configured) if configured else None


def _find(folder: Path, name: str) -> Path | None:
    found = sorted(folder.rglob(name))
    return found[0] if found else None


def markdown_section(text: str, section: str) -> str | None:
    """The text under the heading ``section`` names (citations' rules), up to the next
    heading of its level or above."""
    lines = text.splitlines()
    headings: list[tuple[int, Heading]] = []  # (line number, heading)
    in_code = False
    for number, line in enumerate(lines):
        if _FENCE.match(line):
            in_code = not in_code
        elif not in_code and (match := _ATX.match(line)):
            headings.append((number, Heading(len(match.group(1)), _clean(match.group(2)))))
    found = _matches([h for _, h in headings], section)
    if not found:
        return None
    start, heading = headings[found[0]]
    end = next((n for n, h in headings[found[0] + 1:] if h.level <= heading.level), len(lines))
    return "\n".join(lines[start + 1:end])


def declaration_comment(text: str, section: str) -> str | None:
    """The doc comment above the declaration ``section`` names (``struct Statistics``,
    ``enum Type (INT96, deprecated)``, ``Statistics``)."""
    name = re.sub(r"\s*\(.*\)$", "", section).split()[-1].split(".")[-1]
    lines = text.splitlines()
    pattern = re.compile(_DECLARATION.format(name=re.escape(name)))
    at = next((n for n, line in enumerate(lines) if pattern.match(line)), None)
    if at is None:
        return None
    comment: list[str] = []
    for line in reversed(lines[:at]):
        if not _COMMENT_LINE.match(line):
            break
        comment.insert(0, _COMMENT_LINE.sub("", line).strip())
    return " ".join(c for c in comment if c)


def section_text(folder: Path, reference: str) -> str | None:
    spec, _, sections = reference.partition(": ")
    path = _find(folder, spec)
    if path is None or not sections or path.suffix == ".txt":
        return None
    text = path.read_text(encoding="utf-8")
    innermost = sections.split(", ")[-1]
    if path.suffix in (".thrift", ".proto"):
        return declaration_comment(text, innermost)
    return markdown_section(text, innermost) or markdown_section(text, sections)


def _strength(sentence: str) -> str:
    for strength, keywords in STRENGTHS:
        if any(re.search(rf"\b{k}\b", sentence) for k in keywords):
            return strength
    for strength, keywords in STRENGTHS:
        if any(re.search(rf"\b{k.lower()}\b", sentence) for k in keywords):
            return strength
    return DESCRIPTIVE


def _rank(strength: str) -> int:
    order = [s for s, _ in STRENGTHS] + [DESCRIPTIVE]
    return order.index(strength)


def _prose(text: str) -> list[str]:
    """The paragraphs of a section: code blocks, headings, tables and list markers aside."""
    paragraphs, current, in_code = [], [], False
    for line in [*text.splitlines(), ""]:
        if _FENCE.match(line):
            in_code = not in_code
        elif in_code or _ATX.match(line) or _NOT_PROSE.match(line):
            continue
        elif line.strip():
            current.append(_LIST_MARK.sub("", line.strip()))
            continue
        if current:
            paragraphs.append(" ".join(current))
            current = []
    return paragraphs


def sentences(text: str) -> list[str]:
    flat = (" ".join(_MARKUP.sub(lambda m: m.group(1) or "", p).split()) for p in _prose(text))
    return [s.strip() for p in flat for s in _SENTENCE_END.split(p) if s.strip()]


def normative_sentence(text: str, context: str = "") -> tuple[str, str] | None:
    """(sentence, strength) of ``text``: strongest keyword, then most words shared with
    ``context``, then first."""
    found = sentences(text)
    if not found:
        return None
    words = set(_WORD.findall(context.lower()))
    best = min(enumerate(found), key=lambda item: (
        _rank(_strength(item[1])), -len(words & set(_WORD.findall(item[1].lower()))), item[0]))[1]
    cut = best if len(best) <= MAX_SENTENCE else best[:MAX_SENTENCE - 3] + "..."
    return cut, _strength(best)


def quote(folder: Path | None, references: tuple[str, ...], context: str = "") -> Quote | None:
    """The strongest normative sentence among the sections ``references`` cite."""
    if folder is None:
        return None
    found = []
    for reference in references:
        text = section_text(folder, reference)
        picked = normative_sentence(text, context) if text else None
        if picked:
            found.append(Quote(reference, *picked))
    return min(found, key=lambda q: _rank(q.strength)) if found else None
