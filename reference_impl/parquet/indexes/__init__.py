"""Structures that let readers skip data: the page index and Bloom filters.

PageIndex.md and BloomFilter.md.

=================  ===========================================================
page_index         ColumnIndex and OffsetIndex: building, reading, boundary order
bloom_filter       the split-block Bloom filter, its hash, sizing and layout
footer_indexes     Bloom filters and the page index, placed after the row groups
pruning            filtered scans: skipping row groups and pages, then rows
=================  ===========================================================
"""
