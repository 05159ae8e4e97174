"""Abstract ORC write options (ORCv1.md, 'Compression', 'Stripes', 'Indexes', 'Column
Encodings', 'Run Length Encoding', 'Type Information', 'Stripe Footer'; orc_proto.proto
PostScript, Footer, StripeFooter).

Each engine maps them to its own knobs or declares, with the reason, that it cannot
express them; None leaves a knob to the writer's default, so a case about one thing
(a type, a codec) is one every writer can try.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from conformance.values import Schema
from reference_impl.orc.encryption import data_masks
from reference_impl.orc.metadata.type_tree import ROOT_FIELD

from ..native import check_native_columns, check_native_types, native_tags, native_types_json
from .types import field_tags, orc_kind

FILE_VERSIONS = ("0.11", "0.12")  # PostScript.version [0, 11] / [0, 12]: ORCv0.md / ORCv1.md
# orc_proto.proto enum CompressionKind
CODECS = ("NONE", "ZLIB", "SNAPPY", "LZO", "LZ4", "ZSTD", "BROTLI")
# The column encodings a string column chooses between (ORCv1.md, 'String, Char, and
# VarChar Columns'); the file version decides between DIRECT/DIRECT_V2 and
# DICTIONARY/DICTIONARY_V2.
STRING_ENCODINGS = ("DIRECT", "DICTIONARY")
# ORCv1.md, 'Integer Run Length Encoding, version 2': its four sub-encodings.
RLE_V2_SUB_ENCODINGS = ("SHORT_REPEAT", "DIRECT", "PATCHED_BASE", "DELTA")
# TEST-ONLY metadata untrue on purpose (reference_impl/orc/lies.py); only the reference
# writes lies.
LIES = ("statistics", "row_index", "bloom_filter")
# A case with bare_root writes its one column as the file's root type itself (ORCv1.md,
# 'Type Information': the root is type 0, of no fixed kind), not as a field of a root
# STRUCT. Readers give such a root the name ORC Java and Hive give an unnamed column
# (reference_impl/orc/metadata/type_tree.py), so the case's column is named so too.
ROOT_COLUMN = ROOT_FIELD
BARE_ROOT_TAG = "root:bare"
# orc_proto.proto enum CalendarKind: the calendar a Footer says its dates and timestamps
# before 1582-10-15 are counted in (docs/canonical-values.md, 'ORC': the canonical values
# are proleptic either way).
CALENDARS = ("JULIAN_GREGORIAN", "PROLEPTIC_GREGORIAN")
# StripeFooter.writerTimezone: the zone a TIMESTAMP's seconds count from 2015-01-01 in
# (ORCv1.md, 'Timestamp Columns'; docs/orc-spec-notes.md, note 3). The tag says a case
# names one; the canonical values are the wall clocks written, whatever the zone.
WRITER_TIMEZONE_TAG = "timezone:writer"
CALENDAR_TAG = "calendar:{}"
# Stripes of no rows (OrcWriteOptions.empty_stripes); few writers can make one.
EMPTY_STRIPES_TAG = "stripes:empty"
# Column encryption (ORCv1.md, 'Column Encryption'): the reference and ORC Java (direct,
# handed the keys over the engine protocol, and through Spark with the test key provider)
# write it; ORC C++ has no encrypting writer (docs/engine-notes.md).
ENCRYPTION_TAG = "encryption:column"
MASK_TAG = "mask:{}"
# The kinds of column 'Data Masks' defines redact and sha256 for ("replace string with
# ..."), by name, as the reference's masks take them.
STRING_MASK_KINDS = frozenset(kind.name for kind in data_masks.STRING_MASK_KINDS)
MASKS = tuple(data_masks.MASKS)  # 'Data Masks': nullify, redact, sha256
NULLIFY = data_masks.NULLIFY  # the mask of an encrypted column that names none
ENCRYPTION_REASON = ("no column encryption: its ORC writer has no option for encrypted columns, "
                     "keys or masks (ORCv1.md, 'Column Encryption')")
LIES_REASON = ("deliberately untrue metadata (OrcWriteOptions.lies) is written by the reference "
               "alone, to show which readers trust which structure")


@dataclass(frozen=True)
class OrcWriteOptions:
    """Abstract write options of an ORC case."""

    file_version: str = "0.12"
    codec: str = "NONE"
    compression_block_size: int | None = None  # bytes per compression chunk
    stripe_row_limit: int | None = None  # rows per stripe; None: one stripe
    # A stripe of no rows before the first, between every two and after the last.
    empty_stripes: bool = False
    row_index_stride: int | None = None  # rows per row group; 0: no row index
    string_encoding: str | None = None  # every string column DIRECT or DICTIONARY
    # Only the reference can force a sub-encoding; cases pin one for every writer through
    # their data instead (conformance/cases/orc/encodings.py).
    rle_v2_sub_encoding: str | None = None
    # Top-level columns with a Bloom filter per row group ('Bloom Filter Index'; it needs a
    # row index), each sized for the stride at this false-positive probability.
    bloom_filter_columns: tuple[str, ...] = ()
    bloom_filter_fpp: float | None = None
    lies: tuple[str, ...] = ()  # see LIES
    bare_root: bool = False  # see ROOT_COLUMN
    writer_timezone: str | None = None  # an IANA zone name; None: the writer's default
    calendar: str | None = None  # one of CALENDARS; None: the writer's default
    # Top-level column -> the engine's own type it is written as, "<engine>:<NAME>"
    # (conformance.cases.native); such a case is written by that engine alone.
    native_types: Mapping[str, str] = field(default_factory=dict)
    # Top-level column -> the name of the suite's test key that encrypts it
    # (conformance/kms/orc_keys.py), and -> its mask (one of MASKS; nullify when not named).
    encrypt: Mapping[str, str] = field(default_factory=dict)
    masks: Mapping[str, str] = field(default_factory=dict)
    # Tuples here, JSON lists in a document.
    LIST_FIELDS: ClassVar[tuple[str, ...]] = ("bloom_filter_columns", "lies")

    def __post_init__(self) -> None:
        for name, value, allowed in (
                ("file_version", self.file_version, FILE_VERSIONS),
                ("calendar", self.calendar, (*CALENDARS, None)),
                ("codec", self.codec, CODECS),
                ("string_encoding", self.string_encoding, (*STRING_ENCODINGS, None)),
                ("rle_v2_sub_encoding", self.rle_v2_sub_encoding, (*RLE_V2_SUB_ENCODINGS, None))):
            if value not in allowed:
                raise ValueError(f"{name} must be one of {allowed}, not {value!r}")
        for name in ("compression_block_size", "stripe_row_limit"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or value < 1):
                raise ValueError(f"{name} must be a positive int, not {value!r}")
        stride = self.row_index_stride
        if stride is not None and (not isinstance(stride, int) or stride < 0):
            raise ValueError(f"row_index_stride must be 0 (no index) or positive, not {stride!r}")
        if self.rle_v2_sub_encoding is not None and self.file_version != "0.12":
            raise ValueError("RLE v2 sub-encodings exist only in file version 0.12")
        self._check_indexes()
        self._check_timezone()
        self._check_encryption()
        check_native_types(self.native_types)

    def _check_encryption(self) -> None:
        if not set(self.masks) <= set(self.encrypt):
            raise ValueError(f"masks {dict(self.masks)} name columns that encrypt {dict(self.encrypt)} lacks")
        unknown = set(self.masks.values()) - set(MASKS)
        if unknown:
            raise ValueError(f"masks {sorted(unknown)} are not among {MASKS}")

    def _check_timezone(self) -> None:
        zone = self.writer_timezone
        if zone is None:
            return
        try:
            ZoneInfo(zone)
        except (ZoneInfoNotFoundError, ValueError, TypeError) as error:
            raise ValueError(f"writer_timezone {zone!r} is not a time zone of the zone database") from error

    def _check_indexes(self) -> None:
        columns, fpp = self.bloom_filter_columns, self.bloom_filter_fpp
        if not isinstance(columns, tuple) or len(set(columns)) != len(columns):
            raise ValueError(f"bloom_filter_columns must be a tuple of distinct names, not {columns!r}")
        if columns and self.row_index_stride == 0:
            raise ValueError("Bloom filters need a row index: row_index_stride must not be 0")
        if fpp is not None and (not columns or not 0.0 < fpp < 1.0):
            raise ValueError(f"bloom_filter_fpp {fpp!r} needs bloom_filter_columns and lies in (0, 1)")
        if not isinstance(self.lies, tuple) or not set(self.lies) <= set(LIES):
            raise ValueError(f"lies must be a tuple of {LIES}, not {self.lies!r}")
        if not isinstance(self.bare_root, bool) or self.bare_root and columns:
            raise ValueError(f"bare_root must be a bool, without bloom_filter_columns, not "
                             f"{self.bare_root!r} with {columns!r}")

    def check(self, schema: Schema) -> None:
        """ValueError for a column of `schema` whose type ORC has no kind for, or a Bloom
        filter column that is not a primitive top-level column."""
        for f in schema:
            field_tags(f)
        if self.bare_root and schema.names != [ROOT_COLUMN]:
            raise ValueError(f"a bare root case has one column named {ROOT_COLUMN!r}, not "
                             f"{list(schema.names)}")
        by_name = {f.name: f for f in schema}
        for name in self.bloom_filter_columns:
            if name not in by_name or by_name[name].type.is_nested:
                raise ValueError(f"bloom filter column {name!r} is not a primitive top-level column "
                                 f"of the schema {list(by_name)}")
        check_native_columns(self.native_types, schema)
        for name in self.encrypt:
            if name not in by_name:
                raise ValueError(f"encrypted column {name!r} is not a top-level column of {list(by_name)}")
            if self.mask_of(name) != NULLIFY and orc_kind(by_name[name].type) not in STRING_MASK_KINDS:
                raise ValueError(f"mask {self.mask_of(name)!r} of column {name!r} is defined for "
                                 f"{sorted(STRING_MASK_KINDS)} columns only ('Data Masks')")

    def mask_of(self, column: str) -> str:
        """The mask of encrypted `column`'s unencrypted variant: the one named, else nullify."""
        return self.masks.get(column, NULLIFY)

    def to_json(self) -> dict[str, Any]:
        doc = dataclasses.asdict(self)
        # Only when set: the documents of other cases stay as they were.
        for name, default in (("bare_root", False), ("empty_stripes", False), ("writer_timezone", None),
                              ("calendar", None), ("encrypt", {}), ("masks", {})):
            if doc[name] == default:
                del doc[name]
        del doc["native_types"]
        for name in ("encrypt", "masks"):
            if name in doc:
                doc[name] = dict(doc[name])
        return {**doc, **{name: list(doc[name]) for name in self.LIST_FIELDS},
                **native_types_json(self.native_types)}

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> OrcWriteOptions:
        lists: dict[str, tuple[str, ...]] = {name: tuple(doc[name])
                                             for name in cls.LIST_FIELDS if name in doc}
        return cls(**{**doc, **lists})

    def tags(self, row_count: int) -> set[str]:
        """The feature tags these options exercise for a table of `row_count` rows."""
        tags = {f"codec:{self.codec}", f"version:{self.file_version}"}
        tags.add("rle:v2" if self.file_version == "0.12" else "rle:v1")
        if self.compression_block_size is not None:
            tags.add("compression:block_size")
        if self.stripe_row_limit is not None and row_count > self.stripe_row_limit:
            tags.add("stripes:multiple")
        if self.row_index_stride == 0:
            tags.add("row_index:none")
        elif self.row_index_stride is not None:
            tags.add("row_index:stride")
        if self.string_encoding is not None:
            tags.add(f"encoding:{self.string_encoding}")
        if self.rle_v2_sub_encoding is not None:
            tags.add(f"rle_v2:{self.rle_v2_sub_encoding}:forced")
        if self.bloom_filter_columns:
            tags.add("bloom")
        tags.update(f"lie:{lie}" for lie in self.lies)
        if self.bare_root:
            tags.add(BARE_ROOT_TAG)
        if self.writer_timezone is not None:
            tags.add(WRITER_TIMEZONE_TAG)
        if self.calendar is not None:
            tags.add(CALENDAR_TAG.format(self.calendar))
        if self.empty_stripes:
            tags.add(EMPTY_STRIPES_TAG)
        if self.encrypt:
            tags.add(ENCRYPTION_TAG)
            tags.update(MASK_TAG.format(self.mask_of(name)) for name in self.encrypt)
        return tags | native_tags(self.native_types)
