"""The Bloom filter index: one filter per row group, written and read per stripe.

ORCv1.md, 'Bloom Filter Index' (orc_proto.proto messages BloomFilter and
BloomFilterIndex, Stream.Kind BLOOM_FILTER = 7 and BLOOM_FILTER_UTF8 = 8): for each chosen
column a stream of one BloomFilter per row group ("default to 10,000 rows": the row index
stride), the filter itself in bloom_filter.py. "The original encoding (pre ORC-101)"
keeps the bitset as "a repeating sequence of longs" in ``bitset`` (BLOOM_FILTER);
"after ORC-101" it is bytes in ``utf8bitset`` (BLOOM_FILTER_UTF8). The streams lie in
the stripe's index area, "interlaced with row group indexes": each column's ROW_INDEX,
then its Bloom filter streams. orc_proto.proto, ColumnEncoding.bloom_encoding 1 is
"ORC-135 (utc for timestamps)", the hashing here and of every writer measured.

Read checks (:class:`CorruptStream`, naming stripe, column, stream and offset): a
filter has its stream kind's bitset field and not the other, a whole number of 64-bit
words, at least one hash function and no more than it has bits.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from reference_impl.common.mapped_file import FileBytes
from reference_impl.orc.bloom_filter import BloomFilterBits, value_hash
from reference_impl.orc.columns.registry import ColumnStreamsOut
from reference_impl.orc.errors import CorruptStream
from reference_impl.orc.lies import false_bloom_filter
from reference_impl.orc.metadata.file_tail import FileTail, read_file_tail
from reference_impl.orc.metadata.orc_proto import BloomFilter, BloomFilterIndex, decode, encode
from reference_impl.orc.metadata.proto_enums import StreamKind
from reference_impl.orc.metadata.type_tree import TypeNode
from reference_impl.orc.row_group_index import RowGroup
from reference_impl.orc.streams.compression import decompress_stream
from reference_impl.orc.streams.stripe import StreamOutput, read_stripe
from reference_impl.orc.streams.stripe_layout import (
    Decompress,
    StreamCodec,
    StreamPlace,
    read_index_streams,
    stream_places,
)

__all__ = ["BLOOM_FILTER_KINDS", "UTC_BLOOM_ENCODING", "ColumnBloomFilters", "bloom_filter_streams",
           "read_bloom_filters", "read_stripe_bloom_filters", "stripe_bloom_filters"]

BLOOM_FILTER_KINDS = (StreamKind.BLOOM_FILTER, StreamKind.BLOOM_FILTER_UTF8)
UTC_BLOOM_ENCODING = 1  # ColumnEncoding.bloom_encoding: "1 = ORC-135 (utc for timestamps)"
BYTES_PER_WORD = 8


def _message(bits: BloomFilterBits, kind: StreamKind) -> BloomFilter:
    if kind == StreamKind.BLOOM_FILTER:
        return BloomFilter(num_hash_functions=bits.num_hash_functions, bitset=bits.words())
    return BloomFilter(num_hash_functions=bits.num_hash_functions, utf8bitset=bytes(bits.bits))


def bloom_filter_streams(node: TypeNode, out: ColumnStreamsOut, groups: list[RowGroup], expected_entries: int,
                         fpp: float, kinds: tuple[StreamKind, ...], lie: bool = False) -> list[StreamOutput]:
    """The Bloom filter streams of ``kinds`` for column ``node`` of the stripe ``out`` wrote,
    one filter per row group of ``groups``, each sized for ``expected_entries`` values
    (with ``lie``, TEST-ONLY: no bit set, lies.py)."""
    filters = []
    values = out.values[node.column_id]
    for group in groups:
        bits = BloomFilterBits.empty(expected_entries, fpp)
        bits.add_all(value_hash(node, value) for value in values[group.value_start:group.value_end])
        filters.append(false_bloom_filter(bits) if lie else bits)
    return [StreamOutput(node.column_id, kind,
                         encode(BloomFilterIndex(bloom_filter=[_message(bits, kind) for bits in filters])))
            for kind in kinds]


@dataclass(frozen=True)
class ColumnBloomFilters:
    """One column's Bloom filter stream in one stripe: one filter per row group."""

    stripe: int
    column: int
    kind: StreamKind
    offset: int  # the stream's file offset
    filters: list[BloomFilterBits]


def read_bloom_filters(source: bytes | str | os.PathLike[str]) -> list[dict[tuple[int, StreamKind],
                                                                            ColumnBloomFilters]]:
    """Per stripe, by (column id, stream kind), the Bloom filters of the file ``source``
    (its bytes or a path). The stripe is read and checked as the reader reads it."""
    data = source if isinstance(source, bytes) else Path(source).read_bytes()
    tail = read_file_tail(data, decompress_stream)
    codec = StreamCodec.of(tail)
    return [read_stripe_bloom_filters(data, tail, number, codec.decompress, codec.compressed)
            for number in range(len(tail.footer.stripes))]


def read_stripe_bloom_filters(data: FileBytes, tail: FileTail, number: int, decompress: Decompress,
                              compressed: bool) -> dict[tuple[int, StreamKind], ColumnBloomFilters]:
    """:func:`read_bloom_filters` of stripe ``number`` alone."""
    information = tail.footer.stripes[number]
    stripe = read_stripe(data, information, number, len(tail.footer.types), tail.metadata_offset, decompress,
                         compressed)
    return stripe_bloom_filters(data, stream_places(information, stripe.footer, number), number, decompress)


def stripe_bloom_filters(data: FileBytes, places: list[StreamPlace], number: int,
                         decompress: Decompress) -> dict[tuple[int, StreamKind], ColumnBloomFilters]:
    """By (column id, stream kind), the Bloom filters of stripe ``number``, whose streams
    lie at ``places``, read without the rest of the stripe."""
    found = {}
    for kind in BLOOM_FILTER_KINDS:
        for column, (place, stream) in read_index_streams(data, places, kind, decompress).items():
            where = f"stripe {number}, {kind.name} of column {column}"
            index = decode(BloomFilterIndex, stream, base_offset=place.offset)
            filters = [_filter_bits(message, kind, f"{where}, row group {group}", place.offset)
                       for group, message in enumerate(index.bloom_filter)]
            found[column, kind] = ColumnBloomFilters(number, column, kind, place.offset, filters)
    return found


def _filter_bits(message: BloomFilter, kind: StreamKind, where: str, offset: int) -> BloomFilterBits:
    own, other = ((message.bitset, message.utf8bitset) if kind == StreamKind.BLOOM_FILTER
                  else (message.utf8bitset, message.bitset))
    if not own or other:
        field_name = "bitset" if kind == StreamKind.BLOOM_FILTER else "utf8bitset"
        raise CorruptStream(f"{where}: a {kind.name} filter keeps its bits in {field_name}, and only there",
                            offset)
    bits = (BloomFilterBits.from_words(message.num_hash_functions or 0, message.bitset)
            if kind == StreamKind.BLOOM_FILTER else BloomFilterBits(message.num_hash_functions or 0,
                                                                    bytearray(message.utf8bitset or b"")))
    if len(bits.bits) % BYTES_PER_WORD:
        raise CorruptStream(f"{where}: {len(bits.bits)} bytes of bits, not whole 64-bit words", offset)
    if not 1 <= bits.num_hash_functions <= bits.num_bits:
        raise CorruptStream(f"{where}: {bits.num_hash_functions} hash functions for {bits.num_bits} bits",
                            offset)
    return bits

