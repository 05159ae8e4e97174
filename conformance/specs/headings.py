"""The section headings of each specification text, for docs/spec-sections.json.

Usage (the arguments are spec files or folders of them; where two hold a file of
the same name, the first one given wins)::

    python -m conformance.specs.headings SPEC/parquet-format-current \\
        SPEC/orc-format-current SPEC/parquet-format-docs.txt > docs/spec-sections.json

What counts as a heading depends on the kind of text:

* Markdown (``.md``): the ATX headings (``## Maps``) outside fenced code, with
  links, HTML tags and backticks reduced to their text.
* Interface definitions (``.thrift``, ``.proto``): every declaration
  (``struct Statistics``, ``enum Type``, ``message Type``, nested ones as
  ``enum Type.Kind``) and every member, by its dotted name (``PageHeader.crc``,
  ``Type.INT96``).
* Plain text (``.txt``, a printed web page): a short line between blank lines
  that does not end like a sentence. The page's chapter numbers (``3.7.2 -
  Encodings``) give the nesting; the numbered headings inside a chapter
  (``4.3 Key metadata``) and unnumbered ones sit below it.

Each heading is written as Markdown writes it, its level as that many ``#``.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from collections.abc import Iterable
from pathlib import Path

SPEC_SUFFIXES = (".md", ".thrift", ".proto", ".txt")
NOT_SPECIFICATIONS = ("SOURCE.md",)  # a folder's provenance note, not spec text

_FENCE = re.compile(r"^\s*(```|~~~)")
_ATX = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_TAG = re.compile(r"<[^>]+>")

_BLOCK_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
_LINE_COMMENT = re.compile(r"//[^\n]*")
_DECLARATION = re.compile(r"\b(struct|union|enum|message|exception|service)\s+(\w+)\s*\{")
_THRIFT_FIELD = re.compile(  # "1: optional list<Encoding> encodings = [];"
    r"^\s*-?\d+\s*:\s*(?:required|optional)?\s*[\w.<>, ]+?\s(\w+)\s*(?:=[^;,]*)?[;,]?\s*$")
_PROTO_FIELD = re.compile(r"^\s*(?:optional|required|repeated)?\s*[\w.]+\s+(\w+)\s*=\s*\d+")
_ENUM_MEMBER = re.compile(r"^\s*(\w+)\s*(?:=\s*-?\w+)?\s*[;,]?\s*$")

MAX_TEXT_HEADING = 80
SENTENCE_ENDINGS = ".,;:!?"
CHAPTER = re.compile(r"^(\d+(?:\.\d+)*) - \S")  # the web page's own chapters
NUMBERED = re.compile(r"^(\d+(?:\.\d+)*)\.? \S")  # numbered sections inside a chapter
INNER_LEVEL = 4  # below the deepest chapter level of the page
UNNUMBERED_LEVEL = 9


def _clean(title: str) -> str:
    """A heading's words: links, tags and code marks reduced to their text."""
    title = _TAG.sub("", _LINK.sub(r"\1", title)).replace("`", "")
    return " ".join(title.split())


def markdown_headings(text: str) -> list[tuple[int, str]]:
    headings, in_code = [], False
    for line in text.splitlines():
        if _FENCE.match(line):
            in_code = not in_code
        elif not in_code and (match := _ATX.match(line)):
            headings.append((len(match.group(1)), _clean(match.group(2))))
    return headings


def _members(body: str, kind: str) -> Iterable[str]:
    """The names a declaration's own lines declare (nested blocks excluded)."""
    pattern = {"enum": _ENUM_MEMBER, "message": _PROTO_FIELD}.get(kind, _THRIFT_FIELD)
    for line in body.splitlines():
        if (match := pattern.match(line)) and match.group(1) not in ("option", "reserved"):
            yield match.group(1)


def _own_body(text: str, start: int) -> tuple[str, int]:
    """The text of the block opening before ``start`` without its nested blocks, and its end."""
    depth, own, position = 1, [], start
    while depth and position < len(text):
        char = text[position]
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth == 1 and char != "}":
            own.append(char)
        position += 1
    return "".join(own), position


def declared_names(text: str) -> list[tuple[int, str]]:
    """Declarations and members of a Thrift or protobuf file, in order."""
    text = _LINE_COMMENT.sub("", _BLOCK_COMMENT.sub("", text))
    headings: list[tuple[int, str]] = []
    scopes: list[tuple[str, int]] = []  # (dotted name, end offset)
    for match in _DECLARATION.finditer(text):
        while scopes and scopes[-1][1] <= match.start():
            scopes.pop()
        kind = match.group(1)
        name = ".".join([scope for scope, _ in scopes] + [match.group(2)])
        body, end = _own_body(text, match.end())
        headings.append((len(scopes) + 1, f"{kind} {name}"))
        headings.extend((len(scopes) + 2, f"{name}.{member}") for member in _members(body, kind))
        scopes.append((name, end))
    return headings


def _text_level(line: str) -> int:
    if match := CHAPTER.match(line):
        return match.group(1).count(".") + 1
    if match := NUMBERED.match(line):
        return INNER_LEVEL + match.group(1).count(".") + 1
    return UNNUMBERED_LEVEL


def _looks_like_heading(line: str) -> bool:
    return (0 < len(line) <= MAX_TEXT_HEADING and line[0].isupper() or line[:1].isdigit()) \
        and line[-1] not in SENTENCE_ENDINGS and any(c.isalpha() for c in line)


def text_headings(text: str) -> list[tuple[int, str]]:
    lines = [line.strip() for line in text.splitlines()]
    return [(_text_level(line), " ".join(line.split())) for before, line, after in zip(
        [""] + lines[:-1], lines, lines[1:] + [""], strict=True)
        if not before and not after and _looks_like_heading(line)]


def headings_of(path: Path) -> list[tuple[int, str]]:
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".md":
        return markdown_headings(text)
    if path.suffix in (".thrift", ".proto"):
        return declared_names(text)
    return text_headings(text)


def _spec_files(argument: Path) -> list[Path]:
    if argument.is_file():
        return [argument]
    return sorted(p for p in argument.iterdir()
                  if p.suffix in SPEC_SUFFIXES and p.name not in NOT_SPECIFICATIONS)


def build_index(arguments: list[Path]) -> dict:
    specs: dict[str, dict] = {}
    for argument in arguments:
        for path in _spec_files(argument):
            if path.name not in specs:
                specs[path.name] = {
                    "source": path.relative_to(argument.parent).as_posix(),
                    "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
                    "headings": ["#" * level + " " + title for level, title in headings_of(path)],
                }
    return {"generated_by": "python -m conformance.specs.headings " + " ".join(
        "SPEC/" + a.name for a in arguments), "specs": specs}


def main(argv: list[str] | None = None) -> int:
    arguments = [Path(a) for a in (sys.argv[1:] if argv is None else argv)]
    if not arguments:
        print(__doc__, file=sys.stderr)
        return 2
    json.dump(build_index(arguments), sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
