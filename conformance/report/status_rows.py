"""The rows of the measured implementation-status tables: what each row measures, as data.

The Parquet rows follow the Apache Parquet site's "Implementation status" page (its row
groups and rows, keyed by the site's feature ids so the self-reported table of
``self_reported`` lines up with them), plus the rows the site lacks: shredded VARIANT,
the legacy LIST and MAP layouts, the format-level features it lists without a status
(IEEE 754 total order, binary protocol extensions, geospatial statistics), the lenient
readings and the rejection of bad files. The ORC rows follow ORCv1.md: types ('Type
Information' and 'Column Encodings'), run-length encodings, codecs ('Compression'),
statistics and indexes ('Indexes'), encryption ('Column Encryption': read with the keys,
and the masked view read without them, cells marked ``view:keyless``), calendars.

A row's ``Selector`` picks the cells that measure it from their case (the case id's
area and the feature tags the case carries) and the kind of read: ``FULL`` reads (the
read and golden phases, plain readers), ``FILTER`` reads (``<engine>:filter``, a read
that prunes with the engine's own means) or ``REJECT`` (reading a bad file). Which side
of an engine a row measures is ``sides``: reads, and writes where the engine writes the
feature. The rows of metadata a reader uses to prune (statistics, page index, Bloom
filters, column orders) measure writes, which the validator checks; the pruning rows
measure the reads that use them. A row whose ``selector`` is None has no case in the
catalogue; its reason is ``note`` and the tables show it as "no data"
(``status.STATE_NO_DATA``).

Tag patterns: an exact tag (``"bloom"``), or a prefix ending in ``*`` (``"type:INT(*"``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from conformance.cases.model import KEYLESS_VIEW_TAG

FULL = "full"      # read and golden phases, plain readers
FILTER = "filter"  # predicate-pushdown reads (reader "<engine>:filter")
REJECT = "reject"  # the bad-file corpus
READ = "read"
WRITE = "write"
BOTH_SIDES = (READ, WRITE)
READS_ONLY = (READ,)
WRITES_ONLY = (WRITE,)
WILDCARD = "*"


def tag_matches(pattern: str, tag: str) -> bool:
    """Does ``tag`` match ``pattern`` (exact, or a prefix ending in ``*``)?"""
    if pattern.endswith(WILDCARD):
        return tag.startswith(pattern[:-1])
    return tag == pattern


def _any_match(pattern: str, tags: Iterable[str]) -> bool:
    return any(tag_matches(pattern, t) for t in tags)


@dataclass(frozen=True)
class Selector:
    """The cells measuring a row: of its case areas, carrying its tags, of its kind of read."""

    all_of: tuple[str, ...] = ()   # every pattern matches one of the case's tags
    any_of: tuple[str, ...] = ()   # at least one pattern matches (when given)
    none_of: tuple[str, ...] = ()  # no pattern matches
    areas: tuple[str, ...] = ()    # case-id prefixes ("physical/"); empty: any case
    kind: str = FULL
    about: tuple[str, ...] = ()    # further tags a declared gap may name and still be this row's
    untrue: bool = False           # measures files whose metadata is untrue on purpose

    def concerns(self, tag: str) -> bool:
        """Is a gap declared for ``tag`` a gap of this row? A case may be declared
        unsupported for another of its features (a writer of data page v2 only cannot
        write a v1 case of BOOLEAN): that says nothing of this row."""
        return any(tag_matches(p, tag) for p in (*self.all_of, *self.any_of, *self.about))

    def matches_case(self, case_id: str, tags: Iterable[str]) -> bool:
        tags = tuple(tags)
        return ((not self.areas or case_id.startswith(self.areas))
                and all(_any_match(p, tags) for p in self.all_of)
                and (not self.any_of or any(_any_match(p, tags) for p in self.any_of))
                and not any(_any_match(p, tags) for p in self.none_of))


@dataclass(frozen=True)
class StatusRow:
    """One row of a status table."""

    key: str        # stable id: the Parquet site's feature id where it has the row
    group: str
    label: str
    spec: str       # the specification section it cites ("File: heading")
    selector: Selector | None
    sides: tuple[str, ...] = BOTH_SIDES
    note: str = ""  # why the row has no data, or what it adds to the site's row
    on_site: bool = True  # the Parquet site's table has this row

    @property
    def measured(self) -> Selector:
        """The selector of a row cases measure (a row without one has no data)."""
        if self.selector is None:
            raise ValueError(f"status row {self.key!r} has no cases")
        return self.selector


def _row(key: str, group: str, label: str, spec: str, selector: Selector | None, **kw) -> StatusRow:
    return StatusRow(key=key, group=group, label=label, spec=spec, selector=selector, **kw)


def _no_data(key: str, group: str, label: str, spec: str, note: str, **kw) -> StatusRow:
    return StatusRow(key=key, group=group, label=label, spec=spec, selector=None, note=note, **kw)


# --- Parquet -------------------------------------------------------------------------

PHYSICAL = "Physical types"
LOGICAL = "Logical types"
ENCODINGS = "Encodings"
COMPRESSIONS = "Compressions"
FORMAT_FEATURES = "Other format-level features"
APIS = "High-level data APIs"
ROBUSTNESS = "Lenient readings and bad files"

_TYPE_AREAS = ("physical/", "edge/")
_LOGICAL_AREAS = ("logical/", "physical/", "edge/")
_NESTED_AREAS = ("nested/", "shapes/", "shape/")
_LIES = ("lie:*",)
_THRIFT_TYPE = "parquet.thrift: enum Type"


def _physical(name: str) -> StatusRow:
    key = "physical-" + name.lower().replace("_", "-")
    return _row(key, PHYSICAL, name, _THRIFT_TYPE,
                Selector(all_of=(f"physical:{name}",), areas=_TYPE_AREAS, about=("type:*",)))


def _logical(key: str, label: str, section: str, *patterns: str, **kw) -> StatusRow:
    areas = kw.pop("areas", _LOGICAL_AREAS)
    none_of = kw.pop("none_of", ())
    return _row(key, LOGICAL, label, f"LogicalTypes.md: {section}",
                Selector(any_of=patterns, none_of=none_of, areas=areas), **kw)


def _encoding(key: str, label: str, section: str, tag: str, **kw) -> StatusRow:
    any_of = kw.pop("any_of", ())
    none_of = kw.pop("none_of", ())
    areas = kw.pop("areas", ("encoding/",))
    return _row(key, ENCODINGS, label, f"Encodings.md: {section}",
                Selector(all_of=(tag,), any_of=any_of, none_of=none_of, areas=areas), **kw)


def _codec(name: str, label: str | None = None) -> StatusRow:
    key = "compression-" + name.lower().replace("_", "-")
    if name == "LZ4":
        key = "compression-lz4-deprecated"
    return _row(key, COMPRESSIONS, label or name, f"Compression.md: {name}",
                Selector(all_of=(f"codec:{name}",), areas=("codec/",)))


def _rejects(family: str, label: str, spec: str) -> StatusRow:
    return _row(f"reject-{family}", ROBUSTNESS, f"Rejects bad files: {label}", spec,
                Selector(all_of=("verdict:bad", f"fault:{family}"), kind=REJECT),
                sides=READS_ONLY, on_site=False)


PARQUET_ROWS: tuple[StatusRow, ...] = (
    *(_physical(n) for n in ("BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE",
                             "BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY")),
    _logical("logical-string", "STRING", "STRING", "type:STRING"),
    _logical("logical-enum", "ENUM", "ENUM", "type:ENUM"),
    _logical("logical-uuid", "UUID", "UUID", "type:UUID"),
    _logical("logical-int-types", "8, 16, 32, 64 bit signed and unsigned INT", "Signed Integers",
             "type:INT(*"),
    _logical("logical-decimal-int32", "DECIMAL (INT32)", "DECIMAL", "type:DECIMAL(INT32)"),
    _logical("logical-decimal-int64", "DECIMAL (INT64)", "DECIMAL", "type:DECIMAL(INT64)"),
    _logical("logical-decimal-byte-array", "DECIMAL (BYTE_ARRAY)", "DECIMAL",
             "type:DECIMAL(BYTE_ARRAY)"),
    _logical("logical-decimal-fixed-len-byte-array", "DECIMAL (FIXED_LEN_BYTE_ARRAY)", "DECIMAL",
             "type:DECIMAL(FIXED_LEN_BYTE_ARRAY)"),
    _logical("logical-float16", "FLOAT16", "FLOAT16", "type:FLOAT16"),
    _logical("logical-date", "DATE", "DATE", "type:DATE"),
    _logical("logical-time-int32", "TIME (INT32)", "TIME", "type:TIME(ms,*"),
    _logical("logical-time-int64", "TIME (INT64)", "TIME", "type:TIME(us,*", "type:TIME(ns,*"),
    _logical("logical-timestamp-int64", "TIMESTAMP (INT64)", "TIMESTAMP", "type:TIMESTAMP(*"),
    _logical("logical-interval", "INTERVAL", "INTERVAL", "type:INTERVAL"),
    _logical("logical-json", "JSON", "JSON", "type:JSON"),
    _logical("logical-bson", "BSON", "BSON", "type:BSON"),
    _logical("logical-variant", "VARIANT", "VARIANT", "type:VARIANT",
             none_of=("variant:shredded",)),
    _row("variant-shredded", LOGICAL, "VARIANT, shredded", "VariantShredding.md: Value Shredding",
         Selector(all_of=("type:VARIANT", "variant:shredded")), on_site=False),
    _logical("logical-geometry", "GEOMETRY", "GEOMETRY", "type:GEOMETRY",
             areas=("logical/", "geospatial/")),
    _logical("logical-geography", "GEOGRAPHY", "GEOGRAPHY", "type:GEOGRAPHY",
             areas=("logical/", "geospatial/")),
    _logical("logical-list", "LIST", "Lists", "type:LIST", none_of=("legacy:*",),
             areas=_NESTED_AREAS),
    _row("legacy-list", LOGICAL, "LIST, legacy layouts",
         "LogicalTypes.md: Lists, Backward-compatibility rules",
         Selector(any_of=("legacy:array", "legacy:tuple", "legacy:two_level",
                          "legacy:unannotated")), on_site=False),
    _logical("logical-map", "MAP", "Maps", "type:MAP", none_of=("legacy:*",),
             areas=_NESTED_AREAS),
    _row("legacy-map", LOGICAL, "MAP, legacy layouts",
         "LogicalTypes.md: Maps, Backward-compatibility rules",
         Selector(any_of=("legacy:map_key_value", "legacy:misnamed")), on_site=False),
    _logical("logical-unknown", "UNKNOWN (always null)", "UNKNOWN (always null)", "type:UNKNOWN"),
    _logical("logical-file", "FILE", "FILE", "type:FILE", areas=("file/",)),
    _encoding("encoding-plain", "PLAIN", "Plain: (PLAIN = 0)", "encoding:PLAIN",
              none_of=("levels:BIT_PACKED",), areas=("encoding/", "physical/")),
    _encoding("encoding-plain-dictionary", "PLAIN_DICTIONARY",
              "Dictionary Encoding (PLAIN_DICTIONARY = 2 and RLE_DICTIONARY = 8)",
              "encoding:PLAIN_DICTIONARY"),
    _encoding("encoding-rle-dictionary", "RLE_DICTIONARY",
              "Dictionary Encoding (PLAIN_DICTIONARY = 2 and RLE_DICTIONARY = 8)",
              "encoding:RLE_DICTIONARY", areas=("encoding/", "pages/")),
    _encoding("encoding-rle", "RLE", "Run Length Encoding / Bit-Packing Hybrid (RLE = 3)",
              "encoding:RLE"),
    _encoding("encoding-bit-packed", "BIT_PACKED (deprecated)",
              "Bit-packed (Deprecated) (BIT_PACKED = 4)", "levels:BIT_PACKED",
              areas=("encoding/", "regression/")),
    _encoding("encoding-delta-binary-packed", "DELTA_BINARY_PACKED",
              "Delta Encoding (DELTA_BINARY_PACKED = 5)", "encoding:DELTA_BINARY_PACKED"),
    _encoding("encoding-delta-length-byte-array", "DELTA_LENGTH_BYTE_ARRAY",
              "Delta-length byte array: (DELTA_LENGTH_BYTE_ARRAY = 6)",
              "encoding:DELTA_LENGTH_BYTE_ARRAY"),
    _encoding("encoding-delta-byte-array", "DELTA_BYTE_ARRAY",
              "Delta Strings: (DELTA_BYTE_ARRAY = 7)", "encoding:DELTA_BYTE_ARRAY"),
    _encoding("encoding-byte-stream-split", "BYTE_STREAM_SPLIT (FLOAT, DOUBLE)",
              "Byte Stream Split: (BYTE_STREAM_SPLIT = 9)", "encoding:BYTE_STREAM_SPLIT",
              any_of=("physical:FLOAT", "physical:DOUBLE")),
    _encoding("encoding-byte-stream-split-extended",
              "BYTE_STREAM_SPLIT (INT32, INT64, FIXED_LEN_BYTE_ARRAY)",
              "Byte Stream Split: (BYTE_STREAM_SPLIT = 9)", "encoding:BYTE_STREAM_SPLIT",
              any_of=("physical:INT32", "physical:INT64", "physical:FIXED_LEN_BYTE_ARRAY")),
    _encoding("encoding-alp", "ALP", "Adaptive Lossless floating-Point: (ALP = 10)",
              "encoding:ALP"),
    _codec("UNCOMPRESSED"),
    _codec("BROTLI"),
    _codec("GZIP"),
    _codec("LZ4", "LZ4 (deprecated)"),
    _codec("LZ4_RAW"),
    _codec("LZO"),
    _codec("SNAPPY"),
    _codec("ZSTD"),
    _row("format-bloom-filters", FORMAT_FEATURES, "xxHash-based bloom filters",
         "BloomFilter.md: File Format",
         Selector(all_of=("bloom",), none_of=(*_LIES, "encryption:*"), areas=("bloom_filter/",)),
         sides=WRITES_ONLY),
    _no_data("format-bloom-filter-length", FORMAT_FEATURES, "Bloom filter length",
             "parquet.thrift: struct ColumnMetaData",
             "no case tells a reader that needs ColumnMetaData.bloom_filter_length from one "
             "that does not; the bloom filter cases write it and measure the filters"),
    _row("format-stats-min-max", FORMAT_FEATURES, "Statistics min_value, max_value",
         "parquet.thrift: struct Statistics",
         Selector(all_of=("statistics",), none_of=_LIES, areas=("statistics/", "edge/")),
         sides=WRITES_ONLY),
    _row("format-page-index", FORMAT_FEATURES, "Page index", "PageIndex.md: Technical Approach",
         Selector(all_of=("page_index",), none_of=_LIES, areas=("page_index/", "column_orders/")),
         sides=WRITES_ONLY),
    _row("format-page-crc32", FORMAT_FEATURES, "Page CRC32 checksum", "README.md: Checksumming",
         Selector(all_of=("crc",), none_of=_LIES, areas=("checksum/",))),
    _row("format-modular-encryption", FORMAT_FEATURES, "Modular encryption",
         "Encryption.md: 5. File Format",
         Selector(all_of=("encryption:*",), areas=("encryption/",))),
    _no_data("format-size-statistics", FORMAT_FEATURES, "Size statistics",
             "parquet.thrift: struct SizeStatistics",
             "no case reads or checks ColumnMetaData.size_statistics on its own"),
    _row("format-data-page-v2", FORMAT_FEATURES, "Data Page V2", "README.md: Data Pages",
         Selector(all_of=("page:v2",), areas=("pages/", "codec/uncompressed-v2"))),
    _row("ieee-754-total-order", FORMAT_FEATURES, "IEEE 754 total order and NaN counts",
         "parquet.thrift: union ColumnOrder",
         Selector(all_of=("column_order:IEEE_754_TOTAL_ORDER",), none_of=_LIES,
                  areas=("column_orders/",)), sides=WRITES_ONLY, on_site=False),
    _row("binary-protocol-extensions", FORMAT_FEATURES, "Binary protocol extensions",
         "BinaryProtocolExtensions.md: Binary Protocol Extensions",
         Selector(all_of=("thrift:extension",), areas=("extension/",)), on_site=False),
    _row("geospatial-statistics", FORMAT_FEATURES, "Geospatial statistics",
         "Geospatial.md: Statistics",
         Selector(all_of=("statistics",), any_of=("type:GEOMETRY", "type:GEOGRAPHY"),
                  areas=("geospatial/",)), sides=WRITES_ONLY, on_site=False),
    _no_data("api-external-column-data", APIS, "External column data",
             "README.md: Separating metadata and column data",
             "no case writes a ColumnChunk.file_path", sides=READS_ONLY),
    _no_data("api-sorting-columns", APIS, "Row group \"Sorting column\" metadata",
             "parquet.thrift: struct SortingColumn", "no case writes RowGroup.sorting_columns"),
    _row("api-rowgroup-pruning-stats", APIS, "Row group pruning using statistics",
         "parquet.thrift: struct Statistics",
         Selector(all_of=("predicate", "statistics"), none_of=("page_index", "bloom", *_LIES),
                  kind=FILTER), sides=READS_ONLY),
    _row("api-rowgroup-pruning-bloom", APIS, "Row group pruning using bloom filter",
         "BloomFilter.md: Technical Approach",
         Selector(all_of=("predicate", "bloom"), none_of=(*_LIES, "encryption:*"), kind=FILTER),
         sides=READS_ONLY),
    _no_data("api-column-projection", APIS, "Reading select columns only",
             "README.md: Column chunks", "every read of the suite reads every column",
             sides=READS_ONLY),
    _row("api-page-pruning-stats", APIS, "Page pruning using statistics", "PageIndex.md: Goals",
         Selector(all_of=("predicate", "page_index"), none_of=_LIES, kind=FILTER),
         sides=READS_ONLY),
    _row("untrue-indexes", ROBUSTNESS, "Filtered reads of files with untrue statistics or indexes",
         "PageIndex.md: Technical Approach", Selector(any_of=_LIES, kind=FILTER, untrue=True),
         sides=READS_ONLY, on_site=False),
    _row("lenient-readings", ROBUSTNESS, "Lenient readings (one broken rule, one reading)",
         "README.md: Error recovery",
         Selector(all_of=("verdict:acceptable",), kind=REJECT), sides=READS_ONLY, on_site=False),
    _rejects("footer", "footer", "README.md: File format"),
    _rejects("framing", "file framing", "README.md: File format"),
    _rejects("metadata", "file metadata", "README.md: Metadata"),
    _rejects("schema", "schema", "README.md: Types"),
    _rejects("type-rule", "type annotations", "LogicalTypes.md: Compatibility"),
    _rejects("page", "pages", "README.md: Data Pages"),
    _rejects("levels", "levels", "README.md: Nested Encoding"),
    _rejects("dictionary", "dictionary pages",
             "Encodings.md: Dictionary Encoding (PLAIN_DICTIONARY = 2 and RLE_DICTIONARY = 8)"),
    _rejects("compression", "compressed pages", "Compression.md: Codecs"),
    _rejects("checksum", "checksums", "README.md: Checksumming"),
    _rejects("encryption", "encryption", "Encryption.md: 5. File Format"),
    _rejects("alp", "ALP pages", "Encodings.md: Adaptive Lossless floating-Point: (ALP = 10)"),
    _rejects("variant", "VARIANT values", "VariantEncoding.md: Variant Binary Encoding"),
)

# --- ORC -----------------------------------------------------------------------------

ORC_TYPES = "Types"
ORC_ENCODINGS = "Encodings"
ORC_CODECS = "Codecs"
ORC_INDEXES = "Statistics and indexes"
ORC_ENCRYPTION = "Encryption"
ORC_TIME = "Calendars and time zones"
ORC_ROBUSTNESS = "Lenient readings and bad files"

_ORC_TYPE_AREAS = ("orc/types/", "orc/edge/", "orc/nested/")


def _orc_type(name: str, label: str, section: str) -> StatusRow:
    return _row(f"orc-type-{name.lower()}", ORC_TYPES, label, f"ORCv1.md: {section}",
                Selector(all_of=(f"type:{name}",), areas=_ORC_TYPE_AREAS))


def _orc_codec(name: str) -> StatusRow:
    return _row(f"orc-codec-{name.lower()}", ORC_CODECS, name, "ORCv1.md: Compression",
                Selector(all_of=(f"codec:{name}",), areas=("orc/codecs/",)))


def _orc_rejects(family: str, label: str, spec: str) -> StatusRow:
    return _row(f"orc-reject-{family}", ORC_ROBUSTNESS, f"Rejects bad files: {label}", spec,
                Selector(all_of=("verdict:bad", f"fault:orc-{family}"), kind=REJECT),
                sides=READS_ONLY)


_ORC_INDEX_CASES = ("orc/indexes/", "orc/edge/")

ORC_ROWS: tuple[StatusRow, ...] = (
    _orc_type("BOOLEAN", "boolean", "Boolean Columns"),
    _orc_type("BYTE", "tinyint", "TinyInt Columns"),
    _orc_type("SHORT", "smallint", "SmallInt, Int, and BigInt Columns"),
    _orc_type("INT", "int", "SmallInt, Int, and BigInt Columns"),
    _orc_type("LONG", "bigint", "SmallInt, Int, and BigInt Columns"),
    _orc_type("FLOAT", "float", "Float and Double Columns"),
    _orc_type("DOUBLE", "double", "Float and Double Columns"),
    _orc_type("STRING", "string", "String, Char, and VarChar Columns"),
    _orc_type("CHAR", "char", "String, Char, and VarChar Columns"),
    _orc_type("VARCHAR", "varchar", "String, Char, and VarChar Columns"),
    _orc_type("BINARY", "binary", "Binary Columns"),
    _orc_type("DECIMAL", "decimal", "Decimal Columns"),
    _orc_type("DATE", "date", "Date Columns"),
    _orc_type("TIMESTAMP", "timestamp", "Timestamp Columns"),
    _orc_type("TIMESTAMP_INSTANT", "timestamp with local time zone", "Timestamp Columns"),
    _orc_type("STRUCT", "struct", "Struct Columns"),
    _orc_type("LIST", "array", "List Columns"),
    _orc_type("MAP", "map", "Map Columns"),
    _orc_type("UNION", "uniontype", "Union Columns"),
    *(_row(f"orc-type-{name.lower()}", ORC_TYPES, name.lower(), "ORCv2.md: Geometry & Geography Columns",
           Selector(all_of=(f"type:{name}",), areas=("orc/geospatial/",)))
      for name in ("GEOMETRY", "GEOGRAPHY")),
    _row("orc-byte-rle", ORC_ENCODINGS, "Byte run length encoding",
         "ORCv1.md: Byte Run Length Encoding", Selector(areas=("orc/encodings/byte-rle",))),
    _row("orc-boolean-rle", ORC_ENCODINGS, "Boolean run length encoding",
         "ORCv1.md: Boolean Run Length Encoding", Selector(areas=("orc/encodings/boolean-rle",))),
    _row("orc-rle-v1", ORC_ENCODINGS, "Integer RLE, version 1",
         "ORCv1.md: Integer Run Length Encoding, version 1",
         Selector(all_of=("rle:v1",), areas=("orc/encodings/",))),
    *(_row(f"orc-rle-v2-{sub.lower().replace('_', '-')}", ORC_ENCODINGS, f"Integer RLE v2: {sub}",
           f"ORCv1.md: {section}", Selector(all_of=(f"rle_v2:{sub}*",), areas=("orc/encodings/",)))
      for sub, section in (("SHORT_REPEAT", "Short Repeat"), ("DIRECT", "Direct"),
                           ("PATCHED_BASE", "Patched Base"), ("DELTA", "Delta"))),
    _row("orc-string-direct", ORC_ENCODINGS, "String columns, DIRECT",
         "ORCv1.md: String, Char, and VarChar Columns",
         Selector(all_of=("encoding:DIRECT",), areas=("orc/encodings/",))),
    _row("orc-string-dictionary", ORC_ENCODINGS, "String columns, DICTIONARY",
         "ORCv1.md: String, Char, and VarChar Columns",
         Selector(all_of=("encoding:DICTIONARY",), areas=("orc/encodings/",))),
    *(_orc_codec(n) for n in ("NONE", "ZLIB", "SNAPPY", "LZO", "LZ4", "ZSTD", "BROTLI")),
    _row("orc-compression-blocks", ORC_CODECS, "Compression chunks smaller than a stream",
         "ORCv1.md: Compression", Selector(all_of=("compression:block_size",))),
    _row("orc-statistics", ORC_INDEXES, "Column statistics", "ORCv1.md: Column Statistics",
         Selector(all_of=("predicate",), none_of=("bloom", *_LIES), areas=_ORC_INDEX_CASES),
         sides=WRITES_ONLY),
    _row("orc-row-index", ORC_INDEXES, "Row index", "ORCv1.md: Row Group Index",
         Selector(any_of=("row_index:stride", "row_index:none"), areas=("orc/stripes/",))),
    _row("orc-bloom-filters", ORC_INDEXES, "Bloom filters", "ORCv1.md: Bloom Filter Index",
         Selector(all_of=("bloom",), none_of=_LIES, areas=_ORC_INDEX_CASES), sides=WRITES_ONLY),
    _row("orc-pruning-stats", ORC_INDEXES, "Pruning using statistics and the row index",
         "ORCv1.md: Row Group Index",
         Selector(all_of=("predicate",), none_of=("bloom", *_LIES), kind=FILTER),
         sides=READS_ONLY),
    _row("orc-pruning-bloom", ORC_INDEXES, "Pruning using Bloom filters",
         "ORCv1.md: Bloom Filter Index",
         Selector(all_of=("predicate", "bloom"), none_of=_LIES, kind=FILTER), sides=READS_ONLY),
    _row("orc-untrue-indexes", ORC_INDEXES,
         "Filtered reads of files with untrue statistics or indexes", "ORCv1.md: Indexes",
         Selector(any_of=_LIES, kind=FILTER, untrue=True), sides=READS_ONLY),
    _row("orc-encryption", ORC_ENCRYPTION, "Column encryption (read with the keys)",
         "ORCv1.md: Column Encryption",
         Selector(all_of=("encryption:column",), none_of=(KEYLESS_VIEW_TAG,), areas=("orc/encryption/",))),
    _row("orc-masked-view", ORC_ENCRYPTION, "Masked view, read without keys",
         "ORCv1.md: Column Encryption, Data Masks",
         Selector(all_of=("encryption:column", KEYLESS_VIEW_TAG), areas=("orc/encryption/",)),
         sides=READS_ONLY,
         note="the reads of readers with no way to take keys, judged against the masked view "
              "(each encrypted column as its mask writes it); the reference takes keys"),
    _row("orc-calendar-julian", ORC_TIME, "Julian/Gregorian hybrid calendar",
         "ORCv1.md: Date Columns", Selector(all_of=("calendar:JULIAN_GREGORIAN",))),
    _row("orc-calendar-proleptic", ORC_TIME, "Proleptic Gregorian calendar",
         "ORCv1.md: Date Columns", Selector(all_of=("calendar:PROLEPTIC_GREGORIAN",))),
    _row("orc-writer-timezone", ORC_TIME, "Writer time zone", "ORCv1.md: Timestamp Columns",
         Selector(all_of=("timezone:writer",))),
    _row("orc-lenient-readings", ORC_ROBUSTNESS, "Lenient readings (one broken rule, one reading)",
         "ORCv1.md: File Tail",
         Selector(all_of=("verdict:acceptable",), kind=REJECT), sides=READS_ONLY),
    _orc_rejects("tail", "file tail", "ORCv1.md: File Tail"),
    _orc_rejects("footer", "footer", "ORCv1.md: Footer"),
    _orc_rejects("stripe", "stripes", "ORCv1.md: Stripes"),
    _orc_rejects("compression", "compressed streams", "ORCv1.md: Compression"),
    _orc_rejects("values", "column values", "ORCv1.md: Column Encodings"),
    _orc_rejects("geospatial", "geometry and geography", "ORCv2.md: Geometry & Geography Types"),
    _orc_rejects("encryption", "column encryption", "ORCv1.md: Column Encryption"),
)

ROWS: dict[str, tuple[StatusRow, ...]] = {"parquet": PARQUET_ROWS, "orc": ORC_ROWS}
"""The rows of each format's table, in the order shown."""


def rows_of(fmt: str) -> tuple[StatusRow, ...]:
    """The rows of format ``fmt``'s table (none for a format without a table)."""
    return ROWS.get(fmt, ())


def groups(rows: Iterable[StatusRow]) -> list[tuple[str, list[StatusRow]]]:
    """``rows`` grouped by their group, in the order the groups first appear."""
    out: dict[str, list[StatusRow]] = {}
    for row in rows:
        out.setdefault(row.group, []).append(row)
    return list(out.items())
