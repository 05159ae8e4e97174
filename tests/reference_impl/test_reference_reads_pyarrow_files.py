"""The reference reader on files pyarrow (Arrow C++, an independent writer) writes
with every knob it has: use_dictionary, column_encoding, data_page_version,
compression, max_rows_per_page, dictionary_pagesize_limit, row groups, and
nested columns. The reference must read what pyarrow reads, value for value
(compared as canonical tables, so string vs bytes and float bits are exact)."""

from __future__ import annotations

import io
import itertools
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from conformance.engines import get_engine
from conformance.engines.arrow_values import arrow_to_table
from conformance.values import diff_tables
from reference_impl.parquet.reader import read_parquet
from tests.reference_impl.data_path_helpers import walk_pages

REFERENCE = get_engine("reference")
ROWS = 40

POINT = pa.struct([pa.field("x", pa.int32()), pa.field("label", pa.string())])


def _table() -> pa.Table:
    n = range(ROWS)
    return pa.table(
        {
            "i32": pa.array([None if i % 7 == 0 else i * 1_000_003 - 2**30 for i in n], pa.int32()),
            "i64": pa.array([(-1) ** i * i * 2**40 for i in n], pa.int64()),
            "f32": pa.array([None if i % 5 == 0 else i / 4 for i in n], pa.float32()),
            "f64": pa.array([float("nan") if i == 3 else -i / 3 for i in n], pa.float64()),
            "flag": pa.array([None if i % 11 == 0 else i % 3 == 0 for i in n], pa.bool_()),
            "text": pa.array([None if i % 6 == 0 else f"text {i % 9}" for i in n], pa.string()),
            "blob": pa.array([bytes([i % 256]) * (i % 4) for i in n], pa.binary()),
            "fixed": pa.array([bytes([i % 256, 1, 2]) for i in n], pa.binary(3)),
            "ints": pa.array(
                [None if i % 8 == 0 else [j if j % 3 else None for j in range(i % 5)] for i in n],
                pa.list_(pa.int64()),
            ),
            "points": pa.array(
                [[{"x": i, "label": None}, None] if i % 2 else [] for i in n], pa.list_(POINT)
            ),
            "tags": pa.array(
                [[("a", i), ("b", None)] if i % 3 else None for i in n], pa.map_(pa.string(), pa.int32())
            ),
            "nested": pa.array(
                [[[i], [], None] if i % 4 else None for i in n], pa.list_(pa.list_(pa.int32()))
            ),
            "record": pa.array([{"x": i, "label": f"r{i}"} if i % 5 else None for i in n], POINT),
        }
    )


TABLE = _table()


def pyarrow_file(tmp_path: Path, table: pa.Table = TABLE, **options) -> Path:
    settings = {
        "store_schema": False,
        "use_dictionary": False,
        "compression": "NONE",
        "write_statistics": False,
    }
    settings.update(options)
    path = tmp_path / "pyarrow.parquet"
    pq.write_table(table, path, **settings)
    return path


def assert_reads_like_pyarrow(path: Path) -> None:
    expected = arrow_to_table(pq.read_table(path))
    assert diff_tables(expected, REFERENCE.read(path)) is None


CODECS = ["NONE", "SNAPPY", "GZIP", "BROTLI", "ZSTD", "LZ4"]  # pyarrow's "LZ4" is LZ4_RAW


@pytest.mark.parametrize(("version", "codec"), list(itertools.product(["1.0", "2.0"], CODECS)))
def test_every_codec_in_both_page_versions(version, codec, tmp_path) -> None:
    """Dictionary pages are compressed too: some columns are dictionary encoded."""
    path = pyarrow_file(
        tmp_path,
        data_page_version=version,
        compression=codec,
        use_dictionary=["text", "i64", "ints.list.element"],
        max_rows_per_page=25,
    )
    assert_reads_like_pyarrow(path)


# Two assignments of an encoding to every column it applies to (pyarrow's
# `column_encoding`, by leaf path); between them every encoding meets every
# physical type pyarrow encodes it for, nested leaves included.
ENCODINGS = [
    {
        "i32": "DELTA_BINARY_PACKED",
        "i64": "BYTE_STREAM_SPLIT",
        "f32": "BYTE_STREAM_SPLIT",
        "f64": "PLAIN",
        "flag": "RLE",
        "text": "DELTA_LENGTH_BYTE_ARRAY",
        "blob": "DELTA_BYTE_ARRAY",
        "fixed": "BYTE_STREAM_SPLIT",
        "ints.list.element": "DELTA_BINARY_PACKED",
        "tags.key_value.key": "DELTA_BYTE_ARRAY",
        "nested.list.element.list.element": "BYTE_STREAM_SPLIT",
    },
    {
        "i32": "BYTE_STREAM_SPLIT",
        "i64": "DELTA_BINARY_PACKED",
        "f32": "PLAIN",
        "f64": "BYTE_STREAM_SPLIT",
        "flag": "PLAIN",
        "text": "DELTA_BYTE_ARRAY",
        "blob": "DELTA_LENGTH_BYTE_ARRAY",
        "fixed": "DELTA_BYTE_ARRAY",
        "ints.list.element": "BYTE_STREAM_SPLIT",
        "tags.key_value.key": "DELTA_LENGTH_BYTE_ARRAY",
        "nested.list.element.list.element": "DELTA_BINARY_PACKED",
    },
]


@pytest.mark.parametrize(("assignment", "version"), list(itertools.product([0, 1], ["1.0", "2.0"])))
def test_every_value_encoding(assignment, version, tmp_path) -> None:
    encodings = ENCODINGS[assignment]
    path = pyarrow_file(tmp_path, data_page_version=version, column_encoding=encodings)
    raw = path.read_bytes()
    for column, leaf_path in enumerate(
        ("i32", "i64", "f32", "f64", "flag", "text", "blob", "fixed", "ints.list.element")
    ):
        assert {page.encoding.name for page in walk_pages(raw, column)} == {encodings[leaf_path]}
    assert_reads_like_pyarrow(path)


def test_dictionary_fallback_to_plain(tmp_path) -> None:
    table = pa.table({"s": pa.array([f"distinct value {i:05d}" for i in range(3000)])})
    path = pyarrow_file(
        tmp_path, table, use_dictionary=True, dictionary_pagesize_limit=2048, data_page_size=1024
    )
    kinds = [(p.header.type.name, p.encoding.name) for p in walk_pages(path.read_bytes())]
    assert kinds[0] == ("DICTIONARY_PAGE", "PLAIN")
    assert ("DATA_PAGE", "RLE_DICTIONARY") in kinds and kinds[-1] == ("DATA_PAGE", "PLAIN")
    assert_reads_like_pyarrow(path)


def test_version_1_dictionary_names(tmp_path) -> None:
    path = pyarrow_file(tmp_path, TABLE.select(["text", "i64", "ints"]), use_dictionary=True, version="1.0")
    assert {p.encoding.name for p in walk_pages(path.read_bytes())} == {"PLAIN_DICTIONARY"}
    assert_reads_like_pyarrow(path)


@pytest.mark.parametrize(("rows_per_page", "row_group_size"), [(1, None), (3, 9)])
def test_many_pages_and_row_groups(rows_per_page, row_group_size, tmp_path) -> None:
    table = TABLE.select(["i32", "text", "ints", "tags", "nested", "record"])
    path = pyarrow_file(
        tmp_path,
        table,
        max_rows_per_page=rows_per_page,
        row_group_size=row_group_size or ROWS,
        data_page_version="2.0",
        compression="ZSTD",
        use_dictionary=True,
    )
    assert_reads_like_pyarrow(path)


def test_nested_levels_match_pyarrow_layout(tmp_path) -> None:
    """The leaf data the reader returns: values, levels, and records, for a list column."""
    table = pa.table({"l": pa.array([[1, None], None, [], [2]], pa.list_(pa.int32()))})
    contents = read_parquet(pyarrow_file(tmp_path, table, data_page_version="2.0"))
    [leaf] = contents.leaves
    assert leaf.leaf.dotted_path == "l.list.element"
    assert leaf.values == [1, 2]
    assert leaf.definition_levels.tolist() == [3, 2, 0, 1, 3]
    assert leaf.repetition_levels.tolist() == [0, 1, 0, 0, 0]
    assert contents.logical_rows() == [{"l": [1, None]}, {"l": None}, {"l": []}, {"l": [2]}]
    assert contents.data == {
        "l": [{"list": [{"element": 1}, {"element": None}]}, None, {"list": []}, {"list": [{"element": 2}]}]
    }


def test_bytes_source_and_file_object(tmp_path) -> None:
    path = pyarrow_file(tmp_path, TABLE.select(["i32"]))
    raw = path.read_bytes()
    assert read_parquet(io.BytesIO(raw)).data == read_parquet(raw).data == read_parquet(path).data
