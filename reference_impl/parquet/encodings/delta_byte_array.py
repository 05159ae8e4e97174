"""DELTA_BYTE_ARRAY (= 7): front compression, each value as (prefix length, suffix).

Encodings.md, "Delta Strings:
(DELTA_BYTE_ARRAY = 7)". Supported types: BYTE_ARRAY, FIXED_LEN_BYTE_ARRAY.
The grammar::

    delta-byte-array := <prefix lengths> <suffixes>
    prefix lengths   := DELTA_BINARY_PACKED of the lengths of the prefix
                        each value shares with the previous value
    suffixes         := DELTA_LENGTH_BYTE_ARRAY of the rest of each value

so that ``value[i] = value[i - 1][:prefix length[i]] + suffix[i]`` (the value
before the first is empty). The spec's example: "axis", "axle", "babble",
"babyhood" become ``DeltaEncoding(0, 2, 0, 3)``, ``DeltaEncoding(4, 2, 6, 5)``
and ``"axislebabbleyhood"``. "Note that, even for FIXED_LEN_BYTE_ARRAY, all
lengths are encoded despite the redundancy."

:class:`CorruptPage` when a prefix length is negative or longer than the
previous value (offset: the start of the prefix lengths, whose bit-packed
values have no byte of their own), when the two streams are broken, or, for
FIXED_LEN_BYTE_ARRAY, when a rebuilt value is not ``type_length`` bytes long
(offset: that value's suffix).

A page that repeats one long value many times is legitimately much larger
decoded than encoded (prefix = the whole previous value, empty suffix); such
values share one ``bytes`` object rather than being copied.
"""

from __future__ import annotations

from collections.abc import Sequence

from reference_impl.parquet.encodings._cursor import Cursor, errors_prefixed
from reference_impl.parquet.encodings.delta_binary_packed import (
    DEFAULT_BLOCK_SIZE,
    DEFAULT_MINIBLOCKS_PER_BLOCK,
    decode_delta_binary_packed,
    encode_delta_binary_packed,
)
from reference_impl.parquet.encodings.delta_length_byte_array import (
    decode_delta_length_byte_array,
    encode_delta_length_byte_array,
)
from reference_impl.parquet.errors import CorruptPage

__all__ = ["decode_delta_byte_array", "encode_delta_byte_array"]

ENCODING = "DELTA_BYTE_ARRAY"
LENGTH_BITS = 32  # prefix lengths are delta encoded as INT32


def encode_delta_byte_array(
    values: Sequence[bytes],
    *,
    type_length: int | None = None,
    block_size: int = DEFAULT_BLOCK_SIZE,
    miniblocks_per_block: int = DEFAULT_MINIBLOCKS_PER_BLOCK,
    allow_example_sizes: bool = False,
) -> bytes:
    """Encode byte arrays (or, with ``type_length``, FIXED_LEN_BYTE_ARRAY values).

    Each prefix is the longest one shared with the previous value.
    """
    if type_length is not None:
        for index, value in enumerate(values):
            if len(value) != type_length:
                raise ValueError(f"value {index} has {len(value)} bytes, expected {type_length}")
    prefix_lengths = []
    suffixes = []
    previous = b""
    for value in values:
        value = bytes(value)
        shared = _common_prefix_length(previous, value)
        prefix_lengths.append(shared)
        suffixes.append(value[shared:])
        previous = value
    prefix_lengths_part = encode_delta_binary_packed(
        prefix_lengths, bits=LENGTH_BITS, block_size=block_size,
        miniblocks_per_block=miniblocks_per_block, allow_example_sizes=allow_example_sizes,
    )
    suffixes_part = encode_delta_length_byte_array(
        suffixes, block_size=block_size, miniblocks_per_block=miniblocks_per_block,
        allow_example_sizes=allow_example_sizes,
    )
    return prefix_lengths_part + suffixes_part


def _common_prefix_length(previous: bytes, value: bytes) -> int:
    shared = 0
    for left, right in zip(previous, value, strict=False):
        if left != right:
            break
        shared += 1
    return shared


def decode_delta_byte_array(
    data: bytes | bytearray | memoryview,
    count: int,
    *,
    type_length: int | None = None,
    start: int = 0,
    end: int | None = None,
    base_offset: int = 0,
    allow_example_sizes: bool = False,
) -> tuple[list[bytes], int]:
    """Decode ``count`` values from ``data[start:end]``; with ``type_length``, check
    each is that long (FIXED_LEN_BYTE_ARRAY). Returns the values and the position
    just after the suffix bytes."""
    cursor = Cursor(data, start, end, base_offset=base_offset, error=CorruptPage, encoding=ENCODING)
    if type_length is not None and type_length < 1:
        raise cursor.fail(f"FIXED_LEN_BYTE_ARRAY needs a positive type_length, got {type_length}")
    with errors_prefixed(f"{ENCODING} prefix lengths"):
        prefix_lengths, suffixes_start = decode_delta_binary_packed(
            data, count, bits=LENGTH_BITS, start=start, end=end, base_offset=base_offset,
            allow_example_sizes=allow_example_sizes,
        )
    with errors_prefixed(f"{ENCODING} suffixes"):
        suffixes, suffixes_end = decode_delta_length_byte_array(
            data, count, start=suffixes_start, end=end, base_offset=base_offset,
            allow_example_sizes=allow_example_sizes,
        )
    values: list[bytes] = []
    previous = b""
    for index, (shared, suffix) in enumerate(zip(prefix_lengths.tolist(), suffixes, strict=True)):
        if not 0 <= shared <= len(previous):
            raise cursor.fail(
                f"value {index} has prefix length {shared}, expected 0 to {len(previous)} "
                f"(the length of the previous value)",
                start,
            )
        # previous[:len(previous)] + b"" is `previous` itself: repeats are not copied.
        value = previous[:shared] + suffix
        if type_length is not None and len(value) != type_length:
            raise cursor.fail(
                f"value {index} has {len(value)} bytes, FIXED_LEN_BYTE_ARRAY({type_length}) expected",
                _suffix_position(suffixes, index, suffixes_end),
            )
        values.append(value)
        previous = value
    return values, suffixes_end


def _suffix_position(suffixes: list[bytes], index: int, suffixes_end: int) -> int:
    """Where suffix ``index`` starts: the suffix bytes are back to back and end at ``suffixes_end``."""
    return suffixes_end - sum(len(suffix) for suffix in suffixes[index:])
