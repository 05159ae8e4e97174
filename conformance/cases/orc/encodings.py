"""Integer, byte, boolean and string encodings, chosen through the data.

Spec: ORCv1.md, 'Run Length Encoding' ('Byte Run Length Encoding', 'Boolean Run Length
Encoding', 'Integer Run Length Encoding, version 1' and version 2 with its sub-encodings
'Short Repeat', 'Direct', 'Patched Base' and 'Delta'); 'String, Char, and VarChar
Columns'; orc_proto.proto ``enum ColumnEncoding.Kind``.

No writer but the reference lets a caller pick an RLE v2 sub-encoding, so each data case
holds values for which the writers' choice is plain (runs of 3 to 10 equal values,
monotonic sequences, one bit width, a few outliers among small values) and is tagged
``rle_v2:<SUB-ENCODING>``; every case is one LONG column of at most 512 values, one run
of the encoder or runs of one kind. The ``-forced`` cases pin the sub-encoding through
``OrcWriteOptions.rle_v2_sub_encoding`` on data for which writers choose another one.
"""

from __future__ import annotations

from collections.abc import Callable

from conformance.values import Field, Schema

from ..model import Case
from . import sections as S
from . import types as T
from .column_types import INT64_MAX, INT64_MIN, single_column, with_nulls
from .options import FILE_VERSIONS, STRING_ENCODINGS, OrcWriteOptions

AREA = "orc/encodings"
RLE_V2_TAG = "rle_v2:"
RUN_VALUES = 300  # fewer than 512, the most values one RLE v2 run holds
OUTLIER_OFFSET = 2**40
PLATEAUS = 80


def pseudo_random(count: int, lo: int, hi: int, seed: int) -> list[int]:
    """``count`` values in [lo, hi), spread by a linear congruential generator (a fixed,
    portable sequence, unlike ``random``'s across versions)."""
    out, x = [], seed
    for _ in range(count):
        x = (x * 6_364_136_223_846_793_005 + 1_442_695_040_888_963_407) % 2**64
        out.append(lo + (x >> 16) % (hi - lo))
    return out


def short_repeat_runs() -> list[int]:
    """Runs of 3 to 10 equal values, whose zigzag forms take 1 to 8 bytes."""
    runs = [(5, 3), (-5, 4), (10_000, 5), (-(2**20), 6), (2**31, 7), (-(2**40), 8),
            (2**55, 9), (INT64_MIN, 10), (INT64_MAX, 3)]
    return [value for value, count in runs for _ in range(count)]


def _walk(start: int, direction: int, seed: int) -> list[int]:
    """From ``start``, steps of 1 to 999 in ``direction`` (+1 or -1)."""
    values, x = [], start
    for step in pseudo_random(RUN_VALUES, 1, 1_000, seed):
        x += direction * step
        values.append(x)
    return values


def delta_increasing() -> list[int]:
    """Strictly increasing by deltas of several bit widths: DELTA with a delta width."""
    return _walk(10**12, 1, seed=1)


def delta_decreasing() -> list[int]:
    """Strictly decreasing through zero into the negatives (a negative delta base)."""
    return _walk(50_000, -1, seed=6)


def delta_fixed_step() -> list[int]:
    """An arithmetic sequence: DELTA with delta width 0 (every delta is the delta base)."""
    return list(range(-1_000, -1_000 + 7 * RUN_VALUES, 7))


def delta_constant_run() -> list[int]:
    """More equal values than Short Repeat holds: DELTA with a delta base of 0."""
    return [-123_456_789] * RUN_VALUES


def direct_one_width() -> list[int]:
    """Unordered values whose zigzag forms all take 32 bits."""
    return pseudo_random(RUN_VALUES, 2**30, 2**31, seed=2)


def direct_64_bit() -> list[int]:
    """Unordered values of both signs whose zigzag forms all take 64 bits."""
    magnitudes = pseudo_random(RUN_VALUES, 2**62, 2**63, seed=3)
    return [m if i % 2 else -m for i, m in enumerate(magnitudes)]


def patched_base_outliers() -> list[int]:
    """Small unordered values with three outliers of 40 bits: the outliers become patches."""
    values = pseudo_random(RUN_VALUES, 0, 128, seed=4)
    for position, outlier in ((40, 2**40 + 1), (150, 2**40 + 12_345), (290, 2**39 + 7)):
        values[position] = outlier
    return values


def offset_outliers() -> list[int]:
    """``patched_base_outliers`` moved up by 2**40: subtracting the base would leave small
    values and patches, but writers decide on the zigzag widths, all 42 or 43 bits."""
    return [OUTLIER_OFFSET + v for v in patched_base_outliers()]


def plateaus() -> list[int]:
    """Non-decreasing, with plateaus of 1 to 4 equal values after a first step: writers cut
    it into Short Repeat and short variable runs; as a whole it is one Delta run."""
    values, x = [], 0
    for k in range(PLATEAUS):
        x += 1 + k % 5
        values += [x] * (1 + k % 4)
    return values


def patched_base_spec_example() -> list[int]:
    """ORCv1.md, 'Patched Base': the section's own sequence, one outlier of 1,000,000."""
    return [2030, 2000, 2020, 1_000_000, *range(2040, 2200, 10)]


# Each entry: (case name, the sub-encoding the data makes writers choose, its values).
RLE_V2_DATA: list[tuple[str, str, Callable[[], list[int]]]] = [
    ("short-repeat", "SHORT_REPEAT", short_repeat_runs),
    ("delta-increasing", "DELTA", delta_increasing),
    ("delta-decreasing", "DELTA", delta_decreasing),
    ("delta-fixed-step", "DELTA", delta_fixed_step),
    ("delta-constant-run", "DELTA", delta_constant_run),
    ("direct", "DIRECT", direct_one_width),
    ("direct-64-bit", "DIRECT", direct_64_bit),
    ("patched-base", "PATCHED_BASE", patched_base_outliers),
    ("patched-base-spec-example", "PATCHED_BASE", patched_base_spec_example),
]

# Forced sub-encoding -> data for which writers choose another one.
FORCED_DATA: dict[str, Callable[[], list[int]]] = {
    "SHORT_REPEAT": delta_constant_run,  # writers: DELTA; forced: runs of 10
    "DIRECT": patched_base_outliers,  # writers: PATCHED_BASE; forced: every value 42 bits wide
    "PATCHED_BASE": offset_outliers,  # writers: DIRECT; forced: base 2**40 and patches
    "DELTA": plateaus,  # writers: SHORT_REPEAT and DIRECT; forced: deltas of 0 in a run
}


def _rle_v2_spec(sub_encoding: str) -> tuple[str, ...]:
    return (S.INTEGER_COLUMNS, S.INTEGER_RLE_V2, S.RLE_V2_SUB_ENCODINGS[sub_encoding])


def _rle_v2_cases() -> list[Case]:
    cases = [single_column(f"{AREA}/rle-v2-{name}", f"LONG values writers encode as RLE v2 "
                           f"{sub}", T.integer(64), make(), _rle_v2_spec(sub),
                           extra=(f"{RLE_V2_TAG}{sub}",))
             for name, sub, make in RLE_V2_DATA]
    for sub, make in FORCED_DATA.items():
        cases.append(single_column(
            f"{AREA}/rle-v2-{sub.lower().replace('_', '-')}-forced",
            f"LONG values the reference writes as RLE v2 {sub}, whatever fits better",
            T.integer(64), make(), _rle_v2_spec(sub),
            OrcWriteOptions(rle_v2_sub_encoding=sub), extra=(f"{RLE_V2_TAG}{sub}",)))
    return cases


def _v1_runs_and_literals() -> list[int]:
    """ORCv1.md's RLE v1 examples (100 sevens, 100 down to 1, literals 2 3 6 7 11), a run
    longer than the 130 values one run holds, and more than 128 literals in a row."""
    return ([7] * 100 + list(range(100, 0, -1)) + [2, 3, 6, 7, 11] + [-1] * 200
            + pseudo_random(200, -(2**40), 2**40, seed=5))


_V1_STREAMS = Schema((
    Field("small", T.integer(32)), Field("text", T.string()), Field("day", T.date()),
    Field("moment", T.timestamp()), Field("amount", T.decimal(12, 3)),
    Field("items", T.list_of(T.integer(16)))))


def _v1_stream_rows() -> tuple[tuple[object, ...], ...]:
    """Every kind of integer stream in RLE v1: DATA, LENGTH, SECONDARY (nanoseconds and
    decimal scales) and a list's LENGTH."""
    return tuple((i - 50, f"row {i}" * (i % 4), 19_000 - i, i * 1_000_000_007 - 10**12,
                  i * 12_345 - 500_000, list(range(i % 5)))
                 for i in range(100))


def _rle_v1_cases() -> list[Case]:
    v1 = OrcWriteOptions(file_version="0.11")
    return [
        single_column(f"{AREA}/rle-v1-runs-and-literals", "LONG in RLE v1: runs, fixed-delta "
                      "runs and literal groups of every length", T.integer(64),
                      _v1_runs_and_literals(), (S.INTEGER_COLUMNS, S.INTEGER_RLE_V1,
                                                S.FILE_VERSION), v1),
        Case(f"{AREA}/rle-v1-every-stream", "file version 0.11: every integer stream in RLE v1",
             (S.INTEGER_RLE_V1, S.STRING_COLUMNS, S.DATE_COLUMNS, S.TIMESTAMP_COLUMNS,
              S.DECIMAL_COLUMNS, S.LIST_COLUMNS, S.FILE_VERSION),
             _V1_STREAMS, _v1_stream_rows(), v1, format="orc"),
    ]


def _byte_and_boolean_cases() -> list[Case]:
    # ORCv1.md, 'Byte Run Length Encoding': a hundred 0s, then 0x44 0x45 as literals; runs
    # and literal groups past their longest (130 and 128 bytes).
    tinyints = ([0] * 100 + [0x44, 0x45] + [-128] * 300
                + [v % 256 - 128 for v in range(200)])
    booleans = [True] * 100 + [False] * 37 + [i % 3 == 0 for i in range(200)]
    return [
        single_column(f"{AREA}/byte-rle", "BYTE in Byte RLE: runs and literals past their "
                      "longest", T.integer(8), tinyints, (S.TINYINT_COLUMNS, S.BYTE_RLE)),
        single_column(f"{AREA}/boolean-rle", "BOOLEAN in Boolean RLE: long runs, patterns, "
                      "nulls (the PRESENT stream too)", T.boolean(), with_nulls(booleans),
                      (S.BOOLEAN_COLUMNS, S.BOOLEAN_RLE)),
    ]


def _few_distinct_strings() -> list[str | None]:
    pool = ["", "Nevada", "California", "Florida", "ünïcødé", "日本語"]
    return [None if i % 11 == 5 else pool[i * 7 % len(pool)] for i in range(RUN_VALUES)]


def _string_cases() -> list[Case]:
    cases = []
    for version in FILE_VERSIONS:
        for encoding in STRING_ENCODINGS:
            rle = S.INTEGER_RLE_V1 if version == "0.11" else S.INTEGER_RLE_V2
            cases.append(single_column(
                f"{AREA}/string-{encoding.lower()}-v{version}",
                f"STRING with few distinct values, {encoding} encoding, file version {version}",
                T.string(), _few_distinct_strings(),
                (S.STRING_COLUMNS, S.COLUMN_ENCODING_KIND, rle),
                OrcWriteOptions(file_version=version, string_encoding=encoding)))
    return cases


def cases() -> list[Case]:
    return _rle_v2_cases() + _rle_v1_cases() + _byte_and_boolean_cases() + _string_cases()
