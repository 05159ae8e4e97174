"""The PRESENT stream, and the column reader every column encoding builds on.

ORCv1.md, 'Stripes': "an integer column is represented as two streams PRESENT, which
uses one with a bit per value recording if the value is non-null, and DATA, which
records the non-null values. If all of a column's values in a stripe are non-null, the
PRESENT stream is omitted from the stripe." 'SmallInt, Int, and BigInt Columns': "For
values that have false bits in the present stream, no values are included in the data
stream." The same holds for every kind, compound ones included: a null struct, list,
map or union gives its children nothing.

Nothing is allocated for a count of entries before the streams back it: without a
PRESENT stream the entries of a batch are a range, and the values come from the
decoders, which stop where their stream ends. Each column's number of non-null values
is told to the stripe, which row_counts.py holds against the stripe statistics.

A column's entries are read as a column (:meth:`ColumnReader.read_column`): a numpy
array where the values of its kind have a natural one and no entry is null (the
decoders' arrays, unconverted), else a list of Python values with None for the nulls;
:meth:`ColumnReader.read` gives them as a list (what the compound columns and the rows
are built of).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from reference_impl.common.decoded_values import DecodedValues, as_list
from reference_impl.orc.columns.column_streams import ColumnStreams
from reference_impl.orc.encodings.boolean_rle import encode_booleans
from reference_impl.orc.errors import OrcError
from reference_impl.orc.metadata.proto_enums import StreamKind

__all__ = ["ColumnReader", "ColumnValues", "present_stream"]

ColumnValues = DecodedValues  # a column's entries, see the module docstring


class ColumnReader:
    """Reads one column of one stripe, ``count`` entries at a time, nulls included.

    A subclass reads its non-null values in :meth:`read_values`; this class merges them
    with the PRESENT stream. ``row_of`` tells a subclass which entry a value came from,
    for error messages (for a top-level column, the row within the stripe).
    """

    def __init__(self, streams: ColumnStreams) -> None:
        self.streams = streams
        self._present = streams.booleans(StreamKind.PRESENT) if streams.has(StreamKind.PRESENT) else None
        self._position = 0
        self._batch: Sequence[int] | np.ndarray = ()  # entries of the non-null values of the batch being read

    def read(self, count: int) -> list[object]:
        """The next ``count`` entries as Python values, None for a null."""
        return as_list(self.read_column(count))

    def read_column(self, count: int) -> ColumnValues:
        """The next ``count`` entries as a column (module docstring)."""
        present = self.read_present(count)
        values = self.read_values(len(self._batch))
        if present is not None and len(self._batch) < count:
            values = _with_nulls(present, values)
        self.finish(count)
        return values

    def read_present(self, count: int) -> np.ndarray | None:
        """The PRESENT flags of the next ``count`` entries (None without a PRESENT stream:
        all are non-null); the batch's non-null values are then read, and :meth:`finish`
        ends the batch."""
        if self._present is None:
            self._batch = range(self._position, self._position + count)
            return None
        present = self._present.read(count)
        self._batch = self._position + np.flatnonzero(present)
        return present

    def finish(self, count: int) -> None:
        self._position += count
        self.streams.stripe.count_values(self.streams.node.column_id, len(self._batch))

    def read_values(self, count: int) -> ColumnValues:
        raise NotImplementedError

    def row_of(self, value_number: int) -> int:
        """The entry (row, for a top-level column) of the batch's ``value_number``-th value."""
        return int(self._batch[value_number])

    def value_error(self, error_class: type[OrcError], value_number: int, message: str,
                    kind: StreamKind = StreamKind.DATA) -> OrcError:
        return self.streams.error(error_class, f"row {self.row_of(value_number)}: {message}", kind)


def _with_nulls(present: np.ndarray, values: ColumnValues) -> list[object]:
    """The entries: the non-null ``values`` where ``present`` is true, None elsewhere."""
    if isinstance(values, np.ndarray):  # numbers: numpy places them and makes them Python's
        entries = np.empty(len(present), dtype=object)
        entries[present] = values
        return entries.tolist()
    found = iter(values)
    return [next(found) if flag else None for flag in present.tolist()]


def present_stream(values: Sequence[object]) -> bytes | None:
    """The PRESENT stream of ``values``, or None when none is null (the stream is omitted)."""
    if all(value is not None for value in values):
        return None
    return encode_booleans([value is not None for value in values])
