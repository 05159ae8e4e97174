"""The enums of orc_proto.proto, by their declared names and numbers.

orc_proto.proto is authoritative (its ``enum CompressionKind``, ``Stream.Kind``,
``ColumnEncoding.Kind``, ``Type.Kind``, ``EncryptionAlgorithm``, ``KeyProviderKind`` and
``CalendarKind``). A number outside an enum is a newer version's value: decoders keep it
as a plain int and decide where it matters.
"""

from __future__ import annotations

from enum import IntEnum


class CompressionKind(IntEnum):
    NONE = 0
    ZLIB = 1
    SNAPPY = 2
    LZO = 3
    LZ4 = 4
    ZSTD = 5
    BROTLI = 6


class StreamKind(IntEnum):
    """orc_proto.proto ``Stream.Kind``."""

    PRESENT = 0
    DATA = 1
    LENGTH = 2
    DICTIONARY_DATA = 3
    DICTIONARY_COUNT = 4
    SECONDARY = 5
    ROW_INDEX = 6
    BLOOM_FILTER = 7
    BLOOM_FILTER_UTF8 = 8
    ENCRYPTED_INDEX = 9
    ENCRYPTED_DATA = 10
    STRIPE_STATISTICS = 100
    FILE_STATISTICS = 101


class ColumnEncodingKind(IntEnum):
    """orc_proto.proto ``ColumnEncoding.Kind``."""

    DIRECT = 0
    DICTIONARY = 1
    DIRECT_V2 = 2
    DICTIONARY_V2 = 3


class TypeKind(IntEnum):
    """orc_proto.proto ``Type.Kind``."""

    BOOLEAN = 0
    BYTE = 1
    SHORT = 2
    INT = 3
    LONG = 4
    FLOAT = 5
    DOUBLE = 6
    STRING = 7
    BINARY = 8
    TIMESTAMP = 9
    LIST = 10
    MAP = 11
    STRUCT = 12
    UNION = 13
    DECIMAL = 14
    DATE = 15
    VARCHAR = 16
    CHAR = 17
    TIMESTAMP_INSTANT = 18
    GEOMETRY = 19
    GEOGRAPHY = 20


class EdgeInterpolationAlgorithm(IntEnum):
    """orc_proto.proto ``Type.EdgeInterpolationAlgorithm``."""

    SPHERICAL = 0
    VINCENTY = 1
    THOMAS = 2
    ANDOYER = 3
    KARNEY = 4


class EncryptionAlgorithm(IntEnum):
    UNKNOWN_ENCRYPTION = 0
    AES_CTR_128 = 1
    AES_CTR_256 = 2


class KeyProviderKind(IntEnum):
    UNKNOWN = 0
    HADOOP = 1
    AWS = 2
    GCP = 3
    AZURE = 4


class CalendarKind(IntEnum):
    UNKNOWN_CALENDAR = 0
    JULIAN_GREGORIAN = 1
    PROLEPTIC_GREGORIAN = 2
