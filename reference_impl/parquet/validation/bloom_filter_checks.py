"""A chunk's Bloom filter against its values.

BloomFilter.md, 'Problem statement': "Bloom filters do not have false
negatives": every non-null value of the chunk must test positive. A filter of
an algorithm, hash or compression newer than this reader ('File Format') is
not judged.
"""

from __future__ import annotations

from reference_impl.parquet.encryption.indexes import read_bloom_filter_of
from reference_impl.parquet.errors import DecryptionFailed, MissingKey, ParquetError, UnsupportedFeature
from reference_impl.parquet.validation.chunk import Chunk
from reference_impl.parquet.validation.column_order import bits
from reference_impl.parquet.validation.findings import Finding, show

__all__ = ["check_bloom_filter"]


def check_bloom_filter(state: Chunk) -> list[Finding]:
    """One finding when some distinct value of the chunk tests absent, or the filter is unreadable."""
    try:
        bloom = read_bloom_filter_of(state.file, state.meta, state.crypto, where=state.where)
    except (DecryptionFailed, MissingKey):
        raise
    except UnsupportedFeature:
        return []  # a newer algorithm, hash or compression: not ours to judge
    except ParquetError as error:
        return [state.report("bloom_filter", f"the Bloom filter cannot be read: {error.message}")]
    if bloom is None:
        return []
    order = state.order
    distinct = {bits(value, order): value for value in state.values()}.values()
    missing = [v for v in distinct if not bloom.might_contain(order.physical_type, v, order.type_length)]
    if not missing:
        return []
    return [
        state.report(
            "bloom_filter",
            f"{len(missing)} of the chunk's {len(distinct)} distinct values test absent, "
            f"e.g. {show(missing[0])}",
        )
    ]
