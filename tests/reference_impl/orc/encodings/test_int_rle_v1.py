"""ORCv1.md, 'Integer Run Length Encoding, version 1': the spec's examples, round trips
over the 64-bit ranges, positioned reading and corrupt input."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.common.leniency import reading
from reference_impl.orc.encodings.int_rle_v1 import (
    WRAPPING_RUN,
    IntRleV1Reader,
    decode_ints_v1,
    encode_ints_v1,
)
from reference_impl.orc.errors import CorruptRle

INT64 = st.integers(-(1 << 63), (1 << 63) - 1)
UINT64 = st.integers(0, (1 << 64) - 1)


@pytest.mark.parametrize(("values", "fields"), [
    # "100 instances of 7": 100 - 3, a delta of 0, a varint of 7
    ([7] * 100, [100 - 3, 0x00, 7]),
    # "running from 100 to 1": 100 - 3, a delta of -1 (0xff), a varint of 100
    (list(range(100, 0, -1)), [100 - 3, 0xFF, 100]),
    # "[2, 3, 6, 7, 11]": -5 (0xfb), then five varints
    ([2, 3, 6, 7, 11], [0x100 - 5, 2, 3, 6, 7, 11]),
])
def test_spec_examples(values: list[int], fields: list[int]) -> None:
    encoded = bytes(fields)
    assert decode_ints_v1(encoded, len(values), signed=False) == values
    assert encode_ints_v1(values, signed=False) == encoded


def test_signed_values_are_zigzag_varints() -> None:
    assert encode_ints_v1([-1, 1, -2], signed=True) == bytes([0xFD, 1, 2, 3])
    assert decode_ints_v1(bytes([0xFD, 1, 2, 3]), 3, signed=True) == [-1, 1, -2]


def test_a_run_after_a_literal() -> None:
    encoded = encode_ints_v1([5, 1, 1, 1], signed=False)
    assert encoded == bytes([0xFF, 5, 0x00, 0x00, 1])


@given(st.lists(INT64 | st.integers(-3, 3), max_size=400))
def test_signed_round_trip(values: list[int]) -> None:
    assert decode_ints_v1(encode_ints_v1(values, signed=True), len(values), signed=True) == values


@given(st.lists(UINT64 | st.integers(0, 5), max_size=400))
def test_unsigned_round_trip(values: list[int]) -> None:
    assert decode_ints_v1(encode_ints_v1(values, signed=False), len(values), signed=False) == values


def test_skip_and_start() -> None:
    values = [1, 2, 3, 4, 5, 10, 20]
    encoded = encode_ints_v1(values, signed=False)
    reader = IntRleV1Reader(encoded, signed=False)
    reader.skip(4)
    assert reader.read(3).tolist() == [5, 10, 20]
    assert reader.exhausted
    assert IntRleV1Reader(encoded, start=3, signed=False).read(2).tolist() == [10, 20]


@pytest.mark.parametrize(("data", "where"), [
    (bytes([0x00]), 1),  # a run without its delta
    (bytes([0x00, 0x01, 0x80]), 2),  # its base varint cut off
    (bytes([0xFE, 0x01]), 2),  # a literal list one varint short
    (bytes([0x00, 0x7F] + [0xFF] * 9 + [0x01]), 0),  # a run past 2**64 - 1
])
def test_corrupt(data: bytes, where: int) -> None:
    with pytest.raises(CorruptRle) as caught:
        decode_ints_v1(data, 3, signed=False, base_offset=500)
    assert caught.value.offset == 500 + where


def test_encode_rejects_values_outside_64_bits() -> None:
    with pytest.raises(ValueError, match="unsigned 64-bit"):
        encode_ints_v1([-1], signed=False)
    with pytest.raises(ValueError, match="signed 64-bit"):
        encode_ints_v1([1 << 63], signed=True)


def test_a_run_that_wraps_is_read_as_orc_writers_write_it() -> None:
    """INT64_MIN, INT64_MAX, INT64_MAX - 1 as ORC Java writes them: a run of 3 (control 0),
    delta -1 (0xff), base INT64_MIN (zigzag 2^64 - 1: nine 0xff bytes and 0x01). Its second
    value is INT64_MIN - 1 in exact arithmetic, INT64_MAX in 64-bit words."""
    run = bytes([0x00, 0xFF] + [0xFF] * 9 + [0x01])
    with reading() as breaches:
        wrapped = decode_ints_v1(run, 3, signed=True, base_offset=500)
    assert wrapped == [-(1 << 63), (1 << 63) - 1, (1 << 63) - 2]
    assert [(b.rule, b.offset) for b in breaches] == [(WRAPPING_RUN, 500)]  # the run's first byte
    with pytest.raises(CorruptRle, match="orc.rle-v1.wrapping-run"):
        decode_ints_v1(run, 3, signed=True)
