"""GEOMETRY and GEOGRAPHY in the ORC reference (ORCv2.md, 'Geometry & Geography Types',
'Geometry & Geography Columns', 'Column Statistics'): the Type and GeospatialStatistics
messages built byte by byte, round trips of the type attributes and the WKB values, the
statistics the writer records, bad values refused with their place, and the validator's
findings on a lying box and a repeated type code."""

from __future__ import annotations

import struct

import pytest

from reference_impl.common.findings import UNTRUE
from reference_impl.orc.column_values import ColumnValues
from reference_impl.orc.errors import InvalidValue, UnsupportedFeature
from reference_impl.orc.metadata.file_tail import read_file_tail
from reference_impl.orc.metadata.orc_proto import (
    BoundingBox,
    ColumnStatistics,
    GeospatialStatistics,
    Type,
    decode,
    encode,
)
from reference_impl.orc.metadata.proto_enums import (
    ColumnEncodingKind,
    EdgeInterpolationAlgorithm,
    StreamKind,
    TypeKind,
)
from reference_impl.orc.metadata.type_tree import from_types, geography, geometry, primitive
from reference_impl.orc.metadata.type_tree import struct as struct_of
from reference_impl.orc.reader import read_orc
from reference_impl.orc.streams.compression import decompress_stream
from reference_impl.orc.streams.stripe_layout import StreamCodec, read_stripe_footer
from reference_impl.orc.validation.column_summary import summarise
from reference_impl.orc.validation.findings import NONCONFORMING, Place
from reference_impl.orc.validation.statistics_checks import StatisticsContext, check_statistics
from reference_impl.orc.validation.validate import validate
from reference_impl.orc.writer import write_orc
from reference_impl.orc.writer_options import OrcWriterOptions
from tests.reference_impl.common.test_wkb import coords, count, header, point
from tests.reference_impl.orc.test_row_index import stripe_indexes

KARNEY = EdgeInterpolationAlgorithm.KARNEY
LINE = header(2) + count(2) + coords(0, 0, 4, -3)
SCHEMA = struct_of({"g": geometry("srid:3857"), "h": geography("srid:4326", KARNEY)})
ROWS = [{"g": point(1, 2), "h": None}, {"g": None, "h": point(170, 3)},
        {"g": LINE, "h": point(-175, -4)}]
GEOMETRY_COLUMN, GEOGRAPHY_COLUMN = 1, 2


def _file(rows: list[dict[str, object]] = ROWS, **options: object) -> bytes:
    return write_orc(SCHEMA, rows, OrcWriterOptions(**options))  # type: ignore[arg-type]


def test_type_message_bytes() -> None:
    # kind = 20 (field 1, varint), crs (field 8, length-delimited), algorithm = 4 (field 9, varint)
    expected = bytes([0x08, 20, 0x42, 9]) + b"srid:4326" + bytes([0x48, 4])
    message = Type(kind=TypeKind.GEOGRAPHY, crs="srid:4326", algorithm=KARNEY)
    assert encode(message) == expected
    assert decode(Type, expected) == message


def test_statistics_message_bytes() -> None:
    box = b"".join(bytes([field << 3 | 1]) + struct.pack("<d", value)  # fields 1-4, 64-bit
                   for field, value in ((1, -1.0), (2, 2.0), (3, 3.0), (4, 4.5)))
    inner = bytes([0x0A, len(box)]) + box + bytes([0x10, 1, 0x10, 2])  # types not packed
    expected = bytes([0x08, 2, 0x6A, len(inner)]) + inner  # number_of_values, field 13
    message = ColumnStatistics(number_of_values=2, geospatial_statistics=GeospatialStatistics(
        bbox=BoundingBox(xmin=-1.0, xmax=2.0, ymin=3.0, ymax=4.5), geospatial_types=[1, 2]))
    assert encode(message) == expected
    assert decode(ColumnStatistics, expected) == message


def test_types_values_and_statistics_round_trip(tmp_path) -> None:
    path = tmp_path / "geo.orc"
    path.write_bytes(_file())
    contents = read_orc(path)
    assert contents.rows == ROWS
    g, h = contents.schema.children
    assert (g.kind, g.crs, g.algorithm) == (TypeKind.GEOMETRY, "srid:3857", None)
    assert (h.kind, h.crs, h.algorithm) == (TypeKind.GEOGRAPHY, "srid:4326", KARNEY)
    statistics = read_file_tail(path.read_bytes(), decompress_stream).footer.statistics
    assert statistics[GEOMETRY_COLUMN].geospatial_statistics == GeospatialStatistics(
        bbox=BoundingBox(xmin=0.0, xmax=4.0, ymin=-3.0, ymax=2.0), geospatial_types=[1, 2])
    # GEOGRAPHY: 170 and -175 are nearest across the antimeridian, so the box wraps.
    assert statistics[GEOGRAPHY_COLUMN].geospatial_statistics == GeospatialStatistics(
        bbox=BoundingBox(xmin=170.0, xmax=-175.0, ymin=-4.0, ymax=3.0), geospatial_types=[1])
    assert validate(path) == []


def test_the_values_are_a_binary_column_layout() -> None:
    data = _file()
    tail = read_file_tail(data, decompress_stream)
    footer = read_stripe_footer(data, tail, 0, StreamCodec.of(tail).decompress)
    streams = {stream.kind for stream in footer.streams if stream.column == GEOMETRY_COLUMN}
    assert streams == {StreamKind.PRESENT, StreamKind.DATA, StreamKind.LENGTH}
    assert footer.columns[GEOMETRY_COLUMN].kind == ColumnEncodingKind.DIRECT_V2


POINT_BYTES = 21  # byte order, type code, two doubles


def test_row_index_positions_are_a_binary_columns() -> None:
    """DATA holds 'Binary contents' (ORCv2.md, 'Geometry & Geography Columns'): its position
    is a byte offset only, as a BINARY column's, then LENGTH's run and values (ORC Java
    2.3.0's files have the same three numbers)."""
    rows = [{"g": point(i, i)} for i in range(4)]
    file = write_orc(struct_of({"g": geometry()}), rows, OrcWriterOptions(row_index_stride=2))
    (stripe,), _ = stripe_indexes(file)
    # the four lengths are one run: the second row group is 2 values into it
    assert [entry.positions for entry in stripe.indexes[1].entry] == [[0, 0, 0], [2 * POINT_BYTES, 0, 2]]
    assert validate(file) == []


def test_an_unknown_algorithm_is_unsupported() -> None:
    types = [Type(kind=TypeKind.STRUCT, subtypes=[1], field_names=["h"]),
             Type(kind=TypeKind.GEOGRAPHY, algorithm=9)]
    with pytest.raises(UnsupportedFeature, match="edge interpolation algorithm 9"):
        from_types(types)


def test_the_writer_refuses_a_value_that_is_not_wkb() -> None:
    with pytest.raises(InvalidValue, match=r"column 1 \(GEOMETRY\): non-null value 0: .*byte order 7"):
        _file([{"g": b"\x07" + point(1, 2)[1:]}])


def test_the_reader_refuses_a_value_that_is_not_wkb(tmp_path) -> None:
    data = _file()
    bad = data.replace(point(1, 2), b"\x01\xff" + point(1, 2)[2:], 1)  # type 255: no ISO code
    assert bad != data
    path = tmp_path / "bad.orc"
    path.write_bytes(bad)
    with pytest.raises(InvalidValue, match=r"column 1 \(GEOMETRY\), stripe 0.*row 0: .*type 255"):
        read_orc(path)


def test_the_validator_finds_a_lying_box(tmp_path) -> None:
    path = tmp_path / "lie.orc"
    path.write_bytes(_file(lies=frozenset({"statistics"})))
    findings = [(f.kind, f.severity, f.column, f.stripe) for f in validate(path)]
    assert ("geospatial_statistics.bbox", UNTRUE, "1 g", 0) in findings
    assert ("geospatial_statistics.bbox", UNTRUE, "1 g", None) in findings


def test_the_validator_finds_a_repeated_type_code() -> None:
    column = ColumnValues(geometry(), [point(1, 2)], [point(1, 2)])
    recorded = ColumnStatistics(number_of_values=1, geospatial_statistics=GeospatialStatistics(
        bbox=BoundingBox(xmin=1.0, xmax=1.0, ymin=2.0, ymax=2.0), geospatial_types=[1, 1]))
    summary = summarise(column, "UTC", None)
    findings = check_statistics(recorded, summary, Place("1 g"), StatisticsContext("UTC", ()))
    assert [(f.kind, f.severity) for f in findings] == [("geospatial_statistics.unique_types", NONCONFORMING)]


def test_geospatial_statistics_on_a_binary_column_are_of_the_wrong_kind() -> None:
    column = ColumnValues(primitive(TypeKind.BINARY), [point(1, 2)], [point(1, 2)])
    recorded = ColumnStatistics(number_of_values=1, geospatial_statistics=GeospatialStatistics())
    summary = summarise(column, "UTC", None)
    findings = check_statistics(recorded, summary, Place("1 g"), StatisticsContext("UTC", ()))
    assert [f.kind for f in findings] == ["statistics.kind"]
