"""The ORC validator (reference_impl/orc/validation): true metadata gives no finding, each
lie and each real writer's untruth is found and named, and the writer_version rules decide
what is checked."""

from __future__ import annotations

import dataclasses
import datetime
import decimal
import io
import sys

import pyarrow as pa
import pyarrow.orc as po
import pyorc
import pytest

from reference_impl.common.findings import ADVISORY, AMBIGUOUS, UNTRUE
from reference_impl.orc.bloom_filter_index import read_bloom_filters
from reference_impl.orc.errors import CorruptStream
from reference_impl.orc.metadata.file_tail import read_file_tail, write_file_tail
from reference_impl.orc.metadata.orc_proto import RowIndex, decode, encode
from reference_impl.orc.metadata.proto_enums import StreamKind, TypeKind
from reference_impl.orc.metadata.type_tree import ROOT_FIELD, list_of, map_of, primitive, struct, union_of
from reference_impl.orc.metadata.type_tree import decimal as decimal_type
from reference_impl.orc.streams.compression import decompress_stream
from reference_impl.orc.streams.stripe_layout import read_stripe_footer, stream_places
from reference_impl.orc.validation.validate import validate
from reference_impl.orc.writer import write_orc
from reference_impl.orc.writer_options import OrcWriterOptions
from tests.reference_impl.orc.orc_hand_built import stored
from tests.reference_impl.orc.orc_mutations import rebuilt, with_writer_version

NANOS_PER_SECOND = 10**9
SCHEMA = struct({
    "i": primitive(TypeKind.LONG), "y": primitive(TypeKind.BYTE), "f": primitive(TypeKind.DOUBLE),
    "s": primitive(TypeKind.STRING), "bin": primitive(TypeKind.BINARY), "b": primitive(TypeKind.BOOLEAN),
    "d": primitive(TypeKind.DATE), "ts": primitive(TypeKind.TIMESTAMP), "dec": decimal_type(12, 3),
    "l": list_of(primitive(TypeKind.INT)), "m": map_of(primitive(TypeKind.STRING), primitive(TypeKind.LONG)),
    "u": union_of(primitive(TypeKind.INT), primitive(TypeKind.STRING)),
    "st": struct({"x": primitive(TypeKind.SHORT)}),
})
ROWS = 120
STRIDE = 25


def _row(n: int) -> dict[str, object]:
    if n % 7 == 3:
        return {}  # every field null
    return {"i": n * 1000 - 50_000, "y": n % 100 - 50, "f": n / 7 - 3.0, "s": f"v{n:03}é",
            "bin": bytes([n % 256]) * (n % 4),
            "b": n % 3 == 0, "d": n - 60, "ts": (n - 60) * 86_400 * NANOS_PER_SECOND + n * 1000,
            "dec": n * 12_345 - 700_000, "l": list(range(n % 4)), "m": [(f"k{n}", n)] if n % 2 else [],
            "u": (n % 2, n if n % 2 == 0 else str(n)), "st": {"x": n}}


ROW_VALUES = [_row(n) for n in range(ROWS)]


def _reference(**options: object) -> bytes:
    return write_orc(SCHEMA, ROW_VALUES, OrcWriterOptions(
        stripe_row_limit=50, row_index_stride=STRIDE,
        bloom_filter_columns=frozenset({"i", "s", "f", "dec", "d"}), **options))  # type: ignore[arg-type]


def _kinds(findings: list) -> set[tuple[str, str]]:
    return {(finding.kind, finding.severity) for finding in findings}


def _structures(data: bytes) -> tuple[int, int]:
    """How many Bloom filter streams and stripe statistics the file holds: what validate had
    to check, so that no finding means something."""
    filters = sum(len(stripe) for stripe in read_bloom_filters(data))
    tail = read_file_tail(data, decompress_stream)
    return filters, len(tail.metadata.stripe_stats) if tail.metadata else 0


def test_the_reference_writers_metadata_is_true() -> None:
    data = _reference()
    assert _structures(data) == (15, 3)  # 5 Bloom filter columns in 3 stripes
    assert validate(data) == []


@pytest.mark.parametrize("writer", ["reference", "pyorc"])
def test_a_bare_root_with_a_row_index_is_judged_at_column_0(writer: str) -> None:
    """ORCv1.md, 'Type Information': a LIST root, nulls included, in two stripes with row groups
    of 2; its statistics and positions belong to column 0 (no STRUCT around it), its elements'
    to column 1."""
    values = [[1, None], None, [], [7, 8, 9], None, [2**31 - 1]]
    if writer == "reference":
        data = write_orc(list_of(primitive(TypeKind.INT)), [{ROOT_FIELD: v} for v in values],
                         OrcWriterOptions(stripe_row_limit=4, row_index_stride=2))
    else:
        sink = io.BytesIO()
        with pyorc.Writer(sink, "array<int>", row_index_stride=2, batch_size=4, stripe_size=0) as out:
            out.writerows(values)
        data = sink.getvalue()
    tail = read_file_tail(data, decompress_stream)
    assert [stripe.number_of_rows for stripe in tail.footer.stripes] == [4, 2]
    assert tail.footer.statistics[0].number_of_values == 4  # the non-null lists
    assert validate(data) == []
    lying = write_orc(list_of(primitive(TypeKind.INT)), [{ROOT_FIELD: v} for v in values],
                      OrcWriterOptions(row_index_stride=2, lies=frozenset({"statistics"})))
    assert {f.column for f in validate(lying)} == {"1 _elem"}  # the lie is on the integers


def test_lying_statistics_are_untrue_at_every_stripe_and_the_file() -> None:
    findings = validate(_reference(lies=frozenset({"statistics"})))
    minimum = [f for f in findings if f.kind == "statistics.integer.minimum" and f.column == "1 i"]
    assert {f.stripe for f in minimum} == {0, 1, 2, None}  # three stripes of 50 rows and the file
    assert all(f.severity == UNTRUE for f in minimum)
    assert "above the smallest value" in minimum[0].message


def test_lying_row_group_statistics_are_untrue_in_every_row_group() -> None:
    findings = validate(_reference(lies=frozenset({"row_index"})))
    minimum = {(f.stripe, f.row_group) for f in findings if f.kind == "statistics.integer.minimum"
               and f.column == "1 i"}
    # stripes of 50, 50 and 20 rows: row groups of 25
    assert minimum == {(0, 0), (0, 1), (1, 0), (1, 1), (2, 0)}
    assert {f.stripe for f in findings} == {0, 1, 2}  # the stripes' and the file's statistics are true


def test_a_position_moved_in_the_row_index_is_untrue() -> None:
    """A ROW_INDEX entry's first number (the PRESENT stream's byte offset) raised by one."""
    data = write_orc(SCHEMA, ROW_VALUES, OrcWriterOptions(row_index_stride=STRIDE))
    tail = read_file_tail(data, stored)
    footer = read_stripe_footer(data, tail, 0, stored)
    places = stream_places(tail.footer.stripes[0], footer, 0)
    place = next(p for p in places if p.kind == StreamKind.ROW_INDEX and p.column == 1)
    index = decode(RowIndex, data[place.offset:place.offset + place.length])
    index.entry[1].positions[0] += 1
    moved = encode(index)
    assert len(moved) == place.length  # the same varint width: the file's layout holds
    mutated = data[:place.offset] + moved + data[place.offset + place.length:]
    findings = validate(mutated)
    found = {(f.kind, f.column, f.stripe, f.row_group) for f in findings}
    assert found == {("row_index.position", "1 i", 0, 1)}


def test_lying_bloom_filters_miss_every_value() -> None:
    findings = validate(_reference(lies=frozenset({"bloom_filter"})))
    absent = {(f.column, f.stripe, f.row_group) for f in findings if f.kind == "bloom_filter.absent"}
    assert ("1 i", 0, 0) in absent and ("4 s", 2, 0) in absent
    assert _kinds(findings) == {("bloom_filter.absent", UNTRUE)}


def _pyarrow_file() -> bytes:
    table = pa.table({
        "i": [1, None, 3, -7], "s": ["a", "zz", None, "é"], "f": [1.5, float("nan"), None, -2.0],
        "b": [True, False, None, True],
        "dt": [datetime.date(2020, 1, 1), None, datetime.date(1960, 5, 5), datetime.date(2000, 1, 1)],
        "ts": [datetime.datetime(2020, 1, 1, 1, 2, 3, 456789), None,
               datetime.datetime(1969, 12, 31, 23, 59, 59), datetime.datetime(1900, 1, 1)],
        "dec": pa.array([decimal.Decimal("1.25"), None, decimal.Decimal("-3.50"), decimal.Decimal("0.00")],
                        pa.decimal128(10, 2)),
        "l": [[1, 2], None, [], [3]], "bin": [b"x", b"", None, b"\x00\x01"]})
    sink = io.BytesIO()
    po.write_table(table, sink, compression="zstd", row_index_stride=2, bloom_filter_columns=[0, 1, 2, 4, 6])
    return sink.getvalue()


def test_edge_values_are_judged_exactly() -> None:
    """38-digit decimals (no rounding of the bounds or the sum), a column of nulls only (its
    sum is 0), a NaN left out of a sum, and an instant before 1970 with a sub-millisecond
    part (its milliseconds truncated toward zero, as ORC C++ records them)."""
    big = 10**38 - 1
    schema = struct({"d": decimal_type(38, 0), "n": primitive(TypeKind.LONG),
                     "f": primitive(TypeKind.DOUBLE)})
    rows = [{"d": big, "f": float("nan")}, {"d": -big, "f": 1.5}]
    assert validate(write_orc(schema, rows, OrcWriterOptions(row_index_stride=1))) == []
    table = pa.table({"ts": pa.array([-1_500, 2_000], pa.timestamp("us")),
                      "n": pa.array([None, None], pa.int64()), "f": [float("nan"), 1.0]})
    sink = io.BytesIO()
    po.write_table(table, sink)
    assert validate(sink.getvalue()) == []


@pytest.mark.parametrize("values, recorded", [
    ([sys.float_info.max, sys.float_info.max], None),  # the sum overflows: none is recorded
    ([sys.float_info.max, -sys.float_info.max, sys.float_info.max, 1.5], sys.float_info.max),
])
def test_double_sums_past_the_largest_double_are_judged_without_overflow(
        values: list[float], recorded: float | None) -> None:
    """Partial sums beyond the largest double (math.fsum raises there): the writer records
    no sum where it overflows, and the validator checks one that is exact."""
    schema = struct({"f": primitive(TypeKind.DOUBLE)})
    data = write_orc(schema, [{"f": v} for v in values], OrcWriterOptions(row_index_stride=1))
    assert read_file_tail(data, decompress_stream).footer.statistics[1].double_statistics.sum == recorded
    assert validate(data) == []


def test_pyarrows_metadata_is_true() -> None:
    """A NaN among the values makes pyarrow's sum NaN: the IEEE sum, so no finding."""
    data = _pyarrow_file()
    assert _structures(data) == (5, 1)
    assert validate(data) == []


def test_orc_cpp_tinyint_bloom_filters_miss_values() -> None:
    """FINDING (ORC C++, pyorc and pyarrow alike; docs/orc-spec-notes.md, note 12): a TINYINT
    filter of [5, then fifteen 1s] says 5 is absent; pyorc's own filtered read then misses it."""
    sink = io.BytesIO()
    with pyorc.Writer(sink, "struct<y:tinyint>", row_index_stride=1000, bloom_filter_columns=["y"]) as writer:
        for value in [5] + [1] * 15:
            writer.write((value,))
    (finding,) = validate(sink.getvalue())
    assert (finding.kind, finding.severity, finding.column, finding.row_group) == (
        "bloom_filter.absent", UNTRUE, "1 y", 0)
    assert "the first 5" in finding.message


def test_a_file_the_reader_refuses_is_not_validated() -> None:
    """FINDING (ORC C++, docs/orc-spec-notes.md, note 15): a null union leaves a stray value
    in its first variant's column: no single reading, so nothing to judge."""
    sink = io.BytesIO()
    with pyorc.Writer(sink, "struct<u:uniontype<int,string>>") as writer:
        for value in (1, None, "x"):
            writer.write((value,))
    with pytest.raises(CorruptStream, match="leave 1 more values"):
        validate(sink.getvalue())


@pytest.mark.parametrize(("version", "issues"), [
    (0, {"HIVE-8732", "ORC-101", "ORC-135", "ORC-517"}), (5, {"ORC-135", "ORC-517"}), (6, {"ORC-517"}),
    (7, set())])
def test_orc_javas_old_writer_versions_are_distrusted(version: int, issues: set[str]) -> None:
    findings = validate(with_writer_version(_reference(lies=frozenset({"statistics"})), version))
    distrusted = {f.kind.removeprefix("writer_version.") for f in findings
                  if f.kind.startswith("writer_version.")}
    assert distrusted == issues
    lied_about = {f.column for f in findings if f.kind.endswith(".minimum")}
    # ORC-135: timestamp bounds unchecked; ORC-517: DECIMAL(12, 3) is a decimal64; HIVE-8732: strings.
    assert ("8 ts" in lied_about) == ("ORC-135" not in issues)
    assert ("9 dec" in lied_about) == ("ORC-517" not in issues)
    assert ("4 s" in lied_about) == ("HIVE-8732" not in issues)
    assert "1 i" in lied_about or "HIVE-8732" in issues


def test_a_writer_other_than_orc_java_may_not_number_below_6() -> None:
    tail = read_file_tail(data := _reference(), stored)
    footer = dataclasses.replace(tail.footer, writer=1)  # ORC C++
    postscript = dataclasses.replace(tail.postscript, writer_version=4)
    misnumbered = data[:tail.metadata_offset] + write_file_tail(footer, tail.metadata, postscript, stored)
    assert _kinds(validate(misnumbered)) == {("writer_version.numbering", ADVISORY)}


# -- bytes_on_disk and the timestamp bounds' nanoseconds ----------------------------------

# -1 ns and 2020-01-01T00:00:00.123456789: the nanoseconds beyond the floored millisecond,
# stored plus one (orc_proto.proto TimestampStatistics), are 999999 + 1 and 456789 + 1.
EDGE_INSTANTS = [-1, 1_577_836_800_123_456_789]
TS_SCHEMA = struct({"ts": primitive(TypeKind.TIMESTAMP), "s": primitive(TypeKind.STRING)})


def _timestamp_file(**options: object) -> bytes:
    rows = [{"ts": EDGE_INSTANTS[n % 2], "s": f"v{n}"} for n in range(6)] + [{}]
    return write_orc(TS_SCHEMA, rows, OrcWriterOptions(stripe_row_limit=4, **options))  # type: ignore[arg-type]


INDEX_KINDS = {StreamKind.ROW_INDEX, StreamKind.BLOOM_FILTER, StreamKind.BLOOM_FILTER_UTF8}


def _area_bytes(data: bytes, index_area: bool = False) -> list[dict[int, int]]:
    """Each stripe's stored bytes of each column's streams in the data (or index) area, from
    the uncompressed file's stripe footers."""
    tail = read_file_tail(data, stored)
    out = []
    for number, information in enumerate(tail.footer.stripes):
        sums: dict[int, int] = {}
        for place in stream_places(information, read_stripe_footer(data, tail, number, stored), number):
            if (place.kind in INDEX_KINDS) == index_area:
                sums[place.column] = sums.get(place.column, 0) + place.length
        out.append(sums)
    return out


def test_the_reference_writes_bytes_on_disk_and_timestamp_nanos() -> None:
    data = _timestamp_file()
    tail = read_file_tail(data, stored)
    per_stripe = _area_bytes(data)
    assert len(per_stripe) == 2
    for stripe, stripe_stats in zip(per_stripe, tail.metadata.stripe_stats, strict=True):
        assert [s.bytes_on_disk for s in stripe_stats.col_stats] == [None, stripe[1], stripe[2]]
    assert [s.bytes_on_disk for s in tail.footer.statistics] == [
        None, per_stripe[0][1] + per_stripe[1][1], per_stripe[0][2] + per_stripe[1][2]]
    timestamps = tail.footer.statistics[1].timestamp_statistics
    assert (timestamps.minimum_utc, timestamps.minimum_nanos) == (-1, 999_999 + 1)
    assert (timestamps.maximum_utc, timestamps.maximum_nanos) == (1_577_836_800_123, 456_789 + 1)
    assert validate(data) == []


def _with_file_statistics(data: bytes, change) -> bytes:
    """The one-stripe uncompressed file ``data`` with column 1's Footer statistics changed."""
    def footer(f):
        statistics = list(f.statistics)
        statistics[1] = change(dataclasses.replace(statistics[1]))
        return dataclasses.replace(f, statistics=statistics)
    return rebuilt(data, footer=footer)


def test_a_bytes_on_disk_off_the_streams_is_ambiguous() -> None:
    data = write_orc(TS_SCHEMA, [{"ts": n, "s": "x"} for n in range(5)], OrcWriterOptions(row_index_stride=2))
    (stripe,) = _area_bytes(data)
    (with_index,) = _area_bytes(data, index_area=True)
    for accepted in (stripe[1], stripe[1] + with_index[1]):  # data streams, or every stream
        assert validate(_with_file_statistics(data, _bytes_on_disk(accepted))) == []
    (finding,) = validate(_with_file_statistics(data, _bytes_on_disk(stripe[1] + 1)))
    assert (finding.kind, finding.severity, finding.column, finding.stripe) == (
        "statistics.bytes_on_disk", AMBIGUOUS, "1 ts", None)
    assert (f"store {stripe[1]} bytes in the data area and {with_index[1]} in the index area"
            in finding.message)


def _bytes_on_disk(count: int):
    def change(statistics):
        statistics.bytes_on_disk = count
        return statistics
    return change


@pytest.mark.parametrize(("field", "nanos", "kind", "severity"), [
    ("maximum_nanos", 456_789, "statistics.timestamp.nanos.maximum", UNTRUE),  # 1 ns below the largest
    ("minimum_nanos", 999_999, "statistics.timestamp.nanos.inexact", UNTRUE),  # 1 ns below
    ("minimum_nanos", 1_000_001, "statistics.timestamp.nanos.minimum", UNTRUE),  # past the millisecond
])
def test_timestamp_nanos_off_the_data(field: str, nanos: int, kind: str, severity: str) -> None:
    data = write_orc(TS_SCHEMA, [{"ts": value} for value in EDGE_INSTANTS])

    def change(statistics):
        bounds = statistics.timestamp_statistics
        statistics.timestamp_statistics = dataclasses.replace(bounds, **{field: nanos})
        return statistics
    findings = validate(_with_file_statistics(data, change))
    assert [(f.kind, f.severity, f.stripe) for f in findings] == [(kind, severity, None)]


def test_orc_cpp_timestamp_nanos_and_no_bytes_on_disk() -> None:
    """pyarrow (ORC C++) writes no bytes_on_disk, and -1 ns as milliseconds truncated toward
    zero (0) with the digits -1 stored plus one (0): the instant is exact either way."""
    table = pa.table({"ts": pa.array(EDGE_INSTANTS, pa.timestamp("ns"))})
    sink = io.BytesIO()
    po.write_table(table, sink)
    data = sink.getvalue()
    statistics = read_file_tail(data, decompress_stream).footer.statistics
    assert [s.bytes_on_disk for s in statistics] == [None, None]
    timestamps = statistics[1].timestamp_statistics
    assert (timestamps.minimum_utc, timestamps.minimum_nanos) == (0, 0)
    assert (timestamps.maximum_utc, timestamps.maximum_nanos) == (1_577_836_800_123, 456_790)
    assert validate(data) == []
