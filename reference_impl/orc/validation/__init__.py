"""The ORC validator: is a file's metadata true to its data? (docs/orc.md, 'Validation').

==================  =================================================================
findings            Finding: kind, severity, column, stripe, row group, message
writer_version      PostScript.writer_version: which statistics a reader must distrust
statistics_checks   ColumnStatistics against the values they summarise
bloom_filter_checks every row group's values test present in its Bloom filters
validate            every check over a file: file, stripe and row group level, the row
                    index's positions (row_index_check.py) and Bloom filters
==================  =================================================================
"""
