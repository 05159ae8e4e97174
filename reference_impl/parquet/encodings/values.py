"""The values section of a data page: encode and decode it in any value encoding.

Encodings.md, 'Supported Encodings': which encoding applies to which physical
type is the table of ``registry`` (:data:`~registry.ENCODINGS`); this module
dispatches through it. Dictionary indices (PLAIN_DICTIONARY, RLE_DICTIONARY)
need the chunk's dictionary and are handled by ``dictionary``; BIT_PACKED is for
levels only.

:func:`decode_values` returns Python values whatever the decoder returns
(numpy arrays become lists of ``int``, ``float``, ``bool``), the same values
PLAIN gives, so the rest of the reader never sees an encoding.
:func:`decode_page_values` leaves an array as it is (``plain.Values``: its
``tolist()`` is that list), so that the column chunk reader can keep a
column's numbers in one array and make Python values only when asked
(:func:`python_values`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from reference_impl.common.decoded_values import as_list, joined
from reference_impl.parquet.encodings.plain import Values
from reference_impl.parquet.encodings.registry import ENCODINGS, Bounds, Use, checked_row, type_problem
from reference_impl.parquet.metadata.parquet_thrift import Encoding, Type

__all__ = [
    "APPLIES_TO",
    "check_value_encoding",
    "decode_page_values",
    "decode_values",
    "encode_values",
    "python_values",
]

# The implemented value encodings and the physical types each applies to.
APPLIES_TO: dict[Encoding, frozenset[Type]] = {
    Encoding(row.number): row.physical_types for row in ENCODINGS.values() if row.values is not None
}


def check_value_encoding(encoding: Encoding | int, physical_type: Type) -> str | None:
    """Why a writer cannot put values of ``physical_type`` in ``encoding``, or None if it can
    (a dictionary encoding can: its fallback is checked on its own)."""
    row = ENCODINGS.get(encoding)
    dictionary = row is not None and Use.DICTIONARY_INDICES in row.uses
    use = Use.DICTIONARY_INDICES if dictionary else Use.VALUES
    return type_problem(encoding, use, physical_type) or _unimplemented(encoding)


def encode_values(
    encoding: Encoding, physical_type: Type, values: Sequence[object], type_length: int | None = None
) -> bytes:
    """The non-null ``values`` of one page in ``encoding``."""
    problem = type_problem(encoding, Use.VALUES, physical_type) or _unimplemented(encoding)
    if problem:
        raise ValueError(problem)
    codec = ENCODINGS[encoding].values
    assert codec is not None  # every implemented VALUES row has its codec
    return codec.encode(physical_type, values, type_length)


def _unimplemented(encoding: Encoding | int) -> str | None:
    row = ENCODINGS[encoding]
    return None if row.implemented else f"{row.name} ({row.section}) is not implemented by this writer"


def decode_values(encoding: Encoding | int, physical_type: Type, data: bytes | memoryview, count: int,
                  **where: Any) -> list[object]:
    """Decode the ``count`` non-null values of a page from ``data[start:end]``: as
    :func:`decode_page_values` (whose keywords ``where`` are), as Python values."""
    return as_list(decode_page_values(encoding, physical_type, data, count, **where))


def decode_page_values(
    encoding: Encoding | int,
    physical_type: Type,
    data: bytes | memoryview,
    count: int,
    *,
    type_length: int | None,
    start: int,
    end: int,
    base_offset: int = 0,
) -> Values:
    """Decode the ``count`` non-null values of a page from ``data[start:end]``: a list,
    or an array whose ``tolist()`` is that list.

    An encoding this implementation does not know or implement is
    :class:`UnsupportedFeature`; a known encoding on a type it does not apply to
    (or one that does not encode values: BIT_PACKED, dictionary indices) is
    :class:`CorruptPage` (``registry.checked_row``).
    """
    row = checked_row(encoding, Use.VALUES, physical_type, base_offset + start, what="values")
    assert row.values is not None  # every implemented VALUES row has its codec
    bounds = Bounds(start=start, end=end, base_offset=base_offset)
    decoded, _ = row.values.decode(physical_type, data, count, type_length, bounds)
    return decoded if isinstance(decoded, np.ndarray) else list(decoded)


def python_values(pieces: Sequence[Values]) -> list[object]:
    """The Python values of decoded pieces, one after the other."""
    return as_list(joined(pieces))
