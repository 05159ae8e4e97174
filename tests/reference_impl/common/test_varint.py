"""The neutral floor's varints (reference_impl/common/varint.py), built byte by byte:
ULEB128 with the width each reader names and the error class of its format, and zigzag of
a bounded or any width."""

from __future__ import annotations

import pytest

from reference_impl.common.varint import decode_uleb128, encode_uleb128, zigzag_decode, zigzag_encode


class FormatError(Exception):
    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.offset = offset


def test_uleb128_example() -> None:
    # 300 = 0b10_0101100: the low 7 bits 0101100 with the continuation bit, then 0b10.
    assert encode_uleb128(300) == bytes([0b1010_1100, 0b0000_0010])
    assert decode_uleb128(b"\xac\x02", 0, 2, bits=32, error=FormatError, what="n") == (300, 2)


def test_the_width_bounds_the_varint_and_the_error_is_the_callers() -> None:
    too_wide = encode_uleb128(1 << 32)
    with pytest.raises(FormatError, match="does not fit in 32 bits") as raised:
        decode_uleb128(too_wide, 0, len(too_wide), bits=32, error=FormatError, what="n",
                       base_offset=100)
    assert raised.value.offset == 100
    assert decode_uleb128(too_wide, 0, len(too_wide), bits=64, error=FormatError, what="n")[0] == 1 << 32


def test_a_varint_cut_off_names_where_it_started() -> None:
    with pytest.raises(FormatError, match="runs past the end") as raised:
        decode_uleb128(b"\x00\x80\x80", 1, 3, bits=64, error=FormatError, what="n", base_offset=10)
    assert raised.value.offset == 11


def test_an_endless_continuation_is_refused_at_the_widths_byte_count() -> None:
    with pytest.raises(FormatError, match="longer than the 19 bytes"):
        decode_uleb128(b"\xff" * 40, 0, 40, bits=128, error=FormatError, what="n")


@pytest.mark.parametrize(("signed", "unsigned"), [(0, 0), (-1, 1), (1, 2), (-2, 3), (2**63 - 1, 2**64 - 2),
                                                  (-(2**63), 2**64 - 1)])
def test_zigzag(signed: int, unsigned: int) -> None:
    assert zigzag_encode(signed, 64) == unsigned == zigzag_encode(signed)
    assert zigzag_decode(unsigned) == signed


def test_zigzag_of_any_width_and_a_bounded_one() -> None:
    wide = -(2**127)
    assert zigzag_decode(zigzag_encode(wide)) == wide
    with pytest.raises(ValueError, match="outside the signed 64-bit range"):
        zigzag_encode(wide, 64)
