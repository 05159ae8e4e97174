"""What the validator reports: a :class:`Finding`, its kind and the rule text it checks.

A finding names the column (dotted path), the row group and, for per-page
items, the data page ordinal within the chunk (dictionary and index pages are
not counted). Its severity follows from the strength of the sentence it checks
(``reference_impl.common.findings``: untrue, nonconforming, ambiguous, advisory);
``rule_texts`` holds the sentence of every kind.

Kinds, with their spec sources (parquet.thrift unless named) and how each is checked. ``<s>`` is one
of ``statistics`` (``ColumnMetaData.statistics``) and ``page_statistics``
(``DataPageHeader.statistics`` / ``DataPageHeaderV2.statistics``, per page),
which are checked alike (``statistics_checks``, ``bounds``):

* ``<s>.min_value`` / ``<s>.max_value``: ``struct Statistics``, "Min
  and max values for the column, determined by its ColumnOrder"; they may be
  "more compact values that do not exist" but must still be bounds: the min
  ``<=`` every non-null value under the column's order (``sort_order.sort_key``),
  the max ``>=``. Also reported when a bound cannot be decoded (wrong size).
* ``<s>.exactness``: ``is_min_value_exact`` / ``is_max_value_exact``
  True, but the (valid) bound is not the actual minimum / maximum.
* ``<s>.min`` / ``<s>.max``: the deprecated fields, "determined by
  signed comparison only": for a column whose type order is SIGNED that is the
  type's own order ("DECIMAL - signed comparison of the represented value");
  otherwise the legacy signed comparison of the physical values (INT32/INT64
  as signed integers, byte arrays as signed bytes, lexicographically). INT96
  has no such comparison and is not checked.
* ``<s>.deprecated_min_max``: "To support older readers, these
  may be set when the column order is signed"; set for another column.
* ``<s>.null_count``: "count of null value in the column": the
  entries whose definition level is below the maximum (README.md, 'Nulls';
  for a repeated column an empty or null list is such an entry).
* ``<s>.distinct_count``: "count of distinct values occurring". The
  spec does not say when two floats are the same value, so any count between
  the two readings is accepted: equal represented values with all NaNs as one
  (-0.0 == +0.0), and equal bit patterns (the notion dictionary encoding and
  ``statistics.column_statistics`` use).
* ``<s>.nan_bound``: ``union ColumnOrder``, TYPE_ORDER: "If the
  nan_count field is set, min and max statistics fields, when present, must not
  contain NaN values"; such a bound is not checked (readers "should ignore" it).
* ``<s>.signed_zero``: "If the computed min value is
  zero ... `-0.0` should be written into the min statistics field", and +0.0
  into the max, under TYPE_ORDER. Not untrue: readers widen a +0 min and a -0
  max to both zeros. Under IEEE_754_TOTAL_ORDER each zero is its own bound.
* ``<s>.nan_count``: ``struct Statistics`` field 9, "Count of NaN
  values in the column" (``nan_count_checks``; any NaN bit pattern counts).
* ``<s>.nan_count_missing``: a FLOAT, DOUBLE or FLOAT16
  column without ``nan_count``: TYPE_ORDER "The nan_count field must be set for
  floating point types, even if it is zero."; IEEE_754_TOTAL_ORDER "Writing the
  nan_count field is mandatory when using this ordering." Files written before
  parquet-format 2.13 (pyarrow 26, Spark 4.3) all have this finding.
* ``<s>.nan_count_type``: ``nan_count`` is "only present if
  physical type is FLOAT or DOUBLE, or logical type is FLOAT16".
* ``<s>.all_nan_bounds``: TYPE_ORDER, "If all non-null
  values are NaN, min and max statistics must not be written."
* ``<s>.total_order_nan_bound``: IEEE_754_TOTAL_ORDER, "Min and max
  statistics must contain the smallest and largest non-NaN values respectively,
  or if all non-null values are NaN, the smallest and largest NaN values": a NaN
  bound over data holding a number tells a reader that every value is NaN
  ("the presence of a NaN value in min_values or max_values indicates that all
  non-null values are NaN"), which is false. Other bounds under this order are
  checked by the total order (-0 < +0, NaNs by sign and payload).
* ``<s>.int96_order``: min_value/max_value of an INT96
  column under TYPE_ORDER: "Writers that emit stats for such columns should use
  the INT96_TIMESTAMP_ORDER"; "If TYPE_ORDER is used for an INT96 column,
  readers should ignore all statistics". Such bounds are not checked.
* ``<s>.undefined_order``: min_value/max_value written while
  the column's order is undefined (``column_order``): ``union ColumnOrder``
  (LIST, MAP; LogicalTypes.md 'INTERVAL', 'GEOMETRY', 'GEOGRAPHY',
  'UNKNOWN (always null)', see ``sort_order``; IEEE_754_TOTAL_ORDER on a column
  that is not floating point, INT96_TIMESTAMP_ORDER on one that is not INT96:
  "Only columns of ... may use this ordering"), an annotation its physical type cannot carry
  (LogicalTypes.md, 'FLOAT16': "The primitive type is a 2-byte
  `FIXED_LEN_BYTE_ARRAY`"), a ColumnOrder member this reader
  does not know ("min and max stats for this column should be ignored"), or no
  ``FileMetaData.column_orders`` at all ("Without column_orders, the meaning of
  the min_value and max_value fields ... is undefined"). Such bounds are not
  checked.
* ``column_index.unreadable``: the ColumnIndex cannot be decoded, or
  its lists disagree in length (PageIndex.md, 'Technical Approach').
* ``column_index.page_count``: ``struct ColumnIndex``, "Each
  <array-field>[i] refers to the page at OffsetIndex.page_locations[i]": one
  entry per data page of the chunk.
* ``column_index.null_pages``: "If true, a page contains only null
  values": true exactly for the pages without a value.
* ``column_index.min_values`` / ``column_index.max_values``: per page, bounds
  like the chunk's; for a null page they "have to" be byte[0]
  (``column_index.null_page_bounds``). ``column_index.nan_bound``,
  ``column_index.signed_zero`` and ``column_index.undefined_order`` as for
  statistics ("The min_values and max_values are calculated based on the
  column_orders field").
* ``column_index.nan_counts``: per page, as ``nan_count`` (``struct
  ColumnIndex`` field 8, "the number of NaN values for each page");
  ``column_index.nan_counts_type`` as ``nan_count_type``.
* ``column_index.all_nan_page``: TYPE_ORDER, "If all
  non-null values of a page are NaN, a column index must not be written for
  this column chunk".
* ``column_index.total_order_nan_bound``: as for statistics, per page.
* ``column_index.int96_order``: "If the order of this
  column is not INT96_TIMESTAMP_ORDER, then a column index must not be written
  for this column chunk."
* ``column_index.boundary_order``: ASCENDING / DESCENDING must hold
  for the stored bounds of the non-null pages, both lists, non-strictly (the
  reading of ``page_index.boundary_order``); UNORDERED always holds.
* ``column_index.null_counts``: per page, as ``null_count``.
* ``column_index.level_histograms``: ColumnIndex fields 6 and 7, the
  pages' repetition / definition level histograms one after another
  (``size_statistics.level_histogram``).
* ``offset_index.unreadable``: the OffsetIndex cannot be decoded or
  its locations overlap or leave the file.
* ``offset_index.page_locations``: ``struct PageLocation``: one per
  data page, with the ``offset`` of its header and its ``compressed_page_size``
  "including header".
* ``offset_index.first_row_index``: "Index within the RowGroup of the
  first row of the page", rows being entries with repetition level 0; a page
  that starts inside a row has none ("pages change on record boundaries").
* ``offset_index.unencoded_byte_array_data_bytes`` and
  ``size_statistics.unencoded_byte_array_data_bytes``: ``struct
  SizeStatistics``, "The number of physical bytes stored for BYTE_ARRAY data
  values assuming no encoding ... exclusive of the bytes needed to store the
  length of each byte array"; "This field should only be
  set for types that use BYTE_ARRAY" (``size_statistics.unencoded_byte_array_data_bytes_type``
  when set for another).
* ``size_statistics.repetition_level_histogram`` /
  ``size_statistics.definition_level_histogram``: "size=max
  repetition_level+1 where each element represents the number of times the
  repetition level was observed in the data" (same for definition levels).
  An empty list (written by some writers for a maximum level of 0) claims no
  count: ``size_statistics.empty_histogram`` (``column_index.empty_histogram``),
  ambiguous, as the text says the field "may be omitted" and not what an empty
  one means.
* ``bloom_filter``: BloomFilter.md, 'Problem statement': "Bloom
  filters do not have false negatives"; every non-null value of the chunk
  must test positive. One finding per chunk, with the number of missing values
  and the first; also when the filter cannot be read. A filter of an
  algorithm, hash or compression newer than this reader is not judged.
* ``crc``: README.md, 'Checksumming', and ``PageHeader.crc``: "All
  page types can have a CRC"; every page that carries one is verified
  (``checksum.verify_page_crc``), one finding per bad page (``page`` is None
  for a dictionary page; the message gives its offset).
* ``unknown_enum_value``: README.md, 'Extensibility': an enum
  value this reference does not know where it only describes (the leaf's
  ``converted_type``, ``encoding_stats``, ``encodings``, a skipped page's
  type), with its field path, value and byte offset (``unknown_enum_checks``).
* ``string.utf8``: LogicalTypes.md, 'STRING': a STRING, ENUM
  or JSON value that is not UTF-8, per data page, with the value's index and
  its first bad byte (``string_checks``; the reader raises InvalidValue).
* ``geospatial.wkb`` and ``geospatial_statistics.*``: Geospatial.md,
  'Statistics': ``ColumnMetaData.geospatial_statistics`` against the WKB
  values (``geospatial_statistics_checks``).
* ``file.<rule>``: LogicalTypes.md 'FILE', per FILE group (schema) and value
  (``file_type_checks``; the sentences and strengths are
  ``schema.file_type.FILE_RULES``): ``field_name``, ``field_repetition``,
  ``field_type``, ``offset_negative``, ``size_negative``,
  ``offset_without_size``, ``self_reference_offset``,
  ``self_reference_encrypted``, ``checksum_format`` (MUST);
  ``self_reference_range`` (the range leaves the file) and ``checksum`` (the
  resolved bytes have another digest) (fact); ``empty_string`` (silent: two
  readings).
* ``thrift.extension``: BinaryProtocolExtensions.md, extension bytes (field
  32767) in a struct of the footer or of a page header, with the struct's path
  and byte offset (``extension_checks``); allowed (MAY, advisory) and ignored
  by the reader.
* ``rule.<id>``: a rule of docs/lenient-readings.md that the
  file breaks and the reader reads past, with the quoted sentence, its strength,
  where and the byte offset (``rule_checks``).
"""

from __future__ import annotations

from dataclasses import dataclass

from reference_impl.common.findings import (
    ADVISORY,
    AMBIGUOUS,
    NONCONFORMING,
    SEVERITIES,
    UNTRUE,
    RuleFinding,
    RuleText,
    show,
)
from reference_impl.parquet.validation.rule_texts import rule_text

__all__ = ["ADVISORY", "AMBIGUOUS", "NONCONFORMING", "SEVERITIES", "UNTRUE", "Finding", "Report", "show"]


@dataclass(frozen=True)
class Finding(RuleFinding):
    """One rule the file breaks, or one item of metadata that does not hold for the data
    (see the module docstring)."""

    kind: str
    rule: RuleText  # the sentence checked, its section and strength
    column: str  # dotted path
    row_group: int
    page: int | None  # data page ordinal within the chunk, for per-page items
    message: str

    @property
    def where(self) -> str:
        page = "" if self.page is None else f", data page {self.page}"
        return f"column {self.column}, row group {self.row_group}{page}"


@dataclass(frozen=True)
class Report:
    """Makes findings for one place: a column chunk, or one data page of it."""

    column: str
    row_group: int
    page: int | None = None

    def __call__(self, kind: str, message: str) -> Finding:
        return Finding(kind, rule_text(kind), self.column, self.row_group, self.page, message)

    def at(self, page: int | None) -> Report:
        return Report(self.column, self.row_group, page)

    @property
    def where(self) -> str:
        """The reader's way of naming a chunk in its errors."""
        return f"column {self.column}, row group {self.row_group}"
