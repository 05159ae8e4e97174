"""MAP columns.

ORCv1.md, 'Map Columns': "Maps are encoded as the PRESENT stream and a length stream
with number of items in each map. They have a child column for the key and another
child column for the value." DIRECT (LENGTH: Unsigned Integer RLE v1) and DIRECT_V2
(v2). A value is a list of (key, value) tuples, in stored order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from reference_impl.orc.columns.column_streams import ColumnOutput, ColumnStreams, WriteSettings
from reference_impl.orc.columns.list_columns import CollectionLengths, split
from reference_impl.orc.columns.present import ColumnReader
from reference_impl.orc.errors import InvalidValue
from reference_impl.orc.metadata.proto_enums import StreamKind
from reference_impl.orc.metadata.type_tree import TypeNode

__all__ = ["MapReader", "write_maps"]

PAIR = 2  # an entry is (key, value)


class MapReader(ColumnReader):
    def __init__(self, streams: ColumnStreams, children: Sequence[ColumnReader]) -> None:
        super().__init__(streams)
        self._lengths = CollectionLengths(streams)
        self._keys, self._values = children

    def read_values(self, count: int) -> list[object]:
        lengths = self._lengths.read(count)
        total = sum(lengths)
        pairs = list(zip(self._keys.read(total), self._values.read(total), strict=True))
        return list(split(pairs, lengths))


def write_maps(node: TypeNode, values: list[object], settings: WriteSettings) -> ColumnOutput:
    """Each value is a sequence of (key, value) pairs, or a mapping."""
    entries = [_pairs(node, value) for value in values]
    lengths = settings.integers([len(pairs) for pairs in entries], signed=False)
    keys = [key for pairs in entries for key, _ in pairs]
    items = [item for pairs in entries for _, item in pairs]
    return ColumnOutput(settings.direct, {StreamKind.LENGTH: lengths}, children=[keys, items])


def _pairs(node: TypeNode, value: object) -> list[tuple[object, object]]:
    pairs = list(value.items()) if isinstance(value, Mapping) else value
    if not isinstance(pairs, (list, tuple)) or not all(
            isinstance(pair, tuple) and len(pair) == PAIR for pair in pairs):
        raise InvalidValue(f"{node.describe()}: {value!r} is not a list of (key, value) pairs")
    return list(pairs)
