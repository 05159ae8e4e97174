"""Test helper: Hypothesis values for each protobuf scalar type orc_proto.proto uses, in
the type's whole range (strings and bytes up to `max_size`)."""

from __future__ import annotations

from hypothesis import strategies as st

from reference_impl.orc.metadata.protobuf_wire import ScalarType

UINT64_MAX = (1 << 64) - 1


def scalar_values(max_size: int) -> dict[ScalarType, st.SearchStrategy]:
    return {
        ScalarType.UINT32: st.integers(0, (1 << 32) - 1),
        ScalarType.UINT64: st.integers(0, UINT64_MAX),
        ScalarType.INT32: st.integers(-(1 << 31), (1 << 31) - 1),
        ScalarType.SINT32: st.integers(-(1 << 31), (1 << 31) - 1),
        ScalarType.SINT64: st.integers(-(1 << 63), (1 << 63) - 1),
        ScalarType.BOOL: st.booleans(),
        ScalarType.FIXED64: st.integers(0, UINT64_MAX),
        ScalarType.DOUBLE: st.floats(allow_nan=False),
        ScalarType.STRING: st.text(max_size=max_size),
        ScalarType.BYTES: st.binary(max_size=max_size),
    }
