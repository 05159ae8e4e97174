"""Structure-aware Parquet mutations: one Thrift integer, the footer length, one
encrypted module.

Each mutator aims at a structure of the specification, found by ``parquet_layout``:

==========================  ===========================================================
kind                        what changes
==========================  ===========================================================
parquet.footer.varint       one integer of the FileMetaData (README.md, 'Metadata'), or of the
                            FileCryptoMetaData of an encrypted footer (Encryption.md,
                            '5.4 Encrypted footer mode'), re-encoded at any width; the
                            footer length follows
parquet.footer.length       the 4-byte footer length ('File format')
parquet.page_header         one integer of a plaintext PageHeader (sizes, num_values,
                            encodings, level lengths, ...), re-encoded at its own
                            width so the page body stays where it was
parquet.encrypted_module    one module of an encrypted column or footer (Encryption.md,
                            '5.1 Encrypted module serialization'): its length, a
                            nonce, ciphertext or tag byte
bytes.flip, bytes.truncate  ``mutations_bytes``
==========================  ===========================================================

Footer, footer-length and page-header mutations change metadata only; a module
mutation does when the module is a page header (or the footer).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from reference_impl.parquet.encryption.ciphers import MODULE_LENGTH, NONCE_LENGTH, TAG_LENGTH
from reference_impl.parquet.encryption.properties import FileDecryptionProperties
from reference_impl.parquet.metadata.file_layout import FOOTER_LENGTH
from reference_impl.parquet.metadata.parquet_thrift import FileCryptoMetaData, FileMetaData, PageHeader

from . import parquet_layout
from .mutation import Edit, Mutator, interesting
from .mutations_bytes import flip, truncate
from .parquet_layout import ParquetLayout
from .thrift_fields import integer_fields, largest_padded, padded, varint

UINT32_LIMIT = 1 << 32
BITS_PER_BYTE = 8
MODULE_PARTS = ("length", "nonce", "ciphertext", "tag")

# A layout mutator's answer: (the new file, what changed, metadata only, the structure
# changed), or None.
LayoutMutator = Callable[[ParquetLayout, random.Random], tuple[bytes, str, bool, str] | None]


def _splice(raw: bytes, start: int, end: int, replacement: bytes) -> bytes:
    return raw[:start] + replacement + raw[end:]


def _footer_varint(layout: ParquetLayout, rng: random.Random):
    raw = layout.raw
    struct_class = FileCryptoMetaData if layout.encrypted_footer else FileMetaData
    end = layout.crypto_metadata_end if layout.encrypted_footer else layout.length_at
    fields = integer_fields(raw, layout.footer_start, end)
    if not fields:
        return None
    field = rng.choice(fields)
    new = interesting(field.value, rng)
    if not field.fits(new):
        return None
    encoded = varint(new, field.bits)
    moved = len(encoded) - (field.end - field.start)
    (length,) = FOOTER_LENGTH.unpack_from(raw, layout.length_at)
    out = _splice(raw, field.start, field.end, encoded)
    at = layout.length_at + moved
    out = _splice(out, at, at + FOOTER_LENGTH.size, FOOTER_LENGTH.pack((length + moved) % UINT32_LIMIT))
    target = f"{struct_class.__name__}.{field.describe(struct_class)}"
    return out, f"{target} {field.value} -> {new}", True, target


def _footer_length(layout: ParquetLayout, rng: random.Random):
    raw = layout.raw
    (old,) = FOOTER_LENGTH.unpack_from(raw, layout.length_at)
    new = interesting(old, rng) % UINT32_LIMIT
    out = _splice(raw, layout.length_at, layout.length_at + FOOTER_LENGTH.size, FOOTER_LENGTH.pack(new))
    return out, f"footer length {old} -> {new}", True, "footer length"


def _page_header(layout: ParquetLayout, rng: random.Random):
    if not layout.pages:
        return None
    page = rng.choice(layout.pages)
    fields = integer_fields(layout.raw, page.header_start, page.body_start)
    if not fields:
        return None
    field = rng.choice(fields)
    new = interesting(field.value, rng)
    width = field.end - field.start
    encoded = padded(new, field.bits, width) if field.fits(new) else None
    if encoded is None:  # too wide for its bytes: the widest value they hold instead
        new = largest_padded(field)
        encoded = padded(new, field.bits, width)
    if new == field.value or encoded is None:
        return None
    out = _splice(layout.raw, field.start, field.end, encoded)
    target = f"PageHeader.{field.describe(PageHeader)}"
    return out, f"{target} at {page.header_start}: {field.value} -> {new}", True, target


def _encrypted_module(layout: ParquetLayout, rng: random.Random):
    if not layout.modules:
        return None
    module = rng.choice(layout.modules)
    raw = layout.raw
    part = rng.choice(MODULE_PARTS)
    body = module.start + MODULE_LENGTH.size
    if part == "length":
        (old,) = MODULE_LENGTH.unpack_from(raw, module.start)
        new = interesting(old, rng) % UINT32_LIMIT
        out = _splice(raw, module.start, body, MODULE_LENGTH.pack(new))
        said = f"length {old} -> {new}"
    else:
        span = {"nonce": (body, body + NONCE_LENGTH), "tag": (module.end - TAG_LENGTH, module.end),
                "ciphertext": (body + NONCE_LENGTH, module.end - TAG_LENGTH)}[part]
        if span[1] <= span[0]:
            return None
        at = rng.randrange(*span)
        out = _splice(raw, at, at + 1, bytes([raw[at] ^ (1 << rng.randrange(BITS_PER_BYTE))]))
        said = f"{part} byte at {at} flipped"
    what = "header" if module.is_header else "page"
    return out, f"{what} module at {module.start}: {said}", module.is_header, f"{what} module {part}"


def mutators(decryption: FileDecryptionProperties | None) -> dict[str, Mutator]:
    """The Parquet mutators of a seed read with ``decryption`` (its keys, or None)."""

    def structured(mutate: LayoutMutator) -> Mutator:
        def mutator(data: bytes, rng: random.Random) -> Edit | None:
            layout = parquet_layout.parse(data, decryption)
            made = None if layout is None else mutate(layout, rng)
            return None if made is None else Edit(*made)
        return mutator

    def data_regions(data: bytes) -> list[tuple[int, int]] | None:
        layout = parquet_layout.parse(data, decryption)
        return None if layout is None else layout.data_regions()

    return {
        "parquet.footer.varint": structured(_footer_varint),
        "parquet.footer.length": structured(_footer_length),
        "parquet.page_header": structured(_page_header),
        "parquet.encrypted_module": structured(_encrypted_module),
        "bytes.flip": flip(data_regions),
        "bytes.truncate": truncate,
    }
