"""Cross-check with pyarrow, an independent implementation.

pyarrow writes nested tables; from its file we take

(a) the schema: our tree built from the footer (``read_footer``) must give the
    leaf paths and maximum levels pyarrow's ColumnDescriptors report;
(b) the values: pyarrow's rows, converted to the raw tree by our logical view,
    shredded, assembled and viewed again, must equal ``pq.read_table().to_pylist()``;
(c) the levels themselves: the definition and repetition levels in pyarrow's
    data pages (decoded here with a small test-side page walker: PLAIN values,
    no compression, RLE levels) must equal our shredding of the same rows, and
    the level histograms pyarrow puts in ``SizeStatistics`` must match ours.
"""

from __future__ import annotations

import io
from collections import Counter
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from reference_impl.parquet.encodings.rle_hybrid import decode_rle_hybrid
from reference_impl.parquet.metadata.parquet_thrift import FileMetaData, PageHeader, PageType
from reference_impl.parquet.metadata.thrift_struct import deserialize
from reference_impl.parquet.nested.assembly import assemble_records
from reference_impl.parquet.nested.shredding import shred_records
from reference_impl.parquet.reader import read_footer
from reference_impl.parquet.schema.nested_types import records_from_logical, records_to_logical
from reference_impl.parquet.schema.tree import LeafColumn, leaf_columns, schema_tree_from_elements

POINT = pa.struct([pa.field("a", pa.int32()), pa.field("b", pa.string())])
STRICT_STRUCT = pa.struct([
    pa.field("a", pa.int64(), nullable=False), pa.field("b", pa.bool_(), nullable=False)
])

TABLES: dict[str, tuple[pa.Field, list[Any]]] = {
    "list<int32>": (pa.field("l", pa.list_(pa.int32())), [[1, None, 2], [], None, [3], [None]]),
    "list<struct> with nulls at each level": (
        pa.field("l", pa.list_(POINT)),
        [[{"a": 1, "b": "x"}, None, {"a": None, "b": None}], [], None, [{"a": 2, "b": "y"}]],
    ),
    "list<list<int32>>": (
        pa.field("l", pa.list_(pa.list_(pa.int32()))), [[[1, 2], [], None, [None]], [], None, [[3]]]
    ),
    "map<string, int32>": (
        pa.field("m", pa.map_(pa.string(), pa.int32())), [[("a", 1), ("b", None)], [], None, [("", 0)]]
    ),
    "map<int32, struct>": (
        pa.field("m", pa.map_(pa.int32(), POINT)),
        [[(1, {"a": 1, "b": "one"}), (2, None)], [], None, [(3, {"a": None, "b": "three"})]],
    ),
    "map<string, list<double>>": (
        pa.field("m", pa.map_(pa.string(), pa.list_(pa.float64()))),
        [[("a", [1.5, None]), ("b", []), ("c", None)], None, []],
    ),
    "struct with an optional inner struct": (
        pa.field("s", pa.struct([
            pa.field("x", pa.int32()),
            pa.field("inner", pa.struct([pa.field("y", pa.string()), pa.field("z", pa.list_(pa.int64()))])),
        ])),
        [{"x": 1, "inner": {"y": "a", "z": [1, None]}}, {"x": None, "inner": None}, None,
         {"x": 2, "inner": {"y": None, "z": None}}, {"x": 3, "inner": {"y": "b", "z": []}}],
    ),
    "non-nullable list, struct and elements": (
        pa.field("l", pa.list_(pa.field("item", STRICT_STRUCT, nullable=False)), nullable=False),
        [[{"a": 1, "b": True}], [], [{"a": -1, "b": False}, {"a": 0, "b": True}]],
    ),
    "map with non-nullable values": (
        pa.field("m", pa.map_(pa.string(), pa.field("value", pa.int32(), nullable=False))),
        [[("a", 1)], None, []],
    ),
}


def _table(name: str) -> pa.Table:
    field, values = TABLES[name]
    ids = pa.array(range(len(values)), pa.int32())
    return pa.Table.from_arrays([ids, pa.array(values, field.type)],
                                schema=pa.schema([pa.field("id", pa.int32(), nullable=False), field]))


def _write(table: pa.Table, **options: Any) -> bytes:
    sink = io.BytesIO()
    pq.write_table(table, sink, use_dictionary=False, compression="NONE", **options)
    return sink.getvalue()


WRITE_OPTIONS = {
    "v1": {},
    "v2 pages": {"data_page_version": "2.0"},
    "non-compliant names": {"use_compliant_nested_type": False},  # repeated group list { ... item; }
}


@pytest.mark.parametrize("options", WRITE_OPTIONS, ids=list(WRITE_OPTIONS))
@pytest.mark.parametrize("name", TABLES, ids=list(TABLES))
def test_against_pyarrow(name: str, options: str) -> None:
    table = _table(name)
    data = _write(table, **WRITE_OPTIONS[options])
    metadata, _ = read_footer(data)
    tree = schema_tree_from_elements(metadata.schema)
    leaves = leaf_columns(tree)

    # (a) paths and maximum levels
    arrow_schema = pq.ParquetFile(io.BytesIO(data)).schema
    assert [(c.dotted_path, c.max_definition_level, c.max_repetition_level) for c in leaves] == [
        (d.path, d.max_definition_level, d.max_repetition_level)
        for d in (arrow_schema.column(i) for i in range(len(arrow_schema)))
    ]
    chunks = metadata.row_groups[0].columns
    assert [list(c.path) for c in leaves] == [chunk.meta_data.path_in_schema for chunk in chunks]

    # (b) the logical view of our shred -> assemble equals what pyarrow reads
    rows = table.to_pylist()
    records = records_from_logical(tree, rows)
    columns = shred_records(tree, records)
    assembled = assemble_records(tree, columns, expected_records=metadata.num_rows)
    assert records_to_logical(tree, assembled) == pq.read_table(io.BytesIO(data)).to_pylist() == rows

    # (c) our levels are pyarrow's levels
    for leaf, (_, definition, repetition) in zip(leaves, columns, strict=True):
        their_definition, their_repetition = _levels_in_pages(data, metadata, leaf)
        assert their_definition == definition, leaf.dotted_path
        assert their_repetition == repetition, leaf.dotted_path
        # SizeStatistics (parquet.thrift): a histogram "may be omitted" when its maximum level is 0
        sizes = chunks[leaf.index].meta_data.size_statistics
        for histogram, levels, maximum in (
            (sizes and sizes.definition_level_histogram, definition, leaf.max_definition_level),
            (sizes and sizes.repetition_level_histogram, repetition, leaf.max_repetition_level),
        ):
            if sizes is not None and (histogram or maximum > 0):
                assert histogram == _histogram(levels, maximum), leaf.dotted_path


def test_many_pages_and_row_groups() -> None:
    """Records split over several pages and row groups: each row group is
    assembled on its own, and pages never split a record (pyarrow's levels)."""
    values = [[{"a": i, "b": str(i)}] * (i % 4) if i % 5 else None for i in range(3000)]
    table = pa.table({"l": pa.array(values, pa.list_(POINT))})
    data = _write(table, data_page_size=512, write_batch_size=64, row_group_size=1000)
    metadata, _ = read_footer(data)
    assert len(metadata.row_groups) == 3
    tree = schema_tree_from_elements(metadata.schema)
    rows = table.to_pylist()
    for group_index, row_group in enumerate(metadata.row_groups):
        group_rows = rows[group_index * 1000:(group_index + 1) * 1000]
        columns = shred_records(tree, records_from_logical(tree, group_rows))
        for leaf, (_, definition, repetition) in zip(leaf_columns(tree), columns, strict=True):
            assert _levels_in_pages(data, metadata, leaf, group_index) == (definition, repetition)
        assembled = assemble_records(tree, columns, expected_records=row_group.num_rows)
        assert records_to_logical(tree, assembled) == group_rows


# ---------------------------------------------------------------------------
# A minimal page walker for the files above (test side only)
# ---------------------------------------------------------------------------


def _levels_in_pages(
    data: bytes, metadata: FileMetaData, leaf: LeafColumn, row_group: int = 0
) -> tuple[list[int], list[int]]:
    """The definition and repetition levels of every data page of a column
    chunk ('3.7 - Data Pages': repetition levels, then definition levels;
    absent when the maximum is 0)."""
    meta = metadata.row_groups[row_group].columns[leaf.index].meta_data
    position = meta.dictionary_page_offset or meta.data_page_offset
    definition: list[int] = []
    repetition: list[int] = []
    while len(definition) < meta.num_values:
        header, body = deserialize(PageHeader, data, start=position)
        position = body + header.compressed_page_size
        if header.type == PageType.DATA_PAGE:
            count = header.data_page_header.num_values
            cursor = body
            levels = {}
            for kind, maximum in (("rep", leaf.max_repetition_level), ("def", leaf.max_definition_level)):
                if maximum == 0:
                    levels[kind] = [0] * count
                    continue
                length = int.from_bytes(data[cursor:cursor + 4], "little")
                decoded, _ = decode_rle_hybrid(data, maximum.bit_length(), count, start=cursor + 4,
                                               end=cursor + 4 + length)
                levels[kind] = decoded.tolist()
                cursor += 4 + length
        elif header.type == PageType.DATA_PAGE_V2:
            v2 = header.data_page_header_v2
            count = v2.num_values
            rep_end = body + v2.repetition_levels_byte_length
            def_end = rep_end + v2.definition_levels_byte_length
            levels = {}
            for kind, maximum, start, end in (("rep", leaf.max_repetition_level, body, rep_end),
                                              ("def", leaf.max_definition_level, rep_end, def_end)):
                if maximum == 0:
                    levels[kind] = [0] * count
                else:
                    levels[kind] = decode_rle_hybrid(data, maximum.bit_length(), count, start=start,
                                                     end=end)[0].tolist()
        else:
            continue
        assert levels["rep"][0] == 0, "a page starts a record ('Data Pages')"
        repetition += levels["rep"]
        definition += levels["def"]
    return definition, repetition


def _histogram(levels: list[int], maximum: int) -> list[int]:
    counts = Counter(levels)
    return [counts.get(level, 0) for level in range(maximum + 1)]
