"""The readable reference implementation of Apache Parquet (no engine inside).

One module per spec concept, each citing the section it implements:

=================  ===========================================================
errors             the closed vocabulary of errors, each with a byte offset
varint             ULEB128 and zigzag integers
thrift_compact     the Thrift Compact Protocol (wire level)
thrift_struct      dataclass declarations + the one generic struct codec
metadata           the structs and enums of parquet.thrift, declared once each
file_layout        "PAR1" framing and the footer length
encodings          every encoding, one module each (see encodings/__init__.py)
compression        the codecs: framing ours, compression libraries theirs
logical_values     how logical values are stored in physical values
schema             ColumnSpec, flat schemas, LogicalType -> ConvertedType
schema_tree        the schema as a tree: leaves, paths, max definition/repetition levels
shredding          record shredding: nested values -> values + definition/repetition levels
assembly           record assembly: the inverse, validating the levels
nested_logical     LIST and MAP (and their legacy shapes) <-> Python lists and (key, value) pairs
writer_options     WriterOptions: every knob of the format a writer can turn
levels             repetition/definition levels in data pages v1 and v2
value_encodings    which encoding applies to which physical type; the values section
dictionary         dictionary pages and index lookups
pages              dictionary, data v1 and data v2 pages: building and opening them
column_chunk       a column chunk: page planning, fallback, ColumnMetaData; reading it
sort_order         the column orders of min/max statistics (signed, unsigned, undefined)
statistics         Statistics: bounds, truncation, the deprecated signed fields
size_statistics    SizeStatistics: level histograms, unencoded byte array sizes
chunk_statistics   what the writer records about a chunk and each of its pages
page_index         ColumnIndex and OffsetIndex: building, reading, boundary order
bloom_filter       the split-block Bloom filter, its hash, sizing and layout
checksum           page CRC32s
footer_indexes     Bloom filters and the page index, placed after the row groups
lies               TEST-ONLY: metadata made untrue on purpose
encryption/        modular encryption: module AADs, AES-GCM/CTR modules, keys, both footer modes
writer             write_table (any schema tree) and write_parquet (flat convenience)
reader             read_parquet: any schema tree, page type, encoding and codec
pruning            filtered scans: skipping row groups and pages, then rows
validation         is a file's metadata true to its data? (the validator)
=================  ===========================================================

Public API::

    from reference_impl.parquet.schema import ColumnSpec
    from reference_impl.parquet.schema_tree import leaf, group, root
    from reference_impl.parquet.nested_logical import list_node, map_node
    from reference_impl.parquet.writer_options import WriterOptions
    from reference_impl.parquet.writer import write_parquet, write_table
    from reference_impl.parquet.reader import read_parquet
    from reference_impl.parquet.pruning import Predicate, scan
    from reference_impl.parquet.validation import validate
"""
