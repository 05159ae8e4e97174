"""Column chunks and their pages (parquet-format-docs.txt "Data Pages", "Compression", "Checksumming").

=================  ===========================================================
page               dictionary, data v1 and data v2 pages: building and opening them
compression        the codecs: framing ours, compression libraries theirs
checksum           page CRC32s
column_chunk       a column chunk: page planning, fallback, ColumnMetaData; reading it
=================  ===========================================================
"""
