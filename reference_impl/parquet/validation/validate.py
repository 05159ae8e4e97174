"""Is the metadata of a Parquet file true to its data?

:func:`validate` reads every column chunk of any file (from any writer) with the
reference reader and compares each structure that summarises the data with
the data itself: chunk and page statistics, the page index, size statistics,
Bloom filters and page CRCs. Each item that does not hold is a
:class:`Finding` naming the column, the row group and, for per-page items, the
data page ordinal within the chunk (dictionary and index pages are not
counted).

Severities (``SEVERITIES``):

* ``untrue``: the metadata contradicts the data: a reader that trusts it skips
  rows it should return, or rejects good data (a CRC, an unreadable index);
* ``nonconforming``: it breaks a rule of the spec without being untrue (a NaN
  bound, which readers are told to ignore; +0.0 as a minimum; bounds for a
  column whose order is undefined; deprecated min/max on a column that is not
  signed).

Kinds, with their spec sources (shared/spec/parquet.thrift unless named; the
fields the seed copy lacks are quoted from the current apache/parquet-format
parquet.thrift, as ``metadata.py`` follows it). ``<s>`` is one of
``statistics`` (``ColumnMetaData.statistics``) and ``page_statistics``
(``DataPageHeader.statistics`` / ``DataPageHeaderV2.statistics``, per page),
which are checked alike:

* ``<s>.min_value`` / ``<s>.max_value`` (untrue): ``struct Statistics``, "Min
  and max values for the column, determined by its ColumnOrder"; they may be
  "more compact values that do not exist" but must still be bounds: the min
  ``<=`` every non-null value under the column's order (``sort_order.sort_key``),
  the max ``>=``. Also reported when a bound cannot be decoded (wrong size).
* ``<s>.exactness`` (untrue): ``is_min_value_exact`` / ``is_max_value_exact``
  True, but the (valid) bound is not the actual minimum / maximum.
* ``<s>.min`` / ``<s>.max`` (untrue): the deprecated fields, "determined by
  signed comparison only": for a column whose type order is SIGNED that is the
  type's own order ("DECIMAL - signed comparison of the represented value");
  otherwise the legacy signed comparison of the physical values (INT32/INT64
  as signed integers, byte arrays as signed bytes, lexicographically). INT96
  has no such comparison and is not checked.
* ``<s>.deprecated_min_max`` (nonconforming): "To support older readers, these
  may be set when the column order is signed"; set for another column.
* ``<s>.null_count`` (untrue): "count of null value in the column": the
  entries whose definition level is below the maximum ('3.8 - Nulls'; for a
  repeated column an empty or null list is such an entry).
* ``<s>.distinct_count`` (untrue): "count of distinct values occurring". The
  spec does not say when two floats are the same value, so any count between
  the two readings is accepted: equal represented values with all NaNs as one
  (-0.0 == +0.0), and equal bit patterns (the notion dictionary encoding and
  ``statistics.column_statistics`` use).
* ``<s>.nan_bound`` (nonconforming): ``union ColumnOrder``, "NaNs should not be
  written to min or max statistics fields"; such a bound is not checked (readers
  "should ignore" it).
* ``<s>.signed_zero`` (nonconforming): "If the computed min value is zero ...
  `-0.0` should be written into the min statistics field", and +0.0 into the
  max. Not untrue: readers widen a +0 min and a -0 max to both zeros.
* ``<s>.undefined_order`` (nonconforming): min_value/max_value written while
  the column's order is undefined: ``union ColumnOrder`` (INT96, LIST, MAP;
  LogicalTypes.md INTERVAL, GEOMETRY, GEOGRAPHY, UNKNOWN, see ``sort_order``),
  a ColumnOrder member this reader does not know ("min and max stats for this
  column should be ignored"), or no ``FileMetaData.column_orders`` at all
  ("Without column_orders, the meaning of the min_value and max_value fields
  ... is undefined"). Such bounds are not checked.
* ``column_index.unreadable`` (untrue): the ColumnIndex cannot be decoded, or
  its lists disagree in length ('3.9 - Page Index').
* ``column_index.page_count`` (untrue): ``struct ColumnIndex``, "Each
  <array-field>[i] refers to the page at OffsetIndex.page_locations[i]": one
  entry per data page of the chunk.
* ``column_index.null_pages`` (untrue): "If true, a page contains only null
  values": true exactly for the pages without a value.
* ``column_index.min_values`` / ``column_index.max_values``: per page, bounds
  like the chunk's (untrue); for a null page they "have to" be byte[0]
  (nonconforming otherwise). ``column_index.nan_bound``,
  ``column_index.signed_zero`` and ``column_index.undefined_order`` as for
  statistics ("The min_values and max_values are calculated based on the
  column_orders field").
* ``column_index.boundary_order`` (untrue): ASCENDING / DESCENDING must hold
  for the stored bounds of the non-null pages, both lists, non-strictly (the
  reading of ``page_index.boundary_order``); UNORDERED always holds.
* ``column_index.null_counts`` (untrue): per page, as ``null_count``.
* ``column_index.level_histograms`` (untrue): current parquet.thrift
  ColumnIndex 6 and 7, the pages' repetition / definition level histograms
  one after another (``size_statistics.level_histogram``).
* ``offset_index.unreadable`` (untrue): the OffsetIndex cannot be decoded or
  its locations overlap or leave the file.
* ``offset_index.page_locations`` (untrue): ``struct PageLocation``: one per
  data page, with the ``offset`` of its header and its ``compressed_page_size``
  "including header".
* ``offset_index.first_row_index`` (untrue): "Index within the RowGroup of the
  first row of the page", rows being entries with repetition level 0; a page
  that starts inside a row has none ("pages change on record boundaries").
* ``offset_index.unencoded_byte_array_data_bytes`` and
  ``size_statistics.unencoded_byte_array_data_bytes``: current parquet.thrift
  ``SizeStatistics``, "The number of physical bytes stored for BYTE_ARRAY data
  values assuming no encoding ... exclusive of the bytes needed to store the
  length of each byte array" (untrue when wrong); "This field should only be
  set for types that use BYTE_ARRAY" (nonconforming when set for another).
* ``size_statistics.repetition_level_histogram`` /
  ``size_statistics.definition_level_histogram`` (untrue): "size=max
  repetition_level+1 where each element represents the number of times the
  repetition level was observed in the data" (same for definition levels).
  An empty list (written by some writers for a maximum level of 0) claims no
  count and is nonconforming: the field "may be omitted", not left empty. The
  same holds for ``column_index.level_histograms``.
* ``bloom_filter`` (untrue): '3.6 - Bloom Filter', "Bloom filters do not have
  false negatives": every non-null value of the chunk must test positive. One
  finding per chunk, with the number of missing values and the first; also
  when the filter cannot be read. A filter of an algorithm, hash or
  compression newer than this reader is not judged.
* ``crc`` (untrue): '3.7.4 - Checksumming' and ``PageHeader.crc``: "All page
  types can have a CRC"; every page that carries one is verified
  (``checksum.verify_page_crc``), one finding per bad page (``page`` is None
  for a dictionary page; the message gives its offset).

Decisions:

* NaN values take no part in bound checks (the ColumnOrder gives them no
  place), and -0.0 equals +0.0 ("signed comparison of the represented value").
* Findings about a chunk are judged against its data as stored. A page whose
  CRC fails holds other bytes than the writer's, so findings next to a ``crc``
  finding may stem from that. When a chunk cannot be decoded at all and some
  page of it fails its CRC, only the ``crc`` findings are reported for it; a
  chunk that cannot be decoded without such an explanation raises the reader's
  error, as does a file whose footer or schema cannot be read.
* Encrypted files ('3.7.3 - Parquet Modular Encryption') are validated with
  ``decryption`` (the reader's ``FileDecryptionProperties``): statistics from
  the decrypted ColumnMetaData, the page index and Bloom filters decrypted
  (``encryption.indexes``), CRCs over the pages as stored (encrypted). A
  column whose key is not available raises the reader's ``MissingKey``; a
  module that does not authenticate raises ``DecryptionFailed``, never a
  finding: the file is not the writer's.
"""

from __future__ import annotations

import math
import os
import struct
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from functools import cached_property
from typing import Any

import numpy as np

from reference_impl.parquet.encryption.decryptor import ColumnDecryptor
from reference_impl.parquet.encryption.indexes import (
    read_bloom_filter_of,
    read_column_index_of,
    read_offset_index_of,
)
from reference_impl.parquet.encryption.properties import FileDecryptionProperties
from reference_impl.parquet.errors import (
    ChecksumMismatch,
    CorruptMetadata,
    DecryptionFailed,
    MissingKey,
    ParquetError,
    UnsupportedFeature,
)
from reference_impl.parquet.indexes.page_index import NULL_PAGE_BOUND, boundary_order
from reference_impl.parquet.metadata.parquet_thrift import (
    BoundaryOrder,
    ColumnChunk,
    ColumnIndex,
    ColumnMetaData,
    FileMetaData,
    PageType,
    Statistics,
    Type,
)
from reference_impl.parquet.pages.checksum import verify_page_crc
from reference_impl.parquet.pages.column_chunk import ChunkData, PageExtent, chunk_range, read_column_chunk
from reference_impl.parquet.pages.page import read_page_header
from reference_impl.parquet.reader import read_footer_with_decryptor
from reference_impl.parquet.schema.tree import LeafColumn, leaf_columns, schema_tree_from_elements
from reference_impl.parquet.statistics.column_statistics import decode_bound
from reference_impl.parquet.statistics.size_statistics import level_histogram
from reference_impl.parquet.statistics.sort_order import SortOrder, sort_key, sort_order

__all__ = ["NONCONFORMING", "SEVERITIES", "UNTRUE", "Finding", "validate"]

SEVERITIES = ("untrue", "nonconforming")
UNTRUE, NONCONFORMING = SEVERITIES

DATA_PAGE_TYPES = frozenset({PageType.DATA_PAGE, PageType.DATA_PAGE_V2})
FLOAT_TYPES = frozenset({Type.FLOAT, Type.DOUBLE})
BINARY_TYPES = frozenset({Type.BYTE_ARRAY, Type.FIXED_LEN_BYTE_ARRAY})
INTEGER_TYPES = frozenset({Type.INT32, Type.INT64})
FLOAT16_POS_ZERO = b"\x00\x00"
FLOAT16_NEG_ZERO = b"\x00\x80"
# Flipping the top bit maps signed bytes (-128..127) onto 0..255 in order, so
# comparing the flipped bytes unsigned is comparing the originals signed.
SIGNED_BYTES = bytes(byte ^ 0x80 for byte in range(256))
SHOWN_BYTES = 24  # longer byte values are cut in messages
MIN, MAX = "min", "max"

Key = Callable[[Any], Any]


@dataclass(frozen=True)
class Finding:
    """One item of metadata that does not hold for the data (see the module docstring)."""

    kind: str
    severity: str
    column: str  # dotted path
    row_group: int
    page: int | None  # data page ordinal within the chunk, for per-page items
    message: str

    def to_json(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class _Report:
    """Makes findings for one place: a column chunk, or one data page of it."""

    column: str
    row_group: int
    page: int | None = None

    def __call__(self, kind: str, severity: str, message: str) -> Finding:
        return Finding(kind, severity, self.column, self.row_group, self.page, message)

    def at(self, page: int | None) -> _Report:
        return _Report(self.column, self.row_group, page)


# ---------------------------------------------------------------------------
# The column's orders and its float rules
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Order:
    """How one column's bounds compare (``key`` None: min_value/max_value mean nothing)."""

    physical_type: Type
    type_length: int | None
    float16: bool
    key: Key | None
    undefined_because: str
    legacy_key: Key | None  # the deprecated min/max's "signed comparison"
    signed: bool  # the type order is SIGNED: deprecated min/max may be set

    def decode(self, raw: bytes) -> object:
        return decode_bound(self.physical_type, raw, self.type_length)

    def number(self, value: object) -> float | None:
        """A float's represented value, None for a non-float column."""
        if self.float16:
            return struct.unpack("<e", value)[0] if len(value) == 2 else None  # type: ignore[arg-type]
        return float(value) if self.physical_type in FLOAT_TYPES else None  # type: ignore[arg-type]

    def is_nan(self, value: object) -> bool:
        number = self.number(value)
        return number is not None and math.isnan(number)

    def wrong_zero(self, value: object, role: str) -> bool:
        """+0 as a min or -0 as a max (the ColumnOrder writing rule asks the other zero)."""
        if self.float16:
            return value == (FLOAT16_POS_ZERO if role == MIN else FLOAT16_NEG_ZERO)
        if self.physical_type not in FLOAT_TYPES or value != 0.0:
            return False
        negative = math.copysign(1.0, value) < 0  # type: ignore[arg-type]
        return negative if role == MAX else not negative


def _signed_bytes_key(value: bytes) -> bytes:
    return bytes(value).translate(SIGNED_BYTES)


def _legacy_key(physical_type: Type, type_key: Key | None, signed: bool) -> Key | None:
    if signed:
        return type_key  # "signed comparison of the represented value"
    if physical_type in INTEGER_TYPES:
        return int  # the physical values are signed integers already
    if physical_type in BINARY_TYPES:
        return _signed_bytes_key
    return None  # INT96: no signed comparison to speak of


def _column_order(metadata: FileMetaData, leaf: LeafColumn, leaf_count: int) -> _Order:
    node = leaf.node
    types = (node.physical_type, node.logical_type, node.converted_type)
    try:
        type_order = sort_order(*types)
        reason = f"the sort order of {leaf.dotted_path}'s type is undefined"
    except ValueError as error:  # an annotation the spec does not allow on this type
        type_order, reason = SortOrder.UNDEFINED, str(error)
    if type_order is not SortOrder.UNDEFINED:
        reason = _column_orders_problem(metadata, leaf.index, leaf_count)
    type_key = None if type_order is SortOrder.UNDEFINED else sort_key(*types)
    signed = type_order is SortOrder.SIGNED
    float16 = node.logical_type is not None and node.logical_type.kind == "FLOAT16"
    return _Order(
        physical_type=Type(node.physical_type),
        type_length=node.type_length,
        float16=float16,
        key=None if reason else type_key,
        undefined_because=reason,
        legacy_key=_legacy_key(Type(node.physical_type), type_key, signed),
        signed=signed,
    )


def _column_orders_problem(metadata: FileMetaData, index: int, leaf_count: int) -> str:
    """Why FileMetaData.column_orders leaves the column's min_value/max_value meaningless, or ""."""
    orders = metadata.column_orders
    if orders is None or len(orders) != leaf_count:
        return "the file has no column_orders for its columns, so min_value/max_value mean nothing"
    if orders[index].kind != "TYPE_ORDER":
        return "its ColumnOrder is not TYPE_ORDER: min and max stats should be ignored"
    return ""


# ---------------------------------------------------------------------------
# One column chunk
# ---------------------------------------------------------------------------


@dataclass
class _Chunk:
    """One column chunk, its decoded data and how to compare its values."""

    file: bytes
    leaf: LeafColumn
    chunk: ColumnChunk
    data: ChunkData
    order: _Order
    report: _Report
    meta: ColumnMetaData  # decrypted, for an encrypted chunk
    crypto: ColumnDecryptor | None = None

    @property
    def where(self) -> str:
        return _where(self.report)

    @cached_property
    def data_pages(self) -> list[PageExtent]:
        return [page for page in self.data.pages if page.header.type in DATA_PAGE_TYPES]

    def values(self, page: PageExtent | None = None) -> list[object]:
        """The non-null values of the chunk, or of one page."""
        if page is None:
            return self.data.values
        return self.data.values[page.values.start : page.values.stop]

    def levels(self, kind: str, page: PageExtent | None = None) -> np.ndarray:
        levels = getattr(self.data, f"{kind}_levels")
        return levels if page is None else levels[page.entries.start : page.entries.stop]

    def null_count(self, page: PageExtent | None = None) -> int:
        definition = self.levels("definition", page)
        return int(np.count_nonzero(definition < self.leaf.max_definition_level))


def validate(
    source: str | os.PathLike | bytes, *, decryption: FileDecryptionProperties | None = None
) -> list[Finding]:
    """Every finding about ``source``'s metadata (see the module docstring).

    Raises the reader's ParquetError when the file cannot be read.
    """
    file = source if isinstance(source, bytes) else _read_bytes(source)
    metadata, footer_start, decryptor = read_footer_with_decryptor(file, decryption=decryption)
    leaves = leaf_columns(schema_tree_from_elements(metadata.schema, offset=footer_start))
    orders = [_column_order(metadata, leaf, len(leaves)) for leaf in leaves]
    findings: list[Finding] = []
    for ordinal, row_group in enumerate(metadata.row_groups):
        if len(row_group.columns) != len(leaves):
            raise CorruptMetadata(
                f"row group {ordinal} has {len(row_group.columns)} column chunks for {len(leaves)} columns",
                footer_start,
            )
        for leaf, chunk, order in zip(leaves, row_group.columns, orders, strict=True):
            report = _Report(leaf.dotted_path, ordinal)
            crypto = decryptor.column(leaf, chunk, ordinal) if decryptor is not None else None
            findings += _validate_chunk(
                file, leaf, chunk, row_group.num_rows, footer_start, order, report, crypto
            )
    return findings


def _where(report: _Report) -> str:
    """The reader's way of naming a chunk in its errors."""
    return f"column {report.column}, row group {report.row_group}"


def _read_bytes(path: str | os.PathLike) -> bytes:
    with open(path, "rb") as stream:
        return stream.read()


def _validate_chunk(
    file: bytes,
    leaf: LeafColumn,
    chunk: ColumnChunk,
    num_rows: int,
    footer_start: int,
    order: _Order,
    report: _Report,
    crypto: ColumnDecryptor | None = None,
) -> list[Finding]:
    try:
        data = read_column_chunk(
            file, leaf, chunk, num_rows, where=_where(report), footer_start=footer_start, crypto=crypto
        )
    except ParquetError:
        # An encrypted chunk's headers cannot be walked without decrypting them: no CRC excuse.
        explained = _crc_of_undecodable_chunk(file, chunk, report) if crypto is None else []
        if not explained:
            raise
        return explained  # the stored bytes are not the writer's: nothing else to judge
    meta = chunk.meta_data if crypto is None else crypto.file.column_metadata(crypto, chunk)
    state = _Chunk(file, leaf, chunk, data, order, report, meta, crypto)  # type: ignore[arg-type]
    findings = _check_statistics(state, state.meta.statistics, None, "statistics", report)
    for ordinal, page in enumerate(state.data_pages):
        header = page.header.data_page_header or page.header.data_page_header_v2
        stats = header.statistics if header is not None else None
        findings += _check_statistics(state, stats, page, "page_statistics", report.at(ordinal))
    for checker in (
        _check_column_index,
        _check_offset_index,
        _check_size_statistics,
        _check_bloom_filter,
        _check_crcs,
    ):
        findings += checker(state)
    return findings


# ---------------------------------------------------------------------------
# Statistics (chunk and page)
# ---------------------------------------------------------------------------


def _check_statistics(
    state: _Chunk, stats: Statistics | None, page: PageExtent | None, prefix: str, report: _Report
) -> list[Finding]:
    if stats is None:
        return []
    values = state.values(page)
    findings = []
    if stats.null_count is not None and stats.null_count != (nulls := state.null_count(page)):
        findings.append(
            report(
                f"{prefix}.null_count",
                UNTRUE,
                f"null_count is {stats.null_count}, the data holds {nulls} null entries",
            )
        )
    findings += _check_distinct_count(stats.distinct_count, values, state.order, prefix, report)
    findings += _check_min_max_value(stats, values, state.order, prefix, report)
    findings += _check_deprecated(stats, values, state.order, prefix, report)
    return findings


def _check_distinct_count(
    stored: int | None, values: Sequence[object], order: _Order, prefix: str, report: _Report
) -> list[Finding]:
    if stored is None:
        return []
    by_bits = len({_bits(value, order) for value in values})
    by_value = by_bits
    if order.float16 or order.physical_type in FLOAT_TYPES:
        numbers = [order.number(value) for value in values]
        by_value = len({n for n in numbers if not math.isnan(n)}) + any(math.isnan(n) for n in numbers)  # type: ignore[arg-type]
    if by_value <= stored <= by_bits:
        return []
    counted = f"{by_bits}" if by_value == by_bits else f"between {by_value} and {by_bits}"
    return [
        report(
            f"{prefix}.distinct_count",
            UNTRUE,
            f"distinct_count is {stored}, the data holds {counted} distinct values",
        )
    ]


def _bits(value: object, order: _Order) -> object:
    """A hashable stand-in for a value's bit pattern (floats compare by value in Python)."""
    if order.physical_type == Type.FLOAT:
        return struct.pack("<f", value)
    if order.physical_type == Type.DOUBLE:
        return struct.pack("<d", value)
    return value


def _check_min_max_value(
    stats: Statistics, values: Sequence[object], order: _Order, prefix: str, report: _Report
) -> list[Finding]:
    if stats.min_value is None and stats.max_value is None:
        return []
    if order.key is None:
        return [
            report(
                f"{prefix}.undefined_order",
                NONCONFORMING,
                f"min_value/max_value are written, but {order.undefined_because}",
            )
        ]
    findings = []
    for field, role, raw, exact in (
        ("min_value", MIN, stats.min_value, stats.is_min_value_exact),
        ("max_value", MAX, stats.max_value, stats.is_max_value_exact),
    ):
        if raw is not None:
            findings += _check_bound(
                _Bound(prefix, field, role, order.key, exact), raw, values, order, report
            )
    return findings


def _check_deprecated(
    stats: Statistics, values: Sequence[object], order: _Order, prefix: str, report: _Report
) -> list[Finding]:
    if stats.min is None and stats.max is None:
        return []
    findings = []
    if not order.signed:
        findings.append(
            report(
                f"{prefix}.deprecated_min_max",
                NONCONFORMING,
                "deprecated min/max are set, but the column's order is not signed "
                "(they 'may be set when the column order is signed')",
            )
        )
    if order.legacy_key is None:
        return findings
    for field, role, raw in (("min", MIN, stats.min), ("max", MAX, stats.max)):
        if raw is not None:
            findings += _check_bound(
                _Bound(prefix, field, role, order.legacy_key), raw, values, order, report
            )
    return findings


# ---------------------------------------------------------------------------
# One bound against the values it summarises
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class _Bound:
    """Which stored bound is checked, and under which order."""

    prefix: str  # statistics, page_statistics, column_index
    field: str  # min_value, max, min_values, ...
    role: str  # MIN or MAX
    key: Key
    exact: bool | None = None

    @property
    def kind(self) -> str:
        return f"{self.prefix}.{self.field}"


def _check_bound(
    bound: _Bound, raw: bytes, values: Sequence[object], order: _Order, report: _Report
) -> list[Finding]:
    try:
        value = order.decode(raw)
    except CorruptMetadata as error:
        return [report(bound.kind, UNTRUE, f"{bound.field} {_show(raw)} cannot be decoded: {error.message}")]
    if order.is_nan(value):
        return [
            report(
                f"{bound.prefix}.nan_bound",
                NONCONFORMING,
                f"{bound.field} is NaN ({_show(raw)}): NaNs should not be written as bounds",
            )
        ]
    findings = []
    if order.wrong_zero(value, bound.role):
        wanted = "-0.0" if bound.role == MIN else "+0.0"
        findings.append(
            report(
                f"{bound.prefix}.signed_zero",
                NONCONFORMING,
                f"{bound.field} is {_show(value)}: a zero {bound.role} should be written as {wanted}",
            )
        )
    return findings + _bound_against_values(bound, value, values, order, report)


def _bound_against_values(
    bound: _Bound, value: object, values: Sequence[object], order: _Order, report: _Report
) -> list[Finding]:
    try:
        bound_key = bound.key(value)
    except ValueError as error:
        return [
            report(bound.kind, UNTRUE, f"{bound.field} {_show(value)} is not in the column's order: {error}")
        ]
    try:
        extreme = _extreme(values, bound, order)
    except ValueError:  # a data value outside the type (an empty binary DECIMAL): no order to judge by
        return []
    if extreme is None:
        if bound.exact:
            flag = f"is_{bound.field}_exact"
            return [
                report(
                    f"{bound.prefix}.exactness",
                    UNTRUE,
                    f"{flag} is true, but the data holds no ordered value to equal it",
                )
            ]
        return []
    actual, actual_key = extreme
    word = "smallest" if bound.role == MIN else "largest"
    beyond = bound_key > actual_key if bound.role == MIN else bound_key < actual_key
    if beyond:
        side = "greater" if bound.role == MIN else "less"
        return [
            report(
                bound.kind,
                UNTRUE,
                f"{bound.field} {_show(value)} is {side} than the {word} value {_show(actual)}",
            )
        ]
    if bound.exact and bound_key != actual_key:
        return [
            report(
                f"{bound.prefix}.exactness",
                UNTRUE,
                f"is_{bound.field}_exact is true, but {bound.field} {_show(value)} is not the "
                f"{word} value {_show(actual)}",
            )
        ]
    return []


def _extreme(values: Sequence[object], bound: _Bound, order: _Order) -> tuple[object, Any] | None:
    """``(value, key)`` of the smallest or largest ordered value (NaNs have no place)."""
    keyed = [(bound.key(v), v) for v in values if not order.is_nan(v)]
    if not keyed:
        return None
    pick = min if bound.role == MIN else max
    key, value = pick(keyed, key=lambda pair: pair[0])
    return value, key


def _show(value: object) -> str:
    if isinstance(value, bytes | bytearray) and len(value) > SHOWN_BYTES:
        return f"{bytes(value[:SHOWN_BYTES])!r}... ({len(value)} bytes)"
    return repr(value)


# ---------------------------------------------------------------------------
# Column index
# ---------------------------------------------------------------------------


def _check_column_index(state: _Chunk) -> list[Finding]:
    report = state.report
    try:
        index = read_column_index_of(state.file, state.chunk, state.crypto, where=state.where)
    except (DecryptionFailed, MissingKey):
        raise
    except ParquetError as error:
        return [report("column_index.unreadable", UNTRUE, error.message)]
    if index is None:
        return []
    pages = state.data_pages
    if len(index.null_pages) != len(pages):
        return [
            report(
                "column_index.page_count",
                UNTRUE,
                f"the ColumnIndex has {len(index.null_pages)} entries, the chunk {len(pages)} data pages",
            )
        ]
    findings = []
    if state.order.key is None and not all(index.null_pages):
        findings.append(
            report(
                "column_index.undefined_order",
                NONCONFORMING,
                f"a ColumnIndex with bounds is written, but {state.order.undefined_because}",
            )
        )
    for ordinal, page in enumerate(pages):
        findings += _check_index_page(state, index, ordinal, page)
    findings += _check_boundary_order(state, index)
    for kind in ("repetition", "definition"):
        findings += _check_index_histograms(state, index, kind)
    return findings


def _check_index_page(state: _Chunk, index: ColumnIndex, ordinal: int, page: PageExtent) -> list[Finding]:
    report = state.report.at(ordinal)
    values = state.values(page)
    findings = []
    if index.null_counts is not None and index.null_counts[ordinal] != (nulls := state.null_count(page)):
        findings.append(
            report(
                "column_index.null_counts",
                UNTRUE,
                f"null_counts says {index.null_counts[ordinal]}, the page holds {nulls} nulls",
            )
        )
    if index.null_pages[ordinal] != (not values):
        said = "only nulls" if index.null_pages[ordinal] else "a value"
        findings.append(
            report(
                "column_index.null_pages",
                UNTRUE,
                f"null_pages says the page holds {said}, it holds {len(values)} values",
            )
        )
        return findings
    bounds = (("min_values", MIN, index.min_values[ordinal]), ("max_values", MAX, index.max_values[ordinal]))
    if index.null_pages[ordinal]:
        return findings + [
            report(
                f"column_index.{field}",
                NONCONFORMING,
                f"a null page's {field} entry must be byte[0], it is {_show(raw)}",
            )
            for field, _, raw in bounds
            if raw != NULL_PAGE_BOUND
        ]
    if state.order.key is None:
        return findings
    for field, role, raw in bounds:
        findings += _check_bound(
            _Bound("column_index", field, role, state.order.key), raw, values, state.order, report
        )
    return findings


def _check_boundary_order(state: _Chunk, index: ColumnIndex) -> list[Finding]:
    claimed = index.boundary_order
    key = state.order.key
    if key is None or claimed not in (BoundaryOrder.ASCENDING, BoundaryOrder.DESCENDING):
        return []  # UNORDERED claims nothing
    pairs = [_usable_page_bounds(state.order, index, page) for page in range(len(index.null_pages))]
    mins = [pair[0] if pair else None for pair in pairs]
    maxes = [pair[1] if pair else None for pair in pairs]
    if sum(pair is not None for pair in pairs) < 2:
        return []  # no two pages to be out of order: any claim holds
    if claimed == BoundaryOrder.DESCENDING:  # descending is ascending read backwards
        mins, maxes = mins[::-1], maxes[::-1]
    if boundary_order(mins, maxes, key) == BoundaryOrder.ASCENDING:
        return []
    return [
        state.report(
            "column_index.boundary_order",
            UNTRUE,
            f"boundary_order is {BoundaryOrder(claimed).name}, but the non-null pages' "
            f"bounds are not in that order",
        )
    ]


def _usable_page_bounds(order: _Order, index: ColumnIndex, page: int) -> tuple[object, object] | None:
    """A non-null page's decoded (min, max), or None if either is unusable (NaN, undecodable)."""
    if index.null_pages[page]:
        return None
    try:
        low, high = order.decode(index.min_values[page]), order.decode(index.max_values[page])
        order.key(low), order.key(high)  # type: ignore[misc]
    except (CorruptMetadata, ValueError):
        return None
    return None if order.is_nan(low) or order.is_nan(high) else (low, high)


def _check_index_histograms(state: _Chunk, index: ColumnIndex, kind: str) -> list[Finding]:
    stored = getattr(index, f"{kind}_level_histograms")
    max_level = getattr(state.leaf, f"max_{kind}_level")
    if stored is None:
        return []
    if not stored:
        return [_empty_histogram(state.report, "column_index.level_histograms", f"{kind}_level_histograms")]
    pages = state.data_pages
    width = len(stored) // len(pages)
    if width != max_level + 1:
        return [
            state.report(
                "column_index.level_histograms",
                UNTRUE,
                f"{kind}_level_histograms has {width} counts per page for levels 0..{max_level}",
            )
        ]
    findings = []
    for ordinal, page in enumerate(pages):
        own = stored[ordinal * width : (ordinal + 1) * width]
        expected = _histogram(state.levels(kind, page), max_level)
        if own != expected:
            findings.append(
                state.report.at(ordinal)(
                    "column_index.level_histograms",
                    UNTRUE,
                    f"{kind} level histogram {own}, the page's levels give {expected}",
                )
            )
    return findings


def _empty_histogram(report: _Report, kind: str, field: str) -> Finding:
    # Claims no count, so it is not untrue; but the spec knows only max level + 1 counts, or none.
    return report(
        kind,
        NONCONFORMING,
        f"{field} is an empty list: the spec asks for one count per level (or the field omitted)",
    )


def _histogram(levels: np.ndarray, max_level: int) -> list[int]:
    # level_histogram leaves out a maximum level 0; written anyway, it is the entry count.
    return level_histogram(levels, max_level) or [len(levels)]


# ---------------------------------------------------------------------------
# Offset index
# ---------------------------------------------------------------------------


def _check_offset_index(state: _Chunk) -> list[Finding]:
    report = state.report
    try:
        index = read_offset_index_of(state.file, state.chunk, state.crypto, where=state.where)
    except (DecryptionFailed, MissingKey):
        raise
    except ParquetError as error:
        return [report("offset_index.unreadable", UNTRUE, error.message)]
    if index is None:
        return []
    pages = state.data_pages
    if len(index.page_locations) != len(pages):
        return [
            report(
                "offset_index.page_locations",
                UNTRUE,
                f"{len(index.page_locations)} page locations for {len(pages)} data pages",
            )
        ]
    repetition = state.levels("repetition")
    findings = []
    for ordinal, (location, page) in enumerate(zip(index.page_locations, pages, strict=True)):
        page_report = report.at(ordinal)
        size = page.end - page.offset
        if (location.offset, location.compressed_page_size) != (page.offset, size):
            findings.append(
                page_report(
                    "offset_index.page_locations",
                    UNTRUE,
                    f"the location says offset {location.offset}, size "
                    f"{location.compressed_page_size}; the page is at {page.offset}, "
                    f"{size} bytes with its header",
                )
            )
        findings += _check_first_row(location.first_row_index, page, repetition, page_report)
    sizes = index.unencoded_byte_array_data_bytes or [None] * len(pages)
    for ordinal, (stored, page) in enumerate(zip(sizes, pages, strict=True)):
        findings += _check_unencoded(
            "offset_index", stored, state.values(page), state.order, report.at(ordinal)
        )
    return findings


def _check_first_row(stored: int, page: PageExtent, repetition: np.ndarray, report: _Report) -> list[Finding]:
    first = page.entries.start
    if first < len(repetition) and repetition[first] != 0:
        return [
            report(
                "offset_index.first_row_index",
                UNTRUE,
                f"first_row_index is {stored}, but the page starts inside a row",
            )
        ]
    rows_before = int(np.count_nonzero(repetition[:first] == 0))
    if stored == rows_before:
        return []
    return [
        report(
            "offset_index.first_row_index",
            UNTRUE,
            f"first_row_index is {stored}, the page's first row is row {rows_before}",
        )
    ]


def _check_unencoded(
    prefix: str, stored: int | None, values: Sequence[object], order: _Order, report: _Report
) -> list[Finding]:
    kind = f"{prefix}.unencoded_byte_array_data_bytes"
    if stored is None:
        return []
    if order.physical_type != Type.BYTE_ARRAY:
        return [
            report(
                kind,
                NONCONFORMING,
                f"set ({stored}) for a {order.physical_type.name} column: only for BYTE_ARRAY",
            )
        ]
    actual = sum(len(value) for value in values)  # type: ignore[arg-type]
    if stored == actual:
        return []
    return [
        report(kind, UNTRUE, f"unencoded_byte_array_data_bytes is {stored}, the values hold {actual} bytes")
    ]


# ---------------------------------------------------------------------------
# Size statistics, Bloom filter, CRC
# ---------------------------------------------------------------------------


def _check_size_statistics(state: _Chunk) -> list[Finding]:
    sizes = state.meta.size_statistics
    if sizes is None:
        return []
    findings = _check_unencoded(
        "size_statistics", sizes.unencoded_byte_array_data_bytes, state.values(), state.order, state.report
    )
    for kind in ("repetition", "definition"):
        stored = getattr(sizes, f"{kind}_level_histogram")
        expected = _histogram(state.levels(kind), getattr(state.leaf, f"max_{kind}_level"))
        if stored == []:
            findings.append(
                _empty_histogram(
                    state.report, f"size_statistics.{kind}_level_histogram", f"{kind}_level_histogram"
                )
            )
        elif stored is not None and stored != expected:
            findings.append(
                state.report(
                    f"size_statistics.{kind}_level_histogram",
                    UNTRUE,
                    f"{kind}_level_histogram is {stored}, the levels give {expected}",
                )
            )
    return findings


def _check_bloom_filter(state: _Chunk) -> list[Finding]:
    try:
        bloom = read_bloom_filter_of(state.file, state.meta, state.crypto, where=state.where)
    except (DecryptionFailed, MissingKey):
        raise
    except UnsupportedFeature:
        return []  # a newer algorithm, hash or compression: not ours to judge
    except ParquetError as error:
        return [state.report("bloom_filter", UNTRUE, f"the Bloom filter cannot be read: {error.message}")]
    if bloom is None:
        return []
    order = state.order
    distinct = {_bits(value, order): value for value in state.values()}.values()
    missing = [v for v in distinct if not bloom.might_contain(order.physical_type, v, order.type_length)]
    if not missing:
        return []
    return [
        state.report(
            "bloom_filter",
            UNTRUE,
            f"{len(missing)} of the chunk's {len(distinct)} distinct values test absent, "
            f"e.g. {_show(missing[0])}",
        )
    ]


def _check_crcs(state: _Chunk) -> list[Finding]:
    return _crc_findings(
        state.file,
        [(page.offset, page.body_start, page.end, page.header) for page in state.data.pages],
        state.report,
    )


def _crc_findings(file: bytes, pages: list[tuple[int, int, int, Any]], report: _Report) -> list[Finding]:
    """A finding per page (offset, body start, end, header) whose stored crc is wrong."""
    findings = []
    data_ordinal = 0
    for offset, body_start, end, header in pages:
        ordinal = data_ordinal if header.type in DATA_PAGE_TYPES else None
        data_ordinal += ordinal is not None
        if header.crc is None:
            continue
        try:
            verify_page_crc(header.crc, file[body_start:end], offset)
        except ChecksumMismatch as error:
            name = getattr(header.type, "name", header.type)
            findings.append(
                report.at(ordinal)("crc", UNTRUE, f"{name} page at offset {offset}: {error.message}")
            )
    return findings


def _crc_of_undecodable_chunk(file: bytes, chunk: ColumnChunk, report: _Report) -> list[Finding]:
    """CRC findings of a chunk whose pages cannot be decoded, walking its page headers only."""
    if chunk.meta_data is None:
        return []
    position, end = chunk_range(chunk.meta_data)
    pages = []
    try:
        while position < end:
            header, body_start, body_end = read_page_header(file, position, end)
            pages.append((position, body_start, body_end, header))
            position = body_end
    except ParquetError:
        pass  # the pages up to a broken header are what can be judged
    return _crc_findings(file, pages, report)
