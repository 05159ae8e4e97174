"""RLE (= 3) for BOOLEAN values: the 4-byte length, then the hybrid at bit width 1.

Encodings.md, "Run Length Encoding / Bit-Packing Hybrid (RLE = 3)":
"Boolean values in data pages, as an alternative to PLAIN encoding".
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.parquet.encodings.rle_boolean import decode_rle_boolean, encode_rle_boolean
from reference_impl.parquet.errors import CorruptPage
from tests.reference_impl.parquet_helpers import budget

FAST = budget(60)


@given(
    st.lists(
        st.one_of(
            st.lists(st.booleans(), max_size=20),
            st.tuples(st.booleans(), st.integers(1, 300)).map(lambda r: [r[0]] * r[1]),
        ),
        max_size=6,
    )
)
@FAST
def test_round_trip(pieces: list[list[bool]]) -> None:
    values = [value for piece in pieces for value in piece]
    encoded = encode_rle_boolean(values)
    decoded, end = decode_rle_boolean(encoded + b"\xff", len(values))
    assert decoded.dtype == bool
    assert decoded.tolist() == values
    assert end == len(encoded)


def test_layout() -> None:
    encoded = encode_rle_boolean([True] * 100)
    assert encoded == bytes(
        [
            3, 0, 0, 0,  # length of the encoded data, 4 bytes little endian
            200, 1,  # RLE run header: varint(100 << 1)
            1,  # the repeated value, true, in one byte
        ]
    )  # fmt: skip
    encoded = encode_rle_boolean([True, False, True])
    assert encoded == bytes([2, 0, 0, 0, 0b11, 0b101])  # one bit-packed group, LSB first


def test_malformed_runs_are_corrupt_page() -> None:
    with pytest.raises(CorruptPage, match="^RLE \\(BOOLEAN\\): RLE hybrid: length prefix claims 9") as info:
        decode_rle_boolean(bytes([9, 0, 0, 0, 200, 1, 1]), 100, base_offset=30)
    assert info.value.offset == 30
    with pytest.raises(CorruptPage, match="does not fit in 1 bit"):
        decode_rle_boolean(bytes([3, 0, 0, 0, 200, 1, 2]), 100)  # width 1, yet the value is 2
    with pytest.raises(CorruptPage, match="non-negative"):
        decode_rle_boolean(b"", -2)
