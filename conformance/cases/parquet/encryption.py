"""Parquet Modular Encryption: every algorithm, footer mode, key layout and key size.

Spec: Encryption.md '3 Technical Approach', '4.2 Parquet encryption algorithms',
'4.3 Key metadata', '4.4 Additional Authenticated Data', '5.3 Protection of
sensitive metadata', '5.4 Encrypted footer mode', '5.5 Plaintext footer mode'.

One table (nulls, a string, a list, several pages and row groups and a page
index, so the pages, headers, indexes and column metadata are there to encrypt)
written in every mode; a Bloom filter's two modules get cases of their own
(pyarrow refuses encryption with Bloom filters: "Encryption is not currently
supported with bloom filter", measured).

Cases come in two key-management families (`EncryptionOptions`): wrapped
key material of the test KMS (what pyarrow and Spark write and read) and
explicit keys named in key_metadata (what DuckDB and the reference can use). A
reader opens every file from its key_metadata alone (`conformance.kms.case_keys`).
"""

from __future__ import annotations

import itertools

from conformance.values import Field, Schema
from conformance.values import types as T

from ..encryption_options import FILE_NAME, EncryptionOptions
from ..model import Case, WriteOptions

SPEC = ("Encryption.md: 3 Technical Approach", "Encryption.md: 4.2 Parquet encryption algorithms")
SPEC_FOOTER = "Encryption.md: 5.5 Plaintext footer mode"
SPEC_AAD = "Encryption.md: 4.4.1 AAD prefix"
ROWS = 40
SCHEMA = Schema((Field("id", T.integer(64), False), Field("name", T.string(), True),
                 Field("score", T.floating(64), True), Field("tags", T.list_of(T.string()), True)))
# Written with pages, row groups, a page index and CRCs where a writer can.
LAYOUT = dict(encoding=None, row_group_size=20, page_row_limit=8, page_index=True, page_checksum=True)
WITH_BLOOM_FILTER = dict(LAYOUT, bloom_filter_columns=("name",))
# DuckDB takes 256-bit keys only (measured): the writer's-own-layout cases use them.
DUCKDB_KEY_BITS = 256
SECRET_COLUMNS = ("name", "score")  # the per-column layout: these two with keys of their own


def _rows() -> tuple[tuple, ...]:
    return tuple((i, None if i % 7 == 3 else f"person {i}", None if i % 5 == 0 else i / 8,
                  None if i % 9 == 4 else [f"t{i % 3}", f"u{i % 4}"][: i % 3]) for i in range(ROWS))


def _case(name: str, title: str, encryption: EncryptionOptions, spec: tuple[str, ...] = (),
          layout: dict | None = None) -> Case:
    options = WriteOptions(**(LAYOUT if layout is None else layout), encryption=encryption)
    return Case(id=f"encryption/{name}", title=title, spec=SPEC + spec, schema=SCHEMA, rows=_rows(),
                options=options)


def cases() -> list[Case]:
    out = []
    for management, algorithm, footer, layout in itertools.product(
            ("kms", "explicit"), ("AES_GCM_V1", "AES_GCM_CTR_V1"), ("encrypted", "plaintext"),
            ("uniform", "per_column")):
        columns = SECRET_COLUMNS if layout == "per_column" else ()
        name = f"{management}-{algorithm.lower().replace('_', '-')}-{footer}-footer-{layout}"
        out.append(_case(name, f"{algorithm}, {footer} footer, {layout.replace('_', '-')} keys, "
                         f"{management} keys",
                         EncryptionOptions(algorithm, footer, columns, key_management=management),
                         (SPEC_FOOTER,) if footer == "plaintext" else ()))
    for bits in (192, 256):
        out.append(_case(f"kms-key-{bits}", f"{bits}-bit data keys",
                         EncryptionOptions(column_keys=SECRET_COLUMNS, key_bits=bits, key_management="kms")))
    # The file layout left to each writer, so writers without page or row group knobs
    # (DuckDB) take part too.
    out += [_case(f"explicit-{algorithm.lower().replace('_', '-')}-default-layout",
                  f"{algorithm}, uniform explicit {DUCKDB_KEY_BITS}-bit key, the writer's own layout",
                  EncryptionOptions(algorithm, key_bits=DUCKDB_KEY_BITS), layout={"encoding": None})
            for algorithm in ("AES_GCM_V1", "AES_GCM_CTR_V1")]
    out += [_case(f"{management}-bloom-filter",
                  f"the Bloom filter header and bitset modules, {management} keys",
                  EncryptionOptions(column_keys=SECRET_COLUMNS, key_management=management),
                  ("BloomFilter.md: Technical Approach, Encryption",), WITH_BLOOM_FILTER)
            for management in ("kms", "explicit")]
    out += [
        _case("kms-double-wrapping", "data keys wrapped through a key-encryption key",
              EncryptionOptions(column_keys=SECRET_COLUMNS, key_management="kms_double")),
        _case("aad-prefix-stored", "an AAD prefix stored in the file",
              EncryptionOptions(aad_prefix="employees_23May2018.part0", key_management="kms"), (SPEC_AAD,)),
        _case("aad-prefix-supplied", "an AAD prefix the reader must supply (the file's name)",
              EncryptionOptions(aad_prefix=FILE_NAME, store_aad_prefix=False, key_management="kms"),
              (SPEC_AAD,)),
    ]
    return out
