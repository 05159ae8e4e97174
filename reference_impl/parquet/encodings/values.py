"""The values section of a data page: which encoding applies to which type, and dispatch.

parquet-format-docs.txt, '3.7.2 - Encodings', names the types each encoding
supports; the current spec (parquet-format 2.11, Encodings.md) extends
BYTE_STREAM_SPLIT to INT32, INT64 and FIXED_LEN_BYTE_ARRAY:

========================  ===============================================
encoding                  physical types
========================  ===============================================
PLAIN                     all
RLE                       BOOLEAN ("Boolean values in data pages")
DELTA_BINARY_PACKED       INT32, INT64
DELTA_LENGTH_BYTE_ARRAY   BYTE_ARRAY
DELTA_BYTE_ARRAY          BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY
BYTE_STREAM_SPLIT         FLOAT, DOUBLE, INT32, INT64, FIXED_LEN_BYTE_ARRAY
========================  ===============================================

Dictionary indices (PLAIN_DICTIONARY, RLE_DICTIONARY) need the chunk's
dictionary and are handled by ``dictionary``; BIT_PACKED is for levels only.

:func:`decode_values` returns Python values whatever the decoder returns
(numpy arrays become lists of ``int``, ``float``, ``bool``), the same values
PLAIN gives, so the rest of the reader never sees an encoding.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from reference_impl.parquet.encodings.byte_stream_split import (
    decode_byte_stream_split,
    encode_byte_stream_split,
)
from reference_impl.parquet.encodings.delta_binary_packed import (
    decode_delta_binary_packed,
    encode_delta_binary_packed,
)
from reference_impl.parquet.encodings.delta_byte_array import decode_delta_byte_array, encode_delta_byte_array
from reference_impl.parquet.encodings.delta_length_byte_array import (
    decode_delta_length_byte_array,
    encode_delta_length_byte_array,
)
from reference_impl.parquet.encodings.plain import decode_plain, encode_plain
from reference_impl.parquet.encodings.rle_boolean import decode_rle_boolean, encode_rle_boolean
from reference_impl.parquet.errors import CorruptPage, UnsupportedFeature
from reference_impl.parquet.metadata.parquet_thrift import Encoding, Type

__all__ = ["APPLIES_TO", "check_value_encoding", "decode_values", "encode_values"]

ALL_TYPES = frozenset(Type)
APPLIES_TO: dict[Encoding, frozenset[Type]] = {
    Encoding.PLAIN: ALL_TYPES,
    Encoding.RLE: frozenset({Type.BOOLEAN}),
    Encoding.DELTA_BINARY_PACKED: frozenset({Type.INT32, Type.INT64}),
    Encoding.DELTA_LENGTH_BYTE_ARRAY: frozenset({Type.BYTE_ARRAY}),
    Encoding.DELTA_BYTE_ARRAY: frozenset({Type.BYTE_ARRAY, Type.FIXED_LEN_BYTE_ARRAY}),
    Encoding.BYTE_STREAM_SPLIT: frozenset(
        {Type.FLOAT, Type.DOUBLE, Type.INT32, Type.INT64, Type.FIXED_LEN_BYTE_ARRAY}
    ),
}
INT_BITS = {Type.INT32: 32, Type.INT64: 64}


def _name(value: object) -> str:
    return getattr(value, "name", str(value))


def check_value_encoding(encoding: Encoding | int, physical_type: Type) -> str | None:
    """Why ``encoding`` cannot hold values of ``physical_type``, or None if it can."""
    if encoding not in APPLIES_TO:
        return f"{_name(encoding)} is not a value encoding of this module"
    if physical_type not in APPLIES_TO[encoding]:
        allowed = ", ".join(sorted(t.name for t in APPLIES_TO[encoding]))
        return f"{_name(encoding)} applies to {allowed}, not {physical_type.name}"
    return None


def encode_values(
    encoding: Encoding, physical_type: Type, values: Sequence[object], type_length: int | None = None
) -> bytes:
    """The non-null ``values`` of one page in ``encoding``."""
    problem = check_value_encoding(encoding, physical_type)
    if problem:
        raise ValueError(problem)
    if encoding == Encoding.PLAIN:
        return encode_plain(physical_type, values, type_length)
    if encoding == Encoding.RLE:
        return encode_rle_boolean(values)
    if encoding == Encoding.DELTA_BINARY_PACKED:
        return encode_delta_binary_packed(values, bits=INT_BITS[physical_type])
    if encoding == Encoding.DELTA_LENGTH_BYTE_ARRAY:
        return encode_delta_length_byte_array(values)
    if encoding == Encoding.DELTA_BYTE_ARRAY:
        length = type_length if physical_type == Type.FIXED_LEN_BYTE_ARRAY else None
        return encode_delta_byte_array(values, type_length=length)
    return encode_byte_stream_split(values, physical_type=physical_type, type_length=type_length)


def decode_values(
    encoding: Encoding | int,
    physical_type: Type,
    data: bytes | memoryview,
    count: int,
    *,
    type_length: int | None,
    start: int,
    end: int,
    base_offset: int = 0,
) -> list[object]:
    """Decode the ``count`` non-null values of a page from ``data[start:end]``.

    An encoding number this implementation does not know is
    :class:`UnsupportedFeature`; a known encoding on a type it does not apply
    to (or BIT_PACKED, which is for levels only) is :class:`CorruptPage`.
    """
    if encoding not in APPLIES_TO:
        if isinstance(encoding, Encoding):
            raise CorruptPage(
                f"encoding {encoding.name} cannot encode values in a data page", base_offset + start
            )
        raise UnsupportedFeature(f"encoding {encoding}", base_offset + start)
    problem = check_value_encoding(encoding, physical_type)
    if problem:
        raise CorruptPage(f"the page's encoding: {problem}", base_offset + start)
    where = {"start": start, "end": end, "base_offset": base_offset}
    if encoding == Encoding.PLAIN:
        values, _ = decode_plain(physical_type, data, count, type_length=type_length, **where)
        return values
    if encoding == Encoding.RLE:
        decoded, _ = decode_rle_boolean(data, count, **where)
    elif encoding == Encoding.DELTA_BINARY_PACKED:
        decoded, _ = decode_delta_binary_packed(data, count, bits=INT_BITS[physical_type], **where)
    elif encoding == Encoding.DELTA_LENGTH_BYTE_ARRAY:
        decoded, _ = decode_delta_length_byte_array(data, count, **where)
    elif encoding == Encoding.DELTA_BYTE_ARRAY:
        length = type_length if physical_type == Type.FIXED_LEN_BYTE_ARRAY else None
        decoded, _ = decode_delta_byte_array(data, count, type_length=length, **where)
    else:
        decoded, _ = decode_byte_stream_split(
            data, count, physical_type=physical_type, type_length=type_length, **where
        )
    return decoded.tolist() if isinstance(decoded, np.ndarray) else list(decoded)
