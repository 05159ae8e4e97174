"""The readable reference implementation of Apache Parquet (no engine inside).

One folder per chapter of the specification, one module per spec concept,
each citing the section it implements (each folder's ``__init__`` lists its
modules):

=================  ===========================================================
errors             the closed vocabulary of errors, each with a byte offset
varint             ULEB128 and zigzag integers (Thrift's and the encodings')
metadata/          the Thrift Compact Protocol, the structs of parquet.thrift,
                   the "PAR1" framing
schema/            flat and tree schemas, logical types, LIST and MAP, how
                   logical values are stored in physical ones
encodings/         every encoding, one module each; the encoding table;
                   the values section of a page; dictionaries
nested/            repetition/definition levels, record shredding and assembly
pages/             page headers and bodies, codecs, CRCs, column chunks
statistics/        sort orders, Statistics, SizeStatistics
indexes/           the page index, Bloom filters, filtered scans
encryption/        modular encryption: module AADs, AES-GCM/CTR modules, keys,
                   both footer modes
validation/        is a file's metadata true to its data? (the validator)
writer_options     WriterOptions: every knob of the format a writer can turn
writer             write_table (any schema tree) and write_parquet (flat convenience)
reader             read_parquet: any schema tree, page type, encoding and codec
lies               TEST-ONLY: metadata made untrue on purpose
=================  ===========================================================

Public API::

    from reference_impl.parquet.schema.flat import ColumnSpec
    from reference_impl.parquet.schema.tree import leaf, group, root
    from reference_impl.parquet.schema.nested_types import list_node, map_node
    from reference_impl.parquet.writer_options import WriterOptions
    from reference_impl.parquet.writer import write_parquet, write_table
    from reference_impl.parquet.reader import read_parquet
    from reference_impl.parquet.indexes.pruning import Predicate, scan
    from reference_impl.parquet.validation.validate import validate
"""
