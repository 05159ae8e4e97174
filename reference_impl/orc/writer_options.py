"""The reference ORC writer's options, checked when they are made.

ORCv1.md, 'Postscript' (file version [0,12]; ORCv0.md: [0,11], RLE v1 only),
'Compression' (codec and chunk size), 'Footer' (rowIndexStride), 'Bloom Filter Index'
(which columns, the false-positive probability, the original encoding too), 'String, Char, and
VarChar Columns' (direct or dictionary), 'Integer Run Length Encoding, version 2'
(its sub-encodings), 'Stripe Footer' (writerTimezone), 'Column Encryption' (which
columns, their keys and masks) and orc_proto.proto enum CalendarKind.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from reference_impl.orc.bloom_filter import DEFAULT_FPP
from reference_impl.orc.columns.registry import FILE_VERSIONS
from reference_impl.orc.encodings.int_rle_v2 import SubEncoding
from reference_impl.orc.encryption.encryption_variants import ColumnEncryption
from reference_impl.orc.lies import LIES
from reference_impl.orc.metadata.proto_enums import CalendarKind, ColumnEncodingKind, CompressionKind

__all__ = ["DEFAULT_BLOCK_SIZE", "OrcWriterOptions"]

DEFAULT_BLOCK_SIZE = 256 * 1024  # 'Compression': "The default compression chunk size is 256K"
# A chunk header holds the length in 23 bits ('Compression': "Each header is 3 bytes long
# with (compressedLength * 2 + isOriginal)").
MAX_BLOCK_SIZE = (1 << 23) - 1
DEFAULT_DICTIONARY_THRESHOLD = 0.8  # ORC writers' dictionary key size threshold


@dataclass(frozen=True)
class OrcWriterOptions:
    """How :func:`reference_impl.orc.writer.write_orc` lays out a file.

    ``column_encodings`` forces DIRECT or DICTIONARY (either RLE version's name) on a
    top-level string column; ``stripe_row_limit`` None writes one stripe;
    ``empty_stripes`` adds a stripe of no rows before the first, between every two and
    after the last ('Stripes' asks a stripe for no row);
    ``row_index_stride`` N > 0 writes a row group index (a ROW_INDEX stream per column,
    an entry per N rows: row_group_index.py) and goes into the Footer (0: no row index).
    ``bloom_filter_columns`` (top-level field names; it needs a row index) get a
    BLOOM_FILTER_UTF8 stream, one filter per row group sized for the stride at
    ``bloom_filter_fpp`` (bloom_filter_index.py); ``bloom_filter_original`` writes the
    pre-ORC-101 BLOOM_FILTER stream before it too, as ORC Java's
    ``orc.bloom.filter.write.version=original`` does.
    """

    file_version: str = "0.12"
    compression: CompressionKind = CompressionKind.NONE
    compression_block_size: int = DEFAULT_BLOCK_SIZE
    keep_original_chunks: bool = False
    stripe_row_limit: int | None = None
    empty_stripes: bool = False
    row_index_stride: int = 0
    dictionary_key_threshold: float = DEFAULT_DICTIONARY_THRESHOLD
    column_encodings: Mapping[str, ColumnEncodingKind] = field(default_factory=dict)
    bloom_filter_columns: frozenset[str] = frozenset()
    bloom_filter_fpp: float = DEFAULT_FPP
    bloom_filter_original: bool = False
    rle_v2_sub_encoding: SubEncoding | None = None
    writer_timezone: str = "UTC"
    calendar: CalendarKind = CalendarKind.PROLEPTIC_GREGORIAN
    software_version: str = "columnar-conformance reference"
    lies: frozenset[str] = frozenset()  # TEST-ONLY: untrue metadata (lies.py)
    # Encrypted top-level columns, their keys and masks (encryption/encryption_variants.py).
    encryption: ColumnEncryption | None = None

    def __post_init__(self) -> None:
        if self.file_version not in FILE_VERSIONS:
            raise ValueError(f"file_version {self.file_version!r} is not one of {FILE_VERSIONS}")
        if not isinstance(self.compression, CompressionKind):
            raise ValueError(f"compression {self.compression!r} is not a CompressionKind")
        if not 0 < self.compression_block_size <= MAX_BLOCK_SIZE:
            raise ValueError(f"compression_block_size {self.compression_block_size} is not 1 to "
                             f"{MAX_BLOCK_SIZE}")
        if self.stripe_row_limit is not None and self.stripe_row_limit < 1:
            raise ValueError(f"stripe_row_limit {self.stripe_row_limit} is below 1")
        if self.row_index_stride < 0:
            raise ValueError(f"row_index_stride {self.row_index_stride} is negative")
        if not self.lies <= LIES:
            raise ValueError(f"lies {sorted(self.lies - LIES)} are not among {sorted(LIES)}")
        if self.bloom_filter_columns and not self.row_index_stride:
            raise ValueError("bloom_filter_columns need a row index: row_index_stride > 0")
        if not 0.0 < self.bloom_filter_fpp < 1.0:
            raise ValueError(f"bloom_filter_fpp {self.bloom_filter_fpp} is not between 0 and 1")
        if not 0.0 <= self.dictionary_key_threshold <= 1.0:
            raise ValueError(f"dictionary_key_threshold {self.dictionary_key_threshold} is not 0 to 1")
        for name, encoding in self.column_encodings.items():
            if not isinstance(encoding, ColumnEncodingKind):
                raise ValueError(f"column_encodings[{name!r}] = {encoding!r} is not a ColumnEncodingKind")
        if self.rle_v2_sub_encoding is not None and self.file_version != "0.12":
            raise ValueError("rle_v2_sub_encoding needs file_version 0.12 (RLE v2)")
        try:
            ZoneInfo(self.writer_timezone)
        except (ZoneInfoNotFoundError, ValueError) as error:
            raise ValueError(f"writer_timezone {self.writer_timezone!r} is not a known time zone") from error
        if not isinstance(self.calendar, CalendarKind) or self.calendar == CalendarKind.UNKNOWN_CALENDAR:
            raise ValueError(f"calendar {self.calendar!r} is not JULIAN_GREGORIAN or PROLEPTIC_GREGORIAN")

    @property
    def rle_v2(self) -> bool:
        return self.file_version == "0.12"
