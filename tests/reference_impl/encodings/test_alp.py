"""ALP (= 10) for FLOAT and DOUBLE, in Preview.

Encodings.md, 'Adaptive Lossless floating-Point: (ALP = 10)', and AlpEncoding.md.
Each layout and worked example of the text is built here field by field; the
round trips keep every bit (NaN payloads, -0.0, infinities, subnormals); bad input
is a documented error at the byte offset of the field at fault.
"""

from __future__ import annotations

import math
import re
import struct
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from conformance.cases.float_edges import DOUBLE_MIN_SUBNORMAL, FLOAT32_MIN_SUBNORMAL, nan_payloads
from reference_impl.parquet.encodings.alp import (
    KINDS,
    AlpHeader,
    AlpVector,
    _fast_round,
    bit_width_of,
    decimal_decode,
    decimal_encode,
    decode_alp,
    encode_alp,
    encode_header,
    encode_offsets,
    encode_vector,
    frame_of_reference,
)
from reference_impl.parquet.encodings.plain import decode_plain, encode_plain
from reference_impl.parquet.errors import CorruptPage, ParquetError, UnsupportedFeature
from reference_impl.parquet.metadata.parquet_thrift import Type
from tests.reference_impl.parquet_helpers import budget

FAST = budget(60)
BASE = 1_000  # a file offset for the data, so that offsets are checked to include it
WIDTHS = {Type.FLOAT: 4, Type.DOUBLE: 8}
HEADER_SIZE = 7
NAN_DOUBLE = bytes.fromhex("000000000000f87f")  # the quiet NaN 0x7FF8000000000000, little endian
DOUBLE = KINDS[Type.DOUBLE]


def _header(num_elements: int, log_vector_size: int = 10, mode: int = 0, integer_encoding: int = 0) -> bytes:
    """'Header (7 bytes)': compression_mode, integer_encoding, log_vector_size (uint8 each),
    num_elements (int32 LE)."""
    return bytes([mode, integer_encoding, log_vector_size]) + num_elements.to_bytes(4, "little", signed=True)


def _pack_lsb_first(values: list[int], width: int) -> bytes:
    """'PackedValues': LSB first, the last byte zero-padded; as one little-endian integer."""
    number = sum(value << (index * width) for index, value in enumerate(values))
    return number.to_bytes(-(-len(values) * width // 8), "little")


def _bits(values: list[float], physical_type: Type) -> bytes:
    return encode_plain(physical_type, values)


# The spec's 'Worked Example: Exceptions and Non-Zero Factor', as its 'Serialized Vector'
# table lists the sections.
WORKED_VALUES = [1500.0, math.nan, 2500.0, 333.5]
WORKED_VECTOR = (
    bytes([4, 3]) + (1).to_bytes(2, "little")  # AlpInfo: e=4, f=3, num_exceptions=1
    + (3335).to_bytes(8, "little", signed=True) + bytes([15])  # ForInfo: frame_of_reference, bit_width
    + _pack_lsb_first([11665, 11665, 21665, 0], 15)  # PackedValues
    + (1).to_bytes(2, "little")  # ExceptionPositions [1]
    + NAN_DOUBLE  # ExceptionValues [NaN]
)  # fmt: skip
WORKED_PAGE = _header(4) + (4).to_bytes(4, "little") + WORKED_VECTOR


def test_the_worked_example_vector_is_31_bytes_and_decodes() -> None:
    assert len(WORKED_VECTOR) == 31  # "Total: 31 bytes"
    values, end = decode_alp(WORKED_PAGE, 4, physical_type=Type.DOUBLE)
    assert _bits(values, Type.DOUBLE) == _bits(WORKED_VALUES, Type.DOUBLE)
    assert end == len(WORKED_PAGE)


def test_the_worked_example_steps() -> None:
    """Steps 1 to 4 of the worked example with (exponent=4, factor=3)."""
    bits = np.frombuffer(_bits(WORKED_VALUES, Type.DOUBLE), dtype="<u8")
    encoded, exceptions = decimal_encode(bits, DOUBLE, exponent=4, factor=3)
    assert encoded.tolist() == [15000, 15000, 25000, 3335]  # placeholder 15000 at the NaN
    assert exceptions.tolist() == [1]
    reference, deltas = frame_of_reference(encoded, DOUBLE)
    assert (reference, deltas.tolist()) == (3335, [11665, 11665, 21665, 0])
    assert bit_width_of(deltas) == 15
    vector = AlpVector(4, 3, reference, 15, deltas, exceptions, bits[exceptions])
    assert encode_vector(vector, DOUBLE) == WORKED_VECTOR


def test_the_frame_of_reference_example() -> None:
    """'Example: Frame of Reference and Bit-Packing': min 12, deltas, 10 bits, 5 bytes."""
    reference, deltas = frame_of_reference(np.array([123, 456, 789, 12], dtype="<i4"), KINDS[Type.FLOAT])
    assert (reference, deltas.tolist()) == (12, [111, 444, 777, 0])
    assert bit_width_of(deltas) == 10
    vector = AlpVector(0, 0, reference, 10, deltas, np.zeros(0, "<u2"), np.zeros(0, "<u4"))
    packed = _pack_lsb_first([111, 444, 777, 0], 10)
    assert len(packed) == 5  # "4 * 10 = 40 bits = 5 bytes"
    for_info = (12).to_bytes(4, "little") + bytes([10])  # frame_of_reference, bit_width
    assert encode_vector(vector, KINDS[Type.FLOAT]) == bytes([0, 0, 0, 0]) + for_info + packed
    decoded, _ = decode_alp(_header(4) + (4).to_bytes(4, "little") + encode_vector(vector, KINDS[Type.FLOAT]),
                            4, physical_type=Type.FLOAT)
    assert decoded == [123.0, 456.0, 789.0, 12.0]


def test_identical_values_have_bit_width_zero_and_no_packed_bytes() -> None:
    """"If bit_width is 0, no bytes are stored": the vector is its 13-byte header."""
    page = encode_alp([2.5] * 5, physical_type=Type.DOUBLE)
    assert len(page) == HEADER_SIZE + 4 + 13
    assert page[HEADER_SIZE + 4 + 12] == 0  # ForInfo.bit_width
    assert decode_alp(page, 5, physical_type=Type.DOUBLE)[0] == [2.5] * 5


def test_header_and_offset_array_layout() -> None:
    """The header's fields in order; "The first offset always equals num_vectors * 4", each
    next one the previous plus the previous vector's size."""
    assert encode_header(AlpHeader(20, 3)) == bytes([0, 0, 3, 20, 0, 0, 0])
    assert AlpHeader(20, 3).num_vectors == 3  # ceil(20 / 8); the last holds 4
    assert [AlpHeader(20, 3).vector_length(i) for i in range(3)] == [8, 8, 4]
    assert encode_offsets([13, 20, 9]) == struct.pack("<3I", 12, 25, 45)
    values = [i / 4 for i in range(20)]
    page = encode_alp(values, physical_type=Type.DOUBLE, log_vector_size=3)
    offsets = struct.unpack_from("<3I", page, HEADER_SIZE)
    assert offsets[0] == 12
    assert decode_alp(page, 20, physical_type=Type.DOUBLE)[0] == values


@pytest.mark.parametrize(("physical_type", "dtype"), [(Type.FLOAT, "<f4"), (Type.DOUBLE, "<f8")])
def test_power_of_ten_constants_are_the_correctly_rounded_literals(physical_type: Type, dtype: str) -> None:
    """"the correctly-rounded IEEE 754 values of the decimal literals 1e0 ... 1e-18": each
    constant is at least as close to the exact power as its two neighbours."""
    kind = KINDS[physical_type]
    for table, exact in ((kind.powers, lambda k: Fraction(10) ** k), (kind.inverse_powers,
                                                                        lambda k: Fraction(1, 10**k))):
        for k, constant in enumerate(table):
            error = abs(Fraction(float(constant)) - exact(k))
            for neighbour in (np.nextafter(constant, np.inf, dtype=dtype),
                              np.nextafter(constant, -np.inf, dtype=dtype)):
                assert error <= abs(Fraction(float(neighbour)) - exact(k)), (k, constant)


def test_decoding_multiplies_by_10_to_the_f_then_by_10_to_the_minus_e() -> None:
    """The normative formula, two multiplications in the value's precision ("not division"):
    3 with e=1, f=0 is 3 * 1e0 * 1e-1 = 0.30000000000000004 in binary64, not the 0.3 of 3 / 10."""
    decoded = decimal_decode(np.array([3], dtype="<i8"), DOUBLE, exponent=1, factor=0)
    assert decoded.tolist() == [0.30000000000000004]
    assert decoded[0] != 3 / 10


@pytest.mark.parametrize("physical_type", list(WIDTHS))
def test_fast_rounding_rounds_to_nearest_ties_to_even(physical_type: Type) -> None:
    """'Fast Rounding (informative)': (value + magic) - magic for value >= 0, (value - magic)
    + magic below, in the value's own precision; magic 2^23 for FLOAT, 2^52 for DOUBLE."""
    kind = KINDS[physical_type]
    assert kind.magic == {Type.FLOAT: 8_388_608, Type.DOUBLE: 4_503_599_627_370_496}[physical_type]
    scaled = np.array([2.5, 3.5, -2.5, 1.4999, -7.6, 15000.0], dtype=kind.float_dtype)
    assert _fast_round(scaled, kind).tolist() == [2.0, 4.0, -2.0, 1.0, -8.0, 15000.0]


@pytest.mark.parametrize(
    ("value", "reason"),
    [(math.nan, "NaN"), (math.inf, "Infinity"), (-math.inf, "Infinity"), (-0.0, "Negative zero"),
     (1e300, "Out of range"), (1 / 3, "Round-trip failure")],
)  # fmt: skip
def test_exception_detection(value: float, reason: str) -> None:
    """'Exception Detection': each condition of the table, with e=1, f=0 beside a decimal."""
    bits = np.frombuffer(_bits([0.5, value], Type.DOUBLE), dtype="<u8")
    encoded, exceptions = decimal_encode(bits, DOUBLE, exponent=1, factor=0)
    assert exceptions.tolist() == [1], reason
    assert encoded.tolist() == [5, 5]  # the placeholder: the first non-exception's integer


def test_a_vector_of_only_exceptions_uses_the_placeholder_zero() -> None:
    bits = np.frombuffer(_bits([math.nan, -0.0], Type.DOUBLE), dtype="<u8")
    encoded, exceptions = decimal_encode(bits, DOUBLE, exponent=0, factor=0)
    assert (encoded.tolist(), exceptions.tolist()) == ([0, 0], [0, 1])


def test_decimal_like_values_compress() -> None:
    values = [round(i * 0.37, 2) for i in range(2_000)]
    page = encode_alp(values, physical_type=Type.DOUBLE)
    assert len(page) < len(values) * 8 / 3
    assert decode_alp(page, len(values), physical_type=Type.DOUBLE)[0] == values


# --- Round trips -----------------------------------------------------------------------

EDGES = {
    Type.FLOAT: [0.0, -0.0, math.inf, -math.inf, FLOAT32_MIN_SUBNORMAL, -FLOAT32_MIN_SUBNORMAL,
                 *nan_payloads(32)],
    Type.DOUBLE: [0.0, -0.0, math.inf, -math.inf, DOUBLE_MIN_SUBNORMAL, -DOUBLE_MIN_SUBNORMAL, 1e300,
                  *nan_payloads(64)],
}  # fmt: skip


@st.composite
def _values(draw: st.DrawFn, physical_type: Type) -> list[float]:
    """A mix of decimal-like values, edge values (NaN payloads, -0.0, infinities,
    subnormals) and arbitrary bit patterns (mostly not decimal-like: exceptions)."""
    width = WIDTHS[physical_type]
    decimals = st.builds(lambda n, d: n / 10**d, st.integers(-(10**6), 10**6), st.integers(0, 4))
    raw = st.binary(min_size=width, max_size=width).map(lambda b: decode_plain(physical_type, b, 1)[0][0])
    one = st.one_of(decimals, st.sampled_from(EDGES[physical_type]), raw)
    values = draw(st.lists(one, max_size=80))
    # A FLOAT holds only values with an exact binary32 form.
    return decode_plain(physical_type, _narrowed(values, physical_type), len(values))[0]


def _narrowed(values: list[float], physical_type: Type) -> bytes:
    if physical_type == Type.DOUBLE:
        return encode_plain(Type.DOUBLE, values)
    exact = [v if math.isnan(v) or math.isinf(v) else float(np.float32(v)) for v in values]
    return encode_plain(Type.FLOAT, exact)


@pytest.mark.parametrize("physical_type", list(WIDTHS))
@given(data=st.data(), log_vector_size=st.integers(3, 5))
@FAST
def test_round_trip_keeps_every_bit(physical_type: Type, data: st.DataObject, log_vector_size: int) -> None:
    values = data.draw(_values(physical_type))
    page = encode_alp(values, physical_type=physical_type, log_vector_size=log_vector_size)
    decoded, end = decode_alp(b"xx" + page, len(values), physical_type=physical_type, start=2)
    assert _bits(decoded, physical_type) == _bits(values, physical_type)
    assert end == 2 + len(page)


# --- Bad input -------------------------------------------------------------------------


def _error(page: bytes, count: int = 4, physical_type: Type = Type.DOUBLE) -> ParquetError:
    with pytest.raises(ParquetError) as info:
        decode_alp(b"\0" * 5 + page, count, physical_type=physical_type, start=5, base_offset=BASE - 5)
    return info.value


def _vector(exponent=4, factor=3, exceptions=1, reference=3335, width=15) -> bytes:
    return (bytes([exponent, factor]) + exceptions.to_bytes(2, "little") + reference.to_bytes(8, "little")
            + bytes([width]))


def _with_vector_header(vector_header: bytes) -> bytes:
    return WORKED_PAGE[: HEADER_SIZE + 4] + vector_header + WORKED_VECTOR[len(vector_header):]


VECTOR_AT = BASE + HEADER_SIZE + 4  # the file offset of the worked page's vector


@pytest.mark.parametrize(
    ("page", "error_class", "message", "offset"),
    [
        (WORKED_PAGE[:5], CorruptPage, "the header need", BASE),
        (_header(4, mode=1) + WORKED_PAGE[7:], UnsupportedFeature, "compression_mode 1 is reserved", BASE),
        (_header(4, integer_encoding=1) + WORKED_PAGE[7:], CorruptPage, "integer_encoding is 1", BASE + 1),
        (_header(4, 2) + WORKED_PAGE[7:], CorruptPage, r"log_vector_size is 2, .* \[3, 15\]", BASE + 2),
        (_header(4, 16) + WORKED_PAGE[7:], CorruptPage, "log_vector_size is 16", BASE + 2),
        (_header(5) + WORKED_PAGE[7:], CorruptPage, "num_elements is 5, but the page has 4", BASE + 3),
        (WORKED_PAGE[:9], CorruptPage, "the offset array of 1 vector", BASE + 7),
        (_header(4) + (36).to_bytes(4, "little") + WORKED_VECTOR, CorruptPage,
         r"offset 0 is 36, outside the vector data \[4, 35\]", BASE + 7),
        (_header(4) + (5).to_bytes(4, "little") + WORKED_VECTOR + b"\0", CorruptPage,
         "offset 0 is 5, but vector 0 starts at 4", BASE + 7),
        (WORKED_PAGE[:VECTOR_AT - BASE + 3], CorruptPage, "AlpInfo need", VECTOR_AT),
        (_with_vector_header(_vector(exponent=19, factor=0)), CorruptPage,
         r"exponent 19 is outside \[0, 18\]", VECTOR_AT),
        (_with_vector_header(_vector(exponent=2, factor=3)), CorruptPage,
         r"factor 3 is outside \[0, exponent = 2\]", VECTOR_AT + 1),
        (_with_vector_header(_vector(exceptions=5)), CorruptPage,
         "num_exceptions is 5, but the vector has 4 values", VECTOR_AT + 2),
        (_with_vector_header(_vector(width=65)), CorruptPage, r"bit_width 65 is outside \[0, 64\]",
         VECTOR_AT + 12),
        (WORKED_PAGE[:-12], CorruptPage, "PackedValues .* need", VECTOR_AT + 13),
        (WORKED_PAGE[:-10] + (4).to_bytes(2, "little") + NAN_DOUBLE, CorruptPage,
         "exception position 4 is outside the vector's 4 values", VECTOR_AT + 21),
        (WORKED_PAGE[:-1], CorruptPage, "ExceptionValues need", VECTOR_AT + 23),
    ],
)  # fmt: skip
def test_bad_input_is_a_documented_error_at_its_offset(page, error_class, message, offset) -> None:
    error = _error(page)
    assert type(error) is error_class
    assert re.search(message, error.message), error.message
    assert error.offset == offset


def test_a_float_bit_width_beyond_32_is_corrupt() -> None:
    vector = bytes([0, 0, 0, 0]) + (0).to_bytes(4, "little") + bytes([33])
    error = _error(_header(1) + (4).to_bytes(4, "little") + vector + b"\0" * 5, 1, Type.FLOAT)
    assert isinstance(error, CorruptPage) and "bit_width 33 is outside [0, 32]" in error.message
    assert error.offset == BASE + HEADER_SIZE + 4 + 8


def test_a_float_exponent_beyond_10_is_corrupt() -> None:
    vector = bytes([11, 0, 0, 0]) + (0).to_bytes(4, "little") + bytes([0])
    error = _error(_header(1) + (4).to_bytes(4, "little") + vector, 1, Type.FLOAT)
    assert "exponent 11 is outside [0, 10]" in error.message and error.offset == BASE + HEADER_SIZE + 4


def test_every_proper_prefix_is_refused() -> None:
    for size in range(len(WORKED_PAGE)):
        error = _error(WORKED_PAGE[:size])
        assert isinstance(error, CorruptPage) and BASE <= error.offset <= BASE + size


@given(data=st.data())
@budget(100)
def test_corrupted_pages_decode_or_raise_a_documented_error(data: st.DataObject) -> None:
    """Random bytes changed in a valid multi-vector page: values of the requested count or a
    ParquetError, never another exception."""
    values = [i / 8 for i in range(30)] + [math.nan, -0.0, 1 / 3]
    page = bytearray(encode_alp(values, physical_type=Type.DOUBLE, log_vector_size=3))
    for _ in range(data.draw(st.integers(1, 4))):
        page[data.draw(st.integers(0, len(page) - 1))] = data.draw(st.integers(0, 255))
    try:
        decoded, _ = decode_alp(bytes(page), len(values), physical_type=Type.DOUBLE)
    except ParquetError as error:
        assert error.offset is not None and 0 <= error.offset <= len(page)
    else:
        assert len(decoded) == len(values)
