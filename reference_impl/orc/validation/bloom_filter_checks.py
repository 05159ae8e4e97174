"""Bloom filters against the values of their row groups (ORCv1.md, 'Bloom Filter Index').

A Bloom filter may answer "maybe" for a value that is absent, never "no" for one that is
there: a reader that trusts it skips the row group. Each BLOOM_FILTER or
BLOOM_FILTER_UTF8 stream holds one filter per row group of the row index ("one
BloomFilter per row group"), and every non-null value of a row group must test present in
its filter, hashed as ``reference_impl/orc/bloom_filter.py`` hashes each type. Kinds:

* ``bloom_filter.count`` (untrue): a stream with another number of filters than the
  stripe has row groups;
* ``bloom_filter.absent`` (untrue): a value of the row group its filter says is not there;
* ``bloom_filter.distrusted`` (nonconforming): filters the text tells readers to distrust,
  not checked: string filters in the original BLOOM_FILTER stream from ORC Java before
  ORC-101 (``writer_version``), and timestamp filters without ColumnEncoding
  ``bloom_encoding`` 1 ("1 = ORC-135 (utc for timestamps)").
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from reference_impl.orc.bloom_filter import HASHED_KINDS, value_hashes
from reference_impl.orc.bloom_filter_index import ColumnBloomFilters
from reference_impl.orc.column_values import ColumnValues, column_values
from reference_impl.orc.metadata.orc_proto import ColumnEncoding
from reference_impl.orc.metadata.type_tree import TypeNode
from reference_impl.orc.validation.findings import Finding, Place, show
from reference_impl.orc.validation.writer_version import Fix, distrusted_bloom_filter

__all__ = ["check_bloom_filters"]


def check_bloom_filters(root: TypeNode, rows: Sequence[object], stride: int, stripe: int,
                        streams: Sequence[ColumnBloomFilters], encodings: Sequence[ColumnEncoding],
                        labels: dict[int, str], fixes: tuple[Fix, ...]) -> list[Finding]:
    """The findings about one stripe's Bloom filter ``streams`` for its root values ``rows``."""
    if not streams:
        return []
    nodes = {node.column_id: node for node in root.walk()}
    groups = [column_values(root, rows[start:start + stride]) for start in range(0, len(rows), stride)]
    findings = []
    for stream in streams:
        node = nodes.get(stream.column)
        if node is None or node.kind not in HASHED_KINDS:
            continue
        place = Place(labels[node.column_id], stripe)
        reason = distrusted_bloom_filter(node, stream.kind, encodings[node.column_id], fixes)
        if reason:
            findings.append(place("bloom_filter.distrusted", reason))
            continue
        findings += _check_stream(node, stream, groups, place)
    return findings


def _check_stream(node: TypeNode, stream: ColumnBloomFilters, groups: list[dict[int, ColumnValues]],
                  place: Place) -> list[Finding]:
    if len(stream.filters) != len(groups):
        return [place("bloom_filter.count",
                      f"the {stream.kind.name} stream holds {len(stream.filters)} filters for "
                      f"{len(groups)} row groups")]
    findings = []
    for group, (bits, columns) in enumerate(zip(stream.filters, groups, strict=True)):
        values = columns[node.column_id].values
        probed = [value for value in values if not _is_nan(value)]
        present = bits.contain(value_hashes(node, probed))
        absent = [value for value, there in zip(probed, present, strict=True) if not there]
        if absent:
            findings.append(Place(place.column, place.stripe, group)(
                "bloom_filter.absent",
                f"{stream.kind.name}: {len(absent)} of the row group's {len(values)} values test absent, "
                f"the first {show(absent[0])}"))
    return findings


def _is_nan(value: object) -> bool:
    """NaN equals nothing, so no probe asks for it: its bits are not checked."""
    return isinstance(value, float) and math.isnan(value)
