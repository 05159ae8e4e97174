"""Encryption variants: what a writer adds for an encrypted column, what a reader with its key reads.

ORCv1.md, 'Encryption Variants': "Each encrypted column is written as two variants:
encrypted unmasked - for users with access to the key; unencrypted masked - for all
other users"; a variant encrypts the subtree of its root column with one local key.
The unencrypted masked variant is written where an unencrypted column would be
(data_masks.py), so a reader without keys reads it as a plain file. The encrypted one:

* 'Stripes', 'Stripe Footer': its streams (index streams first, then data streams) are
  listed in the StripeFooter's StripeEncryptionVariant with its columns' encodings, and
  lie in the space of the virtual streams ENCRYPTED_INDEX and ENCRYPTED_DATA (one each
  in a stripe, covering every variant in turn, as ORC Java writes them, measured on
  orc-core 2.3.0); each is compressed, then encrypted (stream_encryption.py) with the
  IV of its column, kind and the stripe's encryption stripe id;
* 'Stripe Information': the first stripe carries ``encrypt_stripe_id`` 1 and one
  encrypted local key per variant ("the new encrypted local key to use until we find a
  replacement"); a later stripe without an id is one past the previous;
* the stripe statistics of each of its columns are a ColumnarStripeStatistics
  ("serialized ... compressed, encrypted and stored in a stream of kind
  STRIPE_STATISTICS"), at the start of the file tail (PostScript
  ``stripe_statistics_length``), and its file statistics a FileStatistics in
  ``EncryptionVariant.file_statistics``, both with the footer's stripe id;
* the Footer's Encryption lists the masks, the keys (name, version, algorithm), the
  variants (root, key index, the encrypted local key for the tail) and the key provider.

A reader with a variant's key (:func:`open_variants`) decrypts the variant's file and
stripe statistics first: AES/CTR has no authentication, so bytes that do not decompress
and decode, or statistics for another number of columns or stripes, are
:class:`DecryptionFailed`: a wrong key, or altered bytes, before any value is read.
Altered bytes of an encrypted data stream decrypt to the same alteration of the
compressed stream, found as far as an unencrypted stream's would be.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from reference_impl.common.mapped_file import FileBytes
from reference_impl.orc.encryption.data_masks import NULLIFY, check_mask, mask_values
from reference_impl.orc.encryption.encryption_keys import (
    KeyProvider,
    MasterKey,
    local_key,
    new_encrypted_local_key,
)
from reference_impl.orc.encryption.stream_encryption import crypt, footer_stripe_id, stream_iv
from reference_impl.orc.errors import CorruptMetadata, CorruptStream, DecryptionFailed, OrcError
from reference_impl.orc.metadata.file_tail import FileTail
from reference_impl.orc.metadata.orc_proto import (
    ColumnarStripeStatistics,
    ColumnEncoding,
    ColumnStatistics,
    DataMask,
    Encryption,
    EncryptionKey,
    EncryptionVariant,
    FileStatistics,
    Metadata,
    ProtoMessage,
    Stream,
    StripeInformation,
    StripeStatistics,
    decode,
    encode,
)
from reference_impl.orc.metadata.proto_enums import KeyProviderKind, StreamKind
from reference_impl.orc.metadata.type_tree import TypeNode, row_struct
from reference_impl.orc.streams.stripe import INDEX_STREAM_KINDS, StreamBytes, StreamOutput, StripeStreams

__all__ = ["ColumnEncryption", "OpenVariant", "VariantWriter", "decrypt_stripe", "open_variants"]

FIRST_STRIPE_ID = 1  # orc_proto.proto StripeInformation.encrypt_stripe_id: "the first stripe will use 1"
KEY_PROVIDER = KeyProviderKind.HADOOP  # how encryption_keys.local_key decrypts a local key
VIRTUAL_KINDS = {True: StreamKind.ENCRYPTED_INDEX, False: StreamKind.ENCRYPTED_DATA}

Compress = Callable[[bytes], bytes]
Decompress = Callable[[bytes, int], bytes]


@dataclass(frozen=True)
class ColumnEncryption:
    """A writer's encryption settings: the master keys, which top-level column each encrypts
    (field name -> key name) and its mask (field name -> mask; nullify when not named);
    ``seed`` makes the local keys, and so the file, the same on every run."""

    keys: tuple[MasterKey, ...]
    columns: Mapping[str, str]
    masks: Mapping[str, str] = field(default_factory=dict)
    seed: int | None = None

    def __post_init__(self) -> None:
        names = {key.name for key in self.keys}
        unknown = set(self.columns.values()) - names
        if unknown:
            raise ValueError(
                f"encryption columns name keys {sorted(unknown)} that are not among {sorted(names)}"
            )
        unmasked = set(self.masks) - set(self.columns)
        if unmasked:
            raise ValueError(f"masks name columns {sorted(unmasked)} that are not encrypted")


# -- writing ------------------------------------------------------------------------------


@dataclass
class _Variant:
    node: TypeNode
    field: str
    key_index: int
    mask: str
    encrypted_key: bytes
    local_key: bytes
    stripe_statistics: list[list[ColumnStatistics]] = dataclasses.field(default_factory=list)

    @property
    def columns(self) -> list[int]:
        return [node.column_id for node in self.node.walk()]


class VariantWriter:
    """One file's encrypted variants as the writer makes them, stripe after stripe."""

    def __init__(self, root: TypeNode, settings: ColumnEncryption) -> None:
        rng = random.Random(settings.seed) if settings.seed is not None else random.SystemRandom()
        fields = dict(zip(row_struct(root).field_names, row_struct(root).children, strict=True))
        self.keys = list(settings.keys)
        self.variants: list[_Variant] = []
        for name, key_name in settings.columns.items():
            if name not in fields:
                raise ValueError(f"encryption columns name {name!r}, not a top-level field of the schema")
            mask = settings.masks.get(name, NULLIFY)
            check_mask(mask, fields[name], name)
            index = next(i for i, key in enumerate(self.keys) if key.name == key_name)
            encrypted = new_encrypted_local_key(self.keys[index].algorithm, rng)
            self.variants.append(
                _Variant(fields[name], name, index, mask, encrypted, local_key(self.keys[index], encrypted))
            )
        self.variants.sort(key=lambda variant: variant.node.column_id)

    def masked_rows(self, rows: Sequence[Mapping[str, object]]) -> list[dict[str, object]]:
        """``rows`` with each encrypted column masked: the unencrypted variant's rows."""
        masked = [dict(row) for row in rows]
        for variant in self.variants:
            for row, value in zip(
                masked, mask_values(variant.mask, [row.get(variant.field) for row in rows]), strict=True
            ):
                row[variant.field] = value
        return masked

    def stripe_variants(
        self,
        stripe_id: int,
        written: Sequence[StreamOutput],
        encodings: Sequence[ColumnEncoding],
        statistics: Sequence[ColumnStatistics],
    ) -> list[tuple[list[StreamOutput], list[ColumnEncoding]]]:
        """Each variant's encrypted streams and encodings for one stripe, from the true
        values' compressed streams ``written``, encodings and stripe statistics (by column)."""
        out = []
        for variant in self.variants:
            columns = set(variant.columns)
            streams = [
                StreamOutput(
                    s.column, s.kind, crypt(variant.local_key, stream_iv(s.column, s.kind, stripe_id), s.data)
                )
                for s in written
                if s.column in columns
            ]
            out.append((streams, [encodings[column] for column in variant.columns]))
            variant.stripe_statistics.append([statistics[column] for column in variant.columns])
        return out

    def first_stripe(self, information: StripeInformation) -> StripeInformation:
        return dataclasses.replace(
            information,
            encrypt_stripe_id=FIRST_STRIPE_ID,
            encrypted_local_keys=[variant.encrypted_key for variant in self.variants],
        )

    def tail(
        self, stripe_count: int, file_statistics: Sequence[ColumnStatistics], compress: Compress
    ) -> tuple[Encryption, bytes]:
        """The Footer's Encryption and the encrypted stripe statistics that open the file tail."""
        stripe_id = footer_stripe_id(stripe_count)
        section = bytearray()
        variants = []
        for variant in self.variants:
            streams = []
            for position, column in enumerate(variant.columns):
                message = ColumnarStripeStatistics(
                    col_stats=[stats[position] for stats in variant.stripe_statistics]
                )
                sealed = self._seal(
                    variant, column, StreamKind.STRIPE_STATISTICS, stripe_id, message, compress
                )
                streams.append(Stream(kind=StreamKind.STRIPE_STATISTICS, column=column, length=len(sealed)))
                section += sealed
            statistics = FileStatistics(column=[file_statistics[column] for column in variant.columns])
            variants.append(
                EncryptionVariant(
                    root=variant.node.column_id,
                    key=variant.key_index,
                    encrypted_key=variant.encrypted_key,
                    stripe_statistics=streams,
                    file_statistics=self._seal(
                        variant,
                        variant.node.column_id,
                        StreamKind.FILE_STATISTICS,
                        stripe_id,
                        statistics,
                        compress,
                    ),
                )
            )
        encryption = Encryption(
            mask=[DataMask(name=variant.mask, columns=[variant.node.column_id]) for variant in self.variants],
            key=[
                EncryptionKey(key_name=key.name, key_version=key.version, algorithm=key.algorithm)
                for key in self.keys
            ],
            variants=variants,
            key_provider=KEY_PROVIDER,
        )
        return encryption, bytes(section)

    @staticmethod
    def _seal(
        variant: _Variant,
        column: int,
        kind: StreamKind,
        stripe_id: int,
        message: ProtoMessage,
        compress: Compress,
    ) -> bytes:
        return crypt(variant.local_key, stream_iv(column, kind, stripe_id), compress(encode(message)))


# -- reading ------------------------------------------------------------------------------


@dataclass(frozen=True)
class OpenVariant:
    """A variant the reader has the key of: its number in the Footer's Encryption, its
    columns and its master key."""

    number: int
    root: int
    columns: tuple[int, ...]
    master: MasterKey


def open_variants(
    data: FileBytes, tail: FileTail, root: TypeNode, keys: KeyProvider, decompress: Decompress
) -> tuple[FileTail, list[OpenVariant]]:
    """The variants ``keys`` open (the first for each root, 'Encryption'), and ``tail`` with
    their decrypted file and stripe statistics in place of the masked ones."""
    encryption = tail.footer.encryption
    if encryption is None:
        return tail, []
    nodes = {node.column_id: node for node in root.walk()}
    opened: dict[int, OpenVariant] = {}
    for number, variant in enumerate(encryption.variants):
        where = f"encryption variant {number}"
        described = _described_key(encryption, variant, where, tail.footer_offset)
        column = variant.root or 0
        if column not in nodes:
            raise CorruptMetadata(
                f"{where}: root column {column} is not one of the file's", tail.footer_offset
            )
        master = _master(described, keys, where, tail.footer_offset)
        if master is not None and column not in opened:
            opened[column] = OpenVariant(
                number, column, tuple(n.column_id for n in nodes[column].walk()), master
            )
    variants = sorted(opened.values(), key=lambda v: v.number)
    if not variants:
        return tail, []
    return _decrypted_statistics(data, tail, variants, decompress), variants


def _described_key(
    encryption: Encryption, variant: EncryptionVariant, where: str, offset: int
) -> EncryptionKey:
    index = variant.key or 0
    if index >= len(encryption.key):
        raise CorruptMetadata(
            f"{where}: key {index}, but the Encryption lists {len(encryption.key)} keys", offset
        )
    return encryption.key[index]


def _master(described: EncryptionKey, keys: KeyProvider, where: str, offset: int) -> MasterKey | None:
    master = keys.get(described.key_name or "", described.key_version or 0)
    if master is not None and master.algorithm != described.algorithm:
        raise DecryptionFailed(
            f"{where}: key {described.key_name!r} version {described.key_version} is "
            f"{master.algorithm.name} here, {described.algorithm} in the file",
            offset,
        )
    return master


def _decrypted_statistics(
    data: FileBytes, tail: FileTail, variants: Sequence[OpenVariant], decompress: Decompress
) -> FileTail:
    footer, encryption = tail.footer, tail.footer.encryption
    assert encryption is not None  # open_variants returns before this otherwise
    stripe_count = len(footer.stripes)
    stripe_id = footer_stripe_id(stripe_count)
    file_stats = list(footer.statistics)
    stripe_stats = [list(s.col_stats) for s in (tail.metadata.stripe_stats if tail.metadata else [])]
    stream_starts = _statistics_stream_starts(encryption, tail.encrypted_statistics_offset)
    for variant in variants:
        described = encryption.variants[variant.number]
        where = f"encryption variant {variant.number} (root column {variant.root})"
        key = local_key(variant.master, _local_key_bytes(described.encrypted_key, where, tail.footer_offset))
        opened = _unseal(
            FileStatistics,
            key,
            described.file_statistics or b"",
            variant.root,
            StreamKind.FILE_STATISTICS,
            stripe_id,
            decompress,
            f"{where}, file statistics",
            tail.footer_offset,
        )
        _expect(len(opened.column), len(variant.columns), f"{where}: the file statistics", tail.footer_offset)
        for column, stats in zip(variant.columns, opened.column, strict=True):
            if column < len(file_stats):
                file_stats[column] = stats
        for stream in described.stripe_statistics:
            column, start = stream.column or 0, stream_starts[(variant.number, stream.column or 0)]
            raw = data[start : start + (stream.length or 0)]
            columnar = _unseal(
                ColumnarStripeStatistics,
                key,
                raw,
                column,
                StreamKind.STRIPE_STATISTICS,
                stripe_id,
                decompress,
                f"{where}, stripe statistics of column {column}",
                start,
            )
            _expect(
                len(columnar.col_stats), stripe_count, f"{where}: column {column}'s stripe statistics", start
            )
            for stats, entry in zip(stripe_stats, columnar.col_stats, strict=False):
                if column < len(stats):
                    stats[column] = entry
    metadata = (
        Metadata(stripe_stats=[StripeStatistics(col_stats=s) for s in stripe_stats])
        if tail.metadata
        else None
    )
    return dataclasses.replace(
        tail, footer=dataclasses.replace(footer, statistics=file_stats), metadata=metadata
    )


def _statistics_stream_starts(encryption: Encryption, start: int) -> dict[tuple[int, int], int]:
    """Where each variant's STRIPE_STATISTICS stream starts: back to back from ``start``, in
    variant order ('Encryption Variants')."""
    starts = {}
    for number, variant in enumerate(encryption.variants):
        for stream in variant.stripe_statistics:
            starts[(number, stream.column or 0)] = start
            start += stream.length or 0
    return starts


def _local_key_bytes(encrypted: bytes | None, where: str, offset: int) -> bytes:
    if not encrypted:
        raise CorruptMetadata(f"{where}: no encrypted local key", offset)
    return encrypted


def _unseal(
    cls: type[ProtoMessage],
    key: bytes,
    sealed: bytes,
    column: int,
    kind: StreamKind,
    stripe_id: int,
    decompress: Decompress,
    where: str,
    offset: int,
):  # -> the decoded message
    try:
        return decode(cls, decompress(crypt(key, stream_iv(column, kind, stripe_id), sealed), offset))
    except OrcError as exc:
        raise DecryptionFailed(
            f"{where}: the decrypted bytes do not decode ({type(exc).__name__}: "
            f"{exc.message}): a wrong key, or altered bytes",
            offset,
        ) from None


def _expect(found: int, expected: int, what: str, offset: int) -> None:
    if found != expected:
        raise DecryptionFailed(
            f"{what} decrypt to {found} entries, not {expected}: a wrong key, or altered bytes", offset
        )


def stripe_keys(tail: FileTail, variants: Sequence[OpenVariant]) -> list[tuple[int, dict[int, bytes]]]:
    """Each stripe's encryption stripe id and local key by variant number ('Stripe Information');
    without ``variants``, the stripes' keys are checked and none is kept (a file of many small
    stripes would hold one entry a stripe for nothing)."""
    keys: dict[int, bytes] = {}
    previous = FIRST_STRIPE_ID - 1
    out = []
    for index, information in enumerate(tail.footer.stripes):
        stripe_id = information.encrypt_stripe_id or previous + 1
        previous = stripe_id
        if information.encrypted_local_keys:
            listed = len(information.encrypted_local_keys)
            variant_count = len(tail.footer.encryption.variants) if tail.footer.encryption else 0
            _expect_keys(listed, variant_count, index, information.offset or 0)
            keys = {
                v.number: local_key(v.master, information.encrypted_local_keys[v.number]) for v in variants
            }
        if variants and not keys:
            raise CorruptMetadata(
                f"stripe {index}: no encrypted local keys, and no stripe before it gives them",
                information.offset or 0,
            )
        if variants:
            out.append((stripe_id, keys))
    return out


def _expect_keys(listed: int, variants: int, index: int, offset: int) -> None:
    if listed != variants:
        raise CorruptMetadata(
            f"stripe {index}: {listed} encrypted local keys for {variants} encryption variants", offset
        )


def decrypt_stripe(
    data: FileBytes,
    stripe: StripeStreams,
    variants: Sequence[OpenVariant],
    stripe_id: int,
    keys: Mapping[int, bytes],
    decompress: Decompress,
    compressed: bool,
) -> None:
    """Replace the masked streams and encodings of each open variant's columns in ``stripe``
    by the variant's decrypted ones."""
    listed = stripe.footer.encryption
    cursors = {in_index: _virtual_start(stripe, kind) for in_index, kind in VIRTUAL_KINDS.items()}
    ends = {
        in_index: start + _virtual_length(stripe, VIRTUAL_KINDS[in_index])
        for in_index, start in cursors.items()
    }
    wanted = {variant.number: variant for variant in variants}
    for number, streams_of in enumerate(listed):
        where = f"stripe {stripe.index}, encryption variant {number}"
        found: dict[tuple[int, int], StreamBytes] = {}
        for stream in streams_of.streams:
            kind, column, length = stream.kind or 0, stream.column or 0, stream.length or 0
            in_index = kind in INDEX_STREAM_KINDS
            start = cursors[in_index]
            if start + length > ends[in_index]:
                raise CorruptStream(
                    f"{where}: stream {StreamKind(kind).name} of column {column} ends at "
                    f"{start + length}, past its {VIRTUAL_KINDS[in_index].name} space ending at "
                    f"{ends[in_index]}",
                    start,
                )
            cursors[in_index] = start + length
            if number in wanted:
                plain = crypt(keys[number], stream_iv(column, kind, stripe_id), data[start : start + length])
                found[(column, kind)] = StreamBytes(column, kind, start, decompress(plain, start), compressed)
        if number in wanted:
            _expect(len(streams_of.encoding), len(wanted[number].columns), f"{where}: the encodings", 0)
            stripe.replace_columns(wanted[number].columns, found, list(streams_of.encoding))


def _virtual_start(stripe: StripeStreams, kind: StreamKind) -> int:
    found = stripe.virtual_stream(kind)
    return found.offset if found is not None else 0


def _virtual_length(stripe: StripeStreams, kind: StreamKind) -> int:
    found = stripe.virtual_stream(kind)
    return len(found.whole()) if found is not None else 0
