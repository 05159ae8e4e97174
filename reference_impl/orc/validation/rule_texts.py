"""The sentence every ORC validator finding checks, by finding kind.

docs/validation.md, 'Strength'. ORCv1.md states its rules without RFC 2119 words: it says
what a field holds ("the number of values", "the minimum, maximum, and sum"), so a field
that contradicts the data is a FACT broken (untrue); where it names a field and says no
more (``bytes_on_disk``, the collection counts), the text is silent and the finding is
ambiguous, naming the readings met in real files; where it tells readers to distrust what
some writer versions wrote, the finding is advisory. ``rule.<id>`` findings carry their
lenient rule's own text (``reference_impl.common.leniency``).

Kinds are matched in order against the patterns below (``fnmatch``: ``*`` is any run of
characters), so a family such as ``statistics.<type>.minimum`` is written once.
"""

from __future__ import annotations

from fnmatch import fnmatchcase

from reference_impl.common.findings import RuleText, Strength

__all__ = ["RULE_TEXTS", "rule_text"]

STATISTICS = "ORCv1.md, 'Column Statistics'"
ROW_INDEX = "ORCv1.md, 'Row Group Index'"
BLOOM = "ORCv1.md, 'Bloom Filter Index'"
WRITER_VERSION = "orc_proto.proto: PostScript.writer_version"
GEOSPATIAL = "ORCv2.md, 'Column Statistics'"  # its 'Bounding Box' and 'Geospatial Types' paragraphs

FACT, MUST, SHOULD, MAY, SILENT = Strength

_BOUNDS = RuleText(FACT, STATISTICS, "For most of the primitive types, it records the minimum and "
                   "maximum values")
_SUM = RuleText(FACT, STATISTICS, "for numeric types it additionally stores the sum ... If the sum "
                "overflows long at any point during the calculation, no sum is recorded")
_DISTRUSTED = RuleText(SHOULD, WRITER_VERSION, "This number is updated when we make fixes or "
                       "large changes to the writer so that readers can detect whether a given bug "
                       "is present in the data")

_BOX = ("Bounding box is defined as the thrift struct below in the representation of min/max value pair "
        "of coordinates from each axis.")
_TYPES = "A list of geospatial types from all instances in the Geometry or Geography column"
# The kinds of reference_impl/common/geospatial_checks.py, with ORCv2.md's sentences.
_GEOSPATIAL: tuple[tuple[str, RuleText], ...] = (
    ("geospatial_statistics.bbox", RuleText(FACT, GEOSPATIAL, _BOX)),
    ("geospatial_statistics.bbox_bound", RuleText(
        SILENT, GEOSPATIAL, "The box is the 'min/max value pair of coordinates from each axis', but the "
        "text does not say whether a wider box (one whose bound no coordinate attains) is allowed: the "
        "exact extent (the reference writes it) or any box holding every coordinate")),
    ("geospatial_statistics.bbox_dimensions", RuleText(
        MUST, GEOSPATIAL, "Note that X and Y Values are always present. Z and M are omitted for 2D "
        "geospatial instances.")),
    ("geospatial_statistics.bbox_range", RuleText(
        MUST, GEOSPATIAL, "For Geography type, X and Y values are restricted to the canonical ranges of "
        "[-180, 180] for X and [-90, 90] for Y.")),
    ("geospatial_statistics.geospatial_types", RuleText(
        FACT, GEOSPATIAL, _TYPES + ", or an empty list if they are not known.")),
    ("geospatial_statistics.extra_type", RuleText(FACT, GEOSPATIAL, _TYPES)),
    ("geospatial_statistics.type_code", RuleText(MUST, GEOSPATIAL, "values in the list are WKB "
                                                 "(ISO-variant) integer codes")),
    ("geospatial_statistics.unique_types", RuleText(MUST, GEOSPATIAL, "The geospatial types in the list "
                                                    "must be unique (e.g. `[0001, 0001]` is not valid).")),
)

RULE_TEXTS: tuple[tuple[str, RuleText], ...] = (
    ("statistics.number_of_values", RuleText(FACT, STATISTICS, "the number of values")),
    ("statistics.has_null", RuleText(FACT, STATISTICS, "the column statistics will also record if "
                                     "there are any null values within the row group by setting "
                                     "the hasNull flag")),
    ("statistics.kind", RuleText(FACT, STATISTICS, "At most one of these has a value for any "
                                 "column")),
    ("statistics.stripe_count", RuleText(FACT, "ORCv1.md, 'File Metadata'", "The file Metadata "
                                         "section contains column statistics at the stripe level "
                                         "granularity")),
    ("statistics.bytes_on_disk", RuleText(
        SILENT, STATISTICS, "The text names bytes_on_disk and does not define it: the stored "
        "bytes of the column's data-area streams (ORC Java) or of all its streams, index streams included")),
    ("statistics.collection.*", RuleText(
        SILENT, "orc_proto.proto: message CollectionStatistics", "The text names min_children, "
        "max_children and "
        "total_children and does not define them: counts per row of the column (this "
        "reference), per batch the writer added (ORC Java), or left 0 (ORC C++)")),
    ("statistics.boolean.count", RuleText(FACT, STATISTICS, "For booleans, the statistics include "
                                          "the count of false and true values")),
    *_GEOSPATIAL,
    ("statistics.*.sum", _SUM),
    ("statistics.*.inexact", _BOUNDS),
    ("statistics.*", _BOUNDS),  # minimum, maximum, lower_bound, upper_bound, nanos.*
    ("row_index.*", RuleText(FACT, ROW_INDEX, "Each RowIndexEntry gives the position of each "
                             "stream for the column and the statistics for that row group")),
    ("bloom_filter.count", RuleText(FACT, BLOOM, "A BLOOM_FILTER stream records a bloom filter "
                                    "entry for each row group")),
    ("bloom_filter.absent", RuleText(FACT, BLOOM, "Predicate pushdown can make use of bloom "
                                     "filters to better prune the row groups that do not satisfy "
                                     "the filter condition")),
    ("bloom_filter.distrusted", _DISTRUSTED),
    ("writer_version.numbering", RuleText(MAY, WRITER_VERSION, "Only the Java ORC writer may use "
                                          "values under 6 (or missing)")),
    ("writer_version.*", _DISTRUSTED),
)


def rule_text(kind: str) -> RuleText:
    """The text of ``kind`` (ValueError for a kind no pattern matches: a validator bug)."""
    for pattern, text in RULE_TEXTS:
        if fnmatchcase(kind, pattern):
            return text
    raise ValueError(f"finding kind {kind!r} has no rule text (validation.rule_texts)")
