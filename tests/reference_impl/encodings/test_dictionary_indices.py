"""RLE_DICTIONARY (= 8) / PLAIN_DICTIONARY (= 2) data pages: round trips and bad input.

Encodings.md, "Dictionary Encoding (PLAIN_DICTIONARY = 2 and RLE_DICTIONARY = 8)".
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.parquet.encodings.dictionary_indices import (
    decode_dictionary_indices,
    encode_dictionary_indices,
)
from reference_impl.parquet.errors import CorruptPage
from tests.reference_impl.parquet_helpers import budget

FAST = budget(60)


@given(st.integers(1, 2**32).flatmap(lambda size: st.tuples(st.just(size), st.data())))
@FAST
def test_round_trip(size_and_data) -> None:
    dictionary_size, data = size_and_data
    index = st.integers(0, dictionary_size - 1)
    runs = st.one_of(
        st.lists(index, max_size=20), st.tuples(index, st.integers(1, 50)).map(lambda r: [r[0]] * r[1])
    )
    indices = [value for run in data.draw(st.lists(runs, max_size=6)) for value in run]
    encoded = encode_dictionary_indices(indices)
    decoded, end = decode_dictionary_indices(encoded + b"\x00", len(indices), dictionary_size=dictionary_size)
    assert decoded.tolist() == indices
    assert end == len(encoded)


def test_minimal_bit_width_then_runs() -> None:
    assert encode_dictionary_indices([0, 0, 0]) == bytes([0, 0b11])  # width 0: a bit-packed group, no bytes
    assert encode_dictionary_indices([5] * 10) == bytes([3]) + b"\x14\x05"  # width 3, RLE run of 10
    assert encode_dictionary_indices([1, 0, 1]) == bytes([1, 0b11, 0b101])  # width 1, one bit-packed group
    assert encode_dictionary_indices([2**32 - 1])[0] == 32
    # Arrow and parquet-java size the width from the dictionary; that can be asked for.
    assert encode_dictionary_indices([1, 0, 1], bit_width=4) == bytes([4, 0b11, 0x01, 0x01, 0, 0])
    with pytest.raises(ValueError, match="bit width must be in \\[2, 32\\]"):
        encode_dictionary_indices([3], bit_width=1)


def test_index_beyond_the_dictionary_in_an_rle_run() -> None:
    # width byte, RLE run of 10 zeros, RLE run of 3 sevens (the 7 at position 5).
    data = bytes([3, 10 << 1, 0, 3 << 1, 7])
    with pytest.raises(CorruptPage, match="value 10 is dictionary index 7, .*dictionary size 7") as info:
        decode_dictionary_indices(data, 13, dictionary_size=7, base_offset=200)
    assert info.value.offset == 200 + 4


def test_index_beyond_the_dictionary_in_a_bit_packed_run() -> None:
    # Width 4, two bit-packed groups: values 0..15, the 9 starts in byte 4 of the run data.
    data = encode_dictionary_indices(list(range(16)))
    assert data[:2] == bytes([4, 2 << 1 | 1])
    with pytest.raises(CorruptPage, match="value 9 is dictionary index 9") as info:
        decode_dictionary_indices(data, 16, dictionary_size=9, base_offset=200)
    assert info.value.offset == 200 + 2 + 4  # value 9 is bits 36..39 of the run's data


def test_bad_bit_width_and_runs_are_corrupt_page() -> None:
    with pytest.raises(CorruptPage, match="bit width 33, the maximum is 32") as info:
        decode_dictionary_indices(bytes([33, 2, 0]), 1, dictionary_size=1, base_offset=9)
    assert info.value.offset == 9
    with pytest.raises(CorruptPage, match="^RLE_DICTIONARY: RLE hybrid: expected 5 values"):
        decode_dictionary_indices(bytes([1, 3 << 1, 1]), 5, dictionary_size=2)
    with pytest.raises(CorruptPage, match="the bit-width byte need"):
        decode_dictionary_indices(b"", 1, dictionary_size=2)
    with pytest.raises(CorruptPage, match="non-negative value count"):
        decode_dictionary_indices(b"\x01", -1, dictionary_size=2)


def test_a_page_without_values_may_be_empty() -> None:
    assert decode_dictionary_indices(b"", 0, dictionary_size=0)[0].tolist() == []
    assert decode_dictionary_indices(b"\x05", 0, dictionary_size=0)[1] == 1
