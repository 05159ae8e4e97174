"""The validator's bound checks over a numpy array agree with the value-by-value definition.

``validation.bounds`` finds the smallest or largest value of a fixed-width column over
its decoded array at once (``sort_order.array_sort_key``); the search over the Python
values is the definition. On random values (NaNs of any sign and payload, -0.0, +0.0,
infinities, integer extremes) and random stored bounds, right or wrong, both must give
the same findings: kinds and messages.
"""

from __future__ import annotations

import struct

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from reference_impl.parquet.metadata.parquet_thrift import ConvertedType, Type
from reference_impl.parquet.statistics.sort_order import IEEE_754_TOTAL_ORDER, TYPE_ORDER, sort_key
from reference_impl.parquet.validation.bounds import Bound, check_bound
from reference_impl.parquet.validation.column_order import MAX, MIN, Order
from reference_impl.parquet.validation.findings import Report

REPORT = Report("value", 0)
INT32, INT64, DOUBLE = struct.Struct("<i"), struct.Struct("<q"), struct.Struct("<d")
# An edge value is as likely as a random one: the tie-breaks and NaN rules live there.
FLOAT_EDGES = [0.0, -0.0, float("inf"), float("-inf"), float("nan"), -float("nan")]


def _order(physical_type: Type, key: object, member: str = TYPE_ORDER, legacy: bool = False) -> Order:
    floating = physical_type in (Type.FLOAT, Type.DOUBLE)
    return Order(
        physical_type=physical_type,
        type_length=None,
        float16=False,
        key=key,  # type: ignore[arg-type]
        undefined_because="",
        legacy_key=key if legacy else None,  # type: ignore[arg-type]
        signed=True,
        member=member,
        floating=floating,
    )


def _any_double() -> st.SearchStrategy[float]:
    """Any double, its bit pattern included: NaNs of either sign and any payload."""
    patterns = st.integers(0, 2**64 - 1).map(lambda bits: DOUBLE.unpack(bits.to_bytes(8, "little"))[0])
    return st.one_of(st.sampled_from(FLOAT_EDGES), st.floats(), patterns)


# name -> (order, numpy dtype, values, how a bound is stored)
CASES = {
    "int64": (_order(Type.INT64, sort_key(Type.INT64)), np.int64,
              st.integers(-(2**63), 2**63 - 1), INT64.pack),
    "uint32": (_order(Type.INT32, sort_key(Type.INT32, converted_type=ConvertedType.UINT_32)), np.int32,
               st.integers(-(2**31), 2**31 - 1), INT32.pack),
    "uint64": (_order(Type.INT64, sort_key(Type.INT64, converted_type=ConvertedType.UINT_64)), np.int64,
               st.integers(-(2**63), 2**63 - 1), INT64.pack),
    "int64 deprecated min/max": (_order(Type.INT64, int, legacy=True), np.int64,
                                 st.integers(-(2**63), 2**63 - 1), INT64.pack),
    "boolean": (_order(Type.BOOLEAN, sort_key(Type.BOOLEAN)), np.bool_,
                st.booleans(), lambda value: bytes([value])),
    "double": (_order(Type.DOUBLE, sort_key(Type.DOUBLE)), np.float64, _any_double(), DOUBLE.pack),
    "double total order": (
        _order(Type.DOUBLE, sort_key(Type.DOUBLE, column_order=IEEE_754_TOTAL_ORDER), IEEE_754_TOTAL_ORDER),
        np.float64, _any_double(), DOUBLE.pack),
}


@st.composite
def bound_cases(draw: st.DrawFn) -> tuple[Order, np.ndarray, Bound, bytes]:
    order, dtype, elements, pack = CASES[draw(st.sampled_from(sorted(CASES)))]
    values = draw(st.lists(elements, max_size=12))
    array: np.ndarray = np.array(values, dtype=dtype)
    # A bound the data holds (often right), a random one (often wrong), or undecodable bytes.
    stored = st.sampled_from(values).map(pack) if values else st.nothing()
    raw = draw(st.one_of(stored, elements.map(pack), st.binary(max_size=9)))
    field, role = draw(st.sampled_from([("min_value", MIN), ("max_value", MAX)]))
    exact = draw(st.sampled_from([None, False, True]))
    key = order.legacy_key if order.legacy_key is not None else order.key
    return order, array, Bound("statistics", field, role, key, exact), raw  # type: ignore[arg-type]


@settings(max_examples=600, deadline=None)
@given(bound_cases())
def test_array_bounds_give_the_findings_of_the_value_by_value_definition(
    case: tuple[Order, np.ndarray, Bound, bytes],
) -> None:
    order, array, bound, raw = case
    by_value = check_bound(bound, raw, array.tolist(), order, REPORT)
    assert check_bound(bound, raw, array, order, REPORT) == by_value


def test_a_zero_tie_names_the_first_zero_as_the_definition_does() -> None:
    """Under TYPE_ORDER -0.0 equals +0.0: the value named is the first of them."""
    order = CASES["double"][0]
    bound = Bound("statistics", "max_value", MAX, order.key, exact=False)  # type: ignore[arg-type]
    array = np.array([-1.0, -0.0, 0.0])
    findings = check_bound(bound, DOUBLE.pack(-2.0), array, order, REPORT)
    assert [finding.message for finding in findings] == ["max_value -2.0 is less than the largest value -0.0"]
    assert findings == check_bound(bound, DOUBLE.pack(-2.0), array.tolist(), order, REPORT)
