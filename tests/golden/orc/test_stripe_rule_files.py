"""Each ORC file of a stripe's rules and of a lenient rule (conformance/golden/orc/
stripe_rule_files.py, lenient_files.py) holds its one fault and nothing else.

Expected facts come from the entries' definitions and ORCv1.md ('Stripes', 'Stripe
Footer', 'Row Group Index', 'File Tail'), read from the files with the corpus's own
locators (``_stripe``, ``_tail``), never from an engine under test. That the reference
rejects each with its class (strictly) and reads the acceptable ones leniently is
tests/golden/orc/test_bad_files.py's.
"""

from __future__ import annotations

import dataclasses
import tracemalloc

import pytest

from conformance.golden.orc import bad_files as orc
from conformance.golden.orc import lenient_files as lenient
from conformance.golden.orc import stripe_rule_files as rules
from reference_impl.common.leniency import reading
from reference_impl.orc import errors
from reference_impl.orc.encodings.int_rle_v2 import decode_ints_v2
from reference_impl.orc.metadata.orc_proto import RowIndex, decode
from reference_impl.orc.metadata.proto_enums import StreamKind
from reference_impl.orc.reader import read_orc

X = orc.FIRST_COLUMN
ELEMENT = X + 1  # a LIST's element column, a UNION's first variant
ALLOCATION_CEILING_BYTES = 16 << 20  # far below what 2^31 rows of anything would take
LEN_KEY_OF_FIELD_11 = bytes([11 << 3 | 2])  # ColumnStatistics.bytesOnDisk, wire type LEN


def _lengths(raw: bytes) -> list[int]:
    return [stream.length or 0 for stream in orc._stripe(raw).footer.streams]


def _stored(raw: bytes) -> bytes:
    """The stripe's index and data areas, as stored."""
    (information,) = orc._tail(raw).footer.stripes
    start = information.offset or 0
    return raw[start:start + (information.index_length or 0) + (information.data_length or 0)]


@pytest.mark.parametrize(("make", "original", "first", "second", "shift"), [
    (rules.data_stream_in_index_area, rules.indexed_ints, (X, StreamKind.ROW_INDEX), (X, StreamKind.PRESENT),
     -16),
    (rules.length_takes_data, rules.int_lists, (X, StreamKind.LENGTH), (ELEMENT, StreamKind.DATA), 3),
    (rules.present_takes_data, orc.ints, (X, StreamKind.PRESENT), (X, StreamKind.DATA), 1),
])
def test_a_moved_boundary_changes_two_listed_lengths_and_no_stored_byte(make, original, first, second,
                                                                          shift) -> None:
    before = orc._stripe(original())
    assert _stored(make()) == _stored(original())
    old, new = _lengths(original()), _lengths(make())
    changed = {number: (old[number], new[number]) for number in range(len(old)) if old[number] != new[number]}
    one, two = before.position(*first), before.position(*second)
    assert two == one + 1  # the second stream follows the first
    assert changed == {one: (len(before.streams[one]), len(before.streams[one]) + shift),
                       two: (len(before.streams[two]), len(before.streams[two]) - shift)}
    assert sum(_lengths(make())) == sum(_lengths(original()))


def test_the_data_stream_in_the_index_area_begins_before_the_data_area() -> None:
    raw = rules.data_stream_in_index_area()
    (information,) = orc._tail(raw).footer.stripes
    stripe = orc._stripe(raw)
    index_streams = [s.length or 0 for s in stripe.footer.streams if s.kind == StreamKind.ROW_INDEX]
    assert sum(index_streams) == (information.index_length or 0) - rules.INDEX_SHIFT


def test_the_gap_lies_between_present_and_data_and_no_stream_lists_it() -> None:
    original, raw = orc.ints(), rules.gap_between_streams()
    assert orc._stripe(raw).footer == orc._stripe(original).footer
    before = orc._stripe(original)
    present_end = len(before.data(X, StreamKind.PRESENT))
    assert _stored(raw) == _stored(original)[:present_end] + rules.GAP + _stored(original)[present_end:]


@pytest.mark.parametrize(("make", "original", "key", "kind"), [
    (rules.present_as_encrypted_data, orc.ints, (X, StreamKind.PRESENT), StreamKind.ENCRYPTED_DATA),
    (rules.secondary_as_present, rules.decimals, (X, StreamKind.SECONDARY), StreamKind.PRESENT),
])
def test_a_relabelled_stream_changes_one_kind(make, original, key, kind) -> None:
    before, after = orc._stripe(original()), orc._stripe(make())
    number = before.position(*key)
    assert after.footer.streams[number] == dataclasses.replace(before.footer.streams[number], kind=kind)
    assert [s for i, s in enumerate(after.footer.streams) if i != number] == [
        s for i, s in enumerate(before.footer.streams) if i != number]
    assert after.streams == before.streams
    assert not orc._tail(original()).postscript.stripe_statistics_length  # no encryption in the file


def test_the_missing_data_stream_is_the_one_thing_gone() -> None:
    before, after = orc._stripe(rules.dense_ints()), orc._stripe(rules.data_stream_missing())
    number = before.position(X, StreamKind.DATA)
    assert list(after.footer.streams) == [s for i, s in enumerate(before.footer.streams) if i != number]
    assert (X, StreamKind.DATA) not in {(s.column, s.kind) for s in after.footer.streams}


def test_the_surplus_union_value_is_one_more_than_the_tags_select() -> None:
    before, after = orc._stripe(rules.null_unions()), orc._stripe(rules.surplus_union_value())
    tags_of_variant_0 = sum(1 for row in range(orc.ROWS) if row != rules.NULL_ROW and row % 2 == 0)
    values = decode_ints_v2(after.data(ELEMENT, StreamKind.DATA), tags_of_variant_0 + 1, signed=True)
    assert values == [0, rules.SURPLUS_VALUE, 4, 6, 8]  # the null row 2's place, among the others
    original = decode_ints_v2(before.data(ELEMENT, StreamKind.DATA), tags_of_variant_0, signed=True)
    assert original == [0, 4, 6, 8]


@pytest.mark.parametrize(("make", "original", "rows"), [
    (rules.rows_lowered, orc.ints, orc.ROWS - 1),
    (rules.rows_raised, orc.ints, orc.ROWS + 1),
    (rules.huge_row_count, rules.dense_ints, 1 << 31),
])
def test_the_row_counts_change_together_and_nothing_else(make, original, rows) -> None:
    before, after = orc._tail(original()).footer, orc._tail(make()).footer
    (stripe_before,), (stripe_after,) = before.stripes, after.stripes
    assert after.number_of_rows == stripe_after.number_of_rows == rows
    assert stripe_after == dataclasses.replace(stripe_before, number_of_rows=rows)
    assert after == dataclasses.replace(before, number_of_rows=rows, stripes=[stripe_after])
    assert make()[:orc._tail(make()).metadata_offset] == original()[:orc._tail(original()).metadata_offset]


def test_the_huge_row_count_is_refused_without_a_big_allocation() -> None:
    raw = rules.huge_row_count()
    assert StreamKind.PRESENT not in {s.kind for s in orc._stripe(raw).footer.streams}
    tracemalloc.start()
    try:
        with pytest.raises(errors.CorruptMetadata):
            read_orc(raw)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < ALLOCATION_CEILING_BYTES


def test_the_stripe_statistics_count_one_value_fewer() -> None:
    before, after = orc._tail(orc.ints()).metadata, orc._tail(rules.stripe_statistics_count()).metadata
    assert before is not None and after is not None
    column_before, column_after = before.stripe_stats[0].col_stats[X], after.stripe_stats[0].col_stats[X]
    fewer = (column_before.number_of_values or 0) - 1
    assert column_after == dataclasses.replace(column_before, number_of_values=fewer)
    assert orc._tail(rules.stripe_statistics_count()).footer == orc._tail(orc.ints()).footer


def test_the_row_index_keeps_one_entry_of_two() -> None:
    def entries(raw: bytes) -> list:
        return decode(RowIndex, orc._stripe(raw).data(X, StreamKind.ROW_INDEX)).entry

    original = entries(rules.indexed_ints())
    assert orc._tail(rules.indexed_ints()).footer.row_index_stride == rules.ROW_GROUP_ROWS
    assert len(original) == orc.ROWS // rules.ROW_GROUP_ROWS == 2
    assert entries(rules.row_index_entry_missing()) == original[:1]


def test_the_files_of_neither_format() -> None:
    assert orc.empty_file() == b""
    raw, original = orc.parquet_magic(), orc.ints()
    assert raw[:4] == b"PAR1" and raw[4:] == original[3:]


def test_the_statistics_field_of_another_wire_type_is_the_one_change() -> None:
    original, raw = orc.ints(), lenient.statistics_field_wire_type()
    with reading():  # the Metadata breaks FIELD_WIRE_TYPE: read leniently to locate it
        tail_before, tail_after = orc._tail(original), orc._tail(raw)
    metadata = raw[tail_after.metadata_offset:tail_after.footer_offset]
    assert LEN_KEY_OF_FIELD_11 + bytes([1]) + lenient.BYTES_ON_DISK_AS_BYTES in metadata
    assert len(metadata) == tail_before.footer_offset - tail_before.metadata_offset + 3  # key, length, byte
    assert raw[:tail_after.metadata_offset] == original[:tail_before.metadata_offset]


def test_the_unknown_struct_encoding_is_the_root_columns() -> None:
    before, after = orc._stripe(orc.ints()), orc._stripe(lenient.struct_encoding_unknown())
    assert after.footer.columns[lenient.ROOT_COLUMN].kind == orc.UNKNOWN_ENUM_VALUE
    assert after.footer.columns[1:] == before.footer.columns[1:]
    assert after.streams == before.streams


@pytest.mark.parametrize("original", [rules.indexed_ints, rules.dense_ints, rules.decimals, rules.int_lists,
                                      rules.null_unions], ids=lambda make: make.__name__)
def test_the_new_originals_regenerate_byte_for_byte_and_read(original) -> None:
    """Deterministic: written anew (past the cache), each original has the same bytes."""
    assert original.__wrapped__() == original()
    assert len(read_orc(original()).rows) == orc.ROWS
