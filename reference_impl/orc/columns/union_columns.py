"""UNION columns.

ORCv1.md, 'Union Columns': "Unions are encoded as the PRESENT stream and a tag stream
that controls which potential variant is used. They have a child column for each
variant of the union." DIRECT only; the tags are Byte RLE. The table names the tag
stream "DIRECT"; every writer (ORC Java, ORC C++) stores it as the DATA stream, and so
does this one. A value is a (tag, value) tuple; variant column ``tag`` holds, in order,
the values of the rows with that tag. A tag past the variants is :class:`CorruptStream`.
"""

from __future__ import annotations

from collections.abc import Sequence

from reference_impl.orc.columns.column_streams import ColumnOutput, ColumnStreams, WriteSettings
from reference_impl.orc.columns.present import ColumnReader
from reference_impl.orc.encodings.byte_rle import encode_bytes
from reference_impl.orc.errors import CorruptStream, InvalidValue
from reference_impl.orc.metadata.proto_enums import ColumnEncodingKind, StreamKind
from reference_impl.orc.metadata.type_tree import TypeNode

__all__ = ["UnionReader", "write_unions"]

UNION_ARITY = 2  # a value is (tag, value)


class UnionReader(ColumnReader):
    def __init__(self, streams: ColumnStreams, children: Sequence[ColumnReader]) -> None:
        super().__init__(streams)
        self._tags = streams.bytes(StreamKind.DATA)
        self._variants = list(children)

    def read_values(self, count: int) -> list[object]:
        tags = self._tags.read(count).tolist()
        for number, tag in enumerate(tags):
            if not 0 <= tag < len(self._variants):
                raise self.value_error(CorruptStream, number, f"tag {tag}; the union has "
                                       f"{len(self._variants)} variants")
        found = [iter(variant.read(tags.count(tag))) for tag, variant in enumerate(self._variants)]
        return [(tag, next(found[tag])) for tag in tags]


def write_unions(node: TypeNode, values: list[object], settings: WriteSettings) -> ColumnOutput:
    pairs: list[tuple[int, object]] = []
    for value in values:
        if not (isinstance(value, tuple) and len(value) == UNION_ARITY and isinstance(value[0], int)
                and 0 <= value[0] < len(node.children)):
            raise InvalidValue(f"{node.describe()}: {value!r} is not a (tag, value) tuple with a tag "
                               f"below {len(node.children)}")
        pairs.append((value[0], value[1]))
    children = [[item for tag, item in pairs if tag == variant] for variant in range(len(node.children))]
    return ColumnOutput(ColumnEncodingKind.DIRECT, {StreamKind.DATA: encode_bytes([tag for tag, _ in pairs])},
                        children=children)
