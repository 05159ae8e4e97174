"""An honest verdict for every ORC file (issue 26, item 2): each fault class of the mutation
campaign, built here by mutating a file the reference writer or pyorc wrote during the
test, is a documented error naming the stripe, column, stream and byte offset, or a
named lenient rule with its single reading; the valid files that were refused are read.

ORCv1.md, 'Stripes', 'Stripe Footer', 'Column Encodings', 'Footer', 'File Metadata',
'Row Group Index', 'Timestamp Columns'; docs/orc-spec-notes.md, notes 7 and 12.
"""

from __future__ import annotations

import calendar
import dataclasses
import datetime
import decimal
import io
import re
from pathlib import Path
from zoneinfo import ZoneInfo

import pyarrow as pa
import pyorc
import pytest

from conformance.engines.orc.pyorc_engine import OrcTimestamp, _converters
from reference_impl.common.leniency import RULES, reading
from reference_impl.orc.errors import (
    CorruptMetadata,
    CorruptProtobuf,
    CorruptRle,
    CorruptStream,
)
from reference_impl.orc.metadata.file_tail import read_file_tail
from reference_impl.orc.metadata.orc_proto import (
    ColumnEncoding,
    Encryption,
    EncryptionVariant,
    Footer,
    encode,
)
from reference_impl.orc.metadata.proto_enums import StreamKind, TypeKind
from reference_impl.orc.metadata.type_tree import decimal as decimal_type
from reference_impl.orc.metadata.type_tree import primitive, struct
from reference_impl.orc.reader import ROOT_FIELD, read_orc
from reference_impl.orc.writer import write_orc
from reference_impl.orc.writer_options import OrcWriterOptions
from tests.reference_impl.orc.orc_file_streams import pyarrow_orc, pyorc_file
from tests.reference_impl.orc.orc_hand_built import stored
from tests.reference_impl.orc.orc_mutations import boundary_moved, rebuilt, rows_changed, stream_changed

S = StreamKind
K = TypeKind
NANOS = 10**9
HEADER = 3  # the stripe starts after "ORC"
# One INT column, [1, null, 2, 3]: PRESENT (bytes 3-4) then DATA (bytes 5-8).
INTS = write_orc(struct({"a": primitive(K.INT)}), [{"a": 1}, {"a": None}, {"a": 2}, {"a": 3}])
INT_ROWS = [{"a": 1}, {"a": None}, {"a": 2}, {"a": 3}]
PRESENT_AT, DATA_AT = 3, 5


def test_the_unmutated_file_reads() -> None:
    assert read_orc(INTS).rows == INT_ROWS


# -- a. timestamps beyond Python's datetime, and before the zone's first transition ------

LOS_ANGELES = "America/Los_Angeles"
PST, PDT = -8 * 3600, -7 * 3600  # the zone's first rule (from 1883) and its summer time
GREGORIAN_CYCLE = 146097 * 86400  # 400 years of seconds


def _wall_seconds(year: int, month: int, day: int, cycles: int = 0) -> int:
    """Seconds since 1970 of a wall-clock midnight, ``cycles`` 400-year cycles on."""
    return calendar.timegm(datetime.datetime(year, month, day).timetuple()) + cycles * GREGORIAN_CYCLE


@pytest.mark.parametrize("wall, offset", [
    (_wall_seconds(1647, 6, 1), PST),  # before the first transition: PST, not LMT (-07:52:58)
    (_wall_seconds(2000, 7, 1, cycles=25), PDT),  # year 12000: the last rule, summer time
    (_wall_seconds(2000, 1, 1, cycles=25), PST),  # year 12000, winter
    (_wall_seconds(1000, 1, 1, cycles=-5), PST),  # year -1000
])
def test_timestamps_in_any_year_read_as_orc_cpp_reads_them(wall: int, offset: int) -> None:
    """pyorc (ORC C++) writes the instant; its wall clock in Los Angeles is instant + offset,
    the offset of the zone's rules (its first rule before 1883, its last after 9999)."""
    instant = wall - offset
    data = pyorc_file("struct<t:timestamp>", [(OrcTimestamp(instant, 0),)], timezone=ZoneInfo(LOS_ANGELES),
                      converters=_converters())
    assert read_orc(data).rows == [{"t": wall * NANOS}]
    written = write_orc(struct({"t": primitive(K.TIMESTAMP)}), [{"t": wall * NANOS}],
                        OrcWriterOptions(writer_timezone=LOS_ANGELES))
    (read_back,) = pyorc.Reader(io.BytesIO(written), converters=_converters(), timezone=ZoneInfo(LOS_ANGELES))
    assert read_back == (OrcTimestamp(instant, 0),)


# -- b. no allocation for a count the bytes do not back -----------------------------------

def test_a_row_count_the_streams_cannot_hold_is_refused_before_reading() -> None:
    with pytest.raises(CorruptMetadata, match="stripe 0 claims 2147483648 rows; its streams and footer "
                                              "can hold at most") as caught:
        read_orc(rebuilt(INTS, footer=rows_changed(2**31)))
    assert caught.value.offset == HEADER


# -- c. the streams tile the index and data areas -----------------------------------------

def test_a_data_stream_that_begins_in_the_index_area() -> None:
    """A ROW_INDEX 16 bytes shorter, the next (data) stream 16 bytes longer."""
    data = write_orc(struct({"a": primitive(K.INT)}), [{"a": n} for n in range(300)],
                     OrcWriterOptions(row_index_stride=100))
    tail = read_file_tail(data, stored)
    index_end = HEADER + (tail.footer.stripes[0].index_length or 0)
    with pytest.raises(CorruptStream, match=r"stripe 0, stream 2 \(DATA of column 1\) spans bytes "
                                            rf"{index_end - 16} to .*; the stripe's data area is bytes "
                                            rf"{index_end} to") as caught:
        read_orc(rebuilt(data, stripe_footer=boundary_moved(1, -16)))
    assert caught.value.offset == index_end - 16


# -- d. every stream the encoding uses, and no other --------------------------------------

def test_a_present_stream_relabelled_encrypted_data() -> None:
    expected = (r"column 1 \(INT\), stripe 0: a stream of kind ENCRYPTED_DATA; a INT column of encoding "
                r"DIRECT_V2 has \['PRESENT', 'DATA'")
    with pytest.raises(CorruptStream, match=expected) as caught:
        read_orc(rebuilt(INTS, stripe_footer=stream_changed(0, kind=S.ENCRYPTED_DATA)))
    assert caught.value.offset == PRESENT_AT


def test_a_decimal_secondary_stream_relabelled_present() -> None:
    """The scales read as PRESENT bits, and nothing reads the scales: the PRESENT stream is
    not consumed (the file read as an all-null column before)."""
    data = write_orc(struct({"d": decimal_type(10, 2)}), [{"d": 123}, {"d": -5}])
    with pytest.raises(CorruptStream, match=r"column 1 \(DECIMAL\), stripe 0, PRESENT stream: the stripe's "
                                            r"2 rows leave 72 more values of the run at byte 0") as caught:
        read_orc(rebuilt(data, stripe_footer=stream_changed(1, kind=S.PRESENT)))
    assert caught.value.offset == 6  # DATA is bytes 3-5, the old SECONDARY starts at 6


# -- e. each stream consumed exactly ------------------------------------------------------

def test_present_one_byte_longer_data_one_shorter() -> None:
    with pytest.raises(CorruptStream, match=r"column 1 \(INT\), stripe 0, PRESENT stream: the stripe's 4 "
                                            r"rows leave 1 bytes from byte 2 unread") as caught:
        read_orc(rebuilt(INTS, stripe_footer=boundary_moved(0, +1)))
    assert caught.value.offset == PRESENT_AT + 2


def test_length_three_bytes_longer_data_three_shorter() -> None:
    """A direct STRING column: DATA then LENGTH; the lengths lose their first bytes to DATA."""
    options = OrcWriterOptions(dictionary_key_threshold=0.0)
    data = write_orc(struct({"s": primitive(K.STRING)}), [{"s": "x"}, {"s": "yy"}, {"s": "zzz"}], options)
    with pytest.raises(CorruptRle) as caught:
        read_orc(rebuilt(data, stripe_footer=boundary_moved(0, -3)))
    assert "column 1 (STRING), stripe 0, LENGTH stream" in str(caught.value)
    assert caught.value.offset == HEADER + 3 + 2  # LENGTH now starts at byte 6; its third byte


# -- f. row counts agree ------------------------------------------------------------------

def test_a_lowered_row_count_leaves_values_unread() -> None:
    with pytest.raises(CorruptStream, match=r"column 1 \(INT\), stripe 0, DATA stream: the stripe's 3 rows "
                                            r"leave 1 more values of the run at byte 0 unread") as caught:
        read_orc(rebuilt(INTS, footer=rows_changed(3)))
    assert caught.value.offset == DATA_AT


def test_a_raised_row_count_contradicts_the_stripe_statistics() -> None:
    """Every column has a PRESENT stream, so the extra row is read from padding bits as nulls;
    the stripe statistics count the rows the writer wrote."""
    data = write_orc(struct({"a": primitive(K.INT), "b": primitive(K.STRING)}),
                     [{"a": 1, "b": None}, {"a": None, "b": "q"}, {"a": 2, "b": "r"}])
    tail = read_file_tail(data, stored)
    with pytest.raises(CorruptMetadata, match="stripe 0's statistics: column 0 has numberOfValues 3; its "
                                              "streams hold 4") as caught:
        read_orc(rebuilt(data, footer=rows_changed(4)))
    assert caught.value.offset == tail.metadata_offset
    without_stripe_statistics = _with_metadata(data, b"")
    footer_offset = read_file_tail(without_stripe_statistics, stored).footer_offset
    with pytest.raises(CorruptMetadata, match="the Footer's statistics: column 0 has numberOfValues 3; its "
                                              "streams hold 4") as caught:
        read_orc(rebuilt(without_stripe_statistics, footer=rows_changed(4)))
    assert caught.value.offset == footer_offset


def test_a_row_index_with_too_few_entries() -> None:
    data = write_orc(struct({"a": primitive(K.INT)}), [{"a": n} for n in range(300)],
                     OrcWriterOptions(row_index_stride=100))
    lowered = rebuilt(data, footer=lambda footer: dataclasses.replace(footer, row_index_stride=150))
    with pytest.raises(CorruptMetadata, match="stripe 0, column 0: the ROW_INDEX has 3 entries; 300 rows "
                                              "in row groups of 150 make 2") as caught:
        read_orc(lowered)
    assert caught.value.offset == HEADER


# -- g. a root of any kind ----------------------------------------------------------------

def test_a_bare_bigint_root_reads_as_one_column() -> None:
    sink = io.BytesIO()
    with pyorc.Writer(sink, "bigint") as writer:
        writer.writerows([1, None, 3])
    contents = read_orc(sink.getvalue())
    assert contents.root.kind == K.LONG
    assert contents.schema.field_names == (ROOT_FIELD,)
    assert contents.rows == [{ROOT_FIELD: 1}, {ROOT_FIELD: None}, {ROOT_FIELD: 3}]


# -- h. a Footer without numberOfRows -----------------------------------------------------

def test_a_footer_without_number_of_rows_reads() -> None:
    data = rebuilt(INTS, footer=lambda footer: dataclasses.replace(footer, number_of_rows=None))
    assert read_orc(data).rows == INT_ROWS


# -- i. a stripe statistics field of another wire type ------------------------------------

# Metadata { stripeStats { colStats { numberOfValues (field 1, a varint) as LEN "ab" } } }
WRONG_WIRE_TYPE_METADATA = bytes([0x0A, 6, 0x0A, 4, 0x0A, 2]) + b"ab"


def _with_metadata(data: bytes, metadata: bytes) -> bytes:
    """The uncompressed file ``data`` with its Metadata section replaced by ``metadata``."""
    tail = read_file_tail(data, stored)
    footer_end = tail.file_length - 1 - data[-1]
    postscript = encode(dataclasses.replace(tail.postscript, metadata_length=len(metadata)))
    return (data[:tail.metadata_offset] + metadata + data[tail.footer_offset:footer_end] + postscript
            + bytes([len(postscript)]))


def test_a_statistics_field_of_another_wire_type_is_skipped() -> None:
    data = _with_metadata(INTS, WRONG_WIRE_TYPE_METADATA)
    metadata_offset = read_file_tail(INTS, stored).metadata_offset  # the same in both files
    with reading() as breaches:
        assert read_orc(data).rows == INT_ROWS
    (found,) = breaches
    assert found.rule.id == "orc.protobuf.statistics-field-wire-type"
    assert found.offset == metadata_offset + 4  # the key of numberOfValues
    with reading(strict=True), pytest.raises(CorruptProtobuf, match="ColumnStatistics.number_of_values"):
        read_orc(data)


# -- j. column encryption -----------------------------------------------------------------

def test_an_encryption_variant_with_a_key_past_the_key_list() -> None:
    """ORCv1.md, 'Encryption Variants': a variant's key is an index into Encryption.key;
    one past the list is refused, keys or not."""
    tail = read_file_tail(INTS, stored)
    encryption = Encryption(variants=[EncryptionVariant(root=1, key=0)])
    footer = dataclasses.replace(tail.footer, encryption=encryption)
    data = _with_footer(INTS, footer)
    with pytest.raises(CorruptMetadata, match="encryption variant 0: key 0, but the Encryption lists 0 keys"):
        read_orc(data)


def _with_footer(data: bytes, footer: Footer) -> bytes:
    tail = read_file_tail(data, stored)
    footer_bytes = encode(footer)
    postscript = encode(dataclasses.replace(tail.postscript, footer_length=len(footer_bytes)))
    return data[:tail.footer_offset] + footer_bytes + postscript + bytes([len(postscript)])


# -- k. a STRUCT encoding without its kind, or with a kind protobuf does not know ---------

def test_a_struct_encoding_without_kind_reads_as_direct() -> None:
    data = rebuilt(INTS, stripe_footer=lambda footer: dataclasses.replace(
        footer, columns=[ColumnEncoding(), *footer.columns[1:]]))
    with reading() as breaches:
        assert read_orc(data).rows == INT_ROWS
    assert breaches == []


def test_a_struct_encoding_of_an_unknown_kind_reads_as_direct() -> None:
    data = rebuilt(INTS, stripe_footer=lambda footer: dataclasses.replace(
        footer, columns=[ColumnEncoding(kind=-1), *footer.columns[1:]]))
    with reading() as breaches:
        assert read_orc(data).rows == INT_ROWS
    assert [found.rule.id for found in breaches] == ["orc.stripe-footer.encoding-kind-unknown"]
    with reading(strict=True), pytest.raises(CorruptMetadata, match=r"column 0 \(STRUCT\), stripe 0: "
                                                                    "encoding -1"):
        read_orc(data)


# -- ORC C++'s null unions ----------------------------------------------------------------

def test_a_null_union_of_orc_cpp_is_refused() -> None:
    """FINDING (ORC C++, note 15): a value in the first variant for every null union, among
    the others. The file has two readings (the tags' values in order, or the writer's with
    the strays skipped), so it is refused, even when reading leniently."""
    data = pyorc_file("struct<u:uniontype<int,string>>", [(1,), (None,), ("a",)])
    with reading(), pytest.raises(CorruptStream, match=r"column 2 \(INT\), stripe 0, DATA stream: .*"
                                                       "leave 1 more values"):
        read_orc(data)


# -- unmutated files of other writers read exactly ----------------------------------------

ARROW_TABLES = {
    "with nulls": pa.table({
        "i": pa.array([1, None, -3], pa.int64()), "s": pa.array(["a", None, "ccc"]),
        "d": pa.array([1.5, None, -0.25]), "b": pa.array([True, None, False]),
        "m": pa.array([decimal.Decimal("1.25"), None, decimal.Decimal("-3.50")], pa.decimal128(10, 2)),
        "t": pa.array([0, None, 1_700_000_000_123_456_789], pa.timestamp("ns")),
        "l": pa.array([[1, None], None, []], pa.list_(pa.int32()))}),
    "without nulls": pa.table({
        "i": pa.array([1, 2, -3], pa.int64()), "s": pa.array(["a", "bb", "ccc"]),
        "d": pa.array([1.5, 2.0, -0.25]), "b": pa.array([True, True, False]),
        "m": pa.array([decimal.Decimal("1.25"), decimal.Decimal("0.00"), decimal.Decimal("-3.50")],
                      pa.decimal128(10, 2)),
        "t": pa.array([0, 1, 1_700_000_000_123_456_789], pa.timestamp("ns")),
        "l": pa.array([[1, 2], [3], []], pa.list_(pa.int32()))}),
}
EXPECTED = {
    "with nulls": [
        {"i": 1, "s": "a", "d": 1.5, "b": True, "m": 125, "t": 0, "l": [1, None]},
        {"i": None, "s": None, "d": None, "b": None, "m": None, "t": None, "l": None},
        {"i": -3, "s": "ccc", "d": -0.25, "b": False, "m": -350, "t": 1_700_000_000_123_456_789, "l": []}],
    "without nulls": [
        {"i": 1, "s": "a", "d": 1.5, "b": True, "m": 125, "t": 0, "l": [1, 2]},
        {"i": 2, "s": "bb", "d": 2.0, "b": True, "m": 0, "t": 1, "l": [3]},
        {"i": -3, "s": "ccc", "d": -0.25, "b": False, "m": -350, "t": 1_700_000_000_123_456_789, "l": []}],
}
PYORC_SCHEMA = "struct<i:bigint,s:string,d:double,b:boolean,l:array<int>>"


@pytest.mark.parametrize("nulls", list(ARROW_TABLES))
@pytest.mark.parametrize("codec", ["UNCOMPRESSED", "ZLIB", "SNAPPY", "LZ4", "ZSTD"])
def test_pyarrow_files_read_exactly(nulls: str, codec: str) -> None:
    data = pyarrow_orc(ARROW_TABLES[nulls], compression=codec, row_index_stride=2)
    with reading() as breaches:
        assert read_orc(data).rows == EXPECTED[nulls]
    assert breaches == []


@pytest.mark.parametrize("nulls", list(ARROW_TABLES))
@pytest.mark.parametrize("codec", [pyorc.CompressionKind.NONE, pyorc.CompressionKind.ZLIB,
                                   pyorc.CompressionKind.SNAPPY, pyorc.CompressionKind.ZSTD])
def test_pyorc_files_read_exactly(nulls: str, codec: pyorc.CompressionKind) -> None:
    fields = ("i", "s", "d", "b", "l")
    rows = [tuple(row[name] for name in fields) for row in EXPECTED[nulls]]
    data = pyorc_file(PYORC_SCHEMA, rows, compression=codec, row_index_stride=2)
    with reading() as breaches:
        assert read_orc(data).rows == [{name: row[name] for name in fields} for row in EXPECTED[nulls]]
    assert breaches == []



def test_docs_list_every_orc_rule() -> None:
    """docs/orc.md, 'Verdicts': the table of ORC rules is the rules the reader declares."""
    page = (Path(__file__).resolve().parents[3] / "docs" / "orc.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| `(orc\.[^`]+)` \|", page, flags=re.MULTILINE))
    assert listed == {rule.id for rule in RULES.values() if rule.format == "orc"}


def test_without_a_row_index_a_zero_count_is_not_a_contradiction() -> None:
    """ORC C++ writes numberOfValues 0 for a LIST column when it writes no row index
    (docs/orc-spec-notes.md, note 16); the counts it did record are still checked."""
    data = pyorc_file("struct<l:array<int>>", [([1, 2],), (None,), ([3],)], row_index_stride=0,
                      compression=pyorc.CompressionKind.NONE)
    tail = read_file_tail(data, stored)
    assert tail.metadata is not None and tail.metadata.stripe_stats[0].col_stats[1].number_of_values == 0
    assert read_orc(data).rows == [{"l": [1, 2]}, {"l": None}, {"l": [3]}]
    with pytest.raises(CorruptMetadata, match="stripe 0's statistics: column 0 has numberOfValues 3; "
                                              "its streams hold 4"):
        read_orc(rebuilt(data, footer=rows_changed(4)))
