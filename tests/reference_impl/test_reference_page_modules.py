"""The page-level modules on their own: levels, value encodings, the dictionary,
page framing, writer options."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.parquet.encodings.dictionary import (
    DictionaryBuilder,
    decode_dictionary_page,
    encode_indices,
    lookup,
)
from reference_impl.parquet.encodings.values import APPLIES_TO, decode_values, encode_values
from reference_impl.parquet.errors import (
    CorruptPage,
    DecompressionFailed,
    InvalidLevelData,
    UnsupportedFeature,
)
from reference_impl.parquet.metadata.parquet_thrift import CompressionCodec, Encoding, Type
from reference_impl.parquet.nested.levels import (
    decode_levels_v1,
    decode_levels_v2,
    encode_levels_v1,
    encode_levels_v2,
)
from reference_impl.parquet.pages.compression import compress
from reference_impl.parquet.pages.page import data_page_v2, page_content
from reference_impl.parquet.writer_options import WriterOptions
from tests.reference_impl.parquet_helpers import budget

# ---------------------------------------------------------------------------
# levels
# ---------------------------------------------------------------------------


@given(
    st.integers(1, 9).flatmap(lambda m: st.tuples(st.just(m), st.lists(st.integers(0, m), max_size=200))),
    st.sampled_from([Encoding.RLE, Encoding.BIT_PACKED]),
)
@budget(60)
def test_levels_round_trip_in_both_page_versions(max_and_levels, encoding) -> None:
    max_level, levels = max_and_levels
    v1 = encode_levels_v1(levels, max_level, encoding) + b"tail"
    decoded, end = decode_levels_v1(
        v1, len(levels), max_level, encoding, kind="definition", start=0, end=len(v1)
    )
    assert decoded.tolist() == levels and v1[end:] == b"tail"
    v2 = encode_levels_v2(levels, max_level)
    assert (
        decode_levels_v2(v2, len(levels), max_level, kind="repetition", start=0, end=len(v2)).tolist()
        == levels
    )


def test_levels_of_maximum_0_are_not_stored() -> None:
    assert encode_levels_v1([0, 0], 0, Encoding.RLE) == encode_levels_v2([0, 0], 0) == b""


def test_level_errors_carry_the_offset() -> None:
    with pytest.raises(InvalidLevelData, match="repetition levels in encoding PLAIN") as info:
        decode_levels_v1(
            b"\x00" * 8, 1, 1, Encoding.PLAIN, kind="repetition", start=2, end=8, base_offset=100
        )
    assert info.value.offset == 102
    with pytest.raises(InvalidLevelData, match="definition level 3 of entry 1 exceeds"):
        data = encode_levels_v2([1, 3], 3)
        decode_levels_v2(data, 2, 2, kind="definition", start=0, end=len(data))


# ---------------------------------------------------------------------------
# value encodings
# ---------------------------------------------------------------------------

SAMPLES = {
    Type.BOOLEAN: [True, False, True],
    Type.INT32: [1, -(2**31), 2**31 - 1],
    Type.INT64: [1, -(2**63), 2**63 - 1],
    Type.INT96: [bytes(range(12))],
    Type.FLOAT: [1.5, -0.0],
    Type.DOUBLE: [1e300, -0.0],
    Type.BYTE_ARRAY: [b"", b"abc", b"abd"],
    Type.FIXED_LEN_BYTE_ARRAY: [b"ab", b"cd"],
}


@pytest.mark.parametrize(
    ("encoding", "physical"), [(e, t) for e, types in APPLIES_TO.items() for t in sorted(types)]
)
def test_every_encoding_on_every_type_it_applies_to(encoding, physical) -> None:
    values = SAMPLES[physical]
    data = encode_values(encoding, physical, values, 2)
    decoded = decode_values(encoding, physical, data, len(values), type_length=2, start=0, end=len(data))
    assert [np.float64(v).tobytes() if isinstance(v, float) else v for v in decoded] == [
        np.float64(v).tobytes() if isinstance(v, float) else v for v in values
    ]


def test_value_encoding_errors() -> None:
    with pytest.raises(ValueError, match="RLE applies to BOOLEAN, not INT32"):
        encode_values(Encoding.RLE, Type.INT32, [1])
    with pytest.raises(UnsupportedFeature, match="encoding 99"):
        decode_values(99, Type.INT32, b"", 0, type_length=None, start=0, end=0)
    with pytest.raises(CorruptPage, match="RLE_DICTIONARY cannot encode values"):
        decode_values(Encoding.RLE_DICTIONARY, Type.INT32, b"", 0, type_length=None, start=0, end=0)


# ---------------------------------------------------------------------------
# the dictionary
# ---------------------------------------------------------------------------


def test_dictionary_builder_adds_a_record_whole_or_not_at_all() -> None:
    builder = DictionaryBuilder(Type.BYTE_ARRAY, None, size_limit=20)
    assert builder.try_add([b"aa", b"bb", b"aa"]) == [0, 1, 0]
    assert builder.size == 12
    assert builder.try_add([b"aa", b"cc", b"dddd"]) is None  # 12 + 6 + 8 > 20: nothing added
    assert builder.values == [b"aa", b"bb"]
    assert builder.try_add([b"bb", b"cc"]) == [1, 2]
    assert builder.size == 18
    booleans = DictionaryBuilder(Type.BOOLEAN, None, size_limit=None)
    assert booleans.try_add([True, False, True]) == [0, 1, 0] and booleans.size == 1


def test_dictionary_page_and_indices() -> None:
    page = encode_values(Encoding.PLAIN, Type.INT64, [10, 20, 30])
    dictionary = decode_dictionary_page(
        Type.INT64, page, 3, Encoding.PLAIN_DICTIONARY, type_length=None, start=0, end=len(page)
    )
    indices = encode_indices([2, 0, 1, 2], len(dictionary))
    assert indices[0] == 2  # the bit width of the largest index of a 3-entry dictionary
    assert lookup(dictionary, indices, 4, start=0, end=len(indices)) == [30, 10, 20, 30]
    with pytest.raises(CorruptPage, match="dictionary page in encoding RLE"):
        decode_dictionary_page(Type.INT64, page, 3, Encoding.RLE, type_length=None, start=0, end=len(page))
    with pytest.raises(CorruptPage, match="need 32 byte"):
        decode_dictionary_page(Type.INT64, page, 4, Encoding.PLAIN, type_length=None, start=0, end=len(page))


# ---------------------------------------------------------------------------
# page framing
# ---------------------------------------------------------------------------


def test_v2_page_sizes_include_the_uncompressed_levels() -> None:
    page = data_page_v2(
        num_values=3,
        num_nulls=1,
        num_rows=3,
        encoding=Encoding.PLAIN,
        repetition_levels=b"",
        definition_levels=b"\x06\x01",
        values=bytes(100),
        codec=CompressionCodec.GZIP,
        level=None,
        is_compressed=True,
    )
    assert page.header.uncompressed_page_size == 102
    assert page.header.compressed_page_size == len(page.body) < 102
    assert page.body[:2] == b"\x06\x01"


def test_page_content_in_place_or_decompressed() -> None:
    file = b"xx" + compress(CompressionCodec.ZSTD, b"hello") + b"yy"
    end = len(file) - 2
    decompressed = page_content(file, 2, end, 5, CompressionCodec.ZSTD)
    assert (bytes(decompressed.data), decompressed.in_file, decompressed.stored_at) == (b"hello", False, 2)
    in_place = page_content(file, 2, end, end - 2, CompressionCodec.ZSTD, compressed=False)
    assert in_place.in_file and in_place.data[in_place.start : in_place.end] == file[2:end]
    with pytest.raises(DecompressionFailed):
        page_content(file, 2, end, 4, CompressionCodec.ZSTD)


# ---------------------------------------------------------------------------
# writer options
# ---------------------------------------------------------------------------


def test_per_column_settings_resolve_by_the_longest_matching_path() -> None:
    options = WriterOptions(
        encoding="RLE_DICTIONARY",
        column_encodings={"a": "PLAIN", "a.b.c": "DELTA_BYTE_ARRAY"},
        codec="ZSTD",
        column_codecs={"a.b": "SNAPPY"},
        compression_level=5,
    )
    top = options.for_column("z")
    assert (top.dictionary, top.encoding, top.codec, top.compression_level) == (
        Encoding.RLE_DICTIONARY,
        Encoding.PLAIN,
        CompressionCodec.ZSTD,
        5,
    )
    inner = options.for_column("a.b.c")
    assert (inner.dictionary, inner.encoding, inner.codec, inner.compression_level) == (
        None,
        Encoding.DELTA_BYTE_ARRAY,
        CompressionCodec.SNAPPY,
        None,
    )  # SNAPPY has no levels
    assert options.for_column("a.x").encoding == Encoding.PLAIN
    assert options.for_column("ab").dictionary == Encoding.RLE_DICTIONARY  # "a" is not a prefix of "ab"


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"page_version": 3}, "page_version"),
        ({"level_encoding": "PLAIN"}, "level_encoding"),
        ({"fallback_encoding": "RLE_DICTIONARY"}, "fallback_encoding"),
        ({"page_row_limit": 0}, "page_row_limit"),
        ({"dictionary_size_limit": -1}, "dictionary_size_limit"),
        ({"codec": "NOPE"}, "codec"),
        ({"key_value_metadata": {"k": 1}}, "key_value_metadata"),
    ],
)
def test_bad_options(arguments, message) -> None:
    with pytest.raises(ValueError, match=message):
        WriterOptions(**arguments)
