"""LIST columns.

ORCv1.md, 'List Columns': "Lists are encoded as the PRESENT stream and a length stream
with number of items in each list. They have a single child column for the element
values." DIRECT (LENGTH: Unsigned Integer RLE v1) and DIRECT_V2 (v2). The element
column holds, in order, the elements of every non-null list.
"""

from __future__ import annotations

from collections.abc import Sequence

from reference_impl.orc.columns.column_streams import ColumnOutput, ColumnStreams, WriteSettings
from reference_impl.orc.columns.present import ColumnReader
from reference_impl.orc.errors import CorruptStream, InvalidValue
from reference_impl.orc.metadata.proto_enums import StreamKind
from reference_impl.orc.metadata.type_tree import TypeNode

__all__ = ["CollectionLengths", "ListReader", "write_lists"]


class CollectionLengths:
    """The LENGTH stream of a list or map, with the sum checked against what the stripe
    can hold (a corrupt length would otherwise ask the child columns for endless values)."""

    def __init__(self, streams: ColumnStreams) -> None:
        self._streams = streams
        self._lengths = streams.integers(StreamKind.LENGTH, signed=False)

    def read(self, count: int) -> list[int]:
        lengths = self._lengths.read(count).tolist()
        total = sum(lengths)
        if total > self._streams.stripe.value_budget:
            raise self._streams.error(CorruptStream, f"the lengths of {count} entries add up to {total} "
                                      f"children; the stripe's streams cannot hold that many",
                                      StreamKind.LENGTH)
        return lengths


def split(values: Sequence[object], lengths: Sequence[int]) -> list[list[object]]:
    """``values`` cut into consecutive runs of ``lengths``."""
    runs, start = [], 0
    for length in lengths:
        runs.append(list(values[start:start + length]))
        start += length
    return runs


class ListReader(ColumnReader):
    def __init__(self, streams: ColumnStreams, children: Sequence[ColumnReader]) -> None:
        super().__init__(streams)
        self._lengths = CollectionLengths(streams)
        (self._elements,) = children

    def read_values(self, count: int) -> list[object]:
        lengths = self._lengths.read(count)
        return list(split(self._elements.read(sum(lengths)), lengths))


def write_lists(node: TypeNode, values: list[object], settings: WriteSettings) -> ColumnOutput:
    lists: list[Sequence[object]] = []
    for value in values:
        if not isinstance(value, (list, tuple)):
            raise InvalidValue(f"{node.describe()}: {value!r} is not a list")
        lists.append(value)
    lengths = settings.integers([len(value) for value in lists], signed=False)
    return ColumnOutput(settings.direct, {StreamKind.LENGTH: lengths},
                        children=[[element for value in lists for element in value]])
