"""DELTA_LENGTH_BYTE_ARRAY (= 6): all the lengths first, then all the bytes.

Encodings.md, "Delta-length byte array:
(DELTA_LENGTH_BYTE_ARRAY = 6)". Supported types: BYTE_ARRAY. The grammar::

    delta-length-byte-array := <Delta Encoded Lengths> <Byte Array Data>

"we will take all the byte array lengths and encode them using delta encoding
(DELTA_BINARY_PACKED). The byte array data follows all of the length data just
concatenated back to back." The spec's example: "Hello", "World", "Foobar",
"ABCDEF" become ``DeltaEncoding(5, 5, 6, 6)`` followed by
``"HelloWorldFoobarABCDEF"``.

The lengths are INT32 values (a BYTE_ARRAY length is at most 2**31 - 1, as in
PLAIN's 4-byte length); a negative length is :class:`CorruptPage`, and so are
lengths that add up to more bytes than remain. The total is checked before any
value is sliced out.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from reference_impl.parquet.encodings._cursor import Cursor, errors_prefixed
from reference_impl.parquet.encodings.delta_binary_packed import (
    DEFAULT_BLOCK_SIZE,
    DEFAULT_MINIBLOCKS_PER_BLOCK,
    decode_delta_binary_packed,
    encode_delta_binary_packed,
)
from reference_impl.parquet.errors import CorruptPage

__all__ = ["decode_delta_length_byte_array", "encode_delta_length_byte_array"]

ENCODING = "DELTA_LENGTH_BYTE_ARRAY"
LENGTH_BITS = 32  # lengths are delta encoded as INT32


def encode_delta_length_byte_array(
    values: Sequence[bytes],
    *,
    block_size: int = DEFAULT_BLOCK_SIZE,
    miniblocks_per_block: int = DEFAULT_MINIBLOCKS_PER_BLOCK,
    allow_example_sizes: bool = False,
) -> bytes:
    """The lengths as DELTA_BINARY_PACKED (with the given block parameters), then the bytes."""
    lengths = [len(value) for value in values]
    encoded_lengths = encode_delta_binary_packed(
        lengths,
        bits=LENGTH_BITS,
        block_size=block_size,
        miniblocks_per_block=miniblocks_per_block,
        allow_example_sizes=allow_example_sizes,
    )
    return encoded_lengths + b"".join(bytes(value) for value in values)


def decode_delta_length_byte_array(
    data: bytes | bytearray | memoryview,
    count: int,
    *,
    start: int = 0,
    end: int | None = None,
    base_offset: int = 0,
    allow_example_sizes: bool = False,
) -> tuple[list[bytes], int]:
    """Decode ``count`` byte arrays from ``data[start:end]``.

    Returns the values and the position just after the last value's bytes.
    """
    with errors_prefixed(f"{ENCODING} lengths"):
        lengths, data_start = decode_delta_binary_packed(
            data,
            count,
            bits=LENGTH_BITS,
            start=start,
            end=end,
            base_offset=base_offset,
            allow_example_sizes=allow_example_sizes,
        )
    cursor = Cursor(data, data_start, end, base_offset=base_offset, error=CorruptPage, encoding=ENCODING)
    negative = np.flatnonzero(lengths < 0)
    if len(negative):
        index = int(negative[0])
        raise cursor.fail(f"value {index} has negative length {lengths[index]}", start)
    # int64 cannot overflow here: at most 2**31 lengths of at most 2**31 - 1 each.
    total = int(lengths.sum(dtype=np.int64))
    body = cursor.take(total, f"the {count} values (lengths adding up to {total})")
    ends = np.cumsum(lengths, dtype=np.int64).tolist()
    starts = [0, *ends][:-1]  # each value starts where the previous one ends
    values = [bytes(body[value_start:value_end]) for value_start, value_end in zip(starts, ends, strict=True)]
    return values, cursor.position
