"""Every knob of the reference writer, checked in the file it writes: page
headers, page bodies and ColumnMetaData (walked independently of the reader),
then read back by the reference reader."""

from __future__ import annotations

import io

import numpy as np
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.parquet.encodings.bit_packed import encode_bit_packed
from reference_impl.parquet.encodings.plain import encode_plain
from reference_impl.parquet.encodings.rle_hybrid import (
    decode_rle_hybrid,
    encode_rle_hybrid,
    encode_rle_hybrid_length_prefixed,
)
from reference_impl.parquet.metadata import parquet_thrift as md
from reference_impl.parquet.metadata.parquet_thrift import CompressionCodec, Encoding, PageType, Type
from reference_impl.parquet.metadata.thrift_struct import serialize
from reference_impl.parquet.pages.compression import decompress
from reference_impl.parquet.reader import read_footer, read_parquet
from reference_impl.parquet.schema.nested_types import list_node, records_from_logical
from reference_impl.parquet.schema.tree import group, leaf, root
from reference_impl.parquet.writer import write_table
from reference_impl.parquet.writer_options import WriterOptions
from tests.reference_impl.data_path_helpers import (
    OPTIONAL,
    REPEATED,
    REQUIRED,
    chunk_meta,
    int32,
    one_column,
    walk_pages,
    write,
)
from tests.reference_impl.nested.strategies import physical_trees, raw_records
from tests.reference_impl.parquet_helpers import budget

STRING = md.LogicalType(STRING=md.StringType())
TEXT = leaf("s", Type.BYTE_ARRAY, repetition=OPTIONAL, logical_type=STRING)
WORDS = [f"word {i % 7}".encode() if i % 5 else None for i in range(40)]


def kinds(pages) -> list[tuple[str, str]]:
    return [(page.header.type.name, page.encoding.name) for page in pages]


def content(page, codec=CompressionCodec.UNCOMPRESSED) -> bytes:
    return decompress(codec, page.body, page.header.uncompressed_page_size)


# ---------------------------------------------------------------------------
# Value encodings, per file and per column
# ---------------------------------------------------------------------------


def test_default_encoding_and_per_column_overrides_by_path_or_group() -> None:
    tree = root(
        [
            leaf("a", Type.INT64, repetition=REQUIRED),
            group(
                "g",
                [leaf("b", Type.INT64, repetition=REQUIRED), leaf("c", Type.DOUBLE, repetition=REQUIRED)],
                repetition=OPTIONAL,
            ),
        ]
    )
    records = [{"a": i, "g": {"b": -i, "c": i / 2}} for i in range(20)]
    raw = write(
        tree,
        records,
        encoding="DELTA_BINARY_PACKED",
        column_encodings={"g": "BYTE_STREAM_SPLIT", "g.b": "PLAIN"},
    )
    assert [kinds(walk_pages(raw, column)) for column in range(3)] == [
        [("DATA_PAGE", "DELTA_BINARY_PACKED")],
        [("DATA_PAGE", "PLAIN")],
        [("DATA_PAGE", "BYTE_STREAM_SPLIT")],
    ]
    assert chunk_meta(raw, 2).encodings == [Encoding.RLE, Encoding.BYTE_STREAM_SPLIT]  # g is OPTIONAL
    assert read_parquet(raw).records == records


@pytest.mark.parametrize(
    ("physical", "encoding", "values"),
    [
        (Type.BOOLEAN, "RLE", [True, False, True, True]),
        (Type.INT32, "DELTA_BINARY_PACKED", [5, -3, 2**31 - 1]),
        (Type.BYTE_ARRAY, "DELTA_LENGTH_BYTE_ARRAY", [b"", b"ab", b"abc"]),
        (Type.BYTE_ARRAY, "DELTA_BYTE_ARRAY", [b"axis", b"axle", b"b"]),
        (Type.FLOAT, "BYTE_STREAM_SPLIT", [1.5, -0.0, float("inf")]),
    ],
)
def test_each_value_encoding_is_written_as_asked(physical, encoding, values) -> None:
    raw = one_column(leaf("x", physical, repetition=REQUIRED), values, encoding=encoding)
    [page] = walk_pages(raw)
    assert page.encoding == Encoding[encoding]
    assert read_parquet(raw).data["x"] == values


def test_an_encoding_for_other_types_or_an_unknown_column_is_refused() -> None:
    with pytest.raises(ValueError, match="column x: encoding DELTA_BINARY_PACKED applies to INT32, INT64"):
        one_column(leaf("x", Type.BYTE_ARRAY, repetition=OPTIONAL), [b"a"], encoding="DELTA_BINARY_PACKED")
    with pytest.raises(ValueError, match=r"name no column or group of the schema: \['nope'\]"):
        one_column(int32(), [1], column_codecs={"nope": "GZIP"})
    with pytest.raises(ValueError, match="BIT_PACKED levels exist only in data page v1"):
        WriterOptions(level_encoding="BIT_PACKED", page_version=2)


# ---------------------------------------------------------------------------
# Dictionary encoding and fallback ('Dictionary Encoding')
# ---------------------------------------------------------------------------


def test_dictionary_page_comes_first_then_indices() -> None:
    raw = one_column(TEXT, WORDS, encoding="RLE_DICTIONARY", page_row_limit=15)
    pages = walk_pages(raw)
    assert kinds(pages) == [("DICTIONARY_PAGE", "PLAIN")] + [("DATA_PAGE", "RLE_DICTIONARY")] * 3
    dictionary = pages[0]
    assert dictionary.header.dictionary_page_header.num_values == 7
    assert dictionary.body == encode_plain(
        Type.BYTE_ARRAY, [f"word {i}".encode() for i in (1, 2, 3, 4, 6, 0, 5)]
    )
    meta = chunk_meta(raw)
    assert meta.dictionary_page_offset == pages[0].offset < meta.data_page_offset == pages[1].offset
    assert meta.encodings == [Encoding.PLAIN, Encoding.RLE, Encoding.RLE_DICTIONARY]
    assert [(s.page_type, s.encoding, s.count) for s in meta.encoding_stats] == [
        (PageType.DICTIONARY_PAGE, Encoding.PLAIN, 1),
        (PageType.DATA_PAGE, Encoding.RLE_DICTIONARY, 3),
    ]
    # Indices at the dictionary's bit width (7 entries: 3 bits), after the definition levels.
    body = content(pages[1])
    levels_length = int.from_bytes(body[:4], "little")
    assert body[4 + levels_length] == 3
    assert read_parquet(raw).data["s"] == WORDS


def test_plain_dictionary_is_the_version_1_name_on_both_pages() -> None:
    raw = one_column(TEXT, WORDS, encoding="PLAIN_DICTIONARY")
    assert kinds(walk_pages(raw)) == [
        ("DICTIONARY_PAGE", "PLAIN_DICTIONARY"),
        ("DATA_PAGE", "PLAIN_DICTIONARY"),
    ]
    assert read_parquet(raw).data["s"] == WORDS


def test_dictionary_fallback_keeps_earlier_pages_and_plain_encodes_the_rest() -> None:
    values = [f"value {i:03d}".encode() for i in range(100)]  # 13 PLAIN bytes each
    raw = one_column(
        TEXT, values, encoding="RLE_DICTIONARY", dictionary_size_limit=13 * 25, page_row_limit=10
    )
    pages = walk_pages(raw)
    assert kinds(pages) == (
        [("DICTIONARY_PAGE", "PLAIN")] + [("DATA_PAGE", "RLE_DICTIONARY")] * 3 + [("DATA_PAGE", "PLAIN")] * 8
    )
    # The fallback closes the page at the record that does not fit: 25 dictionary values.
    assert [p.header.data_page_header.num_values for p in pages[1:]] == [
        10,
        10,
        5,
        10,
        10,
        10,
        10,
        10,
        10,
        10,
        5,
    ]
    assert pages[0].header.dictionary_page_header.num_values == 25
    assert pages[0].header.uncompressed_page_size <= 13 * 25
    meta = chunk_meta(raw)
    assert [(s.page_type.name, s.encoding.name, s.count) for s in meta.encoding_stats] == [
        ("DICTIONARY_PAGE", "PLAIN", 1),
        ("DATA_PAGE", "RLE_DICTIONARY", 3),
        ("DATA_PAGE", "PLAIN", 8),
    ]
    assert read_parquet(raw).data["s"] == values


def test_dictionary_fallback_without_page_limits_and_to_another_encoding() -> None:
    values = [f"value {i:03d}".encode() for i in range(100)]
    raw = one_column(
        TEXT,
        values,
        encoding="RLE_DICTIONARY",
        dictionary_size_limit=130,
        fallback_encoding="DELTA_BYTE_ARRAY",
        page_version=2,
    )
    assert kinds(walk_pages(raw)) == [
        ("DICTIONARY_PAGE", "PLAIN"),
        ("DATA_PAGE_V2", "RLE_DICTIONARY"),
        ("DATA_PAGE_V2", "DELTA_BYTE_ARRAY"),
    ]
    assert read_parquet(raw).data["s"] == values


def test_no_dictionary_page_when_the_first_record_does_not_fit() -> None:
    raw = one_column(TEXT, [b"x" * 100, b"y"], encoding="RLE_DICTIONARY", dictionary_size_limit=50)
    assert kinds(walk_pages(raw)) == [("DATA_PAGE", "PLAIN")]
    assert chunk_meta(raw).dictionary_page_offset is None


def test_dictionary_entries_are_distinct_by_bits() -> None:
    values = [0.0, -0.0, float("nan"), 0.0, -0.0]
    raw = one_column(leaf("x", Type.DOUBLE, repetition=REQUIRED), values, encoding="RLE_DICTIONARY")
    assert walk_pages(raw)[0].header.dictionary_page_header.num_values == 3
    got = read_parquet(raw).data["x"]
    assert [np.float64(v).tobytes() for v in got] == [np.float64(v).tobytes() for v in values]


def test_an_all_null_dictionary_column() -> None:
    raw = one_column(TEXT, [None, None], encoding="RLE_DICTIONARY")
    assert walk_pages(raw)[0].header.dictionary_page_header.num_values == 0
    assert read_parquet(raw).data["s"] == [None, None]


# ---------------------------------------------------------------------------
# Compression ('Compression') and the two data page versions ('Data Pages')
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("codec", [c for c in CompressionCodec])
def test_every_codec_compresses_every_page(codec) -> None:
    raw = one_column(TEXT, WORDS, codec=codec, encoding="RLE_DICTIONARY")
    meta = chunk_meta(raw)
    assert meta.codec == codec
    pages = walk_pages(raw)
    for page in pages:
        decompressed = content(page, codec)
        assert len(decompressed) == page.header.uncompressed_page_size
    assert decompressed[:4] == len(encode_rle_hybrid([0 if w is None else 1 for w in WORDS], 1)).to_bytes(
        4, "little"
    )
    header_bytes = sum(page.body_start - page.offset for page in pages)
    assert meta.total_compressed_size == header_bytes + sum(len(p.body) for p in pages)
    assert meta.total_uncompressed_size == header_bytes + sum(p.header.uncompressed_page_size for p in pages)
    assert read_parquet(raw).data["s"] == WORDS


def test_per_column_codec_and_level() -> None:
    tree = root([leaf("a", Type.INT64, repetition=REQUIRED), leaf("b", Type.INT64, repetition=REQUIRED)])
    records = [{"a": i % 3, "b": i % 3} for i in range(2000)]
    fast = write(tree, records, codec="GZIP", compression_level=1, column_codecs={"b": "SNAPPY"})
    best = write(tree, records, codec="GZIP", compression_level=9, column_codecs={"b": "SNAPPY"})
    assert [chunk_meta(fast, c).codec for c in (0, 1)] == [CompressionCodec.GZIP, CompressionCodec.SNAPPY]
    assert len(walk_pages(best)[0].body) < len(walk_pages(fast)[0].body)
    assert walk_pages(best, 1)[0].body == walk_pages(fast, 1)[0].body


def test_data_page_v1_is_levels_then_values_compressed_as_one() -> None:
    tree = root([list_node("l", int32("e"), repetition=OPTIONAL)])
    rows = [{"l": [1, None]}, {"l": None}, {"l": []}, {"l": [2]}]
    raw = write(tree, records_from_logical(tree, rows), codec="ZSTD")
    [page] = walk_pages(raw)
    assert page.header.type == PageType.DATA_PAGE
    header = page.header.data_page_header
    assert header.num_values == 5  # entries, nulls and empty lists included
    assert (header.repetition_level_encoding, header.definition_level_encoding) == (
        Encoding.RLE,
        Encoding.RLE,
    )
    repetition = encode_rle_hybrid_length_prefixed([0, 1, 0, 0, 0], 1)
    definition = encode_rle_hybrid_length_prefixed([3, 2, 0, 1, 3], 2)
    assert content(page, CompressionCodec.ZSTD) == repetition + definition + encode_plain(Type.INT32, [1, 2])


def test_data_page_v2_levels_are_never_compressed() -> None:
    tree = root([list_node("l", int32("e"), repetition=OPTIONAL)])
    rows = [{"l": [1, None]}, {"l": None}, {"l": []}, {"l": [2]}]
    raw = write(tree, records_from_logical(tree, rows), codec="ZSTD", page_version=2)
    [page] = walk_pages(raw)
    header = page.header.data_page_header_v2
    repetition = encode_rle_hybrid([0, 1, 0, 0, 0], 1)
    definition = encode_rle_hybrid([3, 2, 0, 1, 3], 2)
    assert (header.repetition_levels_byte_length, header.definition_levels_byte_length) == (
        len(repetition),
        len(definition),
    )
    assert page.body[: len(repetition) + len(definition)] == repetition + definition
    assert (header.num_values, header.num_nulls, header.num_rows, header.is_compressed) == (5, 3, 4, True)
    values = encode_plain(Type.INT32, [1, 2])
    stored = page.body[len(repetition) + len(definition) :]
    assert decompress(CompressionCodec.ZSTD, stored, len(values)) == values
    assert page.header.uncompressed_page_size == len(repetition) + len(definition) + len(values)
    assert read_parquet(raw).logical_rows() == rows


def test_v2_is_compressed_false_stores_the_values_raw() -> None:
    raw = one_column(TEXT, WORDS, codec="GZIP", page_version=2, v2_is_compressed=False)
    [page] = walk_pages(raw)
    header = page.header.data_page_header_v2
    assert header.is_compressed is False
    assert page.header.compressed_page_size == page.header.uncompressed_page_size
    values = encode_plain(Type.BYTE_ARRAY, [w for w in WORDS if w is not None])
    assert page.body[header.definition_levels_byte_length :] == values
    assert chunk_meta(raw).codec == CompressionCodec.GZIP
    assert read_parquet(raw).data["s"] == WORDS


def test_bit_packed_levels() -> None:
    """'Bit-packed (Deprecated)': MSB first, no length prefix, data page v1 only."""
    values = [None if i % 4 == 0 else i for i in range(10)]
    raw = one_column(int32(), values, level_encoding="BIT_PACKED")
    [page] = walk_pages(raw)
    assert page.header.data_page_header.definition_level_encoding == Encoding.BIT_PACKED
    levels = encode_bit_packed([0 if v is None else 1 for v in values], bit_width=1)
    assert page.body == levels + encode_plain(Type.INT32, [v for v in values if v is not None])
    assert chunk_meta(raw).encodings == [Encoding.PLAIN, Encoding.BIT_PACKED]
    assert read_parquet(raw).data["x"] == values


# ---------------------------------------------------------------------------
# Page and row group limits
# ---------------------------------------------------------------------------


def test_pages_are_cut_only_where_a_record_starts() -> None:
    tree = root([list_node("l", int32("e"), repetition=OPTIONAL)])
    rows = [{"l": list(range(i % 4))} for i in range(30)]
    for limits in ({"page_row_limit": 4}, {"page_byte_limit": 24}):
        raw = write(tree, records_from_logical(tree, rows), **limits)
        pages = walk_pages(raw)
        assert len(pages) > 3
        for page in pages:
            count = page.header.data_page_header.num_values
            length = int.from_bytes(page.body[:4], "little")
            repetition, _ = decode_rle_hybrid(page.body, 1, count, start=4, end=4 + length)
            assert repetition[0] == 0
        assert read_parquet(raw).logical_rows() == rows


def test_page_byte_limit_bounds_the_page_estimate() -> None:
    values = list(range(100))
    raw = one_column(int32(repetition=REQUIRED), values, page_byte_limit=40)
    pages = walk_pages(raw)
    assert [p.header.data_page_header.num_values for p in pages] == [10] * 10
    assert all(p.header.uncompressed_page_size <= 40 for p in pages)


def test_row_groups_pages_created_by_and_key_values() -> None:
    tree = root([int32()])
    sink = io.BytesIO()
    footer = write_table(
        sink,
        tree,
        [{"x": i} for i in range(10)],
        WriterOptions(
            row_group_size=4,
            page_row_limit=3,
            created_by="me version 1",
            key_value_metadata={"k": "v", "empty": None},
        ),
    )
    raw = sink.getvalue()
    assert read_footer(raw)[0] == footer
    assert [g.num_rows for g in footer.row_groups] == [4, 4, 2]
    assert [len(walk_pages(raw, 0, g)) for g in range(3)] == [2, 2, 1]
    assert footer.created_by == "me version 1"
    assert footer.key_value_metadata == [md.KeyValue("k", "v"), md.KeyValue("empty", None)]
    assert [g.ordinal for g in footer.row_groups] == [0, 1, 2]
    assert footer.row_groups[1].file_offset == chunk_meta(raw, 0, 1).data_page_offset


def test_logical_and_converted_types_as_the_tree_says() -> None:
    tree = root(
        [TEXT, leaf("raw", Type.BYTE_ARRAY, repetition=OPTIONAL, logical_type=STRING, converted_type=None)]
    )
    raw = write(tree, [{"s": b"a", "raw": b"b"}])
    _, s, only_logical = read_footer(raw)[0].schema
    assert (s.logicalType, s.converted_type) == (STRING, md.ConvertedType.UTF8)
    assert (only_logical.logicalType, only_logical.converted_type) == (STRING, None)


def test_output_is_deterministic() -> None:
    tree = root([list_node("l", TEXT, repetition=OPTIONAL)])
    records = records_from_logical(tree, [{"l": WORDS[:10]}, {"l": None}])
    options = {"encoding": "RLE_DICTIONARY", "codec": "BROTLI", "page_version": 2}
    assert write(tree, records, **options) == write(tree, records, **options)


def test_headers_round_trip_through_thrift() -> None:
    raw = one_column(TEXT, WORDS, encoding="RLE_DICTIONARY", page_version=2, codec="LZ4_RAW")
    for page in walk_pages(raw):
        assert serialize(page.header) == raw[page.offset : page.body_start]


def test_repeated_leaf_at_the_top_is_an_unannotated_list() -> None:
    tree = root([leaf("r", Type.INT64, repetition=REPEATED)])
    records = [{"r": [1, 2]}, {"r": []}, {"r": [3]}]
    assert read_parquet(write(tree, records)).records == records


# ---------------------------------------------------------------------------
# Property: any tree, any records, any combination of knobs round-trips
# ---------------------------------------------------------------------------


@st.composite
def writer_options(draw: st.DrawFn) -> dict:
    version = draw(st.sampled_from([1, 2]))
    options = {
        "encoding": draw(st.sampled_from(["PLAIN", "RLE_DICTIONARY", "PLAIN_DICTIONARY"])),
        "dictionary_size_limit": draw(st.none() | st.integers(1, 40)),
        "codec": draw(st.sampled_from(["UNCOMPRESSED", "SNAPPY", "ZSTD", "GZIP", "LZ4", "LZO"])),
        "page_version": version,
        "v2_is_compressed": draw(st.booleans()),
        "page_row_limit": draw(st.none() | st.integers(1, 3)),
        "page_byte_limit": draw(st.none() | st.integers(1, 30)),
        "row_group_size": draw(st.none() | st.integers(1, 3)),
    }
    if version == 1:
        options["level_encoding"] = draw(st.sampled_from(["RLE", "BIT_PACKED"]))
    return options


@given(st.data())
@budget(50)
def test_any_tree_any_records_any_knobs_round_trip(data) -> None:
    tree = data.draw(physical_trees())
    records = data.draw(raw_records(tree))
    options = data.draw(writer_options())
    assert read_parquet(write(tree, records, **options)).records == records


@pytest.mark.parametrize("count", [0, 5])
def test_empty_row_groups_around_and_between_full_ones(count: int) -> None:
    """Nothing asks a row group for a row ('File format'): with empty_row_groups the writer
    puts one of none before, between and after the full ones, and pyarrow reads them."""
    raw = one_column(leaf("x", Type.INT32, repetition=OPTIONAL), list(range(count)),
                     row_group_size=2, empty_row_groups=True)
    full = [len(range(count)[i:i + 2]) for i in range(0, count, 2)]
    expected = [0, *(n for rows in full for n in (rows, 0))]
    assert [g.num_rows for g in read_footer(raw)[0].row_groups] == expected
    assert pq.read_table(io.BytesIO(raw)).column("x").to_pylist() == list(range(count))
