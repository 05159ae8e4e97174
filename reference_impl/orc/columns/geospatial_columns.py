"""GEOMETRY and GEOGRAPHY columns: WKB values in a binary column's layout.

ORCv2.md, 'Geometry & Geography Columns': "a PRESENT stream, a DATA stream that records
the WKB-encoded geometry/geography data as binary, and a LENGTH stream that records the
number of bytes per a value", DIRECT (LENGTH: Unsigned Integer RLE v1) and DIRECT_V2
(v2): the layout of 'Binary Columns' (``binary_columns``). 'Geometry & Geography Types':
the values are ISO WKB of the OGC Simple Feature Access geometries (``common/wkb.py``).

Decisions: a value that is not ISO WKB is not a geometry, so neither the reader nor the
writer passes one: :class:`InvalidValue` naming the column, stripe, row and the byte of
the value where parsing failed. A value of an ISO kind the floor does not decode (a
curve or a surface) is WKB and passes as stored.
"""

from __future__ import annotations

from reference_impl.common.wkb import InvalidWkb, UndecodedWkb, parse_wkb
from reference_impl.orc.columns.binary_columns import BinaryReader, write_binary
from reference_impl.orc.columns.column_streams import ColumnOutput, WriteSettings
from reference_impl.orc.errors import InvalidValue
from reference_impl.orc.metadata.type_tree import TypeNode

__all__ = ["GeospatialReader", "wkb_problem", "write_geospatial"]


def wkb_problem(value: bytes) -> str | None:
    """Why ``value`` is not ISO WKB, or None when it is (a kind not decoded included)."""
    try:
        parse_wkb(value)
    except InvalidWkb as error:
        return error.message
    except UndecodedWkb:
        return None
    return None


class GeospatialReader(BinaryReader):
    def read_values(self, count: int) -> list[object]:
        values = super().read_values(count)
        for number, value in enumerate(values):
            problem = wkb_problem(value)  # type: ignore[arg-type]
            if problem is not None:
                raise self.value_error(InvalidValue, number, problem)
        return values


def write_geospatial(node: TypeNode, values: list[object], settings: WriteSettings) -> ColumnOutput:
    output = write_binary(node, values, settings)  # InvalidValue for a value that is not bytes
    for number, value in enumerate(values):
        problem = wkb_problem(value)  # type: ignore[arg-type]
        if problem is not None:
            raise InvalidValue(f"{node.describe()}: non-null value {number}: {problem}")
    return output
