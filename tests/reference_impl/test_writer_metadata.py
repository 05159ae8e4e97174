"""The reference writer's statistics, page index, Bloom filters and CRCs, read back
by the reference reader and by independent readers (pyarrow, DuckDB)."""

from __future__ import annotations

import io
import math

import duckdb
import pyarrow.parquet as pq
import pytest

from reference_impl.parquet.errors import ChecksumMismatch
from reference_impl.parquet.indexes.bloom_filter import read_bloom_filter
from reference_impl.parquet.indexes.page_index import read_column_index, read_offset_index
from reference_impl.parquet.metadata import parquet_thrift as md
from reference_impl.parquet.reader import read_footer, read_parquet
from reference_impl.parquet.schema.tree import leaf, root
from reference_impl.parquet.statistics.column_statistics import decode_bound
from reference_impl.parquet.writer import write_table
from reference_impl.parquet.writer_options import WriterOptions
from tests.reference_impl.data_path_helpers import OPTIONAL, walk_pages

ROWS = 100
PAGE_ROWS = 10
ROW_GROUP_ROWS = 50
STRING = md.LogicalType(STRING=md.StringType())
TREE = root([
    leaf("n", md.Type.INT64, repetition=OPTIONAL),
    leaf("s", md.Type.BYTE_ARRAY, repetition=OPTIONAL, logical_type=STRING),
    leaf("d", md.Type.DOUBLE, repetition=OPTIONAL),
])


def _records() -> list[dict]:
    return [{"n": None if i % 9 == 0 else i * 3 - 100,
             "s": None if i % 7 == 0 else f"value {i:03d}".encode(),
             "d": math.nan if i == 5 else (-0.0 if i == 6 else i / 4)} for i in range(ROWS)]


def _write(**options) -> bytes:
    sink = io.BytesIO()
    defaults = dict(page_row_limit=PAGE_ROWS, row_group_size=ROW_GROUP_ROWS, page_index=True,
                    page_checksum=True, bloom_filter_columns={"n", "s"})
    write_table(sink, TREE, _records(), WriterOptions(**{**defaults, **options}))
    return sink.getvalue()


@pytest.fixture(scope="module")
def full_file(tmp_path_factory) -> tuple[bytes, str]:
    raw = _write()
    path = tmp_path_factory.mktemp("meta") / "full.parquet"
    path.write_bytes(raw)
    return raw, str(path)


def _expected_bounds(column: str, rows: range):
    values = [r[column] for r in _records()[rows.start:rows.stop] if r[column] is not None]
    values = [v for v in values if not (isinstance(v, float) and math.isnan(v))]
    return min(values), max(values)


def test_pyarrow_reads_the_reference_statistics(full_file):
    metadata = pq.ParquetFile(full_file[1]).metadata
    for group in range(metadata.num_row_groups):
        rows = range(group * ROW_GROUP_ROWS, (group + 1) * ROW_GROUP_ROWS)
        n = metadata.row_group(group).column(0).statistics
        assert (n.min, n.max) == _expected_bounds("n", rows)
        assert n.null_count == sum(1 for i in rows if i % 9 == 0)
        s = metadata.row_group(group).column(1).statistics
        assert (s.min.encode(), s.max.encode()) == _expected_bounds("s", rows)


def test_the_reference_writes_minus_zero_as_a_minimum_and_no_nan_bound(full_file):
    raw, _ = full_file
    footer, _ = read_footer(raw)
    stats = footer.row_groups[0].columns[2].meta_data.statistics
    low = decode_bound(md.Type.DOUBLE, stats.min_value)
    assert math.copysign(1.0, low) == -1.0 and low == 0.0  # -0.0 is the minimum
    assert decode_bound(md.Type.DOUBLE, stats.max_value) == 49 / 4


def test_pyarrow_verifies_the_reference_page_checksums(full_file):
    table = pq.read_table(full_file[1], page_checksum_verification=True)
    assert table.num_rows == ROWS


def test_every_page_has_a_correct_crc(full_file):
    raw, _ = full_file
    for column in range(3):
        pages = walk_pages(raw, column)
        assert pages and all(page.header.crc is not None for page in pages)
    read_parquet(raw, verify_checksums=True)


def test_a_flipped_byte_fails_the_crc_and_names_the_page(full_file):
    raw, _ = full_file
    third_page = walk_pages(raw, 0)[2]
    corrupt = bytearray(raw)
    corrupt[third_page.body_start] ^= 0xFF
    with pytest.raises(ChecksumMismatch, match="page 2") as caught:
        read_parquet(bytes(corrupt), verify_checksums=True)
    assert caught.value.offset == third_page.offset


def test_pyarrow_rejects_the_crc_lie(tmp_path):
    path = tmp_path / "lie.parquet"
    path.write_bytes(_write(lies={"crc"}))
    with pytest.raises(OSError, match="(?i)crc|checksum"):
        pq.read_table(path, page_checksum_verification=True)
    with pytest.raises(ChecksumMismatch):
        read_parquet(path, verify_checksums=True)
    assert read_parquet(path).metadata.num_rows == ROWS  # the data itself is intact


def test_page_index_matches_the_pages(full_file):
    raw, _ = full_file
    footer, _ = read_footer(raw)
    for chunk in (group.columns[0] for group in footer.row_groups):
        offsets = read_offset_index(raw, chunk)
        index = read_column_index(raw, chunk)
        assert [loc.first_row_index for loc in offsets.page_locations] == list(range(0, 50, PAGE_ROWS))
        assert index.boundary_order == md.BoundaryOrder.ASCENDING
        assert len(index.null_pages) == ROW_GROUP_ROWS // PAGE_ROWS


def test_pyarrow_reads_the_reference_page_index(full_file):
    metadata = pq.ParquetFile(full_file[1]).metadata
    column = metadata.row_group(1).column(0)
    assert column.has_column_index and column.has_offset_index


@pytest.mark.parametrize("placement", ["after_row_groups", "between_row_groups"])
def test_duckdb_probes_the_reference_bloom_filters(tmp_path, placement):
    path = tmp_path / f"{placement}.parquet"
    raw = _write(bloom_filter_placement=placement)
    path.write_bytes(raw)
    footer, _ = read_footer(raw)
    present = 3 * 60 - 100  # row 60, in row group 1
    probe = duckdb.sql(
        f"SELECT row_group_id, bloom_filter_excludes FROM parquet_bloom_probe('{path}', 'n', {present})"
    ).fetchall()
    assert sorted(probe) == [(0, True), (1, False)]
    for group in footer.row_groups:
        meta = group.columns[1].meta_data
        bloom = read_bloom_filter(raw, meta)
        assert bloom is not None and meta.bloom_filter_length == len(bloom.bitset()) + _header_size(raw, meta)


def _header_size(raw: bytes, meta: md.ColumnMetaData) -> int:
    return meta.bloom_filter_length - read_bloom_filter(raw, meta).num_bytes


def test_between_row_groups_places_each_filter_before_the_next_row_group():
    raw = _write(bloom_filter_placement="between_row_groups")
    footer, _ = read_footer(raw)
    first_filter = footer.row_groups[0].columns[0].meta_data.bloom_filter_offset
    assert first_filter < footer.row_groups[1].file_offset


def test_statistics_off_writes_none():
    footer, _ = read_footer(_write(statistics=False, page_index=False))
    assert all(c.meta_data.statistics is None for g in footer.row_groups for c in g.columns)
    assert all(c.column_index_offset is None for g in footer.row_groups for c in g.columns)


def test_lying_statistics_claim_the_maximum_as_minimum():
    footer, _ = read_footer(_write(lies={"statistics"}))
    stats = footer.row_groups[0].columns[0].meta_data.statistics
    assert stats.min_value == stats.max_value


def test_size_statistics_are_written_per_chunk(full_file):
    raw, _ = full_file
    footer, _ = read_footer(raw)
    sizes = footer.row_groups[0].columns[1].meta_data.size_statistics
    strings = [r["s"] for r in _records()[:ROW_GROUP_ROWS] if r["s"] is not None]
    assert sizes.unencoded_byte_array_data_bytes == sum(len(s) for s in strings)
    assert sizes.definition_level_histogram == [ROW_GROUP_ROWS - len(strings), len(strings)]
