"""Reference -> reference round trips of every encryption mode ('3.7.3')."""

from __future__ import annotations

import io
import itertools

import pytest

from reference_impl.parquet.encryption import (
    DeterministicRandomness,
    FileDecryptionProperties,
    FileEncryptionProperties,
)
from reference_impl.parquet.encryption.ciphers import MODULE_LENGTH
from reference_impl.parquet.encryption.encryptor import PAGE_MODULES
from reference_impl.parquet.indexes.pruning import Predicate, scan
from reference_impl.parquet.metadata.file_layout import ENCRYPTED_FOOTER_MAGIC, MAGIC
from reference_impl.parquet.metadata.parquet_thrift import Type
from reference_impl.parquet.reader import read_footer, read_footer_with_decryptor, read_parquet
from reference_impl.parquet.schema.flat import ColumnSpec
from reference_impl.parquet.validation.validate import validate
from reference_impl.parquet.writer import write_parquet
from reference_impl.parquet.writer_options import WriterOptions
from tests.reference_impl.encryption.encrypted_files import (
    KEYS,
    OPTIONAL,
    PATHS,
    RECORDS,
    ROWS,
    SECRET_COLUMNS,
    decryption,
    encryption,
    modules_of,
    write,
)

ALGORITHMS = ("AES_GCM_V1", "AES_GCM_CTR_V1")
LAYOUTS = ("uniform", "column keys", "some plaintext")
MATRIX = list(itertools.product(ALGORITHMS, (False, True), LAYOUTS, (16, 24, 32)))


def _ids(case) -> str:
    algorithm, plaintext_footer, layout, size = case
    return f"{algorithm}-{'plaintext' if plaintext_footer else 'encrypted'} footer-{layout}-{size * 8}"


@pytest.mark.parametrize("case", MATRIX, ids=_ids)
@pytest.mark.parametrize("page_version", [1, 2])
def test_every_mode_round_trips(case, page_version: int) -> None:
    algorithm, plaintext_footer, layout, size = case
    # Cycle the AAD prefix modes over the matrix: none, stored, supplied by the reader.
    aad = MATRIX.index(case) % 3
    properties = encryption(
        algorithm,
        plaintext_footer=plaintext_footer,
        layout=layout,
        key_size=size,
        aad_prefix=None if aad == 0 else b"table.part7",
        store_aad_prefix=aad != 2,
    )
    raw = write(properties, page_version=page_version)
    keys = decryption(properties)
    contents = read_parquet(raw, decryption=keys, verify_checksums=True)
    assert contents.records == RECORDS
    assert contents.logical_rows() == ROWS
    assert validate(raw, decryption=keys) == []
    magic = MAGIC if plaintext_footer else ENCRYPTED_FOOTER_MAGIC
    assert raw[:4] == raw[-4:] == magic
    _check_metadata(raw, keys, plaintext_footer, layout)


def _check_metadata(raw: bytes, keys: FileDecryptionProperties, plaintext_footer: bool, layout: str) -> None:
    metadata, _, decryptor = read_footer_with_decryptor(raw, decryption=keys)
    assert decryptor is not None and decryptor.footer_verified
    assert (metadata.encryption_algorithm is not None) == plaintext_footer
    assert [group.ordinal for group in metadata.row_groups] == [0, 1]
    for chunk, path in zip(metadata.row_groups[0].columns, PATHS, strict=True):
        encrypted = layout != "some plaintext" or path in SECRET_COLUMNS
        assert (chunk.crypto_metadata is not None) == encrypted
        separate = encrypted and (layout != "uniform" or plaintext_footer)
        assert (chunk.encrypted_column_metadata is not None) == separate
        if not encrypted or not separate:
            assert chunk.meta_data is not None and chunk.meta_data.statistics is not None
        elif plaintext_footer:
            # '5.3': kept for legacy readers, "stripped of the statistics".
            assert chunk.meta_data is not None and chunk.meta_data.statistics is None
            assert chunk.meta_data.encoding_stats is None
        else:
            assert chunk.meta_data is None


@pytest.mark.parametrize("algorithm", ALGORITHMS)
def test_compressed_page_size_counts_the_whole_encrypted_module(algorithm: str) -> None:
    # PageHeader.compressed_page_size: the page module as stored, its 4-byte length included
    # (modules_of places each page at [header end, header end + compressed_page_size)).
    properties = encryption(algorithm)
    raw = write(properties)
    pages = [m for m in modules_of(raw, decryption(properties)) if m.module_type in PAGE_MODULES]
    assert len(pages) > 20
    for page in pages:
        (length,) = MODULE_LENGTH.unpack_from(raw, page.offset)
        assert page.end == page.offset + MODULE_LENGTH.size + length, page.name
        assert page.gcm == (algorithm == "AES_GCM_V1")


@pytest.mark.parametrize("plaintext_footer", [False, True])
def test_scans_prune_with_decrypted_statistics_page_index_and_bloom_filter(plaintext_footer: bool) -> None:
    properties = FileEncryptionProperties(
        "AES_GCM_V1",
        KEYS[16],
        column_keys={"n": KEYS[32]},
        plaintext_footer=plaintext_footer,
        randomness=DeterministicRandomness(b"scan"),
    )
    columns = [ColumnSpec("n", Type.INT64, OPTIONAL), ColumnSpec("m", Type.INT64, OPTIONAL)]
    data = {"n": [None if row % 9 == 0 else row for row in range(60)], "m": list(range(60))}
    options = WriterOptions(
        encryption=properties, page_index=True, bloom_filter_columns=frozenset({"n"}), page_row_limit=10
    )
    sink = io.BytesIO()
    write_parquet(sink, columns, data, row_group_size=20, options=options)
    raw = sink.getvalue()
    keys = FileDecryptionProperties(footer_key=KEYS[16], column_keys={"n": KEYS[32]})
    result = scan(raw, Predicate("n", ">=", 52), decryption=keys)
    assert result.rows == [row for row in range(52, 60) if row % 9]
    assert result.row_groups_skipped == {"statistics": 2} and result.pages_skipped == 1
    assert scan(raw, Predicate("n", "==", 1000), decryption=keys).row_groups_skipped == {"statistics": 3}
    bloom_only = scan(raw, Predicate("n", "==", 11), decryption=keys, use_statistics=False)
    assert bloom_only.row_groups_skipped == {"bloom_filter": 2} and bloom_only.rows == [11]
    assert validate(raw, decryption=keys) == []


def test_deterministic_randomness_reproduces_the_file_and_system_randomness_does_not() -> None:
    assert write(encryption(seed=b"golden")) == write(encryption(seed=b"golden"))
    assert write(encryption(seed=b"golden")) != write(encryption(seed=b"other"))
    from dataclasses import replace

    from reference_impl.parquet.encryption import SystemRandomness

    system = replace(encryption(), randomness=SystemRandomness())
    assert write(system) != write(system)


def test_without_encryption_the_bytes_are_unchanged() -> None:
    # Plain files carry no trace of the encryption code paths: the same bytes as before.
    raw = write(None)
    assert raw[:4] == MAGIC and read_footer(raw)[0].encryption_algorithm is None
    assert read_parquet(raw).records == RECORDS


@pytest.mark.parametrize("plaintext_footer", [False, True])
def test_projection_of_plaintext_columns_needs_no_key(plaintext_footer: bool) -> None:
    properties = encryption(layout="some plaintext", plaintext_footer=plaintext_footer)
    raw = write(properties)
    keys = FileDecryptionProperties(footer_key=properties.footer_key)  # no column key
    plain = ["id", "twin", "address"]
    for supplied in (keys, None) if plaintext_footer else (keys,):
        contents = read_parquet(raw, decryption=supplied, columns=plain)
        assert contents.logical_rows() == [{name: row[name] for name in plain} for row in ROWS]
    contents = read_parquet(raw, decryption=decryption(properties), columns=["scores"])
    assert contents.logical_rows() == [{"scores": row["scores"]} for row in ROWS]


def test_key_retriever_is_asked_with_the_stored_key_metadata() -> None:
    properties = encryption(layout="column keys", plaintext_footer=True)
    raw = write(properties)
    by_metadata = {b"footer key id": properties.footer_key}
    by_metadata.update({f"key of {path}".encode(): key for path, key in properties.column_keys.items()})
    asked: list[bytes | None] = []

    def retrieve(key_metadata: bytes | None) -> bytes | None:
        asked.append(key_metadata)
        return by_metadata.get(key_metadata)

    contents = read_parquet(raw, decryption=FileDecryptionProperties(key_retriever=retrieve))
    assert contents.records == RECORDS
    assert set(asked) == set(by_metadata)
