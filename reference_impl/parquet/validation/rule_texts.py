"""The sentence every Parquet validator finding checks, by finding kind.

docs/validation.md, 'Strength': each kind quotes the words of parquet.thrift, README.md,
PageIndex.md or BloomFilter.md it checks, with their strength
(``reference_impl.common.findings.Strength``), which gives the finding its severity. The
kinds found per rule of another table carry that table's text instead: ``rule.<id>``
(the lenient readings, ``reference_impl.common.leniency``) and ``type.<rule>``
(``schema.type_rules``). The ``variant.<rule>`` kinds are listed here from their table
(``schema.variant_shredding.RULES``: VariantShredding.md, VariantEncoding.md and
LogicalTypes.md 'VARIANT'), a silent rule's sentence naming its readings.

``<s>`` kinds are written once and hold for the chunk's statistics (``statistics.``,
ColumnMetaData) and each page's (``page_statistics.``, the data page headers).
"""

from __future__ import annotations

from reference_impl.common.findings import RuleText, Strength
from reference_impl.parquet.schema.file_type import FILE_RULES
from reference_impl.parquet.schema.variant_shredding import RULES as VARIANT_RULES

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
_NAN_BOUND = RuleText(MUST, COLUMN_ORDER, "If the nan_count field is set, min and max statistics "
                      "fields, when present, must not contain NaN values")
_NAN_COUNT_TYPE = RuleText(SHOULD, STATISTICS, "Count of NaN values in the column; only present if "
                           "physical type is FLOAT or DOUBLE, or logical type is FLOAT16")
_TOTAL_ORDER_NAN_BOUND = RuleText(FACT, COLUMN_ORDER, "Min and max statistics must contain the "
                                  "smallest and largest non-NaN values respectively, or if all "
                                  "non-null values are NaN, the smallest and largest NaN values")
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
    "nan_count": RuleText(FACT, STATISTICS, "Count of NaN values in the column"),
    "nan_count_missing": RuleText(MUST, COLUMN_ORDER, "The nan_count field must be set for floating "
                                  "point types, even if it is zero. / Writing the nan_count field is "
                                  "mandatory when using this ordering."),
    "nan_count_type": _NAN_COUNT_TYPE,
    "all_nan_bounds": RuleText(MUST, COLUMN_ORDER, "If all non-null values are NaN, min and max "
                               "statistics must not be written."),
    "total_order_nan_bound": _TOTAL_ORDER_NAN_BOUND,
    "int96_order": RuleText(SHOULD, COLUMN_ORDER, "Writers that emit stats for such columns should "
                            "use the INT96_TIMESTAMP_ORDER for this type"),
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

GEOSPATIAL_BOX = "Geospatial.md, 'Bounding Box'"
GEOSPATIAL_TYPES = "Geospatial.md, 'Geospatial Types'"
_BOX_SENTENCE = ("Bounding box is defined as the thrift struct below in the representation of min/max value "
                 "pair of coordinates from each axis.")
_TYPES_SENTENCE = "A list of geospatial types from all instances in the `GEOMETRY` or `GEOGRAPHY` column"
_GEOSPATIAL = {
    "geospatial.wkb": RuleText(MUST, "LogicalTypes.md, 'GEOMETRY'", "`GEOMETRY` is used for geospatial "
                               "features in the Well-Known Binary (WKB) format"),
    "geospatial_statistics.bbox": RuleText(FACT, GEOSPATIAL_BOX, _BOX_SENTENCE),
    "geospatial_statistics.bbox_bound": RuleText(
        SILENT, GEOSPATIAL_BOX, "The box is the 'min/max value pair of coordinates from each axis', but "
        "the text does not say whether a wider box (one whose bound no coordinate attains, as "
        "Statistics' min_value may be 'more compact values that do not exist') is allowed: the exact "
        "extent (the reference, pyarrow 26, DuckDB 2.0, parquet-java 1.17 write it) or any box holding "
        "every coordinate"),
    "geospatial_statistics.bbox_dimensions": RuleText(
        MUST, GEOSPATIAL_BOX, "If a dimension has only null or NaN values, that dimension is omitted from "
        "the bounding box. If either the X or Y dimension is missing, then the bounding box itself is "
        "not produced."),
    "geospatial_statistics.bbox_range": RuleText(
        MUST, GEOSPATIAL_BOX, "For `GEOGRAPHY` types, X and Y values are restricted to the canonical "
        "ranges of [-180, 180] for X and [-90, 90] for Y."),
    "geospatial_statistics.geospatial_types": RuleText(
        FACT, GEOSPATIAL_TYPES, _TYPES_SENTENCE + ", or an empty list if they are not known."),
    "geospatial_statistics.extra_type": RuleText(FACT, GEOSPATIAL_TYPES, _TYPES_SENTENCE),
    "geospatial_statistics.type_code": RuleText(MUST, GEOSPATIAL_TYPES, "values in the list are WKB "
                                                "(ISO-variant) integer codes"),
    "geospatial_statistics.unique_types": RuleText(MUST, GEOSPATIAL_TYPES, "The geospatial types in the "
                                                   "list must be unique (e.g. `[0001, 0001]` is not valid)."),
    "geospatial_statistics.not_geospatial": RuleText(
        MUST, "Geospatial.md, 'Statistics'", "`GeospatialStatistics` is a struct specific for `GEOMETRY` "
        "and `GEOGRAPHY` logical types"),
}

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
    "column_index.nan_counts": RuleText(FACT, COLUMN_INDEX, "A list containing the number of NaN "
                                        "values for each page"),
    "column_index.nan_counts_type": RuleText(SHOULD, COLUMN_INDEX, "Only present for columns of "
                                             "physical type FLOAT or DOUBLE, or logical type FLOAT16"),
    "column_index.all_nan_page": RuleText(MUST, COLUMN_INDEX, "If all non-null values of a page are "
                                          "NaN, a column index must not be written for this column "
                                          "chunk"),
    "column_index.total_order_nan_bound": _TOTAL_ORDER_NAN_BOUND,
    "column_index.int96_order": RuleText(MUST, COLUMN_INDEX, "If the order of this column is not "
                                         "INT96_TIMESTAMP_ORDER, then a column index must not be "
                                         "written for this column chunk."),
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
    **_GEOSPATIAL,
    **{rule.kind: rule.rule_text for rule in VARIANT_RULES.values()},
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
