"""Encrypted test files and a map of every module in them.

The schema is nested (a list, a struct) beside flat columns, so every
encryption mode meets dictionary pages, several data pages per chunk, levels,
a page index and Bloom filters.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, replace
from typing import Any

from reference_impl.parquet.encryption import (
    DeterministicRandomness,
    FileDecryptionProperties,
    FileEncryptionProperties,
)
from reference_impl.parquet.encryption.ciphers import (
    MODULE_LENGTH,
    NONCE_LENGTH,
    SIGNATURE_LENGTH,
    TAG_LENGTH,
)
from reference_impl.parquet.encryption.encryptor import PAGE_MODULES
from reference_impl.parquet.encryption.modules import ModuleType
from reference_impl.parquet.metadata import parquet_thrift as md
from reference_impl.parquet.metadata.file_layout import ENCRYPTED_FOOTER_MAGIC, FOOTER_LENGTH
from reference_impl.parquet.metadata.parquet_thrift import FieldRepetitionType, PageType, Type
from reference_impl.parquet.metadata.thrift_struct import deserialize
from reference_impl.parquet.pages.chunk_reader import read_column_chunk
from reference_impl.parquet.reader import read_footer_with_decryptor
from reference_impl.parquet.schema.nested_types import list_node, records_from_logical
from reference_impl.parquet.schema.tree import group, leaf, leaf_columns, root
from reference_impl.parquet.writer import write_table
from reference_impl.parquet.writer_options import WriterOptions

REQUIRED, OPTIONAL = FieldRepetitionType.REQUIRED, FieldRepetitionType.OPTIONAL
STRING = md.LogicalType(STRING=md.StringType())

TREE = root(
    [
        leaf("id", Type.INT64, repetition=REQUIRED),
        leaf("twin", Type.INT64, repetition=REQUIRED),
        leaf("name", Type.BYTE_ARRAY, repetition=OPTIONAL, logical_type=STRING),
        list_node("scores", leaf("element", Type.INT32, repetition=OPTIONAL), repetition=OPTIONAL),
        group(
            "address",
            [leaf("city", Type.BYTE_ARRAY, repetition=REQUIRED, logical_type=STRING)],
            repetition=OPTIONAL,
        ),
    ]
)
PATHS = [column.dotted_path for column in leaf_columns(TREE)]
SECRET_COLUMNS = ("name", "scores.list.element")  # per-column keys; the rest plaintext in "some plaintext"
ROWS: list[dict[str, Any]] = [
    {
        "id": row,
        "twin": row * 10,
        "name": f"name {row % 6}".encode() if row % 4 else None,
        "scores": None if row % 7 == 3 else [row % 5, None, row] if row % 2 else [],
        "address": None if row % 9 == 0 else {"city": f"city {row % 3}".encode()},
    }
    for row in range(40)
]
RECORDS = records_from_logical(TREE, ROWS)

KEYS = {size: bytes(range(size)) for size in (16, 24, 32)}


def column_key(size: int, path: str) -> bytes:
    return bytes((index * 7 + len(path)) % 256 for index in range(size))


def encryption(
    algorithm: str = "AES_GCM_V1",
    *,
    plaintext_footer: bool = False,
    layout: str = "uniform",
    key_size: int = 16,
    aad_prefix: bytes | None = None,
    store_aad_prefix: bool = True,
    seed: bytes = b"seed",
) -> FileEncryptionProperties:
    """layout: "uniform" (every column, footer key), "column keys" (every column its own key),
    "some plaintext" (only SECRET_COLUMNS encrypted, each with its own key)."""
    named = {"uniform": (), "column keys": PATHS, "some plaintext": SECRET_COLUMNS}[layout]
    return FileEncryptionProperties(
        algorithm,
        KEYS[key_size],
        footer_key_metadata=b"footer key id",
        column_keys={path: column_key(key_size, path) for path in named},
        column_key_metadata={path: f"key of {path}".encode() for path in named},
        plaintext_footer=plaintext_footer,
        aad_prefix=aad_prefix,
        store_aad_prefix=store_aad_prefix,
        randomness=DeterministicRandomness(seed),
    )


def decryption(properties: FileEncryptionProperties, **changes: Any) -> FileDecryptionProperties:
    """The keys that decrypt a file written with ``properties`` (the AAD prefix only if not stored)."""
    supplied = properties.aad_prefix if not properties.store_aad_prefix else None
    keys = FileDecryptionProperties(
        footer_key=properties.footer_key, column_keys=properties.column_keys, aad_prefix=supplied
    )
    return replace(keys, **changes)


def write(properties: FileEncryptionProperties | None, **options: Any) -> bytes:
    settings = {
        "row_group_size": 20,
        "page_row_limit": 6,
        "encoding": "RLE_DICTIONARY",
        "column_encodings": {"id": "PLAIN", "twin": "PLAIN"},
        "page_index": True,
        "bloom_filter_columns": frozenset({"id", "name"}),
        "page_checksum": True,
        "encryption": properties,
    }
    settings.update(options)
    sink = io.BytesIO()
    write_table(sink, TREE, RECORDS, WriterOptions(**settings))
    return sink.getvalue()


# ---------------------------------------------------------------------------
# Every module of a file
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Located:
    """One stored module: [offset, end), its type, ordinals; ``gcm`` unless a CTR page."""

    name: str
    offset: int
    end: int
    module_type: ModuleType | None  # None: the plaintext footer's signature
    row_group: int | None = None
    column: int | None = None
    page: int | None = None
    gcm: bool = True

    @property
    def nonce_at(self) -> int:
        return self.offset + MODULE_LENGTH.size

    @property
    def ciphertext(self) -> range:
        return range(self.nonce_at + NONCE_LENGTH, self.end - (TAG_LENGTH if self.gcm else 0))

    @property
    def tag_at(self) -> int:
        return self.end - TAG_LENGTH


def _module_end(raw: bytes, offset: int) -> int:
    (length,) = MODULE_LENGTH.unpack_from(raw, offset)
    return offset + MODULE_LENGTH.size + length


def modules_of(raw: bytes, keys: FileDecryptionProperties) -> list[Located]:
    """Every encrypted module of ``raw`` (and the footer signature), found with the reference reader."""
    metadata, footer_start, decryptor = read_footer_with_decryptor(raw, decryption=keys)
    assert decryptor is not None
    ctr = decryptor.name == "AES_GCM_CTR_V1"
    leaves = leaf_columns(TREE)
    found: list[Located] = []
    for rg, row_group in enumerate(metadata.row_groups):
        for column in leaves:
            chunk = row_group.columns[column.index]
            crypto = decryptor.column(column, chunk, rg)
            if crypto is None:
                continue
            where = {"row_group": rg, "column": column.index}
            name = f"rg {rg} {column.dotted_path}"
            if chunk.encrypted_column_metadata is not None and raw.find(chunk.encrypted_column_metadata) >= 0:
                at = raw.find(chunk.encrypted_column_metadata)
                found.append(
                    Located(
                        f"{name} ColumnMetaData",
                        at,
                        at + len(chunk.encrypted_column_metadata),
                        ModuleType.COLUMN_META_DATA,
                        **where,
                    )
                )
            data = read_column_chunk(
                raw, column, chunk, row_group.num_rows, where=name, footer_start=footer_start, crypto=crypto
            )
            ordinal = 0
            for extent in data.pages:
                dictionary = extent.header.type == PageType.DICTIONARY_PAGE
                page = None if dictionary else ordinal
                kind = "dictionary page" if dictionary else f"data page {page}"
                header_type = ModuleType.DICTIONARY_PAGE_HEADER if dictionary else ModuleType.DATA_PAGE_HEADER
                body_type = ModuleType.DICTIONARY_PAGE if dictionary else ModuleType.DATA_PAGE
                found.append(
                    Located(
                        f"{name} {kind} header",
                        extent.offset,
                        extent.body_start,
                        header_type,
                        page=page,
                        **where,
                    )
                )
                found.append(
                    Located(
                        f"{name} {kind}",
                        extent.body_start,
                        extent.end,
                        body_type,
                        page=page,
                        gcm=not (ctr and body_type in PAGE_MODULES),
                        **where,
                    )
                )
                ordinal += not dictionary
            meta = crypto.file.column_metadata(crypto, chunk)
            for label, module_type, offset in (
                ("ColumnIndex", ModuleType.COLUMN_INDEX, chunk.column_index_offset),
                ("OffsetIndex", ModuleType.OFFSET_INDEX, chunk.offset_index_offset),
            ):
                if offset is not None:
                    found.append(
                        Located(f"{name} {label}", offset, _module_end(raw, offset), module_type, **where)
                    )
            if meta.bloom_filter_offset is not None:
                header_end = _module_end(raw, meta.bloom_filter_offset)
                found.append(
                    Located(
                        f"{name} Bloom filter header",
                        meta.bloom_filter_offset,
                        header_end,
                        ModuleType.BLOOM_FILTER_HEADER,
                        **where,
                    )
                )
                found.append(
                    Located(
                        f"{name} Bloom filter bitset",
                        header_end,
                        _module_end(raw, header_end),
                        ModuleType.BLOOM_FILTER_BITSET,
                        **where,
                    )
                )
    length_at = len(raw) - 4 - FOOTER_LENGTH.size
    if raw.endswith(ENCRYPTED_FOOTER_MAGIC):
        _, module_at = deserialize(md.FileCryptoMetaData, raw, start=footer_start, end=length_at)
        found.append(Located("footer", module_at, length_at, ModuleType.FOOTER))
    else:
        # The signature: nonce and tag, no ciphertext (offset placed so nonce_at is its nonce).
        found.append(
            Located("footer signature", length_at - SIGNATURE_LENGTH - MODULE_LENGTH.size, length_at, None)
        )
    return found
