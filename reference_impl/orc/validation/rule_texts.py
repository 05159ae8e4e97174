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

FACT, MUST, SHOULD, MAY, SILENT = Strength

_BOUNDS = RuleText(FACT, STATISTICS, "For most of the primitive types, it records the minimum and "
                   "maximum values")
_SUM = RuleText(FACT, STATISTICS, "for numeric types it additionally stores the sum ... If the sum "
                "overflows long at any point during the calculation, no sum is recorded")
_DISTRUSTED = RuleText(SHOULD, WRITER_VERSION, "This number is updated when we make fixes or "
                       "large changes to the writer so that readers can detect whether a given bug "
                       "is present in the data")

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
