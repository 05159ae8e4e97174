"""The structure of an ORC file, as the reference reads it (`conformance inspect`).

Every part is read with the reference's own parsers (reference_impl.orc), so a file it
rejects gives its documented error with the byte offset:

* the tail (ORCv1.md, 'File Tail', 'Postscript', 'Footer'): compression, block size,
  version, writer version, the section lengths; the type tree ('Type Information'),
  rows, stripes, user metadata ('User Metadata'), the encryption section if present
  ('Column Encryption'), the calendar and the writer (orc_proto.proto, Footer.writer);
* the file and stripe statistics ('Column Statistics', 'File Metadata'), decoded, with
  dates and timestamps also as calendar dates and UTC instants;
* each stripe ('Stripe Information', 'Stripes', 'Stripe Footer'): its offsets and
  lengths, its streams (kind, column, offset, stored and decompressed length, in the
  footer's order, which places them), its column encodings and writer time zone; each
  stripe is located and decompressed as the reader does (streams/stripe.py);
* the row index ('Row Group Index'): each entry's positions and statistics; the Bloom
  filters ('Bloom Filter Index'): per row group the number of hash functions, the bitset
  size and how many bits are set, BLOOM_FILTER_UTF8 or the original BLOOM_FILTER.

A stripe with encryption variants shows what a reader without keys sees: the masked
columns' streams and the virtual ENCRYPTED_INDEX and ENCRYPTED_DATA spaces. The values
themselves are not decoded (`conformance read` decodes them).
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

from conformance.inspect.render import bits_set, breach_records, plain, record, text_or_hex
from reference_impl.common.leniency import reading
from reference_impl.orc.bloom_filter_index import stripe_bloom_filters
from reference_impl.orc.column_statistics import NANOS_STORED_OFFSET, TIMESTAMP_KINDS, joined_nanos
from reference_impl.orc.columns.calendar import file_calendar, hybrid_to_proleptic
from reference_impl.orc.metadata.file_tail import FileTail, file_version, read_file_tail
from reference_impl.orc.metadata.orc_proto import ColumnStatistics, RowIndex, StripeFooter, decode
from reference_impl.orc.metadata.proto_enums import CalendarKind, StreamKind, TypeKind
from reference_impl.orc.metadata.type_tree import TypeNode
from reference_impl.orc.reader import root_of
from reference_impl.orc.streams.compression import decompress_stream
from reference_impl.orc.streams.stripe import INDEX_STREAM_KINDS, VIRTUAL_KINDS, StripeStreams, read_stripe
from reference_impl.orc.streams.stripe_layout import (
    StreamCodec,
    StreamPlace,
    read_index_streams,
    stream_places,
)

# orc_proto.proto, Footer.writer: "Each implementation that writes ORC files should register for a code".
WRITERS = {0: "ORC Java", 1: "ORC C++", 2: "Presto", 3: "Scritchley Go", 4: "Trino", 5: "CUDF"}
EPOCH_DATE = datetime.date(1970, 1, 1)
EPOCH = datetime.datetime(1970, 1, 1)
NANOS_PER_SECOND = 10**9
STATISTICS_SUFFIX = "_statistics"  # ColumnStatistics' typed members: int_statistics, ...


def inspect(path: Path) -> dict[str, Any]:
    """The document of the ORC file at `path`, with the rules it breaks that leave one reading."""
    data = Path(path).read_bytes()
    with reading() as breaches:
        document = _contents(data)
    return record({"file": str(path), "format": "ORC", "size": len(data), **document,
                   "breaches": breach_records(breaches)})


def _contents(data: bytes) -> dict[str, Any]:
    tail = read_file_tail(data, decompress_stream)
    root = root_of(tail)
    nodes = list(root.walk())
    calendar = file_calendar(tail.footer.calendar)
    stripes = [_stripe(data, tail, number, nodes, calendar) for number in range(len(tail.footer.stripes))]
    zones = sorted({stripe["writer_timezone"] for stripe in stripes if "writer_timezone" in stripe})
    return {
        "postscript": _postscript(tail),
        "footer": _footer(tail),
        "types": _types(root, tail),
        "writer_timezones": zones,
        "statistics": _column_statistics(tail.footer.statistics, nodes, calendar),
        "stripes": stripes,
    }


def _postscript(tail: FileTail) -> dict[str, Any]:
    """ORCv1.md, 'Postscript'."""
    postscript = tail.postscript
    return record({
        "version": ".".join(map(str, file_version(postscript))),
        "compression": plain(postscript.compression),
        "compression_block_size": postscript.compression_block_size,
        "writer_version": postscript.writer_version,
        "footer_length": postscript.footer_length, "metadata_length": postscript.metadata_length,
        "stripe_statistics_length": postscript.stripe_statistics_length, "magic": postscript.magic,
        "footer_offset": tail.footer_offset, "metadata_offset": tail.metadata_offset,
    })


def _footer(tail: FileTail) -> dict[str, Any]:
    """ORCv1.md, 'Footer'."""
    footer = tail.footer
    writer = footer.writer if footer.writer is not None else 0  # absent: ORC Java's
    absent = "" if footer.writer is not None else ", absent"
    return record({
        "number_of_rows": footer.number_of_rows, "stripes": len(footer.stripes),
        "row_index_stride": footer.row_index_stride, "header_length": footer.header_length,
        "content_length": footer.content_length,
        "writer": f"{writer} ({WRITERS.get(writer, 'unregistered')}{absent})",
        "software_version": footer.software_version, "calendar": plain(footer.calendar),
        "user_metadata": [record({"name": item.name, "value": text_or_hex(item.value)})
                          for item in footer.metadata],
        "encryption": plain(footer.encryption),
    })


def _types(root: TypeNode, tail: FileTail) -> list[dict[str, Any]]:
    """ORCv1.md, 'Type Information': one row per column id, with its field path."""
    rows: list[dict[str, Any]] = []

    def visit(node: TypeNode, name: str) -> None:
        message = tail.footer.types[node.column_id]
        rows.append(record({
            "column": node.column_id, "name": name or "(root)", "kind": node.kind.name,
            "subtypes": [child.column_id for child in node.children], "maximum_length": node.maximum_length,
            "precision": node.precision, "scale": node.scale, "crs": message.crs,
            "algorithm": plain(message.algorithm),
            "attributes": [f"{pair.key}={pair.value}" for pair in message.attributes],
        }))
        names = node.field_names or tuple(f"<{index}>" for index in range(len(node.children)))
        for field, child in zip(names, node.children, strict=True):
            visit(child, f"{name}.{field}" if name else field)

    visit(root, "")
    return rows


# -- stripes -------------------------------------------------------------------------


def _stripe(data: bytes, tail: FileTail, number: int, nodes: list[TypeNode],
            calendar: CalendarKind | None) -> dict[str, Any]:
    information = tail.footer.stripes[number]
    codec = StreamCodec.of(tail)
    head = record({"stripe": number, **plain(information)})
    stripe = read_stripe(data, information, number, len(nodes), tail.encrypted_statistics_offset,
                         codec.decompress, codec.compressed)
    places = stream_places(information, stripe.footer, number)
    return record({
        **head, "writer_timezone": stripe.writer_timezone,
        "encodings": _encodings(stripe.footer),
        "streams": [_stream(place, len(_decompressed(stripe, place))) for place in places],
        "statistics": _column_statistics(_stripe_statistics(tail, number), nodes, calendar),
        "row_index": _row_index(data, places, codec, nodes, calendar),
        "bloom_filters": _bloom_filters(data, places, number, codec),
    })


def _stripe_statistics(tail: FileTail, number: int) -> list[ColumnStatistics]:
    """ORCv1.md, 'File Metadata': the stripe's statistics, when the file has them."""
    found = [] if tail.metadata is None else tail.metadata.stripe_stats
    return found[number].col_stats if number < len(found) else []


def _encodings(footer: StripeFooter) -> list[dict[str, Any]]:
    """ORCv1.md, 'Stripe Footer': one ColumnEncoding per column id."""
    return [record({"column": column, **plain(encoding)}) for column, encoding in enumerate(footer.columns)]


def _decompressed(stripe: StripeStreams, place: StreamPlace) -> bytes | memoryview:
    """The stream's bytes as the stripe reader decompressed them (a virtual encryption
    stream's as stored)."""
    virtual = stripe.virtual_stream(StreamKind(place.kind)) if place.kind in VIRTUAL_KINDS else None
    if virtual is not None:
        return virtual.whole()
    return next(stream.whole() for stream in stripe.streams_of(place.column) if stream.kind == place.kind)


def _stream(place: StreamPlace, decompressed: int) -> dict[str, Any]:
    """One stream: ORCv1.md, 'Stripes' ("the streams field in the StripeFooter ... is the single
    source of truth"): it lies after the ones listed before it."""
    return {"kind": _kind(place.kind), "column": place.column, "offset": place.offset, "length": place.length,
            "decompressed": decompressed, "area": "index" if place.kind in INDEX_STREAM_KINDS else "data"}


def _row_index(data: bytes, places: list[StreamPlace], codec: StreamCodec, nodes: list[TypeNode],
               calendar: CalendarKind | None) -> list[dict[str, Any]]:
    """ORCv1.md, 'Row Group Index': per column, one entry per row group."""
    found = []
    streams = read_index_streams(data, places, StreamKind.ROW_INDEX, codec.decompress)
    for column, (place, stream) in streams.items():
        index = decode(RowIndex, stream, base_offset=place.offset)
        found.append({"column": column, "offset": place.offset, "entries": [
            record({"row_group": group, "positions": entry.positions,
                    **(_statistics(entry.statistics, nodes[column], calendar) if entry.statistics else {})})
            for group, entry in enumerate(index.entry)]})
    return found


def _bloom_filters(data: bytes, places: list[StreamPlace], number: int,
                   codec: StreamCodec) -> list[dict[str, Any]]:
    """ORCv1.md, 'Bloom Filter Index': per column and stream kind, one filter per row group."""
    found = stripe_bloom_filters(data, places, number, codec.decompress)
    return [{"column": column, "kind": kind.name, "utf8": kind == StreamKind.BLOOM_FILTER_UTF8,
             "offset": filters.offset, "filters": [
                 {"row_group": group, "num_hash_functions": bits.num_hash_functions,
                  "bitset_bits": bits.num_bits, "bits_set": bits_set(bits.bits)}
                 for group, bits in enumerate(filters.filters)]}
            for (column, kind), filters in sorted(found.items())]


# -- statistics ----------------------------------------------------------------------


def _column_statistics(found: list[ColumnStatistics], nodes: list[TypeNode],
                       calendar: CalendarKind | None) -> list[dict[str, Any]]:
    """The file's or a stripe's statistics, one per column id ('Column Statistics', 'File Metadata')."""
    return [{"column": node.column_id, "kind": node.kind.name, **_statistics(stats, node, calendar)}
            for stats, node in zip(found, nodes, strict=False)]


def _statistics(stats: ColumnStatistics, node: TypeNode, calendar: CalendarKind | None) -> dict[str, Any]:
    """One ColumnStatistics as one record: the counts, then the typed member's fields as
    `<member>.<field>` ('Column Statistics'), dates and timestamps also readable."""
    fields: dict[str, Any] = {}
    for name, value in plain(stats).items():
        if name.endswith(STATISTICS_SUFFIX):
            fields.update(_flattened(name.removesuffix(STATISTICS_SUFFIX), value))
        else:
            fields[name] = value
    date = stats.date_statistics
    if date is not None and node.kind == TypeKind.DATE:
        fields.update({"date.minimum_date": _date(date.minimum, calendar),
                       "date.maximum_date": _date(date.maximum, calendar)})
    stamp = stats.timestamp_statistics
    if stamp is not None and node.kind in TIMESTAMP_KINDS:
        fields.update({"timestamp.minimum_instant": _instant(stamp.minimum_utc, stamp.minimum_nanos),
                       "timestamp.maximum_instant": _instant(stamp.maximum_utc, stamp.maximum_nanos)})
    return record(fields)


def _flattened(prefix: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        return {prefix: value}
    return {key: item for name, inner in value.items()
            for key, item in _flattened(f"{prefix}.{name}", inner).items()}


def _date(days: int | None, calendar: CalendarKind | None) -> str | None:
    """A DATE statistic as a calendar date; a JULIAN_GREGORIAN file stores hybrid day counts."""
    if days is None:
        return None
    if calendar == CalendarKind.JULIAN_GREGORIAN:
        days = hybrid_to_proleptic(days)
    try:
        return (EPOCH_DATE + datetime.timedelta(days=days)).isoformat()
    except OverflowError:  # outside the years 1 to 9999 a calendar date is not printed
        return None


def _instant(millis: int | None, nanos: int | None) -> str | None:
    """TimestampStatistics' UTC milliseconds and stored nanoseconds (column_statistics.py) as an
    ISO instant with nine decimals."""
    if millis is None:
        return None
    stored = NANOS_STORED_OFFSET if nanos is None else nanos  # absent: no nanoseconds beyond the millis
    seconds, fraction = divmod(joined_nanos(millis, stored), NANOS_PER_SECOND)
    try:
        moment = EPOCH + datetime.timedelta(seconds=seconds)
    except OverflowError:
        return None
    return f"{moment.isoformat()}.{fraction:09d}Z"


# -- small helpers -------------------------------------------------------------------


def _kind(kind: int) -> str:
    return StreamKind(kind).name if kind in StreamKind._value2member_map_ else f"kind {kind}"

