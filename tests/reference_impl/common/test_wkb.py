"""WKB as common/wkb.py reads it: every kind, dimension and byte order built field by
field, empty geometries, NaN ordinates, and bad values with their byte offsets."""

from __future__ import annotations

import math
import struct

import pytest

from reference_impl.common.wkb import MAX_NESTING, InvalidWkb, UndecodedWkb, is_iso_code, parse_wkb

NAN = float("nan")
LE, BE = "<", ">"


def header(code: int, order: str = LE) -> bytes:
    return struct.pack(f"{order}BI", 1 if order == LE else 0, code)


def coords(*values: float, order: str = LE) -> bytes:
    return struct.pack(f"{order}{len(values)}d", *values)


def count(n: int, order: str = LE) -> bytes:
    return struct.pack(f"{order}I", n)


def point(x: float, y: float, *zm: float, code: int = 1, order: str = LE) -> bytes:
    return header(code, order) + coords(x, y, *zm, order=order)


def test_a_little_endian_xy_point() -> None:
    geometry = parse_wkb(bytes.fromhex("0101000000000000000000f03f0000000000000040"))  # POINT (1 2)
    assert (geometry.type_code, geometry.kind, geometry.ordinates) == (1, "Point", {"x": [1.0], "y": [2.0]})


def test_a_big_endian_linestring_z() -> None:
    value = header(1002, BE) + count(2, BE) + coords(1, 2, 3, 4, 5, 6, order=BE)
    assert parse_wkb(value).ordinates == {"x": [1.0, 4.0], "y": [2.0, 5.0], "z": [3.0, 6.0]}


@pytest.mark.parametrize(("code", "axes"), [(1, "xy"), (1001, "xyz"), (2001, "xym"), (3001, "xyzm")])
def test_the_dimension_of_the_code_gives_the_axes(code: int, axes: str) -> None:
    geometry = parse_wkb(point(*range(1, len(axes) + 1), code=code))
    assert list(geometry.ordinates) == list(axes)
    assert [geometry.ordinates[a][0] for a in axes] == list(range(1, len(axes) + 1))


def test_a_polygon_with_a_hole() -> None:
    shell = count(4) + coords(0, 0, 10, 0, 10, 10, 0, 0)
    hole = count(4) + coords(2, 2, 3, 2, 3, 3, 2, 2)
    geometry = parse_wkb(header(3) + count(2) + shell + hole)
    assert geometry.kind == "Polygon"
    assert max(geometry.ordinates["x"]) == 10 and len(geometry.ordinates["y"]) == 8


def test_multi_geometries_and_a_nested_collection() -> None:
    multipoint = header(4) + count(2) + point(1, 2) + point(3, 4, order=BE)  # parts keep their own byte order
    collection = header(7) + count(2) + multipoint + header(2) + count(1) + coords(5, 6)
    geometry = parse_wkb(collection)
    assert geometry.type_code == 7 and geometry.ordinates == {"x": [1.0, 3.0, 5.0], "y": [2.0, 4.0, 6.0]}


@pytest.mark.parametrize("value", [
    header(2) + count(0), header(3) + count(0), header(4) + count(0), header(7) + count(0),
    point(NAN, NAN),  # POINT EMPTY: every ordinate NaN
])
def test_empty_geometries_have_no_ordinate(value: bytes) -> None:
    geometry = parse_wkb(value)
    assert geometry.axis("x") == [] and geometry.axis("y") == []


def test_nan_ordinates_are_kept_but_axis_skips_them() -> None:
    geometry = parse_wkb(point(1, NAN, NAN, code=1001))
    assert math.isnan(geometry.ordinates["y"][0]) and geometry.axis("x") == [1.0] and geometry.axis("z") == []


def test_iso_codes_are_the_table_of_geospatial_types() -> None:
    table = {kind + 1000 * dim for kind in range(1, 8) for dim in range(4)}
    assert {code for code in range(5000) if is_iso_code(code)} == table


@pytest.mark.parametrize(("value", "position", "words"), [
    (b"", 0, "needs 5 bytes"),
    (b"\x02" + struct.pack("<I", 1) + coords(1, 2), 0, "byte order 2"),
    (header(0x20000001) + coords(1, 2), 1, "not an ISO WKB geometry type"),  # EWKB with an SRID flag
    (header(4001) + coords(1, 2), 1, "not an ISO WKB geometry type"),
    (header(1) + coords(1), 5, "needs 16 bytes"),
    (header(2) + count(1000), 5, "1000 points need at least 16000 bytes"),
    (header(7) + count(2**32 - 1), 5, "parts need at least"),
    (point(1, 2) + b"\x00", 21, "1 bytes follow the geometry"),
    (header(4) + count(1) + header(2) + count(0), 9, "a MultiPoint holds a LineString"),
    (header(7) + count(1) + point(1, 2, 3, code=1001), 9, "dimensions XYZ inside a XY"),
])
def test_bad_values_name_the_byte(value: bytes, position: int, words: str) -> None:
    with pytest.raises(InvalidWkb, match=f"{words}.* at byte {position} of the value"):
        parse_wkb(value)


def test_nesting_is_bounded() -> None:
    value = b"".join(header(7) + count(1) for _ in range(MAX_NESTING + 1)) + header(7) + count(0)
    with pytest.raises(InvalidWkb, match=f"deeper than {MAX_NESTING}"):
        parse_wkb(value)


def test_curves_are_valid_iso_codes_this_reference_does_not_decode() -> None:
    with pytest.raises(UndecodedWkb, match="ISO geometry type 8 "):
        parse_wkb(header(8) + count(0))
