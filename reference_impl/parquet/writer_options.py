"""Every knob of the reference writer, and how it resolves for one column.

The knobs follow the spec's vocabulary:

* value encoding (Encodings.md, 'Supported Encodings'): ``encoding``
  for every column, ``column_encodings`` per column. A dictionary encoding
  (``RLE_DICTIONARY``, or its deprecated data page v1 name ``PLAIN_DICTIONARY``)
  turns the dictionary on: "If the dictionary grows too big, whether in size or
  number of distinct values, the encoding will fall back to the plain
  encoding" ('Dictionary Encoding'). ``dictionary_size_limit`` is that size, in
  bytes of the PLAIN-encoded dictionary; ``fallback_encoding`` (PLAIN by
  default) is what the pages after the fallback use.
* compression ('3.7.1 - Compression'): ``codec`` (``column_codecs`` per
  column) and the codec's own ``compression_level`` (applied to the columns
  whose codec has levels: GZIP, BROTLI, ZSTD, LZ4, LZ4_RAW; see ``compression``).
* pages (README.md, 'Data Pages'; parquet.thrift ``DataPageHeader`` and
  ``DataPageHeaderV2``): ``page_version`` 1 or 2; ``v2_is_compressed``
  (``DataPageHeaderV2.is_compressed``); ``level_encoding`` RLE or the
  deprecated BIT_PACKED (data page v1 only: v2 levels are always RLE);
  ``page_row_limit`` (records per page) and ``page_byte_limit`` (an estimate of
  the page's uncompressed bytes, see ``chunk_writer``). Pages are only ever cut
  between records (repetition level 0), as ``DataPageHeaderV2.num_rows``
  requires ("pages change on record boundaries (r = 0)").
* row groups ('Row Group Size'): ``row_group_size`` in records; ``empty_row_groups``
  adds a row group of no rows before the first, between every two and after the last
  (nothing in 'File format' asks a row group for a row; few writers make one).
* footer: ``created_by``, ``key_value_metadata``.
* metadata for skipping data (``statistics``, ``page_index``, ``bloom_filter``):
  ``statistics`` (ColumnMetaData.statistics), ``page_header_statistics``
  (DataPageHeader(V2).statistics, "not recommended" beside a page index, '3.9 -
  Page Index'), ``distinct_count``, ``statistics_truncate_length`` (binary
  bounds longer than this are truncated, inexact but still bounds),
  ``size_statistics`` (ColumnMetaData.size_statistics and their page index
  counterparts), ``page_index`` (ColumnIndex + OffsetIndex after the row groups),
  ``bloom_filter_columns`` with ``bloom_filter_ndv``, ``bloom_filter_fpp`` and
  ``bloom_filter_placement`` ('3.6 - Bloom Filter': after all row groups, or
  between row groups), ``page_checksum`` (PageHeader.crc, '3.7.4 - Checksumming').
* column orders (parquet.thrift ``union ColumnOrder``, ``FileMetaData.column_orders``):
  ``column_orders`` per column, a member name (``TYPE_ORDER``,
  ``IEEE_754_TOTAL_ORDER`` for FLOAT / DOUBLE / FLOAT16, ``INT96_TIMESTAMP_ORDER``
  for INT96); unnamed columns get ``sort_order.default_column_order``. The
  statistics and the column index follow the column's order.
* encryption ('3.7.3 - Parquet Modular Encryption'): ``encryption``, a
  ``encryption.FileEncryptionProperties`` (algorithm, footer and column keys,
  footer mode, AAD prefix); ``None`` writes a plaintext file.
* ``thrift_extensions``: TEST-ONLY. The structs (``file_metadata``,
  ``column_metadata``, ``page_header``: every one of that kind in the file)
  that get extension bytes (BinaryProtocolExtensions.md; the bytes are
  ``binary_protocol_extensions.TEST_EXTENSION``), which readers must ignore.
* ``lies``: TEST-ONLY. Metadata deliberately untrue to the data, to show which
  readers trust what (see :data:`LIES`). Never set it to write real data.

Per-column maps are keyed by a column's dotted path (``ColumnMetaData.path_in_schema``
joined with "."), or by the dotted path of any group above it, which then
applies to every leaf under that group; the longest matching key wins.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import metadata as package_metadata

from reference_impl.parquet.encodings.registry import Use, encodings_for
from reference_impl.parquet.encryption.properties import FileEncryptionProperties
from reference_impl.parquet.metadata.parquet_thrift import CompressionCodec, Encoding
from reference_impl.parquet.pages.compression import CODECS
from reference_impl.parquet.statistics.sort_order import COLUMN_ORDERS

__all__ = [
    "DEFAULT_CREATED_BY",
    "DICTIONARY_ENCODINGS",
    "THRIFT_EXTENSION_STRUCTS",
    "ColumnSettings",
    "WriterOptions",
]


def _package_version() -> str:
    try:
        return package_metadata.version("columnar-conformance")
    except package_metadata.PackageNotFoundError:
        return "0+unknown"


# parquet.thrift 'created_by': "<Application> version <App Version> (build <App Build Hash>)".
DEFAULT_CREATED_BY = f"columnar-conformance reference version {_package_version()}"

# The encodings ``encodings.registry`` implements for each place in a page.
DICTIONARY_ENCODINGS = encodings_for(Use.DICTIONARY_INDICES)
VALUE_ENCODINGS = encodings_for(Use.VALUES)
LEVEL_ENCODINGS = encodings_for(Use.LEVELS)
PAGE_VERSIONS = (1, 2)
BLOOM_FILTER_PLACEMENTS = ("after_row_groups", "between_row_groups")
# The structs ``thrift_extensions`` can extend: FileMetaData, ColumnMetaData, PageHeader.
THRIFT_EXTENSION_STRUCTS = ("file_metadata", "column_metadata", "page_header")
DEFAULT_BLOOM_FILTER_FPP = 0.01
# What ``lies`` can falsify, and how (the writer's ``lies`` module does it):
LIES = {
    "statistics": "row-group min and max both claim the chunk's maximum value (and a bounding box "
                  "its xmin as xmax)",
    "page_index": "every ColumnIndex entry claims min and max equal to its page's maximum",
    "bloom_filter": "an all-zero bitset: every probe answers 'definitely not present'",
    "crc": "every PageHeader.crc is off by one bit",
    "nan_count": "Statistics.nan_count and ColumnIndex.nan_counts claim no NaN",
}


@dataclass(frozen=True)
class ColumnSettings:
    """The knobs as they apply to one leaf column (see :meth:`WriterOptions.for_column`).

    ``dictionary`` is the data page encoding of dictionary indices
    (RLE_DICTIONARY or PLAIN_DICTIONARY), or ``None`` for no dictionary;
    ``encoding`` is the non-dictionary encoding: of every page without a
    dictionary, and of the pages after a fallback.
    """

    encoding: Encoding
    dictionary: Encoding | None
    dictionary_size_limit: int | None
    codec: CompressionCodec
    compression_level: int | None
    page_version: int
    v2_is_compressed: bool
    level_encoding: Encoding
    page_row_limit: int | None
    page_byte_limit: int | None
    statistics: bool
    page_header_statistics: bool
    distinct_count: bool
    statistics_truncate_length: int | None
    size_statistics: bool
    page_index: bool
    bloom_filter: bool
    page_checksum: bool
    lies: frozenset[str]
    column_order: str | None = None  # a ColumnOrder member; None: the writer's default
    page_header_extension: bool = False


@dataclass(frozen=True)
class WriterOptions:
    """How :func:`~reference_impl.parquet.writer.write_table` lays out a file.

    Enum fields accept the enum or its name (``"ZSTD"``). ``None`` limits mean
    "no limit": one page per column chunk, one row group per file.
    """

    encoding: Encoding = Encoding.PLAIN
    column_encodings: Mapping[str, Encoding] = field(default_factory=dict)
    fallback_encoding: Encoding = Encoding.PLAIN
    dictionary_size_limit: int | None = None
    codec: CompressionCodec = CompressionCodec.UNCOMPRESSED
    column_codecs: Mapping[str, CompressionCodec] = field(default_factory=dict)
    compression_level: int | None = None
    page_version: int = 1
    v2_is_compressed: bool = True
    level_encoding: Encoding = Encoding.RLE
    page_row_limit: int | None = None
    page_byte_limit: int | None = None
    row_group_size: int | None = None
    empty_row_groups: bool = False
    created_by: str = DEFAULT_CREATED_BY
    key_value_metadata: Mapping[str, str | None] | None = None
    statistics: bool = True
    page_header_statistics: bool = False
    distinct_count: bool = False
    statistics_truncate_length: int | None = None
    size_statistics: bool = True
    page_index: bool = False
    bloom_filter_columns: frozenset[str] = frozenset()
    bloom_filter_ndv: int | None = None
    bloom_filter_fpp: float = DEFAULT_BLOOM_FILTER_FPP
    bloom_filter_placement: str = "after_row_groups"
    page_checksum: bool = False
    column_orders: Mapping[str, str] = field(default_factory=dict)
    lies: frozenset[str] = frozenset()
    thrift_extensions: frozenset[str] = frozenset()
    # Parquet Modular Encryption ('3.7.3'); None writes a plaintext file.
    encryption: FileEncryptionProperties | None = None

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        set_(self, "encoding", _enum(Encoding, self.encoding, "encoding"))
        set_(self, "fallback_encoding", _enum(Encoding, self.fallback_encoding, "fallback_encoding"))
        set_(self, "level_encoding", _enum(Encoding, self.level_encoding, "level_encoding"))
        set_(self, "codec", _enum(CompressionCodec, self.codec, "codec"))
        set_(
            self,
            "column_encodings",
            {
                path: _enum(Encoding, value, f"column_encodings[{path!r}]")
                for path, value in dict(self.column_encodings).items()
            },
        )
        set_(
            self,
            "column_codecs",
            {
                path: _enum(CompressionCodec, value, f"column_codecs[{path!r}]")
                for path, value in dict(self.column_codecs).items()
            },
        )
        for codec in (self.codec, *self.column_codecs.values()):
            if codec not in CODECS:
                raise ValueError(f"no compression codec {codec.name} in this implementation")
        self._check_encodings()
        if self.page_version not in PAGE_VERSIONS:
            raise ValueError(f"page_version must be 1 or 2, got {self.page_version!r}")
        if self.level_encoding == Encoding.BIT_PACKED and self.page_version != 1:
            raise ValueError("BIT_PACKED levels exist only in data page v1 (v2 levels are always RLE)")
        for name in ("dictionary_size_limit", "page_row_limit", "page_byte_limit", "row_group_size",
                     "statistics_truncate_length", "bloom_filter_ndv"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
                raise ValueError(f"{name} must be a positive int or None, got {value!r}")
        set_(self, "bloom_filter_columns", frozenset(self.bloom_filter_columns))
        set_(self, "lies", frozenset(self.lies))
        set_(self, "column_orders", dict(self.column_orders))
        for path, member in self.column_orders.items():
            if member not in COLUMN_ORDERS:
                raise ValueError(f"column_orders[{path!r}]: {member!r} is not one of {COLUMN_ORDERS}")
        set_(self, "thrift_extensions", frozenset(self.thrift_extensions))
        self._check_metadata_options()
        if self.encryption is not None and not isinstance(self.encryption, FileEncryptionProperties):
            raise ValueError(f"encryption must be FileEncryptionProperties or None, got {self.encryption!r}")
        if not isinstance(self.created_by, str):
            raise ValueError(f"created_by must be a string, got {self.created_by!r}")
        for key, value in (self.key_value_metadata or {}).items():
            if not isinstance(key, str) or not (value is None or isinstance(value, str)):
                raise ValueError(f"key_value_metadata must map str to str, got {key!r}: {value!r}")

    def _check_encodings(self) -> None:
        """Each encoding where the registry allows and implements it; which physical
        types it applies to is checked per column by the writer, which knows the schema."""
        named = {"encoding": self.encoding}
        named |= {f"column_encodings[{path!r}]": value for path, value in self.column_encodings.items()}
        for what, encoding in named.items():
            if encoding not in VALUE_ENCODINGS | DICTIONARY_ENCODINGS:
                raise ValueError(f"{what}: {encoding.name} is not a value encoding this writer implements")
        if self.fallback_encoding not in VALUE_ENCODINGS:
            fallback = self.fallback_encoding.name
            raise ValueError(f"fallback_encoding must be a non-dictionary value encoding, not {fallback}")
        if self.level_encoding not in LEVEL_ENCODINGS:
            raise ValueError(f"level_encoding must be RLE or BIT_PACKED, got {self.level_encoding.name}")

    def _check_metadata_options(self) -> None:
        if not 0.0 < self.bloom_filter_fpp < 1.0:
            raise ValueError(f"bloom_filter_fpp must be between 0 and 1, got {self.bloom_filter_fpp!r}")
        if self.bloom_filter_placement not in BLOOM_FILTER_PLACEMENTS:
            raise ValueError(
                f"bloom_filter_placement must be one of {BLOOM_FILTER_PLACEMENTS}, "
                f"got {self.bloom_filter_placement!r}"
            )
        unknown = sorted(self.lies - set(LIES))
        if unknown:
            raise ValueError(f"lies: no such lie {unknown}; known: {sorted(LIES)}")
        unknown = sorted(self.thrift_extensions - set(THRIFT_EXTENSION_STRUCTS))
        if unknown:
            known = THRIFT_EXTENSION_STRUCTS
            raise ValueError(f"thrift_extensions: no such struct {unknown}; known: {known}")

    @property
    def column_keys(self) -> set[str]:
        """Every dotted path named by a per-column map or set (the writer checks they exist)."""
        return (set(self.column_encodings) | set(self.column_codecs) | set(self.bloom_filter_columns)
                | set(self.column_orders))

    def for_column(self, dotted_path: str) -> ColumnSettings:
        encoding = _lookup(self.column_encodings, dotted_path, self.encoding)
        dictionary = encoding if encoding in DICTIONARY_ENCODINGS else None
        codec = _lookup(self.column_codecs, dotted_path, self.codec)
        return ColumnSettings(
            encoding=self.fallback_encoding if dictionary is not None else encoding,
            dictionary=dictionary,
            dictionary_size_limit=self.dictionary_size_limit,
            codec=codec,
            compression_level=self.compression_level if CODECS[codec].has_level else None,
            page_version=self.page_version,
            v2_is_compressed=self.v2_is_compressed,
            level_encoding=self.level_encoding,
            page_row_limit=self.page_row_limit,
            page_byte_limit=self.page_byte_limit,
            statistics=self.statistics,
            page_header_statistics=self.page_header_statistics,
            distinct_count=self.distinct_count,
            statistics_truncate_length=self.statistics_truncate_length,
            size_statistics=self.size_statistics,
            page_index=self.page_index,
            bloom_filter=_lookup(dict.fromkeys(self.bloom_filter_columns, True), dotted_path, False),
            page_checksum=self.page_checksum,
            lies=self.lies,
            column_order=_lookup(self.column_orders, dotted_path, None),
            page_header_extension="page_header" in self.thrift_extensions,
        )


def _lookup(overrides: Mapping[str, object], dotted_path: str, default):
    """The value for the longest key that is the path or a group above it."""
    parts = dotted_path.split(".")
    for length in range(len(parts), 0, -1):
        key = ".".join(parts[:length])
        if key in overrides:
            return overrides[key]
    return default


def _enum(enum_type, value, what: str):
    if isinstance(value, str):
        try:
            return enum_type[value]
        except KeyError:
            raise ValueError(f"{what}: no {enum_type.__name__} named {value!r}") from None
    try:
        return enum_type(value)
    except ValueError:
        raise ValueError(f"{what}: {value!r} is not a {enum_type.__name__}") from None
