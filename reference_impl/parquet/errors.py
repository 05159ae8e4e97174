"""The closed vocabulary of errors raised by the reference Parquet reader and writer.

docs/architecture.md, 'Bad input': every reader path rejects malformed input with a specific,
documented exception carrying the byte offset and what was expected; it never
returns silently wrong data, never allocates what a corrupt length field claims
without checking it against the bytes that remain, and never hangs.

Every class below is a :class:`ParquetError`. Callers that only want to know
"this file is bad" catch ``ParquetError``; the conformance harness records the
subclass name as the reason. The vocabulary is closed: reader code raises only
these classes (plus ``ValueError``/``TypeError`` from the writer when the *caller*
passes bad arguments, which is not a property of any file).

========================  ===================================================
class                     raised when
========================  ===================================================
BadMagic                  the leading or trailing 4-byte magic is not "PAR1"
TruncatedFile             the file is shorter than its fixed framing needs
FooterLengthOutOfRange    the footer length field cannot fit in the file
CorruptThrift             a Thrift Compact Protocol structure is malformed
CorruptMetadata           the footer decodes but contradicts itself or the file
CorruptPage               a page's sizes or value counts lie
InvalidLevelData          definition/repetition level data is malformed
InvalidValue              a decoded value breaks its column's logical type
                          (a STRING, ENUM or JSON value that is not UTF-8)
InvalidVariant            a VARIANT's metadata or value bytes break
                          VariantEncoding.md (an InvalidValue)
DecompressionFailed       a compressed page does not decompress to its size
DecodedBudgetExceeded     a row group's pages decompress to more than the
                          decoded budget (a DecompressionFailed;
                          docs/architecture.md, 'Memory budget')
ChecksumMismatch          a page's CRC32 differs from the crc in its header
UnsupportedFeature        a valid feature this implementation does not decode
DecryptionFailed          an encrypted module or the footer signature does
                          not authenticate (wrong key, tampered or swapped
                          bytes, wrong AAD prefix)
MissingKey                a key (or the AAD prefix) needed to decrypt is not
                          available
========================  ===================================================
"""

from __future__ import annotations

__all__ = [
    "BadMagic",
    "ChecksumMismatch",
    "CorruptMetadata",
    "CorruptPage",
    "CorruptThrift",
    "DecodedBudgetExceeded",
    "DecompressionFailed",
    "DecryptionFailed",
    "FooterLengthOutOfRange",
    "InvalidLevelData",
    "InvalidValue",
    "InvalidVariant",
    "MissingKey",
    "ParquetError",
    "TruncatedFile",
    "UnsupportedFeature",
]


class ParquetError(Exception):
    """Base class: a Parquet file (or part of one) could not be processed.

    ``offset`` is the absolute byte offset in the file where the problem was
    found, or ``None`` when no single position applies (for example a writer-side
    unsupported feature, or a codec decoding a buffer that has no file position).
    ``message`` says what was expected and what was found.
    """

    def __init__(self, message: str, offset: int | None = None) -> None:
        self.message = message
        self.offset = offset
        super().__init__(message if offset is None else f"{message} (at byte offset {offset})")


class BadMagic(ParquetError):
    """The file does not start and end with the 4-byte magic number "PAR1"."""


class TruncatedFile(ParquetError):
    """The file ends before the structure it declares (e.g. shorter than 12 bytes)."""


class FooterLengthOutOfRange(ParquetError):
    """The 4-byte footer length is zero or larger than the bytes available for it."""


class CorruptThrift(ParquetError):
    """A Thrift Compact Protocol encoding is malformed: a varint runs on, a length
    exceeds the remaining bytes, a field has the wrong wire type, a required field
    is missing, the nesting is too deep, or the bytes end mid-structure."""


class CorruptMetadata(ParquetError):
    """The footer is well-formed Thrift but inconsistent: a column chunk points
    outside the data region, row counts disagree, the schema tree is malformed."""


class CorruptPage(ParquetError):
    """A page's declared sizes or value counts do not match its bytes."""


class InvalidLevelData(ParquetError):
    """Definition or repetition levels are malformed: a run claims more bytes than
    remain, a level exceeds the maximum level, or the runs end too early."""


class InvalidValue(ParquetError):
    """A value decodes, but its bytes are not what its column's logical type says
    they are: a STRING, ENUM or JSON value that is not UTF-8 (LogicalTypes.md,
    'STRING', 'ENUM', 'JSON'; see ``pages.utf8_values``). Not CorruptPage: the
    page's sizes and counts hold; one value is wrong. The message names the
    column, the row group, the page, the value's index among the page's values
    and the first bad byte within the value; the offset is the page header's
    (a value has no single place in the file when the page is compressed, or
    DELTA_BYTE_ARRAY builds it from the previous value's prefix)."""


class InvalidVariant(InvalidValue):
    """A VARIANT value a file stores is not what VariantEncoding.md defines: its
    metadata ('Metadata encoding': header version, dictionary offsets, UTF-8 names,
    ``sorted_strings``) or a value ('Value encoding': a header, an offset or a size
    that runs past the value's bytes, a field id past the metadata's dictionary, a
    string that is not UTF-8, bytes after the value). The message names the variant
    column, the row, where inside the variant (``typed_value.a``, ``[2]``) and the
    byte within the metadata or value; the offset is the row group's (a variant is
    assembled from several columns, each value from its own pages)."""


class DecompressionFailed(ParquetError):
    """A compressed page could not be decompressed: the compression library
    rejected the bytes, the codec's framing is malformed, or the output would
    be larger than, or came out different from, the page's uncompressed size.
    The message starts with the codec name."""


class DecodedBudgetExceeded(DecompressionFailed):
    """The pages of one row group (or one page read alone) would decompress to more
    bytes than the decoded budget allows (``reference_impl.common.decoded_budget``;
    docs/architecture.md, 'Memory budget'): a decompression bomb, or a file that needs a
    larger budget. Raised before the page is decompressed; the offset is the page's."""


class ChecksumMismatch(ParquetError):
    """A page's CRC32, computed over its bytes as stored after the header, differs
    from ``PageHeader.crc`` (parquet.thrift 'PageHeader.crc'). Raised only when
    the caller asks for verification; the offset is the page header's."""


class UnsupportedFeature(ParquetError):
    """A feature this implementation does not (yet) read or write.

    The message names the feature, e.g. "encoding RLE_DICTIONARY",
    "compression codec SNAPPY", "page type DATA_PAGE_V2", "nested schema".
    This is distinct from corruption: the file may be perfectly valid.
    """


class DecryptionFailed(ParquetError):
    """An AES-GCM module or the plaintext footer's signature does not authenticate
    ('3.7.3 - Parquet Modular Encryption', 4.1.1, 4.4 and 5.3): a wrong key, a
    changed byte (ciphertext, nonce or tag), a module swapped with another (its
    AAD suffix names another module type, row group, column or page), a file
    swapped for another (AAD prefix), or an AAD prefix the caller expects that
    differs from the one stored. Nothing of the module is returned. The message
    names the module type, column, row group and page; the offset is the module's."""


class MissingKey(ParquetError):
    """A key needed to decrypt is not available: the footer key, the key of a
    column being read (the message names the column), or the AAD prefix of a file
    written with ``supply_aad_prefix``. Columns that need no key still read."""
