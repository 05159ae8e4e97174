"""One Bloom filter: its size, the hash of each type's values, its bits.

ORCv1.md, 'Bloom Filter Index' (orc_proto.proto message BloomFilter). A value's 64-bit
base hash is Thomas Wang's 64-bit integer hash for "tinyint, smallint, int, bigint,
float and double types" (doubles as their IEEE-754 bits, floats widened to double
first) and Murmur3 for "strings and binary types"; k bit positions come from it by the
text's six steps (Kirsch and Mitzenmacher's double hashing), in a bitset of m bits whose
bit ``position`` is bit ``position % 64`` of 64-bit little-endian word ``position >>> 6``.

What the text leaves out, as ORC Java and ORC C++ write it and as their files show
(tests/reference_impl/orc/test_bloom_filter_writers.py; docs/orc-spec-notes.md, note 12):

* The size: m = floor(-n ln(p) / (ln 2)^2) for n expected entries (the row index stride)
  and false-positive probability p, then raised to the next multiple of 64, a whole
  word more when it is one already; k = max(1, round(m / n * ln 2)).
* "Murmur3 64 bit" is not the first half of Murmur3 x64_128 (as the text says) but
  ORC's own one-lane variant of it, with seed 104729: :func:`murmur3_64`.
* Dates hash their days since 1970-01-01, timestamps their milliseconds since the
  epoch (rounded down; a TIMESTAMP's wall-clock time as if in UTC, bloom_encoding 1,
  "ORC-135 (utc for timestamps)"), decimals the UTF-8 bytes of their text without
  trailing fractional zeros ("1.50" is "1.5", "-12.00" is "-12"), booleans 0 or 1.

No library gives ORC's Murmur3 variant (``mmh3`` computes Murmur3 x64_128), so it is
written out here from its constants.

The functions of one value spell the text's steps out; ``value_hashes`` and
``BloomFilterBits.contain`` take a row group's values at once, with numpy's wrapping
64-bit arithmetic for the long-hashed kinds (each distinct value of the others hashed by
``value_hash``), and tests/reference_impl/orc/test_bloom_filter.py holds them to the one-
value forms bit for bit.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from reference_impl.orc.metadata.proto_enums import TypeKind
from reference_impl.orc.metadata.type_tree import TypeNode

__all__ = ["DEFAULT_FPP", "HASHED_KINDS", "BloomFilterBits", "bloom_filter_size", "decimal_text",
           "murmur3_64", "thomas_wang_64", "thomas_wang_64_array", "value_hash", "value_hashes"]

BITS_PER_WORD = 64  # 'Bloom Filter Index': the bitset is "a repeating sequence of longs"
BITS_PER_BYTE = 8
BYTE_INDEX_SHIFT = 3  # bit p is bit p % 8 of byte p >> 3
BYTES_PER_WORD = BITS_PER_WORD // BITS_PER_BYTE
WORD_INDEX_SHIFT = 6  # "The LSB 6 bits identifies the long index within bitset"
DEFAULT_FPP = 0.05  # ORC C++'s default false-positive probability (ORC Java's is 0.01)

UINT64 = (1 << 64) - 1
UINT32 = (1 << 32) - 1
INT32_SIGN = 1 << 31
INT64_SIGN = 1 << 63
HALF_BITS = 32  # "Split the above hashcode into two 32-bit hashcodes"

# ORC's Murmur3 64-bit variant: Murmur3 x64_128's constants, one lane.
MURMUR3_SEED = 104729
MURMUR3_C1 = 0x87C37B91114253D5
MURMUR3_C2 = 0x4CF5AD432745937F
MURMUR3_R1 = 31
MURMUR3_R2 = 27
MURMUR3_M = 5
MURMUR3_N1 = 0x52DCE729
FMIX_SHIFT = 33
FMIX_C1 = 0xFF51AFD7ED558CCD
FMIX_C2 = 0xC4CEB9FE1A85EC53

NANOS_PER_MILLI = 10**6
DECIMAL_BASE = 10
INTEGER_KINDS = frozenset({TypeKind.BOOLEAN, TypeKind.BYTE, TypeKind.SHORT, TypeKind.INT, TypeKind.LONG,
                           TypeKind.DATE})
TEXT_KINDS = frozenset({TypeKind.STRING, TypeKind.VARCHAR, TypeKind.CHAR})
TIMESTAMP_KINDS = frozenset({TypeKind.TIMESTAMP, TypeKind.TIMESTAMP_INSTANT})
HASHED_KINDS = INTEGER_KINDS | TEXT_KINDS | TIMESTAMP_KINDS | {
    TypeKind.FLOAT, TypeKind.DOUBLE, TypeKind.DECIMAL, TypeKind.BINARY}


def bloom_filter_size(expected_entries: int, fpp: float) -> tuple[int, int]:
    """(numBits, numHashFunctions) for ``expected_entries`` values at false-positive
    probability ``fpp``, as ORC's writers size them (module docstring)."""
    if expected_entries < 1 or not 0.0 < fpp < 1.0:
        raise ValueError(f"a Bloom filter needs expected entries >= 1 and 0 < fpp < 1, "
                         f"not {expected_entries} and {fpp}")
    optimal = int(-expected_entries * math.log(fpp) / (math.log(2) ** 2))
    num_bits = optimal + (BITS_PER_WORD - optimal % BITS_PER_WORD)
    return num_bits, max(1, round(num_bits / expected_entries * math.log(2)))


def _signed(value: int, sign: int) -> int:
    return value - 2 * sign if value & sign else value


def _arithmetic_shift(value: int, bits: int) -> int:
    """Java's ``>>`` on a long held as an unsigned 64-bit number."""
    return (_signed(value, INT64_SIGN) >> bits) & UINT64


def thomas_wang_64(key: int) -> int:
    """Thomas Wang's 64-bit integer hash of the long ``key`` (unsigned 64-bit result)."""
    key &= UINT64
    key = (~key + (key << 21)) & UINT64
    key ^= _arithmetic_shift(key, 24)
    key = (key + (key << 3) + (key << 8)) & UINT64
    key ^= _arithmetic_shift(key, 14)
    key = (key + (key << 2) + (key << 4)) & UINT64
    key ^= _arithmetic_shift(key, 28)
    return (key + (key << 31)) & UINT64


def thomas_wang_64_array(keys: np.ndarray) -> np.ndarray:
    """:func:`thomas_wang_64` of each long of ``keys`` (int64), as uint64: the same steps in
    numpy's wrapping 64-bit arithmetic, ``>>`` arithmetic on the int64 view as in Java."""
    key = keys.astype(np.int64).view(np.uint64)
    key = ~key + (key << 21)
    key ^= _arithmetic_shift_array(key, 24)
    key = key + (key << 3) + (key << 8)
    key ^= _arithmetic_shift_array(key, 14)
    key = key + (key << 2) + (key << 4)
    key ^= _arithmetic_shift_array(key, 28)
    return key + (key << 31)


def _arithmetic_shift_array(key: np.ndarray, bits: int) -> np.ndarray:
    return (key.view(np.int64) >> bits).view(np.uint64)


def _rotate_left(value: int, bits: int) -> int:
    return ((value << bits) | (value >> (BITS_PER_WORD - bits))) & UINT64


def _mix(block: int) -> int:
    block = (block * MURMUR3_C1) & UINT64
    return (_rotate_left(block, MURMUR3_R1) * MURMUR3_C2) & UINT64


def _fmix64(value: int) -> int:
    value ^= value >> FMIX_SHIFT
    value = (value * FMIX_C1) & UINT64
    value ^= value >> FMIX_SHIFT
    value = (value * FMIX_C2) & UINT64
    return value ^ (value >> FMIX_SHIFT)


def murmur3_64(data: bytes, seed: int = MURMUR3_SEED) -> int:
    """ORC's Murmur3 64-bit hash of ``data`` (unsigned): little-endian 8-byte blocks, then
    the tail bytes (unsigned) as one little-endian block, then the length and fmix64."""
    hashed = seed
    whole = len(data) - len(data) % BYTES_PER_WORD
    for start in range(0, whole, BYTES_PER_WORD):
        hashed ^= _mix(int.from_bytes(data[start:start + BYTES_PER_WORD], "little"))
        hashed = (_rotate_left(hashed, MURMUR3_R2) * MURMUR3_M + MURMUR3_N1) & UINT64
    if whole < len(data):
        hashed ^= _mix(int.from_bytes(data[whole:], "little"))
    return _fmix64(hashed ^ len(data))


def _double_bits(value: float) -> int:
    """Java's Double.doubleToLongBits: NaN is the canonical 0x7ff8000000000000."""
    return struct.unpack("<q", struct.pack("<d", math.nan if math.isnan(value) else value))[0]


def _as_float(value: float) -> float:
    """The FLOAT value of ``value``: the double rounded to single precision (beyond its
    range, an infinity, as a C cast gives)."""
    try:
        return struct.unpack("<f", struct.pack("<f", value))[0]
    except OverflowError:
        return math.copysign(math.inf, value)


def decimal_text(unscaled: int, scale: int) -> str:
    """The decimal unscaled * 10^-scale as text without trailing fractional zeros."""
    digits = str(abs(unscaled)).rjust(scale + 1, "0")
    whole, fraction = digits[:len(digits) - scale], digits[len(digits) - scale:].rstrip("0")
    sign = "-" if unscaled < 0 else ""
    return f"{sign}{whole}.{fraction}" if fraction else f"{sign}{whole}"


def value_hash(node: TypeNode, value: Any) -> int:
    """The 64-bit base hash of one non-null ``value`` of column ``node``, in the value
    representation of the reference's columns (columns/registry.py)."""
    kind = node.kind
    if kind in INTEGER_KINDS:
        return thomas_wang_64(int(value))
    if kind == TypeKind.DOUBLE:
        return thomas_wang_64(_double_bits(float(value)))
    if kind == TypeKind.FLOAT:
        return thomas_wang_64(_double_bits(_as_float(float(value))))
    if kind in TIMESTAMP_KINDS:  # nanoseconds since 1970
        return thomas_wang_64(int(value) // NANOS_PER_MILLI)
    if kind in TEXT_KINDS:
        return murmur3_64(str(value).encode("utf-8"))
    if kind == TypeKind.BINARY:
        return murmur3_64(bytes(value))
    if kind == TypeKind.DECIMAL:  # the unscaled integer at the column's scale
        return murmur3_64(decimal_text(int(value), node.scale or 0).encode("ascii"))
    raise ValueError(f"{node.describe()} has no Bloom filter hash in 'Bloom Filter Index'")


def value_hashes(node: TypeNode, values: Sequence[Any]) -> np.ndarray:
    """:func:`value_hash` of each of ``values`` (uint64)."""
    keys = _long_keys(node, values)
    if keys is not None:
        return thomas_wang_64_array(keys)
    hashes = {value: value_hash(node, value) for value in set(values)}
    return np.fromiter((hashes[value] for value in values), dtype=np.uint64, count=len(values))


def _long_keys(node: TypeNode, values: Sequence[Any]) -> np.ndarray | None:
    """The longs Thomas Wang's hash takes for ``values`` (as :func:`value_hash` makes
    them), or None for a kind hashed by Murmur3 or a value past a long."""
    kind = node.kind
    try:
        if kind in INTEGER_KINDS:
            return np.array(values, dtype=np.int64)
        if kind in TIMESTAMP_KINDS:
            return np.array(values, dtype=np.int64) // NANOS_PER_MILLI
    except OverflowError:
        return None
    if kind not in (TypeKind.DOUBLE, TypeKind.FLOAT):
        return None
    doubles = np.array(values, dtype=np.float64)
    if kind == TypeKind.FLOAT:
        with np.errstate(over="ignore", invalid="ignore"):  # past FLOAT's range: infinity, as _as_float
            doubles = doubles.astype(np.float32).astype(np.float64)
    doubles[np.isnan(doubles)] = math.nan  # Double.doubleToLongBits: one NaN
    return doubles.view(np.int64)


@dataclass
class BloomFilterBits:
    """A Bloom filter: ``num_hash_functions`` (k) and its bits, little-endian bytes (the
    utf8bitset layout; bit p is bit p % 8 of byte p // 8, the same as in the longs)."""

    num_hash_functions: int
    bits: bytearray = field(repr=False)

    @classmethod
    def empty(cls, expected_entries: int, fpp: float) -> BloomFilterBits:
        num_bits, num_hash_functions = bloom_filter_size(expected_entries, fpp)
        return cls(num_hash_functions, bytearray(num_bits // 8))

    @property
    def num_bits(self) -> int:
        return len(self.bits) * 8

    def positions(self, base_hash: int) -> list[int]:
        """Steps 2 to 5 of the text: the k bit positions of a 64-bit base hash, in 32-bit
        two's complement arithmetic as Java's ints."""
        hash1 = _signed(base_hash & UINT32, INT32_SIGN)
        hash2 = _signed((base_hash >> HALF_BITS) & UINT32, INT32_SIGN)
        found = []
        for k in range(1, self.num_hash_functions + 1):
            combined = _signed((hash1 + k * hash2) & UINT32, INT32_SIGN)
            found.append((~combined if combined < 0 else combined) % self.num_bits)
        return found

    def add(self, base_hash: int) -> None:
        for position in self.positions(base_hash):
            self.bits[position // 8] |= 1 << position % 8

    def add_all(self, base_hashes: Iterable[int]) -> None:
        for base_hash in base_hashes:
            self.add(base_hash)

    def might_contain(self, base_hash: int) -> bool:
        """False: no value with this hash was added; True: one may have been."""
        return all(self.bits[position // 8] >> position % 8 & 1 for position in self.positions(base_hash))

    def contain(self, base_hashes: np.ndarray) -> np.ndarray:
        """:meth:`might_contain` of each of ``base_hashes`` (uint64), as a bool array."""
        hash1 = (base_hashes & np.uint64(UINT32)).astype(np.uint32).view(np.int32).astype(np.int64)
        hash2 = (base_hashes >> np.uint64(HALF_BITS)).astype(np.uint32).view(np.int32).astype(np.int64)
        bits = np.frombuffer(self.bits, dtype=np.uint8)
        found = np.ones(len(base_hashes), dtype=bool)
        for k in range(1, self.num_hash_functions + 1):
            combined = (hash1 + k * hash2).astype(np.int32)  # Java's int: wraps at 32 bits
            position = np.where(combined < 0, ~combined, combined).astype(np.int64) % self.num_bits
            found &= (bits[position >> BYTE_INDEX_SHIFT] >> (position & (BITS_PER_BYTE - 1)).astype(np.uint8)
                      & 1).astype(bool)
        return found

    def words(self) -> list[int]:
        """The bitset as the original BLOOM_FILTER stores it: unsigned 64-bit longs."""
        return [int.from_bytes(self.bits[start:start + BYTES_PER_WORD], "little")
                for start in range(0, len(self.bits), BYTES_PER_WORD)]

    @classmethod
    def from_words(cls, num_hash_functions: int, words: Iterable[int]) -> BloomFilterBits:
        return cls(num_hash_functions, bytearray(b"".join(word.to_bytes(BYTES_PER_WORD, "little")
                                                          for word in words)))
