"""The validator: is the metadata of a Parquet file true to its data?

========================  ====================================================
validate                  the entry point ``validate`` and the walk over chunks
findings                  Finding, its severities and the vocabulary of kinds
column_order              which order a column's statistics use; float rules
chunk                     one column chunk: its metadata, data, pages and nulls
bounds                    one stored min or max against the values it bounds
statistics_checks         Statistics: null and distinct counts, bounds, min/max
nan_count_checks          nan_count, nan_counts and the all-NaN rules of the orders
page_index_checks         ColumnIndex and OffsetIndex against the pages
size_statistics_checks    SizeStatistics and the page index's level histograms
bloom_filter_checks       the Bloom filter: no false negatives
crc_checks                page CRCs, also of a chunk that cannot be decoded
type_rule_checks          annotations on physical types they may not annotate
unknown_enum_checks       enum values the reference does not know, and where
string_checks             STRING values that are not UTF-8
variant_shredding_checks  the shredding rules of VARIANT columns, row by row
rule_checks               rules the reader reads past (lenient readings)
========================  ====================================================
"""
