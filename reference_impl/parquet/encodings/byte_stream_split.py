"""BYTE_STREAM_SPLIT (= 9): byte k of every value goes to stream k.

Encodings.md, "Byte Stream Split:
(BYTE_STREAM_SPLIT = 9)". The seed copy lists FLOAT and DOUBLE; the current
spec (parquet-format 2.11, Encodings.md) adds INT32, INT64 and
FIXED_LEN_BYTE_ARRAY, with K the type's width (``type_length`` for
FIXED_LEN_BYTE_ARRAY). The grammar, for N values of K bytes each::

    byte-stream-split := <stream 0> <stream 1> ... <stream K-1>
    stream k          := byte k of value 0, byte k of value 1, ..., byte k of value N-1

"The total length of encoded streams is K * N bytes. Because it does not have
any metadata to indicate the total length, the end of the streams is also the
end of data page. No padding is allowed inside the data page." So the decoder
reads the whole range ``data[start:end]``: a length that is not a multiple of
K, or that holds a different number of values than expected, is
:class:`CorruptPage`.

The spec's example: floats with raw bytes ``AA BB CC DD``, ``00 11 22 33``,
``A3 B4 C5 D6`` become ``AA 00 A3 BB 11 B4 CC 22 C5 DD 33 D6``.

Viewed as a K x N byte matrix this is a transpose, which numpy does in one step
each way. The bytes of a numeric value are its PLAIN bytes, so values are those
of ``plain``: Python ``int`` and ``float``, a FLOAT with every bit kept (NaN
payloads and signalling NaNs included); FIXED_LEN_BYTE_ARRAY values are
``bytes``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

import numpy as np

from reference_impl.parquet.encodings._cursor import Cursor
from reference_impl.parquet.encodings.plain import NUMERIC_DTYPES, Values, numeric_array, numeric_column
from reference_impl.parquet.errors import CorruptPage
from reference_impl.parquet.metadata.parquet_thrift import Type

__all__ = ["decode_byte_stream_split", "encode_byte_stream_split"]

ENCODING = "BYTE_STREAM_SPLIT"


def encode_byte_stream_split(
    values: Sequence[object] | np.ndarray, *, physical_type: Type, type_length: int | None = None
) -> bytes:
    """Encode FLOAT, DOUBLE, INT32, INT64 or FIXED_LEN_BYTE_ARRAY(``type_length``) values."""
    width = _value_width(physical_type, type_length, ValueError)
    if physical_type in NUMERIC_DTYPES:
        rows = np.ascontiguousarray(numeric_array(physical_type, values)).view(np.uint8)
    else:
        fixed = cast(Sequence[bytes], values)  # FIXED_LEN_BYTE_ARRAY values are bytes
        for index, value in enumerate(fixed):
            if len(value) != width:
                raise ValueError(f"value {index} has {len(value)} bytes, expected {width}")
        rows = np.frombuffer(b"".join(bytes(value) for value in fixed), dtype=np.uint8)
    # Row i holds the bytes of value i; its transpose, row by row, is the streams.
    return rows.reshape(-1, width).T.tobytes()


def decode_byte_stream_split(
    data: bytes | bytearray | memoryview,
    count: int,
    *,
    physical_type: Type,
    type_length: int | None = None,
    start: int = 0,
    end: int | None = None,
    base_offset: int = 0,
) -> tuple[Values, int]:
    """Decode ``count`` values from the whole of ``data[start:end]``; returns them and ``end``.

    Numbers come as an array (``plain.Values``: its ``tolist()`` is the Python values),
    FIXED_LEN_BYTE_ARRAY values as a list of ``bytes``."""
    cursor = Cursor(data, start, end, base_offset=base_offset, error=CorruptPage, encoding=ENCODING)
    cursor.check_count(count)
    width = _value_width(physical_type, type_length, cursor.fail)
    size = cursor.remaining()
    if size % width:
        raise cursor.fail(
            f"the data is {size} byte(s), not a multiple of the {width}-byte value width", cursor.end
        )
    if size != count * width:
        raise cursor.fail(
            f"expected {count} values of {width} bytes ({count * width} bytes up to the end of the "
            f"page), found {size} bytes",
            cursor.end,
        )
    streams = np.frombuffer(cursor.take(size, f"{count} values"), dtype=np.uint8).reshape(width, count)
    rows = np.ascontiguousarray(streams.T)  # row i: the bytes of value i again
    if physical_type in NUMERIC_DTYPES:
        numbers = rows.view(NUMERIC_DTYPES[physical_type]).reshape(count)
        return numeric_column(physical_type, numbers), cursor.position
    flat = rows.tobytes()
    fixed: list[object] = [flat[at : at + width] for at in range(0, len(flat), width)]
    return fixed, cursor.position


def _value_width(physical_type: Type, type_length: int | None, error: Callable[[str], Exception]) -> int:
    """K, the number of streams: the byte width of one value."""
    if physical_type in NUMERIC_DTYPES:
        return NUMERIC_DTYPES[physical_type].itemsize
    if physical_type == Type.FIXED_LEN_BYTE_ARRAY:
        if type_length is None or type_length < 1:
            raise error(f"FIXED_LEN_BYTE_ARRAY needs a positive type_length, got {type_length}")
        return type_length
    name = Type(physical_type).name if physical_type in list(Type) else physical_type
    raise error(f"{ENCODING} is not defined for physical type {name}")
