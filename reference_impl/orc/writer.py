"""The reference ORC writer: rows in, a whole file out.

ORCv1.md, 'Footer' (the header "ORC", the stripes, the Footer), 'Stripes'
(streams/stripe.py), 'Row Group Index' (with a row index stride: row_group_index.py),
'Bloom Filter Index' (for the columns the options name: bloom_filter_index.py),
'Column Encodings' (columns/registry.py), 'Column Statistics' (the
Footer's statistics and the Metadata's stripe statistics: number_of_values and
has_null for every column, see column_statistics.py) and 'Postscript' (file version
[0,12] or, for ORCv0.md files, [0,11]).

``bytes_on_disk`` (ColumnStatistics field 11; the text gives its name only) is written in
the stripes' and the file's statistics as ORC Java writes it (measured, orc-core 2.3.0):
the stored length of the column's streams in the data area, summed over the stripes,
left out where the column has none (the root STRUCT); the row groups' statistics have
none. ORC C++ writes none (measured).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from reference_impl.orc.bloom_filter import HASHED_KINDS
from reference_impl.orc.bloom_filter_index import UTC_BLOOM_ENCODING, bloom_filter_streams
from reference_impl.orc.column_statistics import column_statistics
from reference_impl.orc.columns.column_streams import WriteSettings
from reference_impl.orc.columns.registry import ColumnStreamsOut, write_column
from reference_impl.orc.encryption.encryption_variants import FIRST_STRIPE_ID, VariantWriter
from reference_impl.orc.errors import InvalidValue
from reference_impl.orc.lies import false_statistics
from reference_impl.orc.metadata.file_tail import MAGIC, write_file_tail
from reference_impl.orc.metadata.orc_proto import (
    ColumnEncoding,
    ColumnStatistics,
    Footer,
    Metadata,
    PostScript,
    StripeInformation,
    StripeStatistics,
)
from reference_impl.orc.metadata.proto_enums import ColumnEncodingKind, CompressionKind, StreamKind, TypeKind
from reference_impl.orc.metadata.type_tree import TypeNode, numbered, row_struct, to_types
from reference_impl.orc.row_group_index import row_groups, row_index_streams
from reference_impl.orc.streams.compression import compress_stream
from reference_impl.orc.streams.stripe import StreamOutput, write_stripe
from reference_impl.orc.writer_options import OrcWriterOptions

__all__ = ["write_orc"]

# PostScript.writer_version. The reference has no registered Footer.writer code, and a file
# without one is ORC Java's to its readers (orc_proto.proto, 'message Footer'), so the
# version says which of ORC Java's fixes its files have: all through ORC-203 (8; its string
# statistics are never wrong, long ones are left out), not ORC-14 (9: it writes no
# encryption). At 6, a reader would distrust its decimal statistics (ORC-517;
# validation/writer_version.py).
WRITER_VERSION = 8
ENCRYPTION_WRITER_VERSION = 9  # a file with encrypted columns has ORC-14's
VERSIONS = {"0.11": [0, 11], "0.12": [0, 12]}
DEFAULT_OPTIONS = OrcWriterOptions()
BLOOM_FILTER_ORIGINAL = (StreamKind.BLOOM_FILTER,)


def write_orc(schema: TypeNode, rows: Sequence[Mapping[str, object]],
              options: OrcWriterOptions = DEFAULT_OPTIONS) -> bytes:
    """The ORC file of ``rows`` (dicts by ``schema``'s top-level field names; a missing
    field is null); ``schema`` is the root: a STRUCT, or a type of another kind whose rows
    are dicts of its one field ROOT_FIELD (metadata/type_tree.py, ``row_struct``)."""
    root = numbered(schema)
    _check_rows(root, rows, options)

    def compress(data: bytes) -> bytes:
        return compress_stream(data, options.compression, options.compression_block_size,
                               keep_original=options.keep_original_chunks)

    body = bytearray(MAGIC)
    stripes: list[StripeInformation] = []
    stripe_statistics: list[list[ColumnStatistics]] = []
    file = _FileColumns()
    variants = VariantWriter(root, options.encryption) if options.encryption else None
    true_file = _FileColumns()  # with encryption, the true values' (the unencrypted ones are masked)
    for number, chunk in enumerate(_stripe_rows(rows, options.stripe_row_limit, options.empty_stripes)):
        unencrypted = variants.masked_rows(chunk) if variants else chunk
        out, written, stored = _stripe_streams(root, unencrypted, options, compress)
        encrypted = []
        if variants:
            true_out, true_written, true_stored = _stripe_streams(root, chunk, options, compress)
            encrypted = variants.stripe_variants(number + FIRST_STRIPE_ID, true_written,
                                                 _encodings(true_out, _bloom_columns(root, options)),
                                                 _statistics(root, true_out, options, true_stored))
            true_file.add(true_out, true_stored)
        stripe, information = write_stripe(written, _encodings(out, _bloom_columns(root, options)),
                                           options.writer_timezone,
                                           len(body), len(chunk), compress, encrypted)
        body += stripe
        stripes.append(variants.first_stripe(information) if variants and not stripes else information)
        stripe_statistics.append(_statistics(root, out, options, stored))
        file.add(out, stored)
    footer = Footer(header_length=len(MAGIC), content_length=len(body), stripes=stripes, types=to_types(root),
                    number_of_rows=len(rows),
                    statistics=_statistics(root, file.columns, options, file.stored),
                    row_index_stride=options.row_index_stride, calendar=options.calendar,
                    software_version=options.software_version)
    sealed = b""
    if variants:
        footer.encryption, sealed = variants.tail(
            len(stripes), _statistics(root, true_file.columns, options, true_file.stored), compress)
    metadata = Metadata(stripe_stats=[StripeStatistics(col_stats=stats) for stats in stripe_statistics])
    postscript = PostScript(compression=options.compression,
                            compression_block_size=options.compression_block_size,
                            version=VERSIONS[options.file_version],
                            writer_version=ENCRYPTION_WRITER_VERSION if variants else WRITER_VERSION,
                            magic=MAGIC.decode())
    return bytes(body) + write_file_tail(footer, metadata, postscript, _tail_compressor(options), sealed)


class _FileColumns:
    """Every stripe's values and stored bytes by column, for the file's statistics."""

    def __init__(self) -> None:
        self.columns = ColumnStreamsOut()
        self.stored: dict[int, int] = {}

    def add(self, out: ColumnStreamsOut, stored: Mapping[int, int]) -> None:
        for column, length in stored.items():
            self.stored[column] = self.stored.get(column, 0) + length
        for column, values in out.values.items():
            self.columns.values.setdefault(column, []).extend(values)
            self.columns.has_null[column] = self.columns.has_null.get(column, False) or out.has_null[column]


def _stripe_streams(root: TypeNode, chunk: Sequence[Mapping[str, object]], options: OrcWriterOptions,
                    compress: Callable[[bytes], bytes]
                    ) -> tuple[ColumnStreamsOut, list[StreamOutput], dict[int, int]]:
    """One stripe's columns, their compressed streams (index streams after, with a row
    index) and the stored bytes of each column's data streams."""
    out = _write_columns(root, chunk, options)
    written = [StreamOutput(column, kind, compress(data)) for column, kind, data in out.streams]
    stored = _stored_bytes(written)
    if options.row_index_stride:
        written += [StreamOutput(o.column, o.kind, compress(o.data))
                    for o in _index_streams(root, out, written, options)]
    return out, written, stored


def _check_rows(root: TypeNode, rows: Sequence[Mapping[str, object]], options: OrcWriterOptions) -> None:
    names = set(row_struct(root).field_names)
    for number, row in enumerate(rows):
        if not isinstance(row, Mapping):
            raise InvalidValue(f"row {number} is {row!r}, not a mapping of field names")
        unknown = set(row) - names
        if unknown:
            raise InvalidValue(f"row {number} has fields {sorted(unknown)} that the schema lacks")
    forced = set(options.column_encodings) - names
    if forced:
        raise InvalidValue(f"column_encodings names {sorted(forced)}, not top-level fields of the schema")
    filtered = set(options.bloom_filter_columns) - names
    if filtered:
        raise InvalidValue(f"bloom_filter_columns names {sorted(filtered)}, not top-level fields of the "
                           "schema")
    for node in _bloom_columns(root, options):
        if node.kind not in HASHED_KINDS:
            raise InvalidValue(f"bloom_filter_columns: {node.describe()} has no hash in 'Bloom Filter Index'")


def _stripe_rows(rows: Sequence[Mapping[str, object]], limit: int | None,
                 empty_stripes: bool) -> list[Sequence[Mapping[str, object]]]:
    """The rows of each stripe; with ``empty_stripes``, one of no rows before the first,
    between every two and after the last."""
    step = limit or max(len(rows), 1)
    chunks = [rows[start:start + step] for start in range(0, len(rows), step)]
    if not empty_stripes:
        return chunks
    return [rows[:0], *(part for chunk in chunks for part in (chunk, rows[:0]))]


def _write_columns(root: TypeNode, rows: Sequence[Mapping[str, object]],
                   options: OrcWriterOptions) -> ColumnStreamsOut:
    """Every column's streams for one stripe. A root struct has no PRESENT stream (rows
    are never null); a root of another kind is the rows' one field. A forced encoding
    applies to its own top-level field only."""
    out = ColumnStreamsOut()
    if root.kind == TypeKind.STRUCT:
        out.encodings[root.column_id] = (ColumnEncodingKind.DIRECT, None)
        out.values[root.column_id], out.has_null[root.column_id] = list(rows), False
        out.entries[root.column_id] = list(rows)
    for name, child in _fields(root):
        write_column(child, [row.get(name) for row in rows], _settings(options, name), out)
    return out


def _fields(root: TypeNode) -> list[tuple[str, TypeNode]]:
    """The rows' fields by name with their columns (metadata/type_tree.py, ``row_struct``)."""
    rows = row_struct(root)
    return list(zip(rows.field_names, rows.children, strict=True))


def _bloom_columns(root: TypeNode, options: OrcWriterOptions) -> list[TypeNode]:
    return [child for name, child in _fields(root) if name in options.bloom_filter_columns]


def _index_streams(root: TypeNode, out: ColumnStreamsOut, written: Sequence[StreamOutput],
                   options: OrcWriterOptions) -> list[StreamOutput]:
    """The stripe's index streams, 'interlaced': each column's ROW_INDEX, then its Bloom
    filter streams (the original BLOOM_FILTER first, when asked for)."""
    groups = row_groups(root, out, options.row_index_stride)
    kinds = (BLOOM_FILTER_ORIGINAL if options.bloom_filter_original else ()) + (StreamKind.BLOOM_FILTER_UTF8,)
    blooms = {node.column_id: bloom_filter_streams(node, out, groups[node.column_id],
                                                   options.row_index_stride, options.bloom_filter_fpp, kinds,
                                                   lie="bloom_filter" in options.lies)
              for node in _bloom_columns(root, options)}
    return [stream for row_index in row_index_streams(root, out, groups, written, options)
            for stream in [row_index, *blooms.get(row_index.column, [])]]


def _settings(options: OrcWriterOptions, name: str) -> WriteSettings:
    return WriteSettings(rle_v2=options.rle_v2, sub_encoding=options.rle_v2_sub_encoding,
                         dictionary_threshold=options.dictionary_key_threshold,
                         forced_encoding=options.column_encodings.get(name),
                         writer_timezone=options.writer_timezone, calendar=options.calendar)


def _encodings(out: ColumnStreamsOut, bloom_columns: list[TypeNode]) -> list[ColumnEncoding]:
    filtered = {node.column_id for node in bloom_columns}
    return [ColumnEncoding(kind=kind, dictionary_size=size,
                           bloom_encoding=UTC_BLOOM_ENCODING if column in filtered else None)
            for column, (kind, size) in sorted(out.encodings.items())]


def _stored_bytes(written: Sequence[StreamOutput]) -> dict[int, int]:
    """The stored bytes of each column's data streams (the module docstring, bytes_on_disk)."""
    stored: dict[int, int] = {}
    for stream in written:
        stored[stream.column] = stored.get(stream.column, 0) + len(stream.data)
    return stored


def _statistics(root: TypeNode, out: ColumnStreamsOut, options: OrcWriterOptions,
                stored: Mapping[int, int]) -> list[ColumnStatistics]:
    statistics = [column_statistics(node, out.values.get(node.column_id, []),
                                    out.has_null.get(node.column_id, False), options.writer_timezone,
                                    options.calendar)
                  for node in root.walk()]
    for column, entry in enumerate(statistics):
        entry.bytes_on_disk = stored.get(column) or None
    return [false_statistics(s) for s in statistics] if "statistics" in options.lies else statistics


def _tail_compressor(options: OrcWriterOptions) -> Callable[[bytes, CompressionKind, int], bytes]:
    def compress(data: bytes, kind: CompressionKind, block_size: int) -> bytes:
        return compress_stream(data, kind, block_size, keep_original=options.keep_original_chunks)
    return compress

