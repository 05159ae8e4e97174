"""ALP (= 10): Adaptive Lossless floating-Point, for FLOAT and DOUBLE values (in Preview).

Encodings.md, 'Adaptive Lossless floating-Point: (ALP = 10)' ("As of 2026-08-01,
this encoding is in Preview"), and AlpEncoding.md, whose sections this module
follows one function each:

* 'Page Layout', 'Header (7 bytes)': ``compression_mode`` (0 = ALP), ``integer_encoding``
  (0 = FOR + bit-packing), ``log_vector_size`` (in [3, 15]), ``num_elements``
  (int32 LE, the page's non-null values): :func:`encode_header`, :func:`decode_header`;
* 'Offset Array': one uint32 LE per vector, measured from the start of the array,
  the first equal to ``num_vectors * 4``, each next one the previous plus the
  previous vector's size: :func:`encode_offsets`, :func:`decode_offsets`;
* 'Vector Format': ``AlpInfo`` (exponent, factor, num_exceptions), ``ForInfo``
  (frame_of_reference, bit_width), then PackedValues, ExceptionPositions and
  ExceptionValues: :func:`encode_vector`, :func:`decode_vector`;
* 'Parameter Selection' (informative): the (exponent, factor) pair, chosen by
  sampling: :func:`encoding_preset` for a page, :func:`choose_parameters` per vector;
* 'Encoding Formula', 'Fast Rounding' and 'Exception Detection': :func:`decimal_encode`;
  'Decoding' step 4, the normative ``encoded * 10^f * 10^(-e)``: :func:`decimal_decode`;
* 'Example: Frame of Reference and Bit-Packing': :func:`frame_of_reference`,
  :func:`bit_width_of` (the packing itself is ``bit_packing``'s: "the same LSB-first
  packing order as the RLE/Bit-Packing Hybrid encoding");
* 'Decoding' step 5 and 'ExceptionValues': :func:`patch_exceptions` ("implementations
  MUST NOT canonicalize NaN or otherwise alter the bits").

Values are those of ``plain``: Python floats, a FLOAT being the double of the same
value with every bit kept. The arithmetic runs in the column's own precision
(binary32 for FLOAT, binary64 for DOUBLE), on the bit patterns, so that NaN
payloads survive and -0.0 stays apart from +0.0.

Bad input is :class:`CorruptPage` with the byte offset of the field at fault: a
header or vector cut short, an offset outside the data or disagreeing with where
the previous vector ended, an exponent or factor out of range, more exceptions
than the vector has values or a position outside it, a bit width wider than the
encoded integer. A ``compression_mode`` other than 0 is "reserved for future
variants": :class:`UnsupportedFeature`. Every vector needs its header's bytes and
holds at most ``2**15`` values, so what is allocated is bounded by the page's size.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from reference_impl.parquet.encodings._cursor import Cursor
from reference_impl.parquet.encodings.bit_packing import pack_bits, packed_size, unpack_bits
from reference_impl.parquet.encodings.plain import numeric_array, numeric_values
from reference_impl.parquet.errors import CorruptPage, UnsupportedFeature
from reference_impl.parquet.metadata.parquet_thrift import Type

__all__ = [
    "DEFAULT_LOG_VECTOR_SIZE",
    "AlpHeader",
    "AlpVector",
    "bit_width_of",
    "choose_parameters",
    "decimal_decode",
    "decimal_encode",
    "decode_alp",
    "decode_header",
    "decode_offsets",
    "decode_vector",
    "encode_alp",
    "encode_header",
    "encode_offsets",
    "encode_vector",
    "encoding_preset",
    "frame_of_reference",
    "patch_exceptions",
    "read_vector",
]

ENCODING = "ALP"

# 'Header (7 bytes)': compression_mode, integer_encoding, log_vector_size, num_elements.
HEADER = struct.Struct("<BBBi")
COMPRESSION_MODE_ALP = 0  # "Reserved for future variants (e.g., ALP-RD)"
INTEGER_ENCODING_FOR = 0  # "must be 0 = FOR + bit-packing"
MIN_LOG_VECTOR_SIZE = 3
MAX_LOG_VECTOR_SIZE = 15
DEFAULT_LOG_VECTOR_SIZE = 10  # "Recommended default: 10 (vector size 1024)"
OFFSET = struct.Struct("<I")  # 'Offset Array': little-endian uint32
ALP_INFO = struct.Struct("<BBH")  # 'AlpInfo': exponent, factor, num_exceptions
EXCEPTION_POSITION = np.dtype("<u2")  # 'ExceptionPositions': uint16 indices


@dataclass(frozen=True)
class FloatKind:
    """What ALP needs of FLOAT or DOUBLE: 'ForInfo for FLOAT (5 bytes)' / 'for DOUBLE (9
    bytes)', the exponent range of 'AlpInfo', the magic number of 'Fast Rounding', and
    the power-of-10 constants of 'Encoding Formula'."""

    float_dtype: np.dtype  # the arithmetic's precision
    bits_dtype: np.dtype  # a value's bit pattern (ExceptionValues)
    int_dtype: np.dtype  # the encoded integer
    for_info: struct.Struct  # frame_of_reference, bit_width
    max_exponent: int
    magic: float
    powers: np.ndarray  # 10^0 ... 10^max_exponent, correctly rounded in float_dtype
    inverse_powers: np.ndarray  # 10^-0 ... 10^-max_exponent

    @property
    def bits(self) -> int:
        return self.int_dtype.itemsize * 8

    @property
    def width(self) -> int:
        return self.float_dtype.itemsize

    @property
    def combinations(self) -> list[tuple[int, int]]:
        """'Parameter Selection': "Valid combinations satisfy 0 <= factor <= exponent"."""
        return [(e, f) for e in range(self.max_exponent + 1) for f in range(e + 1)]


def _decimal_literals(dtype: str, max_exponent: int, sign: str) -> np.ndarray:
    """The constants 1e0 ... 1e<max> (or 1e-0 ... 1e-<max>) parsed from their decimal
    literals: "MUST NOT compute these constants at runtime via pow()". Parsing the
    literal rounds correctly (a test checks each against the exact power)."""
    return np.array([f"1e{sign}{k}" for k in range(max_exponent + 1)]).astype(dtype)


FLOAT_MAX_EXPONENT = 10  # 'AlpInfo': "Range: [0, 10] for FLOAT, [0, 18] for DOUBLE"
DOUBLE_MAX_EXPONENT = 18
KINDS = {
    Type.FLOAT: FloatKind(
        np.dtype("<f4"), np.dtype("<u4"), np.dtype("<i4"), struct.Struct("<iB"), FLOAT_MAX_EXPONENT,
        float(2**23), _decimal_literals("<f4", FLOAT_MAX_EXPONENT, ""),
        _decimal_literals("<f4", FLOAT_MAX_EXPONENT, "-"),
    ),
    Type.DOUBLE: FloatKind(
        np.dtype("<f8"), np.dtype("<u8"), np.dtype("<i8"), struct.Struct("<qB"), DOUBLE_MAX_EXPONENT,
        float(2**52), _decimal_literals("<f8", DOUBLE_MAX_EXPONENT, ""),
        _decimal_literals("<f8", DOUBLE_MAX_EXPONENT, "-"),
    ),
}  # fmt: skip

# 'Parameter Selection', "Suggested sampling parameters (from the paper)".
SAMPLE_SIZE = 256  # values sampled per vector
MAX_COMBINATIONS = 5  # best (e, f) pairs kept in the preset
SAMPLE_VECTORS = 8  # vectors sampled per page (the paper: per row group)
BITS_PER_BYTE = 8


@dataclass(frozen=True)
class AlpHeader:
    """'Header (7 bytes)'."""

    num_elements: int
    log_vector_size: int = DEFAULT_LOG_VECTOR_SIZE
    compression_mode: int = COMPRESSION_MODE_ALP
    integer_encoding: int = INTEGER_ENCODING_FOR

    @property
    def vector_size(self) -> int:
        return 1 << self.log_vector_size

    @property
    def num_vectors(self) -> int:
        """"ceil(num_elements / vector_size)"."""
        return -(-self.num_elements // self.vector_size)

    def vector_length(self, index: int) -> int:
        """"vector_size for all vectors except the last, which may be smaller"."""
        return min(self.vector_size, self.num_elements - index * self.vector_size)


@dataclass(frozen=True)
class AlpVector:
    """One vector as 'Vector Format' lays it out: AlpInfo, ForInfo, and the data section
    (deltas before packing, exception positions, exception bit patterns)."""

    exponent: int
    factor: int
    frame_of_reference: int
    bit_width: int
    deltas: np.ndarray  # uint64, one per value
    exception_positions: np.ndarray  # uint16
    exception_bits: np.ndarray  # the kind's bits_dtype


# --- Writing ---------------------------------------------------------------------------


def encode_alp(
    values: Sequence[float] | np.ndarray,
    *,
    physical_type: Type,
    log_vector_size: int = DEFAULT_LOG_VECTOR_SIZE,
) -> bytes:
    """ALP-encode the non-null FLOAT or DOUBLE ``values`` of one page."""
    kind = _kind(physical_type, ValueError)
    if not MIN_LOG_VECTOR_SIZE <= log_vector_size <= MAX_LOG_VECTOR_SIZE:
        raise ValueError(f"log_vector_size must be in [{MIN_LOG_VECTOR_SIZE}, {MAX_LOG_VECTOR_SIZE}]")
    bits = numeric_array(physical_type, values).view(kind.bits_dtype)
    header = AlpHeader(len(bits), log_vector_size)
    size = header.vector_size
    vectors = [bits[at : at + size] for at in range(0, len(bits), size)]
    preset = encoding_preset(vectors, kind)
    encoded = [encode_vector(_compress(vector, kind, preset), kind) for vector in vectors]
    return encode_header(header) + encode_offsets([len(v) for v in encoded]) + b"".join(encoded)


def encode_header(header: AlpHeader) -> bytes:
    return HEADER.pack(header.compression_mode, header.integer_encoding, header.log_vector_size,
                       header.num_elements)


def encode_offsets(vector_sizes: Sequence[int]) -> bytes:
    """'Offset Array': the first offset is ``num_vectors * 4``, each next one the previous
    plus the previous vector's size ("No padding is inserted between vectors")."""
    offsets, at = [], len(vector_sizes) * OFFSET.size
    for size in vector_sizes:
        offsets.append(OFFSET.pack(at))
        at += size
    return b"".join(offsets)


def encoding_preset(vectors: Sequence[np.ndarray], kind: FloatKind) -> list[tuple[int, int]]:
    """'Parameter Selection': up to MAX_COMBINATIONS (exponent, factor) pairs, the best
    over every combination on a sample of up to SAMPLE_VECTORS vectors of the page."""
    step = max(1, -(-len(vectors) // SAMPLE_VECTORS))
    sampled = [_sample(vector) for vector in vectors[::step]]
    scores: dict[tuple[int, int], int] = {}
    for sample in sampled:
        for pair in kind.combinations:
            scores[pair] = scores.get(pair, 0) + _estimated_bits(sample, kind, pair)
    return sorted(scores, key=lambda pair: (scores[pair], pair))[:MAX_COMBINATIONS]


def choose_parameters(
    bits: np.ndarray, kind: FloatKind, preset: Sequence[tuple[int, int]]
) -> tuple[int, int]:
    """The preset's pair that gives this vector's sample the smallest encoded size ("The
    encoder SHOULD select the (exponent, factor) pair that produces the smallest encoded
    output"); (0, 0) for an empty preset."""
    sample = _sample(bits)
    return min(preset, key=lambda pair: (_estimated_bits(sample, kind, pair), pair), default=(0, 0))


def decimal_encode(
    bits: np.ndarray, kind: FloatKind, exponent: int, factor: int
) -> tuple[np.ndarray, np.ndarray]:
    """'Encoding Formula' and 'Exception Detection': the encoded integers of a vector and
    the positions of its exceptions, each replaced by the placeholder ("the encoded integer
    of the first non-exception value, or 0 if all values are exceptions").

    A value is an exception unless ``decimal_decode`` gives back its exact bits: that
    catches NaN and infinities (no integer), -0.0 (decodes as +0.0), a scaled value
    outside the integer type, and a round-trip failure."""
    values = bits.view(kind.float_dtype)
    with np.errstate(all="ignore"):  # NaN, infinities and overflow become exceptions below
        scaled = values * kind.powers[exponent] * kind.inverse_powers[factor]
        rounded = _fast_round(scaled, kind)
    limit = float(2 ** (kind.bits - 1))
    in_range = (rounded >= -limit) & (rounded < limit)  # False for NaN
    encoded = np.where(in_range, rounded, 0).astype(kind.int_dtype)
    round_trips = in_range & (decimal_decode(encoded, kind, exponent, factor).view(kind.bits_dtype) == bits)
    exceptions = np.flatnonzero(~round_trips).astype(EXCEPTION_POSITION)
    placeholder = encoded[round_trips][0] if round_trips.any() else 0
    encoded[exceptions] = placeholder
    return encoded, exceptions


def _fast_round(scaled: np.ndarray, kind: FloatKind) -> np.ndarray:
    """'Fast Rounding (informative)': add then subtract the magic number in the value's own
    precision (the sign test form), rounding to the nearest integer, ties to even."""
    magic = kind.float_dtype.type(kind.magic)
    return np.where(scaled >= 0, (scaled + magic) - magic, (scaled - magic) + magic)


def frame_of_reference(encoded: np.ndarray, kind: FloatKind) -> tuple[int, np.ndarray]:
    """The minimum encoded integer and each value's delta from it, "computed in unsigned
    (wrapping) arithmetic and stored as an unsigned integer" (uint64)."""
    if len(encoded) == 0:
        return 0, np.zeros(0, dtype=np.uint64)
    minimum = encoded.min()
    unsigned = np.dtype(kind.bits_dtype)
    deltas = encoded.view(unsigned) - np.asarray(minimum, dtype=kind.int_dtype).view(unsigned)
    return int(minimum), deltas.astype(np.uint64)


def bit_width_of(deltas: np.ndarray) -> int:
    """"bit_width = ceil(log2(max_delta + 1))": the bit length of the largest delta."""
    return int(deltas.max()).bit_length() if len(deltas) else 0


def encode_vector(vector: AlpVector, kind: FloatKind) -> bytes:
    """'Vector Format': AlpInfo, ForInfo, PackedValues, ExceptionPositions, ExceptionValues."""
    return b"".join((
        ALP_INFO.pack(vector.exponent, vector.factor, len(vector.exception_positions)),
        kind.for_info.pack(vector.frame_of_reference, vector.bit_width),
        pack_bits(vector.deltas, vector.bit_width),
        vector.exception_positions.astype(EXCEPTION_POSITION).tobytes(),
        vector.exception_bits.astype(kind.bits_dtype).tobytes(),
    ))  # fmt: skip


def _compress(bits: np.ndarray, kind: FloatKind, preset: Sequence[tuple[int, int]]) -> AlpVector:
    """The compression pipeline of 'Overview' for one vector: parameters, decimal encoding
    with exceptions, frame of reference, bit width."""
    exponent, factor = choose_parameters(bits, kind, preset)
    encoded, exceptions = decimal_encode(bits, kind, exponent, factor)
    reference, deltas = frame_of_reference(encoded, kind)
    return AlpVector(exponent, factor, reference, bit_width_of(deltas), deltas, exceptions, bits[exceptions])


def _sample(bits: np.ndarray) -> np.ndarray:
    """Up to SAMPLE_SIZE values spread evenly over the vector."""
    step = max(1, -(-len(bits) // SAMPLE_SIZE))
    return bits[::step]


def _estimated_bits(sample: np.ndarray, kind: FloatKind, pair: tuple[int, int]) -> int:
    """The size of ``sample`` encoded with ``pair``: packed deltas plus exceptions ("a more
    precise approach accounts for both bit-width and exception overhead")."""
    encoded, exceptions = decimal_encode(sample, kind, *pair)
    _, deltas = frame_of_reference(encoded, kind)
    exception_bytes = EXCEPTION_POSITION.itemsize + kind.width
    return len(sample) * bit_width_of(deltas) + len(exceptions) * exception_bytes * BITS_PER_BYTE


# --- Reading ---------------------------------------------------------------------------


def decode_alp(
    data: bytes | bytearray | memoryview,
    count: int,
    *,
    physical_type: Type,
    start: int = 0,
    end: int | None = None,
    base_offset: int = 0,
) -> tuple[list[object], int]:
    """Decode the ``count`` non-null values of a page from ``data[start:end]``; returns them
    and the position just after the last vector."""
    cursor = Cursor(data, start, end, base_offset=base_offset, error=CorruptPage, encoding=ENCODING)
    cursor.check_count(count)
    kind = _kind(physical_type, cursor.fail)
    header = decode_header(cursor, count)
    array_start = cursor.position
    offsets = decode_offsets(cursor, header.num_vectors)
    vectors = []
    for index, offset in enumerate(offsets):
        if cursor.position != array_start + offset:
            raise cursor.fail(
                f"offset {index} is {offset}, but vector {index} starts at "
                f"{cursor.position - array_start} (the offset array's start + the sizes before it)",
                array_start + index * OFFSET.size,
            )
        vectors.append(decode_vector(cursor, kind, header.vector_length(index)))
    bits = np.concatenate(vectors) if vectors else np.zeros(0, dtype=kind.bits_dtype)
    plain = bits if physical_type == Type.FLOAT else bits.view(kind.float_dtype)
    return numeric_values(physical_type, plain), cursor.position


def decode_header(cursor: Cursor, count: int) -> AlpHeader:
    """'Header (7 bytes)', checked: mode 0, integer encoding 0, log_vector_size in [3, 15],
    and ``num_elements`` equal to the page's ``count`` of non-null values."""
    at = cursor.position
    mode, integer_encoding, log_size, num_elements = HEADER.unpack(cursor.take(HEADER.size, "the header"))
    if mode != COMPRESSION_MODE_ALP:
        raise UnsupportedFeature(
            f"{ENCODING}: compression_mode {mode} is reserved for future variants (0 = ALP; "
            "AlpEncoding.md, 'Header (7 bytes)')", cursor.offset(at),
        )
    if integer_encoding != INTEGER_ENCODING_FOR:
        raise cursor.fail(f"integer_encoding is {integer_encoding}, it must be 0 (FOR + bit-packing)", at + 1)
    if not MIN_LOG_VECTOR_SIZE <= log_size <= MAX_LOG_VECTOR_SIZE:
        raise cursor.fail(
            f"log_vector_size is {log_size}, it must be in [{MIN_LOG_VECTOR_SIZE}, {MAX_LOG_VECTOR_SIZE}]",
            at + 2,
        )
    if num_elements != count:
        raise cursor.fail(f"num_elements is {num_elements}, but the page has {count} non-null values", at + 3)
    return AlpHeader(num_elements, log_size, mode, integer_encoding)


def decode_offsets(cursor: Cursor, num_vectors: int) -> list[int]:
    """'Offset Array': ``num_vectors`` offsets, each inside the data after the header. (Each
    is then checked against where its vector starts, in :func:`decode_alp`.)"""
    array_start = cursor.position
    raw = cursor.take(num_vectors * OFFSET.size, f"the offset array of {num_vectors} vector(s)")
    offsets = [offset for (offset,) in OFFSET.iter_unpack(raw)]
    data_size = cursor.end - array_start
    for index, offset in enumerate(offsets):
        if not num_vectors * OFFSET.size <= offset <= data_size:
            raise cursor.fail(
                f"offset {index} is {offset}, outside the vector data [{num_vectors * OFFSET.size}, "
                f"{data_size}] after the offset array's start",
                array_start + index * OFFSET.size,
            )
    return offsets


def decode_vector(cursor: Cursor, kind: FloatKind, length: int) -> np.ndarray:
    """One vector of ``length`` values as bit patterns ('Decoding', steps 1 to 5)."""
    vector = read_vector(cursor, kind, length)
    encoded = _reverse_frame_of_reference(vector, kind)
    decoded = decimal_decode(encoded, kind, vector.exponent, vector.factor).view(kind.bits_dtype)
    return patch_exceptions(decoded, vector)


def read_vector(cursor: Cursor, kind: FloatKind, length: int) -> AlpVector:
    """'Vector Format' read and checked: the 'AlpInfo' and 'ForInfo' ranges, exception
    count and positions inside the vector, every section inside the data."""
    at = cursor.position
    exponent, factor, num_exceptions = ALP_INFO.unpack(cursor.take(ALP_INFO.size, "AlpInfo"))
    if exponent > kind.max_exponent:
        raise cursor.fail(f"exponent {exponent} is outside [0, {kind.max_exponent}]", at)
    if factor > exponent:
        raise cursor.fail(f"factor {factor} is outside [0, exponent = {exponent}]", at + 1)
    if num_exceptions > length:
        raise cursor.fail(f"num_exceptions is {num_exceptions}, but the vector has {length} values", at + 2)
    width_at = cursor.position + kind.for_info.size - 1
    reference, bit_width = kind.for_info.unpack(cursor.take(kind.for_info.size, "ForInfo"))
    if bit_width > kind.bits:
        raise cursor.fail(f"bit_width {bit_width} is outside [0, {kind.bits}]", width_at)
    packed = cursor.take(packed_size(length, bit_width), f"PackedValues ({length} x {bit_width} bits)")
    positions_at = cursor.position
    raw_positions = cursor.take(num_exceptions * EXCEPTION_POSITION.itemsize, "ExceptionPositions")
    positions = np.frombuffer(raw_positions, dtype=EXCEPTION_POSITION)
    outside = np.flatnonzero(positions >= length)
    if len(outside):
        first = int(outside[0])
        raise cursor.fail(
            f"exception position {int(positions[first])} is outside the vector's {length} values",
            positions_at + first * EXCEPTION_POSITION.itemsize,
        )
    raw_values = cursor.take(num_exceptions * kind.width, "ExceptionValues")
    exception_bits = np.frombuffer(raw_values, dtype=kind.bits_dtype)
    deltas = unpack_bits(packed, bit_width, length)
    return AlpVector(exponent, factor, reference, bit_width, deltas, positions, exception_bits)


def _reverse_frame_of_reference(vector: AlpVector, kind: FloatKind) -> np.ndarray:
    """'Decoding' step 3: ``encoded[i] = delta[i] + frame_of_reference``, wrapping in the
    unsigned type of the encoded integer's width."""
    unsigned = np.dtype(kind.bits_dtype)
    reference = np.asarray(vector.frame_of_reference, dtype=kind.int_dtype).view(unsigned)
    return (vector.deltas.astype(unsigned) + reference).view(kind.int_dtype)


def decimal_decode(encoded: np.ndarray, kind: FloatKind, exponent: int, factor: int) -> np.ndarray:
    """'Encoding Formula', normative: "decoded = encoded * 10^f * 10^(-e)", two
    multiplications in the value's precision, with the constant tables."""
    return encoded.astype(kind.float_dtype) * kind.powers[factor] * kind.inverse_powers[exponent]


def patch_exceptions(decoded_bits: np.ndarray, vector: AlpVector) -> np.ndarray:
    """'Decoding' step 5: overwrite each exception's position with its stored bits."""
    decoded_bits[vector.exception_positions] = vector.exception_bits
    return decoded_bits


def _kind(physical_type: Type, error: Callable[[str], Exception]) -> FloatKind:
    if physical_type not in KINDS:
        name = Type(physical_type).name if physical_type in list(Type) else physical_type
        raise error(f"{ENCODING} applies to FLOAT and DOUBLE, not {name}")
    return KINDS[physical_type]
