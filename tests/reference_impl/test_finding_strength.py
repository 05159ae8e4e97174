"""Every validator finding carries the sentence it checks, with its strength, and the strength
gives its severity (docs/validation.md, 'Strength'): one test per strength, the text of every
kind, and the two readings of a repeated column's null count."""

from __future__ import annotations

import pytest

from conformance.specs.generated_pages import committed
from conformance.specs.validation_doc import GENERATED_START, PAGE, generated
from reference_impl.common.findings import (
    ADVISORY,
    AMBIGUOUS,
    NONCONFORMING,
    SEVERITIES,
    UNTRUE,
    RuleText,
    Strength,
    at_or_above,
)
from reference_impl.orc.validation.rule_texts import rule_text as orc_rule_text
from reference_impl.parquet.validation.rule_texts import RULE_TEXTS
from reference_impl.parquet.validation.validate import validate
from tests.reference_impl.test_validation import LOGICAL_ROWS, ROW_GROUP_ROWS, reference_file, stats_mutated

LIST_LEAF = "l.list.element"


@pytest.mark.parametrize(("strength", "severity"), [
    (Strength.FACT, UNTRUE), (Strength.MUST, NONCONFORMING), (Strength.SILENT, AMBIGUOUS),
    (Strength.SHOULD, ADVISORY), (Strength.MAY, ADVISORY)])
def test_the_strength_of_the_sentence_gives_the_severity(strength, severity) -> None:
    assert RuleText(strength, "parquet.thrift: struct Statistics", "words").severity == severity


def test_every_kind_quotes_a_sentence_and_cites_its_section() -> None:
    for kind, text in RULE_TEXTS.items():
        assert text.sentence and text.spec, kind
        assert text.quote() == f'{text.strength.value}: "{text.sentence}" ({text.spec})'


def test_orc_kinds_are_matched_by_family_and_an_unknown_kind_is_a_bug() -> None:
    assert orc_rule_text("statistics.integer.minimum").strength is Strength.FACT
    assert orc_rule_text("statistics.collection.total_children").strength is Strength.SILENT
    assert orc_rule_text("writer_version.numbering").strength is Strength.MAY
    with pytest.raises(ValueError, match="no rule text"):
        orc_rule_text("nothing.of.the.kind")


def test_findings_at_or_above_a_severity() -> None:
    findings = [RuleText(strength, "s", "w") for strength in Strength]
    assert [f.severity for f in at_or_above(findings, NONCONFORMING)] == [UNTRUE, NONCONFORMING]
    assert len(at_or_above(findings, ADVISORY)) == len(findings)
    assert SEVERITIES == (UNTRUE, NONCONFORMING, AMBIGUOUS, ADVISORY)


def test_the_page_of_kinds_is_generated_from_the_tables() -> None:
    assert committed(PAGE, GENERATED_START) == generated(), (
        "run `python -m conformance.specs.validation_doc`")


def _null_values_in_lists(rows) -> int:
    return sum(value is None for row in rows if row["l"] for value in row["l"])


def _null_entries(rows) -> int:
    """Every entry below the maximum definition level: null lists, empty lists, null values."""
    return sum(1 if not row["l"] else sum(v is None for v in row["l"]) for row in rows)


def test_a_list_null_count_of_either_reading_is_ambiguous_and_of_neither_untrue() -> None:
    rows = LOGICAL_ROWS[:ROW_GROUP_ROWS]
    assert _null_values_in_lists(rows) != _null_entries(rows)  # the readings differ here
    raw = reference_file()
    assert validate(raw) == []  # this reference counts every null entry
    parquet_cpp = validate(stats_mutated(raw, LIST_LEAF, null_count=_null_values_in_lists(rows)))
    assert [(f.kind, f.severity, f.rule.strength) for f in parquet_cpp] == [
        ("statistics.null_count_reading", AMBIGUOUS, Strength.SILENT)]
    assert "parquet-cpp" in parquet_cpp[0].rule.sentence
    neither = validate(stats_mutated(raw, LIST_LEAF, null_count=_null_entries(rows) + 1))
    assert [(f.kind, f.severity) for f in neither] == [("statistics.null_count", UNTRUE)]
