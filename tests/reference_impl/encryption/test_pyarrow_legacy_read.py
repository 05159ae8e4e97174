"""pyarrow, given no keys, reads the plaintext columns of a reference file with a plaintext footer.

'3.7.3', 5.3: the plaintext footer mode "allows legacy Parquet versions ... to
access unencrypted columns in encrypted files". pyarrow's key-based decryption
goes through its KMS tools (``conformance/kms``); this check needs no key.
"""

from __future__ import annotations

import io

import pytest

from tests.reference_impl.encryption.encrypted_files import ROWS, encryption, write

pq = pytest.importorskip("pyarrow.parquet")


@pytest.mark.parametrize("algorithm", ["AES_GCM_V1", "AES_GCM_CTR_V1"])
def test_pyarrow_reads_the_plaintext_columns_without_keys(algorithm: str) -> None:
    raw = write(encryption(algorithm, layout="some plaintext", plaintext_footer=True))
    table = pq.read_table(io.BytesIO(raw), columns=["id", "twin"])
    assert table.column("id").to_pylist() == [row["id"] for row in ROWS]
    assert table.column("twin").to_pylist() == [row["twin"] for row in ROWS]
    with pytest.raises(OSError, match="decrypt"):
        pq.read_table(io.BytesIO(raw), columns=["name"])
