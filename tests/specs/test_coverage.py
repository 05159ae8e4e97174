"""Spec coverage (conformance.specs.coverage): which sections the catalogue's cases cite.

The small inputs use spec names of their own (``toy.txt``, ``toy.thrift``) so the citation
check, which reads this file too, does not take their entries for citations of real texts.
"""

from __future__ import annotations

from conformance.specs import citations
from conformance.specs.citations import Citation, Heading
from conformance.specs.coverage import (
    COVERED,
    NOT_COUNTED,
    OLDER_TEXT,
    THROUGH_SUBSECTIONS,
    UNCOVERED,
    Text,
    catalogue_references,
    compute,
    spec_coverage,
    today_texts,
)

TOY_TEXT = "toy.txt"
TOY_THRIFT = "toy.thrift"
INDEX = {
    TOY_TEXT: [Heading(1, "Top"), Heading(2, "Pages"), Heading(3, "Data Pages"), Heading(2, "Nulls"),
               Heading(2, "Lists"), Heading(3, "Rules"), Heading(2, "Maps"), Heading(3, "Rules")],
    TOY_THRIFT: [Heading(1, "struct Header"), Heading(2, "Header.crc"), Heading(1, "enum Kind"),
                 Heading(2, "Kind.A")],
    OLDER_TEXT: [Heading(1, "Data Pages")],
}
TEXTS = [Text(TOY_TEXT, "parquet"), Text(TOY_THRIFT, "parquet")]


def _states(coverage, spec: str) -> dict[str, tuple[str, tuple[str, ...]]]:
    text = next(t for t in coverage.texts if t.text.name == spec)
    return {s.name: (s.state, s.cases) for s in text.sections}


def test_a_cited_section_is_covered_its_container_through_subsections_and_the_rest_uncovered() -> None:
    coverage = compute(INDEX, TEXTS, [("case/a", f"{TOY_TEXT}: Pages, Data Pages"),
                                      ("case/b", f"{TOY_TEXT}: Maps, Rules")])
    assert _states(coverage, TOY_TEXT) == {
        "Top": (THROUGH_SUBSECTIONS, ()),
        "Pages": (THROUGH_SUBSECTIONS, ()),
        "Data Pages": (COVERED, ("case/a",)),
        "Nulls": (UNCOVERED, ()),
        "Lists": (UNCOVERED, ()),
        "Lists, Rules": (UNCOVERED, ()),  # a repeated title is named with its parent's
        "Maps": (THROUGH_SUBSECTIONS, ()),
        "Maps, Rules": (COVERED, ("case/b",)),
    }
    text = next(t for t in coverage.texts if t.text.name == TOY_TEXT)
    assert (text.total, text.count(COVERED), text.count(THROUGH_SUBSECTIONS)) == (8, 2, 3)
    assert [s.name for s in text.uncovered] == ["Nulls", "Lists", "Lists, Rules"]


def test_a_member_of_a_declaration_counts_for_the_declaration() -> None:
    coverage = compute(INDEX, TEXTS, [("case/crc", f"{TOY_THRIFT}: Header.crc")])
    assert _states(coverage, TOY_THRIFT) == {"struct Header": (COVERED, ("case/crc",)),
                                             "enum Kind": (UNCOVERED, ())}


def test_a_cited_only_text_counts_the_sections_the_code_cites_and_marks_the_reference() -> None:
    draft = Text(TOY_TEXT, "orc", cited_only=True)
    code = [("reference_impl/x.py", Citation(1, TOY_TEXT, ("Nulls", "Lists"), nested=False)),
            ("tests/y.py", Citation(2, TOY_TEXT, ("Maps",), nested=False))]
    coverage = compute(INDEX, [draft], [("case/m", f"{TOY_TEXT}: Maps")], code)
    sections = {s.name: (s.state, s.in_reference) for s in coverage.texts[0].sections}
    assert sections == {"Nulls": (UNCOVERED, True), "Lists": (UNCOVERED, True), "Maps": (COVERED, False)}


def test_a_reference_to_the_older_page_counts_for_todays_heading_of_that_name() -> None:
    reference = f"{OLDER_TEXT}: Data Pages"
    coverage = compute(INDEX, TEXTS, [("case/old", reference)])
    assert _states(coverage, TOY_TEXT)["Data Pages"] == (COVERED, ("case/old",))
    assert dict(coverage.older.carried) == {reference: f"{TOY_TEXT}: Data Pages"}
    assert coverage.older.not_carried == ()


def test_todays_texts_are_the_current_folders_but_the_history_and_orc_0_11() -> None:
    names = {t.name: t for t in today_texts()}
    assert {"README.md", "Encodings.md", "parquet.thrift", "ORCv1.md", "orc_proto.proto"} <= names.keys()
    assert not names.keys() & (set(NOT_COUNTED) | {OLDER_TEXT})
    assert names["ORCv2.md"].cited_only and names["ORCv1.md"].format == "orc"


def test_every_catalogue_reference_to_a_counted_text_lands_on_a_section() -> None:
    coverage = spec_coverage()
    counted = {t.text.name for t in coverage.texts}
    index = citations.load_index()
    expected = {case for case, reference in catalogue_references()
                if (entry := citations.entry_citation(reference, 0, index)) and entry.spec in counted
                or reference in coverage.older.carried}
    listed = {case for t in coverage.texts for s in t.sections for case in s.cases}
    assert listed == expected
    assert all(t.total == t.count(COVERED) + t.count(THROUGH_SUBSECTIONS) + t.count(UNCOVERED)
               for t in coverage.texts)
