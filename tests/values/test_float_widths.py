"""A float of 16 or 32 bits is a double carrying its bits exactly (docs/canonical-values.md).

A NaN of the narrow width keeps its payload as the top bits of the double's
mantissa, so a double NaN with payload bits below those is no value of that
width: validation refuses it instead of letting a writer drop the bits.
"""

from __future__ import annotations

import pytest

from conformance.values import CanonicalValueError, validate
from conformance.values import types as T
from conformance.values.codec import fits_float_width, float_from_bits

# (width, double bit pattern): NaNs whose payload the narrow mantissa holds.
FITTING = [
    (32, 0x7FF0000020000000),  # FLOAT 0x7f800001, signalling
    (32, 0xFFF0000020000000),  # FLOAT 0xff800001
    (32, 0x7FFFFFFFE0000000),  # FLOAT 0x7fffffff
    (16, 0x7FF0040000000000),  # FLOAT16 0x7c01, signalling
    (64, 0x7FF0000000000001),  # any double is a DOUBLE
]
# NaNs with a payload bit below the top 23 (FLOAT) or 10 (FLOAT16) mantissa bits.
NOT_FITTING = [
    (32, 0x7FF0000000000001),  # payload only in the low bits: narrowing would make it infinity
    (32, 0x7FF8000010000000),  # quiet, bit 28 set: one bit below a FLOAT's mantissa
    (32, 0xFFF0000000000001),
    (16, 0x7FF8000000000001),
    (16, 0x7FF0020000000000),  # bit 41: one below a FLOAT16's mantissa
]


@pytest.mark.parametrize(("bits", "double"), FITTING, ids=[f"{b}-{d:016x}" for b, d in FITTING])
def test_a_nan_whose_payload_fits_is_a_value(bits: int, double: int) -> None:
    value = float_from_bits(double)
    assert fits_float_width(value, bits)
    validate(T.floating(bits), value)  # raises if refused


@pytest.mark.parametrize(("bits", "double"), NOT_FITTING, ids=[f"{b}-{d:016x}" for b, d in NOT_FITTING])
def test_a_nan_whose_payload_does_not_fit_is_refused(bits: int, double: int) -> None:
    value = float_from_bits(double)
    assert not fits_float_width(value, bits)
    with pytest.raises(CanonicalValueError, match=f"not exactly representable in {bits} bits"):
        validate(T.floating(bits), value)


@pytest.mark.parametrize(("bits", "value"), [(32, 0.1), (32, 1e39), (16, 0.1), (16, 65520.0)])
def test_a_number_that_would_round_or_overflow_is_refused(bits: int, value: float) -> None:
    assert not fits_float_width(value, bits)
