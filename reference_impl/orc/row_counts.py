"""Row counts agree across the Footer, the stripe information, the stripe statistics and
the row index.

ORCv1.md, 'Footer': ``numberOfRows`` is "the total number of rows in the file" and
``rowIndexStride`` "the maximum number of rows in each index entry"; 'Stripe
Information': a stripe's ``numberOfRows`` is "the number of rows in the stripe";
'Column Statistics': ``numberOfValues`` is "the number of values" of a column (ORC
Java and ORC C++ count the non-null ones, the root STRUCT's being its rows); 'File
Metadata': one StripeStatistics per stripe; 'Row Group Index': a column's RowIndex "has
an entry for each row group", a row group being ``rowIndexStride`` rows.

Every one of these is optional, and a count that is absent agrees with anything (a
Footer without ``numberOfRows`` is not a contradiction). In a file without a row index
(``rowIndexStride`` 0) a numberOfValues of 0 is taken as absent too: ORC Java and ORC C++
build a stripe's statistics from its row groups' and, with no row groups, write 0
(ORC Java for every column, ORC C++ for LIST columns; docs/orc-spec-notes.md, note 16).
One that is present and differs is :class:`CorruptMetadata` naming the stripe, the
column and where the count lies. With the streams consumed exactly (streams/stripe.py),
a stripe whose row count was lowered leaves values unread, and one raised reads past
its streams or, where every column has a PRESENT stream, reads nulls from the last
byte's padding: the statistics' counts of non-null values and of rows, checked here,
tell that case.
"""

from __future__ import annotations

from collections.abc import Sequence

from reference_impl.orc.errors import CorruptMetadata
from reference_impl.orc.metadata.file_tail import FileTail
from reference_impl.orc.metadata.orc_proto import ColumnStatistics, RowIndex, decode
from reference_impl.orc.metadata.proto_enums import StreamKind
from reference_impl.orc.streams.stripe import StripeStreams

__all__ = ["check_file_rows", "check_file_values", "check_stripe_rows"]


def check_file_rows(tail: FileTail) -> None:
    """The stripes' rows add up to the Footer's numberOfRows; the Metadata has one
    StripeStatistics per stripe."""
    footer = tail.footer
    total = sum(stripe.number_of_rows or 0 for stripe in footer.stripes)
    if footer.number_of_rows is not None and total != footer.number_of_rows:
        raise CorruptMetadata(f"the stripes hold {total} rows; the Footer's numberOfRows is "
                              f"{footer.number_of_rows}", tail.footer_offset)
    if tail.metadata is not None and tail.metadata.stripe_stats:
        listed = len(tail.metadata.stripe_stats)
        if listed != len(footer.stripes):
            raise CorruptMetadata(f"the Metadata has statistics for {listed} stripes; the Footer lists "
                                  f"{len(footer.stripes)}", tail.metadata_offset)


def check_stripe_rows(tail: FileTail, stripe: StripeStreams) -> None:
    """The stripe's statistics count the values its columns read; each ROW_INDEX stream has
    one entry per row group of its rows."""
    rows = stripe.information.number_of_rows or 0
    if tail.metadata is not None and stripe.index < len(tail.metadata.stripe_stats):
        statistics = tail.metadata.stripe_stats[stripe.index].col_stats
        _check_counts(f"stripe {stripe.index}'s statistics", statistics, stripe.values_read,
                      tail.metadata_offset, _unrecorded(tail))
    stride = tail.footer.row_index_stride
    if stride:
        for (column, kind), stream in stripe.index_streams.items():
            if kind == StreamKind.ROW_INDEX:
                entries = len(decode(RowIndex, stream.whole(), stream.file_offset(0)).entry)
                expected = -(-rows // stride)
                if entries != expected:
                    raise CorruptMetadata(f"stripe {stripe.index}, column {column}: the ROW_INDEX has "
                                          f"{entries} entries; {rows} rows in row groups of {stride} "
                                          f"make {expected}", stream.offset)


def check_file_values(tail: FileTail, values_read: dict[int, int]) -> None:
    """The Footer's statistics count the values the columns of every stripe read."""
    _check_counts("the Footer's statistics", tail.footer.statistics, values_read, tail.footer_offset,
                  _unrecorded(tail))


def _unrecorded(tail: FileTail) -> frozenset[int]:
    """The numberOfValues that mean "not counted" (besides absent): 0 without a row index."""
    return frozenset() if tail.footer.row_index_stride else frozenset({0})


def _check_counts(what: str, statistics: Sequence[ColumnStatistics], counts: dict[int, int],
                  offset: int, unrecorded: frozenset[int]) -> None:
    for column, count in counts.items():
        recorded = statistics[column].number_of_values if column < len(statistics) else None
        if recorded is None or recorded in unrecorded or recorded == count:
            continue
        raise CorruptMetadata(f"{what}: column {column} has numberOfValues {recorded}; its streams "
                              f"hold {count} for the rows the stripes list", offset)
