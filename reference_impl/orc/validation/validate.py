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
from dataclasses import dataclass, field

from reference_impl.common.leniency import Breach, reading
from reference_impl.common.mapped_file import FileBytes, close_file, map_file
from reference_impl.orc.bloom_filter_index import stripe_bloom_filters
from reference_impl.orc.column_values import ColumnValues, column_labels, column_values
from reference_impl.orc.columns.calendar import file_calendar
from reference_impl.orc.metadata.file_tail import FileTail, read_file_tail
from reference_impl.orc.metadata.orc_proto import ColumnStatistics, RowIndex
from reference_impl.orc.metadata.type_tree import TypeNode
from reference_impl.orc.reader import iter_stripes, root_of, root_values
from reference_impl.orc.row_index_check import PositionCheck, check_stripe_positions
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
from reference_impl.orc.validation.column_summary import ColumnSummary, merged, summarise
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
    data = bytes(source) if isinstance(source, bytes | bytearray) else map_file(source)
    with reading() as breaches:
        findings = _findings(data)
    # Unmapped once checked; after an error, when the error (whose frames may still view
    # the map) is dropped, as the reader does.
    close_file(data)
    return _breach_findings(breaches) + findings


def _findings(data: FileBytes) -> list[Finding]:
    tail = read_file_tail(data, decompress_stream)
    checks = _StripeChecks(data, tail)
    for _ in map(checks.stripe, iter_stripes(data, tail)):
        pass  # map holds no stripe's rows: each is dropped before the next is read
    findings = _writer_version_findings(tail, checks.fixes)
    recorded = len(checks.stripe_statistics)
    if tail.metadata is not None and recorded != checks.stripes:
        findings.append(WHOLE_FILE("statistics.stripe_count",
                                   f"the Metadata holds statistics of {recorded} stripes; "
                                   f"the file has {checks.stripes}"))
    file_context = StatisticsContext(checks.file_zone or UTC, checks.fixes, checks.calendar)
    file_level = _level(tail.footer.statistics, checks.file_summaries, checks.labels, None, file_context,
                        checks.stored)
    return (findings + checks.stripe_level + file_level + checks.row_group_level + checks.bloom_filters
            + checks.positions)


@dataclass
class _StripeChecks:
    """The checks of one file, made one stripe at a time (:meth:`stripe`): each stripe's
    findings, by kind of check, and what the file-level check needs of the stripes read so
    far (their values' summaries, in the first stripe's writer zone, and their stored bytes)."""

    data: FileBytes
    tail: FileTail
    stripes: int = 0
    file_zone: str | None = None
    stripe_level: list[Finding] = field(default_factory=list)
    row_group_level: list[Finding] = field(default_factory=list)
    bloom_filters: list[Finding] = field(default_factory=list)
    positions: list[Finding] = field(default_factory=list)
    stored: dict[int, StoredBytes] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.root = root_of(self.tail)
        self.labels = column_labels(self.root)
        self.fixes = distrusted_fixes(self.tail.postscript, self.tail.footer)
        self.codec = StreamCodec.of(self.tail)
        self.calendar = file_calendar(self.tail.footer.calendar)
        self.stride = self.tail.footer.row_index_stride or 0
        self.stripe_statistics = self.tail.metadata.stripe_stats if self.tail.metadata is not None else []
        self.file_summaries = self._summaries(column_values(self.root, []), UTC)  # no stripe: no values

    def stripe(self, rows: list[dict[str, object]]) -> None:
        """Check the next stripe, whose rows are ``rows``, and add its summaries to the file's."""
        number, data = self.stripes, self.data
        self.stripes += 1
        values = root_values(self.root, rows)
        footer = read_stripe_footer(data, self.tail, number, self.codec.decompress)
        zone = footer.writer_timezone or UTC
        self.file_zone = self.file_zone or zone
        context = StatisticsContext(zone, self.fixes, self.calendar)
        columns = column_values(self.root, values)
        summaries = self._summaries(columns, zone)
        in_file_zone = summaries if zone == self.file_zone else self._summaries(columns, self.file_zone)
        self.file_summaries = {column: merged(self.file_summaries[column], summary)
                               for column, summary in in_file_zone.items()}
        places = stream_places(self.tail.footer.stripes[number], footer, number)
        stored = _stored_bytes(places)
        self.stored = _summed([self.stored, stored])
        if number < len(self.stripe_statistics):
            self.stripe_level += _level(self.stripe_statistics[number].col_stats, summaries, self.labels,
                                        number, context, stored)
        if self.stride:
            indexes = read_row_indexes(data, places, self.codec.decompress)
            self.row_group_level += _row_groups(self.root, values, indexes, self.stride, self.labels, number,
                                                context)
            filters = stripe_bloom_filters(data, places, number, self.codec.decompress)
            self.bloom_filters += check_bloom_filters(self.root, values, self.stride, number,
                                                      list(filters.values()), footer.columns, self.labels,
                                                      self.fixes)
            self.positions += [_position_finding(check, self.labels)
                               for check in check_stripe_positions(data, self.tail, number, values)
                               if not check.passed]

    def _summaries(self, columns: dict[int, ColumnValues], zone: str) -> dict[int, ColumnSummary]:
        return {column: summarise(values, zone, self.calendar) for column, values in columns.items()}


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
                summary = summarise(columns[column_id], context.writer_timezone, context.calendar)
                place = Place(labels[column_id], stripe, group)
                findings += check_statistics(entry.statistics, summary, place, context)
    return findings


def _position_finding(check: PositionCheck, labels: dict[int, str]) -> Finding:
    stream = f"{check.stream} stream: " if check.stream else ""
    return Finding.of(f"row_index.{check.check}", labels.get(check.column, str(check.column)),
                      check.stripe, check.row_group,
                   f"{stream}the row index says {check.found}; the data holds {check.expected}")


def _level(recorded: list[ColumnStatistics], summaries: dict[int, ColumnSummary], labels: dict[int, str],
           stripe: int | None, context: StatisticsContext, stored: dict[int, StoredBytes]) -> list[Finding]:
    """The findings about one level's statistics (one per column, by column id), whose
    columns' values ``summaries`` summarise and whose streams store ``stored``."""
    findings = []
    for column_id, statistics in enumerate(recorded):
        if column_id in summaries:
            place = Place(labels[column_id], stripe)
            findings += check_statistics(statistics, summaries[column_id], place, context)
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
