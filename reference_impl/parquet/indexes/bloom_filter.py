"""Split-block Bloom filters (SBBF), the only Bloom filter Parquet defines.

BloomFilter.md, 'Technical Approach':

* A *block* is 256 bits: eight 32-bit words. ``mask(x)`` sets, in word ``i``,
  bit ``(x * salt[i]) >> 27`` (the product kept to its low 32 bits);
  ``block_insert`` ORs the mask into the block, ``block_check`` asks whether
  every bit of the mask is set.
* An SBBF is ``z`` blocks, ``1 <= z < 2**31``. A 64-bit hash ``h`` selects
  block ``((h >> 32) * z) >> 32`` and the low 32 bits of ``h`` go to
  ``block_insert`` / ``block_check`` on that block.
* The hash is "XXH64 with a seed of 0" of the value's PLAIN encoding
  (parquet.thrift ``union BloomFilterHash``: "the hash of a column value using
  plain encoding").
* On disk ('File Format')::

      <BloomFilterHeader: Compact Thrift {numBytes, algorithm, hash, compression}>
      <bitset: numBytes bytes>

  located by ``ColumnMetaData.bloom_filter_offset`` and, since format 2.10,
  ``bloom_filter_length`` ("Size of Bloom filter data including the
  serialized header").

Points where the text leaves a choice, and what this module does:

* Word byte order. The spec says only "32-bit words"; the bitset is stored as
  little-endian words, block after block, like every other Parquet integer
  (and as pyarrow and DuckDB write it: the tests compare their bitsets with
  ours byte for byte).
* The hash input. "PLAIN encoding" of one value, except that a BYTE_ARRAY is
  hashed without PLAIN's 4-byte length prefix: just the bytes of the value.
  BOOLEAN, whose PLAIN form is bit-packed, hashes the one byte that a single
  PLAIN-encoded value takes (0x00 or 0x01). Such a filter is valid but useless
  (two possible values), and pyarrow refuses to build one.
* Floating point values are hashed by their bits: -0.0 and +0.0 (and NaNs with
  different payloads) are different keys. A reader probing for 0.0 must probe
  -0.0 too.
* ``numBytes``: the spec requires ``z >= 1`` whole blocks, so a positive
  multiple of 32; the thrift field is an i32, so at most 2**31 - 32. Writers
  conventionally use a power of two no larger than 128 MiB (``MAX_BYTES``);
  that is a writer's policy, not a rule a reader may enforce, so reading
  accepts any multiple of 32 that the file's bytes actually contain.

Sizing ('Sizing an SBBF'): the spec gives no closed form, only worked figures
(10 bits per insert -> 1.26 %; 5 -> 18 %; 20 -> 0.04 %) and a table of bits
per insert for 10 %, 1 %, 0.1 %, 0.01 %, 0.001 %. With ``b`` bits per insert,
a block receives a Poisson(256 / b) number of hashes, and a foreign hash
passes when its bit is set in all eight words; after ``k`` hashes a word's bit
is set with probability ``1 - (31/32)**k``. :func:`false_positive_probability`
sums this model, which reproduces every figure of the spec to its printed
precision; :func:`optimal_num_bytes` inverts it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import lru_cache

import numpy as np
import xxhash

from reference_impl.common.mapped_file import FileBytes
from reference_impl.parquet.encodings.plain import encode_plain
from reference_impl.parquet.errors import CorruptMetadata, ParquetError, UnsupportedFeature
from reference_impl.parquet.metadata.parquet_thrift import (
    BloomFilterAlgorithm,
    BloomFilterCompression,
    BloomFilterHash,
    BloomFilterHeader,
    ColumnMetaData,
    SplitBlockAlgorithm,
    Type,
    Uncompressed,
    XxHash,
)
from reference_impl.parquet.metadata.thrift_struct import ThriftUnion, deserialize, serialize

__all__ = [
    "BYTES_PER_BLOCK",
    "DEFAULT_FPP",
    "MAX_BYTES",
    "SALT",
    "SplitBlockBloomFilter",
    "block_mask",
    "bloom_hash",
    "bloom_hash_input",
    "bits_per_insert",
    "build_bloom_filter",
    "false_positive_probability",
    "optimal_num_bytes",
    "read_bloom_filter",
    "serialize_bloom_filter",
]

# '3.6 - Bloom Filter': "Each block is 256 bits, broken up into eight contiguous
# 'words', each consisting of 32 bits."
WORDS_PER_BLOCK = 8
BITS_PER_WORD = 32
BYTES_PER_BLOCK = WORDS_PER_BLOCK * BITS_PER_WORD // 8
BITS_PER_BLOCK = WORDS_PER_BLOCK * BITS_PER_WORD
# "a sequence of eight odd unsigned 32-bit integer constants called the salt"
SALT = np.array(
    [0x47B6137B, 0x44974D91, 0x8824AD5B, 0xA2B7289D, 0x705495C7, 0x2DF1424B, 0x9EFC4947, 0x5C6BFB31],
    dtype=np.uint64,  # products of two 32-bit values fit in 64 bits exactly
)
# mask: "divides that 32-bit unsigned integer by 2 to the 27th power" -> a bit index 0..31.
MASK_SHIFT = 27
LOW_32 = 0xFFFFFFFF
HASH_SEED = 0  # "XXH64 with a seed of 0"
WORD_DTYPE = np.dtype("<u4")  # stored as little-endian 32-bit words

# numBytes is a thrift i32 holding whole blocks.
SPEC_MAX_BYTES = (2**31 - 1) // BYTES_PER_BLOCK * BYTES_PER_BLOCK
# The cap writers (parquet-java, Arrow) apply; a writer's policy, not the spec's.
MAX_BYTES = 128 * 1024 * 1024
DEFAULT_FPP = 0.01  # the spec's own worked example is ~1 %; writers' defaults vary (Arrow 5 %)


# ---------------------------------------------------------------------------
# Blocks and the filter
# ---------------------------------------------------------------------------


def block_mask(x: int) -> np.ndarray:
    """``mask(x)``: eight little-endian 32-bit words, each with exactly one bit set."""
    if not 0 <= x <= LOW_32:
        raise ValueError(f"mask takes an unsigned 32-bit integer, got {x}")
    products = (np.uint64(x) * SALT) & np.uint64(LOW_32)  # "keeping only the least significant 32 bits"
    return (np.uint64(1) << (products >> np.uint64(MASK_SHIFT))).astype(WORD_DTYPE)


class SplitBlockBloomFilter:
    """An SBBF bitset of ``num_bytes // 32`` blocks, held as a (blocks, 8) word array."""

    def __init__(self, num_bytes: int) -> None:
        _check_num_bytes(num_bytes)
        self._words = np.zeros((num_bytes // BYTES_PER_BLOCK, WORDS_PER_BLOCK), dtype=WORD_DTYPE)

    @classmethod
    def from_bitset(cls, bitset: bytes) -> SplitBlockBloomFilter:
        """The filter whose stored bitset is ``bitset`` (copied)."""
        _check_num_bytes(len(bitset))
        bloom = cls.__new__(cls)
        words = np.frombuffer(bitset, dtype=WORD_DTYPE)
        bloom._words = words.reshape(-1, WORDS_PER_BLOCK).copy()
        return bloom

    @property
    def num_bytes(self) -> int:
        return self._words.size * WORD_DTYPE.itemsize

    @property
    def num_blocks(self) -> int:
        return self._words.shape[0]

    def _block_index(self, hash64: int) -> int:
        # "unsigned int32 i = (h_top_bits * z_as_64_bit) >> 32": a multiply-shift
        # in place of a modulo; both factors are below 2**32, so Python ints are exact.
        if not 0 <= hash64 < 2**64:
            raise ValueError(f"a Bloom filter hash is an unsigned 64-bit integer, got {hash64}")
        return ((hash64 >> 32) * self.num_blocks) >> 32

    def insert_hash(self, hash64: int) -> None:
        """``filter_insert``: block_insert the low 32 bits into the selected block."""
        self._words[self._block_index(hash64)] |= block_mask(hash64 & LOW_32)

    def check_hash(self, hash64: int) -> bool:
        """``filter_check``: are all bits of the mask set in the selected block?"""
        mask = block_mask(hash64 & LOW_32)
        return bool(np.all(self._words[self._block_index(hash64)] & mask == mask))

    def insert_hashes(self, hashes: Iterable[int]) -> None:
        """``insert_hash`` for many hashes at once (same result, vectorised)."""
        h = np.fromiter(hashes, dtype=np.uint64)
        blocks = ((h >> np.uint64(32)) * np.uint64(self.num_blocks)) >> np.uint64(32)
        products = ((h & np.uint64(LOW_32))[:, None] * SALT) & np.uint64(LOW_32)
        masks = (np.uint64(1) << (products >> np.uint64(MASK_SHIFT))).astype(WORD_DTYPE)
        np.bitwise_or.at(self._words, blocks.astype(np.intp), masks)

    def insert(self, physical_type: Type, value: object, type_length: int | None = None) -> None:
        self.insert_hash(bloom_hash(physical_type, value, type_length))

    def might_contain(self, physical_type: Type, value: object, type_length: int | None = None) -> bool:
        """False means "definitely not inserted"; True means "probably inserted"."""
        return self.check_hash(bloom_hash(physical_type, value, type_length))

    def bitset(self) -> bytes:
        """The bitset as stored: blocks in order, each eight little-endian words."""
        return self._words.tobytes()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SplitBlockBloomFilter):
            return NotImplemented
        return np.array_equal(self._words, other._words)

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        bits = int(np.unpackbits(self._words.view(np.uint8)).sum())
        return f"SplitBlockBloomFilter(num_bytes={self.num_bytes}, bits_set={bits})"


def _check_num_bytes(num_bytes: int) -> None:
    if not 0 < num_bytes <= SPEC_MAX_BYTES or num_bytes % BYTES_PER_BLOCK:
        raise ValueError(
            f"a split-block Bloom filter has 1 to 2**31 - 1 bytes in whole {BYTES_PER_BLOCK}-byte "
            f"blocks, got {num_bytes}"
        )


# ---------------------------------------------------------------------------
# Hashing values
# ---------------------------------------------------------------------------


def bloom_hash_input(physical_type: Type, value: object, type_length: int | None = None) -> bytes:
    """The bytes that are hashed: the PLAIN encoding of ``value``, but a
    BYTE_ARRAY without its 4-byte length prefix."""
    if value is None:
        raise ValueError("nulls are not values: they are never inserted into a Bloom filter")
    if physical_type == Type.BYTE_ARRAY:
        if not isinstance(value, bytes | bytearray | memoryview):
            raise TypeError(f"a BYTE_ARRAY value is bytes, got {type(value).__name__}")
        return bytes(value)
    return encode_plain(physical_type, [value], type_length)


def bloom_hash(physical_type: Type, value: object, type_length: int | None = None) -> int:
    """xxHash64 (seed 0) of :func:`bloom_hash_input`."""
    return xxhash.xxh64_intdigest(bloom_hash_input(physical_type, value, type_length), seed=HASH_SEED)


# ---------------------------------------------------------------------------
# Sizing
# ---------------------------------------------------------------------------


def false_positive_probability(bits_per_insert: float) -> float:
    """The FPP of an SBBF holding one hash per ``bits_per_insert`` bits.

    Inserts per block ~ Poisson(lam = 256 / bits_per_insert); with k of them, a
    foreign hash's bit in one word is set with probability 1 - (31/32)**k, in
    all eight words with that to the 8th.
    """
    if bits_per_insert <= 0:
        raise ValueError(f"bits per insert must be positive, got {bits_per_insert}")
    lam = BITS_PER_BLOCK / bits_per_insert
    spread = 12 * math.sqrt(lam) + 30  # the Poisson mass beyond this is negligible
    k = np.arange(max(0, math.floor(lam - spread)), math.ceil(lam + spread) + 1)
    log_pmf = k * math.log(lam) - lam - np.array([math.lgamma(i + 1) for i in k])
    word_bit_set = 1.0 - (1.0 - 1.0 / BITS_PER_WORD) ** k
    return float(np.sum(np.exp(log_pmf) * word_bit_set**WORDS_PER_BLOCK))


@lru_cache(maxsize=256)
def bits_per_insert(fpp: float) -> float:
    """The fewest bits per insert whose :func:`false_positive_probability` is <= ``fpp``."""
    if not 0.0 < fpp < 1.0:
        raise ValueError(f"a false positive probability lies strictly between 0 and 1, got {fpp}")
    low, high = 1.0, 2.0  # the FPP falls as bits per insert grow: bracket, then bisect
    if false_positive_probability(low) <= fpp:
        return low
    while false_positive_probability(high) > fpp:
        low, high = high, high * 2
    for _ in range(60):
        middle = (low + high) / 2
        low, high = (middle, high) if false_positive_probability(middle) > fpp else (low, middle)
    return high


def optimal_num_bytes(ndv: int, fpp: float, max_bytes: int = MAX_BYTES) -> int:
    """The smallest power-of-two bitset (>= 32 bytes, <= ``max_bytes``) that holds
    ``ndv`` distinct values at false positive probability ``fpp``."""
    if ndv < 0:
        raise ValueError(f"the number of distinct values cannot be negative, got {ndv}")
    if max_bytes < BYTES_PER_BLOCK:
        raise ValueError(f"max_bytes must allow one {BYTES_PER_BLOCK}-byte block, got {max_bytes}")
    needed = math.ceil(ndv * bits_per_insert(fpp) / 8)
    ceiling = 1 << (min(max_bytes, SPEC_MAX_BYTES).bit_length() - 1)  # largest power of two allowed
    size = 1 << max(needed - 1, BYTES_PER_BLOCK - 1).bit_length()  # next power of two >= needed, >= 32
    return min(size, ceiling)


def build_bloom_filter(
    physical_type: Type,
    values: Iterable[object],
    type_length: int | None = None,
    *,
    ndv: int | None = None,
    fpp: float = DEFAULT_FPP,
    max_bytes: int = MAX_BYTES,
) -> SplitBlockBloomFilter:
    """A filter holding ``values`` (nulls, ``None``, are skipped: they are not values).

    Without ``ndv`` the filter is sized for the number of distinct values
    given, "distinct" as the filter sees them: distinct hash inputs.
    """
    hashes = {bloom_hash(physical_type, value, type_length) for value in values if value is not None}
    bloom = SplitBlockBloomFilter(optimal_num_bytes(len(hashes) if ndv is None else ndv, fpp, max_bytes))
    bloom.insert_hashes(hashes)
    return bloom


# ---------------------------------------------------------------------------
# On disk
# ---------------------------------------------------------------------------


def serialize_bloom_filter(bloom: SplitBlockBloomFilter) -> bytes:
    """BloomFilterHeader (Compact Thrift) followed by the bitset."""
    header = BloomFilterHeader(
        numBytes=bloom.num_bytes,
        algorithm=BloomFilterAlgorithm(BLOCK=SplitBlockAlgorithm()),
        hash=BloomFilterHash(XXHASH=XxHash()),
        compression=BloomFilterCompression(UNCOMPRESSED=Uncompressed()),
    )
    return serialize(header) + bloom.bitset()


def read_bloom_filter(
    file: FileBytes, meta: ColumnMetaData, *, where: str = ""
) -> SplitBlockBloomFilter | None:
    """The column chunk's Bloom filter, or ``None`` if it has none.

    ``file`` is the whole file; ``where`` (e.g. "row group 0, column a") prefixes
    error messages. Every length is checked against the bytes present before
    anything is allocated.
    """
    offset = meta.bloom_filter_offset
    if offset is None:
        return None
    prefix = f"{where}: " if where else ""
    try:
        return _read_at(file, offset, meta.bloom_filter_length)
    except ParquetError as error:
        raise type(error)(prefix + error.message, error.offset) from error


def _read_at(file: FileBytes, offset: int, length: int | None) -> SplitBlockBloomFilter:
    size = len(file)
    if not 0 <= offset < size:
        raise CorruptMetadata(
            f"bloom_filter_offset {offset} lies outside the file of {size} bytes", min(max(offset, 0), size)
        )
    end = size
    if length is not None:
        if not 0 < length <= size - offset:
            raise CorruptMetadata(
                f"bloom_filter_length {length} does not fit between bloom_filter_offset {offset} "
                f"and the end of the file ({size - offset} bytes)",
                offset,
            )
        end = offset + length
    header, header_end = deserialize(BloomFilterHeader, file, start=offset, end=end)
    _check_union(header.algorithm, "Bloom filter algorithm", "BLOCK", offset)
    _check_union(header.hash, "Bloom filter hash", "XXHASH", offset)
    _check_union(header.compression, "Bloom filter compression", "UNCOMPRESSED", offset)
    num_bytes = header.numBytes
    if num_bytes <= 0 or num_bytes % BYTES_PER_BLOCK:
        raise CorruptMetadata(
            f"Bloom filter numBytes is {num_bytes}, not a positive multiple of {BYTES_PER_BLOCK} "
            f"(whole 32-byte blocks)",
            offset,
        )
    available = end - header_end
    if num_bytes > available:
        limit = "bloom_filter_length leaves" if length is not None else "the file has"
        raise CorruptMetadata(
            f"Bloom filter numBytes is {num_bytes}, but {limit} only {available} bytes after the header",
            header_end,
        )
    if length is not None and num_bytes != available:
        raise CorruptMetadata(
            f"bloom_filter_length is {length}, but header ({header_end - offset} bytes) and bitset "
            f"({num_bytes} bytes) take {header_end - offset + num_bytes}",
            offset,
        )
    return SplitBlockBloomFilter.from_bitset(bytes(file[header_end : header_end + num_bytes]))


def _check_union(union: ThriftUnion, what: str, expected: str, offset: int) -> None:
    if union.kind == expected:
        return
    if union.skipped_field_ids:  # a member from a newer spec: valid, but not ours to read
        ids = ", ".join(map(str, union.skipped_field_ids))
        raise UnsupportedFeature(
            f"{what}: union member with field id {ids} (only {expected} is defined)", offset
        )
    raise CorruptMetadata(f"{what}: the union has no member set", offset)
