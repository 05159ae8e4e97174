"""Malformed pages on the whole data path (levels, dictionaries, v2 pages,
compression, nesting): each is a specific ParquetError with the byte offset,
the column path, the row group and the page ordinal (docs/architecture.md, 'Bad input')."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.parquet.encodings.plain import encode_plain
from reference_impl.parquet.encodings.rle_hybrid import encode_rle_hybrid, encode_rle_hybrid_length_prefixed
from reference_impl.parquet.errors import (
    CorruptPage,
    DecompressionFailed,
    InvalidLevelData,
    ParquetError,
    UnsupportedFeature,
)
from reference_impl.parquet.metadata import parquet_thrift as md
from reference_impl.parquet.metadata.parquet_thrift import CompressionCodec, Encoding, PageType, Type
from reference_impl.parquet.metadata.thrift_struct import serialize
from reference_impl.parquet.pages.compression import compress
from reference_impl.parquet.reader import read_parquet
from reference_impl.parquet.schema.nested_types import list_node, records_from_logical
from reference_impl.parquet.schema.tree import leaf, root
from reference_impl.parquet.validation.validate import validate
from tests.reference_impl.data_path_helpers import (
    LENGTH,
    OPTIONAL,
    REQUIRED,
    file_with_chunk,
    int32,
    one_column,
    walk_pages,
    write,
)
from tests.reference_impl.parquet_helpers import budget

TEXT = leaf("s", Type.BYTE_ARRAY, repetition=OPTIONAL)
TREE = root([TEXT])
WORDS = [b"alpha", None, b"beta", b"alpha", b"gamma", None]
ROWS = len(WORDS)


def pages_of(raw: bytes) -> list[tuple[md.PageHeader, bytes]]:
    return [(page.header, page.body) for page in walk_pages(raw)]


def rebuilt(
    pages, *, num_rows=ROWS, num_values=ROWS, codec=CompressionCodec.UNCOMPRESSED, tree=TREE
) -> bytes:
    return file_with_chunk(tree, pages, num_rows=num_rows, num_values=num_values, codec=codec)


def test_v2_level_lengths_beyond_the_page() -> None:
    [(header, body)] = pages_of(one_column(TEXT, WORDS, page_version=2))
    v2 = header.data_page_header_v2
    lying = replace(header, data_page_header_v2=replace(v2, definition_levels_byte_length=len(body) + 1))
    with pytest.raises(
        CorruptPage, match=r"column s, row group 0, page 0: the level byte lengths .* exceed"
    ) as info:
        read_parquet(rebuilt([(lying, body)]))
    assert info.value.offset == 4  # the page header
    negative = replace(header, data_page_header_v2=replace(v2, repetition_levels_byte_length=-1))
    with pytest.raises(CorruptPage, match="negative level byte lengths"):
        read_parquet(rebuilt([(negative, body)]))


def test_v2_counts_that_lie() -> None:
    [(header, body)] = pages_of(one_column(TEXT, WORDS, page_version=2))
    v2 = header.data_page_header_v2
    for change, message in (({"num_nulls": 1}, "num_nulls is 1"), ({"num_rows": 5}, "num_rows is 5")):
        lying = replace(header, data_page_header_v2=replace(v2, **change))
        with pytest.raises(CorruptPage, match=message):
            read_parquet(rebuilt([(lying, body)]))


def test_dictionary_page_after_the_data_pages_that_need_it() -> None:
    dictionary, data = pages_of(one_column(TEXT, WORDS, encoding="RLE_DICTIONARY"))
    raw = rebuilt([data, dictionary])
    with pytest.raises(
        CorruptPage, match="page 0: a RLE_DICTIONARY data page with 4 value.* no dictionary"
    ) as info:
        read_parquet(raw)
    assert info.value.offset == 4
    # Before its data pages, anywhere, it is fine: here after an INDEX_PAGE.
    index_page = md.PageHeader(
        type=PageType.INDEX_PAGE,
        uncompressed_page_size=2,
        compressed_page_size=2,
        index_page_header=md.IndexPageHeader(),
    )
    assert read_parquet(rebuilt([(index_page, b"??"), dictionary, data])).data["s"] == WORDS
    # ... or after data pages that do not need it.
    [plain] = pages_of(one_column(TEXT, WORDS))
    mixed = rebuilt([plain, dictionary, data], num_rows=2 * ROWS, num_values=2 * ROWS)
    assert read_parquet(mixed).data["s"] == WORDS + WORDS


def test_a_second_dictionary_page() -> None:
    dictionary, data = pages_of(one_column(TEXT, WORDS, encoding="RLE_DICTIONARY"))
    with pytest.raises(CorruptPage, match="page 1: a second dictionary page"):
        read_parquet(rebuilt([dictionary, dictionary, data]))


def test_dictionary_index_out_of_range() -> None:
    dictionary, (header, body) = pages_of(one_column(TEXT, WORDS, encoding="RLE_DICTIONARY"))
    levels = encode_rle_hybrid_length_prefixed([0 if w is None else 1 for w in WORDS], 1)
    indices = bytes([2]) + encode_rle_hybrid([0, 1, 3, 0], 2)  # 3 entries: index 3 is out of range
    body = levels + indices
    header = replace(header, uncompressed_page_size=len(body), compressed_page_size=len(body))
    with pytest.raises(
        CorruptPage, match="dictionary index 3, expected an index below the dictionary size 3"
    ) as info:
        read_parquet(rebuilt([dictionary, (header, body)]))
    assert info.value.offset > 4 + len(levels)


def test_corrupt_compressed_page() -> None:
    [(header, body)] = pages_of(one_column(TEXT, WORDS, codec="SNAPPY"))
    damaged = b"\xff" * len(body)  # a length varint that never ends
    raw = rebuilt([(header, damaged)], codec=CompressionCodec.SNAPPY)
    with pytest.raises(DecompressionFailed, match="column s, row group 0, page 0: SNAPPY") as info:
        read_parquet(raw)
    assert info.value.offset >= 4


def test_decompression_bomb_is_stopped_at_the_declared_size() -> None:
    bomb = compress(CompressionCodec.GZIP, bytes(10_000_000))
    header = md.PageHeader(
        type=PageType.DATA_PAGE,
        uncompressed_page_size=64,
        compressed_page_size=len(bomb),
        data_page_header=md.DataPageHeader(
            num_values=1,
            encoding=Encoding.PLAIN,
            definition_level_encoding=Encoding.RLE,
            repetition_level_encoding=Encoding.RLE,
        ),
    )
    with pytest.raises(DecompressionFailed, match="GZIP"):
        read_parquet(rebuilt([(header, bomb)], codec=CompressionCodec.GZIP, num_rows=1, num_values=1))


def test_a_compressed_page_claiming_more_values_than_its_bytes_hold() -> None:
    values = encode_plain(Type.INT32, [1, 2])
    stored = compress(CompressionCodec.ZSTD, values)
    header = md.PageHeader(
        type=PageType.DATA_PAGE_V2,
        uncompressed_page_size=len(values),
        compressed_page_size=len(stored),
        data_page_header_v2=md.DataPageHeaderV2(
            num_values=3,
            num_nulls=0,
            num_rows=3,
            encoding=Encoding.PLAIN,
            definition_levels_byte_length=0,
            repetition_levels_byte_length=0,
        ),
    )
    tree = root([int32(repetition=REQUIRED)])
    raw = file_with_chunk(tree, [(header, stored)], num_rows=3, num_values=3, codec=CompressionCodec.ZSTD)
    with pytest.raises(CorruptPage, match=r"need 12 byte.*\(byte 0 of the decompressed bytes\)") as info:
        read_parquet(raw)
    assert info.value.offset > 4  # where the compressed values are stored


def test_uncompressed_sizes_must_agree() -> None:
    [(header, body)] = pages_of(one_column(TEXT, WORDS, page_version=2, codec="GZIP", v2_is_compressed=False))
    lying = replace(header, uncompressed_page_size=header.uncompressed_page_size + 1)
    with pytest.raises(CorruptPage, match="uncompressed page section"):
        read_parquet(rebuilt([(lying, body)], codec=CompressionCodec.GZIP))


def test_level_above_the_maximum() -> None:
    """A list of REQUIRED elements: maximum definition level 2, stored in 2 bits, so 3 fits the
    bit width but not the schema."""
    tree = root([list_node("l", int32("e", REQUIRED), repetition=OPTIONAL)])
    [(header, _)] = pages_of(write(tree, records_from_logical(tree, [{"l": [1]}])))
    run_of_one_3 = b"\x02\x03"  # RLE run header (1 << 1), then the value 3 in one byte
    body = (
        encode_rle_hybrid_length_prefixed([0], 1)
        + LENGTH.pack(len(run_of_one_3))
        + run_of_one_3
        + encode_plain(Type.INT32, [1])
    )
    header = replace(header, uncompressed_page_size=len(body), compressed_page_size=len(body))
    raw = file_with_chunk(tree, [(header, body)], num_rows=1, num_values=1)
    with pytest.raises(
        InvalidLevelData, match="page 0: definition level 3 of entry 0 exceeds the column's maximum"
    ):
        read_parquet(raw)


def test_an_encoding_on_a_type_it_does_not_apply_to() -> None:
    for encoding, message in (
        (Encoding.DELTA_BINARY_PACKED, "applies to INT32, INT64, not BYTE_ARRAY"),
        (Encoding.BIT_PACKED, "BIT_PACKED cannot encode values"),
    ):
        [(header, body)] = pages_of(one_column(TEXT, WORDS))
        lying = replace(header, data_page_header=replace(header.data_page_header, encoding=encoding))
        with pytest.raises(CorruptPage, match=message):
            read_parquet(rebuilt([(lying, body)]))


def test_unknown_codec_is_unsupported() -> None:
    pages = pages_of(one_column(TEXT, WORDS))
    with pytest.raises(UnsupportedFeature, match="ColumnMetaData.codec: CompressionCodec value 42"):
        read_parquet(rebuilt(pages, codec=42))


def test_leaves_that_disagree_on_the_records() -> None:
    tree = root([list_node("l", int32("e"), repetition=OPTIONAL), int32("n")])
    rows = [{"l": [1, 2], "n": 1}, {"l": None, "n": None}]
    raw = write(tree, records_from_logical(tree, rows))
    assert read_parquet(raw).logical_rows() == rows
    # Make the list column say 3 records (rep levels 0, 0, 0) while the row group says 2.
    [(header, body)] = pages_of(raw)
    repetition = encode_rle_hybrid_length_prefixed([0, 0, 0], 1)
    old_repetition_length = 4 + int.from_bytes(body[:4], "little")
    body = repetition + body[old_repetition_length:]
    header = replace(header, uncompressed_page_size=len(body), compressed_page_size=len(body))
    list_only = root([list_node("l", int32("e"), repetition=OPTIONAL)])
    with pytest.raises(InvalidLevelData, match="expected 2 records, the level data holds 3"):
        read_parquet(file_with_chunk(list_only, [(header, body)], num_rows=2, num_values=3))



def test_a_null_list_with_entries_of_elements_is_rejected_by_the_reader_and_the_validator() -> None:
    """A null list that still spends an entry per element (as DuckDB 2.0 writes a null
    fixed-size ARRAY): each entry is in range on its own, but repetition level 1 after a
    null list repeats nothing (README.md, 'Nested Encoding'). The validator assembles the
    records as the reader does, so it does not pass what the reader rejects."""
    tree = root([list_node("l", int32("e"), repetition=OPTIONAL)])
    rows = [{"l": [1, 2, 3]}, {"l": [4, 5, 6]}]
    [(header, _)] = pages_of(write(tree, records_from_logical(tree, rows)))
    repetition, definition = [0, 1, 1] * 3, [3, 3, 3, 0, 0, 0, 3, 3, 3]  # [1, 2, 3], null x3, [4, 5, 6]
    body = (
        encode_rle_hybrid_length_prefixed(repetition, 1)
        + encode_rle_hybrid_length_prefixed(definition, 2)
        + encode_plain(Type.INT32, [1, 2, 3, 4, 5, 6])
    )
    header = replace(header, uncompressed_page_size=len(body), compressed_page_size=len(body),
                     data_page_header=replace(header.data_page_header, num_values=len(definition)))
    raw = file_with_chunk(tree, [(header, body)], num_rows=3, num_values=len(definition))
    no_open_occurrence = r"entry 4 \(record 1\): repetition level 1 repeats a field that has no open"
    with pytest.raises(InvalidLevelData, match=no_open_occurrence):
        read_parquet(raw)
    with pytest.raises(InvalidLevelData, match=no_open_occurrence):
        validate(raw)

VALID = [
    one_column(TEXT, WORDS * 3, encoding="RLE_DICTIONARY", codec="SNAPPY", page_row_limit=5),
    one_column(TEXT, WORDS * 3, page_version=2, codec="ZSTD", page_row_limit=4),
    write(
        root([list_node("l", int32("e"), repetition=OPTIONAL)]),
        records_from_logical(
            root([list_node("l", int32("e"), repetition=OPTIONAL)]),
            [{"l": [i, None] if i % 3 else None} for i in range(12)],
        ),
        page_version=2,
        encoding="DELTA_BINARY_PACKED",
        page_row_limit=5,
    ),
]


@given(st.sampled_from(range(len(VALID))), st.integers(0, 10**6), st.binary(min_size=1, max_size=4))
@budget(150)
def test_damage_anywhere_stays_in_the_error_vocabulary(which: int, seed: int, noise: bytes) -> None:
    raw = bytearray(VALID[which])
    position = 4 + seed % (len(raw) - 12)
    raw[position : position + len(noise)] = noise
    try:
        read_parquet(bytes(raw))
    except ParquetError as error:
        assert error.offset is not None


def test_a_page_of_more_entries_than_the_reader_materialises() -> None:
    """A resource limit (chunk_reader.MAX_PAGE_ENTRIES): one RLE run can claim any count."""
    from reference_impl.parquet.pages.chunk_reader import MAX_PAGE_ENTRIES

    count = MAX_PAGE_ENTRIES + 1
    body = encode_rle_hybrid_length_prefixed([0] * 8, 1)  # the run's length is never trusted
    header = md.PageHeader(
        type=PageType.DATA_PAGE,
        uncompressed_page_size=len(body),
        compressed_page_size=len(body),
        data_page_header=md.DataPageHeader(
            num_values=count,
            encoding=Encoding.PLAIN,
            definition_level_encoding=Encoding.RLE,
            repetition_level_encoding=Encoding.RLE,
        ),
    )
    raw = file_with_chunk(root([int32()]), [(header, body)], num_rows=count, num_values=count)
    with pytest.raises(UnsupportedFeature, match=f"a data page of {count} entries") as info:
        read_parquet(raw)
    assert info.value.offset == 4


def test_a_page_claiming_more_values_than_it_holds_hides_no_page() -> None:
    """parquet.thrift: the pages' num_values sum to ColumnMetaData.num_values. In a chunk of
    one-value pages, page 0 raised to 2 values reads a second from its level padding, pages 1
    to 4 bring the count to 6, and page 5 (the last word) would go unread: the page left is
    named with its offset. (conformance fuzz found it, docs/fuzzing.md.)"""
    pages = pages_of(one_column(TEXT, WORDS, page_row_limit=1))
    assert len(pages) == ROWS
    header, body = pages[0]
    raised = replace(header, data_page_header=replace(header.data_page_header, num_values=2))
    raw = rebuilt([(raised, body), *pages[1:]])
    last_at = 4 + len(serialize(raised)) + len(body) + sum(len(serialize(h)) + len(b) for h, b in pages[1:-1])
    left = r"column s, row group 0, page 5: a data page starts after the pages before it already hold all 6"
    with pytest.raises(CorruptPage, match=left) as info:
        read_parquet(raw)
    assert info.value.offset == last_at
    assert read_parquet(rebuilt(pages)).data["s"] == WORDS
