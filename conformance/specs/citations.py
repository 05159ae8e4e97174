"""Every specification citation in the code names a section that exists.

The forms (docs/citations.md describes them for the people who write them)
are read from the comments and string literals of Python files:

* prose: a spec file name, then one or more section names, each in quotes
  (single, double or backticks), separated by commas, "and", "or" or a slash;
  after ``parquet.thrift`` or ``orc_proto.proto`` a declared name may also
  stand unquoted. A colon ends the list: what follows it is a quotation.
* entry: a string literal that is a whole reference, ``SPEC: Section[,
  Sub-section]``, as the case catalogue writes them; each part must sit inside
  the one before it.

The spec sections come from docs/spec-sections.json; the repository's own
documents (``docs/architecture.md, 'Bad input'``) are cited the same way and
read from docs/. A bare ``*.md`` name must be one of those; a document of
another project is named with its path and not checked.

Usage: ``python -m conformance.specs.citations [ROOT]`` prints each problem as
``file:line: message`` and exits 1 if there is one.
"""

from __future__ import annotations

import ast
import difflib
import functools
import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from conformance.specs.headings import markdown_headings

REPOSITORY = Path(__file__).resolve().parents[2]
DOCS = "docs"
INDEX = f"{DOCS}/spec-sections.json"
SCANNED = ("conformance", "reference_impl", "tests")
OUTPUT_DOCUMENTS = ("REPORT.md",)  # a file the harness writes, named as such
DECLARATION_SPECS = (".thrift", ".proto")  # specs whose sections are declared names
FILE_SUFFIXES = (".md", ".txt", ".py") + DECLARATION_SPECS
MAX_SECTION = 150  # characters; a longer "section" is a quotation gone astray

_QUOTED = (r"``(?P<q1>[^`]+?)``|`(?P<q2>[^`]+?)`"
           rf"|'(?P<q3>[^']{{1,{MAX_SECTION}}}?)'|\"(?P<q4>[^\"]{{1,{MAX_SECTION}}}?)\"")
_BARE = r"(?P<bare>(?:(?:struct|union|enum|message)\s+)?[A-Z]\w*(?:\.\w+)*)\b"
_FIRST_SEPARATOR = r",?\s+"
_NEXT_SEPARATOR = r"\s*,\s*|\s+and\s+|\s+or\s+|\s*/\s*"
_SEPARATORS = (_FIRST_SEPARATOR, _NEXT_SEPARATOR)
_QUOTED_ITEMS = tuple(re.compile(rf"(?:{sep})(?:{_QUOTED})(?P<bare>)?") for sep in _SEPARATORS)
_DECLARED_ITEMS = tuple(re.compile(rf"(?:{sep})(?:{_QUOTED}|{_BARE})") for sep in _SEPARATORS)
_DOCUMENT = re.compile(rf"(?<![\w/.-])(?P<prefix>{DOCS}/)?(?P<name>[\w.-]+\.md)\b")
_NUMBER = re.compile(r"^(\d+(?:\.\d+)*)\.?(?: -)? ")
_REMARK = re.compile(r"\s*\([^()]*\)$")
_KEYWORD = re.compile(r"^(?:struct|union|enum|message|exception|service) ")
_SPACES = re.compile(r"\s+")
_TYPOGRAPHIC = str.maketrans({"\u2019": "'", "\u201c": '"', "\u201d": '"', "`": None, ":": None})
# The comments and string literals of Python source, in order (whichever starts first
# wins, so a "#" inside a string and a quote inside a comment are taken as such).
_LEXEME = re.compile(r"""
    (?P<comment>\#[^\n]*)
  | (?P<string>(?<!\w)(?P<prefix>[rRbBuUfF]{0,2})
      (?: "{3}[\s\S]*?"{3} | '{3}[\s\S]*?'{3} | "(?:\\.|[^"\\\n])*" | '(?:\\.|[^'\\\n])*' ))
""", re.VERBOSE)


@dataclass(frozen=True)
class Heading:
    level: int
    title: str


@dataclass(frozen=True)
class Citation:
    line: int
    spec: str
    sections: tuple[str, ...]
    nested: bool  # an entry: each section sits inside the one before it


@dataclass(frozen=True)
class Problem:
    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


@dataclass(frozen=True)
class Prose:
    """A comment block or a string literal, with its first line."""
    text: str
    line: int
    whole_string: bool  # one complete plain string literal: an entry may be one


Index = dict[str, list[Heading]]


def load_index(root: Path = REPOSITORY) -> Index:
    """The spec sections of docs/spec-sections.json and the headings of docs/*.md."""
    specs = json.loads((root / INDEX).read_text(encoding="utf-8"))["specs"]
    index = {name: [Heading(len(h) - len(h.lstrip("#")), h.lstrip("#").strip()) for h in spec["headings"]]
             for name, spec in specs.items()}
    for page in sorted((root / DOCS).glob("*.md")):
        index[f"{DOCS}/{page.name}"] = [Heading(level, title) for level, title in
                                        markdown_headings(page.read_text(encoding="utf-8"))]
    return index


# -- resolving ---------------------------------------------------------------------------------

def _normal(text: str) -> str:
    """Case, spacing, code marks, typographic quotes and colons aside."""
    return _SPACES.sub(" ", text.translate(_TYPOGRAPHIC)).strip().strip(".").lower()


@functools.cache
def _names(heading: Heading) -> frozenset[str]:
    """Everything a citation may call this heading by."""
    title = _normal(heading.title)
    names = {title, _REMARK.sub("", title)}
    if number := _NUMBER.match(title):
        names |= {number.group(1), title[number.end():]}
    if keyword := _KEYWORD.match(title):
        names.add(title[keyword.end():])
    elif "." in title and " " not in title:
        names.add(title.rsplit(".", 1)[1])
    return frozenset(names)


def _matches(headings: list[Heading], section: str) -> list[int]:
    """The headings ``section`` names; its trailing parenthesis is a remark only where the
    heading has none of its own (``enum Type (INT96, deprecated)``)."""
    exact, without_remark = _normal(section), _normal(_REMARK.sub("", section))
    return [i for i, heading in enumerate(headings) if exact in _names(heading)
            or (not _REMARK.search(heading.title) and without_remark in _names(heading))]


def _inside(headings: list[Heading], parent: int, child: int) -> bool:
    level = headings[parent].level
    return child > parent and all(h.level > level for h in headings[parent + 1:child + 1])


def _hint(headings: list[Heading], section: str) -> str:
    close = difflib.get_close_matches(section, [h.title for h in headings], n=1, cutoff=0)
    return f"; closest: '{close[0]}'" if close else ""


def _resolution(index: Index, citation: Citation) -> tuple[list[int], str | None, bool]:
    """The headings the citation's last section names; where it does not resolve, the
    section that fails and whether it fails for not being inside the one before it."""
    headings = index[citation.spec]
    parents: list[int] = []
    for section in citation.sections:
        found = _matches(headings, section)
        if not found:
            return [], section, False
        if citation.nested and parents:
            found = [c for c in found if any(_inside(headings, p, c) for p in parents)]
            if not found:
                return [], section, True
        parents = found
    return parents, None, False


def unresolved(index: Index, citation: Citation) -> str | None:
    """Why the citation does not resolve, or None when it does."""
    _, section, misplaced = _resolution(index, citation)
    if section is None:
        return None
    if misplaced:
        return f"{citation.spec}: '{section}' is not inside '{citation.sections[0]}'"
    return f"{citation.spec} has no section '{section}'{_hint(index[citation.spec], section)}"


def resolved(index: Index, citation: Citation) -> list[int]:
    """The positions in ``index[citation.spec]`` of the headings the citation's last section
    names (an entry's innermost one); empty when it does not resolve."""
    return _resolution(index, citation)[0]


def is_declaration(heading: Heading) -> bool:
    """A declaration of parquet.thrift or orc_proto.proto (``struct PageHeader``), not a member."""
    return bool(_KEYWORD.match(heading.title))


# -- finding citations -------------------------------------------------------------------------

def spec_pattern(index: Index) -> re.Pattern[str]:
    names = "|".join(re.escape(s) for s in sorted(index, key=len, reverse=True))
    return re.compile(rf"(?<![\w/.-])(?P<spec>{names})(?![\w-])")


def _section(match: re.Match[str]) -> str | None:
    """The section a match names; None for a bare word that is a file name."""
    if match.group("bare") and match.group("bare").endswith(FILE_SUFFIXES):
        return None
    return next(v for v in match.groupdict().values() if v is not None)


def _prose_sections(text: str, start: int, spec: str) -> list[str]:
    """The sections named right after a spec name that ends at ``start``."""
    patterns = _DECLARED_ITEMS if spec.endswith(DECLARATION_SPECS) else _QUOTED_ITEMS
    sections: list[str] = []
    while (match := patterns[bool(sections)].match(text, start)) and (section := _section(match)):
        sections.append(section)
        start = match.end()
    return sections


def _line_at(text: str, offset: int, first_line: int) -> int:
    return first_line + text.count("\n", 0, offset)


def prose_citations(text: str, first_line: int, pattern: re.Pattern[str]) -> Iterator[Citation]:
    for match in pattern.finditer(text):
        if sections := _prose_sections(text, match.end(), match.group("spec")):
            yield Citation(_line_at(text, match.start(), first_line), match.group("spec"),
                           tuple(sections), nested=False)


def _top_level_parts(text: str) -> list[str]:
    """``text`` split at the commas outside parentheses."""
    parts, depth, current = [], 0, ""
    for char in text:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += char
    return parts + [current.strip()]


def entry_citation(text: str, line: int, index: Index) -> Citation | None:
    """A string literal that is a whole reference: ``"SPEC: Section, Sub-section"``."""
    spec, colon, rest = text.partition(": ")
    if not colon or spec not in index or spec.startswith(DOCS) or not rest.strip() or "\n" in rest \
            or "{" in rest:
        return None  # not an entry, or a template filled in at run time
    return Citation(line, spec, _rejoined(_top_level_parts(rest), index[spec]), nested=True)


def _rejoined(parts: list[str], headings: list[Heading]) -> tuple[str, ...]:
    """``parts`` with neighbours joined again where a heading has commas of its own
    (ORCv1.md's 'Integer Run Length Encoding, version 2'), the longest join first."""
    titles = {name for heading in headings for name in _names(heading)}
    sections, start = [], 0
    while start < len(parts):
        end = next(end for end in range(len(parts), start, -1)
                   if end == start + 1 or _normal(", ".join(parts[start:end])) in titles)
        sections.append(", ".join(parts[start:end]))
        start = end
    return tuple(sections)


def _string(match: re.Match[str], line: int) -> Prose | None:
    """A string literal's text (an f-string's as written); None for bytes."""
    prefix = match.group("prefix").lower()
    if "b" in prefix:
        return None
    if "f" in prefix:
        return Prose(match.group("string")[len(prefix):], line, False)
    return Prose(ast.literal_eval(match.group("string")), line, True)


def pieces(source: str) -> Iterator[Prose]:
    """String literals, and comment lines with consecutive ones joined (a citation may run over two)."""
    block: list[str] = []
    first = last = line = position = 0
    for match in _LEXEME.finditer(source):
        line += source.count("\n", position, match.start())
        position = match.start()
        if match.group("comment") is None:
            if piece := _string(match, line + 1):
                yield piece
            continue
        if block and line != last + 1:
            yield Prose("\n".join(block), first + 1, False)
            block = []
        first = first if block else line
        block.append(match.group("comment").lstrip("#").strip())
        last = line
    if block:
        yield Prose("\n".join(block), first + 1, False)


def _documents(piece: Prose, index: Index) -> Iterator[tuple[int, str]]:
    """Markdown files named that are neither a spec of the index nor a page of docs/."""
    if piece.whole_string and " " not in piece.text:
        return  # a file name the code uses, not a citation
    for match in _DOCUMENT.finditer(piece.text):
        name, line = match.group("name"), _line_at(piece.text, match.start(), piece.line)
        if match.group("prefix") and f"{DOCS}/{name}" not in index:
            yield line, f"{DOCS}/{name} is not in the repository"
        elif not match.group("prefix") and name not in index and name not in OUTPUT_DOCUMENTS:
            yield line, f"{name} is neither a spec of {INDEX} nor a page of {DOCS}/ " \
                        "(a document elsewhere is named by its path)"


# -- checking ----------------------------------------------------------------------------------

def citations_in(piece: Prose, index: Index, pattern: re.Pattern[str]) -> list[Citation]:
    entry = entry_citation(piece.text, piece.line, index) if piece.whole_string else None
    return [entry] if entry else list(prose_citations(piece.text, piece.line, pattern))


def check_source(source: str, file: str, index: Index, pattern: re.Pattern[str]) -> list[Problem]:
    if not pattern.search(source) and not _DOCUMENT.search(source):
        return []  # most files cite nothing
    problems = set()
    for piece in pieces(source):
        problems |= {Problem(file, c.line, why) for c in citations_in(piece, index, pattern)
                     if (why := unresolved(index, c))}
        problems |= {Problem(file, line, why) for line, why in _documents(piece, index)}
    return sorted(problems, key=lambda p: (p.line, p.message))


def sources(root: Path = REPOSITORY) -> Iterator[tuple[str, str]]:
    """(path relative to root, text) of every Python file of the scanned folders."""
    for folder in SCANNED:
        for path in sorted((root / folder).rglob("*.py")):
            yield path.relative_to(root).as_posix(), path.read_text(encoding="utf-8")


def check_tree(root: Path = REPOSITORY) -> list[Problem]:
    index = load_index(root)
    pattern = spec_pattern(index)
    return [p for file, source in sources(root) for p in check_source(source, file, index, pattern)]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    problems = check_tree(Path(args[0]) if args else REPOSITORY)
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
