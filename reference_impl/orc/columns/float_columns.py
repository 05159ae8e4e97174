"""FLOAT and DOUBLE columns.

ORCv1.md, 'Float and Double Columns': "Floating point types are stored using IEEE 754
floating point bit layout. Float columns use 4 bytes per value and double columns use 8
bytes." DIRECT only: DATA holds the values back to back, little endian (what every
writer does; the text does not name the byte order). A FLOAT is read as the double of
the same value with its NaN payload kept bit for bit, and written back only when that
is exact (reference_impl/common/ieee_float.py).
"""

from __future__ import annotations

import numpy as np

from reference_impl.common.ieee_float import narrow_float_bits, widen_float_array
from reference_impl.orc.columns.column_streams import ColumnOutput, ColumnStreams, WriteSettings
from reference_impl.orc.columns.present import ColumnReader
from reference_impl.orc.errors import InvalidValue
from reference_impl.orc.metadata.proto_enums import ColumnEncodingKind, StreamKind, TypeKind
from reference_impl.orc.metadata.type_tree import TypeNode

__all__ = ["FloatReader", "write_floats"]

FLOAT_BITS = {TypeKind.FLOAT: 32, TypeKind.DOUBLE: 64}
BITS_PER_BYTE = 8


def _layout(node: TypeNode) -> tuple[int, np.dtype]:
    bits = FLOAT_BITS[node.kind]
    return bits, np.dtype(f"<u{bits // BITS_PER_BYTE}")


class FloatReader(ColumnReader):
    def __init__(self, streams: ColumnStreams) -> None:
        super().__init__(streams)
        self._data = streams.cursor(StreamKind.DATA)
        self._bits, self._dtype = _layout(streams.node)

    def read_values(self, count: int) -> np.ndarray:
        raw = np.frombuffer(self._data.take(count * self._dtype.itemsize), dtype=self._dtype)
        return widen_float_array(raw, self._bits)


def write_floats(node: TypeNode, values: list[object], settings: WriteSettings) -> ColumnOutput:
    bits, dtype = _layout(node)
    numbers: list[float] = []
    for value in values:
        if isinstance(value, bool) or not isinstance(value, (float, int)):
            raise InvalidValue(f"{node.describe()}: {value!r} is not a number")
        numbers.append(float(value))
    try:
        raw = narrow_float_bits(numbers, bits)
    except ValueError as error:
        raise InvalidValue(f"{node.describe()}: {error}") from error
    return ColumnOutput(ColumnEncodingKind.DIRECT, {StreamKind.DATA: raw.astype(dtype).tobytes()})
