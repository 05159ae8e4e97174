"""Parquet bad files: the faults of a Parquet file's structure.

Each entry is a ``BadFile`` (``conformance.golden.bad_file``, the model every format's
entries share) with an error class of ``reference_impl/parquet/errors.py``. The whole
corpus (these entries, the type rules', the lenient readings', ORC's) is
``bad_corpus.bad_files``. This module's faults:

* README.md 'File format': the leading and trailing magic, the 4-byte footer length;
* README.md 'Metadata' / parquet.thrift: the footer, ColumnMetaData offsets, PageHeader;
* README.md 'Nested Encoding' and Encodings.md 'Run Length Encoding / Bit-Packing
  Hybrid (RLE = 3)': the level data;
* Encodings.md 'Dictionary Encoding (PLAIN_DICTIONARY = 2 and RLE_DICTIONARY = 8)';
* AlpEncoding.md 'Vector Format' (ALP, in Preview): an exception position outside its
  vector, a bit width wider than the encoded integer;
* Compression.md 'Codecs', README.md 'Checksumming', Encryption.md '3 Technical
  Approach' and '5.4 Encrypted footer mode'.

Each file is made in code: the reference writer writes a small valid file, then
exactly one thing is changed, located through the file's own metadata
(``read_footer``, ``ColumnMetaData`` offsets, the page headers), never through
hard-coded offsets. Everything is deterministic (encrypted files use
``DeterministicRandomness``), so two runs give the same bytes.
"""

from __future__ import annotations

import io
import struct
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import cache, partial
from typing import Any

from conformance.cases.parquet.encodings import spec_entry
from conformance.engines.reference import ReadOptions
from conformance.kms.case_keys import FOOTER_ROLE, UNNAMED_KEY_BITS, explicit_key
from reference_impl.parquet.encodings import alp
from reference_impl.parquet.encodings.bit_packing import packed_size
from reference_impl.parquet.encryption import (
    DeterministicRandomness,
    FileDecryptionProperties,
    FileEncryptionProperties,
)
from reference_impl.parquet.metadata import parquet_thrift as md
from reference_impl.parquet.metadata.thrift_struct import deserialize, serialize
from reference_impl.parquet.reader import read_footer, read_footer_with_decryptor
from reference_impl.parquet.schema.tree import leaf, root
from reference_impl.parquet.writer import write_table
from reference_impl.parquet.writer_options import WriterOptions

from ..bad_file import BadFile

__all__ = ["fault_files"]

# Enums of parquet.thrift number their members from 0 (docs/unknown-enum-values.md).
NEGATIVE_ENUM_VALUE = -1
SPEC_FORMAT = "README.md: File format"
SPEC_METADATA = "README.md: Metadata"
SPEC_FILE_METADATA = "parquet.thrift: struct FileMetaData"
SPEC_COLUMN_METADATA = "parquet.thrift: struct ColumnMetaData"
SPEC_PAGE_HEADER = "parquet.thrift: struct PageHeader"
SPEC_RLE = spec_entry(md.Encoding.RLE)
SPEC_NESTED = "README.md: Nested Encoding"
SPEC_DICTIONARY = spec_entry(md.Encoding.RLE_DICTIONARY)
SPEC_COMPRESSION = "Compression.md: Codecs"
SPEC_ALP = spec_entry(md.Encoding.ALP)
SPEC_ALP_VECTOR = "AlpEncoding.md: Vector Format"
SPEC_CHECKSUM = "README.md: Checksumming"
SPEC_ENCRYPTION = "Encryption.md: 3 Technical Approach"
SPEC_ENCRYPTED_FOOTER = "Encryption.md: 5.4 Encrypted footer mode"

MAGIC = b"PAR1"
MAGIC_LENGTH = len(MAGIC)
FOOTER_LENGTH = struct.Struct("<I")
TAIL_LENGTH = FOOTER_LENGTH.size + MAGIC_LENGTH  # footer length field + trailing magic
SHORTER_THAN_FRAMING = 2 * MAGIC_LENGTH + FOOTER_LENGTH.size - 1
LEVEL_LENGTH = struct.Struct("<I")  # a data page v1's definition levels: 4-byte length prefix
ROWS = 10  # one page per chunk; small enough that counts are one-byte varints
COLUMN = "x"
WORDS = [b"alpha", b"beta", b"gamma"]
WORD_RUN = 10  # each dictionary word repeated: an RLE run per word
ALP_EXCEPTION_ROW = 3  # the NaN of the ALP file: its one exception
ALP_TOO_WIDE = 65  # 'ForInfo for DOUBLE (9 bytes)': bit_width "Range: [0, 64]"
# The key every adapter of the suite offers for a file whose metadata names none
# (`case_keys`), so peers decrypt the footer and meet the fault itself.
FOOTER_KEY = explicit_key(FOOTER_ROLE, UNNAMED_KEY_BITS)
COLUMN_KEY = bytes(range(16, 32))
WRONG_KEY = bytes(range(32, 32 + len(FOOTER_KEY)))
SEED = b"columnar-conformance bad files"
NULL_EVERY = 3
REQUIRED = md.FieldRepetitionType.REQUIRED
OPTIONAL = md.FieldRepetitionType.OPTIONAL
FIELD_DELTA_MASK = 0xF0  # Thrift compact field header: delta << 4 | type
UNKNOWN_COMPACT_TYPE = 0x0F  # compact types are 1..12
SUFFIX = ".parquet"


# ---------------------------------------------------------------------------
# Valid originals
# ---------------------------------------------------------------------------


def _write(tree: Any, records: list[dict[str, Any]], options: WriterOptions) -> bytes:
    sink = io.BytesIO()
    write_table(sink, tree, records, options)
    return sink.getvalue()


def _int32_file(repetition: md.FieldRepetitionType, **options: Any) -> bytes:
    """Column x, INT32 0..ROWS-1, every third value null when optional."""
    tree = root([leaf(COLUMN, md.Type.INT32, repetition=repetition)])
    nullable = repetition == OPTIONAL
    records = [{COLUMN: None if nullable and row % NULL_EVERY == 1 else row} for row in range(ROWS)]
    return _write(tree, records, WriterOptions(**options))


@cache
def plain_required() -> bytes:
    return _int32_file(REQUIRED)


@cache
def plain_optional() -> bytes:
    return _int32_file(OPTIONAL)


@cache
def checksummed() -> bytes:
    return _int32_file(REQUIRED, page_checksum=True)


@cache
def compressed(codec: md.CompressionCodec) -> bytes:
    return _int32_file(REQUIRED, codec=codec)


@cache
def dictionary_encoded() -> bytes:
    tree = root([leaf(COLUMN, md.Type.BYTE_ARRAY, repetition=REQUIRED)])
    records = [{COLUMN: word} for word in WORDS for _ in range(WORD_RUN)]
    return _write(tree, records, WriterOptions(encoding=md.Encoding.RLE_DICTIONARY))


def _encryption(column_keys: Mapping[str, bytes]) -> FileEncryptionProperties:
    return FileEncryptionProperties(
        algorithm="AES_GCM_V1",
        footer_key=FOOTER_KEY,
        column_keys=dict(column_keys),
        randomness=DeterministicRandomness(SEED),
    )


@cache
def encrypted_uniform() -> bytes:
    return _int32_file(REQUIRED, encryption=_encryption({}))


@cache
def encrypted_column_key() -> bytes:
    return _int32_file(REQUIRED, encryption=_encryption({COLUMN: COLUMN_KEY}))


# ---------------------------------------------------------------------------
# Locating what to mutate, from the file's own metadata
# ---------------------------------------------------------------------------


@cache
def alp_encoded() -> bytes:
    """Column x, DOUBLE REQUIRED in ALP: 1.25 * row, a NaN (an exception) at ALP_EXCEPTION_ROW;
    one data page v1 without levels, so its body is the ALP page of one vector."""
    tree = root([leaf(COLUMN, md.Type.DOUBLE, repetition=REQUIRED)])
    records = [{COLUMN: float("nan") if row == ALP_EXCEPTION_ROW else 1.25 * row} for row in range(ROWS)]
    return _write(tree, records, WriterOptions(encoding=md.Encoding.ALP))


def _footer_start(raw: bytes) -> int:
    return read_footer(raw)[1]


def _chunk(raw: bytes) -> md.ColumnMetaData:
    footer, _ = read_footer(raw)
    return _meta_data(footer.row_groups[0].columns[0])


def _meta_data(column: md.ColumnChunk) -> md.ColumnMetaData:
    if column.meta_data is None:  # the reference writer always puts it in the footer
        raise AssertionError("the base file's column chunk has no ColumnMetaData in the footer")
    return column.meta_data


@dataclass(frozen=True)
class _Page:
    offset: int  # of the header
    header: md.PageHeader
    body_start: int

    @property
    def body_end(self) -> int:
        return self.body_start + self.header.compressed_page_size


def _pages(raw: bytes) -> list[_Page]:
    """The first chunk's pages, walked by their headers' compressed sizes."""
    meta = _chunk(raw)
    position = meta.dictionary_page_offset or meta.data_page_offset
    end = position + meta.total_compressed_size
    pages = []
    while position < end:
        header, body_start = deserialize(md.PageHeader, raw, start=position, end=end)
        pages.append(_Page(position, header, body_start))
        position = pages[-1].body_end
    return pages


def _data_page(raw: bytes) -> _Page:
    return next(p for p in _pages(raw) if p.header.type == md.PageType.DATA_PAGE)


def _splice(raw: bytes, start: int, end: int, replacement: bytes) -> bytes:
    """``raw`` with ``raw[start:end]`` replaced by bytes of the same length."""
    if len(replacement) != end - start:
        raise AssertionError(f"a mutation must keep the length: {end - start} -> {len(replacement)}")
    return raw[:start] + replacement + raw[end:]


def _flip(raw: bytes, position: int) -> bytes:
    return _splice(raw, position, position + 1, bytes([raw[position] ^ 0xFF]))


def _with_header(raw: bytes, page: _Page, header: md.PageHeader) -> bytes:
    return _splice(raw, page.offset, page.body_start, serialize(header))


def _with_footer(raw: bytes, footer: md.FileMetaData) -> bytes:
    start = _footer_start(raw)
    return _splice(raw, start, len(raw) - TAIL_LENGTH, serialize(footer))


def _with_footer_bytes(raw: bytes, encoded: bytes) -> bytes:
    """``raw`` with its footer replaced by ``encoded``, of any length (the footer length
    field says the new one)."""
    return raw[: _footer_start(raw)] + encoded + FOOTER_LENGTH.pack(len(encoded)) + MAGIC


def _with_footer_length(raw: bytes, length: int) -> bytes:
    start = len(raw) - TAIL_LENGTH
    return _splice(raw, start, start + FOOTER_LENGTH.size, FOOTER_LENGTH.pack(length))


def _with_chunk(raw: bytes, **changes: Any) -> bytes:
    footer, _ = read_footer(raw)
    column = footer.row_groups[0].columns[0]
    column.meta_data = replace(_meta_data(column), **changes)
    return _with_footer(raw, footer)


# ---------------------------------------------------------------------------
# Mutations
# ---------------------------------------------------------------------------


def bad_leading_magic() -> bytes:
    return _splice(plain_required(), 0, MAGIC_LENGTH, b"PAR0")


def bad_trailing_magic() -> bytes:
    raw = plain_required()
    return _splice(raw, len(raw) - MAGIC_LENGTH, len(raw), b"PAR2")


def shorter_than_framing() -> bytes:
    return plain_required()[:SHORTER_THAN_FRAMING]


def footer_length_zero() -> bytes:
    return _with_footer_length(plain_required(), 0)


def footer_length_past_start() -> bytes:
    raw = plain_required()
    return _with_footer_length(raw, len(raw))


def footer_cut_short() -> bytes:
    """The footer's last byte (its stop field) dropped, the length saying so."""
    raw = plain_required()
    footer = raw[_footer_start(raw) : len(raw) - TAIL_LENGTH]
    return _with_footer_bytes(raw, footer[:-1])


def footer_bad_field_type() -> bytes:
    """The footer's first field header given the compact type 15, which does not exist."""
    raw = plain_required()
    start = _footer_start(raw)
    field_delta = raw[start] & FIELD_DELTA_MASK
    return _splice(raw, start, start + 1, bytes([field_delta | UNKNOWN_COMPACT_TYPE]))


def num_rows_mismatch() -> bytes:
    raw = plain_required()
    footer, _ = read_footer(raw)
    return _with_footer(raw, replace(footer, num_rows=footer.num_rows + 1))


def negative_physical_type() -> bytes:
    raw = plain_required()
    footer, _ = read_footer(raw)
    schema = list(footer.schema)
    schema[1] = replace(schema[1], type=NEGATIVE_ENUM_VALUE)
    return _with_footer(raw, replace(footer, schema=schema))


def chunk_outside_data_region() -> bytes:
    raw = plain_required()
    return _with_chunk(raw, data_page_offset=_footer_start(raw) + 1)


def page_claims_more_values() -> bytes:
    raw = plain_required()
    page = _data_page(raw)
    header = page.header.data_page_header
    if header is None:  # _data_page found a DATA_PAGE, which the reference writer gives one
        raise AssertionError("the base file's DATA_PAGE has no data_page_header")
    inner = replace(header, num_values=header.num_values + 1)
    return _with_header(raw, page, replace(page.header, data_page_header=inner))


def compressed_size_lies() -> bytes:
    raw = plain_required()
    page = _data_page(raw)
    size = page.header.compressed_page_size
    return _with_header(raw, page, replace(page.header, compressed_page_size=size + 1))


def level_length_past_page() -> bytes:
    """The definition levels' 4-byte length prefix claims more than the page holds."""
    raw = plain_optional()
    page = _data_page(raw)
    start = page.body_start
    return _splice(raw, start, start + LEVEL_LENGTH.size, LEVEL_LENGTH.pack(page.header.compressed_page_size))


def level_run_past_end() -> bytes:
    """The level data's length prefix shrunk to 1 byte: the first run's data lies past its end."""
    raw = plain_optional()
    start = _data_page(raw).body_start
    return _splice(raw, start, start + LEVEL_LENGTH.size, LEVEL_LENGTH.pack(1))


def dictionary_index_out_of_range() -> bytes:
    """The last RLE run's index (len(WORDS) - 1) raised to len(WORDS), one past the dictionary."""
    raw = dictionary_encoded()
    page = _data_page(raw)
    last = page.body_end - 1
    if raw[last] != len(WORDS) - 1:
        raise AssertionError(f"expected the last run's value {len(WORDS) - 1}, found {raw[last]}")
    return _splice(raw, last, last + 1, bytes([len(WORDS)]))


@dataclass(frozen=True)
class _AlpVectorAt:
    """File offsets of the fields of the ALP file's one vector ('Vector Format')."""

    bit_width: int
    exception_positions: int


def _alp_vector_at(raw: bytes) -> _AlpVectorAt:
    double = alp.KINDS[md.Type.DOUBLE]
    vector = _data_page(raw).body_start + alp.HEADER.size + alp.OFFSET.size  # one vector
    _, _, exceptions = alp.ALP_INFO.unpack_from(raw, vector)
    if exceptions != 1:
        raise AssertionError(f"expected the ALP vector's one exception, found {exceptions}")
    width_at = vector + alp.ALP_INFO.size + double.for_info.size - 1
    return _AlpVectorAt(width_at, width_at + 1 + packed_size(ROWS, raw[width_at]))


def alp_exception_position_outside_vector() -> bytes:
    """The exception's position (ALP_EXCEPTION_ROW) raised to ROWS, one past the vector."""
    raw = alp_encoded()
    at = _alp_vector_at(raw).exception_positions
    size = alp.EXCEPTION_POSITION.itemsize  # a little-endian uint16
    if int.from_bytes(raw[at : at + size], "little") != ALP_EXCEPTION_ROW:
        raise AssertionError(f"expected the exception at row {ALP_EXCEPTION_ROW}")
    return _splice(raw, at, at + size, ROWS.to_bytes(size, "little"))


def alp_bit_width_beyond_64() -> bytes:
    """The vector's ForInfo bit_width set to ALP_TOO_WIDE."""
    raw = alp_encoded()
    at = _alp_vector_at(raw).bit_width
    return _splice(raw, at, at + 1, bytes([ALP_TOO_WIDE]))


def corrupt_compressed_page(codec: md.CompressionCodec) -> Callable[[], bytes]:
    def make() -> bytes:
        raw = compressed(codec)
        return _flip(raw, _data_page(raw).body_start)

    return make


def crc_mismatch() -> bytes:
    """A byte of the page body changed; the header's crc still describes the old body."""
    raw = checksummed()
    return _flip(raw, _data_page(raw).body_end - 1)


def tampered_encrypted_page() -> bytes:
    """The last byte of the data region (the last page module's GCM tag) changed."""
    raw = encrypted_uniform()
    decryption = FileDecryptionProperties(footer_key=FOOTER_KEY)
    _, footer_start, _ = read_footer_with_decryptor(raw, decryption=decryption)
    return _flip(raw, footer_start - 1)  # footer_start: where the FileCryptoMetaData starts


def _keys(footer_key: bytes, **column_keys: bytes) -> ReadOptions:
    return ReadOptions(footer_key=footer_key, column_keys=column_keys)


# ---------------------------------------------------------------------------
# The catalogue
# ---------------------------------------------------------------------------

CODECS = (md.CompressionCodec.SNAPPY, md.CompressionCodec.GZIP, md.CompressionCodec.ZSTD)


def _framing() -> list[BadFile]:
    return [
        BadFile(
            "framing/bad-leading-magic",
            "The first 4 bytes are 'PAR0', not the magic 'PAR1'.",
            "BadMagic",
            (SPEC_FORMAT,),
            bad_leading_magic,
            plain_required,
        ),
        BadFile(
            "framing/bad-trailing-magic",
            "The last 4 bytes are 'PAR2', not the magic 'PAR1'.",
            "BadMagic",
            (SPEC_FORMAT,),
            bad_trailing_magic,
            plain_required,
        ),
        BadFile(
            "framing/shorter-than-framing",
            "The file is cut to 11 bytes, shorter than magic, footer length and magic.",
            "TruncatedFile",
            (SPEC_FORMAT,),
            shorter_than_framing,
            plain_required,
        ),
        BadFile(
            "footer/length-zero",
            "The 4-byte footer length is 0.",
            "FooterLengthOutOfRange",
            (SPEC_FORMAT,),
            footer_length_zero,
            plain_required,
        ),
        BadFile(
            "footer/length-larger-than-file",
            "The 4-byte footer length is the file's whole size.",
            "FooterLengthOutOfRange",
            (SPEC_FORMAT,),
            footer_length_past_start,
            plain_required,
        ),
        BadFile(
            "footer/thrift-cut-short",
            "The footer's Thrift encoding loses its final stop field.",
            "CorruptThrift",
            (SPEC_FORMAT, SPEC_FILE_METADATA),
            footer_cut_short,
            plain_required,
        ),
        BadFile(
            "footer/thrift-unknown-field-type",
            "The footer's first Thrift field header has the compact type 15, which does not exist.",
            "CorruptThrift",
            (SPEC_FORMAT, SPEC_FILE_METADATA),
            footer_bad_field_type,
            plain_required,
        ),
    ]


def _metadata_and_pages() -> list[BadFile]:
    return [
        BadFile(
            "metadata/num-rows-mismatch",
            "FileMetaData.num_rows is one more than its row groups hold.",
            "CorruptMetadata",
            (SPEC_METADATA, SPEC_FILE_METADATA),
            num_rows_mismatch,
            plain_required,
        ),
        BadFile(
            "metadata/negative-physical-type",
            "The column's SchemaElement.type is -1, a value no version of the enum can define.",
            "CorruptMetadata",
            (SPEC_METADATA, "parquet.thrift: enum Type"),
            negative_physical_type,
            plain_required,
        ),
        BadFile(
            "metadata/chunk-outside-data-region",
            "The column chunk's data_page_offset points into the footer.",
            "CorruptMetadata",
            (SPEC_METADATA, SPEC_COLUMN_METADATA),
            chunk_outside_data_region,
            plain_required,
        ),
        BadFile(
            "page/more-values-than-chunk",
            "The data page header claims one value more than its column chunk holds.",
            "CorruptPage",
            (SPEC_METADATA, SPEC_PAGE_HEADER),
            page_claims_more_values,
            plain_required,
        ),
        BadFile(
            "page/compressed-size-lies",
            "The data page's compressed_page_size is one byte larger than its body.",
            "CorruptPage",
            (SPEC_METADATA, SPEC_PAGE_HEADER),
            compressed_size_lies,
            plain_required,
        ),
        BadFile(
            "levels/length-past-page",
            "The definition levels' length prefix claims more bytes than the page has.",
            "InvalidLevelData",
            (SPEC_NESTED, SPEC_RLE),
            level_length_past_page,
            plain_optional,
        ),
        BadFile(
            "levels/run-past-end",
            "The definition levels' length prefix (1) ends them inside their first run.",
            "InvalidLevelData",
            (SPEC_NESTED, SPEC_RLE),
            level_run_past_end,
            plain_optional,
        ),
        BadFile(
            "dictionary/index-out-of-range",
            "A dictionary index equals the dictionary's size.",
            "CorruptPage",
            (SPEC_DICTIONARY,),
            dictionary_index_out_of_range,
            dictionary_encoded,
        ),
        BadFile(
            "alp/exception-position-outside-vector",
            "An ALP exception's position is past the end of its vector.",
            "CorruptPage",
            (SPEC_ALP, SPEC_ALP_VECTOR),
            alp_exception_position_outside_vector,
            alp_encoded,
        ),
        BadFile(
            "alp/bit-width-beyond-64",
            f"An ALP vector of DOUBLE values says its deltas are {ALP_TOO_WIDE} bits wide.",
            "CorruptPage",
            (SPEC_ALP, SPEC_ALP_VECTOR),
            alp_bit_width_beyond_64,
            alp_encoded,
        ),
    ]


def _codecs() -> list[BadFile]:
    return [
        BadFile(
            f"compression/corrupt-{codec.name.lower()}",
            f"The first byte of a {codec.name} page body is inverted.",
            "DecompressionFailed",
            (SPEC_COMPRESSION,),
            corrupt_compressed_page(codec),
            partial(compressed, codec),
        )
        for codec in CODECS
    ]


def _checksums_and_keys() -> list[BadFile]:
    footer_key = _keys(FOOTER_KEY)
    return [
        BadFile(
            "checksum/crc-mismatch",
            "A page body byte differs from the one its crc covers.",
            "ChecksumMismatch",
            (SPEC_CHECKSUM,),
            crc_mismatch,
            checksummed,
            ReadOptions(verify_checksums=True),
        ),
        BadFile(
            "encryption/tampered-page",
            "The last page module's GCM tag has a changed byte.",
            "DecryptionFailed",
            (SPEC_ENCRYPTION,),
            tampered_encrypted_page,
            encrypted_uniform,
            footer_key,
        ),
        BadFile(
            "encryption/wrong-footer-key",
            "The encrypted footer is read with another key.",
            "DecryptionFailed",
            (SPEC_ENCRYPTION, SPEC_ENCRYPTED_FOOTER),
            encrypted_uniform,
            encrypted_uniform,
            _keys(WRONG_KEY),
            footer_key,
        ),
        BadFile(
            "encryption/missing-footer-key",
            "The encrypted footer is read with no key.",
            "MissingKey",
            (SPEC_ENCRYPTION, SPEC_ENCRYPTED_FOOTER),
            encrypted_uniform,
            encrypted_uniform,
            ReadOptions(),
            footer_key,
        ),
        BadFile(
            "encryption/missing-column-key",
            "A column encrypted with its own key is read with the footer key only.",
            "MissingKey",
            (SPEC_ENCRYPTION,),
            encrypted_column_key,
            encrypted_column_key,
            footer_key,
            _keys(FOOTER_KEY, **{COLUMN: COLUMN_KEY}),
        ),
    ]


def fault_files() -> list[BadFile]:
    """This module's entries: faults of the framing, metadata, pages, codecs, checksums
    and keys (the whole corpus: ``bad_corpus.bad_files``)."""
    return [*_framing(), *_metadata_and_pages(), *_codecs(), *_checksums_and_keys()]
