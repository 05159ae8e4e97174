"""Which sections of today's specification texts the case catalogue cites, and which none does.

The sections are the headings of docs/spec-sections.json (docs/citations.md, 'The index of
spec sections'); a case cites a section with an entry of its ``spec`` references
(docs/citations.md, 'Entries'), the innermost heading of the entry being the one cited.

What is counted:

* Today's texts are those the index took from the current Parquet and ORC folders
  (``parquet-format-current``, ``orc-format-current``), but for :data:`NOT_COUNTED`: the
  Parquet release history and ORC's file version 0.11, superseded by ORCv1.md.
* ORCv2.md, a draft no released writer follows, counts only with the sections the project
  cites somewhere (a case, or a citation in the code): :data:`CITED_ONLY`.
* In parquet.thrift and orc_proto.proto a section is a declaration (``struct PageHeader``,
  ``enum Type.Kind``); a citation of a member (``PageHeader.crc``) cites its declaration.
* A few headings of README.md are the repository's housekeeping (building, licence), with
  no rule a file can follow or break: :data:`HOUSEKEEPING`, listed apart, not counted.
* The older printed web page (``parquet-format-docs.txt``) is not today's text, but its
  sections are today's Parquet sections under the same heading: a case's reference to it
  counts for the one section of today's Parquet Markdown texts with the heading it names,
  where exactly one has it (:class:`OlderReferences` lists those carried and those not).

Each counted section is ``covered`` (a case cites it), ``covered through subsections`` (no
case cites it, but one cites a heading inside it: a container, such as ORCv1.md's
'Indexes' over 'Bloom Filter Index') or ``uncovered``. Each also says whether the
reference implementation (``reference_impl/``) cites it: an uncovered section the reference
follows is one a case could exercise next.
"""

from __future__ import annotations

import dataclasses
import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from conformance.specs import citations
from conformance.specs.citations import Citation, Heading, Index

__all__ = ["CITED_ONLY", "COVERED", "HOUSEKEEPING", "NOT_COUNTED", "OLDER_TEXT", "THROUGH_SUBSECTIONS",
           "UNCOVERED", "Coverage", "OlderReferences", "Section", "TextCoverage", "Text",
           "catalogue_references", "code_citations", "compute", "spec_coverage", "today_texts"]

COVERED, THROUGH_SUBSECTIONS, UNCOVERED = "covered", "covered through subsections", "uncovered"
TODAY_FOLDERS = {"parquet-format-current": "parquet", "orc-format-current": "orc"}
NOT_COUNTED = {
    "CHANGES.md": "the release history of parquet-format, not a rule",
    "ORCv0.md": "file version 0.11, superseded by ORCv1.md (docs/orc.md)",
}
CITED_ONLY = {"ORCv2.md": "a draft of a future version: only the sections the project cites count"}
OLDER_TEXT = "parquet-format-docs.txt"
HOUSEKEEPING = frozenset({("README.md", title) for title in (
    "Modules", "Building", "Contributing", "Code of Conduct", "License")})
REFERENCE_IMPL = "reference_impl/"


@dataclass(frozen=True)
class Text:
    """One specification text counted: its file name, format and whether only cited sections count."""
    name: str
    format: str
    cited_only: bool = False


@dataclass(frozen=True)
class Section:
    spec: str
    title: str
    level: int
    parent: str | None  # the enclosing heading's title where the text repeats this title
    cases: tuple[str, ...]  # the cases citing it, in catalogue order
    state: str  # COVERED, THROUGH_SUBSECTIONS or UNCOVERED
    in_reference: bool  # reference_impl/ cites it

    @property
    def name(self) -> str:
        """The title, after its parent's when the text has the title more than once."""
        return self.title if self.parent is None else f"{self.parent}, {self.title}"

    def to_json(self) -> dict:
        return {"title": self.title, "name": self.name, "level": self.level, "state": self.state,
                "cases": list(self.cases), "in_reference": self.in_reference}


@dataclass(frozen=True)
class TextCoverage:
    text: Text
    sections: tuple[Section, ...]
    housekeeping: tuple[str, ...] = ()

    def count(self, state: str) -> int:
        return sum(s.state == state for s in self.sections)

    @property
    def total(self) -> int:
        return len(self.sections)

    @property
    def uncovered(self) -> list[Section]:
        return [s for s in self.sections if s.state == UNCOVERED]

    def to_json(self) -> dict:
        return {"spec": self.text.name, "format": self.text.format, "cited_only": self.text.cited_only,
                "total": self.total, "covered": self.count(COVERED),
                "through_subsections": self.count(THROUGH_SUBSECTIONS),
                "uncovered": self.count(UNCOVERED), "housekeeping": list(self.housekeeping),
                "sections": [s.to_json() for s in self.sections]}


@dataclass(frozen=True)
class OlderReferences:
    """The catalogue's references to the older printed page and where each went."""
    carried: Mapping[str, str]  # reference -> "SPEC: section" of today's text it counts for
    not_carried: tuple[str, ...]

    def to_json(self) -> dict:
        return {"text": OLDER_TEXT, "carried": dict(self.carried), "not_carried": list(self.not_carried)}


@dataclass(frozen=True)
class Coverage:
    texts: tuple[TextCoverage, ...]
    older: OlderReferences

    def of_format(self, fmt: str | None) -> Coverage:
        """Only the texts of ``fmt`` (all with None); the older page's references are Parquet's."""
        if fmt is None:
            return self
        older = self.older if fmt == "parquet" else OlderReferences({}, ())
        return Coverage(tuple(t for t in self.texts if t.text.format == fmt), older)

    def to_json(self) -> dict:
        return {"texts": [t.to_json() for t in self.texts], "older_text": self.older.to_json(),
                "not_counted": {**NOT_COUNTED, OLDER_TEXT: "an older text; see older_text"}}


# -- what counts ---------------------------------------------------------------------------------

def today_texts(root: Path = citations.REPOSITORY) -> list[Text]:
    """The counted texts of docs/spec-sections.json, in its order."""
    specs = json.loads((root / citations.INDEX).read_text(encoding="utf-8"))["specs"]
    return [Text(name, TODAY_FOLDERS[spec["source"].split("/")[0]], name in CITED_ONLY)
            for name, spec in specs.items()
            if spec["source"].split("/")[0] in TODAY_FOLDERS and name not in NOT_COUNTED]


def _declarations_only(spec: str) -> bool:
    return spec.endswith(citations.DECLARATION_SPECS)


class _Outline:
    """One text's headings as a tree: which heading encloses which, and what a section is."""

    def __init__(self, spec: str, headings: list[Heading]) -> None:
        self.spec, self.headings = spec, headings
        self.parents: list[int | None] = []
        stack: list[int] = []
        for i, heading in enumerate(headings):
            while stack and headings[stack[-1]].level >= heading.level:
                stack.pop()
            self.parents.append(stack[-1] if stack else None)
            stack.append(i)
        titles = [h.title for h in headings]
        self.repeated = {t for t in titles if titles.count(t) > 1}

    def section_of(self, position: int) -> int:
        """The section a heading belongs to: itself, or a member's declaration."""
        parent = self.parents[position]
        if _declarations_only(self.spec) and not citations.is_declaration(self.headings[position]) \
                and parent is not None:
            return parent
        return position

    def sections(self) -> list[int]:
        return sorted({self.section_of(i) for i in range(len(self.headings))})

    def ancestors(self, position: int) -> list[int]:
        out, parent = [], self.parents[position]
        while parent is not None:
            out.append(parent)
            parent = self.parents[parent]
        return out

    def parent_title(self, position: int) -> str | None:
        """The enclosing heading's title where the text repeats this one's (None elsewhere)."""
        parent = self.parents[position]
        if parent is None or self.headings[position].title not in self.repeated:
            return None
        return self.headings[parent].title


# -- who cites what ------------------------------------------------------------------------------

def _named(index: Index, citation: Citation) -> list[int]:
    """The headings a citation names: an entry its innermost one, prose each section it lists."""
    if citation.nested:
        return citations.resolved(index, citation)
    return [i for section in citation.sections
            for i in citations.resolved(index, dataclasses.replace(citation, sections=(section,)))]


def catalogue_references() -> list[tuple[str, str]]:
    """(case id, reference) of every ``spec`` reference of the catalogue, in catalogue order."""
    from conformance.cases import all_cases  # the catalogue is only built when asked for

    return [(case.id, reference) for case in all_cases() for reference in case.spec]


def code_citations(root: Path = citations.REPOSITORY) -> list[tuple[str, Citation]]:
    """(file, citation) of every spec citation in the scanned Python files."""
    index = citations.load_index(root)
    pattern = citations.spec_pattern(index)
    return [(file, citation) for file, source in citations.sources(root) if pattern.search(source)
            for piece in citations.pieces(source)
            for citation in citations.citations_in(piece, index, pattern)]


def _cited(index: Index, texts: dict[str, Text], references: Iterable[tuple[str, str]]
           ) -> tuple[dict[tuple[str, int], list[str]], OlderReferences]:
    """Which cases cite each (spec, heading position), the older page's references carried."""
    cases: dict[tuple[str, int], list[str]] = defaultdict(list)
    carried: dict[str, str] = {}
    not_carried: list[str] = []
    named: dict[str, list[tuple[str, int]]] = {}  # per distinct reference: cases share them
    for case_id, reference in references:
        if reference not in named:
            named[reference] = _sections_named(index, texts, reference)
            if reference.startswith(f"{OLDER_TEXT}:"):
                if named[reference]:
                    spec, position = named[reference][0]
                    carried[reference] = f"{spec}: {index[spec][position].title}"
                else:
                    not_carried.append(reference)
        for key in named[reference]:
            if case_id not in cases[key]:
                cases[key].append(case_id)
    return cases, OlderReferences(carried, tuple(sorted(set(not_carried))))


def _sections_named(index: Index, texts: dict[str, Text], reference: str) -> list[tuple[str, int]]:
    """The (spec, heading position) of counted texts a case's reference names."""
    citation = citations.entry_citation(reference, 0, index)
    if citation is None:
        return []
    if citation.spec == OLDER_TEXT:
        target = _carried(index, texts, citation)
        return [] if target is None else [target]
    if citation.spec in texts:
        return [(citation.spec, i) for i in _named(index, citation)]
    return []


def _carried(index: Index, texts: dict[str, Text], citation: Citation) -> tuple[str, int] | None:
    """The one heading of today's Parquet Markdown texts (those the older page was printed
    from) named like the older reference's innermost one."""
    innermost = citation.sections[-1]
    found = [(spec, i) for spec, text in texts.items()
             if text.format == "parquet" and not _declarations_only(spec)
             for i in citations.resolved(index, Citation(0, spec, (innermost,), False))]
    return found[0] if len(found) == 1 else None


# -- the figures ---------------------------------------------------------------------------------

def compute(index: Index, texts: Iterable[Text], references: Iterable[tuple[str, str]],
            code: Iterable[tuple[str, Citation]] = ()) -> Coverage:
    """The coverage of ``texts`` by the ``references`` (case id, "SPEC: Section"), with the
    citations of the code (file, citation) for the cited-only texts and ``in_reference``."""
    by_name = {t.name: t for t in texts}
    cases, older = _cited(index, by_name, references)
    in_code: dict[str, set[tuple[str, int]]] = defaultdict(set)
    for file, citation in code:
        if citation.spec in by_name:
            in_code[file].update((citation.spec, i) for i in _named(index, citation))
    everywhere = set().union(*in_code.values()) | set(cases)
    in_reference = set().union(*(v for k, v in in_code.items() if k.startswith(REFERENCE_IMPL)))
    return Coverage(tuple(_text_coverage(_Outline(t.name, index[t.name]), t, cases, everywhere, in_reference)
                          for t in by_name.values()), older)


def _text_coverage(outline: _Outline, text: Text, cases: Mapping[tuple[str, int], list[str]],
                   cited_anywhere: set[tuple[str, int]], in_reference: set[tuple[str, int]]) -> TextCoverage:
    citing: dict[int, list[str]] = defaultdict(list)
    for (spec, position), ids in cases.items():
        if spec == text.name:
            section = citing[outline.section_of(position)]
            section.extend(i for i in ids if i not in section)
    positions = [p for p in outline.sections() if not text.cited_only or (text.name, p) in cited_anywhere]
    housekeeping = [p for p in positions if (text.name, outline.headings[p].title) in HOUSEKEEPING]
    counted = [p for p in positions if p not in housekeeping]
    containers = {a for p in counted if citing[p] for a in outline.ancestors(p)}
    referenced = {outline.section_of(i) for spec, i in in_reference if spec == text.name}
    return TextCoverage(text, tuple(
        Section(text.name, outline.headings[p].title, outline.headings[p].level, outline.parent_title(p),
                tuple(citing[p]),
                COVERED if citing[p] else THROUGH_SUBSECTIONS if p in containers else UNCOVERED,
                p in referenced)
        for p in counted), tuple(outline.headings[p].title for p in housekeeping))


def spec_coverage(root: Path = citations.REPOSITORY) -> Coverage:
    """The coverage of today's texts by the case catalogue."""
    return compute(citations.load_index(root), today_texts(root), catalogue_references(),
                   code_citations(root))
