"""SHORT, INT and LONG columns.

ORCv1.md, 'SmallInt, Int, and BigInt Columns': "All of the 16, 32, and 64 bit integer
column types use the same set of potential encodings, which is basically whether they
use RLE v1 or v2": DIRECT (DATA: Signed Integer RLE v1) and DIRECT_V2 (DATA: Signed
Integer RLE v2). A value outside its kind's width is :class:`InvalidValue`.
"""

from __future__ import annotations

import numpy as np

from reference_impl.orc.columns.column_streams import ColumnOutput, ColumnStreams, WriteSettings
from reference_impl.orc.columns.present import ColumnReader
from reference_impl.orc.errors import InvalidValue
from reference_impl.orc.metadata.proto_enums import StreamKind, TypeKind
from reference_impl.orc.metadata.type_tree import TypeNode

__all__ = ["INTEGER_BITS", "IntegerReader", "checked_integers", "write_integers"]

INTEGER_BITS = {TypeKind.BYTE: 8, TypeKind.SHORT: 16, TypeKind.INT: 32, TypeKind.LONG: 64}


def integer_range(bits: int) -> range:
    half = 1 << (bits - 1)
    return range(-half, half)


class IntegerReader(ColumnReader):
    def __init__(self, streams: ColumnStreams) -> None:
        super().__init__(streams)
        self._data = streams.integers(StreamKind.DATA, signed=True)
        self._range = integer_range(INTEGER_BITS[streams.node.kind])

    def read_values(self, count: int) -> np.ndarray:
        values = self._data.read(count)
        low, high = self._range.start, self._range.stop
        if len(values) and not (low <= values.min() and values.max() < high):  # no flag arrays otherwise
            number = int(np.flatnonzero((values < low) | (values >= high))[0])
            raise self.value_error(InvalidValue, number, f"{values[number]} is outside the "
                                   f"{INTEGER_BITS[self.streams.node.kind]}-bit range")
        return values


def checked_integers(node: TypeNode, values: list[object], bits: int) -> list[int]:
    """``values``, each an int of ``bits`` bits, or :class:`InvalidValue` naming the first that is not."""
    allowed = integer_range(bits)
    checked: list[int] = []
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or value not in allowed:
            raise InvalidValue(f"{node.describe()}: {value!r} is not a {bits}-bit integer")
        checked.append(value)
    return checked


def write_integers(node: TypeNode, values: list[object], settings: WriteSettings) -> ColumnOutput:
    data = settings.integers(checked_integers(node, values, INTEGER_BITS[node.kind]), signed=True)
    return ColumnOutput(settings.direct, {StreamKind.DATA: data})
