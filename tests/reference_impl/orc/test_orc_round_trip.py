"""The reference writer's files read back by the reference reader: every type, both file
versions (ORCv1.md and ORCv0.md), every codec ('Compression'), nulls at every level,
several stripes, zero and one row; and the writer's options."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reference_impl.orc.columns.calendar import GREGORIAN_CUTOVER_DAY
from reference_impl.orc.encodings.int_rle_v2 import SubEncoding, decode_ints_v2, sub_encodings
from reference_impl.orc.errors import InvalidValue
from reference_impl.orc.metadata.proto_enums import (
    CalendarKind,
    ColumnEncodingKind,
    CompressionKind,
    StreamKind,
)
from reference_impl.orc.metadata.type_tree import primitive, struct
from reference_impl.orc.reader import read_orc
from reference_impl.orc.streams.compression import decompress_stream
from reference_impl.orc.streams.stripe import read_stripe
from reference_impl.orc.validation.validate import validate
from reference_impl.orc.writer import write_orc
from reference_impl.orc.writer_options import OrcWriterOptions
from tests.reference_impl.orc.orc_samples import ALL_TYPES, SAMPLE_ROWS, K, canonical, row_strategy

E = ColumnEncodingKind


def round_trip(rows, schema=ALL_TYPES, **options):  # type: ignore[no-untyped-def]
    return read_orc(write_orc(schema, rows, OrcWriterOptions(**options)))


@pytest.mark.parametrize("version", ["0.11", "0.12"])
@pytest.mark.parametrize("codec", list(CompressionKind))
def test_every_type_every_codec(version: str, codec: CompressionKind) -> None:
    contents = round_trip(SAMPLE_ROWS, file_version=version, compression=codec, compression_block_size=64,
                          stripe_row_limit=3)
    assert repr(contents.rows) == repr(canonical(SAMPLE_ROWS))  # repr: -0.0 and nan compare by bits
    assert len(contents.tail.footer.stripes) == 2
    assert contents.tail.postscript.version == [0, 11] if version == "0.11" else [0, 12]


@pytest.mark.parametrize("rows", [[], SAMPLE_ROWS[:1]])
def test_zero_and_one_row(rows: list[dict[str, object]]) -> None:
    contents = round_trip(rows)
    assert contents.rows == canonical(rows)
    assert contents.tail.footer.number_of_rows == len(rows)
    assert [s.number_of_values for s in contents.tail.footer.statistics][:2] == [len(rows)] * 2


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.lists(row_strategy(), max_size=12), limit=st.integers(1, 5),
       version=st.sampled_from(["0.11", "0.12"]))
def test_random_rows_round_trip(rows: list[dict[str, object]], limit: int, version: str) -> None:
    assert round_trip(rows, file_version=version, stripe_row_limit=limit).rows == canonical(rows)


def _stripe_encodings(data: bytes, column: int) -> list[int]:
    tail = read_orc(data).tail

    def plain(raw: bytes, offset: int) -> bytes:
        return decompress_stream(raw, tail.postscript.compression or 0, 1 << 18, offset)

    return [read_stripe(data, info, index, len(tail.footer.types), tail.metadata_offset, plain, False)
            .encoding(column).kind or 0 for index, info in enumerate(tail.footer.stripes)]


def test_dictionary_threshold_and_forced_encodings() -> None:
    schema = struct({"s": primitive(K.STRING), "t": primitive(K.STRING)})
    rows = [{"s": "a", "t": str(n)} for n in range(10)]
    data = write_orc(schema, rows)
    assert _stripe_encodings(data, 1) == [E.DICTIONARY_V2] and _stripe_encodings(data, 2) == [E.DIRECT_V2]
    forced = write_orc(schema, rows, OrcWriterOptions(file_version="0.11", column_encodings={
        "s": E.DIRECT, "t": E.DICTIONARY}))
    assert _stripe_encodings(forced, 1) == [E.DIRECT] and _stripe_encodings(forced, 2) == [E.DICTIONARY]
    assert read_orc(forced).rows == rows


MIXED = [5, 5, 5, 5, 7, 9, 11, 1000, 3, 2**40, 6, 6, 6]
OUTLIER = [2, 3, 1, 4, 2, 3, 1, 2, 5, 3, 2, 4, 1, 3, 2, 2**40, 3, 1, 2, 4]


@pytest.mark.parametrize("sub, values, expected", [
    (SubEncoding.SHORT_REPEAT, [6] * 5 + [7] * 3, {SubEncoding.SHORT_REPEAT}),
    (SubEncoding.SHORT_REPEAT, MIXED, {SubEncoding.SHORT_REPEAT, SubEncoding.DIRECT}),  # where it can
    (SubEncoding.DIRECT, MIXED, {SubEncoding.DIRECT}),
    (SubEncoding.PATCHED_BASE, OUTLIER, {SubEncoding.PATCHED_BASE}),
    (SubEncoding.DELTA, MIXED, {SubEncoding.DELTA}),
])
def test_forced_rle_v2_sub_encoding(sub: SubEncoding, values: list[int], expected: set[SubEncoding]) -> None:
    schema = struct({"n": primitive(K.LONG)})
    rows = [{"n": value} for value in values]
    data = write_orc(schema, rows, OrcWriterOptions(rle_v2_sub_encoding=sub))
    assert read_orc(data).rows == rows
    assert set(sub_encodings(_data_stream(data, 1), len(rows), signed=True)) == expected


def _data_stream(data: bytes, column: int, kind: StreamKind = StreamKind.DATA) -> bytes:
    """The ``kind`` stream (DATA by default) of ``column`` in the first stripe of an
    uncompressed file."""
    tail = read_orc(data).tail
    stripe = read_stripe(data, tail.footer.stripes[0], 0, len(tail.footer.types), tail.metadata_offset,
                         lambda raw, offset: raw, False)
    return stripe.stream(column, kind).data


def test_julian_gregorian_calendar_stores_hybrid_days() -> None:
    schema = struct({"d": primitive(K.DATE)})
    before = GREGORIAN_CUTOVER_DAY - 11  # proleptic 1582-10-04
    rows = [{"d": before}, {"d": GREGORIAN_CUTOVER_DAY}]
    data = write_orc(schema, rows, OrcWriterOptions(calendar=CalendarKind.JULIAN_GREGORIAN))
    assert read_orc(data).rows == rows
    assert read_orc(data).tail.footer.calendar == CalendarKind.JULIAN_GREGORIAN
    # 1582-10-04 is the hybrid calendar's day before 1582-10-15: the ten days between are
    # skipped, so the proleptic count is ten below the hybrid one.
    stored = decode_ints_v2(_data_stream(data, 1), 2, signed=True)
    assert stored == [GREGORIAN_CUTOVER_DAY - 1, GREGORIAN_CUTOVER_DAY]
    # The statistics summarise the stored days (as ORC Java records them), and validate agrees.
    statistics = read_orc(data).tail.footer.statistics[1].date_statistics
    assert (statistics.minimum, statistics.maximum) == (GREGORIAN_CUTOVER_DAY - 1, GREGORIAN_CUTOVER_DAY)
    assert validate(data) == []
    with pytest.raises(InvalidValue, match="1582-10-14"):
        write_orc(schema, [{"d": GREGORIAN_CUTOVER_DAY - 1}],
                  OrcWriterOptions(calendar=CalendarKind.JULIAN_GREGORIAN))


ORC_EPOCH_SECONDS = 1_420_070_400  # 2015-01-01 00:00:00 UTC


def test_the_second_before_1970_is_stored_with_a_negative_nanosecond_part() -> None:
    """ORCv1.md, 'Timestamp Columns': -0.5 s has no positive-part form readers take back
    (0 s + 0.5 s reads as +0.5 s), so it is stored as ORC C++ stores it: second 0 after
    1970 and the part -5 << 3 | 7 (8 zeros cut) as a 64-bit two's complement value."""
    schema = struct({"t": primitive(K.TIMESTAMP_INSTANT)})
    data = write_orc(schema, [{"t": -500_000_000}, {"t": -1}])
    assert read_orc(data).rows == [{"t": -500_000_000}, {"t": -1}]
    assert decode_ints_v2(_data_stream(data, 1), 2, signed=True) == [-ORC_EPOCH_SECONDS] * 2
    assert decode_ints_v2(_data_stream(data, 1, StreamKind.SECONDARY), 2, signed=False) == [
        2**64 - 33, 2**64 - 8]  # -5 << 3 | 7 and -1 << 3
    # A nanosecond part under a millisecond keeps the text's positive form.
    assert round_trip([{"t": -999_500_000}], schema).rows == [{"t": -999_500_000}]


@pytest.mark.parametrize("rows, message", [
    ([{"int": 2**31}], "32-bit"),
    ([{"string": b"x"}], "not a str"),
    ([{"varchar": "toolong!"}], "longer than 6"),
    ([{"decimal": 10**12}], "more than 12 digits"),
    ([{"union": (2, 1)}], "tag"),
    ([{"nope": 1}], "lacks"),
    ([{"float": 0.1}], "FLOAT"),
])
def test_writer_refuses_values_outside_their_type(rows: list[dict[str, object]], message: str) -> None:
    with pytest.raises(InvalidValue, match=message):
        write_orc(ALL_TYPES, rows)


@pytest.mark.parametrize("options", [{"file_version": "0.13"}, {"compression_block_size": 0},
                                     {"stripe_row_limit": 0}, {"writer_timezone": "Mars/Olympus"},
                                     {"dictionary_key_threshold": 1.5},
                                     {"file_version": "0.11", "rle_v2_sub_encoding": SubEncoding.DELTA}])
def test_options_are_checked(options: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        OrcWriterOptions(**options)  # type: ignore[arg-type]


def test_a_wall_clock_the_writer_zone_skips_is_refused_not_moved() -> None:
    """2024-03-10 02:30 does not exist in Los Angeles (clocks go from 02:00 to 03:00): no
    instant reads back as it ('Timestamp Columns': a TIMESTAMP is the wall clock of an instant
    in the writer's zone), so the writer refuses it; 01:30 and 03:30 are written."""
    schema = struct({"t": primitive(K.TIMESTAMP)})
    options = OrcWriterOptions(writer_timezone="America/Los_Angeles")
    day = (19_792 * 86_400) * 10**9  # 2024-03-10 00:00 as wall-clock nanoseconds
    hour = 3_600 * 10**9
    rows = [{"t": day + hour + hour // 2}, {"t": day + 3 * hour + hour // 2}]
    assert read_orc(write_orc(schema, rows, options)).rows == rows
    with pytest.raises(InvalidValue, match="2024-03-10T02:30:00 does not exist in the writer's time zone"):
        write_orc(schema, [{"t": day + 2 * hour + hour // 2}], options)


@pytest.mark.parametrize("rows", [[], SAMPLE_ROWS])
def test_empty_stripes_around_and_between_full_ones(rows: list[dict[str, object]]) -> None:
    """'Stripes' asks a stripe for no row: a stripe of none before, between and after."""
    contents = round_trip(rows, stripe_row_limit=2, empty_stripes=True)
    full = [len(rows[i:i + 2]) for i in range(0, len(rows), 2)]
    expected = [0, *(n for count in full for n in (count, 0))]
    assert [s.number_of_rows for s in contents.tail.footer.stripes] == expected
    assert contents.rows == canonical(rows)
