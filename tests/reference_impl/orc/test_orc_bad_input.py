"""The reference reader on corrupt files: every problem is an OrcError subclass naming
the column, stripe and absolute offset (docs/architecture.md, 'Bad input'); ORCv1.md,
'Stripes', 'Stripe Footer' and 'Column Encodings' say what the bytes must hold."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reference_impl.orc.errors import (
    CorruptMetadata,
    CorruptRle,
    CorruptStream,
    InvalidValue,
    OrcError,
)
from reference_impl.orc.metadata.file_tail import MAGIC
from reference_impl.orc.metadata.orc_proto import Footer, StripeFooter
from reference_impl.orc.metadata.proto_enums import ColumnEncodingKind, CompressionKind, StreamKind, TypeKind
from reference_impl.orc.metadata.type_tree import decimal, list_of, primitive, struct, union_of
from reference_impl.orc.reader import read_orc
from reference_impl.orc.writer import write_orc
from reference_impl.orc.writer_options import OrcWriterOptions
from tests.reference_impl.orc.orc_hand_built import DIRECT, hand_built_file
from tests.reference_impl.orc.orc_mutations import rebuilt
from tests.reference_impl.orc.orc_samples import ALL_TYPES, SAMPLE_ROWS

S = StreamKind
E = ColumnEncodingKind
STRING = primitive(TypeKind.STRING)
NEVADA_CALIFORNIA = [(S.DATA, b"NevadaCalifornia"), (S.LENGTH, bytes([0xFE, 6, 10]))]


def one_column(node, streams, encoding=DIRECT, rows=2, **options) -> bytes:  # type: ignore[no-untyped-def]
    return hand_built_file(struct({"c": node}), [(1, kind, raw) for kind, raw in streams], [DIRECT, encoding],
                           rows, **options)


GOOD = one_column(STRING, NEVADA_CALIFORNIA)


def test_the_good_file_reads() -> None:
    assert read_orc(GOOD).rows == [{"c": "Nevada"}, {"c": "California"}]


def _stripe_change(**changes: int) -> Callable[[Footer], Footer]:
    return lambda footer: dataclasses.replace(
        footer, stripes=[dataclasses.replace(footer.stripes[0], **changes)])


def _stream_lengths(delta: int) -> Callable[[StripeFooter], StripeFooter]:
    def change(footer: StripeFooter) -> StripeFooter:
        first = dataclasses.replace(footer.streams[0], length=(footer.streams[0].length or 0) + delta)
        return dataclasses.replace(footer, streams=[first, *footer.streams[1:]])
    return change


def _stream(index: int, **changes: int) -> Callable[[StripeFooter], StripeFooter]:
    def change(footer: StripeFooter) -> StripeFooter:
        streams = list(footer.streams)
        streams[index] = dataclasses.replace(streams[index], **changes)
        return dataclasses.replace(footer, streams=streams)
    return change


@pytest.mark.parametrize("corrupt, error, message", [
    (rebuilt(GOOD, footer=_stripe_change(data_length=10_000)), CorruptMetadata, "file tail"),
    (rebuilt(GOOD, footer=_stripe_change(offset=1)), CorruptMetadata, "before the end of what precedes"),
    (rebuilt(GOOD, stripe_footer=_stream_lengths(-1)), CorruptStream, "add up to"),
    (rebuilt(GOOD, stripe_footer=_stream_lengths(+1)), CorruptStream, "the stripe's data area is bytes"),
    (rebuilt(GOOD, stripe_footer=_stream(0, column=7)), CorruptStream, "the file has 2 columns"),
    (rebuilt(GOOD, stripe_footer=_stream(1, kind=S.DATA)), CorruptStream, "listed twice"),
    (rebuilt(GOOD, stripe_footer=_stream(0, kind=S.ROW_INDEX)), CorruptStream, "index area"),
    (rebuilt(GOOD, footer=lambda f: dataclasses.replace(f, number_of_rows=3)), CorruptMetadata,
     "stripes hold 2 rows"),
    (rebuilt(GOOD, footer=lambda f: dataclasses.replace(f, number_of_rows=3,
                                                         stripes=[dataclasses.replace(f.stripes[0],
                                                                                      number_of_rows=3)])),
     CorruptRle, "values short"),
    (rebuilt(GOOD, stripe_footer=lambda f: dataclasses.replace(f, columns=f.columns[:1])), CorruptMetadata,
     "1 column encodings for 2 columns"),
])
def test_corrupt_layout(corrupt: bytes, error: type[OrcError], message: str) -> None:
    with pytest.raises(error, match=message) as caught:
        read_orc(corrupt)
    assert caught.value.offset is not None and 0 <= caught.value.offset <= len(corrupt)


def test_length_past_the_data_stream() -> None:
    data = one_column(STRING, [(S.DATA, b"Nevada"), (S.LENGTH, bytes([0xFE, 6, 10]))])
    with pytest.raises(CorruptStream, match=r"column 1 \(STRING\), stripe 0, DATA stream of 6 bytes"):
        read_orc(data)


def test_dictionary_reference_past_the_dictionary() -> None:
    streams = [(S.DICTIONARY_DATA, b"ab"), (S.LENGTH, bytes([0xFE, 1, 1])), (S.DATA, bytes([0xFE, 1, 2]))]
    with pytest.raises(CorruptStream, match="row 1: dictionary reference 2; the dictionary has 2"):
        read_orc(one_column(STRING, streams, (E.DICTIONARY, 2)))


def test_not_utf8_names_column_stripe_row_and_offset() -> None:
    data = one_column(STRING, [(S.DATA, b"ok\xff"), (S.LENGTH, bytes([0xFE, 2, 1]))])
    expected = r"column 1 \(STRING\), stripe 0: row 1: the value is not UTF-8"
    with pytest.raises(InvalidValue, match=expected) as caught:
        read_orc(data)
    assert data[caught.value.offset:caught.value.offset + 3] == b"ok\xff"  # the DATA stream


def test_union_tag_beyond_its_variants() -> None:
    schema = struct({"u": union_of(primitive(TypeKind.INT), STRING)})
    data = hand_built_file(schema, [(1, S.DATA, bytes([0xFF, 0x02]))], [DIRECT] * 4, 1)
    with pytest.raises(CorruptStream, match="tag 2; the union has 2 variants"):
        read_orc(data)


def test_encoding_not_allowed_for_the_kind_or_version() -> None:
    ints = [(S.DATA, bytes([0xFE, 0x02, 0x04]))]
    with pytest.raises(CorruptMetadata, match="DIRECT_V2; a INT column of file version 0.11"):
        read_orc(one_column(primitive(TypeKind.INT), ints, E.DIRECT_V2, version=(0, 11)))
    with pytest.raises(CorruptMetadata, match="DICTIONARY"):
        read_orc(one_column(primitive(TypeKind.INT), ints, E.DICTIONARY))


def test_values_breaking_their_type() -> None:
    with pytest.raises(InvalidValue, match="outside the 16-bit range"):
        read_orc(one_column(primitive(TypeKind.SHORT), [(S.DATA, bytes([0xFF, 0x80, 0x80, 0x04]))], rows=1))
    # DATA 1 with scale -100 is 10^100: beyond DECIMAL(10, 2).
    with pytest.raises(InvalidValue, match="scale"):
        far_scale = [(S.DATA, bytes([0x02])), (S.SECONDARY, bytes([0xFF, 0xC7, 0x01]))]
        read_orc(one_column(decimal(10, 2), far_scale, rows=1))
    with pytest.raises(InvalidValue, match="digits after the point"):
        read_orc(one_column(decimal(10, 2), [(S.DATA, bytes([0x02])), (S.SECONDARY, bytes([0xFF, 0x06]))],
                            rows=1))
    # SECONDARY 0x10_00_00_00_00 >> 3 is far more than a second of nanoseconds.
    nanos = bytes([0xFF, 0x80, 0x80, 0x80, 0x80, 0x80, 0x04])
    with pytest.raises(InvalidValue, match="a second or more"):
        read_orc(one_column(primitive(TypeKind.TIMESTAMP), [(S.DATA, bytes([0xFF, 0])), (S.SECONDARY, nanos)],
                            rows=1))


def test_list_lengths_beyond_what_the_stripe_holds() -> None:
    # A list<struct<>> has no element bytes at all: a huge length must not make endless dicts.
    schema = struct({"l": list_of(struct({}))})
    huge = bytes([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F])
    data = hand_built_file(schema, [(1, S.LENGTH, huge)], [DIRECT] * 3, 1)
    with pytest.raises(CorruptStream, match="cannot hold that many"):
        read_orc(data)


REAL = write_orc(ALL_TYPES, SAMPLE_ROWS,
                 OrcWriterOptions(compression=CompressionKind.ZLIB, stripe_row_limit=2))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=st.integers(len(MAGIC), len(REAL) - 1), value=st.integers(0, 255))
def test_any_damaged_byte_is_an_orc_error_or_a_read(position: int, value: int) -> None:
    damaged = REAL[:position] + bytes([value]) + REAL[position + 1:]
    try:
        read_orc(damaged)
    except OrcError as error:
        assert error.message
