"""The metadata validator: true files give no finding, each lie or mutation the
finding it causes (kind, row group, page) and nothing else, and files by
pyarrow and DuckDB give exactly the findings their writers earn."""

from __future__ import annotations

import io
import math
import struct
from collections.abc import Callable
from dataclasses import replace
from decimal import Decimal

import pytest

from reference_impl.common.findings import ADVISORY, AMBIGUOUS
from reference_impl.parquet.errors import ParquetError
from reference_impl.parquet.metadata import parquet_thrift as md
from reference_impl.parquet.metadata.parquet_thrift import BoundaryOrder, Type
from reference_impl.parquet.metadata.thrift_struct import deserialize, serialize
from reference_impl.parquet.reader import read_footer
from reference_impl.parquet.schema.nested_types import list_node, records_from_logical
from reference_impl.parquet.schema.tree import leaf, root
from reference_impl.parquet.validation.validate import NONCONFORMING, SEVERITIES, UNTRUE, Finding, validate
from reference_impl.parquet.writer import write_table
from reference_impl.parquet.writer_options import WriterOptions
from tests.reference_impl.data_path_helpers import OPTIONAL, REQUIRED, walk_pages

STRING = md.LogicalType(STRING=md.StringType())
DECIMAL = md.LogicalType(DECIMAL=md.DecimalType(scale=2, precision=9))
ROWS, ROW_GROUP_ROWS, PAGE_ROWS = 60, 30, 5
ALL_NULL_ROWS = range(10, 20)  # two whole pages of nulls in row group 0
FLOATS = [float("nan"), -0.0, 0.0, 1.5, -2.25]
COLUMNS = ("i", "d", "s", "dec", "l.list.element")

TREE = root(
    [
        leaf("i", Type.INT32, repetition=OPTIONAL),
        leaf("d", Type.DOUBLE, repetition=OPTIONAL),
        leaf("s", Type.BYTE_ARRAY, repetition=OPTIONAL, logical_type=STRING),
        leaf(
            "dec",
            Type.FIXED_LEN_BYTE_ARRAY,
            repetition=OPTIONAL,
            type_length=4,
            logical_type=DECIMAL,
            scale=2,
            precision=9,
        ),
        list_node("l", leaf("e", Type.INT64, repetition=OPTIONAL), repetition=OPTIONAL),
    ]
)


def _row(k: int) -> dict:
    if k in ALL_NULL_ROWS:
        return {"i": None, "d": None, "s": None, "dec": None, "l": None}
    return {
        "i": None if k % 7 == 0 else (k * 37) % 101 - 50,
        "d": FLOATS[k % 5] if k % 3 else k / 3,
        "s": None if k % 4 == 0 else f"word {k % 13}".encode(),
        "dec": ((k * 997) % 4000 - 2000).to_bytes(4, "big", signed=True),  # mixed signs
        "l": None if k % 11 == 0 else ([] if k % 5 == 0 else [k, None, -k][: k % 4]),
    }


LOGICAL_ROWS = [_row(k) for k in range(ROWS)]
EVERYTHING = dict(
    row_group_size=ROW_GROUP_ROWS,
    page_row_limit=PAGE_ROWS,
    statistics=True,
    page_header_statistics=True,
    distinct_count=True,
    size_statistics=True,
    page_index=True,
    page_checksum=True,
    bloom_filter_columns=frozenset(COLUMNS),
)


def reference_file(**options) -> bytes:
    sink = io.BytesIO()
    write_table(
        sink, TREE, records_from_logical(TREE, LOGICAL_ROWS), WriterOptions(**{**EVERYTHING, **options})
    )
    return sink.getvalue()


def places(findings: list[Finding]) -> set[tuple[str, str, int, int | None]]:
    return {(f.kind, f.column, f.row_group, f.page) for f in findings}


def page_values(column: str, row_group: int, page: int) -> list:
    """The non-null leaf values of one page, from the rows themselves (pages are PAGE_ROWS rows)."""
    first = row_group * ROW_GROUP_ROWS + page * PAGE_ROWS
    rows = LOGICAL_ROWS[first : first + PAGE_ROWS]
    if column == "l.list.element":
        return [v for row in rows for v in row["l"] or () if v is not None]
    return [row[column] for row in rows if row[column] is not None]


def spread(column: str, values: list) -> bool:
    """Whether the values hold two different ordered values (NaN aside, -0.0 == +0.0)."""
    if column == "dec":
        values = [int.from_bytes(v, "big", signed=True) for v in values]
    ordered = {v for v in values if not (isinstance(v, float) and math.isnan(v))}
    return len(ordered) > 1


PAGES = [
    (c, g, p)
    for c in COLUMNS
    for g in range(ROWS // ROW_GROUP_ROWS)
    for p in range(ROW_GROUP_ROWS // PAGE_ROWS)
]


# ---------------------------------------------------------------------------
# True files
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "layout",
    [
        dict(),
        dict(page_version=2),
        dict(encoding="RLE_DICTIONARY"),
        dict(encoding="RLE_DICTIONARY", dictionary_size_limit=40, codec="ZSTD"),
        dict(statistics_truncate_length=3, bloom_filter_placement="between_row_groups"),
    ],
)
def test_a_reference_file_with_every_structure_has_no_finding(layout) -> None:
    raw = reference_file(**layout)
    metadata, _ = read_footer(raw)
    chunk = metadata.row_groups[0].columns[0]
    assert chunk.column_index_offset and chunk.offset_index_offset and chunk.meta_data.bloom_filter_offset
    assert validate(raw) == []


def test_the_data_covers_what_the_checks_need() -> None:
    assert not page_values("i", 0, 2) and not page_values("s", 0, 3)  # all-null pages
    assert {math.copysign(1, v) for v in page_values("d", 0, 0) if v == 0} == {-1.0, 1.0}
    decimals = [int.from_bytes(v, "big", signed=True) for v in page_values("dec", 0, 0)]
    assert min(decimals) < 0 < max(decimals)
    assert page_values("l.list.element", 0, 0)


# ---------------------------------------------------------------------------
# Each lie gives its finding, where it is, and nothing else
# ---------------------------------------------------------------------------


def test_lying_statistics() -> None:
    findings = validate(reference_file(lies={"statistics"}))
    signed = {"i", "d", "dec", "l.list.element"}  # deprecated min/max lie too; "s" has none
    expected = {("statistics.min_value", c, g, None) for c in COLUMNS for g in (0, 1)}
    expected |= {("statistics.min", c, g, None) for c in signed for g in (0, 1)}
    assert places(findings) == expected
    assert {f.severity for f in findings} == {UNTRUE}
    assert len(findings) == len(expected)


def test_a_lying_column_index() -> None:
    findings = validate(reference_file(lies={"page_index"}))
    expected = {("column_index.min_values", c, g, p) for c, g, p in PAGES if spread(c, page_values(c, g, p))}
    assert places(findings) == expected and len(findings) == len(expected)
    assert len(expected) > 30


def test_a_lying_bloom_filter() -> None:
    findings = validate(reference_file(lies={"bloom_filter"}))
    assert places(findings) == {("bloom_filter", c, g, None) for c in COLUMNS for g in (0, 1)}
    first = next(f for f in findings if f.column == "i" and f.row_group == 0)
    assert "distinct values test absent" in first.message


def test_lying_crcs_one_finding_per_page_dictionary_pages_included() -> None:
    findings = validate(reference_file(lies={"crc"}, encoding="RLE_DICTIONARY"))
    data_pages = {("crc", c, g, p) for c, g, p in PAGES}
    dictionary_pages = {("crc", c, g, None) for c in COLUMNS for g in (0, 1)}
    assert places(findings) == data_pages | dictionary_pages
    assert len(findings) == len(data_pages) + len(dictionary_pages)


# ---------------------------------------------------------------------------
# Hand-mutated files
# ---------------------------------------------------------------------------


def with_footer(raw: bytes, mutate: Callable[[md.FileMetaData], None]) -> bytes:
    """``raw`` with its FileMetaData changed by ``mutate`` (the data region is kept)."""
    metadata, footer_start = read_footer(raw)
    mutate(metadata)
    footer = serialize(metadata)
    return raw[:footer_start] + footer + struct.pack("<I", len(footer)) + b"PAR1"


def with_struct(raw: bytes, offset: int, length: int, cls, mutate: Callable) -> bytes:
    """``raw`` with the Thrift struct at ``offset`` changed in place (its length must not change)."""
    value, _ = deserialize(cls, raw, start=offset, end=offset + length)
    stored = serialize(mutate(value))
    assert len(stored) == length
    return raw[:offset] + stored + raw[offset + length :]


def flip_byte(value: bytes, index: int, mask: int = 0x80) -> bytes:
    return value[:index] + bytes([value[index] ^ mask]) + value[index + 1 :]


def chunk_of(metadata: md.FileMetaData, column: str, row_group: int = 0) -> md.ColumnChunk:
    return next(
        c for c in metadata.row_groups[row_group].columns if ".".join(c.meta_data.path_in_schema) == column
    )


def column_index_mutated(raw: bytes, column: str, mutate: Callable) -> bytes:
    chunk = chunk_of(read_footer(raw)[0], column)
    return with_struct(raw, chunk.column_index_offset, chunk.column_index_length, md.ColumnIndex, mutate)


def offset_index_mutated(raw: bytes, column: str, mutate: Callable) -> bytes:
    chunk = chunk_of(read_footer(raw)[0], column)
    return with_struct(raw, chunk.offset_index_offset, chunk.offset_index_length, md.OffsetIndex, mutate)


def stats_mutated(raw: bytes, column: str, **changes) -> bytes:
    def mutate(metadata: md.FileMetaData) -> None:
        meta = chunk_of(metadata, column).meta_data
        meta.statistics = replace(meta.statistics, **changes)

    return with_footer(raw, mutate)


def only(findings: list[Finding]) -> tuple[str, str, str, int, int | None]:
    assert len(findings) == 1, findings
    f = findings[0]
    return f.kind, f.severity, f.column, f.row_group, f.page


def test_a_flipped_byte_in_a_stored_max() -> None:
    raw = reference_file()
    stats = chunk_of(read_footer(raw)[0], "i").meta_data.statistics
    mutated = stats_mutated(raw, "i", max_value=flip_byte(stats.max_value, 3))  # a negative max
    assert only(validate(mutated)) == ("statistics.max_value", UNTRUE, "i", 0, None)


def test_null_count_and_distinct_count() -> None:
    raw = reference_file()
    stats = chunk_of(read_footer(raw)[0], "s").meta_data.statistics
    assert (
        only(validate(stats_mutated(raw, "s", null_count=stats.null_count + 1)))[0] == "statistics.null_count"
    )
    wrong = stats_mutated(raw, "s", distinct_count=stats.distinct_count - 1)
    assert only(validate(wrong))[0] == "statistics.distinct_count"


def test_distinct_count_of_floats_may_count_the_zeros_once_or_twice() -> None:
    raw = reference_file()
    stats = chunk_of(read_footer(raw)[0], "d").meta_data.statistics  # counted by bits: -0.0 and +0.0, NaN
    assert validate(stats_mutated(raw, "d", distinct_count=stats.distinct_count - 1)) == []
    assert only(validate(stats_mutated(raw, "d", distinct_count=stats.distinct_count - 2)))[0] == (
        "statistics.distinct_count"
    )


def test_an_exact_flag_on_a_truncated_bound() -> None:
    raw = reference_file(statistics_truncate_length=3)
    stats = chunk_of(read_footer(raw)[0], "s").meta_data.statistics
    assert stats.is_max_value_exact is False
    assert only(validate(stats_mutated(raw, "s", is_max_value_exact=True))) == (
        "statistics.exactness",
        UNTRUE,
        "s",
        0,
        None,
    )


def test_float_rules_are_advisory_not_untrue() -> None:
    raw = reference_file()
    nan = struct.pack("<d", float("nan"))
    findings = validate(stats_mutated(raw, "d", max_value=nan, max=nan))
    assert [(f.kind, f.severity, f.message.split()[0]) for f in findings] == [
        ("statistics.nan_bound", ADVISORY, "max_value"),
        ("statistics.nan_bound", ADVISORY, "max"),
    ]


@pytest.mark.parametrize(
    ("values", "field", "zero"), [([0.0, -0.0, 1.0], "min", 0.0), ([-1.0, 0.0], "max", -0.0)]
)
def test_the_wrong_zero_as_a_bound_is_advisory(values, field, zero) -> None:
    tree = root([leaf("z", Type.DOUBLE, repetition=REQUIRED)])
    sink = io.BytesIO()
    write_table(sink, tree, [{"z": v} for v in values], WriterOptions())
    raw = sink.getvalue()
    assert validate(raw) == []
    wrong = struct.pack("<d", zero)
    findings = validate(stats_mutated(raw, "z", **{field: wrong, f"{field}_value": wrong}))
    assert [(f.kind, f.severity) for f in findings] == [("statistics.signed_zero", ADVISORY)] * 2


def test_a_positive_zero_min_that_is_too_high_is_also_untrue() -> None:
    raw = reference_file()
    positive_zero = struct.pack("<d", 0.0)
    findings = validate(stats_mutated(raw, "d", min_value=positive_zero, min=positive_zero))
    assert {(f.kind, f.severity) for f in findings} == {
        ("statistics.signed_zero", ADVISORY),
        ("statistics.min_value", UNTRUE),
        ("statistics.min", UNTRUE),
    }


def test_bounds_without_column_orders_mean_nothing() -> None:
    findings = validate(
        with_footer(reference_file(), lambda metadata: setattr(metadata, "column_orders", None))
    )
    chunks = {(c, g) for c in COLUMNS for g in (0, 1)}
    assert {(f.column, f.row_group) for f in findings if f.kind == "statistics.undefined_order"} == chunks
    assert {f.kind for f in findings} == {
        "statistics.undefined_order",
        "page_statistics.undefined_order",
        "column_index.undefined_order",
    }
    assert {f.severity for f in findings} == {ADVISORY}


def test_deprecated_min_max_on_an_unsigned_column() -> None:
    raw = reference_file()
    stats = chunk_of(read_footer(raw)[0], "s").meta_data.statistics
    findings = validate(stats_mutated(raw, "s", min=stats.min_value, max=stats.max_value))
    assert only(findings)[:2] == ("statistics.deprecated_min_max", ADVISORY)  # ASCII: signed agrees


def test_a_page_statistic() -> None:
    raw = reference_file(statistics=False, page_index=False)
    pages = [p for p in walk_pages(raw, 0) if p.header.type == md.PageType.DATA_PAGE]
    page = pages[1]
    stats = page.header.data_page_header.statistics
    page.header.data_page_header.statistics = replace(stats, null_count=stats.null_count + 1)
    header = serialize(page.header)
    assert len(header) == page.body_start - page.offset
    mutated = raw[: page.offset] + header + raw[page.body_start :]
    assert only(validate(mutated)) == ("page_statistics.null_count", UNTRUE, "i", 0, 1)


def test_column_index_mutations() -> None:
    raw = reference_file()

    def null_page(index: md.ColumnIndex) -> md.ColumnIndex:
        return replace(index, null_pages=[True] + index.null_pages[1:])

    assert only(validate(column_index_mutated(raw, "i", null_page))) == (
        "column_index.null_pages",
        UNTRUE,
        "i",
        0,
        0,
    )

    def counts(index: md.ColumnIndex) -> md.ColumnIndex:
        return replace(
            index, null_counts=[index.null_counts[0], index.null_counts[1] + 1, *index.null_counts[2:]]
        )

    assert only(validate(column_index_mutated(raw, "s", counts))) == (
        "column_index.null_counts",
        UNTRUE,
        "s",
        0,
        1,
    )

    def histogram(index: md.ColumnIndex) -> md.ColumnIndex:
        levels = list(index.definition_level_histograms)
        levels[-1], levels[-2] = levels[-2], levels[-1]
        return replace(index, definition_level_histograms=levels)

    last = ROW_GROUP_ROWS // PAGE_ROWS - 1
    assert only(validate(column_index_mutated(raw, "i", histogram))) == (
        "column_index.level_histograms",
        UNTRUE,
        "i",
        0,
        last,
    )

    def max_flipped(index: md.ColumnIndex) -> md.ColumnIndex:
        return replace(index, max_values=[flip_byte(index.max_values[0], 3), *index.max_values[1:]])

    assert only(validate(column_index_mutated(raw, "i", max_flipped))) == (
        "column_index.max_values",
        UNTRUE,
        "i",
        0,
        0,
    )


def test_boundary_order_must_hold_for_the_stored_bounds() -> None:
    tree = root([leaf("x", Type.INT64, repetition=OPTIONAL)])
    sink = io.BytesIO()
    values = [None if k % 9 == 0 else k for k in range(40)]
    write_table(sink, tree, [{"x": v} for v in values], WriterOptions(page_row_limit=8, page_index=True))
    raw = sink.getvalue()
    chunk = chunk_of(read_footer(raw)[0], "x")
    index, _ = deserialize(md.ColumnIndex, raw, start=chunk.column_index_offset)
    assert index.boundary_order == BoundaryOrder.ASCENDING
    assert validate(raw) == []

    def descending(index: md.ColumnIndex) -> md.ColumnIndex:
        return replace(index, boundary_order=BoundaryOrder.DESCENDING)

    assert only(validate(column_index_mutated(raw, "x", descending))) == (
        "column_index.boundary_order",
        UNTRUE,
        "x",
        0,
        None,
    )


def test_offset_index_mutations() -> None:
    raw = reference_file()

    def first_row(index: md.OffsetIndex) -> md.OffsetIndex:
        locations = list(index.page_locations)
        locations[2] = replace(locations[2], first_row_index=locations[2].first_row_index + 1)
        return replace(index, page_locations=locations)

    assert only(validate(offset_index_mutated(raw, "i", first_row))) == (
        "offset_index.first_row_index",
        UNTRUE,
        "i",
        0,
        2,
    )

    def size(index: md.OffsetIndex) -> md.OffsetIndex:
        locations = list(index.page_locations)
        locations[1] = replace(locations[1], compressed_page_size=locations[1].compressed_page_size - 1)
        return replace(index, page_locations=locations)

    assert only(validate(offset_index_mutated(raw, "d", size))) == (
        "offset_index.page_locations",
        UNTRUE,
        "d",
        0,
        1,
    )

    def unencoded(index: md.OffsetIndex) -> md.OffsetIndex:
        sizes = list(index.unencoded_byte_array_data_bytes)
        sizes[0] += 1
        return replace(index, unencoded_byte_array_data_bytes=sizes)

    assert only(validate(offset_index_mutated(raw, "s", unencoded))) == (
        "offset_index.unencoded_byte_array_data_bytes",
        UNTRUE,
        "s",
        0,
        0,
    )


def test_size_statistics_mutations() -> None:
    raw = reference_file()

    def mutate(metadata: md.FileMetaData) -> None:
        sizes = chunk_of(metadata, "l.list.element", 1).meta_data.size_statistics
        sizes.definition_level_histogram[0] += 1
        sizes.repetition_level_histogram = []
        chunk_of(metadata, "s").meta_data.size_statistics.unencoded_byte_array_data_bytes -= 1

    findings = validate(with_footer(raw, mutate))
    assert {(f.kind, f.severity, f.column, f.row_group) for f in findings} == {
        ("size_statistics.definition_level_histogram", UNTRUE, "l.list.element", 1),
        ("size_statistics.empty_histogram", AMBIGUOUS, "l.list.element", 1),
        ("size_statistics.unencoded_byte_array_data_bytes", UNTRUE, "s", 0),
    }


def test_a_flipped_byte_in_a_page_body_with_a_crc() -> None:
    raw = reference_file(statistics=False, page_index=False, bloom_filter_columns=frozenset())
    page = [p for p in walk_pages(raw, 0) if p.header.type == md.PageType.DATA_PAGE][3]
    at = page.body_start + len(page.body) - 1  # the last value byte: still decodable
    mutated = raw[:at] + bytes([raw[at] ^ 1]) + raw[at + 1 :]
    assert only(validate(mutated)) == ("crc", UNTRUE, "i", 0, 3)


def test_an_undecodable_page_with_a_crc_is_reported_by_its_crc_alone() -> None:
    raw = reference_file()
    page = [p for p in walk_pages(raw, 1) if p.header.type == md.PageType.DATA_PAGE][0]
    at = page.body_start  # the definition levels' length prefix: now far too long
    mutated = raw[:at] + b"\xff\xff\xff\x7f" + raw[at + 4 :]
    assert only(validate(mutated)) == ("crc", UNTRUE, "d", 0, 0)


def test_an_undecodable_page_without_a_crc_is_the_readers_error() -> None:
    raw = reference_file(page_checksum=False)
    page = [p for p in walk_pages(raw, 1) if p.header.type == md.PageType.DATA_PAGE][0]
    mutated = raw[: page.body_start] + b"\xff\xff\xff\x7f" + raw[page.body_start + 4 :]
    with pytest.raises(ParquetError):
        validate(mutated)


def test_a_file_that_is_not_parquet_raises() -> None:
    with pytest.raises(ParquetError):
        validate(b"PAR1 not a parquet file PAR1")


def test_findings_as_json() -> None:
    finding = validate(reference_file(lies={"crc"}))[0]
    assert finding.to_json() == {
        "kind": "crc",
        "severity": UNTRUE,
        "column": "i",
        "row_group": 0,
        "page": 0,
        "message": finding.message,
        "rule": {"strength": "fact", "spec": "parquet.thrift: struct PageHeader",
                 "sentence": "The 32-bit CRC checksum for the page, to be calculated as follows"},
    }
    assert SEVERITIES == (UNTRUE, NONCONFORMING, AMBIGUOUS, ADVISORY)


def test_a_column_of_undefined_order_gets_no_bounds_from_the_reference() -> None:
    interval = dict(type_length=12, converted_type=md.ConvertedType.INTERVAL)  # LogicalTypes.md 'INTERVAL'
    tree = root([leaf("t", Type.FIXED_LEN_BYTE_ARRAY, repetition=REQUIRED, **interval)])
    sink = io.BytesIO()
    write_table(sink, tree, [{"t": bytes([k] * 12)} for k in range(9)], WriterOptions(page_index=True))
    raw = sink.getvalue()
    assert validate(raw) == []
    bounds = {"min_value": bytes(12), "max_value": bytes([8] * 12)}
    findings = validate(stats_mutated(raw, "t", **bounds))
    assert only(findings)[:2] == ("statistics.undefined_order", ADVISORY)


# ---------------------------------------------------------------------------
# Files by other writers: only what the spec fixes
# ---------------------------------------------------------------------------


def _arrow_table():
    pa = pytest.importorskip("pyarrow")
    rows = [
        dict(
            i=None if k % 7 == 0 or 100 <= k < 140 else (k * 37) % 101 - 50,
            u=None if 100 <= k < 140 else (k * 2654435761) % 2**32,
            d=None if 100 <= k < 140 else FLOATS[k % 5] if k % 3 else k / 3,
            f=None if 100 <= k < 140 else FLOATS[k % 5],
            s=None if k % 4 == 0 else f"word {k % 13} \u00e9",
            b=bytes([k % 256, 255 - k % 256]),
            dec=Decimal((k * 997) % 4000 - 2000).scaleb(-2),
            l=None if k % 11 == 0 else ([] if k % 5 == 0 else [k, None, -k][: k % 4]),
        )
        for k in range(300)
    ]
    schema = pa.schema(
        [
            ("i", pa.int32()),
            ("u", pa.uint32()),
            ("d", pa.float64()),
            ("f", pa.float32()),
            ("s", pa.string()),
            ("b", pa.binary()),
            ("dec", pa.decimal128(9, 2)),
            ("l", pa.list_(pa.int64())),
        ]
    )
    return pa.Table.from_pylist(rows, schema=schema)


ARROW_FLAT = ("i", "u", "d", "f", "s", "b", "dec")


@pytest.mark.parametrize(
    "options",
    [
        dict(write_page_index=True),
        dict(write_page_index=True, data_page_version="2.0", use_dictionary=False),
        dict(write_page_index=False),  # page header statistics instead
    ],
)
def test_pyarrow_files(options) -> None:
    pq = pytest.importorskip("pyarrow.parquet")
    sink = io.BytesIO()
    pq.write_table(
        _arrow_table(),
        sink,
        row_group_size=150,
        max_rows_per_page=20,
        write_statistics=True,
        write_page_checksum=True,
        bloom_filter_options={c: True for c in ARROW_FLAT},
        **options,
    )
    raw = sink.getvalue()
    metadata, _ = read_footer(raw)
    assert metadata.row_groups[0].columns[0].meta_data.bloom_filter_offset is not None
    findings = validate(raw)
    # pyarrow writes repetition_level_histogram=[] for a column without repetition: the text
    # knows max_repetition_level + 1 counts or an omitted field, and not what an empty list
    # means (ambiguous). Nothing else is found.
    assert places(findings) == {
        ("size_statistics.empty_histogram", c, g, None) for c in ARROW_FLAT for g in (0, 1)
    }
    assert {f.severity for f in findings} == {AMBIGUOUS}


DUCKDB_TABLE = """
create table t as select
  case when k between 1000 and 1400 or k % 7 = 0 then null else ((k * 37) % 101 - 50)::INTEGER end as i,
  case when k between 1000 and 1400 then null when k % 3 = 0 then k / 3
       else ['nan'::double, -0.0::double, 0.0::double, 1.5, -2.25][k % 5 + 1] end as d,
  case when k % 4 = 0 then null else 'word ' || (k % 13) end as ascii,
  case when k % 2 = 0 then 'a' else '\u00e9' end as mixed,
  (((k * 997) % 4000 - 2000) / 100)::DECIMAL(20,2) as dec,
  case when k % 11 = 0 then null when k % 5 = 0 then []::BIGINT[] else [k, null, -k][1:(k % 4)] end as l
from range(5000) r(k)
"""


def test_duckdb_files(tmp_path) -> None:
    duckdb = pytest.importorskip("duckdb")
    path = tmp_path / "duck.parquet"
    con = duckdb.connect()
    con.execute(DUCKDB_TABLE)
    con.execute(f"copy t to '{path}' (format parquet, row_group_size 2048)")
    findings = validate(path)
    groups = range(len(read_footer(path.read_bytes())[0].row_groups))
    # DuckDB writes the deprecated min/max for strings too, by unsigned byte order: advisory
    # (a MAY-only-when) for any string, and untrue where signed bytes order differently
    # ('\u00e9' is 0xC3 0xA9).
    assert places(findings) == (
        {("statistics.deprecated_min_max", c, g, None) for c in ("ascii", "mixed") for g in groups}
        | {(kind, "mixed", g, None) for kind in ("statistics.min", "statistics.max") for g in groups}
    )
    untrue = {(f.kind, f.message) for f in findings if f.severity == UNTRUE}
    assert ("statistics.min", "min b'a' is greater than the smallest value b'\\xc3\\xa9'") in untrue


@pytest.mark.parametrize("claimed", [BoundaryOrder.ASCENDING, BoundaryOrder.DESCENDING])
def test_any_boundary_order_holds_for_pages_of_nulls_only(claimed) -> None:
    # Spark writes ASCENDING for a chunk whose pages are all null: no two pages to misorder.
    tree = root([leaf("x", Type.INT64, repetition=OPTIONAL)])
    sink = io.BytesIO()
    write_table(sink, tree, [{"x": None}] * 20, WriterOptions(page_row_limit=8, page_index=True))

    def claim(index: md.ColumnIndex) -> md.ColumnIndex:
        return replace(index, boundary_order=claimed)

    assert validate(column_index_mutated(sink.getvalue(), "x", claim)) == []
