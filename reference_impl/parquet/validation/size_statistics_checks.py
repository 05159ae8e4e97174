"""Size statistics (and the page index's share of them) against the data.

parquet.thrift, ``struct SizeStatistics``: unencoded_byte_array_data_bytes is
"The number of physical bytes stored for BYTE_ARRAY data values assuming no
encoding ... exclusive of the bytes needed to store the length of each byte
array", and "This field should only be set for types that use BYTE_ARRAY";
repetition_level_histogram has "size=max repetition_level+1 where each element
represents the number of times the repetition level was observed in the data"
(definition_level_histogram alike) and "may be omitted". The same counts
appear per page in ``OffsetIndex.unencoded_byte_array_data_bytes`` and
``ColumnIndex.repetition_level_histograms`` / ``definition_level_histograms``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

import numpy as np

from reference_impl.parquet.metadata.parquet_thrift import Type
from reference_impl.parquet.statistics.size_statistics import level_histogram
from reference_impl.parquet.validation.chunk import Chunk
from reference_impl.parquet.validation.column_order import Order
from reference_impl.parquet.validation.findings import Finding, Report

__all__ = ["check_size_statistics", "check_unencoded", "empty_histogram", "histogram"]


def check_size_statistics(state: Chunk) -> list[Finding]:
    """The findings about ``ColumnMetaData.size_statistics``."""
    sizes = state.meta.size_statistics
    if sizes is None:
        return []
    findings = check_unencoded(
        "size_statistics", sizes.unencoded_byte_array_data_bytes, state.values(), state.order, state.report
    )
    for kind in ("repetition", "definition"):
        stored = getattr(sizes, f"{kind}_level_histogram")
        expected = histogram(state.levels(kind), getattr(state.leaf, f"max_{kind}_level"))
        if stored == []:
            findings.append(
                empty_histogram(state.report, "size_statistics", f"{kind}_level_histogram")
            )
        elif stored is not None and stored != expected:
            findings.append(
                state.report(
                    f"size_statistics.{kind}_level_histogram",
                    f"{kind}_level_histogram is {stored}, the levels give {expected}",
                )
            )
    return findings


def check_unencoded(
    prefix: str, stored: int | None, values: Sequence[object], order: Order, report: Report
) -> list[Finding]:
    """A stored unencoded_byte_array_data_bytes against the byte array values it counts."""
    kind = f"{prefix}.unencoded_byte_array_data_bytes"
    if stored is None:
        return []
    if order.physical_type != Type.BYTE_ARRAY:
        return [
            report(
                f"{kind}_type",
                f"set ({stored}) for a {order.physical_type.name} column: only for BYTE_ARRAY",
            )
        ]
    # Checked just above: the column is BYTE_ARRAY, whose values decode to bytes.
    byte_arrays = cast(Sequence[bytes], values)
    actual = sum(len(value) for value in byte_arrays)
    if stored == actual:
        return []
    return [
        report(kind, f"unencoded_byte_array_data_bytes is {stored}, the values hold {actual} bytes")
    ]


def empty_histogram(report: Report, prefix: str, field: str) -> Finding:
    # Claims no count, so it is not untrue; the text knows max level + 1 counts, or none.
    return report(
        f"{prefix}.empty_histogram",
        f"{field} is an empty list: the spec asks for one count per level (or the field omitted)",
    )


def histogram(levels: np.ndarray, max_level: int) -> list[int]:
    """The level histogram the data gives (for a maximum level 0: the entry count)."""
    # level_histogram leaves out a maximum level 0; written anyway, it is the entry count.
    return level_histogram(levels, max_level) or [len(levels)]
