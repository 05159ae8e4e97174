"""Size statistics: parquet.thrift ``struct SizeStatistics`` (format 2.10).

The seed parquet.thrift predates the struct; the text quoted here is the
current apache/parquet-format parquet.thrift, which metadata.py follows:

* ``unencoded_byte_array_data_bytes``: "The number of physical bytes stored
  for BYTE_ARRAY data values assuming no encoding. This is exclusive of the
  bytes needed to store the length of each byte array ... This field should
  only be set for types that use BYTE_ARRAY as their physical type."
* ``repetition_level_histogram``: "one element corresponding to each
  repetition (i.e. size=max repetition_level+1) where each element represents
  the number of times the repetition level was observed in the data. This
  field may be omitted if max_repetition_level is 0 without loss of
  information."
* ``definition_level_histogram``: "Same as repetition_level_histogram except
  for definition levels. This field may be omitted if max_definition_level is
  0 or 1 without loss of information."

Decision: a histogram is omitted exactly when its maximum level is 0 (it would
be the single count of all entries). For a maximum definition level of 1 it is
written: the spec allows either, it costs two numbers, and it saves a reader
from deriving it from ``null_count`` (which pyarrow also writes). The
ColumnIndex repeats the page histograms concatenated ('repetition_level_histograms',
'definition_level_histograms'), and a chunk's histogram is the element-wise sum
of its pages' (``merge_size_statistics``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import numpy as np

from reference_impl.parquet.metadata.parquet_thrift import SizeStatistics, Type

__all__ = ["level_histogram", "merge_size_statistics", "size_statistics"]

LevelArray = Sequence[int] | np.ndarray


def level_histogram(levels: LevelArray | None, max_level: int) -> list[int] | None:
    """Counts of each level 0..``max_level`` in ``levels``; None when ``max_level`` is 0.

    Raises ValueError for a level outside 0..``max_level`` (a caller bug: the
    writer produced those levels).
    """
    if max_level < 0:
        raise ValueError(f"max_level must be >= 0, got {max_level}")
    if max_level == 0:
        return None
    array = np.asarray([] if levels is None else levels, dtype=np.int64)
    if array.size and (array.min() < 0 or array.max() > max_level):
        raise ValueError(f"levels must lie in 0..{max_level}, found {array.min()}..{array.max()}")
    return np.bincount(array, minlength=max_level + 1).tolist()


def size_statistics(
    physical_type: Type,
    values: Sequence[object],
    definition_levels: LevelArray | None,
    repetition_levels: LevelArray | None,
    max_definition_level: int,
    max_repetition_level: int,
) -> SizeStatistics:
    """SizeStatistics of one page or chunk: its non-null ``values`` and its levels."""
    unencoded = None
    if Type(physical_type) == Type.BYTE_ARRAY:
        byte_arrays = cast(Sequence[bytes], values)  # a BYTE_ARRAY column's values are bytes
        unencoded = sum(len(value) for value in byte_arrays)  # no 4-byte length prefixes
    return SizeStatistics(
        unencoded_byte_array_data_bytes=unencoded,
        repetition_level_histogram=level_histogram(repetition_levels, max_repetition_level),
        definition_level_histogram=level_histogram(definition_levels, max_definition_level),
    )


def merge_size_statistics(parts: Sequence[SizeStatistics]) -> SizeStatistics:
    """The SizeStatistics of a chunk from its pages': sums, field by field.

    A field is kept only when every part has it: a sum with an unknown term is
    unknown. Histograms of different lengths are a caller error (ValueError).
    """
    return SizeStatistics(
        unencoded_byte_array_data_bytes=_sum_counts([p.unencoded_byte_array_data_bytes for p in parts]),
        repetition_level_histogram=_sum_histograms([p.repetition_level_histogram for p in parts]),
        definition_level_histogram=_sum_histograms([p.definition_level_histogram for p in parts]),
    )


def _sum_counts(counts: list[int | None]) -> int | None:
    known = [count for count in counts if count is not None]
    if not counts or len(known) != len(counts):
        return None
    return sum(known)


def _sum_histograms(histograms: list[list[int] | None]) -> list[int] | None:
    known = [histogram for histogram in histograms if histogram is not None]
    if not histograms or len(known) != len(histograms):
        return None
    lengths = {len(histogram) for histogram in known}
    if len(lengths) != 1:
        raise ValueError(f"cannot add level histograms of different lengths {sorted(lengths)}")
    return [sum(column) for column in zip(*known, strict=True)]
