"""PLAIN encoding: values stored back to back.

Encodings.md, 'Plain: (PLAIN = 0)':

    BOOLEAN: Bit Packed, LSB first
    INT32: 4 bytes little endian
    INT64: 8 bytes little endian
    INT96: 12 bytes little endian (deprecated)
    FLOAT: 4 bytes IEEE little endian
    DOUBLE: 8 bytes IEEE little endian
    BYTE_ARRAY: length in 4 bytes little endian followed by the bytes contained in the array
    FIXED_LEN_BYTE_ARRAY: the bytes contained in the array

Values are the physical values of the reference implementation: ``bool``;
``int`` for INT32/INT64; ``bytes`` of length 12 for INT96 (opaque here);
``float`` for FLOAT/DOUBLE, a FLOAT being the double of the same value with
every bit kept, NaN payloads and signalling NaNs included (``ieee_float``: the
hardware float conversion would quiet them); ``bytes`` for BYTE_ARRAY and
FIXED_LEN_BYTE_ARRAY. A float with no exact FLOAT form is refused, not rounded.
Nulls never reach this module: they live only in the definition levels.

Decoding is told how many values to expect and checks, before allocating,
that the bytes can hold them; a shortfall raises :class:`CorruptPage`.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any, cast

import numpy as np

from reference_impl.common.decoded_values import DecodedValues, as_list
from reference_impl.common.ieee_float import narrow_float_bits, widen_float_array
from reference_impl.parquet.errors import CorruptPage, ParquetError
from reference_impl.parquet.metadata.parquet_thrift import Type

__all__ = [
    "NUMERIC_DTYPES",
    "Values",
    "decode_plain",
    "decode_plain_values",
    "encode_plain",
    "numeric_array",
    "numeric_column",
    "numeric_values",
]

# Decoded values: a list, or a numpy array whose ``tolist()`` is that list (fixed-width
# numbers and booleans stay arrays until a caller asks for Python values).
Values = DecodedValues

# Fixed-width numeric types and their little-endian numpy dtypes; a FLOAT is
# held as its bit pattern, so that no hardware conversion touches it.
NUMERIC_DTYPES: dict[Type, np.dtype] = {
    Type.INT32: np.dtype("<i4"),
    Type.INT64: np.dtype("<i8"),
    Type.FLOAT: np.dtype("<u4"),
    Type.DOUBLE: np.dtype("<f8"),
}
FLOAT_BITS = 32
INT96_BYTES = 12
BYTE_ARRAY_LENGTH = struct.Struct("<I")  # the 4-byte little-endian length prefix
# The physical types whose values are ``bytes``.
BYTE_TYPES = frozenset({Type.BYTE_ARRAY, Type.FIXED_LEN_BYTE_ARRAY})
BITS_PER_BYTE = 8


def encode_plain(
    physical_type: Type, values: Sequence[object], type_length: int | None = None
) -> bytes:
    """PLAIN-encode non-null ``values`` of ``physical_type``."""
    if physical_type == Type.BOOLEAN:
        # LSB first: value i is bit (i % 8) of byte (i // 8); the last byte is zero-padded.
        bits = np.fromiter(values, dtype=bool, count=len(values))
        return np.packbits(bits, bitorder="little").tobytes()
    if physical_type in NUMERIC_DTYPES:
        return numeric_array(physical_type, values).tobytes()
    if physical_type == Type.INT96:
        return b"".join(_check_width(value, INT96_BYTES) for value in values)
    if physical_type == Type.BYTE_ARRAY:
        byte_arrays = cast(Sequence[bytes], values)  # BYTE_ARRAY values are bytes
        return b"".join(BYTE_ARRAY_LENGTH.pack(len(value)) + bytes(value) for value in byte_arrays)
    if physical_type == Type.FIXED_LEN_BYTE_ARRAY:
        if type_length is None:
            raise ValueError("FIXED_LEN_BYTE_ARRAY needs a type_length")
        return b"".join(_check_width(value, type_length) for value in values)
    raise ValueError(f"no PLAIN encoding for physical type {physical_type!r}")


def numeric_array(physical_type: Type, values: Sequence[object] | np.ndarray) -> np.ndarray:
    """The little-endian array of NUMERIC_DTYPES holding numeric ``values`` exactly
    (ValueError for a float with no exact FLOAT form)."""
    dtype = NUMERIC_DTYPES[physical_type]
    if physical_type == Type.FLOAT:
        return narrow_float_bits(cast(Sequence[float], values), FLOAT_BITS).astype(dtype, copy=False)
    return np.asarray(values, dtype=dtype)


def numeric_values(physical_type: Type, array: np.ndarray) -> list[object]:
    """The Python values of an array ``numeric_array`` made."""
    return numeric_column(physical_type, array).tolist()


def numeric_column(physical_type: Type, array: np.ndarray) -> np.ndarray:
    """The array whose ``tolist()`` is :func:`numeric_values` (a FLOAT widened to doubles)."""
    if physical_type == Type.FLOAT:
        return widen_float_array(array, FLOAT_BITS)
    return array


def _check_width(value: object, width: int) -> bytes:
    if not isinstance(value, bytes | bytearray) or len(value) != width:
        raise ValueError(f"expected {width} bytes, got {value!r:.60}")
    return bytes(value)


def decode_plain(physical_type: Type, data: bytes | memoryview, count: int,
                 **where: Any) -> tuple[list[object], int]:
    """Decode ``count`` PLAIN values of ``physical_type`` from ``data[start:end]``.

    Returns the values and the position just after the last one. Raises
    ``error`` (default :class:`CorruptPage`) with the offset where the bytes
    ran out if ``data`` cannot hold ``count`` values. ``where``: the keywords of
    :func:`decode_plain_values`, which this is as Python values.
    """
    values, position = decode_plain_values(physical_type, data, count, **where)
    return as_list(values), position


def decode_plain_values(
    physical_type: Type,
    data: bytes | memoryview,
    count: int,
    *,
    type_length: int | None = None,
    start: int = 0,
    end: int | None = None,
    base_offset: int = 0,
    error: type[ParquetError] = CorruptPage,
) -> tuple[Values, int]:
    """:func:`decode_plain`, the numbers and booleans left as an array (:data:`Values`)."""
    end = len(data) if end is None else end
    reader = _Bounds(start, end, base_offset, error, physical_type)
    if count < 0:
        raise error(f"PLAIN {physical_type.name}: negative value count {count}", reader.offset())
    if physical_type == Type.BOOLEAN:
        return _decode_booleans(data, count, reader)
    if physical_type in NUMERIC_DTYPES:
        dtype = NUMERIC_DTYPES[physical_type]
        position = reader.claim(count * dtype.itemsize, f"{count} values")
        array = np.frombuffer(data, dtype=dtype, count=count, offset=position)
        return numeric_column(physical_type, array), reader.position
    if physical_type == Type.INT96:
        return _decode_fixed_width(data, count, INT96_BYTES, reader)
    if physical_type == Type.FIXED_LEN_BYTE_ARRAY:
        if type_length is None or type_length < 1:
            raise error(f"FIXED_LEN_BYTE_ARRAY needs a positive type_length, got {type_length}")
        return _decode_fixed_width(data, count, type_length, reader)
    if physical_type == Type.BYTE_ARRAY:
        return _decode_byte_arrays(data, count, reader)
    raise error(f"no PLAIN decoding for physical type {physical_type!r}", reader.offset())


class _Bounds:
    """Tracks the read position and refuses claims beyond ``end``."""

    def __init__(
        self, start: int, end: int, base_offset: int, error: type[ParquetError], physical_type: Type
    ) -> None:
        self.position = start
        self.end = end
        self.base_offset = base_offset
        self.error = error
        self.type_name = Type(physical_type).name

    def offset(self) -> int:
        return self.base_offset + self.position

    def claim(self, size: int, what: str) -> int:
        """Reserve ``size`` bytes at the current position; return where they start."""
        available = self.end - self.position
        if size > available:
            raise self.error(
                f"PLAIN {self.type_name}: {what} need {size} byte(s), only {available} remain",
                self.offset(),
            )
        start = self.position
        self.position += size
        return start


def _decode_booleans(data: bytes | memoryview, count: int, bounds: _Bounds) -> tuple[np.ndarray, int]:
    byte_count = -(-count // BITS_PER_BYTE)  # ceil(count / 8)
    position = bounds.claim(byte_count, f"{count} bit-packed booleans")
    packed = np.frombuffer(data, dtype=np.uint8, count=byte_count, offset=position)
    bits = np.unpackbits(packed, count=count, bitorder="little")
    return bits.astype(bool), bounds.position


def _decode_fixed_width(
    data: bytes | memoryview, count: int, width: int, bounds: _Bounds
) -> tuple[list[object], int]:
    position = bounds.claim(count * width, f"{count} values of {width} bytes")
    view = memoryview(data)
    values: list[object] = [
        bytes(view[at : at + width]) for at in range(position, position + count * width, width)
    ]
    return values, bounds.position


def _decode_byte_arrays(
    data: bytes | memoryview, count: int, bounds: _Bounds
) -> tuple[list[object], int]:
    # Each value has at least its 4-byte length, which bounds `count` by the data
    # before the list below is allocated.
    minimum = count * BYTE_ARRAY_LENGTH.size
    if minimum > bounds.end - bounds.position:
        raise bounds.error(
            f"PLAIN BYTE_ARRAY: {count} values need at least {minimum} byte(s) of length "
            f"prefixes, only {bounds.end - bounds.position} remain",
            bounds.offset(),
        )
    # The values are slices of a bytes object (slices of bytes are bytes). A page read in
    # place from a mapped file is a view of the whole file: only its own range is copied,
    # and positions in the loop count from that range's start (`shift`).
    shift = 0 if isinstance(data, bytes) else bounds.position
    source = data if isinstance(data, bytes) else bytes(data[bounds.position:bounds.end])
    prefix_size, read_length = BYTE_ARRAY_LENGTH.size, BYTE_ARRAY_LENGTH.unpack_from
    position, end = bounds.position - shift, bounds.end - shift
    values: list[object] = []
    # The claims of _Bounds, inline (this loop runs once per value); a claim that fails
    # is made through _Bounds, which raises its error.
    for index in range(count):
        if prefix_size > end - position:
            bounds.position = position + shift
            bounds.claim(prefix_size, f"the length of value {index}")
        (length,) = read_length(source, position)
        value_at = position + prefix_size
        if length > end - value_at:
            bounds.position = value_at + shift
            bounds.claim(length, f"value {index} (length {length})")
        position = value_at + length
        values.append(source[value_at:position])
    bounds.position = position + shift
    return values, bounds.position
