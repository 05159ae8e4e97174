"""ORC bad files of GEOMETRY and GEOGRAPHY: a value that is not WKB, an unknown algorithm.

ORCv2.md, 'Geometry & Geography Columns': the DATA stream "records the WKB-encoded
geometry/geography data"; 'Geometry & Geography Types', 'Edge Interpolation Algorithm'
(orc_proto.proto Type.algorithm) lists the algorithms. Both faults are ``bad``: a value
that is not WKB has no reading as a geometry (reading its bytes as BINARY drops the type,
and the reference refuses it, ``reference_impl/orc/columns/geospatial_columns.py``), and
a GEOGRAPHY of an algorithm no version of the text names has edges no reader can draw.
A wrong bounding box is no bad file: the rows still have their one reading, so it is the
``orc/geospatial/lying-bbox`` case (reference only), whose box ``validate`` flags.

Each file is the reference writer's valid file with one thing changed, found through its
own tail and stripe footer, with the helpers of ``bad_files``.
"""

from __future__ import annotations

import dataclasses
from functools import cache

from conformance.cases.wkb_values import W
from conformance.formats import ORC
from reference_impl.orc.metadata.proto_enums import EdgeInterpolationAlgorithm, StreamKind
from reference_impl.orc.metadata.type_tree import geography, geometry, struct
from reference_impl.orc.writer import write_orc

from ..bad_file import BadFile
from .bad_files import DEFAULT_OPTIONS, FIRST_COLUMN, _splice, _stripe, _tail, _with_footer

__all__ = ["geospatial_files"]

SPEC_TYPES = "ORCv2.md: Geometry & Geography Types"
SPEC_ALGORITHM = "ORCv2.md: Geometry & Geography Types, Background, Edge Interpolation Algorithm"
SPEC_COLUMNS = "ORCv2.md: Geometry & Geography Columns"
PROTO_ALGORITHM = "orc_proto.proto: Type.algorithm"
COLUMN = "g"
POINTS = (W.point(0.0, 0.0), W.point(2.0, -2.0))  # little-endian ISO WKB
NOT_A_BYTE_ORDER = 0x07  # WKB's first byte is 0 (big-endian) or 1 (little-endian)
UNKNOWN_ALGORITHM = max(EdgeInterpolationAlgorithm) + 1


@cache
def geometries() -> bytes:
    """Column g, GEOMETRY, two points."""
    return write_orc(struct([(COLUMN, geometry())]), [{COLUMN: point} for point in POINTS], DEFAULT_OPTIONS)


@cache
def geographies() -> bytes:
    """Column g, GEOGRAPHY (SPHERICAL), two points."""
    schema = struct([(COLUMN, geography(algorithm=EdgeInterpolationAlgorithm.SPHERICAL))])
    return write_orc(schema, [{COLUMN: point} for point in POINTS], DEFAULT_OPTIONS)


def wkb_byte_order() -> bytes:
    """The first value's WKB byte order is 7."""
    raw = geometries()
    return _splice(raw, _stripe(raw).offset(FIRST_COLUMN, StreamKind.DATA), bytes([NOT_A_BYTE_ORDER]))


def unknown_algorithm() -> bytes:
    """The GEOGRAPHY type's algorithm is one past KARNEY, the last EdgeInterpolationAlgorithm."""
    raw = geographies()
    types = list(_tail(raw).footer.types)
    types[FIRST_COLUMN] = dataclasses.replace(types[FIRST_COLUMN], algorithm=UNKNOWN_ALGORITHM)
    return _with_footer(raw, types=types)


def geospatial_files() -> list[BadFile]:
    """The GEOMETRY and GEOGRAPHY entries of the ORC corpus."""
    return [
        BadFile("orc-geospatial/wkb-byte-order", f"The first GEOMETRY value's WKB byte order is "
                f"{NOT_A_BYTE_ORDER}, neither 0 nor 1: the value is not WKB.", "InvalidValue",
                (SPEC_COLUMNS, SPEC_TYPES), wkb_byte_order, geometries, format=ORC),
        BadFile("orc-geospatial/unknown-algorithm", f"The GEOGRAPHY type's algorithm is "
                f"{UNKNOWN_ALGORITHM}, no EdgeInterpolationAlgorithm.", "UnsupportedFeature",
                (SPEC_ALGORITHM, PROTO_ALGORITHM), unknown_algorithm, geographies, format=ORC),
    ]
