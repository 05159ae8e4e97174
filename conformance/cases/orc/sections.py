"""The spec sections the ORC cases cite, as catalogue entries (docs/citations.md, 'Entries').

One place for them: they go into the golden corpus, so a change here is a change of
every case that cites it. An entry's parts are headings, each inside the one before;
a heading with commas of its own (ORCv1.md 'Integer Run Length Encoding, version 2')
is one part.
"""

from __future__ import annotations

# ORCv1.md, 'File Tail'
TYPE_INFORMATION = "ORCv1.md: Type Information"
TYPE_KIND = "orc_proto.proto: enum Type.Kind"
CALENDAR = "orc_proto.proto: enum CalendarKind"
FILE_VERSION = "orc_proto.proto: PostScript.version"
STRIPE_INFORMATION = "ORCv1.md: Stripe Information"

# ORCv1.md, 'Column Encodings'
INTEGER_COLUMNS = "ORCv1.md: Column Encodings, SmallInt, Int, and BigInt Columns"
FLOAT_COLUMNS = "ORCv1.md: Column Encodings, Float and Double Columns"
STRING_COLUMNS = "ORCv1.md: Column Encodings, String, Char, and VarChar Columns"
BOOLEAN_COLUMNS = "ORCv1.md: Column Encodings, Boolean Columns"
TINYINT_COLUMNS = "ORCv1.md: Column Encodings, TinyInt Columns"
BINARY_COLUMNS = "ORCv1.md: Column Encodings, Binary Columns"
DECIMAL_COLUMNS = "ORCv1.md: Column Encodings, Decimal Columns"
DATE_COLUMNS = "ORCv1.md: Column Encodings, Date Columns"
TIMESTAMP_COLUMNS = "ORCv1.md: Column Encodings, Timestamp Columns"
STRUCT_COLUMNS = "ORCv1.md: Column Encodings, Struct Columns"
LIST_COLUMNS = "ORCv1.md: Column Encodings, List Columns"
MAP_COLUMNS = "ORCv1.md: Column Encodings, Map Columns"
UNION_COLUMNS = "ORCv1.md: Column Encodings, Union Columns"
COLUMN_ENCODING_KIND = "orc_proto.proto: enum ColumnEncoding.Kind"

# ORCv1.md, 'Run Length Encoding'
BYTE_RLE = "ORCv1.md: Run Length Encoding, Byte Run Length Encoding"
BOOLEAN_RLE = "ORCv1.md: Run Length Encoding, Boolean Run Length Encoding"
INTEGER_RLE_V1 = "ORCv1.md: Run Length Encoding, Integer Run Length Encoding, version 1"
INTEGER_RLE_V2 = "ORCv1.md: Run Length Encoding, Integer Run Length Encoding, version 2"
# ORCv1.md, 'Integer Run Length Encoding, version 2': one section per sub-encoding.
RLE_V2_SUB_ENCODINGS = {name: f"{INTEGER_RLE_V2}, {heading}" for name, heading in (
    ("SHORT_REPEAT", "Short Repeat"), ("DIRECT", "Direct"), ("PATCHED_BASE", "Patched Base"),
    ("DELTA", "Delta"))}

COMPRESSION = "ORCv1.md: Compression"
COMPRESSION_KIND = "orc_proto.proto: enum CompressionKind"
COMPRESSION_BLOCK_SIZE = "orc_proto.proto: PostScript.compression_block_size"

STRIPES = "ORCv1.md: Stripes"
ROW_GROUP_INDEX = "ORCv1.md: Indexes, Row Group Index"
BLOOM_FILTER_INDEX = "ORCv1.md: Indexes, Bloom Filter Index"
COLUMN_STATISTICS = "ORCv1.md: Column Statistics"
FOOTER = "orc_proto.proto: message Footer"

# ORCv1.md, 'Stripes': the writer's time zone (orc_proto.proto) and the calendar (Footer).
STRIPE_FOOTER = "ORCv1.md: Stripes, Stripe Footer"
WRITER_TIMEZONE = "orc_proto.proto: StripeFooter.writer_timezone"
FOOTER_CALENDAR = "orc_proto.proto: Footer.calendar"
STRING_STATISTICS = "orc_proto.proto: message StringStatistics"

# ORCv1.md, 'Column Encryption' and its sections
COLUMN_ENCRYPTION = "ORCv1.md: Column Encryption"
DATA_MASKS = "ORCv1.md: Column Encryption, Data Masks"
ENCRYPTION_KEYS = "ORCv1.md: Column Encryption, Encryption Keys"
ENCRYPTION_VARIANTS = "ORCv1.md: Column Encryption, Encryption Variants"
STREAM_ENCRYPTION = "ORCv1.md: Column Encryption, Stream Encryption"
