"""Every type kind's column encodings, streams, reader and writer, in one table.

ORCv1.md, 'Column Encodings' (file version 0.12) and ORCv0.md, 'Column Encodings'
(0.11, RLE v1 only): each subsection's table lists the encodings of its kinds and the
streams each encoding uses. The reader checks a column's encoding against this table,
and the streams the stripe lists for the column: each is one its encoding uses, or an
index-area stream any column may have (ROW_INDEX, BLOOM_FILTER, BLOOM_FILTER_UTF8);
any other (an ENCRYPTED_DATA stream in a column that is not encrypted, a DICTIONARY_DATA
of a DIRECT column) is :class:`CorruptStream`. A stream the encoding uses may be absent:
writers leave out streams without bytes, and a column whose values need bytes from it
then finds none (the decoders' errors), so absent is the same as empty. Then it builds
the reader; the writer picks the encoding and writes the streams. GEOMETRY and GEOGRAPHY are the
rows of ORCv2.md, 'Geometry & Geography Columns' (``geospatial_columns``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from reference_impl.common.leniency import Rule, Strength, breach
from reference_impl.orc.columns.binary_columns import BinaryReader, write_binary
from reference_impl.orc.columns.boolean_columns import BooleanReader, write_booleans
from reference_impl.orc.columns.column_streams import ColumnOutput, ColumnStreams, WriteSettings
from reference_impl.orc.columns.date_columns import DateReader, write_dates
from reference_impl.orc.columns.decimal_columns import DecimalReader, write_decimals
from reference_impl.orc.columns.float_columns import FloatReader, write_floats
from reference_impl.orc.columns.geospatial_columns import GeospatialReader, write_geospatial
from reference_impl.orc.columns.integer_columns import IntegerReader, write_integers
from reference_impl.orc.columns.list_columns import ListReader, write_lists
from reference_impl.orc.columns.map_columns import MapReader, write_maps
from reference_impl.orc.columns.present import ColumnReader, present_stream
from reference_impl.orc.columns.string_columns import StringReader, write_strings
from reference_impl.orc.columns.struct_columns import StructReader, write_structs
from reference_impl.orc.columns.timestamp_columns import TimestampReader, write_timestamps
from reference_impl.orc.columns.tinyint_columns import TinyIntReader, write_tinyints
from reference_impl.orc.columns.union_columns import UnionReader, write_unions
from reference_impl.orc.errors import CorruptMetadata, CorruptStream, UnsupportedFeature
from reference_impl.orc.metadata.proto_enums import CalendarKind, ColumnEncodingKind, StreamKind, TypeKind
from reference_impl.orc.metadata.type_tree import TypeNode
from reference_impl.orc.streams.stripe import StripeStreams

__all__ = ["COLUMN_KINDS", "FILE_VERSIONS", "ColumnKind", "ColumnStreamsOut", "build_reader", "column_kind",
           "write_column"]

E = ColumnEncodingKind
S = StreamKind
FILE_VERSIONS = ("0.11", "0.12")

ReaderFactory = Callable[[ColumnStreams, Sequence[ColumnReader]], ColumnReader]
ColumnWriter = Callable[[TypeNode, list[object], WriteSettings], ColumnOutput]


@dataclass(frozen=True)
class ColumnKind:
    """One row of the table: a subsection of 'Column Encodings'."""

    heading: str
    encodings: Mapping[str, tuple[ColumnEncodingKind, ...]]  # file version -> allowed encodings
    streams: Mapping[ColumnEncodingKind, tuple[StreamKind, ...]]
    reader: ReaderFactory
    writer: ColumnWriter


def _leaf(reader: Callable[[ColumnStreams], ColumnReader]) -> ReaderFactory:
    """A reader factory for a kind without children."""
    return lambda streams, children: reader(streams)


def _kind(heading: str, streams: Mapping[ColumnEncodingKind, tuple[StreamKind, ...]],
          reader: ReaderFactory, writer: ColumnWriter) -> ColumnKind:
    """0.11 allows the RLE v1 encodings of ``streams``; 0.12 all of them."""
    version_11 = tuple(encoding for encoding in streams if encoding in (E.DIRECT, E.DICTIONARY))
    return ColumnKind(heading, {"0.11": version_11, "0.12": tuple(streams)}, streams, reader, writer)


def _direct(*streams: StreamKind) -> dict[ColumnEncodingKind, tuple[StreamKind, ...]]:
    both = (S.PRESENT, *streams)
    return {E.DIRECT: both, E.DIRECT_V2: both}


# Streams of the index area, which any column may have ('Stripes': "Index streams are
# always placed together in the beginning of the stripe"; 'Row Group Index', 'Bloom
# Filter Index').
ANY_COLUMN_STREAMS = (S.ROW_INDEX, S.BLOOM_FILTER, S.BLOOM_FILTER_UTF8)

UNKNOWN_ENCODING = Rule(
    id="orc.stripe-footer.encoding-kind-unknown",
    format="orc",
    spec="orc_proto.proto: message ColumnEncoding",
    sentence="optional Kind kind = 1;",
    strength=Strength.MUST,
    reading="read as DIRECT, the one encoding of the column's type, which is also what protobuf 2 "
    "parsers read (an enum number the parser does not know leaves the field absent, and an "
    "absent enum is its first value, DIRECT); ORC Java writers of the Spark era wrote such "
    "encodings for STRUCT columns",
    error=CorruptMetadata,
)

_STRING_STREAMS = {
    E.DIRECT: (S.PRESENT, S.DATA, S.LENGTH),
    E.DICTIONARY: (S.PRESENT, S.DATA, S.DICTIONARY_DATA, S.LENGTH),
    E.DIRECT_V2: (S.PRESENT, S.DATA, S.LENGTH),
    E.DICTIONARY_V2: (S.PRESENT, S.DATA, S.DICTIONARY_DATA, S.LENGTH),
}
_INTEGERS = _kind("SmallInt, Int, and BigInt Columns", _direct(S.DATA), _leaf(IntegerReader), write_integers)
_FLOATS = _kind("Float and Double Columns", {E.DIRECT: (S.PRESENT, S.DATA)}, _leaf(FloatReader), write_floats)
_STRINGS = _kind("String, Char, and VarChar Columns", _STRING_STREAMS, _leaf(StringReader), write_strings)
_GEOSPATIAL = _kind("Geometry & Geography Columns", _direct(S.DATA, S.LENGTH), _leaf(GeospatialReader),
                    write_geospatial)

COLUMN_KINDS: dict[TypeKind, ColumnKind] = {
    TypeKind.BOOLEAN: _kind("Boolean Columns", {E.DIRECT: (S.PRESENT, S.DATA)},
                            _leaf(BooleanReader), write_booleans),
    TypeKind.BYTE: _kind("TinyInt Columns", {E.DIRECT: (S.PRESENT, S.DATA)},
                         _leaf(TinyIntReader), write_tinyints),
    TypeKind.SHORT: _INTEGERS,
    TypeKind.INT: _INTEGERS,
    TypeKind.LONG: _INTEGERS,
    TypeKind.FLOAT: _FLOATS,
    TypeKind.DOUBLE: _FLOATS,
    TypeKind.STRING: _STRINGS,
    TypeKind.VARCHAR: _STRINGS,
    TypeKind.CHAR: _STRINGS,
    TypeKind.BINARY: _kind("Binary Columns", _direct(S.DATA, S.LENGTH), _leaf(BinaryReader), write_binary),
    TypeKind.DECIMAL: _kind("Decimal Columns", _direct(S.DATA, S.SECONDARY), _leaf(DecimalReader),
                            write_decimals),
    TypeKind.DATE: _kind("Date Columns", _direct(S.DATA), _leaf(DateReader), write_dates),
    TypeKind.TIMESTAMP: _kind("Timestamp Columns", _direct(S.DATA, S.SECONDARY), _leaf(TimestampReader),
                              write_timestamps),
    TypeKind.TIMESTAMP_INSTANT: _kind("Timestamp Columns", _direct(S.DATA, S.SECONDARY),
                                      _leaf(TimestampReader), write_timestamps),
    TypeKind.STRUCT: _kind("Struct Columns", {E.DIRECT: (S.PRESENT,)}, StructReader, write_structs),
    TypeKind.LIST: _kind("List Columns", _direct(S.LENGTH), ListReader, write_lists),
    TypeKind.MAP: _kind("Map Columns", _direct(S.LENGTH), MapReader, write_maps),
    TypeKind.UNION: _kind("Union Columns", {E.DIRECT: (S.PRESENT, S.DATA)}, UnionReader, write_unions),
    TypeKind.GEOMETRY: _GEOSPATIAL,
    TypeKind.GEOGRAPHY: _GEOSPATIAL,
}


def column_kind(node: TypeNode) -> ColumnKind:
    found = COLUMN_KINDS.get(node.kind)
    if found is None:
        raise UnsupportedFeature(f"{node.describe()}: columns of kind {node.kind.name} are not supported")
    return found


def build_reader(node: TypeNode, stripe: StripeStreams, file_version: str,
                 calendar: CalendarKind | None) -> ColumnReader:
    """The reader of ``node``'s column (and its children's) over ``stripe``."""
    kind = column_kind(node)
    streams = ColumnStreams(node, stripe, calendar)
    allowed = kind.encodings[file_version]
    if streams.encoding not in E._value2member_map_ and allowed == (E.DIRECT,):
        breach(UNKNOWN_ENCODING, f"{streams.where}: encoding {streams.encoding}", stripe.information.offset)
        streams.encoding = E.DIRECT
    if streams.encoding not in allowed:
        raise CorruptMetadata(f"{streams.where}: encoding {_name(streams.encoding)}; a {node.kind.name} "
                              f"column of file version {file_version} is one of "
                              f"{[encoding.name for encoding in allowed]} ({kind.heading!r})",
                              stripe.information.offset)
    _check_streams(kind, streams)
    children = [build_reader(child, stripe, file_version, calendar) for child in node.children]
    return kind.reader(streams, children)


def _check_streams(kind: ColumnKind, streams: ColumnStreams) -> None:
    """CorruptStream for a stream the column's encoding does not use."""
    uses = (*kind.streams[ColumnEncodingKind(streams.encoding)], *ANY_COLUMN_STREAMS)
    for stream in streams.stripe.streams_of(streams.node.column_id):
        if stream.kind not in uses:
            raise CorruptStream(f"{streams.where}: a stream of kind {_stream_name(stream.kind)}; a "
                                f"{streams.node.kind.name} column of encoding {_name(streams.encoding)} "
                                f"has {[used.name for used in uses]} ({kind.heading!r})", stream.offset)


def _stream_name(kind: int) -> str:
    return S(kind).name if kind in S._value2member_map_ else f"kind {kind}"


def _name(encoding: int) -> str:
    return E(encoding).name if encoding in E._value2member_map_ else str(encoding)


@dataclass
class ColumnStreamsOut:
    """What the columns of one stripe wrote: (column id, kind, bytes) of each stream, and by
    column id the (encoding, dictionary size), the non-null values and whether any was null
    (for the statistics), and the entries, nulls included (for the row index)."""

    streams: list[tuple[int, StreamKind, bytes]] = field(default_factory=list)
    encodings: dict[int, tuple[ColumnEncodingKind, int | None]] = field(default_factory=dict)
    values: dict[int, list[object]] = field(default_factory=dict)
    has_null: dict[int, bool] = field(default_factory=dict)
    entries: dict[int, list[object]] = field(default_factory=dict)


def write_column(node: TypeNode, values: list[object], settings: WriteSettings,
                 out: ColumnStreamsOut) -> None:
    """Adds the streams of ``node``'s column (``values`` with nulls) and its children's to ``out``."""
    present = present_stream(values)
    if present is not None:
        out.streams.append((node.column_id, S.PRESENT, present))
    nonnull = [value for value in values if value is not None]
    output = column_kind(node).writer(node, nonnull, settings)
    out.encodings[node.column_id] = (output.encoding, output.dictionary_size)
    out.streams.extend((node.column_id, kind, data) for kind, data in output.streams.items())
    out.values[node.column_id] = nonnull
    out.entries[node.column_id] = values
    out.has_null[node.column_id] = len(nonnull) != len(values)
    for child, child_values in zip(node.children, output.children, strict=True):
        write_column(child, child_values, settings.for_children(), out)
