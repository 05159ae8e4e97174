"""Is the metadata of an ORC file true to its data?

:func:`validate` reads every stripe of any file (from any writer) with the reference
reader and holds each structure that summarises the data against the data itself: the
file's column statistics (ORCv1.md, 'Footer': "statistics"), each stripe's (ORCv1.md,
'File Metadata': "stripe level column statistics"), each row group's in the row index and
the positions it records (ORCv1.md, 'Row Group Index'; ``row_index_check``), and the Bloom
filters of each row group (ORCv1.md, 'Bloom Filter Index'). Each item that does not hold is a
:class:`~reference_impl.orc.validation.findings.Finding`; ``findings`` lists the kinds and
severities, ``statistics_checks`` the checks, ``writer_version`` what the text tells a
reader to distrust from older writers.

Decisions:

* A TIMESTAMP's instant is taken in its stripe's writer time zone (StripeFooter
  ``writerTimezone``); the file's statistics in the first stripe's.
* Whatever the bytes, ``validate`` returns findings or raises the reader's documented
  :class:`~reference_impl.orc.errors.OrcError`, never another exception.
* A rule the file breaks that has a single reading (``reference_impl.common.leniency``)
  is read past, as the reader does, and reported as a ``rule.<id>`` finding, of the file
  (the breach's own message says where).
"""

from __future__ import annotations

import os
from pathlib import Path

from reference_impl.common.leniency import Breach, reading
from reference_impl.orc.bloom_filter_index import read_bloom_filters
from reference_impl.orc.column_values import column_labels, column_values
from reference_impl.orc.columns.calendar import file_calendar
from reference_impl.orc.metadata.file_tail import FileTail, read_file_tail
from reference_impl.orc.metadata.orc_proto import ColumnStatistics, RowIndex
from reference_impl.orc.metadata.type_tree import TypeNode
from reference_impl.orc.reader import iter_stripes, root_of, root_values
from reference_impl.orc.row_index_check import PositionCheck, check_positions
from reference_impl.orc.row_index_positions import read_row_indexes
from reference_impl.orc.streams.compression import decompress_stream
from reference_impl.orc.streams.stripe import INDEX_STREAM_KINDS
from reference_impl.orc.streams.stripe_layout import (
    StreamCodec,
    StreamPlace,
    read_stripe_footer,
    stream_places,
)
from reference_impl.orc.validation.bloom_filter_checks import check_bloom_filters
from reference_impl.orc.validation.findings import Finding, Place
from reference_impl.orc.validation.statistics_checks import (
    StatisticsContext,
    StoredBytes,
    check_bytes_on_disk,
    check_statistics,
)
from reference_impl.orc.validation.writer_version import distrusted_fixes, java_numbering_misused

__all__ = ["validate"]

UTC = "UTC"
WHOLE_FILE = Place("")
NO_BYTES = StoredBytes(0, 0)  # a column without streams in a stripe


def validate(source: bytes | str | os.PathLike[str]) -> list[Finding]:
    """Every finding about ``source``'s metadata (see the module docstring); raises the
    reader's OrcError when the file cannot be read."""
    data = bytes(source) if isinstance(source, bytes | bytearray) else Path(source).read_bytes()
    with reading() as breaches:
        findings = _findings(data)
    return _breach_findings(breaches) + findings


def _findings(data: bytes) -> list[Finding]:
    tail = read_file_tail(data, decompress_stream)
    root = root_of(tail)
    labels = column_labels(root)
    fixes = distrusted_fixes(tail.postscript, tail.footer)
    findings = _writer_version_findings(tail, fixes)
    stripe_rows = list(iter_stripes(data, tail))  # read once: every check below uses these
    stripes = [root_values(root, rows) for rows in stripe_rows]
    codec = StreamCodec.of(tail)
    footers = [read_stripe_footer(data, tail, number, codec.decompress) for number in range(len(stripes))]
    zones = [footer.writer_timezone or UTC for footer in footers]
    calendar = file_calendar(tail.footer.calendar)
    stripe_statistics = tail.metadata.stripe_stats if tail.metadata is not None else []
    if tail.metadata is not None and len(stripe_statistics) != len(stripes):
        findings.append(WHOLE_FILE("statistics.stripe_count",
                                   f"the Metadata holds statistics of {len(stripe_statistics)} stripes; "
                                   f"the file has {len(stripes)}"))
    stored = [_stored_bytes(stream_places(tail.footer.stripes[number], footer, number))
              for number, footer in enumerate(footers)]
    for number, (values, statistics) in enumerate(zip(stripes, stripe_statistics, strict=False)):
        findings += _level(root, values, statistics.col_stats, labels, number,
                           StatisticsContext(zones[number], fixes, calendar), stored[number])
    file_context = StatisticsContext(zones[0] if zones else UTC, fixes, calendar)
    findings += _level(root, [value for values in stripes for value in values], tail.footer.statistics,
                       labels, None, file_context, _summed(stored))
    stride = tail.footer.row_index_stride or 0
    if stride:
        for number, values in enumerate(stripes):
            places = stream_places(tail.footer.stripes[number], footers[number], number)
            indexes = read_row_indexes(data, places, codec.decompress)
            findings += _row_groups(root, values, indexes, stride, labels, number,
                                    StatisticsContext(zones[number], fixes, calendar))
        for number, filters in enumerate(read_bloom_filters(data)):
            findings += check_bloom_filters(root, stripes[number], stride, number, list(filters.values()),
                                            footers[number].columns, labels, fixes)
        findings += [_position_finding(check, labels) for check in check_positions(data, tail, stripes)
                     if not check.passed]
    return findings


def _row_groups(root: TypeNode, values: list[object], indexes: dict[int, RowIndex], stride: int,
                labels: dict[int, str], stripe: int, context: StatisticsContext) -> list[Finding]:
    """The findings about each row group's statistics in the stripe's ROW_INDEX streams (the
    number of entries is the position check's)."""
    findings = []
    for group, start in enumerate(range(0, len(values), stride)):
        columns = column_values(root, values[start:start + stride])
        for column_id, index in sorted(indexes.items()):
            entry = index.entry[group] if group < len(index.entry) else None
            if entry is not None and entry.statistics is not None and column_id in columns:
                findings += check_statistics(entry.statistics, columns[column_id],
                                             Place(labels[column_id], stripe, group), context)
    return findings


def _position_finding(check: PositionCheck, labels: dict[int, str]) -> Finding:
    stream = f"{check.stream} stream: " if check.stream else ""
    return Finding.of(f"row_index.{check.check}", labels.get(check.column, str(check.column)),
                      check.stripe, check.row_group,
                   f"{stream}the row index says {check.found}; the data holds {check.expected}")


def _level(root: TypeNode, rows: list[object], recorded: list[ColumnStatistics], labels: dict[int, str],
           stripe: int | None, context: StatisticsContext, stored: dict[int, StoredBytes]) -> list[Finding]:
    """The findings about one level's statistics (one per column, by column id), whose
    columns' streams store ``stored``."""
    findings = []
    values = column_values(root, rows)
    for column_id, statistics in enumerate(recorded):
        if column_id in values:
            place = Place(labels[column_id], stripe)
            findings += check_statistics(statistics, values[column_id], place, context)
            findings += check_bytes_on_disk(statistics, stored.get(column_id, NO_BYTES), place)
    return findings


def _stored_bytes(places: list[StreamPlace]) -> dict[int, StoredBytes]:
    """Each column's stored stream bytes in one stripe, by area."""
    stored: dict[int, StoredBytes] = {}
    for place in places:
        data, index = stored.get(place.column, NO_BYTES)
        in_index = place.kind in INDEX_STREAM_KINDS
        stored[place.column] = StoredBytes(data + (0 if in_index else place.length),
                                           index + (place.length if in_index else 0))
    return stored


def _summed(stripes: list[dict[int, StoredBytes]]) -> dict[int, StoredBytes]:
    """Each column's stored stream bytes over every stripe."""
    total: dict[int, StoredBytes] = {}
    for stored in stripes:
        for column, (data, index) in stored.items():
            before = total.get(column, NO_BYTES)
            total[column] = StoredBytes(before.data_area + data, before.index_area + index)
    return total


def _writer_version_findings(tail: FileTail, fixes: tuple) -> list[Finding]:
    version = tail.postscript.writer_version or 0
    findings = [WHOLE_FILE(f"writer_version.{fix.issue}",
                           f"written by ORC Java before {fix.issue} (writer_version {version} < "
                           f"{fix.version}): {fix.what}; a reader distrusts them and they are not checked")
                for fix in fixes]
    if java_numbering_misused(tail.postscript, tail.footer):
        findings.append(WHOLE_FILE("writer_version.numbering",
                                   f"writer {tail.footer.writer} gives writer_version {version}: only the "
                                   "Java ORC writer may use values under 6"))
    return findings


def _breach_findings(breaches: list[Breach]) -> list[Finding]:
    """With the strength of each rule's sentence, as Parquet's (parquet/validation/rule_checks.py):
    the reader has one reading, so no reader that trusts the file returns wrong rows."""
    return [Finding(f"rule.{breach.rule.id}", breach.rule.rule_text, "", None, None, breach.describe())
            for breach in breaches]
