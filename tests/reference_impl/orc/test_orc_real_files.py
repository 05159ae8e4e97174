"""Cross checks with ORC C++ through pyarrow.orc and pyorc: their files read by the
reference reader, and the reference writer's files read by them."""

from __future__ import annotations

import datetime
import decimal
import io
from zoneinfo import ZoneInfo

import pyarrow as pa
import pyarrow.orc
import pyorc
import pytest
from pyorc.converters import ORCConverter

from reference_impl.common.leniency import reading
from reference_impl.orc.metadata.proto_enums import CompressionKind
from reference_impl.orc.reader import read_orc
from reference_impl.orc.writer import write_orc
from reference_impl.orc.writer_options import OrcWriterOptions
from tests.reference_impl.orc.orc_samples import ALL_TYPES, NANOS, SAMPLE_ROWS, canonical

ROWS = canonical(SAMPLE_ROWS)
DECIMAL_SCALE = ALL_TYPES.children[ALL_TYPES.field_names.index("decimal")].scale or 0
NOT_IN_PYARROW = {"char", "varchar", "union"}  # pyarrow.orc writes no CHAR, VARCHAR or UNION
ARROW_TYPES = {
    "boolean": pa.bool_(), "tinyint": pa.int8(), "smallint": pa.int16(), "int": pa.int32(),
    "bigint": pa.int64(), "float": pa.float32(), "double": pa.float64(), "string": pa.string(),
    "binary": pa.binary(), "decimal": pa.decimal128(12, DECIMAL_SCALE), "date": pa.date32(),
    "timestamp": pa.timestamp("ns"), "instant": pa.timestamp("ns", tz="UTC"),
    "list": pa.list_(pa.int32()), "map": pa.map_(pa.string(), pa.list_(pa.float64())),
    "struct": pa.struct([("x", pa.int32()), ("y", pa.struct([("z", pa.string())]))]),
}


def _arrow_value(name: str, value: object) -> object:
    if name == "decimal" and value is not None:
        return decimal.Decimal(value).scaleb(-DECIMAL_SCALE)  # type: ignore[arg-type]
    return value


def _arrow_table(rows: list[dict[str, object]]) -> pa.Table:
    columns = {name: pa.array([_arrow_value(name, row[name]) for row in rows], ARROW_TYPES[name])
               for name in ARROW_TYPES}
    return pa.table(columns)


def _arrow_rows(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    return [{name: row[name] for name in ARROW_TYPES} for row in rows]


@pytest.mark.parametrize("version", ["0.11", "0.12"])
@pytest.mark.parametrize("codec", ["uncompressed", "zlib", "snappy", "lz4", "zstd"])
def test_pyarrow_files_read_back(version: str, codec: str) -> None:
    sink = io.BytesIO()
    pyarrow.orc.write_table(_arrow_table(ROWS), sink, file_version=version, compression=codec)
    contents = read_orc(sink.getvalue())
    assert repr(contents.rows) == repr(_arrow_rows(ROWS))


@pytest.mark.parametrize("value", [-1_500_000_000, -1, -NANOS, -999_999, -1_000_001, 1, 2**63 - 1])
def test_pyarrow_negative_nanoseconds(value: int) -> None:
    """pyarrow stores times before 1970 with a negative nanosecond part (timestamp_columns.py)."""
    sink = io.BytesIO()
    table = pa.table({"t": pa.array([value], pa.timestamp("ns")),
                      "i": pa.array([value], pa.timestamp("ns", "UTC"))})
    pyarrow.orc.write_table(table, sink)
    assert read_orc(sink.getvalue()).rows == [{"t": value, "i": value}]


class RawTimestamp(ORCConverter):
    """(seconds, nanoseconds) as ORC C++ holds them: an instant."""

    @staticmethod
    def from_orc(seconds: int, nanoseconds: int, timezone: ZoneInfo) -> tuple[int, int]:
        return seconds, nanoseconds

    @staticmethod
    def to_orc(obj: tuple[int, int], timezone: ZoneInfo) -> tuple[int, int]:
        return obj


class RawDate(ORCConverter):
    @staticmethod
    def from_orc(days: int) -> int:
        return days

    @staticmethod
    def to_orc(obj: int) -> int:
        return obj


PYORC_SCHEMA = ("struct<boolean:boolean,tinyint:tinyint,smallint:smallint,int:int,bigint:bigint,float:float,"
                "double:double,string:string,binary:binary,decimal:decimal(12,3),date:date,timestamp:timestamp,"
                "instant:timestamp with local time zone,char:char(4),varchar:varchar(6),list:array<int>,"
                "map:map<string,array<double>>,struct:struct<x:int,y:struct<z:string>>,"
                "union:uniontype<int,string>>")
CONVERTERS = {pyorc.TypeKind.TIMESTAMP: RawTimestamp, pyorc.TypeKind.TIMESTAMP_INSTANT: RawTimestamp,
              pyorc.TypeKind.DATE: RawDate}
ZONE = "America/New_York"


def _pyorc_value(name: str, value: object) -> object:
    if value is None:
        return None
    if name in ("timestamp", "instant"):
        return divmod(value, NANOS)  # type: ignore[call-overload]
    if name == "map":
        return dict(value)  # type: ignore[call-overload]
    if name == "union":
        return value[1]  # type: ignore[index]  # pyorc picks the variant by the value's type
    return _arrow_value(name, value)


def _wall_clock(instant_ns: int, zone: str) -> int:
    seconds, nanos = divmod(instant_ns, NANOS)
    moment = datetime.datetime.fromtimestamp(seconds, ZoneInfo(zone))
    offset = moment.utcoffset()
    assert offset is not None
    return (seconds + int(offset.total_seconds())) * NANOS + nanos


def test_pyorc_files_of_every_type_read_back() -> None:
    # pyorc cannot write a null variant, and a null union gets a stray value (note 15)
    rows = [row for row in ROWS if row["union"] not in ((0, None), None)]
    sink = io.BytesIO()
    with pyorc.Writer(sink, PYORC_SCHEMA, converters=CONVERTERS, timezone=ZoneInfo(ZONE),
                      struct_repr=pyorc.StructRepr.DICT, compression=pyorc.CompressionKind.ZSTD) as writer:
        for row in rows:
            writer.write({name: _pyorc_value(name, value) for name, value in row.items()})
    with reading() as breaches:
        contents = read_orc(sink.getvalue())
    assert breaches == []
    # pyorc's TIMESTAMP is an instant shown in the writer's zone: the reference reads its wall clock.
    expected = [{**row, "timestamp": _wall_clock(row["timestamp"], ZONE) if row["timestamp"] is not None
                 else None} for row in rows]
    assert repr(contents.rows) == repr(expected)


@pytest.mark.parametrize("version", ["0.11", "0.12"])
@pytest.mark.parametrize("codec", [CompressionKind.ZLIB, CompressionKind.SNAPPY, CompressionKind.LZ4,
                                   CompressionKind.ZSTD])
def test_reference_files_read_by_pyarrow_and_pyorc(version: str, codec: CompressionKind) -> None:
    data = write_orc(ALL_TYPES, ROWS, OrcWriterOptions(file_version=version, compression=codec,
                                                      stripe_row_limit=2, writer_timezone=ZONE))
    arrow = pyarrow.orc.read_table(io.BytesIO(data), columns=list(ARROW_TYPES))
    assert repr(arrow.to_pylist()) == repr(_arrow_table(ROWS).to_pylist())
    expected = [row for row in ROWS if row["union"] != (0, None)]
    with_null_variant = ROWS.index(next(row for row in ROWS if row["union"] == (0, None)))
    read = [row for number, row in enumerate(pyorc.Reader(io.BytesIO(data), converters=CONVERTERS,
                                                          struct_repr=pyorc.StructRepr.DICT,
                                                          timezone=ZoneInfo(ZONE)))
            if number != with_null_variant]
    for ours, theirs in zip(expected, read, strict=True):
        timestamp = ours["timestamp"]
        written = None if timestamp is None else divmod(_instant(timestamp, ZONE), NANOS)
        assert theirs["timestamp"] == written
        assert theirs["date"] == ours["date"] and theirs["char"] == ours["char"]
        assert theirs["union"] == (None if ours["union"] is None else ours["union"][1])  # type: ignore[index]


def _instant(wall_ns: int, zone: str) -> int:
    seconds, nanos = divmod(wall_ns, NANOS)
    naive = datetime.datetime(1970, 1, 1) + datetime.timedelta(seconds=seconds)
    return int(naive.replace(tzinfo=ZoneInfo(zone)).timestamp()) * NANOS + nanos


def test_reference_statistics_read_by_pyorc() -> None:
    data = write_orc(ALL_TYPES, ROWS, OrcWriterOptions(writer_timezone=ZONE))
    reader = pyorc.Reader(io.BytesIO(data))
    statistics = {name: reader[column + 1].statistics for column, name in enumerate(ALL_TYPES.field_names)
                  if name in ARROW_TYPES or name in NOT_IN_PYARROW}
    assert statistics["int"]["minimum"] == -(2**31) and statistics["int"]["has_null"]
    assert statistics["boolean"]["true_count"] == 1 and statistics["boolean"]["false_count"] == 1
    assert statistics["string"]["minimum"] == "" and statistics["string"]["maximum"] == "Nevada"
    assert statistics["decimal"]["minimum"] == decimal.Decimal("-123456789.012")
    assert statistics["date"]["minimum"] == datetime.date(1, 1, 1)
    # TIMESTAMP 0 is midnight in New York: 05:00 UTC.
    assert statistics["timestamp"]["minimum"] == datetime.datetime(1970, 1, 1, 5, tzinfo=ZoneInfo("UTC"))
    assert statistics["instant"]["maximum"] == datetime.datetime(1970, 1, 1, tzinfo=ZoneInfo("UTC"))
    assert statistics["varchar"]["number_of_values"] == 2
