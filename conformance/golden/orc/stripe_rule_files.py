"""ORC bad files of a stripe's rules: where streams lie, which streams a column has, how
much of each it reads, and how many rows there are.

Each rule is one the reference reader enforces (issue 26, 'An honest verdict for every
ORC file'); each file breaks it once and, read by a reader that does not check it,
gives other rows than its original's:

* ORCv1.md 'Stripes' and 'Stripe Footer': the streams tile the stripe's index and data
  areas exactly as the StripeFooter lists them (streams/stripe.py): a data stream that
  begins inside the index area, bytes no stream lists;
* ORCv1.md 'Column Encodings': a column has the streams its encoding names and no other
  (columns/registry.py), and each stream is consumed exactly, a Boolean RLE stream's
  last byte's padding bits aside (streams/stripe.py, ``check_consumed``); 'Union
  Columns': a variant holds the values its tags select, no more;
* ORCv1.md 'Footer', 'Stripe Information', 'Column Statistics' and 'Row Group Index':
  the row counts agree (row_counts.py), and a row count is no more than the stripe's
  bytes can hold, so no reader allocates for it (streams/stripe.py, ``row_budget``).

As in bad_files.py, each file is the reference writer's small valid file with one thing
changed, found through the file's own tail and stripe footer; a changed length in the
StripeFooter moves no stored byte (``_with_listed``), so the streams after it begin
elsewhere.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import cache

from conformance.formats import ORC
from reference_impl.orc.encodings.int_rle_v2 import decode_ints_v2, encode_ints_v2
from reference_impl.orc.metadata.orc_proto import RowIndex, decode, encode
from reference_impl.orc.metadata.proto_enums import StreamKind, TypeKind
from reference_impl.orc.metadata.type_tree import decimal, list_of, primitive, union_of
from reference_impl.orc.writer_options import OrcWriterOptions

from ..bad_file import BadFile
from .bad_files import (
    FIRST_COLUMN,
    INT_COLUMN,
    ROWS,
    SPEC_FOOTER,
    SPEC_STRIPE_FOOTER,
    SPEC_STRIPE_INFORMATION,
    SPEC_STRIPES,
    SPEC_UNIONS,
    UNION_COLUMN,
    WORDS,
    _stripe,
    _tail,
    _with_footer,
    _with_listed,
    _with_stream,
    _with_stripe,
    _with_tail,
    _write,
    ints,
)

__all__ = ["stripe_rule_files"]

SPEC_ENCODINGS = "ORCv1.md: Column Encodings"
SPEC_DECIMALS = "ORCv1.md: Column Encodings, Decimal Columns"
SPEC_LISTS = "ORCv1.md: Column Encodings, List Columns"
SPEC_ROW_INDEX = "ORCv1.md: Indexes, Row Group Index"
SPEC_STATISTICS = "ORCv1.md: File Tail, Column Statistics"
SPEC_FILE_METADATA = "ORCv1.md: File Tail, File Metadata"
PROTO_STREAM_KIND = "orc_proto.proto: message Stream, enum Stream.Kind"

ROW_GROUP_ROWS = 5  # two row groups of ROWS rows: a ROW_INDEX of two entries per column
INDEX_SHIFT = 16  # bytes a ROW_INDEX gives up to the data stream after it
GAP = bytes(16)  # bytes no stream lists, between two data streams
LENGTH_SHIFT = 3  # bytes the LENGTH stream takes from the DATA stream after it
PRESENT_SHIFT = 1  # the byte the PRESENT stream takes from the DATA stream after it
HUGE_ROWS = 1 << 31  # far more rows than ten bytes of streams can hold
DECIMAL_PRECISION = 10
DECIMAL_SCALE = 2
LIST_COLUMN = "l"
DECIMAL_COLUMN = "d"
LIST_LENGTH = 3
NULL_ROW = 2  # the null union of null_unions(), a row whose tag would select variant 0
SURPLUS_VALUE = -1  # a value a variant holds for no row


# ---------------------------------------------------------------------------
# Valid originals
# ---------------------------------------------------------------------------


@cache
def indexed_ints() -> bytes:
    """ints() with a row index: row groups of ROW_GROUP_ROWS rows."""
    return _write([(INT_COLUMN, primitive(TypeKind.INT))], _int_rows(),
                  OrcWriterOptions(row_index_stride=ROW_GROUP_ROWS))


def _int_rows() -> list[dict[str, object]]:
    return [{INT_COLUMN: None if row % 3 == 1 else row} for row in range(ROWS)]


@cache
def dense_ints() -> bytes:
    """Column x, INT 0..ROWS-1, none null: no PRESENT stream."""
    return _write([(INT_COLUMN, primitive(TypeKind.INT))], [{INT_COLUMN: row} for row in range(ROWS)])


@cache
def decimals() -> bytes:
    """Column d, DECIMAL(10, 2), none null: DATA and SECONDARY streams only."""
    rows = [{DECIMAL_COLUMN: row * 101} for row in range(ROWS)]
    return _write([(DECIMAL_COLUMN, decimal(DECIMAL_PRECISION, DECIMAL_SCALE))], rows)


@cache
def int_lists() -> bytes:
    """Column l, LIST<INT> of [row, row + 1, row + 2]: the list's LENGTH, then its element's DATA."""
    rows = [{LIST_COLUMN: list(range(row, row + LIST_LENGTH))} for row in range(ROWS)]
    return _write([(LIST_COLUMN, list_of(primitive(TypeKind.INT)))], rows)


@cache
def null_unions() -> bytes:
    """Column u, UNION<INT, STRING>, alternating variants, row NULL_ROW null."""
    variants = union_of(primitive(TypeKind.INT), primitive(TypeKind.STRING))
    rows = [{UNION_COLUMN: None if row == NULL_ROW else (0, row) if row % 2 == 0 else (1, WORDS[row % 3])}
            for row in range(ROWS)]
    return _write([(UNION_COLUMN, variants)], rows)


# ---------------------------------------------------------------------------
# The faults: where the streams lie
# ---------------------------------------------------------------------------


def _shifted(raw: bytes, first: tuple[int, StreamKind], second: tuple[int, StreamKind], shift: int) -> bytes:
    """The StripeFooter lists ``first`` ``shift`` bytes longer and ``second``, the stream
    after it, ``shift`` bytes shorter (negative: the other way): the two still add up."""
    stripe = _stripe(raw)
    length = {key: len(stripe.data(*key)) for key in (first, second)}
    return _with_listed(raw, {first: {"length": length[first] + shift},
                              second: {"length": length[second] - shift}})


def data_stream_in_index_area() -> bytes:
    """Column x's ROW_INDEX listed 16 bytes shorter, its PRESENT 16 bytes longer."""
    return _shifted(indexed_ints(), (FIRST_COLUMN, StreamKind.ROW_INDEX), (FIRST_COLUMN, StreamKind.PRESENT),
                    -INDEX_SHIFT)


def gap_between_streams() -> bytes:
    """GAP inserted between column x's PRESENT and DATA; the StripeFooter unchanged."""
    raw = ints()
    stripe = _stripe(raw)
    streams = list(stripe.streams)
    present = stripe.position(FIRST_COLUMN, StreamKind.PRESENT)
    streams[present] += GAP
    return _with_stripe(raw, tuple(streams))


# ---------------------------------------------------------------------------
# The faults: which streams a column has, and how much of each it reads
# ---------------------------------------------------------------------------


def present_as_encrypted_data() -> bytes:
    return _with_listed(ints(), {(FIRST_COLUMN, StreamKind.PRESENT): {"kind": StreamKind.ENCRYPTED_DATA}})


def secondary_as_present() -> bytes:
    return _with_listed(decimals(), {(FIRST_COLUMN, StreamKind.SECONDARY): {"kind": StreamKind.PRESENT}})


def data_stream_missing() -> bytes:
    """Column x's DATA stream and its StripeFooter entry removed."""
    raw = dense_ints()
    stripe = _stripe(raw)
    number = stripe.position(FIRST_COLUMN, StreamKind.DATA)
    streams = stripe.streams[:number] + stripe.streams[number + 1:]
    listed = stripe.footer.streams[:number] + stripe.footer.streams[number + 1:]
    return _with_stripe(raw, streams, dataclasses.replace(stripe.footer, streams=listed))


def length_takes_data() -> bytes:
    element = FIRST_COLUMN + 1
    return _shifted(int_lists(), (FIRST_COLUMN, StreamKind.LENGTH), (element, StreamKind.DATA), LENGTH_SHIFT)


def present_takes_data() -> bytes:
    return _shifted(ints(), (FIRST_COLUMN, StreamKind.PRESENT), (FIRST_COLUMN, StreamKind.DATA),
                    PRESENT_SHIFT)


def surplus_union_value() -> bytes:
    """Variant 0's DATA holds a value at the null union's place among the others, as ORC
    C++ writes (docs/orc-spec-notes.md, note 15)."""
    raw = null_unions()
    variant = FIRST_COLUMN + 1
    values = decode_ints_v2(_stripe(raw).data(variant, StreamKind.DATA), ROWS // 2 - 1, signed=True)
    at = sum(1 for row in range(NULL_ROW) if row % 2 == 0)  # variant 0's rows before the null one
    values.insert(at, SURPLUS_VALUE)
    return _with_stream(raw, variant, StreamKind.DATA, encode_ints_v2(values, signed=True))


# ---------------------------------------------------------------------------
# The faults: row counts
# ---------------------------------------------------------------------------


def _with_rows(raw: bytes, rows: int) -> bytes:
    """The stripe's and the Footer's numberOfRows both ``rows``: the two agree."""
    footer = _tail(raw).footer
    (information,) = footer.stripes
    return _with_footer(raw, number_of_rows=rows,
                        stripes=[dataclasses.replace(information, number_of_rows=rows)])


def rows_lowered() -> bytes:
    return _with_rows(ints(), ROWS - 1)


def rows_raised() -> bytes:
    return _with_rows(ints(), ROWS + 1)


def huge_row_count() -> bytes:
    return _with_rows(dense_ints(), HUGE_ROWS)


def stripe_statistics_count() -> bytes:
    """Stripe 0's statistics count one non-null value fewer in column x."""
    raw = ints()
    tail = _tail(raw)
    assert tail.metadata is not None
    (stripe,) = tail.metadata.stripe_stats
    columns = list(stripe.col_stats)
    columns[FIRST_COLUMN] = dataclasses.replace(
        columns[FIRST_COLUMN], number_of_values=(columns[FIRST_COLUMN].number_of_values or 0) - 1)
    counted = dataclasses.replace(stripe, col_stats=columns)
    metadata = dataclasses.replace(tail.metadata, stripe_stats=[counted])
    return _with_tail(raw, tail.footer, metadata=metadata)


def row_index_entry_missing() -> bytes:
    """Column x's ROW_INDEX keeps its first entry only: one row group for two."""
    raw = indexed_ints()
    stripe = _stripe(raw)
    offset = stripe.offset(FIRST_COLUMN, StreamKind.ROW_INDEX)
    index = decode(RowIndex, stripe.data(FIRST_COLUMN, StreamKind.ROW_INDEX), offset)
    return _with_stream(raw, FIRST_COLUMN, StreamKind.ROW_INDEX, encode(RowIndex(entry=index.entry[:1])))


# ---------------------------------------------------------------------------
# The catalogue
# ---------------------------------------------------------------------------


def _entry(name: str, fault: str, error_class: str, spec: tuple[str, ...], make: Callable[[], bytes],
           original: Callable[[], bytes]) -> BadFile:
    return BadFile(f"orc-stripe/{name}", fault, error_class, spec, make, original, format=ORC)


def _layout_entries() -> list[BadFile]:
    return [
        _entry("data-stream-in-index-area", f"Column x's ROW_INDEX is listed {INDEX_SHIFT} bytes shorter "
               f"and its PRESENT {INDEX_SHIFT} bytes longer: PRESENT begins inside the index area.",
               "CorruptStream",
               (SPEC_STRIPES, SPEC_STRIPE_FOOTER), data_stream_in_index_area, indexed_ints),
        _entry("gap-between-streams", f"{len(GAP)} bytes no stream lists lie between column x's PRESENT and "
               "DATA streams (data_length counts them).", "CorruptStream", (SPEC_STRIPES, SPEC_STRIPE_FOOTER),
               gap_between_streams, ints),
    ]


def _stream_entries() -> list[BadFile]:
    return [
        _entry("present-as-encrypted-data", "Column x's PRESENT stream is relabelled ENCRYPTED_DATA in a "
               "file without encryption.", "CorruptStream", (SPEC_ENCODINGS, PROTO_STREAM_KIND),
               present_as_encrypted_data, ints),
        _entry("secondary-as-present", "A DECIMAL column's SECONDARY stream (the scales) is relabelled "
               "PRESENT.", "CorruptRle", (SPEC_DECIMALS, PROTO_STREAM_KIND), secondary_as_present, decimals),
        _entry("data-stream-missing", "Column x (INT, no nulls) has no DATA stream.", "CorruptRle",
               (SPEC_ENCODINGS, SPEC_STRIPE_FOOTER), data_stream_missing, dense_ints),
        _entry("length-takes-data", f"A LIST column's LENGTH stream is listed {LENGTH_SHIFT} bytes longer "
               f"and its element's DATA stream, after it, {LENGTH_SHIFT} bytes shorter.", "CorruptStream",
               (SPEC_LISTS, SPEC_ENCODINGS), length_takes_data, int_lists),
        _entry("present-takes-data", f"Column x's PRESENT stream is listed {PRESENT_SHIFT} byte longer and "
               f"its DATA stream, after it, {PRESENT_SHIFT} byte shorter.", "CorruptStream",
               (SPEC_ENCODINGS, SPEC_STRIPES), present_takes_data, ints),
        _entry("surplus-union-value", "A union's INT variant holds a value at the null union's place, one "
               "more than its tags select.", "CorruptStream", (SPEC_UNIONS,), surplus_union_value,
               null_unions),
    ]


def _row_count_entries() -> list[BadFile]:
    return [
        _entry("rows-lowered", f"The stripe's and the Footer's numberOfRows are both {ROWS - 1}, one less "
               "than the streams hold.", "CorruptStream",
               (SPEC_FOOTER, SPEC_STRIPE_INFORMATION, SPEC_STATISTICS), rows_lowered, ints),
        _entry("rows-raised", f"The stripe's and the Footer's numberOfRows are both {ROWS + 1}, one more "
               "than the streams hold.", "CorruptMetadata", (SPEC_FOOTER, SPEC_STRIPE_INFORMATION,
                                                             SPEC_STATISTICS), rows_raised, ints),
        _entry("huge-row-count", "The stripe's and the Footer's numberOfRows are both 2^31 in a file of "
               "one column without a PRESENT stream.", "CorruptMetadata",
               (SPEC_FOOTER, SPEC_STRIPE_INFORMATION), huge_row_count, dense_ints),
        _entry("stripe-statistics-count", "Stripe 0's statistics give column x one non-null value fewer "
               "than its streams hold.", "CorruptMetadata", (SPEC_FILE_METADATA, SPEC_STATISTICS),
               stripe_statistics_count, ints),
        _entry("row-index-entry-missing", f"Column x's ROW_INDEX has one entry; {ROWS} rows in row groups of "
               f"{ROW_GROUP_ROWS} make two.", "CorruptMetadata", (SPEC_ROW_INDEX,), row_index_entry_missing,
               indexed_ints),
    ]


def stripe_rule_files() -> list[BadFile]:
    """The ORC entries of the stripe's rules: all bad."""
    return [*_layout_entries(), *_stream_entries(), *_row_count_entries()]
