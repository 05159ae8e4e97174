"""What a writer and a reader are given to encrypt and decrypt a file.

Spec: Encryption.md:

* '3 Technical Approach': "each column and the footer can be encrypted with the
  same key, with a different key, or not encrypted at all"; the footer can be
  "encrypted or left as a plaintext" (then signed);
* '4.2': the algorithms AES_GCM_V1 and AES_GCM_CTR_V1;
* '4.3 Key metadata': "a file writer can generate and pass an arbitrary
  key_metadata byte array that will be stored in the file. This field is made
  available to file readers to enable recovery of the key";
* '4.4.1 AAD prefix': optional, stored in the file unless the writer asks not
  to, in which case readers must supply it.

Column keys are named by the leaf's dotted path (``"a.list.element"``), the
same strings as the ``WriterOptions`` per-column maps. The key layouts:

* ``column_keys`` empty: uniform encryption, every column with the footer key
  (``EncryptionWithFooterKey``);
* ``column_keys`` not empty: the named columns with their own keys
  (``EncryptionWithColumnKey``, with ``column_key_metadata`` if given) and every
  other column left in plaintext, as parquet-java does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from reference_impl.parquet.encryption.ciphers import check_key, key_problem
from reference_impl.parquet.encryption.nonces import Randomness, SystemRandomness
from reference_impl.parquet.errors import MissingKey

__all__ = ["ALGORITHMS", "FileDecryptionProperties", "FileEncryptionProperties", "KeyRetriever"]

ALGORITHMS = ("AES_GCM_V1", "AES_GCM_CTR_V1")

# Called with a key_metadata (None when the file stores none); returns the key or None.
KeyRetriever = Callable[[bytes | None], bytes | None]


@dataclass(frozen=True)
class FileEncryptionProperties:
    """How :func:`~reference_impl.parquet.writer.write_table` encrypts a file (``WriterOptions.encryption``).

    ``plaintext_footer``: keep the footer readable by legacy readers and sign it
    ('5.3'); otherwise encrypt it (magic "PARE"). ``aad_prefix``: the file's
    identity ('4.4.1'), stored in the file unless ``store_aad_prefix`` is false.
    ``randomness``: where nonces and the file id come from (``nonces``; the
    deterministic source is for tests only).
    """

    algorithm: str
    footer_key: bytes
    footer_key_metadata: bytes | None = None
    column_keys: Mapping[str, bytes] = field(default_factory=dict)
    column_key_metadata: Mapping[str, bytes] = field(default_factory=dict)
    plaintext_footer: bool = False
    aad_prefix: bytes | None = None
    store_aad_prefix: bool = True
    randomness: Randomness = field(default_factory=SystemRandomness)

    def __post_init__(self) -> None:
        if self.algorithm not in ALGORITHMS:
            raise ValueError(f"algorithm must be one of {ALGORITHMS}, got {self.algorithm!r}")
        set_ = object.__setattr__
        set_(self, "footer_key", check_key(self.footer_key, "footer_key"))
        set_(
            self,
            "column_keys",
            {path: check_key(key, f"column_keys[{path!r}]") for path, key in dict(self.column_keys).items()},
        )
        set_(self, "column_key_metadata", dict(self.column_key_metadata))
        without_key = sorted(set(self.column_key_metadata) - set(self.column_keys))
        if without_key:
            raise ValueError(f"column_key_metadata names columns without a column key: {without_key}")
        for name in ("footer_key_metadata", "aad_prefix"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, bytes | bytearray):
                raise ValueError(f"{name} must be bytes or None, got {type(value).__name__}")
        for path, metadata in self.column_key_metadata.items():
            if not isinstance(metadata, bytes | bytearray):
                raise ValueError(
                    f"column_key_metadata[{path!r}] must be bytes, got {type(metadata).__name__}"
                )
        if not self.store_aad_prefix and self.aad_prefix is None:
            raise ValueError("store_aad_prefix=False needs an aad_prefix (there is nothing to withhold)")

    @property
    def uniform(self) -> bool:
        """Every column encrypted with the footer key."""
        return not self.column_keys


@dataclass(frozen=True)
class FileDecryptionProperties:
    """What :func:`~reference_impl.parquet.reader.read_parquet` may use to decrypt a file.

    A key is taken from ``footer_key`` / ``column_keys`` (by dotted path) if
    given, else asked of ``key_retriever`` with the key_metadata stored in the
    file. ``aad_prefix``: the file identity the caller expects; needed for files
    written without storing it, and compared with the stored one otherwise.
    ``aad_prefix_supplier``: asked for the prefix, while reading, only when the
    file says ``supply_aad_prefix`` and no ``aad_prefix`` is given (a caller
    whose convention names the file's identity need not read the footer first).
    """

    footer_key: bytes | None = None
    column_keys: Mapping[str, bytes] = field(default_factory=dict)
    aad_prefix: bytes | None = None
    key_retriever: KeyRetriever | None = None
    aad_prefix_supplier: Callable[[], bytes] | None = None

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        if self.footer_key is not None:
            set_(self, "footer_key", check_key(self.footer_key, "footer_key"))
        set_(
            self,
            "column_keys",
            {path: check_key(key, f"column_keys[{path!r}]") for path, key in dict(self.column_keys).items()},
        )
        if self.aad_prefix is not None and not isinstance(self.aad_prefix, bytes | bytearray):
            raise ValueError(f"aad_prefix must be bytes or None, got {type(self.aad_prefix).__name__}")

    def footer_key_for(self, key_metadata: bytes | None) -> bytes | None:
        """The footer key, given or retrieved, or None."""
        if self.footer_key is not None:
            return self.footer_key
        return self._retrieve(key_metadata, "the footer key")

    def column_key_for(self, dotted_path: str, key_metadata: bytes | None) -> bytes | None:
        """The key of one column, given or retrieved, or None."""
        if dotted_path in self.column_keys:
            return self.column_keys[dotted_path]
        return self._retrieve(key_metadata, f"the key of column {dotted_path}")

    def _retrieve(self, key_metadata: bytes | None, what: str) -> bytes | None:
        """The key ``key_retriever`` finds for ``key_metadata``, or None.

        What it returns comes from the file's key_metadata, not from the caller:
        a value that is no AES key means the key is not available (MissingKey).
        """
        if self.key_retriever is None:
            return None
        key = self.key_retriever(key_metadata)
        if key is None:
            return None
        problem = key_problem(key, f"{what} (from key_retriever)")
        if problem is not None:
            raise MissingKey(problem)
        return bytes(key)
