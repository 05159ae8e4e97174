"""The normative sentence of a cited section: what a finding quotes as the rule it breaks.

A reference as the catalogue writes it (docs/citations.md, 'Entries': ``"LogicalTypes.md:
Lists, Backward-compatibility rules"``) names a section of a specification text; this
module finds that section's text and picks its normative sentence. The repository does
not hold the texts (docs/spec-sections.json indexes their headings), so the candidate
sentences of every section the catalogue and the bad-file corpus cite are kept in
docs/spec-sentences.json, generated from a folder of the texts::

    python -m conformance.specs.sentences SPEC/parquet-format-current \
        SPEC/orc-format-current > docs/spec-sentences.json

and ``quote`` reads that index, or the texts themselves when a folder is given (``--spec
DIR`` or ``$CONFORMANCE_SPEC_DIR``: a reference the index lacks). A section's candidates
are its sentences with a requirement keyword (RFC 2119, as the Parquet and ORC texts
write them, in capitals or not: MUST / MUST NOT / REQUIRED / SHALL, then SHOULD /
RECOMMENDED, then MAY / OPTIONAL), or its first sentence, strength ``descriptive``, when
none has one. Among the candidates of the sections a case cites, the one sharing most
words with the finding (its kind of difference, case id and feature tags) is quoted,
then the strongest, then the first.

Sections: a Markdown heading's text up to the next heading of its level or above; a
declaration of ``parquet.thrift`` / ``orc_proto.proto`` its doc comment (the comment
just above it). The plain-text ``parquet-format-docs.txt`` is not read: its sections
are cited beside today's files.
"""

from __future__ import annotations

import functools
import json
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from .citations import Heading, _matches  # the resolution rules citations are checked by
from .headings import _ATX, _FENCE, _clean

SPEC_ENV = "CONFORMANCE_SPEC_DIR"
INDEX = Path(__file__).resolve().parents[2] / "docs" / "spec-sentences.json"
DESCRIPTIVE = "descriptive"
MAX_SENTENCE = 600  # characters quoted at most
STRENGTHS = (  # strongest first: (strength, keywords)
    ("MUST", ("MUST NOT", "MUST", "REQUIRED", "SHALL NOT", "SHALL")),
    ("SHOULD", ("SHOULD NOT", "SHOULD", "RECOMMENDED")),
    ("MAY", ("MAY", "OPTIONAL")),
)
# In lower case only these words require: "required" and "optional" describe more often.
LOWERCASE_KEYWORDS = ("MUST NOT", "MUST", "SHALL NOT", "SHALL", "SHOULD NOT", "SHOULD", "MAY")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z`\"'(*])")
_MARKUP = re.compile(r"[*_`]|\[([^\]]*)\]\([^)]*\)")
_NOT_PROSE = re.compile(r"^(\s{4}|\t|\s*\||\s*//|\s*<)")  # indented code, tables, comments, HTML
_LIST_MARK = re.compile(r"^([-*+]|\d+\.)\s+")
# Words that say nothing of which rule a finding breaks.
COMMON_WORDS = frozenset({"the", "and", "for", "with", "this", "that", "read", "reads", "value",
                          "values", "type", "types", "column", "columns", "data", "file", "files",
                          "must", "should", "may", "not", "are", "its", "than", "from",
                          "parquet", "orc", "supported", "support", "encoding", "encodings",
                          "invalid", "error", "exception", "differs", "changed"})
_WORD = re.compile(r"[a-z0-9]{3,}")
_DECLARATION = r"^\s*(?:struct|union|enum|message|exception)\s+{name}\b"
_PARTS = re.compile(r",\s*(?![^()]*\))")  # the commas between sections, not in a remark
_REMARK = re.compile(r"\s*\([^()]*\)$")
_COMMENT_END = re.compile(r"\*+/\s*$")
_BODY_END = re.compile(r"^}")
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
    """``folder/name``, else the first of that name below it."""
    if (folder / name).is_file():
        return folder / name
    found = sorted(folder.rglob(name))
    return found[0] if found else None


def _headings(lines: list[str]) -> list[tuple[int, Heading]]:
    """(line number, heading) of every Markdown heading outside code."""
    found, in_code = [], False
    for number, line in enumerate(lines):
        if _FENCE.match(line):
            in_code = not in_code
        elif not in_code and (match := _ATX.match(line)):
            found.append((number, Heading(len(match.group(1)), _clean(match.group(2)))))
    return found


def markdown_section(text: str, parts: list[str]) -> str | None:
    """The text under the heading ``parts`` name, each inside the one before (citations'
    rules; a heading may hold commas of its own), up to the next heading of its level or
    above."""
    lines = text.splitlines()
    headings = _headings(lines)
    lo, hi, at = 0, len(headings), -1
    if not parts:
        return None
    while parts:
        inside = headings[lo:hi]
        # The longest run of parts that names one heading: "SmallInt, Int, and BigInt Columns".
        for size in range(len(parts), 0, -1):
            found = _matches([h for _, h in inside], ", ".join(parts[:size]))
            if found:
                break
        else:
            return None
        at, parts = lo + found[0], parts[size:]
        level = headings[at][1].level
        lo = at + 1
        hi = next((i for i in range(lo, len(headings)) if headings[i][1].level <= level), len(headings))
    start = headings[at][0]
    end = headings[hi][0] if hi < len(headings) else len(lines)
    return "\n".join(lines[start + 1:end])


def _comment_text(line: str) -> str:
    return _COMMENT_END.sub("", _COMMENT_LINE.sub("", line)).strip()


def _comment_above(lines: list[str], at: int) -> str:
    comment: list[str] = []
    for line in reversed(lines[:at]):
        if not _COMMENT_LINE.match(line):
            break
        comment.insert(0, _comment_text(line))
    return " ".join(c for c in comment if c)


def _body_comments(lines: list[str], at: int) -> str:
    """The comments inside a declaration's body, one paragraph per block."""
    blocks, current = [], []
    for line in lines[at + 1:]:
        if _BODY_END.match(line):
            break
        if _COMMENT_LINE.match(line):
            current.append(_comment_text(line))
        elif current:
            blocks.append(" ".join(current))
            current = []
    return "\n\n".join(blocks + [" ".join(current)] * bool(current))


def declaration_comment(text: str, section: str) -> str | None:
    """The doc comment above the declaration ``section`` names (``struct Statistics``,
    ``enum Type (INT96, deprecated)``) or above one of its members (``PageHeader.crc``)."""
    name = _REMARK.sub("", section).split()[-1]
    declared, _, member = name.partition(".")
    lines = text.splitlines()
    pattern = re.compile(_DECLARATION.format(name=re.escape(declared)))
    at = next((n for n, line in enumerate(lines) if pattern.match(line)), None)
    if at is None:
        return None
    if member:
        field = re.compile(rf"\b{re.escape(member)}\b\s*(=|;|,|$)")
        at = next((n for n in range(at + 1, len(lines))
                   if field.search(lines[n]) and not _COMMENT_LINE.match(lines[n])), None)
        if at is None:
            return None
        return _comment_above(lines, at) or None
    return _comment_above(lines, at) or _body_comments(lines, at) or None


def section_text(folder: Path, reference: str) -> str | None:
    spec, _, sections = reference.partition(": ")
    path = _find(folder, spec)
    if path is None or not sections or path.suffix == ".txt":
        return None
    text = path.read_text(encoding="utf-8")
    parts = _PARTS.split(sections)
    if path.suffix in (".thrift", ".proto"):
        return declaration_comment(text, parts[-1])
    return markdown_section(text, parts)


def _strength(sentence: str) -> str:
    for strength, keywords in STRENGTHS:
        if any(re.search(rf"\b{k}\b", sentence) for k in keywords):
            return strength
    lowered = sentence.lower()
    for strength, keywords in STRENGTHS:
        if any(re.search(rf"\b{k.lower()}\b", lowered) for k in keywords if k in LOWERCASE_KEYWORDS):
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


def candidates(text: str) -> list[tuple[str, str]]:
    """(sentence, strength) of a section's sentences with a requirement keyword, or of its
    first sentence when none has one."""
    found = [(cut, _strength(cut)) for cut in map(_cut, sentences(text))]
    normative = [item for item in found if item[1] != DESCRIPTIVE]
    return normative or found[:1]


def _cut(sentence: str) -> str:
    return sentence if len(sentence) <= MAX_SENTENCE else sentence[:MAX_SENTENCE - 3] + "..."


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.lower())) - COMMON_WORDS


def _key(sentence: str, strength: str, words: set[str]) -> tuple[int, int]:
    """Most words shared with the finding first, then the strongest keyword."""
    return -len(words & _words(sentence)), _rank(strength)


def _best(found: list[tuple[str, str]], context: str) -> tuple[str, str] | None:
    """The sentence sharing most words with ``context``, then the strongest, then first."""
    words = _words(context)
    return min(found, key=lambda item: _key(item[0], item[1], words)) if found else None


def normative_sentence(text: str, context: str = "") -> tuple[str, str] | None:
    """(sentence, strength) of a section's ``text`` (module docstring)."""
    return _best(candidates(text), context)


@functools.cache
def _index() -> dict[str, list[tuple[str, str]]]:
    if not INDEX.is_file():
        return {}
    sections = json.loads(INDEX.read_text(encoding="utf-8"))["sections"]
    return {ref: [tuple(item) for item in found] for ref, found in sections.items()}


def _section_candidates(folder: Path | None, reference: str) -> list[tuple[str, str]]:
    found = _section_candidates_in(folder, reference) if folder is not None else []
    return found or _index().get(reference, [])


def quote(folder: Path | None, references: tuple[str, ...], context: str = "") -> Quote | None:
    """The sentence of the sections ``references`` cite that shares most words with
    ``context`` (the finding; the section's heading counts), then the strongest, then the
    first cited; read from the texts in ``folder``, else from docs/spec-sentences.json."""
    words = _words(context)
    found = [Quote(reference, sentence, strength) for reference in references
             for sentence, strength in _section_candidates(folder, reference)]
    return min(found, key=lambda q: _key(f"{q.reference} {q.sentence}", q.strength, words)) if found else None


def cited_references() -> list[str]:
    """Every reference of the case catalogue and the bad-file corpus."""
    from conformance.cases import all_cases  # imported here: the catalogue is heavy
    from conformance.golden.bad_corpus import bad_files

    return sorted({ref for case in all_cases() for ref in case.spec}
                  | {ref for entry in bad_files() for ref in entry.spec})


def build_index(folders: list[Path]) -> dict:
    """{"sections": {reference: [[sentence, strength], ...]}} for every cited reference
    found in one of ``folders`` (the first that has it)."""
    sections = {}
    for reference in cited_references():
        found = next((c for f in folders if (c := _section_candidates_in(f, reference))), [])
        if found:
            sections[reference] = [list(item) for item in found]
    return {"generated_by": "python -m conformance.specs.sentences SPEC/parquet-format-current "
                            "SPEC/orc-format-current", "sections": sections}


def _section_candidates_in(folder: Path, reference: str) -> list[tuple[str, str]]:
    text = section_text(folder, reference)
    return candidates(text) if text else []


def main(argv: list[str] | None = None) -> int:
    folders = [Path(a) for a in (sys.argv[1:] if argv is None else argv)]
    if not folders:
        print("usage: python -m conformance.specs.sentences SPEC_FOLDER...", file=sys.stderr)
        return 2
    print(json.dumps(build_index(folders), indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
