"""pyarrow (Arrow C++ parquet) as a writer and a reader.

Write: the case becomes an Arrow table (arrow_values.table_to_arrow) written by
`pq.write_table` with every knob pinned (docs/engine-notes.md, 'pyarrow'):

- encoding: PLAIN -> `use_dictionary=False` plus `column_encoding={leaf: 'PLAIN'}`
  (without it pyarrow writes BOOLEAN columns RLE-encoded in v2 data pages);
  RLE_DICTIONARY -> `use_dictionary=True` (format version 2.6 names it
  RLE_DICTIONARY) with a dictionary page limit high enough that no column falls
  back to PLAIN; any other encoding -> `use_dictionary=False` plus
  `column_encoding={leaf: <encoding>}`, where pyarrow supports it for the leaf's
  physical type (measured, see `_ENCODING_PHYSICAL`).
- codec -> `compression` (pyarrow's 'lz4' is LZ4_RAW, codec 7).
- PLAIN_DICTIONARY -> the same with format `version='1.0'`; dictionary_size_limit ->
  `dictionary_pagesize_limit`.
- page_version -> `data_page_version` '1.0' | '2.0'; page_row_limit -> `max_rows_per_page`.
- TIME(isAdjustedToUTC=true) -> `write_time_adjusted_to_utc=True` (file-wide).
- row_group_size -> `row_group_size` (rows); None -> every row in one group.
- `store_schema=False`: no Arrow schema in the footer, so every reader, pyarrow
  included, sees only the Parquet metadata.
- INT96 columns -> `use_deprecated_int96_timestamps=True`.
- DECIMAL on INT32/INT64 -> `store_decimal_as_integer=True`.
- statistics -> `write_statistics` (default True); statistics_truncate_length has no
  pyarrow knob: Arrow C++'s `max_statistics_size` (4096 bytes, not exposed in
  Python) drops min/max larger than it instead of truncating (measured: a 5001-byte
  string column gets Statistics with null_count only, and no ColumnIndex).
- page_index -> `write_page_index` (default False); with `write_statistics=False`
  pyarrow writes the OffsetIndex only (measured), so page_index=True needs statistics.
- bloom_filter_columns / ndv / fpp -> `bloom_filter_options={col: {ndv, fpp}}`
  (pyarrow's defaults ndv=1048576, fpp=0.05 where the case leaves them open);
  measured: BOOLEAN columns raise "BloomFilterBuilder does not support boolean type".
- page_checksum -> `write_page_checksum` (default False); measured: the crc is set on
  dictionary and data pages alike.

- encryption (kms, kms_double) -> `pyarrow.parquet.encryption.CryptoFactory` over the test
  KMS (`conformance.kms.pyarrow_client`) with `EncryptionConfiguration(footer_key=
  "footer_key", column_keys=column_master_keys(...), uniform_encryption=not column_keys,
  encryption_algorithm, plaintext_footer, double_wrapping, data_key_length_bits,
  internal_key_material=True)` -> `pq.write_table(..., encryption_properties=...)`.
  Explicit keys and AAD prefixes are unsupported (see `ENCRYPTION_CANNOT_WRITE`).

Read: `pq.read_table(path)` with pyarrow's defaults (Arrow extension types for
UUID and JSON are on by default in pyarrow 26), then arrow_values.engine_table.

An encrypted file (`conformance.kms.file_keys.file_encryption`, from the bytes readable without keys) is
opened with `CryptoFactory.file_decryption_properties(KmsConnectionConfig(),
DecryptionConfiguration())` when its footer key_metadata is key material, and with the
direct-key `pe.create_decryption_properties(footer_key=...)` when it names an explicit
test key (`case_key_retriever`) or names none (the cases' explicit footer keys are tried);
a supplied AAD prefix is the file's name (the suite's convention, `FILE_NAME`).

Checksummed read (`read_verifying_checksums`): the same with `page_checksum_verification=True`
(off by default).

Filtered read: `pq.read_table(path, filters=<pyarrow.compute expression>)`, the
constant an Arrow scalar of the case column's type (arrow_values.filter_expression,
exact), cast to the file column's Arrow type when a writer stored it differently.
The dataset scanner prunes row groups with ColumnMetaData statistics; pyarrow's
docs say the page index is not used on the read side (`write_page_index`), and
the Python API offers no bloom-filter pruning.
"""

from __future__ import annotations

import functools
from pathlib import Path

from conformance.cases import Case
from conformance.cases.predicate import Predicate
from conformance.kms.file_keys import FileEncryption, file_encryption, own_column_key_metadata
from conformance.values import DataType, Table
from conformance.values.types import decimal_min_bytes

from ..arrow_native import NATIVE_ARROW, native_tags, with_native_columns
from ..arrow_values import NO_ARROW_FORM, engine_table, filter_expression, table_to_arrow
from ..base import Capabilities, Engine, Unsupported
from ._parquet_leaves import all_fields, leaves

GEOARROW_KINDS = ("geometry", "geography")  # written from geoarrow.wkb (arrow_values, geoarrow)
LIES_REASON = ("deliberately untrue metadata (WriteOptions.lies) is written by the reference "
               "writer only")

# WriteOptions.codec -> pyarrow `compression`.
_CODECS = {"UNCOMPRESSED": "NONE", "SNAPPY": "SNAPPY", "GZIP": "GZIP", "BROTLI": "BROTLI",
           "ZSTD": "ZSTD", "LZ4_RAW": "LZ4"}

# Physical types pyarrow 26 encodes with each non-dictionary encoding, measured with
# `column_encoding` on one column per physical type; the rest fail with the errors
# quoted (OSError from pq.write_table).
_ENCODING_PHYSICAL = {
    "PLAIN": ("BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY",
              "FIXED_LEN_BYTE_ARRAY"),
    "RLE": ("BOOLEAN",),  # "RLE only supports BOOLEAN"
    "DELTA_BINARY_PACKED": ("INT32", "INT64"),
    # "DELTA_BINARY_PACKED encoder only supports INT32 and INT64"
    "DELTA_LENGTH_BYTE_ARRAY": ("BYTE_ARRAY",),
    # "DELTA_LENGTH_BYTE_ARRAY only supports BYTE_ARRAY"
    "DELTA_BYTE_ARRAY": ("BYTE_ARRAY", "FIXED_LEN_BYTE_ARRAY"),
    # "DELTA_BYTE_ARRAY only supports BYTE_ARRAY and FIXED_LEN_BYTE_ARRAY"
    "BYTE_STREAM_SPLIT": ("FLOAT", "DOUBLE", "INT32", "INT64", "FIXED_LEN_BYTE_ARRAY"),
    # "BYTE_STREAM_SPLIT only supports FLOAT, DOUBLE, INT32, INT64 and FIXED_LEN_BYTE_ARRAY"
    # Measured: with use_dictionary=True BOOLEAN columns are still written PLAIN.
    "RLE_DICTIONARY": ("INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY",
                       "FIXED_LEN_BYTE_ARRAY"),
}
_ENCODING_PHYSICAL["PLAIN_DICTIONARY"] = _ENCODING_PHYSICAL["RLE_DICTIONARY"]
CHECKSUM_VERIFICATION = "page_checksum_verification"  # pq.read_table keyword
DICTIONARY_PAGE_LIMIT = 1 << 30  # bytes; far above any case, so no fallback to PLAIN

# pyarrow 26's two ways to encrypt (pyarrow/_parquet_encryption.pyx): CryptoFactory +
# EncryptionConfiguration (attributes footer_key, column_keys, uniform_encryption,
# encryption_algorithm, plaintext_footer, double_wrapping, cache_lifetime,
# internal_key_material, data_key_length_bits) always generates random data keys and
# stores wrapped key material; the direct-key create_encryption_properties(footer_key,
# aad_prefix, store_aad_prefix, encryption_algorithm, plaintext_footer) takes neither a
# key_metadata nor column keys ("Currently only uniform encryption ... is supported").
ENCRYPTION_CANNOT_WRITE = {
    "encryption:key_management=explicit":
        "explicit keys named in key_metadata: pyarrow's CryptoFactory generates random data "
        "keys and stores wrapped key material; the direct-key "
        "pe.create_encryption_properties takes no key_metadata (measured: FileCryptoMetaData."
        "key_metadata is unset) and no column keys (its docstring: 'only uniform encryption')",
    "encryption:aad_prefix=*":
        "pyarrow's EncryptionConfiguration has no AAD prefix attribute; only the direct-key "
        "pe.create_encryption_properties(aad_prefix=...) has one, and it cannot name its key "
        "in key_metadata",
}
ENCRYPTION_CANNOT_READ = {
    "encryption:aad_prefix=supplied":
        "a supplied AAD prefix with KMS keys: pyarrow's DecryptionConfiguration has no AAD "
        "prefix (only the direct-key pe.create_decryption_properties does, for explicit uniform "
        "keys, which this adapter uses); the cases' supplied prefixes use KMS keys",
}

CAPABILITIES = Capabilities(
    writes=("physical:*", "type:*", "repetition:*", "encoding:*", "page:*", "row_groups:*",
            "pages:*", "dictionary:fallback", "rows:*", "nulls:*", "statistics",
            "statistics:none", "page_index", "bloom", "crc", "encryption:*",
            *(f"codec:{c}" for c in _CODECS), *native_tags(NATIVE_ARROW)),
    cannot_read=ENCRYPTION_CANNOT_READ,
    cannot_write={
        **ENCRYPTION_CANNOT_WRITE,
        "column_order:*": "pyarrow 26 has no column-order option (pq.write_table / ParquetWriter "
                          "take no keyword about orders or NaN counts); measured: FileMetaData."
                          "column_orders is TYPE_ORDER for every column, INT96 included (whose "
                          "statistics it leaves unset), and Statistics.nan_count is never set",
        "statistics:truncate": "pyarrow has no statistics truncation knob; Arrow C++'s "
                               "max_statistics_size (4096 bytes, not exposed in Python) drops "
                               "larger min/max instead of truncating them (measured: a 5001-byte "
                               "string gets Statistics with null_count only)",
        **{f"type:{kind.upper()}": reason for kind, reason in NO_ARROW_FORM.items()
           if kind not in GEOARROW_KINDS},
        "variant:shredded": NO_ARROW_FORM["variant"],
        "type:FILE": "measured: pyarrow 26 writes an Arrow struct as a group without LogicalType "
                     "(FILE is LogicalType 19; Arrow has no FILE type)",
        "thrift:extension": "pq.write_table has no option that appends bytes to a Thrift struct "
                            "(BinaryProtocolExtensions.md); measured: none of its keywords does",
        "type:ENUM": "Arrow has no enum type and pyarrow never writes the ENUM annotation "
                     "(strings are written as STRING)",
        "type:BSON": "Arrow has no BSON type; pyarrow never writes the BSON annotation",
        "type:INTERVAL": "measured: pq.write_table raises ArrowNotImplementedError 'Unhandled "
                         "type for Arrow to Parquet schema conversion: month_day_nano_interval'",
        "type:DECIMAL(BYTE_ARRAY)": "pyarrow writes DECIMAL on INT32/INT64 "
                                    "(store_decimal_as_integer) or FIXED_LEN_BYTE_ARRAY only",
        "encoding:ALP": "measured: pq.write_table(..., column_encoding={leaf: 'ALP'}) raises "
                        "ValueError \"Unsupported column encoding: 'ALP'\" (pyarrow 26.0.1)",
        "codec:LZ4": "pyarrow's 'lz4' writes LZ4_RAW (codec 7, measured in the footer); "
                     "measured: compression='LZ4_HADOOP' raises 'Unsupported compression: "
                     "LZ4_HADOOP'",
        "codec:LZO": "measured: 'While LZO compression is supported by the Parquet format in "
                     "general, it is currently not supported by the C++ implementation.'",
    },
)


class PyArrowEngine(Engine):
    name = "pyarrow"
    distribution = "pyarrow"
    capabilities = CAPABILITIES
    checksum_verification = f"pq.read_table(..., {CHECKSUM_VERIFICATION}=True)"

    def write(self, case: Case, path: Path) -> None:
        import pyarrow.parquet as pq

        kwargs = write_kwargs(case)
        if case.parquet_options.encryption is not None:
            kwargs["encryption_properties"] = encryption_properties(case, path)
        table = with_native_columns(table_to_arrow(case.expected), case.parquet_options.native_types)
        pq.write_table(table, str(path), **kwargs)

    def read(self, path: Path) -> Table:
        import pyarrow.parquet as pq

        return engine_table(self.name, pq.read_table(str(path), **read_kwargs(path)))

    def read_verifying_checksums(self, path: Path) -> Table:
        import pyarrow.parquet as pq

        kwargs = {**read_kwargs(path), CHECKSUM_VERIFICATION: True}
        return engine_table(self.name, pq.read_table(str(path), **kwargs))

    def read_filtered(self, path: Path, predicate: Predicate) -> Table:
        import pyarrow.parquet as pq

        kwargs = read_kwargs(path)
        expression = filter_expression(predicate, pq.read_schema(str(path), **kwargs))
        return engine_table(self.name, pq.read_table(str(path), filters=expression, **kwargs))


# ---- encryption -----------------------------------------------------------------------

@functools.cache
def crypto_factory():
    """One CryptoFactory over the test KMS for the process (pyarrow caches KEKs in it)."""
    import pyarrow.parquet.encryption as pe

    from conformance.kms.in_memory import TEST_MASTER_KEYS
    from conformance.kms.pyarrow_client import pyarrow_kms_client_factory

    return pe.CryptoFactory(pyarrow_kms_client_factory(TEST_MASTER_KEYS))


def encryption_properties(case: Case, path: Path):
    """The FileEncryptionProperties of `case` (KMS key management only), or Unsupported."""
    import pyarrow.parquet.encryption as pe

    from conformance.kms.case_keys import FOOTER_MASTER_KEY, column_master_keys

    e = case.parquet_options.encryption
    if e is None:
        raise ValueError(f"case {case.id} is not encrypted")
    gap = CAPABILITIES.write_gap(e.tags())
    if gap:
        raise Unsupported(gap)
    if e.footer == "plaintext" and not e.column_keys:
        raise Unsupported("measured: pyarrow 26's CryptoFactory ignores plaintext_footer=True with "
                          "uniform_encryption=True and writes an encrypted footer (magic 'PARE'); "
                          "listing every column instead gives each its own key, not uniform "
                          "encryption")
    if case.parquet_options.bloom_filter_columns:
        raise Unsupported("measured: pq.write_table with encryption_properties and "
                          "bloom_filter_options raises OSError 'Not yet implemented: Encryption "
                          "is not currently supported with bloom filter.'")
    config = pe.EncryptionConfiguration(
        footer_key=FOOTER_MASTER_KEY,
        column_keys=column_master_keys(e.column_keys) if e.column_keys else None,
        uniform_encryption=not e.column_keys,
        encryption_algorithm=e.algorithm,
        plaintext_footer=e.footer == "plaintext",
        double_wrapping=e.key_management == "kms_double",
        data_key_length_bits=e.key_bits,
        internal_key_material=True,
    )
    return crypto_factory().file_encryption_properties(pe.KmsConnectionConfig(), config,
                                                       parquet_file_path=str(path))


def read_kwargs(path: Path) -> dict:
    """`decryption_properties` for an encrypted file (nothing for a plaintext one)."""
    info = file_encryption(path)
    return {} if info is None else {"decryption_properties": decryption_properties(path, info)}


def decryption_properties(path: Path, info: FileEncryption):
    import pyarrow.parquet.encryption as pe

    from conformance.kms.case_keys import EXPLICIT_PREFIX, case_key_retriever

    metadata = info.footer_key_metadata
    supplied = Path(path).stem.encode("utf-8") if info.supply_aad_prefix else None
    if metadata and not bytes(metadata).startswith(EXPLICIT_PREFIX.encode()):
        if supplied is not None:
            raise Unsupported(ENCRYPTION_CANNOT_READ["encryption:aad_prefix=supplied"])
        return crypto_factory().file_decryption_properties(pe.KmsConnectionConfig(),
                                                           pe.DecryptionConfiguration(),
                                                           parquet_file_path=str(path))
    # A file that names no key (DuckDB's) gets the cases' convention for it, as every reader does.
    key = case_key_retriever()(metadata)
    own_keys = sorted(own_column_key_metadata(path, info))
    if own_keys:
        # Measured: pq.read_table raises OSError 'Wrong key length: 0', and reading such a
        # column's ColumnChunkMetaData aborts the process (C++ 'terminate called after
        # throwing an instance of parquet::ParquetException').
        raise Unsupported("explicit column keys: pyarrow's direct-key "
                          "pe.create_decryption_properties takes only a footer key ('Per-column "
                          f"keys are not yet available'); columns with their own keys: {own_keys}")
    return pe.create_decryption_properties(key, aad_prefix=supplied)


def write_kwargs(case: Case) -> dict:
    """The `pq.write_table` keyword arguments for `case`, or Unsupported with the reason."""
    options = case.parquet_options
    if options.codec not in _CODECS:
        raise Unsupported(CAPABILITIES.cannot_write.get(f"codec:{options.codec}",
                                                        f"no pyarrow codec for {options.codec}"))
    kwargs: dict = {
        "version": "2.6",
        "store_schema": False,
        "compression": _CODECS[options.codec],
        "data_page_version": "2.0" if options.page_version == 2 else "1.0",
        "row_group_size": options.row_group_size or max(len(case.rows), 1),
        "max_rows_per_page": options.page_row_limit,
        **_type_kwargs(case),
        **_encoding_kwargs(case),
        **_metadata_kwargs(case),
    }
    return kwargs


def _metadata_kwargs(case: Case) -> dict:
    """Statistics, page index, bloom filter and page checksum knobs (None: pyarrow's default)."""
    o = case.parquet_options
    kwargs: dict = {}
    if getattr(o, "lies", ()):
        raise Unsupported(LIES_REASON)
    if o.statistics_truncate_length is not None:
        raise Unsupported(CAPABILITIES.cannot_write["statistics:truncate"])
    if o.statistics is not None:
        kwargs["write_statistics"] = o.statistics
    if o.page_index is not None:
        if o.page_index and o.statistics is False:
            raise Unsupported("pyarrow writes the ColumnIndex from statistics: with "
                              "write_statistics=False it writes the OffsetIndex only (measured)")
        kwargs["write_page_index"] = o.page_index
    if o.bloom_filter_columns:
        types = {f.name: f.type for f in case.schema}
        for name in o.bloom_filter_columns:
            if types[name].physical == "BOOLEAN":
                raise Unsupported(f"column {name!r}: measured: pq.write_table raises "
                                  "'BloomFilterBuilder does not support boolean type'")
        settings: dict[str, float] = {}
        if o.bloom_filter_ndv is not None:
            settings["ndv"] = o.bloom_filter_ndv
        if o.bloom_filter_fpp is not None:
            settings["fpp"] = o.bloom_filter_fpp
        kwargs["bloom_filter_options"] = {name: dict(settings) for name in o.bloom_filter_columns}
    if o.page_checksum is not None:
        kwargs["write_page_checksum"] = o.page_checksum
    return kwargs


def _type_kwargs(case: Case) -> dict:
    """Type-driven knobs, after checking every type has a pyarrow form."""
    kinds = set()
    decimal_storage = set()  # True: DECIMAL on INT32/INT64, False: on FIXED_LEN_BYTE_ARRAY
    for path, f in all_fields(case.schema):
        t = f.type
        kinds.add(t.kind)
        _check_type(path, t)
        if t.kind == "decimal":
            decimal_storage.add(t.physical in ("INT32", "INT64"))
    kwargs = {}
    if "int96" in kinds:
        if "timestamp" in kinds:
            raise Unsupported("pyarrow's use_deprecated_int96_timestamps writes every timestamp "
                              "column as INT96: INT96 and TIMESTAMP columns cannot be mixed")
        kwargs["use_deprecated_int96_timestamps"] = True
    time_utc = {f.type.utc for _, f in all_fields(case.schema) if f.type.kind == "time"}
    if len(time_utc) > 1:
        raise Unsupported("write_time_adjusted_to_utc applies to every TIME column: TIME columns "
                          "with and without isAdjustedToUTC cannot be mixed")
    if time_utc == {True}:
        kwargs["write_time_adjusted_to_utc"] = True
    if len(decimal_storage) > 1:
        raise Unsupported("store_decimal_as_integer applies to the whole file: DECIMAL(p<=18) on "
                          "INT32/INT64 and on FIXED_LEN_BYTE_ARRAY cannot be mixed")
    if decimal_storage == {True}:
        kwargs["store_decimal_as_integer"] = True
    return kwargs


def _check_type(path: str, t: DataType) -> None:
    for pattern, kind in (("type:ENUM", "enum"), ("type:BSON", "bson"),
                          ("type:INTERVAL", "interval")):
        if t.kind == kind:
            raise Unsupported(f"column {path!r}: {CAPABILITIES.cannot_write[pattern]}")
    if t.kind == "int" and t.physical not in (None, "INT64" if t.bits == 64 else "INT32"):
        raise Unsupported(f"column {path!r}: pyarrow writes INT({t.bits}) on "
                          f"{'INT64' if t.bits == 64 else 'INT32'} only, not {t.physical}")
    if t.kind == "decimal":
        _check_decimal(path, t)
    if t.kind == "struct" and not t.fields:
        raise Unsupported(f"column {path!r}: a group without fields has no Arrow form")


def _check_decimal(path: str, t: DataType) -> None:
    """pyarrow's DECIMAL storage: INT32 for p <= 9 and INT64 for p <= 18 when
    store_decimal_as_integer, else FIXED_LEN_BYTE_ARRAY of the minimal length
    (measured for p = 1, 9, 10, 18, 19, 38, 39, 76)."""
    if t.physical == "BYTE_ARRAY":
        reason = CAPABILITIES.cannot_write["type:DECIMAL(BYTE_ARRAY)"]
        raise Unsupported(f"column {path!r}: {reason}")
    on_int = "INT32" if t.decimal_precision <= 9 else "INT64" if t.decimal_precision <= 18 else None
    if t.physical in ("INT32", "INT64") and t.physical != on_int:
        raise Unsupported(f"column {path!r}: pyarrow stores DECIMAL({t.precision}) on "
                          f"{on_int or 'FIXED_LEN_BYTE_ARRAY'}, not {t.physical}")
    if t.physical_type == "FIXED_LEN_BYTE_ARRAY" and t.byte_length != decimal_min_bytes(t.decimal_precision):
        raise Unsupported(f"column {path!r}: pyarrow writes DECIMAL({t.precision}) as "
                          f"FIXED_LEN_BYTE_ARRAY({decimal_min_bytes(t.decimal_precision)}), "
                          f"not ({t.length})")


def _encoding_kwargs(case: Case) -> dict:
    encoding = case.parquet_options.encoding
    supported = () if encoding is None else _ENCODING_PHYSICAL.get(encoding, ())
    for path, t in leaves(case.schema):
        if encoding is not None and t.physical not in supported:
            raise Unsupported(f"pyarrow cannot write {encoding} for column {path!r} "
                              f"({t.physical}): it supports {encoding} only for "
                              f"{', '.join(supported)} (measured)")
    limit = case.parquet_options.dictionary_size_limit or DICTIONARY_PAGE_LIMIT
    if encoding is None:
        return {"dictionary_pagesize_limit": limit}  # pyarrow's defaults otherwise
    if encoding == "RLE_DICTIONARY":
        return {"use_dictionary": True, "dictionary_pagesize_limit": limit}
    if encoding == "PLAIN_DICTIONARY":
        # Format version 1.0 names dictionary data pages PLAIN_DICTIONARY (docs/engine-notes.md, 'pyarrow').
        return {"use_dictionary": True, "dictionary_pagesize_limit": limit, "version": "1.0"}
    if case.parquet_options.dictionary_size_limit is not None:
        raise Unsupported("a dictionary size limit needs a dictionary encoding")
    return {"use_dictionary": False,
            "column_encoding": {path: encoding for path, _ in leaves(case.schema)}}
