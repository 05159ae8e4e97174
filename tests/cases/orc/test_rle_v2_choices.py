"""The RLE v2 cases pin the sub-encoding they are tagged with (ORCv1.md, 'Integer Run
Length Encoding, version 2'): the reference's encoder and the C++ writers (pyarrow, pyorc)
choose it for the data cases, and the reference writes it, losslessly, when forced."""

from __future__ import annotations

import io

import pyarrow as pa
import pyarrow.orc
import pyorc
import pytest

from conformance.cases import Case
from conformance.cases.orc import encodings
from reference_impl.orc.encodings.int_rle_v2 import (
    SubEncoding,
    decode_ints_v2,
    encode_ints_v2,
    sub_encodings,
)
from reference_impl.orc.metadata.file_tail import read_file_tail
from reference_impl.orc.metadata.proto_enums import StreamKind
from reference_impl.orc.streams.stripe import read_stripe

RLE_V2_TAG = "rle_v2:"
VALUE_COLUMN = 1  # column 0 is the root struct
FORCED = ":forced"


def _tagged(case: Case) -> str:
    (tag,) = [t for t in case.extra_features if t.startswith(RLE_V2_TAG)]
    return tag.removeprefix(RLE_V2_TAG)


def _values(case: Case) -> list[int]:
    return [row[0] for row in case.rows]


RLE_V2_CASES = [c for c in encodings.cases() if any(t.startswith(RLE_V2_TAG) for t in c.extra_features)]
DATA_CASES = [c for c in RLE_V2_CASES if c.orc_options.rle_v2_sub_encoding is None]
FORCED_CASES = [c for c in RLE_V2_CASES if c.orc_options.rle_v2_sub_encoding is not None]


def _runs(data: bytes, count: int) -> set[str]:
    return {run.name for run in sub_encodings(data, count, signed=True)}


@pytest.mark.parametrize("case", DATA_CASES, ids=lambda c: c.id)
def test_the_reference_chooses_the_tagged_sub_encoding(case):
    values = _values(case)
    assert _runs(encode_ints_v2(values, signed=True), len(values)) == {_tagged(case)}


@pytest.mark.parametrize("case", FORCED_CASES, ids=lambda c: c.id)
def test_a_forced_sub_encoding_is_written_and_differs_from_the_writers_choice(case):
    values, forced = _values(case), case.orc_options.rle_v2_sub_encoding
    assert forced == _tagged(case) and f"{RLE_V2_TAG}{forced}{FORCED}" in case.features
    data = encode_ints_v2(values, signed=True, force=SubEncoding[forced])
    assert _runs(data, len(values)) == {forced}
    assert decode_ints_v2(data, len(values), signed=True) == values
    natural = encode_ints_v2(values, signed=True)
    assert _runs(natural, len(values)) != {forced}  # encodings.FORCED_DATA: writers choose otherwise


def _pyorc(values: list[int]) -> bytes:
    sink = io.BytesIO()
    with pyorc.Writer(sink, "struct<value:bigint>", compression=pyorc.CompressionKind.NONE) as writer:
        writer.writerows((v,) for v in values)
    return sink.getvalue()


def _pyarrow(values: list[int]) -> bytes:
    sink = io.BytesIO()
    pyarrow.orc.write_table(pa.table({"value": pa.array(values, pa.int64())}), sink,
                            compression="UNCOMPRESSED")
    return sink.getvalue()


def _data_stream(file: bytes) -> bytes:
    """The DATA stream of the value column of an uncompressed, one-stripe file."""
    tail = read_file_tail(file, lambda data, kind, block_size, offset: bytes(data))
    (stripe,) = tail.footer.stripes
    streams = read_stripe(file, stripe, 0, len(tail.footer.types), tail.metadata_offset,
                          lambda data, offset: bytes(data), compressed=False)
    return streams.stream(VALUE_COLUMN, StreamKind.DATA).data


@pytest.mark.parametrize("write", [_pyorc, _pyarrow], ids=["pyorc", "pyarrow"])
@pytest.mark.parametrize("case", DATA_CASES, ids=lambda c: c.id)
def test_real_writers_choose_the_tagged_sub_encoding(case, write):
    values = _values(case)
    assert _runs(_data_stream(write(values)), len(values)) == {_tagged(case)}
