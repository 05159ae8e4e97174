"""Truncated and corrupted input, for every decoder of the package (docs/architecture.md, 'Bad input').

Every proper prefix of a valid encoding must be refused with the decoder's
error class (CorruptPage for values, InvalidLevelData for levels) and an offset
inside the bytes it was given; random corruption of valid encodings must end
either in values of the requested count or in such an error, never in another
exception or a hang.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.parquet.encodings.bit_packed import decode_bit_packed, encode_bit_packed
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
from reference_impl.parquet.encodings.dictionary_indices import (
    decode_dictionary_indices,
    encode_dictionary_indices,
)
from reference_impl.parquet.encodings.rle_boolean import decode_rle_boolean, encode_rle_boolean
from reference_impl.parquet.errors import CorruptPage, InvalidLevelData, ParquetError
from reference_impl.parquet.metadata.parquet_thrift import Type
from tests.reference_impl.parquet_helpers import budget

FAST = budget(100)
BASE = 1_000  # a file offset for the data, so that offsets are checked to include it

rng = np.random.default_rng(20240601)
INTS = [int(v) for v in rng.integers(-(2**40), 2**40, size=200)] + [2**63 - 1, -(2**63), 0] * 3
SMALL_INTS = [int(v) for v in rng.integers(-(2**20), 2**20, size=150)]
STRINGS = [bytes(rng.integers(97, 100, size=int(n), dtype=np.uint8)) for n in rng.integers(0, 9, size=150)]
FIXED = sorted(bytes(rng.integers(0, 3, size=4, dtype=np.uint8)) for _ in range(60))
LEVELS = [int(v) for v in rng.integers(0, 6, size=90)]
INDICES = [0] * 20 + [int(v) for v in rng.integers(0, 300, size=77)] + [299] * 11
BOOLEANS = [True] * 30 + [bool(v) for v in rng.integers(0, 2, size=50)] + [False] * 9


@dataclass(frozen=True)
class Case:
    name: str
    encoded: bytes
    count: int
    decode: Callable[..., tuple[object, int]]  # (data, count, base_offset=...) -> (values, end)
    error: type[ParquetError]

    def __repr__(self) -> str:
        return self.name


CASES = [
    Case(
        "DELTA_BINARY_PACKED INT64",
        encode_delta_binary_packed(INTS, bits=64),
        len(INTS),
        lambda data, count, **kw: decode_delta_binary_packed(data, count, bits=64, **kw),
        CorruptPage,
    ),
    Case(
        "DELTA_BINARY_PACKED INT32",
        encode_delta_binary_packed(SMALL_INTS, bits=32, block_size=256, miniblocks_per_block=8),
        len(SMALL_INTS),
        lambda data, count, **kw: decode_delta_binary_packed(data, count, bits=32, **kw),
        CorruptPage,
    ),
    Case(
        "DELTA_LENGTH_BYTE_ARRAY",
        encode_delta_length_byte_array(STRINGS),
        len(STRINGS),
        decode_delta_length_byte_array,
        CorruptPage,
    ),
    Case(
        "DELTA_BYTE_ARRAY",
        encode_delta_byte_array(STRINGS),
        len(STRINGS),
        decode_delta_byte_array,
        CorruptPage,
    ),
    Case(
        "DELTA_BYTE_ARRAY FIXED_LEN_BYTE_ARRAY(4)",
        encode_delta_byte_array(FIXED, type_length=4),
        len(FIXED),
        lambda data, count, **kw: decode_delta_byte_array(data, count, type_length=4, **kw),
        CorruptPage,
    ),
    Case(
        "BYTE_STREAM_SPLIT DOUBLE",
        encode_byte_stream_split([float(v) for v in INTS[:20]], physical_type=Type.DOUBLE),
        20,
        lambda data, count, **kw: decode_byte_stream_split(data, count, physical_type=Type.DOUBLE, **kw),
        CorruptPage,
    ),
    Case(
        "BYTE_STREAM_SPLIT FIXED_LEN_BYTE_ARRAY(4)",
        encode_byte_stream_split(FIXED[:10], physical_type=Type.FIXED_LEN_BYTE_ARRAY, type_length=4),
        10,
        lambda data, count, **kw: decode_byte_stream_split(
            data, count, physical_type=Type.FIXED_LEN_BYTE_ARRAY, type_length=4, **kw
        ),
        CorruptPage,
    ),
    Case(
        "RLE_DICTIONARY",
        encode_dictionary_indices(INDICES),
        len(INDICES),
        lambda data, count, **kw: decode_dictionary_indices(data, count, dictionary_size=300, **kw),
        CorruptPage,
    ),
    Case("RLE BOOLEAN", encode_rle_boolean(BOOLEANS), len(BOOLEANS), decode_rle_boolean, CorruptPage),
    Case(
        "BIT_PACKED levels",
        encode_bit_packed(LEVELS, bit_width=3),
        len(LEVELS),
        lambda data, count, **kw: decode_bit_packed(data, count, bit_width=3, **kw),
        InvalidLevelData,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_the_valid_encoding_decodes(case: Case) -> None:
    values, end = case.decode(case.encoded, case.count, base_offset=BASE)
    assert len(values) == case.count
    assert end == len(case.encoded)


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_every_truncation_is_refused_with_an_offset(case: Case) -> None:
    for cut in range(len(case.encoded)):
        with pytest.raises(case.error) as info:
            case.decode(case.encoded[:cut], case.count, base_offset=BASE)
        assert info.type is case.error, f"cut at {cut}: {info.value!r}"
        assert BASE <= info.value.offset <= BASE + cut, f"cut at {cut}: {info.value!r}"


@pytest.mark.parametrize("case", CASES, ids=repr)
def test_a_negative_count_is_refused(case: Case) -> None:
    with pytest.raises(case.error, match="non-negative"):
        case.decode(case.encoded, -1, base_offset=BASE)


@given(
    case=st.sampled_from(CASES),
    edits=st.lists(st.tuples(st.floats(0, 1, exclude_max=True), st.integers(0, 255)), min_size=1, max_size=4),
    count_change=st.sampled_from([0, 0, 0, -1, 1, 1000]),
)
@FAST
def test_corrupted_encodings_decode_or_raise_parquet_errors(
    case: Case, edits: list[tuple[float, int]], count_change: int
) -> None:
    data = bytearray(case.encoded)
    for where, byte in edits:
        data[int(where * len(data))] = byte
    count = max(case.count + count_change, 0)
    try:
        values, end = case.decode(bytes(data), count, base_offset=BASE)
    except ParquetError as error:
        assert isinstance(error, case.error)
        assert error.offset is not None and BASE <= error.offset <= BASE + len(data)
    else:
        assert len(values) == count
        assert end <= len(data)
