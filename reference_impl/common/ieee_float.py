"""IEEE 754 floats of 16, 32 and 64 bits as Python floats, every bit kept.

Both formats store IEEE 754 bits: Parquet's Encodings.md, 'Plain: (PLAIN = 0)':
"FLOAT: 4 bytes IEEE little endian", "DOUBLE: 8 bytes IEEE little endian", and
LogicalTypes.md, 'FLOAT16': "the 2-byte IEEE little-endian format"; ORC's FLOAT and
DOUBLE columns (ORCv1.md, 'Float and Double Columns'). IEEE 754 binary16, binary32
and binary64 share one layout: a sign bit, an exponent (all ones: infinity or NaN)
and a mantissa.

A value of any width is held as the Python float (an IEEE double) of the same
value. Numbers and infinities widen exactly through the hardware conversion,
but that conversion quiets a signalling NaN (sets the top mantissa bit), so a
NaN is widened here bit by bit: its sign, and its mantissa as the top bits of
the double's mantissa (the widening IEEE 754 recommends for NaN payloads).
Every bit pattern of a narrow float is then a distinct double.

Narrowing is the inverse and only that: a double whose narrow form would round,
overflow, or drop NaN payload bits below the narrow mantissa is not a value of
that width, and is refused with :class:`ValueError` naming it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = ["DOUBLE_BITS", "narrow_float_bits", "widen_float_array", "widen_float_bits"]

DOUBLE_BITS = 64
DOUBLE_MANTISSA_BITS = 52
DOUBLE_EXPONENT_ALL_ONES = 0x7FF


class _Layout:
    """One IEEE 754 binary format: its bit-pattern and float dtypes, its field widths."""

    def __init__(self, bits: int, exponent_bits: int, float_dtype: type[np.floating]) -> None:
        self.bits = bits
        self.mantissa_bits = bits - 1 - exponent_bits
        self.exponent_all_ones = (1 << exponent_bits) - 1
        self.uint = np.dtype(f"u{bits // 8}")
        self.float = np.dtype(float_dtype)


_LAYOUTS = {16: _Layout(16, 5, np.float16), 32: _Layout(32, 8, np.float32), 64: _Layout(64, 11, np.float64)}
# The Parquet type of each width, for messages.
_FLOAT_NAMES = {16: "FLOAT16", 32: "FLOAT", 64: "DOUBLE"}


def widen_float_bits(raw: np.ndarray, bits: int) -> list[float]:
    """The Python floats of the IEEE bit patterns ``raw`` (unsigned ints of ``bits`` bits)."""
    return widen_float_array(raw, bits).tolist()


def widen_float_array(raw: np.ndarray, bits: int) -> np.ndarray:
    """:func:`widen_float_bits` as a float64 array (its ``tolist()`` is that list)."""
    return _widen(np.asarray(raw), _LAYOUTS[bits]).view(np.float64)


def narrow_float_bits(doubles: np.ndarray | Sequence[float], bits: int) -> np.ndarray:
    """The IEEE bit patterns (unsigned ints of ``bits`` bits) holding exactly ``doubles``.

    ValueError if one has no exact form of that width (see the module docstring).
    """
    layout = _LAYOUTS[bits]
    wide = np.asarray(doubles, dtype=np.float64)
    if bits == DOUBLE_BITS:
        return wide.view(np.uint64).copy()
    with np.errstate(over="ignore", invalid="ignore"):  # refused below; NaNs are rebuilt
        narrow = wide.astype(layout.float).view(layout.uint)
    nan = np.isnan(wide)
    wide_bits = wide.view(np.uint64)
    if nan.any():
        payload = (wide_bits[nan] & _mask(DOUBLE_MANTISSA_BITS)) >> np.uint64(_payload_shift(layout))
        sign = wide_bits[nan] >> np.uint64(DOUBLE_BITS - 1)
        exponent = np.uint64(layout.exponent_all_ones << layout.mantissa_bits)
        narrow[nan] = (sign << np.uint64(bits - 1) | exponent | payload).astype(layout.uint)
    _refuse_inexact(wide_bits, _widen(narrow, layout), bits)
    return narrow


def _widen(raw: np.ndarray, layout: _Layout) -> np.ndarray:
    """The double bit patterns (uint64) of the narrow bit patterns ``raw``."""
    raw = raw.astype(layout.uint, copy=False)
    if layout.bits == DOUBLE_BITS:
        return raw
    with np.errstate(invalid="ignore"):  # NaNs are rebuilt below
        wide = raw.view(layout.float).astype(np.float64).view(np.uint64)
    exponent = (raw >> layout.uint.type(layout.mantissa_bits)) & layout.uint.type(layout.exponent_all_ones)
    mantissa = (raw & _mask(layout.mantissa_bits).astype(layout.uint)).astype(np.uint64)
    nan = (exponent == layout.exponent_all_ones) & (mantissa != 0)
    if nan.any():
        sign = raw[nan].astype(np.uint64) >> np.uint64(layout.bits - 1)
        exponent_bits = np.uint64(DOUBLE_EXPONENT_ALL_ONES << DOUBLE_MANTISSA_BITS)
        payload = mantissa[nan] << np.uint64(_payload_shift(layout))
        wide[nan] = sign << np.uint64(DOUBLE_BITS - 1) | exponent_bits | payload
    return wide


def _refuse_inexact(wide_bits: np.ndarray, back: np.ndarray, bits: int) -> None:
    """ValueError naming the first double that did not survive the narrowing."""
    changed = np.flatnonzero(back != wide_bits)
    if changed.size:
        index = int(changed[0])
        pattern = int(wide_bits[index])
        value = float(wide_bits[index : index + 1].view(np.float64)[0])
        raise ValueError(
            f"value {index}: {value!r} (double 0x{pattern:016X}) has no exact {_FLOAT_NAMES[bits]} form "
            f"(it would round, overflow or lose NaN payload bits)"
        )


def _payload_shift(layout: _Layout) -> int:
    """A narrow mantissa is the top bits of the double's."""
    return DOUBLE_MANTISSA_BITS - layout.mantissa_bits


def _mask(bits: int) -> np.uint64:
    return np.uint64((1 << bits) - 1)
