"""Every Parquet encoding, one module each, read and write.

Encodings.md, 'Supported Encodings' and 'Deprecated Encodings', and
parquet.thrift, ``enum Encoding``. Each module cites its section, restates the
grammar, and has the same shape::

    encode_<name>(values, *, <parameters>) -> bytes
    decode_<name>(data, count, *, <parameters>, start=0, end=None, base_offset=0)
        -> (values, position just after the encoded data)

(the two older modules keep their original argument order:
``decode_plain(physical_type, data, count, ...)`` and
``decode_rle_hybrid(data, bit_width, count, ...)``). Decoders read only
``data[start:end]`` and raise :class:`~reference_impl.parquet.errors.CorruptPage`
for malformed values, or
:class:`~reference_impl.parquet.errors.InvalidLevelData` for malformed levels,
with the file offset ``base_offset + position`` of the problem.

Which encoding may appear where, on which physical types, and which module
implements it is one table, ``registry.ENCODINGS`` (docs/encodings.md is
generated from it); ``values`` dispatches a data page's values through it,
``dictionary`` holds the dictionary page and its indices. Modules:

========================  =====  ===========================================
encoding                  value  module
========================  =====  ===========================================
PLAIN                     0      plain
PLAIN_DICTIONARY          2      dictionary_indices (deprecated; the data page
                                 format is RLE_DICTIONARY's; its dictionary
                                 page is PLAIN)
RLE                       3      rle_hybrid (levels), rle_boolean (BOOLEAN
                                 values); the hybrid's LSB-first bit order is
                                 in bit_packing
BIT_PACKED                4      bit_packed (deprecated; levels only, MSB first)
DELTA_BINARY_PACKED       5      delta_binary_packed
DELTA_LENGTH_BYTE_ARRAY   6      delta_length_byte_array
DELTA_BYTE_ARRAY          7      delta_byte_array
RLE_DICTIONARY            8      dictionary_indices
BYTE_STREAM_SPLIT         9      byte_stream_split
ALP                       10     alp (in Preview: AlpEncoding.md)
========================  =====  ===========================================

GROUP_VAR_INT (1, never used) is a row of the table without a module: a page
in it is UnsupportedFeature.

``_cursor`` is the bounded reader the decoders share (every read checked
against the end of the range, every error with its offset).
"""
