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
writer             write_parquet: flat schemas, PLAIN, data page v1, uncompressed
reader             read_parquet: the same slice, refusing everything else by name
=================  ===========================================================

Public API::

    from reference_impl.parquet.schema import ColumnSpec
    from reference_impl.parquet.writer import write_parquet
    from reference_impl.parquet.reader import read_parquet
"""
