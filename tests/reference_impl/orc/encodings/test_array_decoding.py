"""The readers' numpy forms against the specification's steps, bit for bit.

ORCv1.md, 'Run Length Encoding': bit_packing.unpack and IntRleV2Reader(stepwise=True)
take the text's steps one value at a time in Python ints (the test oracle); the readers
use unpack_array and the array form of IntRleV2Reader, Boolean RLE unpacks bits with
numpy, and DECIMAL's varints of at most 9 bytes are read as arrays. Each pair must give
the same values, or the same error at the same offset, on valid streams and on any bytes.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reference_impl.orc.columns.column_streams import ByteCursor
from reference_impl.orc.columns.decimal_columns import short_varints
from reference_impl.orc.encodings.bit_packing import FIXED_WIDTHS, pack, packed_size, unpack, unpack_array
from reference_impl.orc.encodings.boolean_rle import BooleanRleReader
from reference_impl.orc.encodings.byte_rle import decode_bytes, encode_bytes
from reference_impl.orc.encodings.int_rle_v2 import IntRleV2Reader, SubEncoding, encode_ints_v2
from reference_impl.orc.errors import OrcError
from reference_impl.orc.metadata.proto_enums import StreamKind
from reference_impl.orc.streams.stripe import StreamBytes
from reference_impl.orc.varint import write_svarint

INT64 = st.integers(-(1 << 63), (1 << 63) - 1)
UINT64 = st.integers(0, (1 << 64) - 1)
EXAMPLES = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def outcome(read):  # type: ignore[no-untyped-def]
    """What ``read()`` gives: its values as Python ints, or its error's class, text and offset."""
    try:
        return read()
    except OrcError as error:
        return type(error), error.message, error.offset


@EXAMPLES
@given(width=st.sampled_from(FIXED_WIDTHS), data=st.data())
def test_unpack_array_is_unpack(width: int, data: st.DataObject) -> None:
    values = data.draw(st.lists(st.integers(0, (1 << width) - 1), max_size=40))
    packed = data.draw(st.binary(max_size=3)) + pack(values, width)
    pos, end = len(packed) - packed_size(width, len(values)), len(packed)
    # Bytes after the values: none (the last values' 8-byte windows are padded), a few, or
    # enough that every window lies in the data (read where it lies).
    packed += data.draw(st.binary(max_size=10))
    words, array_end = unpack_array(packed, pos, width, len(values))
    assert (words.tolist(), array_end) == unpack(packed, pos, width, len(values)) == (values, end)


@EXAMPLES
@given(width=st.sampled_from(FIXED_WIDTHS), count=st.integers(0, 40), packed=st.binary(max_size=60))
def test_unpack_array_is_unpack_on_any_bytes(width: int, count: int, packed: bytes) -> None:
    assert (outcome(lambda: (unpack_array(packed, 0, width, count)[0].tolist(),))
            == outcome(lambda: (unpack(packed, 0, width, count)[0],)))


def _both_forms(encoded: bytes, signed: bool, chunks: list[int]) -> tuple[object, object]:
    """The stepwise and the array reader's outcomes, reading ``chunks`` values at a time."""
    def read(stepwise: bool) -> object:
        reader = IntRleV2Reader(encoded, signed=signed, stepwise=stepwise)
        return outcome(lambda: [reader.read(chunk).tolist() for chunk in chunks])
    return read(True), read(False)


@EXAMPLES
@given(signed=st.booleans(), force=st.sampled_from([None, *SubEncoding]), data=st.data())
def test_rle_v2_array_form_is_the_stepwise_form(signed: bool, force: SubEncoding | None,
                                                  data: st.DataObject) -> None:
    values = data.draw(st.lists(INT64 if signed else UINT64, max_size=700)
                       | st.lists(st.sampled_from([0, 1, 7, -3 if signed else 3, 1 << 40]), max_size=700))
    try:
        encoded = encode_ints_v2(values, signed=signed, force=force)
    except ValueError:  # these values have no runs of that sub-encoding
        encoded = encode_ints_v2(values, signed=signed)
    chunks = data.draw(st.lists(st.integers(1, 60), max_size=20))
    kept = []
    for chunk in chunks:
        kept.append(min(chunk, len(values) - sum(kept)))
    kept.append(len(values) - sum(kept))
    stepwise, array = _both_forms(encoded, signed, kept)
    assert stepwise == array
    assert [value for chunk in array for value in chunk] == values  # type: ignore[union-attr]


@EXAMPLES
@given(signed=st.booleans(), encoded=st.binary(max_size=80), chunks=st.lists(st.integers(0, 30), max_size=6))
def test_rle_v2_array_form_is_the_stepwise_form_on_any_bytes(signed: bool, encoded: bytes,
                                                             chunks: list[int]) -> None:
    stepwise, array = _both_forms(encoded, signed, chunks)
    assert stepwise == array


@EXAMPLES
@given(signed=st.booleans(),
       runs=st.lists(st.tuples(st.integers(0, 7), st.integers(0, 7), st.binary(min_size=8, max_size=8)),
                     min_size=40, max_size=120),  # 2 jumps of 16 runs and more
       tail=st.binary(max_size=12), chunks=st.lists(st.integers(0, 400), max_size=6))
def test_long_chains_of_short_repeat_runs_read_alike(signed: bool, runs: list[tuple[int, int, bytes]],
                                                     tail: bytes, chunks: list[int]) -> None:
    """More consecutive Short Repeat runs (built byte by byte: a header of value bytes - 1
    and count - 3, then the value) than one jump of the array form's header scan takes,
    then any bytes: a run of another sub-encoding, a cut-off value, or nothing."""
    encoded = b"".join(bytes([size << 3 | count]) + value[:size + 1] for size, count, value in runs)
    total = sum(count + 3 for _, count, _ in runs)
    kept = []
    for chunk in chunks:
        kept.append(min(chunk, total - sum(kept)))
    stepwise, array = _both_forms(encoded + tail, signed, [*kept, total - sum(kept), len(tail)])
    assert stepwise == array
    stepwise, array = _both_forms(encoded, signed, [*kept, total - sum(kept)])
    assert stepwise == array and not isinstance(array, tuple)  # every value read, no error


@pytest.mark.parametrize(("signed", "encoded"), [
    # Delta: base INT64_MAX, then +1: the words would wrap to INT64_MIN.
    (True, bytes([0xC0, 0x01]) + write_svarint((1 << 63) - 1) + write_svarint(1)),
    # Patched Base of 2 values of 8 bits, an 8-byte base 2^62, one 56-bit patch 2^54 (gap 0):
    # the first value is 2^62 + (2^54 << 8), past INT64_MAX.
    (True, bytes([0x80 | 7 << 1, 0x01, 7 << 5 | 30, 0x01]) + (1 << 62).to_bytes(8, "big") + bytes(2)
     + (1 << 54).to_bytes(8, "big")),
])
def test_a_run_leaving_the_64_bit_range_is_an_error_in_both_forms(signed: bool, encoded: bytes) -> None:
    stepwise, array = _both_forms(encoded, signed, [2])
    assert stepwise == array
    assert isinstance(array, tuple) and "outside the signed 64-bit range" in array[1]


def test_a_patched_base_run_near_the_64_bit_limit_reads_alike() -> None:
    """Its base 2^62 plus 64 bits (8 packed, a 56-bit patch) could pass INT64_MAX, so the
    array form looks for the run's extremes; they fit, and both forms read it."""
    encoded = (bytes([0x80 | 7 << 1, 0x01, 7 << 5 | 30, 0x01]) + (1 << 62).to_bytes(8, "big")
               + bytes([5, 6]) + (1).to_bytes(8, "big"))  # gap 0, patch 1: the first value gains 2^8
    stepwise, array = _both_forms(encoded, True, [2])
    assert stepwise == array == [[(1 << 62) + (1 << 8) + 5, (1 << 62) + 6]]


@EXAMPLES
@given(values=st.lists(st.integers(0, 255), max_size=300), chunks=st.lists(st.integers(0, 50), max_size=8))
def test_boolean_rle_bits_are_the_bytes_most_significant_first(values: list[int], chunks: list[int]) -> None:
    encoded = encode_bytes(values)
    bits = [bool(byte >> shift & 1) for byte in values for shift in range(7, -1, -1)]
    reader = BooleanRleReader(encoded)
    read, start = [], 0
    for chunk in chunks:
        chunk = min(chunk, len(bits) - start)
        read.append(reader.read(chunk).tolist())
        assert read[-1] == bits[start:start + chunk]
        start += chunk
    assert decode_bytes(encoded, len(values)) == values


def _cursor(data: bytes) -> ByteCursor:
    return ByteCursor(StreamBytes(1, StreamKind.DATA, 0, data, False), "column 1")


@EXAMPLES
@given(values=st.lists(st.integers(-(1 << 70), 1 << 70), max_size=50), tail=st.binary(max_size=3))
def test_short_varints_are_the_varints_one_by_one(values: list[int], tail: bytes) -> None:
    data = b"".join(write_svarint(value) for value in values) + tail
    fast, stepwise = _cursor(data), _cursor(data)
    words = short_varints(fast, len(values))
    assert [stepwise.svarint() for _ in values] == values
    assert words.tolist() == values[:len(words)]
    assert fast.position == sum(len(write_svarint(value)) for value in values[:len(words)])
    if len(words) < len(values):  # they stop at a varint longer than 9 bytes
        assert len(write_svarint(values[len(words)])) > 9


def test_short_varints_leave_a_cut_stream_to_the_steps() -> None:
    cursor = _cursor(write_svarint(5) + bytes([0x80]))
    assert short_varints(cursor, 2).tolist() == [5] and cursor.position == 1
