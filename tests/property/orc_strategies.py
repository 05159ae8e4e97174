"""Hypothesis strategies for whole ORC conformance cases.

An ORC case is drawn as a Parquet one is (`tests.property.strategies`): the schema,
the rows, then the write options, each only from what a writer and reader pair
declares it handles (`supports(tag)`, the case's feature tags).

* The schema is any nesting of LIST, MAP, STRUCT and UNION over every ORC type
  (ORCv1.md, 'Type Information'; the canonical types of
  `conformance.cases.orc.types`). ORC has no REQUIRED: any column may have nulls
  (a PRESENT stream), so every list element, map value and union alternative may
  be null; a struct field or top-level column is drawn nullable or not, so that
  columns without a PRESENT stream are common too. Map keys are never null.
* The rows are edge-biased (`tests.support.strategies.values`), with ORC's own
  edges: every FLOAT and DOUBLE bit pattern, NaN payloads often (ORCv1.md, 'Float
  and Double Columns'); dates around the Gregorian cutover of 1582 and before 1970
  ('Date Columns'); timestamps before 1970 with sub-second fractions, fractions
  whose trailing zeros the writer drops, and the 2015 base of the seconds
  ('Timestamp Columns'), the second just before 1970, and instants of 64-bit
  seconds far past the 64-bit nanosecond counts of 1677-2262
  (docs/canonical-values.md, 'ORC'); the moments of the catalogue's writer-zone
  cases (`conformance.cases.orc.edge_values.ZONE_MOMENTS`: both sides of
  daylight-saving gaps, both passes of repeated hours, zones before their standard
  time and after a change of offset); DECIMAL at precision 18, 19 and 38 with the
  ends of 64-bit unscaled values ('Decimal Columns').
* The options are the file version (ORCv0.md or ORCv1.md), the codec and its
  block size ('Compression'), rows per stripe ('Stripes'), the row index stride
  ('Row Group Index'), the string columns' encoding ('String, Char, and VarChar
  Columns'), the writer's time zone (orc_proto.proto StripeFooter.writer_timezone,
  east and west of UTC) and the calendar (Footer.calendar). The rows are drawn
  after the options, so they hold only what the file can: no wall clock in a gap
  of the writer's zone, no day the hybrid calendar skips under JULIAN_GREGORIAN.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Sequence
from typing import TypeVar
from zoneinfo import ZoneInfo

import numpy as np
from hypothesis import strategies as st

from conformance.cases import Case
from conformance.cases.orc import sections
from conformance.cases.orc import types as O
from conformance.cases.orc.edge_values import (
    BOTH_CALENDARS,
    PROLEPTIC_ONLY,
    ZONE_MOMENTS,
    last_nano_of,
    moment_wall_and_instant,
)
from conformance.cases.orc.options import (
    CALENDAR_TAG,
    CALENDARS,
    CODECS,
    FILE_VERSIONS,
    STRING_ENCODINGS,
    WRITER_TIMEZONE_TAG,
    OrcWriteOptions,
)
from conformance.cases.value_edges import days
from conformance.golden.regressions import regression_id
from conformance.values import DataType, Field, Schema
from conformance.values.codec import int_range
from reference_impl.common.ieee_float import widen_float_bits
from reference_impl.orc.columns.time_zones import utc_offset
from tests.support.strategies import values

from .strategies import (
    AREA,
    FIELD_NAMES,
    MAX_COLUMNS,
    MAX_DEPTH,
    MAX_LEAVES,
    MAX_ROWS,
    MAX_SIZE,
    Supports,
    deep_types,
    everything,
)

FORMAT = "orc"
MAX_TEXT_LENGTH = 8  # CHAR(n), VARCHAR(n): small n, so values often fill it
MAX_ALTERNATIVES = 3  # of a UNION
MAX_FIELDS = 3  # of a STRUCT
# PostScript.compression_block_size: tiny blocks split even a few rows into many chunks.
BLOCK_SIZES = st.one_of(st.sampled_from([1, 2, 3, 64, 64 * 1024, 256 * 1024]), st.integers(1, 4096))
RLE_TAG = {"0.11": "rle:v1", "0.12": "rle:v2"}

# ---- values -------------------------------------------------------------------------

DATE_EDGES = (
    0, -1, 1,
    days(1582, 10, 15), days(1582, 10, 14),  # the first Gregorian day, the day before
    days(1582, 10, 4), days(1582, 10, 5),  # the hybrid calendar skips the 5th to the 14th
    days(1000, 2, 28), days(1000, 3, 1),  # a Julian leap year, not a Gregorian one
    days(1, 1, 1), days(9999, 12, 31), days(1899, 12, 31), days(2015, 1, 1),
    *int_range(32, True),
)
# Years 1 to 9999: what most date libraries hold.
COMMON_DATES = st.integers(days(1, 1, 1), days(9999, 12, 31))

NANOS_PER_SECOND = 10**9
SECONDS_PER_DAY = 86_400
ORC_TIMESTAMP_BASE_S = days(2015, 1, 1) * SECONDS_PER_DAY  # 'Timestamp Columns'
TIMESTAMP_MIN, TIMESTAMP_MAX = int_range(64, True)  # the ends of 64-bit nanoseconds
# ORC holds 64-bit seconds from 2015 ('Timestamp Columns'): years 1 to 9999 and beyond.
SECONDS_MIN, SECONDS_MAX = days(1, 1, 1) * SECONDS_PER_DAY, days(9999, 12, 31) * SECONDS_PER_DAY
# Sub-second parts: the writer drops trailing decimal zeros and counts them ('Timestamp
# Columns'), so 1, 10, ..., 10^8 are each a different count.
FRACTIONS = st.one_of(st.sampled_from([0, 1, 999_999_999, 500_000_000,
                                       *(10**k for k in range(1, 9)), 123_456_789]),
                      st.integers(0, NANOS_PER_SECOND - 1))
SECONDS = st.one_of(st.sampled_from([0, -1, -2, ORC_TIMESTAMP_BASE_S, ORC_TIMESTAMP_BASE_S - 1,
                                     days(1900, 1, 1) * SECONDS_PER_DAY,
                                     days(1582, 10, 14) * SECONDS_PER_DAY]),
                    st.integers(SECONDS_MIN, SECONDS_MAX))
# The catalogue's writer-zone moments, each as its wall clock and as its instant: whatever
# zone a case is drawn with, DST edges of some zone are among its values.
ZONE_EDGES = tuple(sorted({v for _, moments in ZONE_MOMENTS.values() for m in moments
                           for v in moment_wall_and_instant(m)}))
TIMESTAMPS = st.one_of(
    # The second before 1970 (-1 ns, -0.5 s) and the ends of 64-bit nanoseconds.
    st.sampled_from([TIMESTAMP_MIN, TIMESTAMP_MAX, 1, -1, -NANOS_PER_SECOND // 2]),
    st.sampled_from(ZONE_EDGES),
    st.builds(lambda s, ns: s * NANOS_PER_SECOND + ns, SECONDS, FRACTIONS))

FLOAT_SPECIALS = (0.0, -0.0, float("inf"), float("-inf"), float("nan"))
# NaNs other than the quiet NaN, by width: signalling, quiet with a payload, negative,
# all payload bits set. Uniform bit patterns are rarely NaNs, so these are drawn as edges.
NAN_EDGE_BITS = {32: (0x7F800001, 0x7FC00001, 0xFFC00000, 0x7FFFFFFF),
                 64: (0x7FF0000000000001, 0x7FF8000000000001, 0xFFF8000000000000,
                      0x7FFFFFFFFFFFFFFF)}
UINT_DTYPES = {32: np.uint32, 64: np.uint64}
# The smallest and largest subnormal, the smallest normal and the largest finite value, by
# width, with both signs: bounds a statistic must hold exactly ('Column Statistics').
FINITE_EDGE_BITS = {32: (0x00000001, 0x007FFFFF, 0x00800000, 0x7F7FFFFF),
                    64: (0x0000000000000001, 0x000FFFFFFFFFFFFF, 0x0010000000000000,
                         0x7FEFFFFFFFFFFFFF)}


def _float_of_bits(bits: int, width: int) -> float:
    """The canonical double of an IEEE bit pattern (a NaN keeps its sign and payload)."""
    return widen_float_bits(np.array([bits], dtype=UINT_DTYPES[width]), width)[0]


def _floats(width: int) -> st.SearchStrategy[float]:
    """Every bit pattern of a FLOAT or DOUBLE, its edges first."""
    finite = [_float_of_bits(b, width) for b in FINITE_EDGE_BITS[width]]
    edges = [*FLOAT_SPECIALS, *(_float_of_bits(b, width) for b in NAN_EDGE_BITS[width]),
             *finite, *(-v for v in finite)]
    return st.one_of(st.sampled_from(edges),
                     st.integers(0, 2**width - 1).map(lambda b: _float_of_bits(b, width)))


FLOATS = {width: _floats(width) for width in O.FLOAT_KINDS}


INT64_MIN, INT64_MAX = int_range(64, True)
# DECIMAL precisions where readers change representation: 64-bit unscaled values up to 18
# digits (ORC Java's Decimal64), 19 digits past them, 38 the most ('Decimal Columns').
DECIMAL_EDGE_PRECISIONS = (18, 19, O.MAX_DECIMAL_PRECISION)


def _decimals(t: DataType) -> st.SearchStrategy[int]:
    """Unscaled values: the precision's ends and the 64-bit ends that fit, then any."""
    bound = 10**t.decimal_precision - 1
    edges = [v for v in (bound, -bound, 0, INT64_MAX, INT64_MIN, INT64_MAX + 1, INT64_MIN - 1)
             if abs(v) <= bound]
    return st.one_of(st.sampled_from(edges), st.integers(-bound, bound))


def orc_values(t: DataType) -> st.SearchStrategy | None:
    """ORC's own edges of a scalar type; None: the common edges serve (`values`)."""
    if t.kind == "date":
        return st.one_of(st.sampled_from(DATE_EDGES), COMMON_DATES)
    if t.kind == "timestamp":
        return TIMESTAMPS
    if t.kind == "float":
        return FLOATS[t.bit_width]
    if t.kind == "decimal":
        return _decimals(t)
    return None


HYBRID_GAP = (days(1582, 10, 5), days(1582, 10, 14))  # days the hybrid calendar lacks
# `writable` kept, by calendar and zone: the same one for the same options, so that the value
# strategies built with it are found again (`values` keeps them by it).
WRITABLE_KEPT = 64
NANOS_PER_DAY = SECONDS_PER_DAY * NANOS_PER_SECOND


@functools.lru_cache(maxsize=16)
def _zone(name: str) -> ZoneInfo:
    return ZoneInfo(name)


def wall_clock_exists(wall_nanos: int, zone: str) -> bool:
    """Whether the wall clock is some instant's in `zone` (not in a daylight-saving gap),
    by the zone rules ORC applies (reference_impl/orc/columns/time_zones.py)."""
    z, seconds = _zone(zone), wall_nanos // NANOS_PER_SECOND
    instant = seconds - utc_offset(z, seconds - utc_offset(z, seconds))
    return instant + utc_offset(z, instant) == seconds


def option_edges(t: DataType, calendar: str | None, zone: str | None) -> list[int]:
    """The catalogue's edges of the drawn calendar and writer zone (edge_values.py): the days
    around 1582-10-15 (or the last nanosecond of each), and the zone's moments, as wall
    clocks for TIMESTAMP and instants for TIMESTAMP_INSTANT."""
    edges: list[int] = []
    if calendar is not None:
        dates = BOTH_CALENDARS + (PROLEPTIC_ONLY if calendar == "PROLEPTIC_GREGORIAN" else [])
        edges += dates if t.kind == "date" else [last_nano_of(d) for d in dates]
    if t.kind == "timestamp" and zone in ZONE_MOMENTS:
        _, moments = ZONE_MOMENTS[zone]
        edges += [moment_wall_and_instant(m)[1 if t.utc else 0] for m in moments]
    return edges


def writable(options: OrcWriteOptions) -> Callable[[DataType], st.SearchStrategy | None]:
    """`orc_values` with the edges of `options` often, without what a file of `options`
    cannot hold (the module docstring)."""
    return _writable(options.calendar, options.writer_timezone)


@functools.lru_cache(maxsize=WRITABLE_KEPT)
def _writable(calendar: str | None, zone: str | None) -> Callable[[DataType], st.SearchStrategy | None]:
    def special(t: DataType) -> st.SearchStrategy | None:
        own = orc_values(t)
        if own is None or t.kind not in ("date", "timestamp"):
            return own
        edges = option_edges(t, calendar, zone)
        if edges:
            own = st.one_of(st.sampled_from(edges), own)
        if calendar == "JULIAN_GREGORIAN":
            per_day = 1 if t.kind == "date" else NANOS_PER_DAY
            own = own.filter(lambda v: not HYBRID_GAP[0] <= v // per_day <= HYBRID_GAP[1])
        if zone is not None and t.kind == "timestamp" and not t.utc:
            own = own.filter(lambda v: wall_clock_exists(v, zone))
        return own
    return special


# ---- types --------------------------------------------------------------------------

SCALAR_TYPES: dict[str, st.SearchStrategy[DataType]] = {  # by ORC kind (the type: tag)
    "BOOLEAN": st.just(O.boolean()),
    **{kind: st.just(O.integer(bits)) for bits, kind in O.INTEGER_KINDS.items()},
    **{kind: st.just(O.floating(bits)) for bits, kind in O.FLOAT_KINDS.items()},
    "STRING": st.just(O.string()),
    "BINARY": st.just(O.binary()),
    "CHAR": st.integers(1, MAX_TEXT_LENGTH).map(O.char),
    "VARCHAR": st.integers(1, MAX_TEXT_LENGTH).map(O.varchar),
    "DECIMAL": st.one_of(st.sampled_from(DECIMAL_EDGE_PRECISIONS),
                         st.integers(1, O.MAX_DECIMAL_PRECISION)).flatmap(
        lambda p: st.one_of(st.sampled_from([0, p]), st.integers(0, p)).map(lambda s: O.decimal(p, s))),
    "DATE": st.just(O.date()),
    "TIMESTAMP": st.just(O.timestamp()),
    "TIMESTAMP_INSTANT": st.just(O.timestamp_instant()),
}


def scalar_types(supports: Supports = everything) -> st.SearchStrategy[DataType]:
    return st.one_of(*(s for kind, s in SCALAR_TYPES.items() if supports(f"type:{kind}")))


def _structs(children: st.SearchStrategy[DataType]) -> st.SearchStrategy[DataType]:
    # No field at all too: nothing in 'Type Information' asks a STRUCT for one.
    fields = st.lists(st.builds(Field, FIELD_NAMES, children, st.booleans()),
                      max_size=MAX_FIELDS, unique_by=lambda f: f.name)
    return fields.map(lambda fs: O.struct_of(*fs))


def column_types(supports: Supports = everything) -> st.SearchStrategy[DataType]:
    """Any nesting of the compound types the pair supports over its scalar types."""
    leaves = scalar_types(supports)

    def nest(children: st.SearchStrategy[DataType]) -> st.SearchStrategy[DataType]:
        compound = {
            "LIST": st.builds(O.list_of, children),
            "MAP": st.builds(O.map_of, leaves, children),  # keys: scalars, never null
            "STRUCT": _structs(children),
            "UNION": st.lists(children, min_size=1, max_size=MAX_ALTERNATIVES)
                       .map(lambda ts: O.union_of(*ts)),
        }
        supported = [s for kind, s in compound.items() if supports(f"type:{kind}")]
        return st.one_of(*supported) if supported else children

    wraps = {"LIST": lambda t: st.just(O.list_of(t)),
             "MAP": lambda t: st.builds(O.map_of, leaves, st.just(t)),
             "STRUCT": lambda t: st.builds(lambda name, n: O.struct_of(Field(name, t, n)), FIELD_NAMES,
                                           st.booleans())}
    chains = [w for kind, w in wraps.items() if supports(f"type:{kind}")]
    trees = st.recursive(leaves, nest, max_leaves=MAX_LEAVES)
    return st.one_of(trees, deep_types(leaves, chains, MAX_DEPTH)) if chains else trees


def schemas(supports: Supports = everything) -> st.SearchStrategy[Schema]:
    return _columns(column_types(supports))


@st.composite
def _columns(draw, types: st.SearchStrategy[DataType]) -> Schema:
    names = draw(st.lists(FIELD_NAMES, min_size=1, max_size=MAX_COLUMNS, unique=True))
    return Schema(tuple(Field(f"c{name}", draw(types), draw(st.booleans())) for name in names))


def rows(schema: Schema, options: OrcWriteOptions) -> st.SearchStrategy[tuple[tuple, ...]]:
    """Rows of `schema` a file of `options` can hold."""
    special = writable(options)
    row = st.tuples(*(values(f.type, f.nullable, special) for f in schema))
    # The count first, uniform (a plain list strategy draws mostly empty tables here).
    return st.integers(0, MAX_ROWS).flatmap(lambda n: st.lists(row, min_size=n, max_size=n)).map(tuple)


# ---- write options ------------------------------------------------------------------

Option = TypeVar("Option")


def _choices(draw, options: Sequence[Option], tags: Callable[[Option], tuple[str, ...]],
             supports: Supports) -> Option:
    """One of `options` all of whose feature tags are supported."""
    return draw(st.sampled_from([o for o in options if all(map(supports, tags(o)))]))


def _optional(sizes: st.SearchStrategy[int], tag: str, supports: Supports) -> st.SearchStrategy:
    """None (the writer's default), or one of `sizes` if `tag` may be drawn."""
    return st.one_of(st.none(), sizes) if supports(tag) else st.none()


def _strides(supports: Supports) -> st.SearchStrategy[int | None]:
    """None (the writer's default), 0 (no row index) or a few rows per row group."""
    strides: list[st.SearchStrategy[int | None]] = [st.none()]
    if supports("row_index:none"):
        strides.append(st.just(0))
    if supports("row_index:stride"):
        strides.append(st.integers(1, MAX_SIZE))
    return st.one_of(*strides)


# The catalogue's writer zones (west and east of UTC with daylight saving, one that crossed
# the date line) and UTC named as such.
WRITER_ZONES = (*ZONE_MOMENTS, "UTC")


@st.composite
def write_options(draw, supports: Supports = everything) -> OrcWriteOptions:
    """Every knob of `OrcWriteOptions` but the RLE v2 sub-encoding, which only the
    reference can force."""
    return OrcWriteOptions(
        file_version=_choices(draw, FILE_VERSIONS, lambda v: (f"version:{v}", RLE_TAG[v]), supports),
        codec=_choices(draw, CODECS, lambda c: (f"codec:{c}",), supports),
        compression_block_size=draw(_optional(BLOCK_SIZES, "compression:block_size", supports)),
        stripe_row_limit=draw(_optional(st.integers(1, MAX_SIZE), "stripes:multiple", supports)),
        row_index_stride=draw(_strides(supports)),
        string_encoding=_choices(draw, (None, *STRING_ENCODINGS),
                                 lambda e: (f"encoding:{e}",) if e else (), supports),
        writer_timezone=_choices(draw, (None, *WRITER_ZONES),
                                 lambda z: (WRITER_TIMEZONE_TAG,) if z else (), supports),
        calendar=_choices(draw, (None, *CALENDARS),
                          lambda c: (CALENDAR_TAG.format(c),) if c else (), supports))


# ---- cases --------------------------------------------------------------------------

KIND_SECTIONS = {
    "BOOLEAN": sections.BOOLEAN_COLUMNS, "BYTE": sections.TINYINT_COLUMNS,
    **dict.fromkeys(("SHORT", "INT", "LONG"), sections.INTEGER_COLUMNS),
    **dict.fromkeys(("FLOAT", "DOUBLE"), sections.FLOAT_COLUMNS),
    **dict.fromkeys(("STRING", "CHAR", "VARCHAR"), sections.STRING_COLUMNS),
    "BINARY": sections.BINARY_COLUMNS, "DECIMAL": sections.DECIMAL_COLUMNS,
    "DATE": sections.DATE_COLUMNS,
    **dict.fromkeys(("TIMESTAMP", "TIMESTAMP_INSTANT"), sections.TIMESTAMP_COLUMNS),
    "STRUCT": sections.STRUCT_COLUMNS, "LIST": sections.LIST_COLUMNS,
    "MAP": sections.MAP_COLUMNS, "UNION": sections.UNION_COLUMNS,
}
RLE_SECTIONS = {"0.11": sections.INTEGER_RLE_V1, "0.12": sections.INTEGER_RLE_V2}


def spec_sections(schema: Schema, options: OrcWriteOptions) -> tuple[str, ...]:
    """The spec sections a case exercises: its types, file version, run length
    encoding, compression, stripes, row index, string encoding, writer's zone and
    calendar."""
    kinds = sorted({O.orc_kind(t) for f in schema for t in f.type.walk()})
    found = [sections.TYPE_INFORMATION, *(KIND_SECTIONS[k] for k in kinds),
             sections.FILE_VERSION, RLE_SECTIONS[options.file_version]]
    if options.codec != "NONE":
        found += [sections.COMPRESSION, sections.COMPRESSION_KIND]
    for knob, section in ((options.compression_block_size, sections.COMPRESSION_BLOCK_SIZE),
                          (options.stripe_row_limit, sections.STRIPES),
                          (options.row_index_stride, sections.ROW_GROUP_INDEX),
                          (options.string_encoding, sections.COLUMN_ENCODING_KIND),
                          (options.writer_timezone, sections.WRITER_TIMEZONE),
                          (options.calendar, sections.FOOTER_CALENDAR)):
        if knob is not None:
            found.append(section)
    return tuple(dict.fromkeys(found))


def _title(schema: Schema, options: OrcWriteOptions) -> str:
    columns = ", ".join(f"{f.name}: {f.type.describe()}{'' if f.nullable else ' not null'}"
                        for f in schema)
    return f"ORC property example: {columns}; file version {options.file_version}, {options.codec}"


def cases(supports: Supports = everything) -> st.SearchStrategy[Case]:
    """A whole ORC case: schema, rows and write options, with id ``property/<digest>``."""
    # The schema strategy is built once: building and validating a recursive strategy costs
    # more than drawing from it.
    return _cases(schemas(supports), supports)


@st.composite
def _cases(draw, schemas: st.SearchStrategy[Schema], supports: Supports) -> Case:
    schema = draw(schemas)
    options = draw(write_options(supports))
    case = Case(f"{AREA}/example", _title(schema, options), spec_sections(schema, options), schema,
                draw(rows(schema, options)), options, format=FORMAT)
    return dataclasses.replace(case, id=f"{AREA}/{regression_id(case)}")
