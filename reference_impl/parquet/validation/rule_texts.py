"""The sentence every Parquet validator finding checks, by finding kind.

docs/validation.md, 'Strength': each kind quotes the words of parquet.thrift, README.md,
PageIndex.md or BloomFilter.md it checks, with their strength
(``reference_impl.common.findings.Strength``), which gives the finding its severity. The
kinds found per rule of another table carry that table's text instead: ``rule.<id>``
(the lenient readings, ``reference_impl.common.leniency``), ``type.<rule>``
(``schema.type_rules``) and ``variant.<rule>`` (``schema.variant_shredding``).

``<s>`` kinds are written once and hold for the chunk's statistics (``statistics.``,
ColumnMetaData) and each page's (``page_statistics.``, the data page headers).
"""

from __future__ import annotations

from reference_impl.common.findings import RuleText, Strength
from reference_impl.parquet.schema.file_type import FILE_RULES

__all__ = ["RULE_TEXTS", "rule_text"]

THRIFT = "parquet.thrift"
STATISTICS = f"{THRIFT}: struct Statistics"
COLUMN_ORDER = f"{THRIFT}: union ColumnOrder"
COLUMN_INDEX = f"{THRIFT}: struct ColumnIndex"
OFFSET_INDEX = f"{THRIFT}: struct PageLocation"
SIZE_STATISTICS = f"{THRIFT}: struct SizeStatistics"
STATISTICS_PREFIXES = ("statistics", "page_statistics")

FACT, MUST, SHOULD, MAY, SILENT = Strength

# The null counts of a repeated column: one sentence, two readings met in real files.
NULL_COUNT_READINGS = (
    "'Count of null values in the column' does not say, for a repeated column, whether a "
    "null or empty list above the leaf is a null value: counting every entry whose definition "
    "level is below the maximum (this reference; README.md, 'Nulls') or only the null leaf "
    "values inside the innermost list (parquet-cpp, pyarrow)"
)

_BOUNDS = RuleText(FACT, STATISTICS, "Lower and upper bound values for the column, determined by its "
                   "ColumnOrder")
_NAN_BOUND = RuleText(SHOULD, COLUMN_ORDER, "If the min is a NaN, it should be ignored. If the max "
                      "is a NaN, it should be ignored.")
_SIGNED_ZERO = RuleText(SHOULD, COLUMN_ORDER, "If the computed min value is zero (whether negative "
                        "or positive), `-0.0` should be written into the min statistics field")
_UNDEFINED_ORDER = RuleText(SHOULD, COLUMN_ORDER, "If the reader does not support the value of this "
                            "union, min and max stats for this column should be ignored")

_PER_STATISTICS = {
    "min_value": _BOUNDS,
    "max_value": _BOUNDS,
    "exactness": RuleText(FACT, STATISTICS, "If true, min_value is the actual minimum value for a "
                          "column"),
    "min": RuleText(FACT, STATISTICS, "These fields encode min and max values determined by signed "
                    "comparison only"),
    "max": RuleText(FACT, STATISTICS, "These fields encode min and max values determined by signed "
                    "comparison only"),
    "deprecated_min_max": RuleText(MAY, STATISTICS, "To support older readers, these may be set "
                                   "when the column order is signed"),
    "null_count": RuleText(FACT, STATISTICS, "Count of null values in the column"),
    "null_count_reading": RuleText(SILENT, STATISTICS, NULL_COUNT_READINGS),
    "distinct_count": RuleText(FACT, STATISTICS, "count of distinct values occurring"),
    "nan_bound": _NAN_BOUND,
    "signed_zero": _SIGNED_ZERO,
    "undefined_order": _UNDEFINED_ORDER,
    "unencoded_byte_array_data_bytes": RuleText(
        FACT, SIZE_STATISTICS, "The number of physical bytes stored for BYTE_ARRAY data values "
        "assuming no encoding"),
}

_HISTOGRAM = RuleText(FACT, SIZE_STATISTICS, "size=max repetition_level+1 where each element "
                      "represents the number of times the repetition level was observed in the data")
_EMPTY_HISTOGRAM = RuleText(
    SILENT, SIZE_STATISTICS, "The histogram has one count per level and 'may be omitted if "
    "max_repetition_level is 0'; the text does not say what an empty list means: no counts "
    "(the field left out, as parquet-cpp writes it for a maximum level 0) or a malformed list")

RULE_TEXTS: dict[str, RuleText] = {
    **{f"{prefix}.{kind}": text for prefix in STATISTICS_PREFIXES for kind, text in _PER_STATISTICS.items()},
    "column_index.unreadable": RuleText(FACT, "PageIndex.md, 'Technical Approach'", "the column index "
                                        "lists one entry per page, in every list"),
    "column_index.page_count": RuleText(FACT, COLUMN_INDEX, "Each <array-field>[i] refers to the page "
                                        "at OffsetIndex.page_locations[i]"),
    "column_index.null_pages": RuleText(FACT, COLUMN_INDEX, "If true, a page contains only null values"),
    "column_index.min_values": RuleText(FACT, COLUMN_INDEX, "Two lists containing lower and upper "
                                        "bounds for the values of each page determined by the "
                                        "ColumnOrder of the column"),
    "column_index.max_values": RuleText(FACT, COLUMN_INDEX, "Two lists containing lower and upper "
                                        "bounds for the values of each page determined by the "
                                        "ColumnOrder of the column"),
    "column_index.null_page_bounds": RuleText(MUST, COLUMN_INDEX, "writers have to set the "
                                              "corresponding entries in min_values and max_values "
                                              "to byte[0]"),
    "column_index.nan_bound": RuleText(MUST, COLUMN_INDEX, "NaN values are not to be included in "
                                       "these bounds"),
    "column_index.signed_zero": RuleText(SHOULD, COLUMN_ORDER, "If the computed min value is zero "
                                         "(whether negative or positive), `-0.0` should be written "
                                         "into the corresponding min_values entry"),
    "column_index.undefined_order": _UNDEFINED_ORDER,
    "column_index.boundary_order": RuleText(FACT, COLUMN_INDEX, "Stores whether both min_values and "
                                            "max_values are ordered and if so, in which direction"),
    "column_index.null_counts": RuleText(FACT, COLUMN_INDEX, "A list containing the number of null "
                                         "values for each page"),
    "column_index.null_counts_reading": RuleText(SILENT, COLUMN_INDEX, NULL_COUNT_READINGS),
    "column_index.level_histograms": RuleText(FACT, COLUMN_INDEX, "Contains repetition level "
                                              "histograms for each page concatenated together"),
    "offset_index.unreadable": RuleText(FACT, OFFSET_INDEX, "Offset of the page in the file"),
    "offset_index.page_locations": RuleText(FACT, OFFSET_INDEX, "Size of the page, including header"),
    "offset_index.first_row_index": RuleText(FACT, OFFSET_INDEX, "Index within the RowGroup of the "
                                             "first row of the page"),
    "offset_index.unencoded_byte_array_data_bytes": _PER_STATISTICS["unencoded_byte_array_data_bytes"],
    "size_statistics.unencoded_byte_array_data_bytes": _PER_STATISTICS["unencoded_byte_array_data_bytes"],
    **{f"{prefix}.unencoded_byte_array_data_bytes_type": RuleText(
        SHOULD, SIZE_STATISTICS, "This field should only be set for types that use BYTE_ARRAY as "
        "their physical type") for prefix in ("size_statistics", "offset_index")},
    "size_statistics.repetition_level_histogram": _HISTOGRAM,
    "size_statistics.definition_level_histogram": _HISTOGRAM,
    "size_statistics.empty_histogram": _EMPTY_HISTOGRAM,
    "column_index.empty_histogram": _EMPTY_HISTOGRAM,
    "bloom_filter": RuleText(FACT, "BloomFilter.md, 'Problem statement'", "Bloom filters do not have "
                             "false negatives"),
    "crc": RuleText(FACT, f"{THRIFT}: struct PageHeader", "The 32-bit CRC checksum for the page, to "
                    "be calculated as follows"),
    "unknown_enum_value": RuleText(
        SILENT, "README.md, 'Extensibility'", "An enum value this text does not define: a newer "
        "format version's (readers read on where the value only describes) or a legacy writer's "
        "own (parquet-cpp's ConvertedType 24, NA)"),
    "string.utf8": RuleText(MUST, f"{THRIFT}: struct StringType", "allowed for BYTE_ARRAY, must be "
                            "encoded with UTF-8"),
    # LogicalTypes.md 'FILE': the sentences of schema.file_type, kept beside its rules.
    **{kind: citation.rule_text for kind, citation in FILE_RULES.items()},
    "thrift.extension": RuleText(MAY, "BinaryProtocolExtensions.md, 'Binary Protocol Extensions'",
                                 "Extensions can be appended to existing Thrift serialized structs "
                                 "without requiring Thrift libraries"),
}


def rule_text(kind: str) -> RuleText:
    """The text of ``kind`` (ValueError for a kind no table holds: a validator bug)."""
    try:
        return RULE_TEXTS[kind]
    except KeyError:
        raise ValueError(f"finding kind {kind!r} has no rule text (validation.rule_texts)") from None
