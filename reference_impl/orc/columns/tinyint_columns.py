"""BYTE (tinyint) columns.

ORCv1.md, 'TinyInt Columns': "TinyInt (byte) columns use byte run length encoding":
DIRECT only, DATA in Byte RLE ('Byte Run Length Encoding'), each byte a two's
complement value from -128 to 127.
"""

from __future__ import annotations

import numpy as np

from reference_impl.orc.columns.column_streams import ColumnOutput, ColumnStreams, WriteSettings
from reference_impl.orc.columns.integer_columns import INTEGER_BITS, checked_integers
from reference_impl.orc.columns.present import ColumnReader
from reference_impl.orc.encodings.byte_rle import encode_bytes
from reference_impl.orc.metadata.proto_enums import ColumnEncodingKind, StreamKind, TypeKind
from reference_impl.orc.metadata.type_tree import TypeNode

__all__ = ["TinyIntReader", "write_tinyints"]

BYTE_VALUES = 256


class TinyIntReader(ColumnReader):
    def __init__(self, streams: ColumnStreams) -> None:
        super().__init__(streams)
        self._data = streams.bytes(StreamKind.DATA)

    def read_values(self, count: int) -> np.ndarray:
        return self._data.read(count).view(np.int8)  # the bytes as two's complement


def write_tinyints(node: TypeNode, values: list[object], settings: WriteSettings) -> ColumnOutput:
    checked = checked_integers(node, values, INTEGER_BITS[TypeKind.BYTE])
    data = encode_bytes([value % BYTE_VALUES for value in checked])
    return ColumnOutput(ColumnEncodingKind.DIRECT, {StreamKind.DATA: data})
