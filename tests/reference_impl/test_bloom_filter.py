"""Split-block Bloom filters (BloomFilter.md, 'Technical Approach').

The algorithm is checked three ways: by hand against the spec's pseudocode,
against a literal transcription of that pseudocode, and byte for byte against
the bitsets pyarrow and DuckDB write. Sizing is checked against the spec's
table of bits per insert; the reader against malformed headers and lengths.
"""

from __future__ import annotations

import datetime
import decimal
import random
import struct
import uuid
from pathlib import Path

import duckdb
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import xxhash
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.parquet.errors import CorruptMetadata, CorruptThrift, UnsupportedFeature
from reference_impl.parquet.indexes.bloom_filter import (
    BYTES_PER_BLOCK,
    MAX_BYTES,
    SALT,
    SplitBlockBloomFilter,
    bits_per_insert,
    block_mask,
    bloom_hash,
    build_bloom_filter,
    false_positive_probability,
    optimal_num_bytes,
    read_bloom_filter,
    serialize_bloom_filter,
)
from reference_impl.parquet.metadata.parquet_thrift import ColumnMetaData, FileMetaData, Type
from reference_impl.parquet.reader import read_footer
from tests.reference_impl.parquet_helpers import budget

U32 = 2**32
U64 = 2**64


# ---------------------------------------------------------------------------
# A literal transcription of the spec's pseudocode, to check the numpy one
# ---------------------------------------------------------------------------

SPEC_SALT = [0x47B6137B, 0x44974D91, 0x8824AD5B, 0xA2B7289D, 0x705495C7, 0x2DF1424B, 0x9EFC4947, 0x5C6BFB31]


def spec_mask(x: int) -> list[int]:
    return [1 << (((x * salt) % U32) >> 27) for salt in SPEC_SALT]


def spec_filter_insert(blocks: list[list[int]], h: int) -> None:
    i = ((h >> 32) * len(blocks)) >> 32
    blocks[i] = [word | bit for word, bit in zip(blocks[i], spec_mask(h % U32), strict=True)]


def spec_bitset(blocks: list[list[int]]) -> bytes:
    return b"".join(struct.pack("<8I", *block) for block in blocks)


# ---------------------------------------------------------------------------
# Blocks, by hand
# ---------------------------------------------------------------------------


def test_salt_is_the_spec_salt() -> None:
    assert SALT.tolist() == SPEC_SALT
    assert all(salt % 2 == 1 for salt in SPEC_SALT)  # "eight odd unsigned 32-bit integer constants"


def test_mask_of_one_sets_the_top_five_bits_of_each_salt() -> None:
    # x = 1: y = salt[i], and the bit set is salt[i] >> 27, its top five bits.
    assert block_mask(1).tolist() == [
        1 << 8,  # 0x47b6137b = 0b01000_111...
        1 << 8,  # 0x44974d91 = 0b01000_100...
        1 << 17,  # 0x8824ad5b = 0b10001_000...
        1 << 20,  # 0xa2b7289d = 0b10100_010...
        1 << 14,  # 0x705495c7 = 0b01110_000...
        1 << 5,  # 0x2df1424b = 0b00101_101...
        1 << 19,  # 0x9efc4947 = 0b10011_110...
        1 << 11,  # 0x5c6bfb31 = 0b01011_100...
    ]


def test_mask_of_zero_and_of_all_ones() -> None:
    assert block_mask(0).tolist() == [1] * 8  # every product is 0: bit 0 of every word
    # x = 2**32 - 1 = -1 (mod 2**32): y = 2**32 - salt[i]; e.g. 2**32 - 0x47b6137b = 0xb849ec85,
    # whose top five bits are 0b10111 = 23.
    assert block_mask(U32 - 1).tolist() == [1 << ((U32 - salt) >> 27) for salt in SPEC_SALT]
    assert block_mask(U32 - 1)[0] == 1 << 23


def test_insert_of_a_known_hash_sets_the_known_bytes() -> None:
    bloom = SplitBlockBloomFilter(2 * BYTES_PER_BLOCK)
    # h >> 32 = 0x80000000; i = (0x80000000 * 2) >> 32 = 1: the second block. The low 32 bits are 1.
    bloom.insert_hash(0x8000_0000_0000_0001)
    assert bloom.bitset() == bytes(32) + bytes.fromhex(
        "00010000"  # word 0: 1 << 8, little-endian
        "00010000"  # word 1: 1 << 8
        "00000200"  # word 2: 1 << 17
        "00001000"  # word 3: 1 << 20
        "00400000"  # word 4: 1 << 14
        "20000000"  # word 5: 1 << 5
        "00000800"  # word 6: 1 << 19
        "00080000"  # word 7: 1 << 11
    )
    assert bloom.check_hash(0x8000_0000_0000_0001)
    assert not bloom.check_hash(0x0000_0000_0000_0001)  # same mask, block 0
    assert bloom.check_hash(0xFFFF_FFFF_0000_0001)  # top bits select block 1 as well


def test_block_selection_is_a_multiply_shift_of_the_top_bits() -> None:
    bloom = SplitBlockBloomFilter(3 * BYTES_PER_BLOCK)  # z need not be a power of two
    for top, block in [(0, 0), (U32 // 3, 0), (U32 // 3 + 1, 1), (2 * U32 // 3 + 1, 2), (U32 - 1, 2)]:
        assert bloom._block_index(top << 32) == block


@given(
    blocks=st.integers(1, 40),
    hashes=st.lists(st.integers(0, U64 - 1), max_size=60),
)
@budget(100)
def test_numpy_filter_equals_the_pseudocode(blocks: int, hashes: list[int]) -> None:
    reference = [[0] * 8 for _ in range(blocks)]
    one_by_one = SplitBlockBloomFilter(blocks * BYTES_PER_BLOCK)
    at_once = SplitBlockBloomFilter(blocks * BYTES_PER_BLOCK)
    for h in hashes:
        spec_filter_insert(reference, h)
        one_by_one.insert_hash(h)
    at_once.insert_hashes(hashes)
    assert one_by_one.bitset() == spec_bitset(reference)
    assert at_once == one_by_one
    assert all(one_by_one.check_hash(h) for h in hashes)


def test_bad_sizes_and_hashes_are_rejected() -> None:
    for num_bytes in (0, -32, 31, 33, 2**31):
        with pytest.raises(ValueError):
            SplitBlockBloomFilter(num_bytes)
    with pytest.raises(ValueError):
        SplitBlockBloomFilter.from_bitset(bytes(40))
    bloom = SplitBlockBloomFilter(32)
    for h in (-1, U64):
        with pytest.raises(ValueError):
            bloom.insert_hash(h)


# ---------------------------------------------------------------------------
# Hashing values
# ---------------------------------------------------------------------------


def test_hash_is_xxh64_seed_0_of_the_plain_bytes() -> None:
    # The XXH64 test vector for the empty input with seed 0.
    assert bloom_hash(Type.BYTE_ARRAY, b"") == 0xEF46DB3751D8E999
    # BYTE_ARRAY without PLAIN's length prefix: the same as FLBA of the same bytes.
    assert bloom_hash(Type.BYTE_ARRAY, b"abc") == xxhash.xxh64_intdigest(b"abc")
    assert bloom_hash(Type.FIXED_LEN_BYTE_ARRAY, b"abc", 3) == xxhash.xxh64_intdigest(b"abc")
    assert bloom_hash(Type.INT32, -2) == xxhash.xxh64_intdigest(b"\xfe\xff\xff\xff")
    assert bloom_hash(Type.INT64, 1) == xxhash.xxh64_intdigest(b"\x01" + bytes(7))
    assert bloom_hash(Type.FLOAT, 1.0) == xxhash.xxh64_intdigest(struct.pack("<f", 1.0))
    assert bloom_hash(Type.DOUBLE, 1.0) == xxhash.xxh64_intdigest(struct.pack("<d", 1.0))
    assert bloom_hash(Type.INT96, bytes(range(12))) == xxhash.xxh64_intdigest(bytes(range(12)))
    assert bloom_hash(Type.BOOLEAN, True) == xxhash.xxh64_intdigest(b"\x01")  # one PLAIN-encoded value


def test_signed_zeros_are_different_keys() -> None:
    assert bloom_hash(Type.DOUBLE, -0.0) != bloom_hash(Type.DOUBLE, 0.0)
    assert bloom_hash(Type.FLOAT, -0.0) != bloom_hash(Type.FLOAT, 0.0)


def test_values_of_the_wrong_shape_are_rejected() -> None:
    with pytest.raises(ValueError):
        bloom_hash(Type.FIXED_LEN_BYTE_ARRAY, b"ab", 3)
    with pytest.raises(TypeError):
        bloom_hash(Type.BYTE_ARRAY, "text")
    with pytest.raises(ValueError):
        bloom_hash(Type.INT32, None)


# ---------------------------------------------------------------------------
# Sizing ('Sizing an SBBF')
# ---------------------------------------------------------------------------

# "Here are some sample values of the ratios needed to achieve certain false positive rates"
SPEC_TABLE = [(6.0, 0.10), (10.5, 0.01), (16.9, 0.001), (26.4, 0.0001), (41, 0.00001)]
# The worked example: 1024 blocks with 26,214 / 52,428 / 13,107 hashes = 10 / 5 / 20 bits per insert.
SPEC_EXAMPLES = [(10, 0.0126), (5, 0.18), (20, 0.0004)]


@pytest.mark.parametrize(("bits", "fpp"), SPEC_TABLE + SPEC_EXAMPLES)
def test_fpp_model_reproduces_the_spec_figures(bits: float, fpp: float) -> None:
    # The spec prints two or three significant digits.
    assert false_positive_probability(bits) == pytest.approx(fpp, rel=0.05)


@pytest.mark.parametrize(("bits", "fpp"), SPEC_TABLE)
def test_bits_per_insert_matches_the_spec_table(bits: float, fpp: float) -> None:
    assert bits_per_insert(fpp) == pytest.approx(bits, rel=0.01)


@pytest.mark.parametrize(("bits", "fpp"), SPEC_TABLE)
@pytest.mark.parametrize("ndv", [1, 100, 1000, 26_214, 1_000_000])
def test_optimal_num_bytes_follows_the_spec_table(bits: float, fpp: float, ndv: int) -> None:
    size = optimal_num_bytes(ndv, fpp)
    assert size >= BYTES_PER_BLOCK and size & (size - 1) == 0  # a power of two
    # Enough bits for the table's ratio, and no more than the power-of-two rounding adds.
    assert size * 8 >= ndv * bits * 0.99
    assert size == BYTES_PER_BLOCK or size * 8 / 2 < ndv * bits * 1.01


def test_optimal_num_bytes_bounds() -> None:
    assert optimal_num_bytes(0, 0.01) == 32
    assert optimal_num_bytes(10**12, 0.01) == MAX_BYTES
    assert optimal_num_bytes(10**6, 0.01, max_bytes=1000) == 512  # the largest power of two allowed
    assert optimal_num_bytes(26_214, 0.013) == 1024 * BYTES_PER_BLOCK  # the spec example's 1024 blocks
    for bad in (0.0, 1.0, -0.1):
        with pytest.raises(ValueError):
            optimal_num_bytes(10, bad)
    with pytest.raises(ValueError):
        optimal_num_bytes(10, 0.01, max_bytes=16)


@pytest.mark.parametrize(("bits", "fpp"), [(10, 0.0126), (5, 0.18)])
def test_measured_fpp_matches_the_spec_example(bits: int, fpp: float) -> None:
    # 1024 blocks (262,144 bits) holding 262,144 / bits random hashes, probed with foreign ones.
    rng = np.random.default_rng(20240601)
    bloom = SplitBlockBloomFilter(1024 * BYTES_PER_BLOCK)
    bloom.insert_hashes(rng.integers(0, U64, size=1024 * 256 // bits, dtype=np.uint64, endpoint=False))
    probes = rng.integers(0, U64, size=100_000, dtype=np.uint64, endpoint=False)
    measured = sum(bloom.check_hash(int(h)) for h in probes) / len(probes)
    assert measured == pytest.approx(fpp, rel=0.1)


def test_measured_fpp_of_a_built_filter_is_below_target() -> None:
    rng = random.Random(7)
    values = list({rng.randrange(-(2**63), 2**63) for _ in range(5000)})
    bloom = build_bloom_filter(Type.INT64, values, fpp=0.01)
    assert bloom.num_bytes == optimal_num_bytes(len(values), 0.01)
    inserted = set(values)
    probes = [v for v in (rng.randrange(-(2**63), 2**63) for _ in range(50_000)) if v not in inserted]
    measured = sum(bloom.might_contain(Type.INT64, v) for v in probes) / len(probes)
    expected = false_positive_probability(bloom.num_bytes * 8 / len(values))  # after power-of-two rounding
    assert measured == pytest.approx(expected, rel=0.25)
    assert measured < 0.01


# ---------------------------------------------------------------------------
# No false negatives, for every physical type
# ---------------------------------------------------------------------------

PHYSICAL_VALUES = {
    (Type.BOOLEAN, None): st.booleans(),
    (Type.INT32, None): st.integers(-(2**31), 2**31 - 1),
    (Type.INT64, None): st.integers(-(2**63), 2**63 - 1),
    (Type.INT96, None): st.binary(min_size=12, max_size=12),
    (Type.FLOAT, None): st.floats(width=32, allow_nan=True),
    (Type.DOUBLE, None): st.floats(allow_nan=True),
    (Type.BYTE_ARRAY, None): st.binary(max_size=40),
    (Type.FIXED_LEN_BYTE_ARRAY, 5): st.binary(min_size=5, max_size=5),
}


@pytest.mark.parametrize(("physical_type", "type_length"), list(PHYSICAL_VALUES))
@given(data=st.data())
@budget(50)
def test_no_false_negatives(physical_type: Type, type_length: int | None, data: st.DataObject) -> None:
    values = data.draw(st.lists(PHYSICAL_VALUES[physical_type, type_length], max_size=200))
    fpp = data.draw(st.sampled_from([0.5, 0.1, 0.01]))
    bloom = build_bloom_filter(physical_type, values, type_length, fpp=fpp)
    assert all(bloom.might_contain(physical_type, value, type_length) for value in values)
    one_by_one = SplitBlockBloomFilter(bloom.num_bytes)
    for value in values:
        one_by_one.insert(physical_type, value, type_length)
    assert one_by_one == bloom


def test_build_sizes_by_distinct_values_and_skips_nulls() -> None:
    values = [1, 2, 2, None, 3] * 1000
    assert build_bloom_filter(Type.INT32, values).num_bytes == optimal_num_bytes(3, 0.01)
    assert build_bloom_filter(Type.INT32, values, ndv=10_000, fpp=0.1).num_bytes == optimal_num_bytes(
        10_000, 0.1
    )


# ---------------------------------------------------------------------------
# On disk: header + bitset
# ---------------------------------------------------------------------------

# BloomFilterHeader{numBytes=32, algorithm=BLOCK{}, hash=XXHASH{}, compression=UNCOMPRESSED{}}
# in the Compact Protocol: a field header byte is (id delta << 4) | type, i32 = 5, struct = 12.
HEADER_32 = bytes.fromhex(
    "15 40"  # field 1, i32: zigzag(32) = 64
    " 1c 1c 00 00"  # field 2, struct: union member 1 (struct, empty: stop), stop
    " 1c 1c 00 00"  # field 3, likewise
    " 1c 1c 00 00"  # field 4, likewise
    " 00"  # stop
)


def test_serialized_header_bytes() -> None:
    bloom = SplitBlockBloomFilter(32)
    bloom.insert_hash(0x1234_5678_9ABC_DEF0)
    assert serialize_bloom_filter(bloom) == HEADER_32 + bloom.bitset()


def chunk_meta(offset: int | None, length: int | None = None) -> ColumnMetaData:
    # read_bloom_filter reads only the two Bloom filter fields.
    return ColumnMetaData(bloom_filter_offset=offset, bloom_filter_length=length)


def framed(blob: bytes) -> bytes:
    """``blob`` between the magic and some trailing bytes, like a file's middle."""
    return b"PAR1" + blob + b"\xaa" * 20 + b"PAR1"


def test_round_trip_with_and_without_length() -> None:
    bloom = build_bloom_filter(Type.BYTE_ARRAY, [b"x%d" % i for i in range(300)])
    blob = serialize_bloom_filter(bloom)
    file = framed(blob)
    assert read_bloom_filter(file, chunk_meta(4, len(blob))) == bloom
    assert read_bloom_filter(file, chunk_meta(4)) == bloom
    assert read_bloom_filter(file, chunk_meta(None)) is None


def header(
    num_bytes: bytes = b"\x15\x40",
    algorithm: bytes = b"\x1c\x1c\x00\x00",
    hash_: bytes = b"\x1c\x1c\x00\x00",
    compression: bytes = b"\x1c\x1c\x00\x00",
) -> bytes:
    """A hand-made header: each argument is one field, header byte included."""
    return num_bytes + algorithm + hash_ + compression + b"\x00"


def test_hand_made_header_is_the_serialized_one() -> None:
    assert header() == HEADER_32


def raises_at(error: type[Exception], file: bytes, meta: ColumnMetaData, offset: int, match: str) -> None:
    with pytest.raises(error, match=match) as caught:
        read_bloom_filter(file, meta, where="row group 0, column x")
    assert caught.value.offset == offset
    assert caught.value.message.startswith("row group 0, column x: ")


BITSET_32 = bytes(range(32))


def test_offset_outside_the_file() -> None:
    file = framed(HEADER_32 + BITSET_32)
    raises_at(CorruptMetadata, file, chunk_meta(len(file)), len(file), "outside the file")
    raises_at(CorruptMetadata, file, chunk_meta(10**12), len(file), "outside the file")
    raises_at(CorruptMetadata, file, chunk_meta(-1), 0, "outside the file")


def test_length_too_short_too_long_or_past_the_end() -> None:
    blob = HEADER_32 + BITSET_32
    file = framed(blob)
    raises_at(CorruptMetadata, file, chunk_meta(4, len(blob) - 1), 4 + len(HEADER_32), "leaves only 31 bytes")
    raises_at(CorruptMetadata, file, chunk_meta(4, len(blob) + 1), 4, "take 47")
    raises_at(CorruptMetadata, file, chunk_meta(4, len(file)), 4, "does not fit")
    raises_at(CorruptMetadata, file, chunk_meta(4, 0), 4, "does not fit")
    # Too short to hold even the header: the header's decoding runs into the end.
    with pytest.raises(CorruptThrift):
        read_bloom_filter(file, chunk_meta(4, 5))


@pytest.mark.parametrize(
    ("field", "num_bytes"),
    [(b"\x15\x42", 33), (b"\x15\x00", 0), (b"\x15\x3f", -32), (b"\x15\x30", 24)],
)
def test_num_bytes_not_a_positive_multiple_of_32(field: bytes, num_bytes: int) -> None:
    file = framed(header(num_bytes=field) + bytes(64))
    raises_at(CorruptMetadata, file, chunk_meta(4), 4, f"numBytes is {num_bytes}, not a positive multiple")


def test_num_bytes_larger_than_the_file_is_not_allocated() -> None:
    # numBytes = 2**31 - 32, zigzag 2**32 - 64, as a varint: ff ff ff ff 0f less 63.
    field = b"\x15" + bytes.fromhex("c0 ff ff ff 0f")
    file = framed(header(num_bytes=field) + bytes(64))
    raises_at(CorruptMetadata, file, chunk_meta(4), 4 + len(header(num_bytes=field)), "2147483616")


@pytest.mark.parametrize("position", ["algorithm", "hash_", "compression"])
def test_unknown_union_member_is_unsupported(position: str) -> None:
    # Member id 2, an empty struct: a newer spec's algorithm/hash/compression.
    file = framed(header(**{position: b"\x1c\x2c\x00\x00"}) + BITSET_32)
    raises_at(UnsupportedFeature, file, chunk_meta(4), 4, "field id 2")


def test_union_without_member_is_corrupt() -> None:
    file = framed(header(hash_=b"\x1c\x00") + BITSET_32)
    raises_at(CorruptMetadata, file, chunk_meta(4), 4, "no member set")


# ---------------------------------------------------------------------------
# Real writers: pyarrow and DuckDB
# ---------------------------------------------------------------------------


def bloom_filters(path: Path) -> tuple[bytes, FileMetaData, dict[str, ColumnMetaData]]:
    file = path.read_bytes()
    metadata, _ = read_footer(file)
    (row_group,) = metadata.row_groups
    return file, metadata, {".".join(c.meta_data.path_in_schema): c.meta_data for c in row_group.columns}


def assert_same_filter(
    file: bytes, meta: ColumnMetaData, values: list[object], type_length: int | None
) -> None:
    """Every value tests positive, and the bitset is the one we build from the values."""
    bloom = read_bloom_filter(file, meta)
    assert bloom is not None
    physical_type = Type(meta.type)
    assert all(bloom.might_contain(physical_type, v, type_length) for v in values)
    ours = SplitBlockBloomFilter(bloom.num_bytes)
    for value in values:
        ours.insert(physical_type, value, type_length)
    assert ours.bitset() == bloom.bitset()


def int96(nanoseconds_since_epoch: int) -> bytes:
    """An INT96 timestamp: nanoseconds of the day (i64) then the Julian day (i32), little-endian."""
    days, nanos = divmod(nanoseconds_since_epoch, 86_400 * 10**9)
    return struct.pack("<qi", nanos, days + 2_440_588)


N = 1500
INTS = [(i * 7919) % 2003 - 1000 for i in range(N)]  # ~1500 distinct, negatives, repeats
# (arrow array, physical type, type_length, physical values)
PYARROW_COLUMNS = {
    "i32": (pa.array(INTS, pa.int32()), None, INTS),
    "i64": (pa.array([v * 2**40 for v in INTS], pa.int64()), None, [v * 2**40 for v in INTS]),
    "f32": (pa.array([v / 4 for v in INTS], pa.float32()), None, [v / 4 for v in INTS]),
    "f64": (
        pa.array([v / 3 for v in INTS] + [-0.0, float("nan")], pa.float64()),
        None,
        [v / 3 for v in INTS] + [-0.0, float("nan")],
    ),
    "str": (pa.array([f"s{v}é" for v in INTS]), None, [f"s{v}é".encode() for v in INTS]),
    "flba": (
        pa.array([struct.pack(">i", v) for v in INTS], pa.binary(4)),
        4,
        [struct.pack(">i", v) for v in INTS],
    ),
    # decimal(20, 2) is a 9-byte FIXED_LEN_BYTE_ARRAY: the big-endian two's complement unscaled value.
    "dec": (
        pa.array([decimal.Decimal(v).scaleb(-2) for v in INTS], pa.decimal128(20, 2)),
        9,
        [v.to_bytes(9, "big", signed=True) for v in INTS],
    ),
    "ts96": (
        pa.array([v * 10**12 + 5 for v in INTS], pa.timestamp("ns")),
        None,
        [int96(v * 10**12 + 5) for v in INTS],
    ),
}


@pytest.fixture(scope="module")
def pyarrow_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("bloom") / "pyarrow.parquet"
    length = max(len(array) for array, _, _ in PYARROW_COLUMNS.values())
    columns = {
        name: pa.concat_arrays([array, pa.nulls(length - len(array), array.type)])
        for name, (array, _, _) in PYARROW_COLUMNS.items()
    }
    pq.write_table(
        pa.table(columns),
        path,
        use_deprecated_int96_timestamps=True,
        bloom_filter_options={name: {"ndv": 2000, "fpp": 0.02} for name in columns},
    )
    return path


@pytest.mark.parametrize("column", list(PYARROW_COLUMNS))
def test_pyarrow_bitsets_equal_ours(pyarrow_file: Path, column: str) -> None:
    file, metadata, chunks = bloom_filters(pyarrow_file)
    _, type_length, values = PYARROW_COLUMNS[column]
    assert_same_filter(file, chunks[column], values, type_length)
    assert chunks[column].bloom_filter_length == 16 + read_bloom_filter(file, chunks[column]).num_bytes


def test_pyarrow_refuses_boolean_bloom_filters(tmp_path: Path) -> None:
    with pytest.raises(OSError, match="boolean"):
        pq.write_table(
            pa.table({"b": [True, False]}), tmp_path / "b.parquet", bloom_filter_options={"b": True}
        )


def test_pyarrow_does_not_normalise_signed_zero(tmp_path: Path) -> None:
    # -0.0 is hashed by its bits, apart from +0.0: a probe for 0.0 must also probe -0.0.
    path = tmp_path / "zeros.parquet"
    values = [-0.0, 1.0, float("nan")]
    table = pa.table({"f32": pa.array(values, pa.float32()), "f64": pa.array(values, pa.float64())})
    pq.write_table(table, path, bloom_filter_options={"f32": {"ndv": 100}, "f64": {"ndv": 100}})
    file, _, chunks = bloom_filters(path)
    for column, physical_type in (("f32", Type.FLOAT), ("f64", Type.DOUBLE)):
        assert_same_filter(file, chunks[column], values, None)
        bloom = read_bloom_filter(file, chunks[column])
        assert not bloom.might_contain(physical_type, 0.0)


DUCKDB_ROWS = 10_000
DUCKDB_DISTINCT = 300
# (SQL expression of i in [0, DUCKDB_DISTINCT), type_length, physical value of i)
DUCKDB_COLUMNS = {
    "i32": ("(i - 150)::INTEGER", None, lambda i: i - 150),
    "i64": ("(i - 150)::BIGINT * 4294967296", None, lambda i: (i - 150) * 2**32),
    "f32": ("(i / 8)::FLOAT", None, lambda i: i / 8),
    "f64": ("(i / 7)::DOUBLE", None, lambda i: i / 7),
    "str": ("'v' || i::VARCHAR", None, lambda i: b"v%d" % i),
    "blob": ("('b' || i::VARCHAR)::BLOB", None, lambda i: b"b%d" % i),
    "uuid": (
        "('00000000-0000-4000-8000-' || lpad(i::VARCHAR, 12, '0'))::UUID",
        16,
        lambda i: uuid.UUID(f"00000000-0000-4000-8000-{i:012d}").bytes,
    ),
    "dec9": ("(i - 150)::DECIMAL(9, 2)", None, lambda i: (i - 150) * 100),  # INT32 unscaled
    "u8": ("(i % 200)::UTINYINT", None, lambda i: i % 200),  # stored as INT32
    "ts": (
        "TIMESTAMP '2020-01-01' + to_seconds(i)",
        None,
        lambda i: (
            (datetime.datetime(2020, 1, 1) - datetime.datetime(1970, 1, 1)).days * 86_400 * 10**6 + i * 10**6
        ),
    ),
}


@pytest.fixture(scope="module")
def duckdb_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("bloom") / "duckdb.parquet"
    select = ", ".join(f"{sql} AS {name}" for name, (sql, _, _) in DUCKDB_COLUMNS.items())
    source = f"(SELECT i % {DUCKDB_DISTINCT} AS i FROM range({DUCKDB_ROWS}) t(i))"
    with duckdb.connect() as connection:
        connection.execute(f"COPY (SELECT {select} FROM {source}) TO '{path}' (FORMAT parquet)")
    return path


@pytest.mark.parametrize("column", list(DUCKDB_COLUMNS))
def test_duckdb_bitsets_equal_ours(duckdb_file: Path, column: str) -> None:
    file, _, chunks = bloom_filters(duckdb_file)
    _, type_length, physical = DUCKDB_COLUMNS[column]
    values = sorted({physical(i) for i in range(DUCKDB_DISTINCT)}, key=repr)
    meta = chunks[column]
    assert meta.bloom_filter_offset is not None, f"DuckDB wrote no Bloom filter for {column}"
    assert_same_filter(file, meta, values, type_length)


def test_duckdb_probes_a_filter_we_built(tmp_path: Path) -> None:
    """DuckDB reads our bitset: pyarrow writes 0..999, we overwrite its bitset in
    place with one holding only 0..499, and DuckDB's probe follows ours."""
    path = tmp_path / "ours.parquet"
    pq.write_table(
        pa.table({"x": pa.array(range(1000), pa.int64())}),
        path,
        bloom_filter_options={"x": {"ndv": 1000, "fpp": 0.05}},
    )
    file, _, chunks = bloom_filters(path)
    theirs = read_bloom_filter(file, chunks["x"])
    ours = SplitBlockBloomFilter(theirs.num_bytes)
    for value in range(500):
        ours.insert(Type.INT64, value)
    blob = serialize_bloom_filter(ours)
    start = chunks["x"].bloom_filter_offset
    assert file[start : start + len(blob) - ours.num_bytes] == blob[: -ours.num_bytes]  # same header
    path.write_bytes(file[:start] + blob + file[start + len(blob) :])
    assert read_bloom_filter(path.read_bytes(), chunks["x"]) == ours

    probes = list(range(0, 1000, 7))
    with duckdb.connect() as connection:
        excluded = {
            value: connection.execute(
                "SELECT bloom_filter_excludes FROM parquet_bloom_probe(?, 'x', ?)", [str(path), value]
            ).fetchone()[0]
            for value in probes
        }
    assert excluded == {value: not ours.might_contain(Type.INT64, value) for value in probes}
    assert sum(excluded.values()) > len(probes) // 3  # most of 500..999 are excluded
