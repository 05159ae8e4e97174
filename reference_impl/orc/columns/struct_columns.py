"""STRUCT columns.

ORCv1.md, 'Struct Columns': "Structs have no data themselves and delegate everything to
their child columns except for their PRESENT stream. They have a child column for each
of the fields." DIRECT only. A value is a dict by field name; each field's column holds
one entry per non-null struct.

:meth:`StructReader.read_fields` reads the fields as columns instead (present.py), for
the file's root STRUCT, whose entries are the rows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from reference_impl.orc.columns.column_streams import ColumnOutput, ColumnStreams, WriteSettings
from reference_impl.orc.columns.present import ColumnReader, ColumnValues
from reference_impl.orc.errors import InvalidValue
from reference_impl.orc.metadata.proto_enums import ColumnEncodingKind
from reference_impl.orc.metadata.type_tree import TypeNode

__all__ = ["StructReader", "write_structs"]


class StructReader(ColumnReader):
    def __init__(self, streams: ColumnStreams, children: Sequence[ColumnReader]) -> None:
        super().__init__(streams)
        self._fields = list(zip(streams.node.field_names, children, strict=True))

    def read_values(self, count: int) -> list[object]:
        columns = [(name, child.read(count)) for name, child in self._fields]
        return [{name: values[row] for name, values in columns} for row in range(count)]

    def read_fields(self, count: int) -> tuple[np.ndarray | None, dict[str, ColumnValues]]:
        """The PRESENT flags of the next ``count`` entries (None: all non-null) and the
        fields of the non-null ones as columns by field name."""
        present = self.read_present(count)
        fields = {name: child.read_column(len(self._batch)) for name, child in self._fields}
        self.finish(count)
        return present, fields


def write_structs(node: TypeNode, values: list[object], settings: WriteSettings) -> ColumnOutput:
    """Each value is a mapping by field name; a missing field is null."""
    structs: list[Mapping[str, object]] = []
    for value in values:
        if not isinstance(value, Mapping):
            raise InvalidValue(f"{node.describe()}: {value!r} is not a mapping of field names")
        unknown = set(value) - set(node.field_names)
        if unknown:
            raise InvalidValue(f"{node.describe()}: no field named {sorted(unknown)!r}")
        structs.append(value)
    children = [[value.get(name) for value in structs] for name in node.field_names]
    return ColumnOutput(ColumnEncodingKind.DIRECT, {}, children=children)
