"""Malformed files: every reader path raises the specific error class with the
byte offset, never wrong data, never another exception, never a hang
(docs/architecture.md, 'Bad input')."""

from __future__ import annotations

import io
import struct
from dataclasses import replace

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.common.leniency import reading
from reference_impl.parquet.encodings.plain import encode_plain
from reference_impl.parquet.encodings.rle_hybrid import encode_rle_hybrid_length_prefixed
from reference_impl.parquet.errors import (
    BadMagic,
    CorruptMetadata,
    CorruptPage,
    CorruptThrift,
    FooterLengthOutOfRange,
    InvalidLevelData,
    ParquetError,
    TruncatedFile,
    UnsupportedFeature,
)
from reference_impl.parquet.metadata import parquet_thrift as md
from reference_impl.parquet.metadata.parquet_thrift import Encoding, FieldRepetitionType, PageType, Type
from reference_impl.parquet.metadata.thrift_struct import serialize
from reference_impl.parquet.pages.chunk_reader import PAGE_PAST_CHUNK
from reference_impl.parquet.reader import read_footer, read_parquet
from reference_impl.parquet.schema.flat import ColumnSpec, schema_elements
from reference_impl.parquet.writer import write_parquet
from tests.reference_impl.parquet_helpers import budget

REQUIRED = FieldRepetitionType.REQUIRED
OPTIONAL = FieldRepetitionType.OPTIONAL


def valid_file(rows: int = 6) -> bytes:
    columns = [
        ColumnSpec("a", Type.INT32, OPTIONAL),
        ColumnSpec("s", Type.BYTE_ARRAY, REQUIRED),
        ColumnSpec("b", Type.BOOLEAN, OPTIONAL),
    ]
    data = {
        "a": [None if i % 3 == 0 else i for i in range(rows)],
        "s": [b"v" * i for i in range(rows)],
        "b": [i % 2 == 0 for i in range(rows)],
    }
    sink = io.BytesIO()
    write_parquet(sink, columns, data, row_group_size=4, rows_per_page=3)
    return sink.getvalue()


def with_footer(raw: bytes, footer: md.FileMetaData) -> bytes:
    """The same data region with a different footer."""
    _, footer_start = read_footer(raw)
    encoded = serialize(footer)
    return raw[:footer_start] + encoded + struct.pack("<I", len(encoded)) + b"PAR1"


def file_with_pages(
    column: ColumnSpec, pages: list[tuple[md.PageHeader, bytes]], num_rows: int
) -> bytes:
    """A one-column file whose chunk is exactly ``pages`` (headers may lie)."""
    chunk = b"".join(serialize(header) + body for header, body in pages)
    meta = md.ColumnMetaData(
        type=column.physical_type,
        encodings=[Encoding.PLAIN],
        path_in_schema=[column.name],
        codec=md.CompressionCodec.UNCOMPRESSED,
        num_values=num_rows,
        total_uncompressed_size=len(chunk),
        total_compressed_size=len(chunk),
        data_page_offset=4,
    )
    footer = md.FileMetaData(
        version=1,
        schema=schema_elements([column]),
        num_rows=num_rows,
        row_groups=[
            md.RowGroup(
                columns=[md.ColumnChunk(file_offset=0, meta_data=meta)],
                total_byte_size=len(chunk),
                num_rows=num_rows,
            )
        ],
    )
    encoded = serialize(footer)
    return b"PAR1" + chunk + encoded + struct.pack("<I", len(encoded)) + b"PAR1"


def data_page(num_values: int, body: bytes, *, size: int | None = None, **fields) -> tuple:
    header = md.PageHeader(
        type=PageType.DATA_PAGE,
        uncompressed_page_size=len(body) if size is None else size,
        compressed_page_size=len(body) if size is None else size,
        data_page_header=md.DataPageHeader(
            num_values=num_values,
            encoding=fields.get("encoding", Encoding.PLAIN),
            definition_level_encoding=fields.get("levels", Encoding.RLE),
            repetition_level_encoding=Encoding.RLE,
        ),
    )
    return header, body


INT32_REQUIRED = ColumnSpec("x", Type.INT32, REQUIRED)
INT32_OPTIONAL = ColumnSpec("x", Type.INT32, OPTIONAL)


def test_the_page_builder_makes_readable_files() -> None:
    raw = file_with_pages(
        INT32_REQUIRED,
        [
            data_page(2, encode_plain(Type.INT32, [1, 2])),
            data_page(1, encode_plain(Type.INT32, [3])),
        ],
        3,
    )
    assert read_parquet(raw).data == {"x": [1, 2, 3]}


# ---------------------------------------------------------------------------
# Framing and footer ('3 - File Format')
# ---------------------------------------------------------------------------


def test_bad_leading_magic() -> None:
    raw = valid_file()
    with pytest.raises(BadMagic) as info:
        read_parquet(b"PAR0" + raw[4:])
    assert info.value.offset == 0


def test_bad_trailing_magic() -> None:
    raw = valid_file()
    with pytest.raises(BadMagic) as info:
        read_parquet(raw[:-1] + b"2")
    assert info.value.offset == len(raw) - 4


def test_encrypted_footer_magic_needs_file_crypto_metadata() -> None:
    # '3.7.3', 5.3: "PARE" means FileCryptoMetaData then the encrypted footer;
    # a plaintext FileMetaData there is not one (tests/reference_impl/encryption
    # covers real encrypted files).
    raw = valid_file()
    with pytest.raises(CorruptThrift, match="FileCryptoMetaData"):
        read_parquet(b"PARE" + raw[4:-4] + b"PARE")
    with pytest.raises(BadMagic, match="starts with the magic b'PARE' but ends with b'PAR1'"):
        read_parquet(b"PARE" + raw[4:])


@pytest.mark.parametrize("size", range(12))
def test_too_short_for_the_framing(size: int) -> None:
    with pytest.raises(TruncatedFile) as info:
        read_parquet(valid_file()[:size])
    assert info.value.offset == size


@pytest.mark.parametrize("length", [0, 2**32 - 1, 10**6])
def test_footer_length_out_of_range(length: int) -> None:
    raw = valid_file()
    corrupt = raw[:-8] + struct.pack("<I", length) + b"PAR1"
    with pytest.raises(FooterLengthOutOfRange) as info:
        read_parquet(corrupt)
    assert info.value.offset == len(raw) - 8


def test_footer_length_exactly_one_too_large() -> None:
    # The footer would have to overlap the leading magic.
    raw = b"PAR1" + b"\x00" + struct.pack("<I", 2) + b"PAR1"
    with pytest.raises(FooterLengthOutOfRange):
        read_parquet(raw)


def test_truncated_footer() -> None:
    # The footer loses its last byte (the final stop field) and the length says so.
    raw = valid_file()
    _, footer_start = read_footer(raw)
    footer = raw[footer_start:-8]
    corrupt = raw[:footer_start] + footer[:-1] + struct.pack("<I", len(footer) - 1) + b"PAR1"
    with pytest.raises(CorruptThrift) as info:
        read_parquet(corrupt)
    assert footer_start <= info.value.offset <= len(corrupt) - 8


def test_footer_length_shorter_than_the_footer() -> None:
    # The length field claims fewer bytes: the decode starts mid-footer.
    raw = valid_file()
    (length,) = struct.unpack("<I", raw[-8:-4])
    corrupt = raw[:-8] + struct.pack("<I", length - 5) + b"PAR1"
    with pytest.raises(ParquetError) as info:
        read_parquet(corrupt)
    assert info.value.offset is not None


def test_footer_with_trailing_bytes() -> None:
    raw = valid_file()
    _, footer_start = read_footer(raw)
    footer = raw[footer_start:-8]
    corrupt = raw[:footer_start] + footer + b"\x00\x00" + struct.pack("<I", len(footer) + 2)
    with pytest.raises(CorruptMetadata, match="FileMetaData ends after") as info:
        read_parquet(corrupt + b"PAR1")
    assert info.value.offset == footer_start + len(footer)


@pytest.mark.parametrize("cut", [5, 20, 60, 100, -30, -9, -5, -1])
def test_cut_off_files(cut: int) -> None:
    raw = valid_file()
    with pytest.raises((BadMagic, TruncatedFile)):
        read_parquet(raw[:cut])


def test_every_prefix_of_a_file_is_refused() -> None:
    raw = valid_file(rows=3)
    for size in range(len(raw)):
        with pytest.raises(ParquetError) as info:
            read_parquet(raw[:size])
        assert info.value.offset is not None


# ---------------------------------------------------------------------------
# Footer contents that contradict the file
# ---------------------------------------------------------------------------


def _edit_first_chunk(raw: bytes, **changes) -> bytes:
    footer, _ = read_footer(raw)
    chunk = footer.row_groups[0].columns[0]
    chunk.meta_data = replace(chunk.meta_data, **changes)
    return with_footer(raw, footer)


def test_chunk_outside_the_data_region() -> None:
    raw = valid_file()
    for changes in (
        {"data_page_offset": 0},
        {"data_page_offset": 10**9},
        {"total_compressed_size": 10**6},
        {"total_compressed_size": -1},
    ):
        with pytest.raises(CorruptMetadata, match="outside the data region") as info:
            read_parquet(_edit_first_chunk(raw, **changes))
        assert info.value.offset is not None


def test_chunk_shorter_than_its_pages_is_a_truncated_page() -> None:
    raw = valid_file()
    footer, _ = read_footer(raw)
    size = footer.row_groups[0].columns[0].meta_data.total_compressed_size
    with pytest.raises(CorruptPage, match="past the end of its column chunk") as info:
        read_parquet(_edit_first_chunk(raw, total_compressed_size=size - 3))
    assert info.value.offset > 4


def test_inconsistent_counts() -> None:
    raw = valid_file()
    footer, _ = read_footer(raw)
    with pytest.raises(CorruptMetadata, match="num_rows"):
        read_parquet(with_footer(raw, replace(footer, num_rows=footer.num_rows + 1)))
    with pytest.raises(CorruptMetadata, match="values, its row group"):
        read_parquet(_edit_first_chunk(raw, num_values=1))
    with pytest.raises(CorruptMetadata, match="differs from the schema"):
        read_parquet(_edit_first_chunk(raw, type=Type.INT64))
    with pytest.raises(CorruptMetadata, match="path_in_schema"):
        read_parquet(_edit_first_chunk(raw, path_in_schema=["zz"]))
    footer, _ = read_footer(raw)
    footer.row_groups[0].columns.pop()
    with pytest.raises(CorruptMetadata, match="column chunks"):
        read_parquet(with_footer(raw, footer))


def test_malformed_schemas() -> None:
    raw = valid_file()
    footer, _ = read_footer(raw)
    root, *leaves = footer.schema
    cases = [
        ([replace(root, num_children=5), *leaves], CorruptMetadata, "declares num_children=5"),
        ([root, replace(leaves[0], type=None), *leaves[1:]], CorruptMetadata, "physical type"),
        (
            [root, replace(leaves[0], repetition_type=None), *leaves[1:]],
            CorruptMetadata,
            "repetition",
        ),
        ([root, replace(leaves[0], type=42), *leaves[1:]], UnsupportedFeature, "physical type 42"),
        (
            [replace(root, repetition_type=FieldRepetitionType.REPEATED), *leaves],
            CorruptMetadata,
            "root-repetition-type",  # a breach: refused when read strictly, as here
        ),
        ([root, leaves[0], leaves[0], leaves[2]], CorruptMetadata, "duplicate"),
        ([], CorruptMetadata, "empty"),
    ]
    for schema, error, message in cases:
        with pytest.raises(error, match=message):
            read_parquet(with_footer(raw, replace(footer, schema=schema)))


def test_unsupported_footer_features_are_named() -> None:
    raw = valid_file()
    footer, _ = read_footer(raw)
    algorithm = md.EncryptionAlgorithm(AES_GCM_V1=md.AesGcmV1())
    # A plaintext footer with an encryption algorithm must be followed by its signature ('3.7.3', 5.3).
    with pytest.raises(CorruptMetadata, match="28-byte signature"):
        read_parquet(with_footer(raw, replace(footer, encryption_algorithm=algorithm)))
    footer.row_groups[0].columns[0].file_path = "elsewhere.parquet"
    with pytest.raises(UnsupportedFeature, match="another file"):
        read_parquet(with_footer(raw, footer))


# ---------------------------------------------------------------------------
# Pages that lie
# ---------------------------------------------------------------------------


def test_page_claims_more_values_than_its_bytes_hold() -> None:
    raw = file_with_pages(INT32_REQUIRED, [data_page(4, encode_plain(Type.INT32, [1, 2]))], 4)
    with pytest.raises(CorruptPage, match="need 16 byte") as info:
        read_parquet(raw)
    assert info.value.offset > 4


def test_page_claims_more_values_than_the_chunk() -> None:
    raw = file_with_pages(INT32_REQUIRED, [data_page(5, encode_plain(Type.INT32, [1] * 5))], 2)
    with pytest.raises(CorruptPage, match="claims 5 values"):
        read_parquet(raw)


def test_chunk_runs_out_of_pages() -> None:
    raw = file_with_pages(INT32_REQUIRED, [data_page(1, encode_plain(Type.INT32, [1]))], 2)
    with pytest.raises(CorruptPage, match="ends after 1 of its 2 values"):
        read_parquet(raw)


def test_bytes_after_the_last_value_of_a_page_are_ignored() -> None:
    # The header says 1 value; what follows it (padding, as fastparquet writes) is not data.
    padding = bytes(8)
    raw = file_with_pages(INT32_REQUIRED, [data_page(1, encode_plain(Type.INT32, [7]) + padding)], 1)
    assert read_parquet(raw).data == {"x": [7]}


def test_page_sizes_that_disagree_or_are_negative() -> None:
    header, body = data_page(1, encode_plain(Type.INT32, [1]))
    for changes in ({"uncompressed_page_size": 9}, {"compressed_page_size": -4}):
        raw = file_with_pages(INT32_REQUIRED, [(replace(header, **changes), body)], 1)
        with pytest.raises(CorruptPage):
            read_parquet(raw)


def test_page_header_cut_by_the_chunk_end() -> None:
    """The header delimits the page: read past the chunk's declared end (a breach), or
    refused strictly (docs/lenient-readings.md)."""
    header, body = data_page(1, encode_plain(Type.INT32, [1]))
    raw = file_with_pages(INT32_REQUIRED, [(header, body)], 1)
    footer, _ = read_footer(raw)
    meta = footer.row_groups[0].columns[0].meta_data
    meta.total_compressed_size = 3  # inside the page header
    cut = with_footer(raw, footer)
    with pytest.raises(CorruptPage, match=PAGE_PAST_CHUNK.id) as info:
        read_parquet(cut)
    assert info.value.offset >= 4
    with reading() as breaches:
        assert read_parquet(cut).data == {"x": [1]}
    assert [found.rule for found in breaches] == [PAGE_PAST_CHUNK]


def test_invalid_definition_levels() -> None:
    values = encode_plain(Type.INT32, [7])
    # The length prefix claims more bytes than the page has.
    lying_prefix = struct.pack("<I", 100) + b"\x04\x01"
    # The level runs stop after 2 of the 3 values: one RLE run of two 1s.
    short_levels = struct.pack("<I", 2) + b"\x04\x01"
    for body in (lying_prefix + values, short_levels + values):
        raw = file_with_pages(INT32_OPTIONAL, [data_page(3, body)], 3)
        with pytest.raises(InvalidLevelData) as info:
            read_parquet(raw)
        assert info.value.offset > 4


def test_levels_and_values_disagree() -> None:
    # Levels say 3 values are present, the page holds 1.
    body = encode_rle_hybrid_length_prefixed([1, 1, 1], 1) + encode_plain(Type.INT32, [7])
    raw = file_with_pages(INT32_OPTIONAL, [data_page(3, body)], 3)
    with pytest.raises(CorruptPage):
        read_parquet(raw)


def test_page_contents_without_what_they_need() -> None:
    """An unknown encoding is named; dictionary indices need a dictionary page
    before them; a dictionary page alone holds no values."""
    with pytest.raises(UnsupportedFeature, match="encoding 77") as info:
        page = data_page(1, encode_plain(Type.INT32, [1]), encoding=77)
        read_parquet(file_with_pages(INT32_REQUIRED, [page], 1))
    assert info.value.offset is not None
    page = data_page(1, b"\x01\x02\x00", encoding=Encoding.RLE_DICTIONARY)
    with pytest.raises(CorruptPage, match="page 0: a RLE_DICTIONARY data page .* no dictionary page"):
        read_parquet(file_with_pages(INT32_REQUIRED, [page], 1))
    dictionary = md.PageHeader(
        type=PageType.DICTIONARY_PAGE,
        uncompressed_page_size=4,
        compressed_page_size=4,
        dictionary_page_header=md.DictionaryPageHeader(num_values=1, encoding=Encoding.PLAIN),
    )
    with pytest.raises(CorruptPage, match="ends after 0 of its 1 values"):
        read_parquet(file_with_pages(INT32_REQUIRED, [(dictionary, b"\x00" * 4)], 1))


def test_unknown_and_index_pages_are_skipped() -> None:
    index_page = md.PageHeader(
        type=PageType.INDEX_PAGE,
        uncompressed_page_size=3,
        compressed_page_size=3,
        index_page_header=md.IndexPageHeader(),
    )
    future_page = md.PageHeader(type=9, uncompressed_page_size=2, compressed_page_size=2)
    pages = [
        (index_page, b"abc"),
        data_page(1, encode_plain(Type.INT32, [5])),
        (future_page, b"zz"),
        data_page(1, encode_plain(Type.INT32, [6])),
    ]
    assert read_parquet(file_with_pages(INT32_REQUIRED, pages, 2)).data == {"x": [5, 6]}


def test_data_page_without_its_header_struct() -> None:
    header = md.PageHeader(
        type=PageType.DATA_PAGE, uncompressed_page_size=4, compressed_page_size=4
    )
    with pytest.raises(CorruptPage, match="without data_page_header"):
        read_parquet(file_with_pages(INT32_REQUIRED, [(header, b"\x00" * 4)], 1))


# ---------------------------------------------------------------------------
# Fuzzing: any damage stays inside the error vocabulary, and terminates
# ---------------------------------------------------------------------------

VALID = valid_file()


def _pyarrow_file() -> bytes:
    sink = io.BytesIO()
    table = pa.table(
        {"a": pa.array([1, None, 3] * 5, pa.int64()), "s": pa.array(["x", "yy", None] * 5)}
    )
    pq.write_table(
        table,
        sink,
        use_dictionary=False,
        compression="NONE",
        data_page_version="1.0",
        data_page_size=16,
        write_batch_size=4,
        row_group_size=8,
    )
    return sink.getvalue()


FILES = [VALID, _pyarrow_file()]


@given(
    st.sampled_from(range(len(FILES))),
    st.integers(0, 10**6),
    st.binary(min_size=1, max_size=4),
)
@budget(400)
def test_damaged_files_never_escape_the_error_vocabulary(which: int, seed: int, noise: bytes):
    raw = bytearray(FILES[which])
    position = seed % len(raw)
    raw[position : position + len(noise)] = noise
    try:
        read_parquet(bytes(raw))
    except ParquetError as error:
        assert error.offset is not None
