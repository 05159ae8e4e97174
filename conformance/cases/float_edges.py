"""IEEE 754 edge values the cases of both formats write: the largest finite float, the
smallest normal, the smallest and largest subnormals, and NaNs that differ only in sign,
quiet bit or payload.

Their canonical values keep every bit (docs/canonical-values.md), so a
reader or writer that quiets or rewrites a NaN is seen. Neither format's cases own them:
Parquet's FLOAT/DOUBLE (parquet.thrift `enum Type`) and ORC's FLOAT/DOUBLE
(ORCv1.md, 'Float and Double Columns') are the same IEEE 754 binary32 and binary64.
"""

from __future__ import annotations

import struct

import numpy as np

from reference_impl.common.ieee_float import widen_float_bits

FLOAT32_MAX = struct.unpack("<f", bytes.fromhex("ffff7f7f"))[0]
FLOAT32_MIN_SUBNORMAL = struct.unpack("<f", bytes.fromhex("01000000"))[0]
DOUBLE_MIN_SUBNORMAL = 5e-324

# Bit patterns of the positive finite edges of each width (binary16, binary32, binary64):
# the largest finite value, the smallest normal, the largest and the smallest subnormal.
FINITE_EDGE_BITS = {
    16: (0x7BFF, 0x0400, 0x03FF, 0x0001),
    32: (0x7F7FFFFF, 0x00800000, 0x007FFFFF, 0x00000001),
    64: (0x7FEFFFFFFFFFFFFF, 0x0010000000000000, 0x000FFFFFFFFFFFFF, 0x0000000000000001),
}
LARGEST_FINITE, SMALLEST_NORMAL, LARGEST_SUBNORMAL, SMALLEST_SUBNORMAL = range(4)

# NaNs that differ only in sign, quiet bit or payload, as IEEE 754 bit patterns.
NAN_BITS = {
    16: (0x7C01, 0xFC01, 0x7E01, 0xFE00, 0x7FFF),
    32: (0x7F800001, 0xFF800001, 0x7FC00001, 0xFFC00000, 0x7FFFFFFF),
    64: (0x7FF0000000000001, 0xFFF0000000000001, 0x7FF8000000000001, 0xFFF8000000000000,
         0x7FFFFFFFFFFFFFFF),
}


def nan_payloads(bits: int) -> list[float]:
    """The NaNs of ``NAN_BITS[bits]`` as canonical floats of that width."""
    return _floats_of_bits(NAN_BITS[bits], bits)


def _floats_of_bits(patterns: tuple[int, ...], bits: int) -> list[float]:
    return widen_float_bits(np.array(patterns, dtype=np.uint64).astype(f"<u{bits // 8}"), bits)


def finite_edges(bits: int) -> list[float]:
    """``FINITE_EDGE_BITS[bits]`` as canonical floats, in its order (index with
    LARGEST_FINITE, SMALLEST_NORMAL, LARGEST_SUBNORMAL, SMALLEST_SUBNORMAL)."""
    return _floats_of_bits(FINITE_EDGE_BITS[bits], bits)
