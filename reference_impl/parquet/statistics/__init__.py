"""Statistics (parquet.thrift "Statistics", "SizeStatistics"; PageIndex.md).

=================  ===========================================================
sort_order         the column orders of min/max statistics (signed, unsigned, undefined)
column_statistics  Statistics: bounds, truncation, the deprecated signed fields
size_statistics    SizeStatistics: level histograms, unencoded byte array sizes
chunk_statistics   what the writer records about a chunk and each of its pages
=================  ===========================================================
"""
