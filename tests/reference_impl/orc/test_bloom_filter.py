"""The Bloom filter and its index, from the text of ORCv1.md 'Bloom Filter Index'.

Filters built bit by bit from the text's six steps, the messages byte by byte from
orc_proto.proto, the sizes from the formula writers use, the hashes against bit
positions measured in files ORC C++ (pyorc 0.12) wrote, a property that no value added
ever tests absent, and the checks of the index reader and the writer's options.
(tests/reference_impl/orc/test_bloom_filter_writers.py compares whole files' filters with
pyarrow's, pyorc's and ORC Java's.)
"""

from __future__ import annotations

import io
import math

import numpy as np
import pyarrow.orc
import pyorc
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reference_impl.orc.bloom_filter import (
    BloomFilterBits,
    bloom_filter_size,
    decimal_text,
    murmur3_64,
    thomas_wang_64,
    thomas_wang_64_array,
    value_hash,
    value_hashes,
)
from reference_impl.orc.bloom_filter_index import read_bloom_filters
from reference_impl.orc.errors import CorruptStream, DecompressionFailed, InvalidValue
from reference_impl.orc.metadata.file_tail import read_file_tail
from reference_impl.orc.metadata.orc_proto import BloomFilter, encode
from reference_impl.orc.metadata.proto_enums import CompressionKind, StreamKind
from reference_impl.orc.metadata.type_tree import TypeNode, decimal, list_of, numbered, primitive, struct
from reference_impl.orc.reader import read_orc
from reference_impl.orc.streams.compression import HEADER_BYTES, decompress_stream
from reference_impl.orc.streams.stripe_layout import StreamCodec, read_stripe_footer, stream_places
from reference_impl.orc.writer import write_orc
from reference_impl.orc.writer_options import OrcWriterOptions
from tests.reference_impl.orc.orc_samples import K

UTF8 = StreamKind.BLOOM_FILTER_UTF8
ORIGINAL = StreamKind.BLOOM_FILTER
INT32 = 2**32


def _base_hash(hash1: int, hash2: int) -> int:
    """The 64-bit hash whose low and high 32-bit halves are ``hash1`` and ``hash2``
    (step 2: "Split the above hashcode into two 32-bit hashcodes")."""
    return (hash2 % INT32) << 32 | hash1 % INT32


def _set_positions(bits: BloomFilterBits) -> list[int]:
    return [position for position in range(bits.num_bits) if bits.bits[position // 8] >> position % 8 & 1]


# --- size -------------------------------------------------------------------------------------

@pytest.mark.parametrize(("entries", "fpp", "size"), [
    # -1000 ln 0.05 / (ln 2)^2 = 6235.2 -> 6235 = 97 words + 27 bits -> 98 words; k = round(6.272 ln 2) = 4
    (1000, 0.05, (6272, 4)),
    # -1006 ln 0.05 / (ln 2)^2 = 6272.6 -> 6272 = 98 words exactly -> one word more: 99 words
    (1006, 0.05, (6336, 4)),
    # -1 ln 0.5 / (ln 2)^2 = 1.44 -> 1 -> 1 word; k = round(64 ln 2) = 44
    (1, 0.5, (64, 44)),
    # ORC Java's defaults: -10000 ln 0.01 / (ln 2)^2 = 95850.6 -> 1498 words; k = round(9.5872 ln 2) = 7
    (10000, 0.01, (95872, 7)),
])
def test_size_from_expected_entries_and_fpp(entries: int, fpp: float, size: tuple[int, int]) -> None:
    assert bloom_filter_size(entries, fpp) == size


@pytest.mark.parametrize(("entries", "fpp"), [(0, 0.05), (10, 0.0), (10, 1.0)])
def test_size_refuses_what_has_none(entries: int, fpp: float) -> None:
    with pytest.raises(ValueError, match="expected entries"):
        bloom_filter_size(entries, fpp)


# --- bits and messages, byte by byte ----------------------------------------------------------

def test_two_values_set_the_positions_of_the_six_steps() -> None:
    """m = 128 bits, k = 3. Value A: hash1 5, hash2 7: 5 + 7k = 12, 19, 26. Value B: hash1 -10,
    hash2 3: -7, -4, -1, each negative, so flipped (~x = -x - 1): 6, 3, 0."""
    bits = BloomFilterBits(3, bytearray(16))
    bits.add(_base_hash(5, 7))
    bits.add(_base_hash(-10, 3))
    assert _set_positions(bits) == [0, 3, 6, 12, 19, 26]
    # bit p is bit p % 8 of byte p // 8: {0, 3, 6} -> 0x49, 12 -> 0x10, 19 -> 0x08, 26 -> 0x04
    assert bytes(bits.bits) == bytes([0x49, 0x10, 0x08, 0x04]) + bytes(12)
    # "bitset[position >>> 6] |= (1L << position)": the same bits as two longs
    assert bits.words() == [0x04081049, 0]
    assert BloomFilterBits.from_words(3, [0x04081049, 0]) == bits


def test_positions_wrap_modulo_the_bits_in_32_bit_arithmetic() -> None:
    bits = BloomFilterBits(2, bytearray(16))
    assert bits.positions(_base_hash(200, 0)) == [200 % 128, 200 % 128]
    # 2^31 - 1 + 1 * 1 overflows to -2^31 (step 3 in Java's int), flipped to 2^31 - 1
    assert bits.positions(_base_hash(2**31 - 2, 1)) == [(2**31 - 1) % 128, (2**31 - 1) % 128]


def test_the_message_bytes_of_both_encodings() -> None:
    """orc_proto.proto: numHashFunctions = 1 (varint), bitset = 2 (repeated fixed64, not
    packed: one 0x11 key per long), utf8bitset = 3 (length-delimited bytes)."""
    bits = BloomFilterBits(3, bytearray([0x49, 0x10, 0x08, 0x04]) + bytearray(12))
    assert encode(BloomFilter(num_hash_functions=3, utf8bitset=bytes(bits.bits))) == (
        bytes([0x08, 3, 0x1A, 16, 0x49, 0x10, 0x08, 0x04]) + bytes(12))
    assert encode(BloomFilter(num_hash_functions=3, bitset=bits.words())) == (
        bytes([0x08, 3, 0x11, 0x49, 0x10, 0x08, 0x04, 0, 0, 0, 0, 0x11]) + bytes(8))


def test_membership() -> None:
    bits = BloomFilterBits(3, bytearray(16))
    bits.add(_base_hash(5, 7))
    assert bits.might_contain(_base_hash(5, 7))
    assert not bits.might_contain(_base_hash(-10, 3))


# --- hashes: bit positions measured in pyorc 0.12 files (n 1000, fpp 0.05: 6272 bits, k 4) ----

MEASURED_STRINGS = {
    "": [551, 1680, 2967, 5536],
    "a": [107, 1468, 3657, 5018],  # a 1-byte tail
    "héllo": [605, 1966, 2640, 4992],  # a 6-byte tail with bytes over 0x7f (not sign-extended)
    "hello world!": [201, 451, 3462, 3712],  # one 8-byte block and a tail
    "0123456789abcdef": [1880, 1946, 2612, 5773],  # two blocks, no tail
}
MEASURED_LONGS = {0: [0], 1: [1719, 2976, 3442, 4086], -1: [244, 876, 3599, 4088],
                  2**63 - 1: [2954, 3240, 4198, 4484]}
MEASURED_DOUBLES = {1.5: [2414, 2723, 3290, 6163], -0.0: [292, 1353, 2605, 5312]}


def _positions(base_hash: int) -> list[int]:
    bits = BloomFilterBits.empty(1000, 0.05)
    bits.add(base_hash)
    return _set_positions(bits)


@pytest.mark.parametrize(("text", "positions"), MEASURED_STRINGS.items())
def test_murmur3_64_gives_the_positions_orc_cpp_sets(text: str, positions: list[int]) -> None:
    assert _positions(murmur3_64(text.encode())) == positions


@pytest.mark.parametrize(("value", "positions"), MEASURED_LONGS.items())
def test_thomas_wang_gives_the_positions_orc_cpp_sets(value: int, positions: list[int]) -> None:
    assert _positions(thomas_wang_64(value)) == positions


@pytest.mark.parametrize(("value", "positions"), MEASURED_DOUBLES.items())
def test_doubles_hash_their_ieee_bits(value: float, positions: list[int]) -> None:
    assert _positions(value_hash(primitive(K.DOUBLE), value)) == positions


def test_values_of_each_type_hash_as_their_long_or_bytes() -> None:
    assert value_hash(primitive(K.DATE), -3) == thomas_wang_64(-3)
    assert value_hash(primitive(K.TIMESTAMP), -1_500_000) == thomas_wang_64(-2)  # ms, rounded down
    assert value_hash(primitive(K.FLOAT), 1.1) == value_hash(primitive(K.DOUBLE), 1.100000023841858)
    assert value_hash(primitive(K.BINARY), b"a") == value_hash(primitive(K.STRING), "a") == murmur3_64(b"a")
    assert value_hash(decimal(10, 2), 150) == murmur3_64(b"1.5")
    assert value_hash(primitive(K.BOOLEAN), True) == thomas_wang_64(1)
    with pytest.raises(ValueError, match="no Bloom filter hash"):
        value_hash(list_of(primitive(K.INT)), [1])


@pytest.mark.parametrize(("unscaled", "scale", "text"), [
    (150, 2, "1.5"), (-1200, 2, "-12"), (120000, 2, "1200"), (0, 2, "0"), (5, 2, "0.05"), (-50, 2, "-0.5"),
    (7, 0, "7"), (10**20, 0, "100000000000000000000"),
])
def test_decimal_text_drops_trailing_fractional_zeros_only(unscaled: int, scale: int, text: str) -> None:
    assert decimal_text(unscaled, scale) == text


# --- no value added ever tests absent ----------------------------------------------------------

TYPED_VALUES = st.one_of(
    st.tuples(st.just(primitive(K.LONG)), st.integers(-(2**63), 2**63 - 1)),
    st.tuples(st.just(primitive(K.DOUBLE)), st.floats()),
    st.tuples(st.just(primitive(K.FLOAT)), st.floats(width=32)),
    st.tuples(st.just(primitive(K.STRING)), st.text()),
    st.tuples(st.just(primitive(K.BINARY)), st.binary()),
    st.tuples(st.just(primitive(K.TIMESTAMP)), st.integers(-(2**62), 2**62)),
    st.tuples(st.just(decimal(38, 6)), st.integers(-(10**38) + 1, 10**38 - 1)),
)


@settings(max_examples=200, deadline=None)
@given(values=st.lists(TYPED_VALUES, max_size=50), entries=st.integers(1, 2000),
       fpp=st.floats(0.0001, 0.9))
def test_no_value_added_ever_tests_absent(values: list[tuple[TypeNode, object]], entries: int,
                                          fpp: float) -> None:
    bits = BloomFilterBits.empty(entries, fpp)
    bits.add_all(value_hash(node, value) for node, value in values)
    assert all(bits.might_contain(value_hash(node, value)) for node, value in values)


# --- the array forms agree with the one-value forms bit for bit --------------------------------

# Each kind's values, wider than its writers' (every long, floats past FLOAT's range, NaN of
# any sign and payload, timestamps past a long of nanoseconds) so that each branch of
# value_hashes runs.
EXPONENT_ALL_ONES = 0x7FF << 52
NANS = st.builds(lambda sign, payload: float(np.array([sign << 63 | EXPONENT_ALL_ONES | payload],
                                                      dtype=np.uint64).view(np.float64)[0]),
                 st.integers(0, 1), st.integers(1, 2**52 - 1))
FLOATS = st.lists(st.floats() | NANS)
ONE_KIND_VALUES = st.one_of(
    st.tuples(st.just(primitive(K.LONG)), st.lists(st.integers(-(2**63), 2**63 - 1))),
    st.tuples(st.just(primitive(K.BOOLEAN)), st.lists(st.booleans())),
    st.tuples(st.just(primitive(K.DATE)), st.lists(st.integers(-(2**31), 2**31 - 1))),
    st.tuples(st.just(primitive(K.DOUBLE)), FLOATS),
    st.tuples(st.just(primitive(K.FLOAT)), FLOATS),
    st.tuples(st.just(primitive(K.TIMESTAMP)), st.lists(st.integers(-(2**64), 2**64))),
    st.tuples(st.just(primitive(K.STRING)), st.lists(st.text(max_size=20))),
    st.tuples(st.just(primitive(K.BINARY)), st.lists(st.binary(max_size=20))),
    st.tuples(st.just(decimal(38, 6)), st.lists(st.integers(-(10**38) + 1, 10**38 - 1))),
)


@settings(max_examples=300, deadline=None)
@given(kind_values=ONE_KIND_VALUES)
def test_value_hashes_are_value_hash_of_each_value(kind_values: tuple[TypeNode, list[object]]) -> None:
    node, values = kind_values
    assert value_hashes(node, values).tolist() == [value_hash(node, value) for value in values]


@settings(max_examples=200, deadline=None)
@given(keys=st.lists(st.integers(-(2**63), 2**63 - 1), max_size=50))
def test_thomas_wang_64_array_is_thomas_wang_64_of_each_long(keys: list[int]) -> None:
    assert thomas_wang_64_array(np.array(keys, dtype=np.int64)).tolist() == [thomas_wang_64(k) for k in keys]


@settings(max_examples=200, deadline=None)
@given(bits=st.binary(min_size=1, max_size=64), k=st.integers(1, 12),
       hashes=st.lists(st.integers(0, 2**64 - 1), max_size=50))
def test_contain_is_might_contain_of_each_hash(bits: bytes, k: int, hashes: list[int]) -> None:
    bloom = BloomFilterBits(k, bytearray(bits))
    found = bloom.contain(np.array(hashes, dtype=np.uint64))
    assert found.tolist() == [bloom.might_contain(h) for h in hashes]


ROW_SCHEMA = struct({"n": primitive(K.LONG), "s": primitive(K.STRING), "x": primitive(K.DOUBLE)})


@settings(max_examples=25, deadline=None)
@given(rows=st.lists(st.fixed_dictionaries({
    "n": st.none() | st.integers(-(2**63), 2**63 - 1), "s": st.none() | st.text(max_size=20),
    "x": st.none() | st.floats(allow_nan=False)}), max_size=60), stride=st.integers(1, 25),
    stripe_rows=st.none() | st.integers(1, 40))
def test_every_value_written_tests_present_in_its_row_group(rows: list[dict[str, object]], stride: int,
                                                            stripe_rows: int | None) -> None:
    file = write_orc(ROW_SCHEMA, rows, OrcWriterOptions(
        row_index_stride=stride, stripe_row_limit=stripe_rows,
        bloom_filter_columns=frozenset(ROW_SCHEMA.field_names)))
    assert read_orc(file).rows == rows
    stripes = read_bloom_filters(file)
    step = stripe_rows or max(len(rows), 1)
    for number, stripe in enumerate(stripes):
        stripe_part = rows[number * step:(number + 1) * step]
        for column, node in enumerate(numbered(ROW_SCHEMA).children, start=1):
            filters = stripe[column, UTF8].filters
            assert len(filters) == math.ceil(len(stripe_part) / stride)
            for position, row in enumerate(stripe_part):
                value = row[ROW_SCHEMA.field_names[column - 1]]
                if value is not None:
                    assert filters[position // stride].might_contain(value_hash(node, value))


# --- the writer's streams and options -----------------------------------------------------------

def _file(**options: object) -> bytes:
    return write_orc(ROW_SCHEMA, [{"n": n, "s": str(n)} for n in range(30)], OrcWriterOptions(
        row_index_stride=10, bloom_filter_columns=frozenset({"n"}), **options))  # type: ignore[arg-type]


def test_the_original_encoding_holds_the_same_bits_as_longs() -> None:
    file = _file(bloom_filter_original=True)
    [stripe] = read_bloom_filters(file)
    assert set(stripe) == {(1, ORIGINAL), (1, UTF8)}
    assert [f.bits for f in stripe[1, ORIGINAL].filters] == [f.bits for f in stripe[1, UTF8].filters]
    # ORC C++ reads the file with both streams in its index area
    assert pyarrow.orc.read_table(io.BytesIO(file)).column("n").to_pylist() == list(range(30))
    assert [row[0] for row in pyorc.Reader(io.BytesIO(file))] == list(range(30))


def test_without_bloom_filter_columns_no_filter_is_written() -> None:
    file = write_orc(ROW_SCHEMA, [{"n": 1}], OrcWriterOptions(row_index_stride=10))
    assert read_bloom_filters(file) == [{}]


@pytest.mark.parametrize(("options", "error", "message"), [
    ({"bloom_filter_columns": frozenset({"n"})}, ValueError, "need a row index"),
    ({"row_index_stride": 10, "bloom_filter_fpp": 1.0}, ValueError, "bloom_filter_fpp"),
])
def test_options_refuse_a_filter_they_cannot_size(options: dict[str, object], error: type[Exception],
                                                  message: str) -> None:
    with pytest.raises(error, match=message):
        OrcWriterOptions(**options)  # type: ignore[arg-type]


@pytest.mark.parametrize(("schema", "column", "message"), [
    (ROW_SCHEMA, "missing", "not top-level fields"),
    (struct({"l": list_of(primitive(K.INT))}), "l", "has no hash"),
])
def test_the_writer_refuses_columns_without_a_filter(schema: TypeNode, column: str, message: str) -> None:
    with pytest.raises(InvalidValue, match=message):
        write_orc(schema, [], OrcWriterOptions(row_index_stride=10, bloom_filter_columns=frozenset({column})))


# --- the reader's checks: one byte changed in an uncompressed file ------------------------------

def _replace_first(file: bytes, old: bytes, new: bytes) -> bytes:
    assert old in file and len(old) == len(new)
    return file.replace(old, new, 1)


def test_a_filter_without_hash_functions_is_corrupt() -> None:
    # stride 10 at fpp 0.05: 64 bits, k = round(6.4 ln 2) = 4; the first filter's "08 04 1a 08"
    file = _file()
    first_filter = bytes([0x08, 4, 0x1A, 8])
    with pytest.raises(CorruptStream, match="0 hash functions for 64 bits"):
        read_bloom_filters(_replace_first(file, first_filter, bytes([0x08, 0, 0x1A, 8])))
    with pytest.raises(CorruptStream, match="65 hash functions for 64 bits"):
        read_bloom_filters(_replace_first(file, first_filter, bytes([0x08, 65, 0x1A, 8])))


def test_a_filter_in_the_other_kinds_field_is_corrupt() -> None:
    # The StripeFooter's Stream (kind 8, column 1) relabelled BLOOM_FILTER: its filters keep
    # their bits in utf8bitset, which the original encoding does not use.
    relabelled = _replace_first(_file(), bytes([0x08, UTF8, 0x10, 1]), bytes([0x08, ORIGINAL, 0x10, 1]))
    with pytest.raises(CorruptStream, match="stripe 0, BLOOM_FILTER of column 1, row group 0"):
        read_bloom_filters(relabelled)


# --- the reader's use ------------------------------------------------------------------------------

def test_a_reader_of_every_value_leaves_the_filters_compressed() -> None:
    """read_orc does not decompress the Bloom filters (reader.py, UNREAD_INDEX_KINDS): a
    filter stream whose chunk does not inflate fails the filters' reader, not the values'."""
    written = _file(compression=CompressionKind.ZLIB)
    file = bytearray(written)
    tail = read_file_tail(bytes(file), decompress_stream)
    footer = read_stripe_footer(bytes(file), tail, 0, StreamCodec.of(tail).decompress)
    [place] = [p for p in stream_places(tail.footer.stripes[0], footer, 0) if p.kind == UTF8]
    body = place.length - HEADER_BYTES  # one compressed chunk of bytes no inflater takes
    chunk = (body << 1).to_bytes(HEADER_BYTES, "little") + b"\xff" * body
    file[place.offset:place.offset + place.length] = chunk
    assert read_orc(bytes(file)).rows == read_orc(written).rows
    with pytest.raises(DecompressionFailed) as raised:
        read_bloom_filters(bytes(file))
    assert raised.value.offset == place.offset
