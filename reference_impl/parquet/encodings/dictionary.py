"""Dictionary encoding: the dictionary of a column chunk, its page, its indices.

Spec: Encodings.md, 'Dictionary Encoding (PLAIN_DICTIONARY = 2 and
RLE_DICTIONARY = 8)': "The dictionary encoding
builds a dictionary of values encountered in a given column. The dictionary
will be stored in a dictionary page per column chunk. [...] If the dictionary
grows too big, whether in size or number of distinct values, the encoding will
fall back to the plain encoding. The dictionary page is written first, before
the data pages of the column chunk." "Dictionary page format: the entries in
the dictionary using the plain encoding." The data pages hold indices
(``encodings.dictionary_indices``).

Writing: :class:`DictionaryBuilder` numbers distinct values in order of first
appearance and tracks the size of the dictionary page (PLAIN bytes); it adds a
record's values all at once or not at all, so that the column chunk writer can
fall back at a record boundary, once the next record would take the dictionary
past its limit. Two values are the same entry when their PLAIN bytes are equal
(floats by bit pattern: -0.0 and 0.0 are two entries, a NaN one per payload).

Reading: :func:`decode_dictionary_page` decodes the entries (PLAIN, whether the
page says PLAIN or, as version 1 writers do, PLAIN_DICTIONARY: the encodings
``registry`` allows on a dictionary page);
:func:`lookup` turns a data page's indices into values, every index checked
against the dictionary size by the index decoder. The column chunk reader uses
their array forms (:func:`decode_dictionary_entries`, :func:`lookup_array`): one
numpy take per page instead of one list index per value.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any

import numpy as np

from reference_impl.parquet.encodings.dictionary_indices import (
    decode_dictionary_indices,
    encode_dictionary_indices,
)
from reference_impl.parquet.encodings.plain import decode_plain_values, encode_plain
from reference_impl.parquet.encodings.registry import Use, checked_row
from reference_impl.parquet.encodings.rle_hybrid import bit_width_for
from reference_impl.parquet.errors import CorruptPage
from reference_impl.parquet.metadata.parquet_thrift import Encoding, Type

__all__ = [
    "DictionaryBuilder",
    "decode_dictionary_entries",
    "decode_dictionary_page",
    "encode_indices",
    "lookup",
    "lookup_array",
]

FIXED_WIDTHS = {Type.INT32: 4, Type.INT64: 8, Type.INT96: 12, Type.FLOAT: 4, Type.DOUBLE: 8}
BYTE_ARRAY_LENGTH_PREFIX = 4
DOUBLE = struct.Struct("<d")


class DictionaryBuilder:
    """The distinct values of a column chunk, in order of first appearance."""

    def __init__(self, physical_type: Type, type_length: int | None, size_limit: int | None) -> None:
        self.physical_type = physical_type
        self.type_length = type_length
        self.size_limit = size_limit
        self.values: list[object] = []
        self._index: dict[object, int] = {}
        self._value_bytes = 0  # PLAIN bytes of every entry but BOOLEAN's bit packing

    @property
    def size(self) -> int:
        """The size of the PLAIN-encoded dictionary page (before compression)."""
        return self._size(len(self.values), self._value_bytes)

    def try_add(self, values: Sequence[object]) -> list[int] | None:
        """The indices of ``values``, adding the new ones; or ``None``, adding
        nothing, if the new entries would take the dictionary past its limit."""
        new: dict[object, object] = {}
        added_bytes = 0
        for value in values:
            key = self._key(value)
            if key not in self._index and key not in new:
                new[key] = value
                added_bytes += self._value_size(value)
        size = self._size(len(self.values) + len(new), self._value_bytes + added_bytes)
        if new and self.size_limit is not None and size > self.size_limit:
            return None
        for key, value in new.items():
            self._index[key] = len(self.values)
            self.values.append(value)
        self._value_bytes += added_bytes
        return [self._index[self._key(value)] for value in values]

    def page_values(self) -> bytes:
        """The dictionary page's content: the entries, PLAIN encoded."""
        return encode_plain(self.physical_type, self.values, self.type_length)

    def _size(self, count: int, value_bytes: int) -> int:
        if self.physical_type == Type.BOOLEAN:
            return -(-count // 8)
        return value_bytes

    def _value_size(self, value: object) -> int:
        if self.physical_type in FIXED_WIDTHS:
            return FIXED_WIDTHS[self.physical_type]
        if self.physical_type == Type.BYTE_ARRAY:
            return BYTE_ARRAY_LENGTH_PREFIX + len(value)  # type: ignore[arg-type]
        if self.physical_type == Type.FIXED_LEN_BYTE_ARRAY:
            return self.type_length or 0
        return 0  # BOOLEAN: sized by count in _size

    def _key(self, value: object) -> object:
        if isinstance(value, float):
            return DOUBLE.pack(value)  # by bits: -0.0 != 0.0, NaN payloads apart
        if isinstance(value, bytearray | memoryview):
            return bytes(value)
        return value


def encode_indices(indices: Sequence[int], dictionary_size: int) -> bytes:
    """A data page's indices, at the bit width of the largest possible index
    (as parquet-java and Arrow size it: from the dictionary, not the page)."""
    return encode_dictionary_indices(indices, bit_width=bit_width_for(max(dictionary_size - 1, 0)))


def decode_dictionary_page(physical_type: Type, data: bytes | memoryview, num_values: int,
                           encoding: Encoding | int, **where: Any) -> list[object]:
    """The ``num_values`` entries of a dictionary page held in ``data[start:end]``
    (:func:`decode_dictionary_entries`, whose keywords ``where`` are, as Python values)."""
    return decode_dictionary_entries(physical_type, data, num_values, encoding, **where).tolist()


def decode_dictionary_entries(
    physical_type: Type,
    data: bytes | memoryview,
    num_values: int,
    encoding: Encoding | int,
    *,
    type_length: int | None,
    start: int,
    end: int,
    base_offset: int = 0,
) -> np.ndarray:
    """The ``num_values`` entries of a dictionary page held in ``data[start:end]``, as an
    array (of objects for byte arrays) whose ``tolist()`` is the Python values.

    Its encoding is PLAIN, or PLAIN_DICTIONARY as version 1 writers name it ("use
    [...] PLAIN in a dictionary page for new Parquet files"); any other is
    :class:`CorruptPage`, an unknown one :class:`UnsupportedFeature`."""
    checked_row(encoding, Use.DICTIONARY_PAGE, None, base_offset + start, what="dictionary page")
    if num_values < 0:
        raise CorruptPage(f"dictionary page with {num_values} entries", base_offset + start)
    values, _ = decode_plain_values(
        physical_type,
        data,
        num_values,
        type_length=type_length,
        start=start,
        end=end,
        base_offset=base_offset,
    )
    return values if isinstance(values, np.ndarray) else _object_array(values)


def _object_array(values: Sequence[object]) -> np.ndarray:
    """A one-dimensional array of the Python objects ``values`` (bytes stay whole)."""
    array = np.empty(len(values), dtype=object)
    array[:] = values
    return array


def lookup(
    dictionary: Sequence[object],
    data: bytes | memoryview,
    count: int,
    *,
    start: int,
    end: int,
    base_offset: int = 0,
) -> list[object]:
    """Decode ``count`` indices from ``data[start:end]`` and return their entries."""
    entries = _object_array(dictionary)
    return lookup_array(entries, data, count, start=start, end=end, base_offset=base_offset).tolist()


def lookup_array(
    entries: np.ndarray,
    data: bytes | memoryview,
    count: int,
    *,
    start: int,
    end: int,
    base_offset: int = 0,
) -> np.ndarray:
    """:func:`lookup` on the array of :func:`decode_dictionary_entries`: the entries of
    the ``count`` indices, as an array whose ``tolist()`` is what :func:`lookup` returns."""
    indices, _ = decode_dictionary_indices(
        data, count, dictionary_size=len(entries), start=start, end=end, base_offset=base_offset
    )
    return entries[indices]
