"""FLOAT values keep every bit: signalling NaNs, NaN payloads and NaN signs.

Encodings.md, 'Plain: (PLAIN = 0)' ("FLOAT: 4 bytes IEEE little endian") and
'Byte Stream Split: (BYTE_STREAM_SPLIT = 9)'. A FLOAT is read as the double of
the same value; a NaN's mantissa becomes the top 23 bits of the double's
(docs/canonical-values.md). The hardware float -> double conversion would set
the quiet bit instead, so 0x7f800001 and 0x7fc00001 would read as one value.
"""

from __future__ import annotations

import io
import struct

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from reference_impl.common.ieee_float import narrow_float_bits
from reference_impl.parquet.encodings.byte_stream_split import (
    decode_byte_stream_split,
    encode_byte_stream_split,
)
from reference_impl.parquet.encodings.dictionary import decode_dictionary_page, lookup
from reference_impl.parquet.encodings.plain import decode_plain, encode_plain
from reference_impl.parquet.metadata.parquet_thrift import Encoding, FieldRepetitionType, Type
from reference_impl.parquet.reader import read_parquet
from reference_impl.parquet.schema.flat import ColumnSpec
from reference_impl.parquet.writer import write_parquet
from reference_impl.parquet.writer_options import WriterOptions

FLOAT_WIDTH = 4
# FLOAT bit pattern -> the bits of the double it reads as (sign, exponent all ones,
# the 23 mantissa bits shifted up by 52 - 23 = 29).
NANS = {
    0x7F800001: 0x7FF0000020000000,  # signalling, smallest payload
    0xFF800001: 0xFFF0000020000000,  # the same, negative
    0x7FC00001: 0x7FF8000020000000,  # quiet, with a payload
    0x7FFFFFFF: 0x7FFFFFFFE0000000,  # quiet, every mantissa bit set
}
PATTERNS = list(NANS)
PLAIN_BYTES = b"".join(struct.pack("<I", pattern) for pattern in PATTERNS)
# BYTE_STREAM_SPLIT: stream k is byte k of every value.
SPLIT_BYTES = b"".join(PLAIN_BYTES[k::FLOAT_WIDTH] for k in range(FLOAT_WIDTH))


def double_bits(value: object) -> int:
    assert isinstance(value, float)
    return struct.unpack("<Q", struct.pack("<d", value))[0]


def assert_exact(values: list[object]) -> None:
    assert [double_bits(value) for value in values] == list(NANS.values())


def test_plain_page_reads_every_nan_bit() -> None:
    values, end = decode_plain(Type.FLOAT, PLAIN_BYTES, len(PATTERNS))
    assert_exact(values)
    assert end == len(PLAIN_BYTES)


def test_byte_stream_split_page_reads_every_nan_bit() -> None:
    values, end = decode_byte_stream_split(SPLIT_BYTES, len(PATTERNS), physical_type=Type.FLOAT)
    assert_exact(values)
    assert end == len(SPLIT_BYTES)


def test_dictionary_entries_keep_every_nan_bit() -> None:
    dictionary = decode_dictionary_page(
        Type.FLOAT, PLAIN_BYTES, len(PATTERNS), Encoding.PLAIN,
        type_length=None, start=0, end=len(PLAIN_BYTES),
    )
    assert_exact(dictionary)
    # RLE/bit-packed indices 3, 0: bit width 2, then one bit-packed group of 8 ((1 << 1) | 1).
    indices = bytes([2, 0b11, 0b0011, 0])
    assert [double_bits(v) for v in lookup(dictionary, indices, 2, start=0, end=len(indices))] == [
        NANS[PATTERNS[3]],
        NANS[PATTERNS[0]],
    ]


def test_encoders_store_the_exact_four_bytes() -> None:
    values, _ = decode_plain(Type.FLOAT, PLAIN_BYTES, len(PATTERNS))
    assert encode_plain(Type.FLOAT, values) == PLAIN_BYTES
    assert encode_byte_stream_split(values, physical_type=Type.FLOAT) == SPLIT_BYTES


@pytest.mark.parametrize(
    "encoding", [Encoding.PLAIN, Encoding.BYTE_STREAM_SPLIT, Encoding.RLE_DICTIONARY], ids=lambda e: e.name
)
def test_a_written_file_holds_the_exact_bits(encoding: Encoding) -> None:
    values, _ = decode_plain(Type.FLOAT, PLAIN_BYTES, len(PATTERNS))
    sink = io.BytesIO()
    column = ColumnSpec("f", Type.FLOAT, FieldRepetitionType.REQUIRED)
    write_parquet(sink, [column], {"f": values}, options=WriterOptions(encoding=encoding))
    file = sink.getvalue()
    stored = {Encoding.BYTE_STREAM_SPLIT: SPLIT_BYTES}.get(encoding, PLAIN_BYTES)  # dictionary page: PLAIN
    assert stored in file
    assert_exact(read_parquet(file).data["f"])
    # pyarrow, another reader, sees the same bits.
    column_read = pq.read_table(io.BytesIO(file)).column("f").combine_chunks()
    assert column_read.view(pa.uint32()).to_pylist() == PATTERNS


@pytest.mark.parametrize(
    "double",
    [0x7FF0000000000001, 0x7FF8000010000000, 0xFFF0000000000001],
    ids=["payload-only-in-low-bits", "quiet-with-a-low-bit", "negative-signalling-low-bits"],
)
def test_a_nan_whose_payload_does_not_fit_is_refused(double: int) -> None:
    (value,) = struct.unpack("<d", struct.pack("<Q", double))
    with pytest.raises(ValueError, match=f"0x{double:016X}.*no exact FLOAT form"):
        encode_plain(Type.FLOAT, [1.0, value])
    with pytest.raises(ValueError, match="value 0: .*no exact FLOAT form"):
        encode_byte_stream_split([value], physical_type=Type.FLOAT)


@pytest.mark.parametrize("value", [0.1, 1e39], ids=["rounds", "overflows"])
def test_a_float_without_an_exact_float_form_is_refused(value: float) -> None:
    with pytest.raises(ValueError, match="no exact FLOAT form"):
        narrow_float_bits([value], 32)
