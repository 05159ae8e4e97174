"""The keys a `read` request hands an adapter for an encrypted Parquet file.

The suite's encrypted cases use test keys an outside implementation cannot know
(explicit keys named in key_metadata, or data keys wrapped by the test KMS,
`conformance.kms.case_keys`). The harness resolves them itself and passes them
explicitly, as Encryption.md, '4.3 Key metadata' allows ("keys ... passed explicitly
to Parquet readers for the file footer and each encrypted column"): the footer key,
each column key by dotted path, and the AAD prefix when the file asks the reader to
supply it (the suite's convention: the file's name without its suffix).
"""

from __future__ import annotations

from pathlib import Path

from conformance.engines.base import column_key_metadata, file_encryption
from conformance.kms.case_keys import case_key_retriever


def read_keys(path: Path) -> dict | None:
    """The `keys` of a read of `path`, or None for a plaintext file (or an ORC file)."""
    encryption = file_encryption(path)
    if encryption is None:
        return None
    retrieve = case_key_retriever()
    keys: dict = {}
    footer_key = retrieve(encryption.footer_key_metadata)
    if footer_key is not None:
        keys["footer_key"] = footer_key.hex()
    column_metadata = encryption.column_key_metadata or _hidden_column_metadata(path)
    column_keys = {column: retrieve(metadata) for column, metadata in column_metadata.items()}
    keys["column_keys"] = {column: key.hex() for column, key in column_keys.items() if key is not None}
    if encryption.supply_aad_prefix:
        keys["aad_prefix"] = Path(path).stem
    return keys


def _hidden_column_metadata(path: Path) -> dict[str, bytes | None]:
    """The column key_metadata an encrypted footer hides, read with the footer key; none
    when the footer cannot be read (a broken file: its read says what is wrong)."""
    from conformance.engines.parquet.reference import decryption_properties
    from reference_impl.parquet.errors import ParquetError
    from reference_impl.parquet.reader import read_footer

    try:
        metadata, _ = read_footer(Path(path).read_bytes(), decryption=decryption_properties(path))
    except ParquetError:
        return {}
    return column_key_metadata(metadata)
