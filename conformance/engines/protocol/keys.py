"""The keys a `read` request hands an adapter for an encrypted Parquet or ORC file, and
those a `write` request hands it for an encrypted case.

The suite's encrypted cases use test keys an outside implementation cannot know
(explicit keys named in key_metadata, or data keys wrapped by the test KMS,
`conformance.kms.case_keys`). The harness resolves them itself and passes them
explicitly, as Encryption.md, '4.3 Key metadata' allows ("keys ... passed explicitly
to Parquet readers for the file footer and each encrypted column"): the footer key,
each column key by dotted path, and the AAD prefix when the file asks the reader to
supply it (the suite's convention: the file's name without its suffix).

A write gets the same, resolved for the file it writes: the data keys and the
``key_metadata`` to store with each (the explicit key's name, or the key material of a
key the test KMS wrapped, `conformance.kms.case_keys`), the AAD prefix, and the test
KMS's master keys for an implementation that wraps data keys with its own key tools
(as parquet-java's PropertiesDrivenCryptoFactory does). Either way the file opens with
the suite's keys.

ORC names each master key in the file by name and version (ORCv1.md, 'Encryption Keys'):
a write of an encrypted ORC case and a read of an encrypted ORC file get the suite's
TEST-ONLY master keys themselves (`conformance/kms/orc_keys.py`; `orc_master_keys`: name,
version, algorithm, key), the write those its columns name, the read all of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from conformance.cases import Case
from conformance.formats import ORC, file_format
from conformance.kms.case_keys import case_key_retriever
from conformance.kms.file_keys import file_encryption, own_column_key_metadata
from conformance.kms.in_memory import TEST_MASTER_KEYS
from conformance.kms.orc_keys import ORC_TEST_KEYS
from reference_impl.orc.encryption.encryption_keys import MasterKey
from reference_impl.orc.errors import OrcError
from reference_impl.orc.metadata.file_tail import read_file_tail
from reference_impl.orc.streams.compression import decompress_stream

ORC_MASTER_KEYS = "orc_master_keys"


def read_keys(path: Path, fmt: str) -> dict | None:
    """The `keys` of a read of `path`, a file of format `fmt`, or None for a plaintext file
    (or a format whose files carry no keys)."""
    if fmt == ORC:
        return orc_read_keys(path)
    return parquet_read_keys(path) if file_format(fmt).encryption_keys else None


def parquet_read_keys(path: Path) -> dict | None:
    """The `keys` of a read of the Parquet file `path`, or None for a plaintext file."""
    encryption = file_encryption(path)
    if encryption is None:
        return None
    retrieve = case_key_retriever()
    keys: dict = {}
    footer_key = retrieve(encryption.footer_key_metadata)
    if footer_key is not None:
        keys["footer_key"] = footer_key.hex()
    column_metadata = own_column_key_metadata(path, encryption)
    column_keys = {column: retrieve(metadata) for column, metadata in column_metadata.items()}
    keys["column_keys"] = {column: key.hex() for column, key in column_keys.items() if key is not None}
    if encryption.supply_aad_prefix:
        keys["aad_prefix"] = Path(path).stem
    return keys


def write_keys(case: Case, path: Path) -> dict | None:
    """The `keys` of a write of `case` at `path`, or None for a plaintext case."""
    if case.format == ORC:
        return orc_write_keys(case)
    if not file_format(case.format).encryption_keys:
        return None
    from conformance.engines.parquet.reference import encryption_properties

    options = case.parquet_options.encryption
    if options is None:
        return None
    properties = encryption_properties(options, Path(path))
    keys = {"footer_key": properties.footer_key.hex(),
            "footer_key_metadata": _text(properties.footer_key_metadata),
            "column_keys": {column: key.hex() for column, key in properties.column_keys.items()},
            "column_key_metadata": {column: _text(metadata) for column, metadata
                                    in properties.column_key_metadata.items()},
            "kms_master_keys": {key_id: key.hex() for key_id, key in TEST_MASTER_KEYS.items()}}
    if properties.aad_prefix is not None:
        keys["aad_prefix"] = properties.aad_prefix.decode("utf-8")
    return keys


def _text(metadata: bytes | None) -> str:
    """key_metadata as the protocol sends it: UTF-8 text (a key name or key material JSON)."""
    return (metadata or b"").decode("utf-8")


def orc_read_keys(path: Path) -> dict | None:
    """The `keys` of a read of the ORC file `path`: every test key for a file whose Footer
    has an Encryption; None for a plaintext file, or one whose tail does not parse (the
    reader's verdict on it is the cell's)."""
    try:
        encrypted = read_file_tail(Path(path).read_bytes(), decompress_stream).footer.encryption is not None
    except (OrcError, OSError):
        return None
    return _orc_keys(ORC_TEST_KEYS.values()) if encrypted else None


def orc_write_keys(case: Case) -> dict | None:
    """The `keys` of a write of the ORC `case`: the test keys its encrypted columns name."""
    names = sorted(set(case.orc_options.encrypt.values()))
    return _orc_keys(ORC_TEST_KEYS[name] for name in names) if names else None


def _orc_keys(keys: Iterable[MasterKey]) -> dict:
    return {ORC_MASTER_KEYS: [{"name": k.name, "version": k.version, "algorithm": k.algorithm.name,
                               "key": k.key.hex()} for k in keys]}
