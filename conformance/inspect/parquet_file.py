"""The structure of a Parquet file, as the reference reads it (`conformance inspect`).

Every part is read with the reference's own parsers (reference_impl.parquet), so what
is shown is what the reference understands, and a file it rejects gives its documented
error with the byte offset:

* the framing and the footer (README.md, 'File format', 'Metadata'): FileMetaData's
  version, created_by, num_rows, key-value metadata, column orders and the schema
  tree (repetition, physical, logical and converted types, maximum levels);
* each row group and its column chunks (README.md, 'Column chunks'): ColumnMetaData
  with its statistics decoded per physical type beside their raw bytes, size and
  geospatial statistics;
* each page header as the chunk reader walks it (README.md, 'Data Pages';
  parquet.thrift 'PageHeader'), with its CRC checked against the stored bytes
  (README.md, 'Checksumming');
* the page index (PageIndex.md, 'Technical Approach') and the Bloom filter header
  (BloomFilter.md, 'File Format');
* encryption (Encryption.md, '5.4 Encrypted footer mode', '5.5 Plaintext footer mode',
  '5.2 Crypto structures'; parquet_encryption.py): the footer mode, algorithm, AAD prefix
  and file id, each column's key, and every module of an encrypted column with the AAD
  suffix its ordinals give ('4.4.2 AAD suffix'). A module whose key is not available is
  named as encrypted and left closed; the rest of the file is shown.

Rules the file breaks that leave a single reading (docs/lenient-readings.md) are listed
under "breaches", as `conformance read` lists them. Page checksums are reported, not
enforced (`crc_valid`); the values are decoded as `conformance read` decodes them, but
their logical-type checks (UTF-8, VARIANT, the type rules) are `read`'s and `validate`'s.
"""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path
from typing import Any

from conformance.inspect.parquet_encryption import (
    algorithm_fields,
    chunk_crypto,
    chunk_modules,
    crypto_metadata,
    encryption_fields,
    footer_key_metadata,
    length_at,
)
from conformance.inspect.render import READING_FIELDS, bits_set, breach_records, plain, record, text_or_hex
from conformance.kms.file_keys import case_decryption
from reference_impl.common.leniency import reading
from reference_impl.parquet.encryption.decryptor import ColumnDecryptor, FileDecryptor
from reference_impl.parquet.encryption.indexes import (
    read_bloom_filter_of,
    read_column_index_of,
    read_offset_index_of,
)
from reference_impl.parquet.encryption.properties import FileDecryptionProperties
from reference_impl.parquet.errors import ChecksumMismatch, MissingKey, ParquetError
from reference_impl.parquet.indexes.bloom_filter import SplitBlockBloomFilter
from reference_impl.parquet.metadata import parquet_thrift as M
from reference_impl.parquet.metadata.file_layout import ENCRYPTED_FOOTER_MAGIC, FOOTER_LENGTH, MAGIC
from reference_impl.parquet.metadata.thrift_struct import ThriftUnion
from reference_impl.parquet.pages.checksum import verify_page_crc
from reference_impl.parquet.pages.chunk_reader import PageExtent, check_chunk_metadata, read_column_chunk
from reference_impl.parquet.reader import check_row_groups, read_footer_with_decryptor
from reference_impl.parquet.schema.tree import LeafColumn, SchemaNode, leaf_columns, schema_tree_from_elements
from reference_impl.parquet.statistics.column_statistics import decode_bound, is_utf8_column

U32 = 1 << 32  # PageHeader.crc is an i32 holding the unsigned CRC32
BOUNDS = ("min_value", "max_value", "min", "max")  # Statistics' bound fields, the deprecated pair last


def inspect(path: Path, decryption: FileDecryptionProperties | None = None,
            suite_keys: bool = True) -> dict[str, Any]:
    """The document of the Parquet file at `path`, opened with `decryption`, else (with
    `suite_keys`) the suite's test keys, else with no key at all."""
    keys = decryption or (case_decryption(path) if suite_keys else None)
    file = Path(path).read_bytes()
    document: dict[str, Any] = {"file": str(path), "format": "Parquet", "size": len(file)}
    with reading() as breaches:
        document.update(_contents(file, keys))
    if "encryption" in document:
        document["keys"] = _keys_used(decryption, suite_keys)
    document["breaches"] = breach_records(breaches)
    return record(document)


def _keys_used(decryption: FileDecryptionProperties | None, suite_keys: bool) -> str:
    if decryption is not None:
        return "explicit (--footer-key, --column-key, --aad-prefix)"
    return "the suite's test keys" if suite_keys else "none"


def _contents(file: bytes, keys: FileDecryptionProperties | None) -> dict[str, Any]:
    try:
        metadata, footer_start, decryptor = read_footer_with_decryptor(file, decryption=keys)
    except MissingKey as missing:
        if file[-len(MAGIC):] != ENCRYPTED_FOOTER_MAGIC:  # a signed plaintext footer's AAD prefix
            raise
        return _closed_footer(file, missing)
    tree = schema_tree_from_elements(metadata.schema, offset=footer_start)
    leaves = leaf_columns(tree)
    check_row_groups(metadata, leaves, footer_start)
    return {
        "footer": _footer(file, footer_start, decryptor),
        "metadata": _metadata(metadata),
        "schema": _schema(tree, leaves),
        **({} if decryptor is None else {"encryption": encryption_fields(decryptor, footer_key_metadata(
            file, footer_start, metadata))}),
        "row_groups": [_row_group(file, metadata, index, leaves, footer_start, decryptor)
                       for index in range(len(metadata.row_groups))],
    }


# -- the footer ----------------------------------------------------------------------


def _footer(file: bytes, footer_start: int, decryptor: FileDecryptor | None) -> dict[str, Any]:
    magic = file[-len(MAGIC):]
    if magic == ENCRYPTED_FOOTER_MAGIC:
        mode = "encrypted (FileCryptoMetaData, then the footer module)"
    elif decryptor is not None:
        unverified = " (signature not verified: no footer key)"
        mode = "plaintext, signed" + ("" if decryptor.footer_verified else unverified)
    else:
        mode = "plaintext"
    return {"magic": magic.decode("ascii"), "mode": mode, "offset": footer_start,
            "length": length_at(file) - footer_start}


def _closed_footer(file: bytes, missing: MissingKey) -> dict[str, Any]:
    """What an encrypted footer shows without its key: its FileCryptoMetaData ('5.4')."""
    (length,) = FOOTER_LENGTH.unpack_from(file, length_at(file))
    footer_start = length_at(file) - length
    crypto = crypto_metadata(file, footer_start)
    return {
        "footer": {"magic": ENCRYPTED_FOOTER_MAGIC.decode("ascii"), "mode": "encrypted",
                   "offset": footer_start, "length": length},
        "encryption": record({**algorithm_fields(crypto.encryption_algorithm),
                              "footer_key_metadata": text_or_hex(crypto.key_metadata)}),
        "hidden": f"the schema, row groups and column chunks are in the encrypted footer: {missing}",
    }


def _metadata(metadata: M.FileMetaData) -> dict[str, Any]:
    return record({
        "version": metadata.version, "created_by": metadata.created_by, "num_rows": metadata.num_rows,
        "row_groups": len(metadata.row_groups),
        "key_value_metadata": [record({"key": kv.key, "value": text_or_hex(kv.value)})
                               for kv in metadata.key_value_metadata or []],
        "column_orders": [union_text(order) for order in metadata.column_orders or []],
    })


def _schema(tree: SchemaNode, leaves: list[LeafColumn]) -> list[dict[str, Any]]:
    """One row per schema element, depth first, with its dotted path (path_in_schema)."""
    columns = {leaf.path: leaf for leaf in leaves}
    rows: list[dict[str, Any]] = []

    def visit(node: SchemaNode, path: tuple[str, ...]) -> None:
        leaf = columns.get(path)
        rows.append(record({
            "path": ".".join(path) or node.name,
            "repetition": _name(node.repetition),
            "type": "group" if node.is_group else _name(node.physical_type),
            "type_length": node.type_length,
            "logical_type": None if node.logical_type is None else union_text(node.logical_type),
            "converted_type": _name(node.converted_type),
            "scale": node.scale, "precision": node.precision, "field_id": node.field_id,
            "children": None if node.is_leaf else len(node.children or ()),
            "column": None if leaf is None else leaf.index,
            "max_definition_level": None if leaf is None else leaf.max_definition_level,
            "max_repetition_level": None if leaf is None else leaf.max_repetition_level,
        }))
        for child in node.children or ():
            visit(child, (*path, child.name))

    visit(tree, ())
    return rows


# -- row groups and column chunks ----------------------------------------------------


def _row_group(file: bytes, metadata: M.FileMetaData, index: int, leaves: list[LeafColumn],
               footer_start: int, decryptor: FileDecryptor | None) -> dict[str, Any]:
    row_group = metadata.row_groups[index]
    return record({
        "ordinal": index, "stored_ordinal": row_group.ordinal, "num_rows": row_group.num_rows,
        "total_byte_size": row_group.total_byte_size,
        "total_compressed_size": row_group.total_compressed_size,
        "file_offset": row_group.file_offset,
        "sorting_columns": [record({"column_idx": s.column_idx, "descending": s.descending,
                                    "nulls_first": s.nulls_first}) for s in row_group.sorting_columns or []],
        "columns": [_chunk(file, row_group, index, leaf, footer_start, decryptor) for leaf in leaves],
    })


def _chunk(file: bytes, row_group: M.RowGroup, index: int, leaf: LeafColumn, footer_start: int,
           decryptor: FileDecryptor | None) -> dict[str, Any]:
    chunk = row_group.columns[leaf.index]
    where = f"column {leaf.dotted_path}, row group {index}"
    head = {"column": leaf.index, "path": leaf.dotted_path, "file_offset": chunk.file_offset,
            "file_path": chunk.file_path, "crypto_metadata": chunk_crypto(chunk)}
    try:
        crypto = None if decryptor is None else decryptor.column(leaf, chunk, index)
    except MissingKey as missing:
        return record({**head, "meta_data": _column_meta(leaf, chunk.meta_data), "hidden": str(missing)})
    meta = check_chunk_metadata(leaf, chunk, row_group.num_rows, where, footer_start, crypto)
    extents = read_column_chunk(file, leaf, chunk, row_group.num_rows, where=where, footer_start=footer_start,
                                crypto=crypto).pages
    return record({
        **head, "meta_data": _column_meta(leaf, meta),
        "offset_index_offset": chunk.offset_index_offset, "offset_index_length": chunk.offset_index_length,
        "column_index_offset": chunk.column_index_offset, "column_index_length": chunk.column_index_length,
        "pages": [_page(file, leaf, number, extent) for number, extent in enumerate(extents)],
        "column_index": _column_index(file, leaf, chunk, crypto, where),
        "offset_index": _offset_index(file, chunk, crypto, where),
        "bloom_filter": _bloom_filter(file, meta, crypto, where),
        "modules": None if crypto is None else chunk_modules(file, crypto, chunk, meta, extents),
    })


def _column_meta(leaf: LeafColumn, meta: M.ColumnMetaData | None) -> dict[str, Any] | None:
    if meta is None:
        return None
    return record({
        "type": _name(meta.type), "codec": _name(meta.codec), "encodings": [_name(e) for e in meta.encodings],
        "encoding_stats": [record({"page_type": _name(s.page_type), "encoding": _name(s.encoding),
                                   "count": s.count}) for s in meta.encoding_stats or []],
        "num_values": meta.num_values, "total_compressed_size": meta.total_compressed_size,
        "total_uncompressed_size": meta.total_uncompressed_size, "data_page_offset": meta.data_page_offset,
        "dictionary_page_offset": meta.dictionary_page_offset, "index_page_offset": meta.index_page_offset,
        "bloom_filter_offset": meta.bloom_filter_offset, "bloom_filter_length": meta.bloom_filter_length,
        "key_value_metadata": [record({"key": kv.key, "value": text_or_hex(kv.value)})
                               for kv in meta.key_value_metadata or []],
        "statistics": None if meta.statistics is None else statistics(leaf, meta.statistics),
        "size_statistics": plain(meta.size_statistics),
        "geospatial_statistics": plain(meta.geospatial_statistics),
    })


def statistics(leaf: LeafColumn, stats: M.Statistics) -> dict[str, Any]:
    """Statistics with each bound decoded by the column's physical type, and its raw bytes."""
    counts = {name: getattr(stats, name) for name in ("null_count", "distinct_count", "nan_count",
                                                       "is_min_value_exact", "is_max_value_exact")}
    bounds = {}
    for name in BOUNDS:
        raw = getattr(stats, name)
        if raw is not None:
            bounds[name], bounds[f"{name}_raw"] = bound(leaf, raw), raw.hex()
    return record({**bounds, **counts})


def bound(leaf: LeafColumn, raw: bytes) -> Any:
    """A stored min or max as its physical value: text for a UTF-8 column, hex for other
    bytes, a float's name when it is not finite; what is wrong when it does not decode."""
    node = leaf.node
    try:
        value = decode_bound(node.leaf_type, raw, node.type_length)
    except ParquetError as error:
        return f"undecodable: {error.message}"
    if isinstance(value, bytes):
        if is_utf8_column(node.logical_type, node.converted_type):
            try:
                return value.decode("utf-8")
            except UnicodeDecodeError:
                pass
        return value.hex()
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return value


# -- pages ---------------------------------------------------------------------------


def _page(file: bytes, leaf: LeafColumn, number: int, extent: PageExtent) -> dict[str, Any]:
    """One page header, as one record: sizes, counts, encodings, CRC and the page's statistics."""
    header = extent.header
    inner = header.data_page_header or header.data_page_header_v2 or header.dictionary_page_header
    fields = {} if inner is None else {
        name: _name(value) for name, value in plain_fields(inner).items() if name != "statistics"}
    if header.data_page_header_v2 is not None and header.data_page_header_v2.is_compressed is None:
        fields["is_compressed"] = "absent (true)"
    stats = getattr(inner, "statistics", None)
    return record({
        "page": number, "type": _name(header.type), "offset": extent.offset,
        "header_size": extent.body_start - extent.offset,
        "compressed_page_size": header.compressed_page_size,
        "uncompressed_page_size": header.uncompressed_page_size, **fields,
        "entries": len(extent.entries), "non_null_values": len(extent.values),
        "crc": None if header.crc is None else f"{header.crc % U32:#010x}",
        "crc_valid": None if header.crc is None else _crc_valid(file, extent),
        **({} if stats is None else {f"stats.{k}": v for k, v in statistics(leaf, stats).items()}),
    })


def plain_fields(struct: Any) -> dict[str, Any]:
    """The set fields of a header struct, by name (enums kept, for `_name`)."""
    return {f.name: value for f in dataclasses.fields(struct)
            if f.name not in READING_FIELDS and (value := getattr(struct, f.name)) is not None}


def _crc_valid(file: bytes, extent: PageExtent) -> bool:
    """README.md, 'Checksumming': the CRC32 of the page's stored bytes after its header."""
    assert extent.header.crc is not None
    try:
        verify_page_crc(extent.header.crc, file[extent.body_start:extent.end], extent.offset)
    except ChecksumMismatch:
        return False
    return True


# -- page index and Bloom filter -----------------------------------------------------


def _column_index(file: bytes, leaf: LeafColumn, chunk: M.ColumnChunk, crypto: ColumnDecryptor | None,
                  where: str) -> dict[str, Any] | None:
    index = read_column_index_of(file, chunk, crypto, where=where)
    if index is None:
        return None
    pages = []
    for number, null_page in enumerate(index.null_pages):
        page: dict[str, Any] = {"page": number, "null_page": null_page}
        if not null_page:
            low, high = index.min_values[number], index.max_values[number]
            page.update({"min": bound(leaf, low), "max": bound(leaf, high),
                         "min_raw": low.hex(), "max_raw": high.hex()})
        for name in ("null_counts", "nan_counts"):
            counts = getattr(index, name)
            page[name[:-1]] = None if counts is None else counts[number]
        pages.append(record(page))
    return record({"boundary_order": _name(index.boundary_order), "pages": pages,
                   "repetition_level_histograms": index.repetition_level_histograms,
                   "definition_level_histograms": index.definition_level_histograms})


def _offset_index(file: bytes, chunk: M.ColumnChunk, crypto: ColumnDecryptor | None,
                  where: str) -> dict[str, Any] | None:
    index = read_offset_index_of(file, chunk, crypto, where=where)
    if index is None:
        return None
    sizes = index.unencoded_byte_array_data_bytes
    return {"page_locations": [record({
        "page": number, "offset": location.offset, "compressed_page_size": location.compressed_page_size,
        "first_row_index": location.first_row_index,
        "unencoded_byte_array_data_bytes": None if sizes is None else sizes[number]})
        for number, location in enumerate(index.page_locations)]}


def _bloom_filter(file: bytes, meta: M.ColumnMetaData, crypto: ColumnDecryptor | None,
                  where: str) -> dict[str, Any] | None:
    """The filter's header: the reader accepts only the BLOCK algorithm, the XXHASH hash and
    no compression (BloomFilter.md, 'File Format'), so a filter read has those."""
    bloom: SplitBlockBloomFilter | None = read_bloom_filter_of(file, meta, crypto, where=where)
    if bloom is None:
        return None
    return {"offset": meta.bloom_filter_offset, "length": meta.bloom_filter_length,
            "numBytes": bloom.num_bytes, "algorithm": "BLOCK", "hash": "XXHASH",
            "compression": "UNCOMPRESSED", "blocks": bloom.num_blocks, "bits_set": bits_set(bloom.bitset())}


# -- small helpers -------------------------------------------------------------------


def union_text(union: ThriftUnion) -> str:
    """A Thrift union as `MEMBER` or `MEMBER(field=value, ...)` (a nested union by its member)."""
    member = union.member
    if member is None:
        return f"unknown (field ids {list(union.skipped_field_ids)})"
    inner = [f"{name}={union_text(value) if isinstance(value, ThriftUnion) else _name(value)}"
             for name, value in plain_fields(member).items()]
    return f"{union.kind}({', '.join(inner)})" if inner else str(union.kind)


def _name(value: Any) -> Any:
    """An enum member by name (an unknown value as the reference names it); anything else as is."""
    return getattr(value, "name", value) if value is not None and not isinstance(value, bool | str) else value

