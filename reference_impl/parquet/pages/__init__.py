"""Column chunks and their pages (README.md, 'Data Pages', 'Checksumming'; Compression.md).

=================  ===========================================================
page               dictionary, data v1 and data v2 pages: building and opening them
compression        the codecs: framing ours, compression libraries theirs
checksum           page CRC32s
encrypted_pages    the module types of a page and its header; encrypting them
chunk_writer       writing a column chunk: page planning, dictionary fallback,
                   ColumnMetaData
chunk_reader       reading a column chunk: its metadata checked, its pages
                   walked into values and levels
utf8_values        the values of a STRING column that are not UTF-8
=================  ===========================================================
"""
