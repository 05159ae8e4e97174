"""Spec citations resolve (docs/citations.md): the whole tree, the catalogues, and the checker itself.

The examples of broken citations are assembled at run time (``_cite``), so the
checker, which also reads this file, does not take them for citations of it.
"""

from __future__ import annotations

import pytest

from conformance.cases import all_cases
from conformance.golden.bad_corpus import bad_files
from conformance.specs import citations
from conformance.specs.citations import check_source, check_tree, entry_citation, unresolved
from conformance.specs.headings import declared_names, markdown_headings, text_headings

INDEX = citations.load_index()
PATTERN = citations.spec_pattern(INDEX)


def _cite(spec: str, rest: str) -> str:
    return spec + rest


def _problems(source: str) -> list[str]:
    return [f"{p.line}: {p.message}" for p in check_source(source, "example.py", INDEX, PATTERN)]


def test_every_citation_in_the_code_resolves() -> None:
    problems = check_tree()
    assert not problems, "\n".join(map(str, problems))


def test_every_case_and_bad_file_names_sections_that_exist() -> None:
    """The entries of the case catalogue and the bad-file corpus, also those built at run time."""
    references = {s for case in all_cases() for s in case.spec} | {s for bad in bad_files() for s in bad.spec}
    unresolvable = {}
    for reference in sorted(references):
        citation = entry_citation(reference, 0, INDEX)
        unresolvable[reference] = unresolved(INDEX, citation) if citation else "not a 'SPEC: Section' entry"
    assert not {k: v for k, v in unresolvable.items() if v}


def test_a_missing_section_is_reported_with_its_line_and_the_closest_heading() -> None:
    source = "x = 1\n# " + _cite("Encodings.md", ", 'Delta Encoding (DELTA_BINARY_PACKED = 6)'") + "\n"
    assert _problems(source) == ["2: Encodings.md has no section 'Delta Encoding (DELTA_BINARY_PACKED = 6)'; "
                                 "closest: 'Delta Encoding (DELTA_BINARY_PACKED = 5)'"]


def test_the_prose_forms_resolve() -> None:
    source = "\n".join([
        "# " + _cite("LogicalTypes.md", ", 'Nested Types', \"Lists\" and `Maps`"),
        "# " + _cite("Encodings.md", " 'Dictionary Encoding'"),  # without its enum values
        "# " + _cite("parquet-format-docs.txt", ", '3.7.3', 'Data Pages'"),  # number, title alone
        "# " + _cite("parquet.thrift", " ``struct PageHeader``, PageHeader.crc / ColumnOrder"),
        "# " + _cite("Encryption.md", ", '4.3 Key\n# metadata'"),  # over two comment lines
        '"""' + _cite("README.md", ", 'Nulls': \"a quotation, not a section\".") + '"""',
    ])
    assert _problems(source) == []
    pieces = list(citations.pieces(source))
    found = [c for piece in pieces for c in citations.citations_in(piece, INDEX, PATTERN)]
    assert sorted(tuple(" ".join(s.split()) for s in c.sections) for c in found) == sorted([
        ("Nested Types", "Lists", "Maps"), ("Dictionary Encoding",), ("3.7.3", "Data Pages"),
        ("struct PageHeader", "PageHeader.crc", "ColumnOrder"), ("4.3 Key metadata",), ("Nulls",)])


def test_a_wrong_keyword_or_member_of_a_declaration_is_reported() -> None:
    source = "# " + _cite("parquet.thrift", " ``struct ColumnOrder``, PageHeader.checksum") + "\n"
    assert [p.split(";")[0] for p in _problems(source)] == [
        "1: parquet.thrift has no section 'struct ColumnOrder'"]  # the first section that fails
    source = "# " + _cite("parquet.thrift", " PageHeader.checksum") + "\n"
    assert [p.split(";")[0] for p in _problems(source)] == [
        "1: parquet.thrift has no section 'PageHeader.checksum'"]


def test_an_entry_is_a_path_of_nested_headings() -> None:
    inside = _cite("LogicalTypes.md", ": Maps, Backward-compatibility rules")
    outside = _cite("LogicalTypes.md", ": DECIMAL, Backward-compatibility rules")
    remark = _cite("parquet.thrift", ": enum Type (INT96, deprecated)")
    assert _problems(f"A = {inside!r}\nB = {remark!r}\n") == []
    assert _problems(f"A = {outside!r}\n") == [
        "1: LogicalTypes.md: 'Backward-compatibility rules' is not inside 'DECIMAL'"]


def test_an_entry_keeps_the_commas_of_a_heading_that_has_them() -> None:
    entry = _cite("ORCv1.md", ": Run Length Encoding, Integer Run Length Encoding, version 2, Delta")
    assert _problems(f"A = {entry!r}\n") == []
    citation = entry_citation(entry, 1, citations.load_index())
    assert citation is not None
    assert citation.sections == ("Run Length Encoding", "Integer Run Length Encoding, version 2", "Delta")


def test_a_template_filled_in_at_run_time_is_left_to_the_catalogue_test() -> None:
    assert _problems("A = f" + repr(_cite("LogicalTypes.md", ": {section}")) + "\n") == []
    assert entry_citation(_cite("LogicalTypes.md", ": {}, Backward-compatibility rules"), 1, INDEX) is None


@pytest.mark.parametrize(("mention", "problem"), [
    (_cite("DESIGN", ".md, 'Bad input'"), _cite("DESIGN", ".md is neither a spec")),
    (_cite("docs/no-such-page", ".md"), _cite("docs/no-such-page", ".md is not in the repository")),
    (_cite("docs/architecture", ".md, 'Bad inputs'"),
     _cite("docs/architecture", ".md has no section 'Bad inputs'")),
])
def test_documents_outside_the_repository_are_reported(mention: str, problem: str) -> None:
    assert [p.split(";")[0] for p in _problems(f"# see {mention}\n")][0].startswith(f"1: {problem}")


def test_documents_that_resolve() -> None:
    source = "\n".join([
        "# " + _cite("docs/architecture", ".md, 'Bad input'"),
        "# " + _cite("apache/thrift doc/specs/thrift-compact-protocol", ".md, 'Struct'"),  # elsewhere
        "NAME = " + repr(_cite("REPORT", ".md")),  # a file the harness writes
    ])
    assert _problems(source) == []


def test_markdown_headings_skip_code_and_keep_link_text() -> None:
    text = "# Title\n```\n# not a heading\n```\n## [Linked](#anchor) `code` ##\n"
    assert markdown_headings(text) == [(1, "Title"), (2, "Linked code")]


def test_declared_names_nest_and_list_members() -> None:
    proto = "message Type {\n  enum Kind {\n    BOOLEAN = 0;\n  }\n  optional Kind kind = 1;\n}\n"
    assert declared_names(proto) == [(1, "message Type"), (2, "Type.kind"), (2, "enum Type.Kind"),
                                     (3, "Type.Kind.BOOLEAN")]
    thrift = ("struct PageHeader {\n  /** 9: a comment */\n"
              "  1: required PageType type\n  4: optional i32 crc\n}")
    assert declared_names(thrift) == [(1, "struct PageHeader"), (2, "PageHeader.type"), (2, "PageHeader.crc")]


def test_text_headings_take_their_level_from_the_chapter_numbers() -> None:
    text = "\n3.7 - Data Pages\n\nSome text that ends like a sentence.\n\n4.3 Key metadata\n\nSNAPPY\n\n"
    assert text_headings(text) == [(2, "3.7 - Data Pages"), (6, "4.3 Key metadata"), (9, "SNAPPY")]


def test_the_index_names_each_spec_the_code_cites() -> None:
    cited = {"README.md", "Encodings.md", "Compression.md", "LogicalTypes.md", "PageIndex.md",
             "BloomFilter.md", "Encryption.md", "VariantEncoding.md", "VariantShredding.md",
             "parquet.thrift", "parquet-format-docs.txt", "ORCv1.md", "orc_proto.proto"}
    assert cited <= set(INDEX)
    assert all(INDEX[spec] for spec in cited)

