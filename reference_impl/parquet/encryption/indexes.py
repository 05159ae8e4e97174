"""The page index and Bloom filters of a column chunk, decrypted when its column is encrypted.

Spec: Encryption.md, '3
Technical Approach': "column indexes, offset indexes, bloom filter headers and
bitsets" of an encrypted column are modules encrypted with its key; '4.4.2':
their AAD suffixes (ColumnIndex 6, OffsetIndex 7, BloomFilter Header 8 and
Bitset 9, with the row group and column ordinals). The locations in the
metadata (``column_index_offset``/``_length``, ``offset_index_offset``/
``_length``, ``bloom_filter_offset``/``_length``) count the modules as stored;
a Bloom filter is two modules back to back, the header's then the bitset's.

Each function takes the chunk's ``ColumnDecryptor`` (None for a plaintext
chunk, which is read as ``page_index`` and ``bloom_filter`` read it) and runs the
same checks on the decrypted structure as on a plaintext one.
"""

from __future__ import annotations

from dataclasses import replace

from reference_impl.common.mapped_file import FileBytes
from reference_impl.parquet.encryption.decryptor import ColumnDecryptor, decode_plaintext
from reference_impl.parquet.encryption.modules import ModuleType
from reference_impl.parquet.errors import CorruptMetadata, ParquetError
from reference_impl.parquet.indexes.bloom_filter import SplitBlockBloomFilter, read_bloom_filter

# page_index's own checks, run on the decrypted structures as on stored ones.
from reference_impl.parquet.indexes.page_index import (
    check_column_index,
    check_location,
    check_offset_index,
    read_column_index,
    read_offset_index,
)
from reference_impl.parquet.metadata.parquet_thrift import (
    BloomFilterHeader,
    ColumnChunk,
    ColumnIndex,
    ColumnMetaData,
    OffsetIndex,
)
from reference_impl.parquet.metadata.thrift_struct import deserialize

__all__ = ["read_bloom_filter_of", "read_column_index_of", "read_offset_index_of"]


def _label(where: str, what: str) -> str:
    return f"{where}: {what}" if where else what


def _open_at(
    file: FileBytes,
    crypto: ColumnDecryptor,
    module_type: ModuleType,
    offset: int | None,
    length: int | None,
    what: str,
):
    """The decrypted module at ``offset``, which must take exactly ``length`` bytes (and the module)."""
    offset, length = check_location(len(file), offset, length, what)
    plain, module = crypto.open(file, offset, offset + length, module_type, what=what)
    if module.end != offset + length:
        raise CorruptMetadata(
            f"{what}: the length says {length} bytes, the encrypted module takes {module.end - offset}",
            offset,
        )
    return plain, module


def _read_index_of(file: FileBytes, crypto: ColumnDecryptor, struct_class, module_type: ModuleType,
                   offset: int | None, length: int | None, what: str):
    """An encrypted ColumnIndex or OffsetIndex, decrypted and decoded (None when there is none)."""
    if offset is None and length is None:
        return None
    plain, module = _open_at(file, crypto, module_type, offset, length, what)
    return decode_plaintext(struct_class, plain, module, what)


def read_column_index_of(
    file: FileBytes, chunk: ColumnChunk, crypto: ColumnDecryptor | None, *, where: str = ""
) -> ColumnIndex | None:
    if crypto is None:
        return read_column_index(file, chunk, where=where)
    what = _label(where, "ColumnIndex (encrypted)")
    at = chunk.column_index_offset
    index = _read_index_of(file, crypto, ColumnIndex, ModuleType.COLUMN_INDEX, at,
                           chunk.column_index_length, what)
    if index is not None:
        check_column_index(index, what, at)
    return index


def read_offset_index_of(
    file: FileBytes, chunk: ColumnChunk, crypto: ColumnDecryptor | None, *, where: str = ""
) -> OffsetIndex | None:
    if crypto is None:
        return read_offset_index(file, chunk, where=where)
    what = _label(where, "OffsetIndex (encrypted)")
    at = chunk.offset_index_offset
    index = _read_index_of(file, crypto, OffsetIndex, ModuleType.OFFSET_INDEX, at,
                           chunk.offset_index_length, what)
    if index is not None:
        check_offset_index(index, len(file), what, at)
    return index


def read_bloom_filter_of(
    file: FileBytes, meta: ColumnMetaData, crypto: ColumnDecryptor | None, *, where: str = ""
) -> SplitBlockBloomFilter | None:
    if crypto is None:
        return read_bloom_filter(file, meta, where=where)
    offset = meta.bloom_filter_offset
    if offset is None:
        return None
    what = _label(where, "Bloom filter (encrypted)")
    size = len(file)
    if not 0 <= offset < size:
        raise CorruptMetadata(f"{what}: bloom_filter_offset {offset} lies outside the file of {size} bytes")
    end = size if meta.bloom_filter_length is None else offset + meta.bloom_filter_length
    if not offset < end <= size:
        raise CorruptMetadata(
            f"{what}: bloom_filter_length {meta.bloom_filter_length} does not fit in the file", offset
        )
    header, header_module = crypto.open(
        file, offset, end, ModuleType.BLOOM_FILTER_HEADER, what=f"{what} header"
    )
    bitset, bitset_module = crypto.open(
        file, header_module.end, end, ModuleType.BLOOM_FILTER_BITSET, what=f"{what} bitset"
    )
    if meta.bloom_filter_length is not None and bitset_module.end != end:
        raise CorruptMetadata(
            f"{what}: bloom_filter_length is {meta.bloom_filter_length}, the two modules take "
            f"{bitset_module.end - offset}",
            offset,
        )
    # The plaintext header and bitset, checked as a stored Bloom filter is (the header
    # without the zero padding parquet-java leaves after the Thrift, see decode_plaintext).
    decode_plaintext(BloomFilterHeader, header, header_module, f"{what} header")
    _, header_end = deserialize(BloomFilterHeader, header)
    plain = header[:header_end] + bitset
    try:
        return read_bloom_filter(plain, replace(meta, bloom_filter_offset=0, bloom_filter_length=len(plain)))
    except ParquetError as error:
        raise type(error)(f"{what}: {error.message} (in the decrypted bytes)", offset) from error
