"""BOOLEAN columns.

ORCv1.md, 'Boolean Columns': DIRECT only, DATA in Boolean RLE ('Boolean Run Length
Encoding'): one bit per non-null value.
"""

from __future__ import annotations

import numpy as np

from reference_impl.orc.columns.column_streams import ColumnOutput, ColumnStreams, WriteSettings
from reference_impl.orc.columns.present import ColumnReader
from reference_impl.orc.encodings.boolean_rle import encode_booleans
from reference_impl.orc.errors import InvalidValue
from reference_impl.orc.metadata.proto_enums import ColumnEncodingKind, StreamKind
from reference_impl.orc.metadata.type_tree import TypeNode

__all__ = ["BooleanReader", "write_booleans"]


class BooleanReader(ColumnReader):
    def __init__(self, streams: ColumnStreams) -> None:
        super().__init__(streams)
        self._data = streams.booleans(StreamKind.DATA)

    def read_values(self, count: int) -> np.ndarray:
        return self._data.read(count)


def write_booleans(node: TypeNode, values: list[object], settings: WriteSettings) -> ColumnOutput:
    flags: list[bool] = []
    for value in values:
        if not isinstance(value, bool):
            raise InvalidValue(f"{node.describe()}: {value!r} is not a bool")
        flags.append(value)
    return ColumnOutput(ColumnEncodingKind.DIRECT, {StreamKind.DATA: encode_booleans(flags)})
