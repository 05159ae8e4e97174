"""Which release of the specification added each feature a case exercises (docs/spec-versions.md).

The Parquet rows follow the Parquet site's 'Features and Versions' page (its forward
incompatible features and forward compatible additions, with the parquet-format release
that added each) and, after it, today's text (the changes merged after 2.13.0, "after
2.13.0", and those marked preview). The ORC rows follow the orc-format history: ORCv0.md
(file version 0.11), ORCv1.md (0.12, what every released writer produces) and the
additions to orc_proto.proto since.

A case carries the tag ``spec:<format>-<release>`` of the newest addition among its
feature tags (``spec:parquet-1.0.0`` when it exercises none), and ``spec:preview`` when one
of them is marked preview: ``conformance run --spec-version 2.12.0`` then keeps the cases a
2.12 implementation is expected to pass, and ``conformance report --spec-version`` reads a
run the same way.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fnmatch import fnmatchcase

__all__ = ["ADDITIONS", "PREVIEW_TAG", "SPEC_TAG_PREFIX", "Addition", "release_key", "spec_tags",
           "within"]

SPEC_TAG_PREFIX = "spec:"
PREVIEW_TAG = "spec:preview"
FORWARD_INCOMPATIBLE, FORWARD_COMPATIBLE = "forward incompatible", "forward compatible"
AFTER = "after "  # a change merged after the release it names, not yet in a release
AFTER_IN_TAGS = "after-"  # the same in a tag (spec:parquet-after-2.13.0) or on a command line
BASELINE = {"parquet": "1.0.0", "orc": "0.11"}


@dataclass(frozen=True)
class Addition:
    """One feature and the release that added it.

    ``tags``: feature-tag patterns (``fnmatch``; ``|`` separates alternatives); the addition
    is exercised by a case that has a tag matching every one of them.
    """

    format: str
    feature: str
    tags: tuple[str, ...]
    release: str  # "2.13.0", or "after 2.13.0"
    compatibility: str
    preview: bool = False

    def exercised_by(self, features: Iterable[str]) -> bool:
        features = tuple(features)
        return all(any(fnmatchcase(tag, pattern) for tag in features for pattern in wanted.split("|"))
                   for wanted in self.tags)


def _parquet(feature: str, tags: tuple[str, ...], release: str, incompatible: bool = False,
             preview: bool = False) -> Addition:
    return Addition("parquet", feature, tags, release,
                    FORWARD_INCOMPATIBLE if incompatible else FORWARD_COMPATIBLE, preview)


def _orc(feature: str, tags: tuple[str, ...], release: str, incompatible: bool = False) -> Addition:
    return Addition("orc", feature, tags, release,
                    FORWARD_INCOMPATIBLE if incompatible else FORWARD_COMPATIBLE)


ADDITIONS: tuple[Addition, ...] = (
    # Parquet: forward incompatible features
    _parquet("Data Page V2", ("page:v2",), "2.0.0", incompatible=True),
    _parquet("RLE_DICTIONARY", ("encoding:RLE_DICTIONARY",), "2.0.0", incompatible=True),
    _parquet("DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY, DELTA_BYTE_ARRAY", ("encoding:DELTA_*",),
             "2.0.0", incompatible=True),
    _parquet("BYTE_STREAM_SPLIT", ("encoding:BYTE_STREAM_SPLIT",), "2.8.0", incompatible=True),
    _parquet("BYTE_STREAM_SPLIT (additional types)",
             ("encoding:BYTE_STREAM_SPLIT", "physical:INT*|physical:FIXED_LEN_BYTE_ARRAY"), "2.11.0",
             incompatible=True),
    _parquet("BROTLI, LZ4 (deprecated), ZSTD", ("codec:BROTLI|codec:LZ4|codec:ZSTD",), "2.4.0",
             incompatible=True),
    _parquet("LZ4_RAW", ("codec:LZ4_RAW",), "2.9.0", incompatible=True),
    _parquet("Modular encryption", ("encryption:*",), "2.7.0", incompatible=True),
    _parquet("ALP", ("encoding:ALP",), f"{AFTER}2.13.0", incompatible=True, preview=True),
    # Parquet: forward compatible additions
    _parquet("xxHash-based bloom filters", ("bloom",), "2.7.0"),
    _parquet("Page index", ("page_index",), "2.4.0"),
    _parquet("Binary protocol extensions", ("thrift:extension*",), "2.11.0"),
    _parquet("IEEE 754 total order and NaN counts", ("column_order:IEEE_754_TOTAL_ORDER",), "2.13.0"),
    _parquet("INT96 timestamp order", ("column_order:INT96_TIMESTAMP_ORDER",), f"{AFTER}2.13.0"),
    _parquet("LogicalType union", ("type:UNKNOWN",), "2.4.0"),
    _parquet("ENUM", ("type:ENUM",), "2.0.0"),
    _parquet("UUID", ("type:UUID",), "2.6.0"),
    # 32- and 64-bit signed integers are the physical types themselves (1.0.0)
    _parquet("Signed and unsigned integer logical types",
             ("type:INT(8,*|type:INT(16,*|type:INT(*,unsigned)",), "2.2.0"),
    _parquet("DECIMAL", ("type:DECIMAL(*",), "2.1.0"),
    _parquet("FLOAT16", ("type:FLOAT16",), "2.10.0"),
    _parquet("DATE, TIME (INT32), TIMESTAMP (INT64)", ("type:DATE|type:TIME(ms,*|type:TIMESTAMP(*",),
             "2.2.0"),
    _parquet("TIME (INT64)", ("type:TIME(us,*",), "2.4.0"),
    _parquet("Nanosecond TIME/TIMESTAMP", ("type:TIME(ns,*|type:TIMESTAMP(ns,*",), "2.6.0"),
    _parquet("INTERVAL", ("type:INTERVAL",), "2.2.0"),
    _parquet("JSON, BSON", ("type:JSON|type:BSON",), "2.2.0"),
    _parquet("VARIANT", ("type:VARIANT",), "2.12.0"),
    _parquet("Variant shredding", ("variant:shredded",), "2.12.0"),
    _parquet("GEOMETRY, GEOGRAPHY", ("type:GEOMETRY|type:GEOGRAPHY",), "2.11.0"),
    _parquet("Geospatial statistics", ("type:GEOMETRY|type:GEOGRAPHY", "statistics"), "2.11.0"),
    _parquet("FILE", ("type:FILE",), f"{AFTER}2.13.0"),
    # ORC: ORCv1.md (file version 0.12) over ORCv0.md (0.11), and the .proto's later additions
    _orc("RLE v2, DIRECT_V2 and DICTIONARY_V2 encodings", ("version:0.12|rle:v2|rle_v2:*",), "0.12",
         incompatible=True),
    _orc("TIMESTAMP_INSTANT", ("type:TIMESTAMP_INSTANT",), "0.12"),
    _orc("BROTLI", ("codec:BROTLI",), "ORC-FORMAT-6", incompatible=True),
    _orc("GEOMETRY, GEOGRAPHY", ("type:GEOMETRY|type:GEOGRAPHY",), "ORC-1717", incompatible=True),
    _orc("Column encryption", ("encryption:*",), "ORC-14", incompatible=True),
)

# The order of the releases named above, oldest first; "after X" sorts just after X.
_RELEASE_ORDER = ("0.11", "0.12", "ORC-FORMAT-6", "ORC-14", "ORC-1717")


def release_key(release: str) -> tuple:
    """A sort key of a release name: parquet-format numbers, ORC's file versions and changes."""
    release = release.replace(AFTER_IN_TAGS, AFTER)
    after = release.startswith(AFTER)
    name = release.removeprefix(AFTER)
    if name in _RELEASE_ORDER:
        return (_RELEASE_ORDER.index(name), after)
    return (*(int(part) for part in name.split(".")), after)


def _used(fmt: str, features: Iterable[str]) -> list[Addition]:
    """The additions of ``fmt`` that a case with ``features`` exercises."""
    features = tuple(features)
    return [a for a in ADDITIONS if a.format == fmt and a.exercised_by(features)]


def spec_tags(fmt: str, features: Iterable[str]) -> set[str]:
    """The ``spec:`` tags of a case of format ``fmt`` with ``features``."""
    used = _used(fmt, features)
    newest = max((a.release for a in used), key=release_key, default=BASELINE[fmt])
    tags = {f"{SPEC_TAG_PREFIX}{fmt}-{newest.replace(AFTER, AFTER_IN_TAGS)}"}
    if any(a.preview for a in used):
        tags.add(PREVIEW_TAG)
    return tags


def within(features: Iterable[str], fmt: str, release: str) -> bool:
    """Whether a case of ``fmt`` with ``features`` uses nothing newer than ``release`` (and
    nothing in preview)."""
    return all(not a.preview and release_key(a.release) <= release_key(release)
               for a in _used(fmt, features))
