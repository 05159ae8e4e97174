"""The Parquet metadata structures of parquet.thrift, declared once each.

Source: apache/parquet-format ``src/main/thrift/parquet.thrift`` as it stands
today (the text docs/spec-sections.json indexes), which adds beyond the older
copy the project started from: LogicalType members FLOAT16 = 15, VARIANT = 16, GEOMETRY = 17,
GEOGRAPHY = 18, FILE = 19 (LogicalTypes.md 'FLOAT16', 'VARIANT', 'GEOMETRY', 'GEOGRAPHY',
'FILE'),
SizeStatistics and GeospatialStatistics (ColumnMetaData fields 16 and 17),
Statistics.is_max_value_exact / is_min_value_exact (7, 8), the page index
histograms (ColumnIndex 6, 7; OffsetIndex 2), the FileMetaData fields of
'Parquet Modular Encryption' (8, 9), and the floating-point and INT96 column
orders of 2.13 and after (ColumnOrder 2 IEEE_754_TOTAL_ORDER, 3
INT96_TIMESTAMP_ORDER; Statistics.nan_count 9; ColumnIndex.nan_counts 8). Anything
newer still decodes: unknown
fields are skipped and unknown enum values are kept as ints (see thrift_struct).

Declarations follow the IDL order and names exactly (including its camelCase
names such as ``logicalType`` and ``isAdjustedToUTC``) so this file can be read
side by side with parquet.thrift. Serialisation is generic: see
``thrift_struct.serialize`` / ``deserialize``; nothing here is hand-coded.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from reference_impl.parquet.metadata.thrift_struct import (
    TI8,
    TI16,
    TI32,
    TI64,
    TBinary,
    TBool,
    TDouble,
    TEnum,
    ThriftStruct,
    ThriftUnion,
    TList,
    TString,
    TStringOrBytes,
    thrift_field,
)

# ---------------------------------------------------------------------------
# Enums
# ---------------------------------------------------------------------------


class Type(IntEnum):
    """Physical types ('3.4 - Types')."""

    BOOLEAN = 0
    INT32 = 1
    INT64 = 2
    INT96 = 3  # deprecated
    FLOAT = 4
    DOUBLE = 5
    BYTE_ARRAY = 6
    FIXED_LEN_BYTE_ARRAY = 7


class ConvertedType(IntEnum):
    """DEPRECATED annotations, superseded by LogicalType (LogicalTypes.md)."""

    UTF8 = 0
    MAP = 1
    MAP_KEY_VALUE = 2
    LIST = 3
    ENUM = 4
    DECIMAL = 5
    DATE = 6
    TIME_MILLIS = 7
    TIME_MICROS = 8
    TIMESTAMP_MILLIS = 9
    TIMESTAMP_MICROS = 10
    UINT_8 = 11
    UINT_16 = 12
    UINT_32 = 13
    UINT_64 = 14
    INT_8 = 15
    INT_16 = 16
    INT_32 = 17
    INT_64 = 18
    JSON = 19
    BSON = 20
    INTERVAL = 21


class FieldRepetitionType(IntEnum):
    REQUIRED = 0  # exactly one value per record
    OPTIONAL = 1  # zero or one value per record (nullable)
    REPEATED = 2  # zero or more values per record


class Encoding(IntEnum):
    PLAIN = 0
    # 1 was GROUP_VAR_INT, never used
    PLAIN_DICTIONARY = 2  # deprecated
    RLE = 3
    BIT_PACKED = 4  # deprecated
    DELTA_BINARY_PACKED = 5
    DELTA_LENGTH_BYTE_ARRAY = 6
    DELTA_BYTE_ARRAY = 7
    RLE_DICTIONARY = 8
    BYTE_STREAM_SPLIT = 9
    ALP = 10  # in Preview (Encodings.md): encodings.alp


class CompressionCodec(IntEnum):
    UNCOMPRESSED = 0
    SNAPPY = 1
    GZIP = 2
    LZO = 3
    BROTLI = 4
    LZ4 = 5  # deprecated
    ZSTD = 6
    LZ4_RAW = 7


class PageType(IntEnum):
    DATA_PAGE = 0
    INDEX_PAGE = 1
    DICTIONARY_PAGE = 2
    DATA_PAGE_V2 = 3


class BoundaryOrder(IntEnum):
    UNORDERED = 0
    ASCENDING = 1
    DESCENDING = 2


class EdgeInterpolationAlgorithm(IntEnum):
    """GEOGRAPHY edge interpolation (LogicalTypes.md 'GEOGRAPHY')."""

    SPHERICAL = 0
    VINCENTY = 1
    THOMAS = 2
    ANDOYER = 3
    KARNEY = 4


# ---------------------------------------------------------------------------
# Statistics
# ---------------------------------------------------------------------------


@dataclass
class SizeStatistics(ThriftStruct):
    """Unencoded sizes and level histograms, for memory estimates (format 2.10)."""

    unencoded_byte_array_data_bytes: int | None = thrift_field(1, TI64)
    repetition_level_histogram: list[int] | None = thrift_field(2, TList(TI64))
    definition_level_histogram: list[int] | None = thrift_field(3, TList(TI64))


@dataclass
class BoundingBox(ThriftStruct):
    xmin: float = thrift_field(1, TDouble, required=True)
    xmax: float = thrift_field(2, TDouble, required=True)
    ymin: float = thrift_field(3, TDouble, required=True)
    ymax: float = thrift_field(4, TDouble, required=True)
    zmin: float | None = thrift_field(5, TDouble)
    zmax: float | None = thrift_field(6, TDouble)
    mmin: float | None = thrift_field(7, TDouble)
    mmax: float | None = thrift_field(8, TDouble)


@dataclass
class GeospatialStatistics(ThriftStruct):
    """Statistics specific to GEOMETRY and GEOGRAPHY columns."""

    bbox: BoundingBox | None = thrift_field(1, BoundingBox)
    geospatial_types: list[int] | None = thrift_field(2, TList(TI32))


@dataclass
class Statistics(ThriftStruct):
    """Per row group and per page statistics. All fields optional.

    Values are PLAIN encoded, except that byte arrays have no length prefix.
    ``max``/``min`` are deprecated (signed order only); prefer the ``*_value`` pair.
    """

    max: bytes | None = thrift_field(1, TBinary)
    min: bytes | None = thrift_field(2, TBinary)
    null_count: int | None = thrift_field(3, TI64)
    distinct_count: int | None = thrift_field(4, TI64)
    max_value: bytes | None = thrift_field(5, TBinary)
    min_value: bytes | None = thrift_field(6, TBinary)
    is_max_value_exact: bool | None = thrift_field(7, TBool)
    is_min_value_exact: bool | None = thrift_field(8, TBool)
    nan_count: int | None = thrift_field(9, TI64)  # FLOAT, DOUBLE, FLOAT16 only


# ---------------------------------------------------------------------------
# Logical types (LogicalTypes.md)
# ---------------------------------------------------------------------------


@dataclass
class StringType(ThriftStruct):
    """BYTE_ARRAY holding UTF-8. ConvertedType UTF8."""


@dataclass
class UUIDType(ThriftStruct):
    """FIXED_LEN_BYTE_ARRAY(16) holding raw UUID bytes. No ConvertedType."""


@dataclass
class MapType(ThriftStruct):
    """Annotates a group; see LogicalTypes.md 'Maps'. ConvertedType MAP."""


@dataclass
class ListType(ThriftStruct):
    """Annotates a group; see LogicalTypes.md 'Lists'. ConvertedType LIST."""


@dataclass
class EnumType(ThriftStruct):
    """BYTE_ARRAY holding UTF-8. ConvertedType ENUM."""


@dataclass
class DateType(ThriftStruct):
    """INT32 days since the Unix epoch. ConvertedType DATE."""


@dataclass
class Float16Type(ThriftStruct):
    """FIXED_LEN_BYTE_ARRAY(2), IEEE half precision, little endian. No ConvertedType."""


@dataclass
class NullType(ThriftStruct):
    """Always-null column (LogicalType member UNKNOWN). No ConvertedType."""


@dataclass
class DecimalType(ThriftStruct):
    """unscaled * 10^-scale. ConvertedType DECIMAL, plus SchemaElement.scale/precision."""

    scale: int = thrift_field(1, TI32, required=True)
    precision: int = thrift_field(2, TI32, required=True)


@dataclass
class MilliSeconds(ThriftStruct):
    pass


@dataclass
class MicroSeconds(ThriftStruct):
    pass


@dataclass
class NanoSeconds(ThriftStruct):
    pass


@dataclass
class TimeUnit(ThriftUnion):
    MILLIS: MilliSeconds | None = thrift_field(1, MilliSeconds)
    MICROS: MicroSeconds | None = thrift_field(2, MicroSeconds)
    NANOS: NanoSeconds | None = thrift_field(3, NanoSeconds)


@dataclass
class TimestampType(ThriftStruct):
    """INT64. ConvertedType TIMESTAMP_MILLIS / TIMESTAMP_MICROS (none for NANOS)."""

    isAdjustedToUTC: bool = thrift_field(1, TBool, required=True)
    unit: TimeUnit = thrift_field(2, TimeUnit, required=True)


@dataclass
class TimeType(ThriftStruct):
    """INT32 (MILLIS) or INT64 (MICROS, NANOS). ConvertedType TIME_MILLIS / TIME_MICROS."""

    isAdjustedToUTC: bool = thrift_field(1, TBool, required=True)
    unit: TimeUnit = thrift_field(2, TimeUnit, required=True)


@dataclass
class IntType(ThriftStruct):
    """INT32 or INT64 with bitWidth 8/16/32/64. ConvertedType INT_* / UINT_*."""

    bitWidth: int = thrift_field(1, TI8, required=True)
    isSigned: bool = thrift_field(2, TBool, required=True)


@dataclass
class JsonType(ThriftStruct):
    """BYTE_ARRAY holding UTF-8 JSON. ConvertedType JSON."""


@dataclass
class BsonType(ThriftStruct):
    """BYTE_ARRAY holding BSON. ConvertedType BSON."""


@dataclass
class VariantType(ThriftStruct):
    """Annotates a group of (metadata, value) binaries. No ConvertedType."""

    specification_version: int | None = thrift_field(1, TI8)


@dataclass
class GeometryType(ThriftStruct):
    """BYTE_ARRAY holding WKB, planar edges. No ConvertedType."""

    crs: str | None = thrift_field(1, TString)


@dataclass
class GeographyType(ThriftStruct):
    """BYTE_ARRAY holding WKB, with an edge interpolation algorithm. No ConvertedType."""

    crs: str | None = thrift_field(1, TString)
    algorithm: EdgeInterpolationAlgorithm | int | None = thrift_field(
        2, TEnum(EdgeInterpolationAlgorithm)
    )


@dataclass
class FileType(ThriftStruct):
    """Annotates a group referring to a range of bytes (LogicalTypes.md 'FILE'). No ConvertedType."""


@dataclass
class LogicalType(ThriftUnion):
    """The logical type annotation: exactly one member is set."""

    STRING: StringType | None = thrift_field(1, StringType)
    MAP: MapType | None = thrift_field(2, MapType)
    LIST: ListType | None = thrift_field(3, ListType)
    ENUM: EnumType | None = thrift_field(4, EnumType)
    DECIMAL: DecimalType | None = thrift_field(5, DecimalType)
    DATE: DateType | None = thrift_field(6, DateType)
    TIME: TimeType | None = thrift_field(7, TimeType)
    TIMESTAMP: TimestampType | None = thrift_field(8, TimestampType)
    # 9: reserved for INTERVAL
    INTEGER: IntType | None = thrift_field(10, IntType)
    UNKNOWN: NullType | None = thrift_field(11, NullType)
    JSON: JsonType | None = thrift_field(12, JsonType)
    BSON: BsonType | None = thrift_field(13, BsonType)
    UUID: UUIDType | None = thrift_field(14, UUIDType)
    FLOAT16: Float16Type | None = thrift_field(15, Float16Type)
    VARIANT: VariantType | None = thrift_field(16, VariantType)
    GEOMETRY: GeometryType | None = thrift_field(17, GeometryType)
    GEOGRAPHY: GeographyType | None = thrift_field(18, GeographyType)
    FILE: FileType | None = thrift_field(19, FileType)


# ---------------------------------------------------------------------------
# Schema
# ---------------------------------------------------------------------------


@dataclass
class SchemaElement(ThriftStruct):
    """One node of the schema tree, flattened depth first.

    A group has ``num_children`` and no ``type``; a leaf has ``type`` and no
    ``num_children``. The root has no ``repetition_type``.
    """

    type: Type | int | None = thrift_field(1, Type)
    type_length: int | None = thrift_field(2, TI32)
    repetition_type: FieldRepetitionType | int | None = thrift_field(3, FieldRepetitionType)
    name: str = thrift_field(4, TString, required=True)
    num_children: int | None = thrift_field(5, TI32)
    converted_type: ConvertedType | int | None = thrift_field(6, ConvertedType)
    scale: int | None = thrift_field(7, TI32)
    precision: int | None = thrift_field(8, TI32)
    field_id: int | None = thrift_field(9, TI32)
    logicalType: LogicalType | None = thrift_field(10, LogicalType)


# ---------------------------------------------------------------------------
# Pages
# ---------------------------------------------------------------------------


@dataclass
class DataPageHeader(ThriftStruct):
    num_values: int = thrift_field(1, TI32, required=True)  # including nulls
    encoding: Encoding | int = thrift_field(2, Encoding, required=True)
    definition_level_encoding: Encoding | int = thrift_field(3, Encoding, required=True)
    repetition_level_encoding: Encoding | int = thrift_field(4, Encoding, required=True)
    statistics: Statistics | None = thrift_field(5, Statistics)


@dataclass
class IndexPageHeader(ThriftStruct):
    """Declared but empty in parquet.thrift ("TODO")."""


@dataclass
class DictionaryPageHeader(ThriftStruct):
    num_values: int = thrift_field(1, TI32, required=True)
    encoding: Encoding | int = thrift_field(2, Encoding, required=True)
    is_sorted: bool | None = thrift_field(3, TBool)


@dataclass
class DataPageHeaderV2(ThriftStruct):
    num_values: int = thrift_field(1, TI32, required=True)
    num_nulls: int = thrift_field(2, TI32, required=True)
    num_rows: int = thrift_field(3, TI32, required=True)
    encoding: Encoding | int = thrift_field(4, Encoding, required=True)
    definition_levels_byte_length: int = thrift_field(5, TI32, required=True)
    repetition_levels_byte_length: int = thrift_field(6, TI32, required=True)
    # Absent means compressed (the IDL default is true).
    is_compressed: bool | None = thrift_field(7, TBool)
    statistics: Statistics | None = thrift_field(8, Statistics)


@dataclass
class SplitBlockAlgorithm(ThriftStruct):
    pass


@dataclass
class BloomFilterAlgorithm(ThriftUnion):
    BLOCK: SplitBlockAlgorithm | None = thrift_field(1, SplitBlockAlgorithm)


@dataclass
class XxHash(ThriftStruct):
    pass


@dataclass
class BloomFilterHash(ThriftUnion):
    XXHASH: XxHash | None = thrift_field(1, XxHash)


@dataclass
class Uncompressed(ThriftStruct):
    pass


@dataclass
class BloomFilterCompression(ThriftUnion):
    UNCOMPRESSED: Uncompressed | None = thrift_field(1, Uncompressed)


@dataclass
class BloomFilterHeader(ThriftStruct):
    numBytes: int = thrift_field(1, TI32, required=True)
    algorithm: BloomFilterAlgorithm = thrift_field(2, BloomFilterAlgorithm, required=True)
    hash: BloomFilterHash = thrift_field(3, BloomFilterHash, required=True)
    compression: BloomFilterCompression = thrift_field(4, BloomFilterCompression, required=True)


@dataclass
class PageHeader(ThriftStruct):
    """Precedes every page. Exactly one of the *_header fields matches ``type``."""

    type: PageType | int = thrift_field(1, PageType, required=True)
    uncompressed_page_size: int = thrift_field(2, TI32, required=True)  # excluding this header
    compressed_page_size: int = thrift_field(3, TI32, required=True)  # excluding this header
    crc: int | None = thrift_field(4, TI32)
    data_page_header: DataPageHeader | None = thrift_field(5, DataPageHeader)
    index_page_header: IndexPageHeader | None = thrift_field(6, IndexPageHeader)
    dictionary_page_header: DictionaryPageHeader | None = thrift_field(7, DictionaryPageHeader)
    data_page_header_v2: DataPageHeaderV2 | None = thrift_field(8, DataPageHeaderV2)


# ---------------------------------------------------------------------------
# Column chunks, row groups
# ---------------------------------------------------------------------------


@dataclass
class KeyValue(ThriftStruct):
    key: str = thrift_field(1, TString, required=True)
    value: str | bytes | None = thrift_field(2, TStringOrBytes)  # bytes: not UTF-8 (a breach)


@dataclass
class SortingColumn(ThriftStruct):
    column_idx: int = thrift_field(1, TI32, required=True)
    descending: bool = thrift_field(2, TBool, required=True)
    nulls_first: bool = thrift_field(3, TBool, required=True)


@dataclass
class PageEncodingStats(ThriftStruct):
    page_type: PageType | int = thrift_field(1, PageType, required=True)
    encoding: Encoding | int = thrift_field(2, Encoding, required=True)
    count: int = thrift_field(3, TI32, required=True)


@dataclass
class ColumnMetaData(ThriftStruct):
    type: Type | int = thrift_field(1, Type, required=True)
    encodings: list[Encoding | int] = thrift_field(2, TList(TEnum(Encoding)), required=True)
    path_in_schema: list[str] = thrift_field(3, TList(TString), required=True)
    codec: CompressionCodec | int = thrift_field(4, CompressionCodec, required=True)
    num_values: int = thrift_field(5, TI64, required=True)
    total_uncompressed_size: int = thrift_field(6, TI64, required=True)  # incl. page headers
    total_compressed_size: int = thrift_field(7, TI64, required=True)  # incl. page headers
    key_value_metadata: list[KeyValue] | None = thrift_field(8, TList(KeyValue))
    data_page_offset: int = thrift_field(9, TI64, required=True)
    index_page_offset: int | None = thrift_field(10, TI64)
    dictionary_page_offset: int | None = thrift_field(11, TI64)
    statistics: Statistics | None = thrift_field(12, Statistics)
    encoding_stats: list[PageEncodingStats] | None = thrift_field(13, TList(PageEncodingStats))
    bloom_filter_offset: int | None = thrift_field(14, TI64)
    bloom_filter_length: int | None = thrift_field(15, TI32)
    size_statistics: SizeStatistics | None = thrift_field(16, SizeStatistics)
    geospatial_statistics: GeospatialStatistics | None = thrift_field(17, GeospatialStatistics)


@dataclass
class EncryptionWithFooterKey(ThriftStruct):
    pass


@dataclass
class EncryptionWithColumnKey(ThriftStruct):
    path_in_schema: list[str] = thrift_field(1, TList(TString), required=True)
    key_metadata: bytes | None = thrift_field(2, TBinary)


@dataclass
class ColumnCryptoMetaData(ThriftUnion):
    ENCRYPTION_WITH_FOOTER_KEY: EncryptionWithFooterKey | None = thrift_field(
        1, EncryptionWithFooterKey
    )
    ENCRYPTION_WITH_COLUMN_KEY: EncryptionWithColumnKey | None = thrift_field(
        2, EncryptionWithColumnKey
    )


@dataclass
class ColumnChunk(ThriftStruct):
    file_path: str | None = thrift_field(1, TString)
    # Deprecated; the current parquet.thrift says writers should set 0 when no
    # ColumnMetaData is written outside the footer.
    file_offset: int = thrift_field(2, TI64, required=True)
    meta_data: ColumnMetaData | None = thrift_field(3, ColumnMetaData)
    offset_index_offset: int | None = thrift_field(4, TI64)
    offset_index_length: int | None = thrift_field(5, TI32)
    column_index_offset: int | None = thrift_field(6, TI64)
    column_index_length: int | None = thrift_field(7, TI32)
    crypto_metadata: ColumnCryptoMetaData | None = thrift_field(8, ColumnCryptoMetaData)
    encrypted_column_metadata: bytes | None = thrift_field(9, TBinary)


@dataclass
class RowGroup(ThriftStruct):
    columns: list[ColumnChunk] = thrift_field(1, TList(ColumnChunk), required=True)
    total_byte_size: int = thrift_field(2, TI64, required=True)  # uncompressed
    num_rows: int = thrift_field(3, TI64, required=True)
    sorting_columns: list[SortingColumn] | None = thrift_field(4, TList(SortingColumn))
    file_offset: int | None = thrift_field(5, TI64)  # first page of the row group
    total_compressed_size: int | None = thrift_field(6, TI64)
    ordinal: int | None = thrift_field(7, TI16)


@dataclass
class TypeDefinedOrder(ThriftStruct):
    """Order min/max by the logical type, or the physical type if there is none."""


@dataclass
class IEEE754TotalOrder(ThriftStruct):
    """Order a FLOAT, DOUBLE or FLOAT16 column's min/max by IEEE 754 totalOrder."""


@dataclass
class Int96TimestampOrder(ThriftStruct):
    """Order an INT96 column's min/max chronologically (``statistics.sort_order``)."""


@dataclass
class ColumnOrder(ThriftUnion):
    TYPE_ORDER: TypeDefinedOrder | None = thrift_field(1, TypeDefinedOrder)
    IEEE_754_TOTAL_ORDER: IEEE754TotalOrder | None = thrift_field(2, IEEE754TotalOrder)
    INT96_TIMESTAMP_ORDER: Int96TimestampOrder | None = thrift_field(3, Int96TimestampOrder)


# ---------------------------------------------------------------------------
# Page index ('3.9 - Page Index')
# ---------------------------------------------------------------------------


@dataclass
class PageLocation(ThriftStruct):
    offset: int = thrift_field(1, TI64, required=True)
    compressed_page_size: int = thrift_field(2, TI32, required=True)  # including header
    first_row_index: int = thrift_field(3, TI64, required=True)


@dataclass
class OffsetIndex(ThriftStruct):
    page_locations: list[PageLocation] = thrift_field(1, TList(PageLocation), required=True)
    unencoded_byte_array_data_bytes: list[int] | None = thrift_field(2, TList(TI64))


@dataclass
class ColumnIndex(ThriftStruct):
    null_pages: list[bool] = thrift_field(1, TList(TBool), required=True)
    min_values: list[bytes] = thrift_field(2, TList(TBinary), required=True)
    max_values: list[bytes] = thrift_field(3, TList(TBinary), required=True)
    boundary_order: BoundaryOrder | int = thrift_field(4, BoundaryOrder, required=True)
    null_counts: list[int] | None = thrift_field(5, TList(TI64))
    repetition_level_histograms: list[int] | None = thrift_field(6, TList(TI64))
    definition_level_histograms: list[int] | None = thrift_field(7, TList(TI64))
    nan_counts: list[int] | None = thrift_field(8, TList(TI64))  # FLOAT, DOUBLE, FLOAT16 only


# ---------------------------------------------------------------------------
# Encryption ('3.7.3 - Parquet Modular Encryption', section 5.2)
# ---------------------------------------------------------------------------


@dataclass
class AesGcmV1(ThriftStruct):
    aad_prefix: bytes | None = thrift_field(1, TBinary)
    aad_file_unique: bytes | None = thrift_field(2, TBinary)
    supply_aad_prefix: bool | None = thrift_field(3, TBool)


@dataclass
class AesGcmCtrV1(ThriftStruct):
    aad_prefix: bytes | None = thrift_field(1, TBinary)
    aad_file_unique: bytes | None = thrift_field(2, TBinary)
    supply_aad_prefix: bool | None = thrift_field(3, TBool)


@dataclass
class EncryptionAlgorithm(ThriftUnion):
    AES_GCM_V1: AesGcmV1 | None = thrift_field(1, AesGcmV1)
    AES_GCM_CTR_V1: AesGcmCtrV1 | None = thrift_field(2, AesGcmCtrV1)


# ---------------------------------------------------------------------------
# The footer
# ---------------------------------------------------------------------------


@dataclass
class FileMetaData(ThriftStruct):
    """The footer: schema, row groups and everything needed to find the pages."""

    # The current parquet.thrift: writers should always write 1; readers accept 1 and 2.
    version: int = thrift_field(1, TI32, required=True)
    schema: list[SchemaElement] = thrift_field(2, TList(SchemaElement), required=True)
    num_rows: int = thrift_field(3, TI64, required=True)
    row_groups: list[RowGroup] = thrift_field(4, TList(RowGroup), required=True)
    key_value_metadata: list[KeyValue] | None = thrift_field(5, TList(KeyValue))
    created_by: str | None = thrift_field(6, TString)
    column_orders: list[ColumnOrder] | None = thrift_field(7, TList(ColumnOrder))
    encryption_algorithm: EncryptionAlgorithm | None = thrift_field(8, EncryptionAlgorithm)
    footer_signing_key_metadata: bytes | None = thrift_field(9, TBinary)


@dataclass
class FileCryptoMetaData(ThriftStruct):
    """Precedes an encrypted footer (files whose magic is "PARE")."""

    encryption_algorithm: EncryptionAlgorithm = thrift_field(1, EncryptionAlgorithm, required=True)
    key_metadata: bytes | None = thrift_field(2, TBinary)
