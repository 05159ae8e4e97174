"""The data path's lenient readings, listed in docs/lenient-readings.md.

Each one-fault file of ``conformance.golden.parquet.lenient_data_files`` reads leniently
with exactly the rows of its valid original and one breach naming the rule,
where and the byte offset; read strictly (or outside any ``reading`` block) it
raises the rule's documented error; ``validate`` reports the breach as a
nonconforming ``rule.<id>`` finding. Beyond the single reading, the errors stay.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import nullcontext
from pathlib import Path

import pytest

from conformance.engines.parquet.reference import ReferenceEngine
from conformance.golden.parquet import lenient_data_files as files
from conformance.golden.parquet.bad_files import _pages, compressed_size_lies, num_rows_mismatch, read_footer
from reference_impl.common.leniency import Rule, reading
from reference_impl.parquet.errors import CorruptMetadata, CorruptPage
from reference_impl.parquet.lenient_readings import GENERATED_END, PAGE, markdown
from reference_impl.parquet.metadata.parquet_thrift import PageType
from reference_impl.parquet.pages.chunk_reader import PAGE_PAST_CHUNK, V2_NUM_ROWS
from reference_impl.parquet.reader import FILE_NUM_ROWS_ZERO, read_parquet
from reference_impl.parquet.schema.variant_shredding import OPTIONAL_METADATA, VALUE_REPETITION
from reference_impl.parquet.validation.findings import NONCONFORMING
from reference_impl.parquet.validation.validate import validate


def _footer_start(raw: bytes) -> int:
    return read_footer(raw)[1]


def _data_page_offset(raw: bytes, page_type: PageType) -> int:
    return next(page.offset for page in _pages(raw) if page.header.type == page_type)


# (rule, one-fault file, original, where the breach says it is, its byte offset)
DATA_PATH = [
    pytest.param(V2_NUM_ROWS, files.v2_num_rows_counts_entries, files.repeated_v2,
                 "column numbers.list.element, row group 0, page 0: DataPageHeaderV2.num_rows is 7, but 4",
                 lambda raw: _data_page_offset(raw, PageType.DATA_PAGE_V2), id="v2-num-rows"),
    pytest.param(FILE_NUM_ROWS_ZERO, files.file_num_rows_zero, files.plain_required,
                 "FileMetaData.num_rows is 0, the row groups hold 10",
                 _footer_start, id="file-num-rows-zero"),
    pytest.param(PAGE_PAST_CHUNK, files.page_past_chunk, files.plain_required,
                 f"column x, row group 0, page 0: the page ends {files.SHORTFALL} byte(s) past the end",
                 lambda raw: _data_page_offset(raw, PageType.DATA_PAGE), id="page-past-chunk"),
]
VARIANT = [
    pytest.param(OPTIONAL_METADATA, files.variant_optional_metadata, files.variant_original,
                 "field 'v'.metadata: an OPTIONAL metadata", _footer_start, id="variant-optional-metadata"),
    pytest.param(VALUE_REPETITION, files.variant_optional_value, files.variant_original,
                 "field 'v'.value: a OPTIONAL value without typed_value", _footer_start,
                 id="variant-optional-value"),
]
ALL = DATA_PATH + VARIANT


@pytest.mark.parametrize(("rule", "make", "original", "where", "offset"), ALL)
def test_the_one_fault_file_reads_as_its_original_with_one_breach(
    rule: Rule, make: Callable[[], bytes], original: Callable[[], bytes], where: str,
    offset: Callable[[bytes], int],
) -> None:
    raw = make()
    with reading() as breaches:
        records = read_parquet(raw).records
    assert records == read_parquet(original()).records  # the original reads strictly: no breach
    [found] = breaches
    assert (found.rule, found.offset) == (rule, offset(raw))
    assert found.where.startswith(where)


@pytest.mark.parametrize(("rule", "make", "original", "where", "offset"), ALL)
def test_read_strictly_the_one_fault_file_is_the_documented_error(
    rule: Rule, make: Callable[[], bytes], original: Callable[[], bytes], where: str,
    offset: Callable[[bytes], int],
) -> None:
    raw = make()
    # reading strictly, and outside any reading block (a reader is strict by default)
    for strictly in (reading(strict=True), nullcontext()):
        with strictly, pytest.raises(rule.error, match=rule.id) as caught:
            read_parquet(raw)
        assert caught.value.offset == offset(raw)


@pytest.mark.parametrize(("rule", "make", "original", "where", "offset"), DATA_PATH)
def test_validate_reports_the_breach_as_a_nonconforming_rule_finding(
    rule: Rule, make: Callable[[], bytes], original: Callable[[], bytes], where: str,
    offset: Callable[[bytes], int],
) -> None:
    [finding] = validate(make())
    assert (finding.kind, finding.severity) == (f"rule.{rule.id}", NONCONFORMING)
    assert where in finding.message and rule.sentence in finding.message
    assert not validate(original())


@pytest.mark.parametrize(("rule", "make", "original", "where", "offset"), ALL)
def test_the_reference_engine_reads_the_rows_of_the_original_and_names_the_breach(
    tmp_path: Path, rule: Rule, make: Callable[[], bytes], original: Callable[[], bytes], where: str,
    offset: Callable[[bytes], int],
) -> None:
    engine = ReferenceEngine()
    fault, valid = tmp_path / "fault.parquet", tmp_path / "original.parquet"
    fault.write_bytes(make())
    valid.write_bytes(original())
    table, breaches = engine.read_with_breaches(fault)
    assert table == engine.read(valid)
    assert [found.rule for found in breaches] == [rule]
    with pytest.raises(rule.error, match=rule.id):
        engine.read_with_breaches(fault, strict=True)


def test_validate_reports_an_optional_variant_field_once_as_its_variant_finding() -> None:
    """The VARIANT checks name these rules already (``variant.*``); no ``rule.*`` twin."""
    for make, kind in ((files.variant_optional_metadata, "variant.metadata_repetition"),
                       (files.variant_optional_value, "variant.value_repetition")):
        assert [(f.kind, f.severity) for f in validate(make())] == [(kind, NONCONFORMING)]


def test_a_num_rows_other_than_zero_that_disagrees_is_still_refused() -> None:
    with reading(), pytest.raises(CorruptMetadata, match="num_rows is 11, the row groups hold 10"):
        read_parquet(num_rows_mismatch())


def test_a_page_that_runs_into_the_footer_is_still_refused() -> None:
    with reading(), pytest.raises(CorruptPage, match="past the end of the data region"):
        read_parquet(compressed_size_lies())


def test_the_committed_page_starts_with_the_generated_table() -> None:
    text = PAGE.read_text(encoding="utf-8")
    assert text.startswith(markdown())
    for rule_id in (V2_NUM_ROWS.id, FILE_NUM_ROWS_ZERO.id, PAGE_PAST_CHUNK.id, OPTIONAL_METADATA.id,
                    VALUE_REPETITION.id):
        assert f"`{rule_id}`" in text.split(GENERATED_END, 1)[1], f"no peers measured for {rule_id}"

