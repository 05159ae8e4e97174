"""The file format and its metadata (README.md, 'File format' and 'Metadata').

===================  =========================================================
thrift_compact       the Thrift Compact Protocol (wire level)
thrift_struct        dataclass declarations + the one generic struct codec
parquet_thrift       the structs and enums of parquet.thrift, declared once each
file_layout          "PAR1" framing and the footer length
unknown_enum_values  which enum values a reader may not know, and which it must
===================  =========================================================
"""
