"""Compact repeated fields (reference_impl/orc/metadata/orc_proto.py, RecordSequence): the
Metadata's StripeStatistics (ORCv1.md, 'File Metadata'), a record per stripe and column,
kept as their records' bytes.

The oracle is the same message declared with plain lists (``as_lists``): the compact
decode must give the same messages, the same error (class, message, offset) and the same
lenient readings, and a bad record in the middle of the section is still refused when
the file tail is read ('File Tail'). The statistics of many stripes hold about their bytes.
"""

from __future__ import annotations

import dataclasses
import gc
import tracemalloc
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.common.leniency import reading
from reference_impl.orc.encryption.encryption_variants import stripe_keys
from reference_impl.orc.errors import CorruptProtobuf, OrcError
from reference_impl.orc.metadata.file_tail import read_file_tail, write_file_tail
from reference_impl.orc.metadata.orc_proto import (
    MESSAGES,
    PROTO_METADATA_KEY,
    ColumnStatistics,
    Footer,
    IntegerStatistics,
    Label,
    Metadata,
    PostScript,
    ProtoMessage,
    RecordSequence,
    StringStatistics,
    StripeInformation,
    StripeStatistics,
    Type,
    decode,
    encode,
    field_table,
    proto_field,
)
from reference_impl.orc.metadata.proto_enums import CompressionKind, TypeKind
from reference_impl.orc.streams.compression import compress_stream, decompress_stream

MAGIC = b"ORC"
UINT64_MAX = (1 << 64) - 1
UNKNOWN_FIELD = bytes([0x98, 0x06, 0x01])  # field 99, VARINT 1: a newer writer's field


def as_lists(cls: type[ProtoMessage]) -> type[ProtoMessage]:
    """``cls`` declared again, under its own name (errors name it), with no compact field."""
    fields = []
    for field in dataclasses.fields(cls):  # type: ignore[arg-type]
        number, proto_type, label, packed, _ = field.metadata[PROTO_METADATA_KEY]
        declared = proto_field(number, proto_type, repeated=label is Label.REPEATED, packed=packed)
        fields.append((field.name, Any, declared))
    return dataclasses.make_dataclass(cls.__name__, fields, bases=(ProtoMessage,))


LIST_METADATA = as_lists(Metadata)


def field_values(message: ProtoMessage) -> list[Any]:
    return [getattr(message, field.name) for field in dataclasses.fields(message)]  # type: ignore[arg-type]


def outcome(cls: type[ProtoMessage], data: bytes, lenient: bool) -> tuple[str, Any, Any]:
    """What decoding ``data`` gives: its fields and the breaches met, or the error."""
    with reading() as breaches:
        try:
            message = decode(cls, data, 1000, lenient=lenient)
        except CorruptProtobuf as error:
            return ("error", type(error), (error.message, error.offset))
        return ("decoded", field_values(message), list(breaches))


def test_the_compact_fields_are_the_stripe_fields():
    compact = {(cls.__name__, spec.name) for cls in MESSAGES for spec in field_table(cls).values()
               if spec.compact}
    # Not Footer.stripes: the reader walks them several times a file, and a record per
    # stripe is little beside the Metadata's per stripe and column (bench/README.md).
    assert compact == {("Metadata", "stripe_stats")}


def test_only_repeated_message_fields_can_be_compact():
    field = ("x", Any, proto_field(1, IntegerStatistics, compact=True))
    declared = dataclasses.make_dataclass("Bad", [field], bases=(ProtoMessage,))
    with pytest.raises(TypeError, match="only repeated message fields are compact"):
        field_table(declared)


# -- the compact decode against the list decode --------------------------------------

_OPTIONAL_U64 = st.none() | st.integers(0, UINT64_MAX)
COLUMNS = st.builds(ColumnStatistics, number_of_values=_OPTIONAL_U64, has_null=st.none() | st.booleans(),
                    string_statistics=st.none() | st.builds(StringStatistics, minimum=st.text(max_size=4)))
STATISTICS = st.builds(StripeStatistics, col_stats=st.lists(COLUMNS, max_size=3))
# One record each, in any order: a newer writer's fields may come between the records.
METADATA_RECORDS = st.lists(st.one_of(STATISTICS.map(lambda stats: ("stats", stats)),
                                      st.just(("unknown", None))), max_size=12)


def _metadata_bytes(records: list[tuple[str, Any]]) -> bytes:
    return b"".join(encode(Metadata(stripe_stats=[value])) if what == "stats" else UNKNOWN_FIELD
                    for what, value in records)


@given(METADATA_RECORDS)
def test_stripe_statistics_are_the_records_in_order(records):
    stats = [value for what, value in records if what == "stats"]
    decoded = decode(Metadata, _metadata_bytes(records), 1000).stripe_stats
    assert isinstance(decoded, RecordSequence if stats else list)  # an absent field: []
    assert decoded == stats and stats == decoded
    assert len(decoded) == len(stats) and list(decoded) == stats
    assert [decoded[i] for i in range(-len(stats), len(stats))] == stats + stats
    assert decoded[1::2] == stats[1::2]
    assert repr(decoded) == repr(stats)
    assert encode(Metadata(stripe_stats=decoded)) == encode(Metadata(stripe_stats=stats))
    with pytest.raises(IndexError):
        decoded[len(stats)]
    assert decoded != [*stats, StripeStatistics()]


@given(METADATA_RECORDS)
def test_metadata_decodes_as_the_list_declaration(records):
    data = _metadata_bytes(records)
    assert outcome(Metadata, data, True) == outcome(LIST_METADATA, data, True)


def _damaged(data: bytes, draw: Any) -> bytes:
    damaged = bytearray(data)
    if damaged:
        damaged[draw(st.integers(0, len(damaged) - 1))] = draw(st.integers(0, 255))
        del damaged[draw(st.integers(0, len(damaged))):]
    return bytes(damaged)


@given(METADATA_RECORDS, st.booleans(), st.data())
def test_damaged_metadata_fails_or_reads_as_the_list_declaration(records, lenient, data):
    damaged = _damaged(_metadata_bytes(records), data.draw)
    assert outcome(Metadata, damaged, lenient) == outcome(LIST_METADATA, damaged, lenient)


# -- a bad record in the middle of a section, at open ---------------------------------

STRIPE_COUNT = 9
MIDDLE = STRIPE_COUNT // 2
MARK = b"MARK"
STRIPE_BYTES = 100  # stripes a tail lists; none is read
CHUNK_SIZE = 64  # small, so a ZLIB section is several chunks


def _statistics(marked: int | None = None) -> Metadata:
    def column(number: int) -> ColumnStatistics:
        minimum = MARK.decode() if number == marked else "a"
        return ColumnStatistics(number_of_values=number, string_statistics=StringStatistics(minimum=minimum))

    stripes = range(STRIPE_COUNT)
    return Metadata(stripe_stats=[StripeStatistics(col_stats=[column(number)]) for number in stripes])


def _stripe(number: int) -> StripeInformation:
    return StripeInformation(offset=len(MAGIC) + STRIPE_BYTES * number, data_length=STRIPE_BYTES,
                             number_of_rows=1)


def _stripes(count: int) -> Footer:
    return Footer(header_length=len(MAGIC), number_of_rows=count, types=[Type(kind=TypeKind.STRUCT)],
                  stripes=[_stripe(number) for number in range(count)])


def _file(metadata: bytes, footer: bytes, kind: CompressionKind) -> bytes:
    """An ORC file of only a tail: ``metadata`` and ``footer`` are the sections' bytes before
    compression."""
    stored_metadata, stored_footer = (compress_stream(section, kind, CHUNK_SIZE)
                                      for section in (metadata, footer))
    postscript = encode(PostScript(footer_length=len(stored_footer), compression=kind,
                                   compression_block_size=CHUNK_SIZE, version=[0, 12],
                                   metadata_length=len(stored_metadata), magic="ORC"))
    return MAGIC + stored_metadata + stored_footer + postscript + bytes([len(postscript)])


@pytest.mark.parametrize("kind", [CompressionKind.NONE, CompressionKind.ZLIB], ids=["none", "zlib"])
def test_a_bad_statistics_record_in_the_middle_is_refused_at_open(kind):
    metadata = encode(_statistics(marked=MIDDLE)).replace(MARK, b"\xff" + MARK[1:])  # not UTF-8
    data = _file(metadata, encode(_stripes(STRIPE_COUNT)), kind)
    with reading(), pytest.raises(CorruptProtobuf) as raised:
        read_file_tail(data, decompress_stream)
    utf8 = "StringStatistics.minimum (field 1): string is not UTF-8 (invalid start byte at byte 0)"
    position = metadata.index(b"\xff")
    if kind == CompressionKind.NONE:
        assert (raised.value.message, raised.value.offset) == (utf8, len(MAGIC) + position)
    else:  # an offset in the decompressed bytes names the section's start
        assert raised.value.message == (f"Metadata (decompressed from the section at offset 3): {utf8} "
                                        f"at position {position} of the decompressed bytes")
        assert raised.value.offset == len(MAGIC)


def test_a_skipped_statistics_field_is_noted_at_open_and_not_again():
    statistics = _statistics().stripe_stats
    before, after = (encode(Metadata(stripe_stats=part))
                     for part in (statistics[:MIDDLE], statistics[MIDDLE:]))
    # Metadata.stripe_stats { col_stats { number_of_values as I64 (skipped leniently),
    # string_statistics { minimum: "MARK" } } }, by hand.
    column = bytes([0x09]) + bytes(8) + bytes([0x22, 0x06, 0x0A, 0x04]) + MARK
    record = bytes([0x0A, len(column) + 2, 0x0A, len(column)]) + column
    data = _file(before + record + after, encode(_stripes(STRIPE_COUNT + 1)), CompressionKind.NONE)
    with reading() as breaches:
        tail = read_file_tail(data, decompress_stream)
    assert [(breach.rule.id, breach.offset) for breach in breaches] == [
        ("orc.protobuf.statistics-field-wire-type", len(MAGIC) + len(before) + 4)]
    assert tail.metadata is not None and len(tail.metadata.stripe_stats) == STRIPE_COUNT + 1
    middle = tail.metadata.stripe_stats[MIDDLE]  # outside any reading: noted already, not raised
    assert middle == StripeStatistics(col_stats=[ColumnStatistics(string_statistics=StringStatistics(
        minimum=MARK.decode()))])
    with reading(strict=True), pytest.raises(OrcError, match="read strictly"):
        read_file_tail(data, decompress_stream)


# -- memory -----------------------------------------------------------------------------

MANY_STRIPES = 2000
# The parsed statistics may hold the section's bytes and two 4-byte offsets a record, and
# little more.
HELD_PER_STORED_BYTE = 2


def test_the_parsed_statistics_of_many_stripes_hold_about_their_bytes():
    metadata = Metadata(stripe_stats=[
        StripeStatistics(col_stats=[ColumnStatistics(number_of_values=1024, has_null=False),
                                    ColumnStatistics(number_of_values=1024, int_statistics=IntegerStatistics(
                                        minimum=-number, maximum=number, sum=number * 1024))])
        for number in range(MANY_STRIPES)])
    postscript = PostScript(compression=CompressionKind.NONE, version=[0, 12], magic="ORC")
    # One stripe in the Footer: the Metadata is the tail's bulk (no check here compares them).
    data = MAGIC + write_file_tail(_stripes(1), metadata, postscript, compress_stream)
    read_file_tail(data, decompress_stream)  # the field tables, made once a process
    gc.collect()
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        tail = read_file_tail(data, decompress_stream)
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert tail.metadata == metadata
    assert held - before <= HELD_PER_STORED_BYTE * len(data)


def test_stripe_keys_keeps_nothing_without_encryption_variants():
    data = _file(b"", encode(_stripes(STRIPE_COUNT)), CompressionKind.NONE)
    assert stripe_keys(read_file_tail(data, decompress_stream), ()) == []

