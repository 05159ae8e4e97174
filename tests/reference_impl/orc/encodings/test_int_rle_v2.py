"""ORCv1.md, 'Integer Run Length Encoding, version 2': 'Short Repeat', 'Direct', 'Patched
Base' and 'Delta', each spec example built field by field; round trips of every forced
sub-encoding over the 64-bit ranges; positioned reading; corrupt runs."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reference_impl.orc.encodings.bit_packing import pack
from reference_impl.orc.encodings.int_rle_v2 import (
    IntRleV2Reader,
    SubEncoding,
    decode_ints_v2,
    encode_ints_v2,
    sub_encodings,
)
from reference_impl.orc.errors import CorruptRle
from reference_impl.orc.varint import write_svarint, write_uvarint

INT64_MIN, INT64_MAX, UINT64_MAX = -(1 << 63), (1 << 63) - 1, (1 << 64) - 1


def length_header(encoding: SubEncoding, width_code: int, length: int) -> bytes:
    """2 bits of encoding, 5 bits of width code, 9 bits of length - 1."""
    stored = length - 1
    return bytes([encoding << 6 | width_code << 1 | stored >> 8, stored & 0xFF])


def patched_base(width_code: int, length: int, base: bytes, patch_width_code: int, gap_width: int,
                 entry_count: int, packed: bytes) -> bytes:
    """The 4-byte header (3 bits of base bytes - 1, 5 bits of patch width code, 3 bits of
    gap width - 1, 5 bits of patch count), the base, then the packed values and patches."""
    header = length_header(SubEncoding.PATCHED_BASE, width_code, length)
    header += bytes([(len(base) - 1) << 5 | patch_width_code, (gap_width - 1) << 5 | entry_count])
    return header + base + packed


SHORT_REPEAT_VALUES = [10000] * 5
# "short repeat encoding (0), a width of 2 bytes (1), and repeat count of 5 (2)"
SHORT_REPEAT_BYTES = bytes([SubEncoding.SHORT_REPEAT << 6 | 1 << 3 | 5 - 3]) + (10000).to_bytes(2, "big")

DIRECT_VALUES = [23713, 43806, 57005, 48879]
# "direct encoding (1), a width of 16 bits (15), and length of 4 (3)"
DIRECT_BYTES = length_header(SubEncoding.DIRECT, 15, 4) + pack(DIRECT_VALUES, 16)

PATCHED_VALUES = [2030, 2000, 2020, 1000000, 2040, 2050, 2060, 2070, 2080, 2090, 2100, 2110, 2120,
                  2130, 2140, 2150, 2160, 2170, 2180, 2190]
_REDUCED = [value - 2000 for value in PATCHED_VALUES]
# "a bit width of 8 (7), a length of 20 (19), a base value width of 2 bytes (1), a patch
# width of 12 bits (11), patch gap width of 2 bits (1), and a patch list length of 1 (1)";
# the one patch is gap 3 (index 3), the bits of 998000 above the low 8, in 2 + 12 = 14 bits.
PATCHED_BYTES = patched_base(7, 20, (2000).to_bytes(2, "big"), 11, 2, 1,
                             pack([value & 0xFF for value in _REDUCED], 8)
                             + pack([3 << 12 | 998000 >> 8], 14))

DELTA_VALUES = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29]
# "delta encoding (3), a width of 4 bits (3), length of 10 (9), a base of 2 (2), and first
# delta of 1 (2)", then the 8 further deltas in 4 bits each
DELTA_BYTES = (length_header(SubEncoding.DELTA, 3, 10) + write_uvarint(2) + write_svarint(1)
               + pack([2, 2, 4, 2, 4, 2, 4, 6], 4))


@pytest.mark.parametrize(("values", "encoded", "spec_bytes", "encoding"), [
    (SHORT_REPEAT_VALUES, SHORT_REPEAT_BYTES, [0x0A, 0x27, 0x10], SubEncoding.SHORT_REPEAT),
    (DIRECT_VALUES, DIRECT_BYTES, [0x5E, 0x03, 0x5C, 0xA1, 0xAB, 0x1E, 0xDE, 0xAD, 0xBE, 0xEF],
     SubEncoding.DIRECT),
    (PATCHED_VALUES, PATCHED_BYTES,
     [0x8E, 0x13, 0x2B, 0x21, 0x07, 0xD0, 0x1E, 0x00, 0x14, 0x70, 0x28, 0x32, 0x3C, 0x46, 0x50, 0x5A,
      0x64, 0x6E, 0x78, 0x82, 0x8C, 0x96, 0xA0, 0xAA, 0xB4, 0xBE, 0xFC, 0xE8], SubEncoding.PATCHED_BASE),
    (DELTA_VALUES, DELTA_BYTES, [0xC6, 0x09, 0x02, 0x02, 0x22, 0x42, 0x42, 0x46], SubEncoding.DELTA),
])
def test_spec_examples(values: list[int], encoded: bytes, spec_bytes: list[int],
                       encoding: SubEncoding) -> None:
    assert encoded == bytes(spec_bytes)
    assert decode_ints_v2(encoded, len(values), signed=False) == values
    assert sub_encodings(encoded, len(values), signed=False) == [encoding]
    # The writer picks the same sub-encoding and widths as the spec's examples.
    assert encode_ints_v2(values, signed=False) == encoded


def test_patched_base_negative_base_and_long_gaps() -> None:
    """A base with its sign bit set is negated; gaps over 255 take (255, patch 0) entries."""
    values = [-1000 + index % 7 for index in range(512)]
    values[0] = values[511] = 1 << 40
    encoded = encode_ints_v2(values, signed=True, force=SubEncoding.PATCHED_BASE)
    # base -1000 in 2 bytes, its sign in the top bit
    assert encoded[4:6] == (1000 | 0x8000).to_bytes(2, "big")
    # gaps 0 and 511: (0, patch), (255, 0), (255, 0), (1, patch)
    assert encoded[3] & 0x1F == 4
    assert decode_ints_v2(encoded, 512, signed=True) == values


def test_patched_base_with_a_64_bit_patch() -> None:
    """A patch that would need 64 bits is 56 bits over 8 packed bits."""
    values = [3] * 30 + [UINT64_MAX]
    encoded = encode_ints_v2(values, signed=False, force=SubEncoding.PATCHED_BASE)
    assert decode_ints_v2(encoded, len(values), signed=False) == values


def test_writer_runs() -> None:
    values = [1, 5, 5, 5, 5, 9, 9, 2] + [3] * 12 + list(range(0, 100, 3))
    encoded = encode_ints_v2(values, signed=True)
    assert sub_encodings(encoded, len(values), signed=True) == [
        SubEncoding.DIRECT, SubEncoding.SHORT_REPEAT, SubEncoding.DIRECT, SubEncoding.DELTA,
        SubEncoding.DELTA]
    assert decode_ints_v2(encoded, len(values), signed=True) == values


def test_runs_are_at_most_512_values() -> None:
    encoded = encode_ints_v2([7] * 1100, signed=False)
    assert sub_encodings(encoded, 1100, signed=False) == [SubEncoding.DELTA] * 3


SIGNED = st.integers(INT64_MIN, INT64_MAX) | st.integers(-20, 20) | st.sampled_from([INT64_MIN, INT64_MAX])
UNSIGNED = st.integers(0, UINT64_MAX) | st.integers(0, 20) | st.sampled_from([UINT64_MAX, INT64_MAX + 1])


@given(st.booleans(), st.data())
def test_round_trip(signed: bool, data: st.DataObject) -> None:
    values = data.draw(st.lists(SIGNED if signed else UNSIGNED, max_size=700))
    encoded = encode_ints_v2(values, signed=signed)
    assert decode_ints_v2(encoded, len(values), signed=signed) == values


@given(st.booleans(), st.sampled_from([SubEncoding.DIRECT, SubEncoding.DELTA]), st.data())
def test_forced_round_trip(signed: bool, force: SubEncoding, data: st.DataObject) -> None:
    values = data.draw(st.lists(SIGNED if signed else UNSIGNED, min_size=1, max_size=600))
    encoded = encode_ints_v2(values, signed=signed, force=force)
    assert decode_ints_v2(encoded, len(values), signed=signed) == values
    assert set(sub_encodings(encoded, len(values), signed=signed)) == {force}


@given(st.booleans(), st.lists(st.tuples(st.integers(-5, (1 << 63) - 1), st.integers(3, 25)), min_size=1))
def test_forced_short_repeat(signed: bool, groups: list[tuple[int, int]]) -> None:
    values = [abs(value) if not signed else value for value, count in groups for _ in range(count)]
    encoded = encode_ints_v2(values, signed=signed, force=SubEncoding.SHORT_REPEAT)
    assert decode_ints_v2(encoded, len(values), signed=signed) == values
    assert set(sub_encodings(encoded, len(values), signed=signed)) == {SubEncoding.SHORT_REPEAT}


@given(st.booleans(), st.lists(st.integers(0, 1000), min_size=20, max_size=511), st.data())
def test_forced_patched_base(signed: bool, small: list[int], data: st.DataObject) -> None:
    base = data.draw(st.integers(-(1 << 40), 1 << 40) if signed else st.integers(0, 1 << 40))
    outlier = data.draw(st.integers(1 << 20, (1 << 62)))
    values = [base + value for value in small]
    values.insert(data.draw(st.integers(0, len(values))), base + outlier)
    encoded = encode_ints_v2(values, signed=signed, force=SubEncoding.PATCHED_BASE)
    assert decode_ints_v2(encoded, len(values), signed=signed) == values
    assert sub_encodings(encoded, len(values), signed=signed) == [SubEncoding.PATCHED_BASE]


def test_force_that_cannot_express_the_values() -> None:
    with pytest.raises(ValueError, match="repeats 2 times"):
        encode_ints_v2([1, 1, 1, 2, 2], signed=False, force=SubEncoding.SHORT_REPEAT)
    with pytest.raises(ValueError, match="needs outliers"):
        encode_ints_v2(list(range(100)), signed=False, force=SubEncoding.PATCHED_BASE)


def test_forced_delta_splits_at_a_change_of_direction() -> None:
    values = [1, 2, 4, 3, 1, 1, 0]
    encoded = encode_ints_v2(values, signed=False, force=SubEncoding.DELTA)
    assert sub_encodings(encoded, len(values), signed=False) == [SubEncoding.DELTA] * 2
    assert decode_ints_v2(encoded, len(values), signed=False) == values


def test_start_at_a_run_and_skip_inside_it() -> None:
    first = encode_ints_v2([10000] * 5, signed=False)
    encoded = first + DIRECT_BYTES
    reader = IntRleV2Reader(encoded, start=len(first), signed=False)
    reader.skip(2)
    assert reader.read(2).tolist() == DIRECT_VALUES[2:]
    assert reader.exhausted
    with pytest.raises(CorruptRle, match="1 values short"):
        reader.read(1)


@pytest.mark.parametrize(("data", "where", "message"), [
    (bytes([0x5E]), 0, "2-byte Direct header"),
    (bytes([0x0A, 0x27]), 1, "2-byte Short Repeat value"),
    (bytes([0x5E, 0x03, 0x5C]), 2, "need 8 bytes"),
    (bytes([0x8E, 0x13, 0x2B]), 0, "4-byte Patched Base header"),
    # patch width 64 (31) and gap width 8 do not fit one 64-bit entry
    (patched_base(7, 20, b"\x01", 31, 8, 1, bytes(40)), 0, "exceed 64 bits"),
    # a gap of 25 in a run of 20 values (gap width 5, patch width 1)
    (patched_base(0, 20, b"\x01", 0, 5, 1, pack([0] * 20, 1) + pack([25 << 1 | 1], 6)), 8,
     "index 25 of a run of 20"),
    # Delta with 2-bit deltas but a first delta of 0
    (length_header(SubEncoding.DELTA, 1, 3) + write_uvarint(5) + write_svarint(0) + b"\x40", 0,
     "nonzero first delta"),
    # Delta base varint cut off
    (length_header(SubEncoding.DELTA, 0, 3) + b"\x80", 2, "varint runs past"),
    # 2**64 - 1 then + 1: outside the unsigned 64-bit range
    (length_header(SubEncoding.DELTA, 0, 2) + write_uvarint(UINT64_MAX) + write_svarint(1), 0,
     "outside the unsigned 64-bit range"),
])
def test_corrupt(data: bytes, where: int, message: str) -> None:
    with pytest.raises(CorruptRle, match=message) as caught:
        decode_ints_v2(data, 3, signed=False, base_offset=4000)
    assert caught.value.offset == 4000 + where


def test_encode_rejects_values_outside_64_bits() -> None:
    with pytest.raises(ValueError, match="index 0"):
        encode_ints_v2([UINT64_MAX + 1], signed=False)
