"""Repetition and definition levels as stored in data pages.

Spec: README.md, 'Data Pages': a data page holds "1.
repetition levels data 2. definition levels data 3. encoded values"; "If the
column is not nested (i.e. the path to the column has length 1), we do not
encode the repetition levels" and "For data that is required, the definition
levels are skipped". In general a level stream whose maximum level is 0 is not
stored (every level would be 0). '3.7.2 - Encodings', 'Run Length Encoding /
Bit-Packing Hybrid', the table "Prepend length?": levels carry the 4-byte
length in data page v1 and not in v2; parquet.thrift ``DataPageHeaderV2``:
"repetition levels and definition levels are always using RLE (without size in
it)", their byte lengths being in the header. Data page v1 may also use the
deprecated BIT_PACKED (``DataPageHeader.definition_level_encoding``,
``repetition_level_encoding``), which has no length prefix: its size follows
from the count.

In every form the bit width is that of the maximum level (:func:`bit_width_for`).
A decoded level above the maximum is :class:`InvalidLevelData` with the offset
of the level stream.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from reference_impl.parquet.encodings.registry import ENCODINGS, Bounds, Use, checked_row
from reference_impl.parquet.encodings.rle_hybrid import bit_width_for, decode_rle_hybrid, encode_rle_hybrid
from reference_impl.parquet.errors import InvalidLevelData
from reference_impl.parquet.metadata.parquet_thrift import Encoding

__all__ = [
    "decode_levels_v1",
    "decode_levels_v2",
    "encode_levels_v1",
    "encode_levels_v2",
]


def encode_levels_v1(levels: Sequence[int] | np.ndarray, max_level: int, encoding: Encoding) -> bytes:
    """One level stream of a data page v1: RLE with its 4-byte length, or BIT_PACKED
    (the ``registry`` rows with a level codec).

    ``b""`` when ``max_level`` is 0 (the stream is not stored).
    """
    if max_level == 0:
        return b""
    row = ENCODINGS.get(encoding)
    if row is None or row.levels is None:
        raise ValueError(f"levels are RLE or BIT_PACKED, not {getattr(encoding, 'name', encoding)}")
    return row.levels.encode(levels, bit_width_for(max_level))


def encode_levels_v2(levels: Sequence[int] | np.ndarray, max_level: int) -> bytes:
    """One level stream of a data page v2: RLE hybrid runs, no length prefix."""
    if max_level == 0:
        return b""
    return encode_rle_hybrid(levels, bit_width_for(max_level))


def decode_levels_v1(
    data: bytes | memoryview,
    count: int,
    max_level: int,
    encoding: Encoding | int,
    *,
    kind: str,
    start: int,
    end: int,
    base_offset: int = 0,
) -> tuple[np.ndarray, int]:
    """Decode ``count`` ``kind`` ("repetition"/"definition") levels of a data page v1
    from ``data[start:end]``; return them and the position after the stream."""
    row = checked_row(
        encoding, Use.LEVELS, None, base_offset + start, what=f"{kind} levels", misplaced=InvalidLevelData
    )
    assert row.levels is not None  # every implemented LEVELS row has its codec
    bounds = Bounds(start=start, end=end, base_offset=base_offset)
    levels, position = row.levels.decode(data, bit_width_for(max_level), count, bounds)
    _check_maximum(levels, max_level, kind, base_offset + start)
    return levels, position


def decode_levels_v2(
    data: bytes | memoryview,
    count: int,
    max_level: int,
    *,
    kind: str,
    start: int,
    end: int,
    base_offset: int = 0,
) -> np.ndarray:
    """Decode ``count`` levels of a data page v2 from exactly the stream ``data[start:end]``
    (its byte length is in the header). Bytes the runs leave unused are ignored."""
    levels, _ = decode_rle_hybrid(
        data, bit_width_for(max_level), count, start=start, end=end, base_offset=base_offset
    )
    _check_maximum(levels, max_level, kind, base_offset + start)
    return levels


def _check_maximum(levels: np.ndarray, max_level: int, kind: str, offset: int) -> None:
    above = np.flatnonzero(levels > max_level)
    if len(above):
        entry = int(above[0])
        raise InvalidLevelData(
            f"{kind} level {int(levels[entry])} of entry {entry} exceeds the column's maximum "
            f"{kind} level {max_level}",
            offset,
        )
