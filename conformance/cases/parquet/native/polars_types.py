"""Cases of polars' own dtypes written to Parquet by polars (conformance.cases.native).

Each column is cast to a polars dtype before polars writes it; the rows are the values the
file must hold (docs/canonical-values.md), per the Parquet text for the form polars
documents or measurably writes for that dtype:

- Categorical and Enum hold text: STRING (LogicalTypes.md, 'STRING'); polars' Enum is
  not Parquet's ENUM (its write_parquet names no mapping; measured: STRING).
- Array (fixed width) is a list: LogicalTypes.md, 'Lists'.
- Decimal at polars' maximum precision, 38, is DECIMAL(38, s) on FIXED_LEN_BYTE_ARRAY(16)
  (LogicalTypes.md, 'DECIMAL': 16 bytes hold floor(log10(2^127 - 1)) = 38 digits).
- Duration has no Parquet logical type (LogicalTypes.md, 'Temporal Types' has DATE, TIME,
  TIMESTAMP and INTERVAL only): the file holds the counts of microseconds as INT64.
- Int128 and UInt128 hold integers of 39 digits; the Parquet type that holds them is
  DECIMAL(39, 0) on FIXED_LEN_BYTE_ARRAY(17) (LogicalTypes.md, 'DECIMAL'; 'Signed
  Integers' stops at 64 bits). polars writes them otherwise (measured: unannotated
  FIXED_LEN_BYTE_ARRAY(16), little-endian), so the integers are lost to every reader:
  that is polars' finding, and the expected values stay the integers.
"""

from __future__ import annotations

from conformance.values import types as T

from ...model import Case
from ...native_columns import native_cases_of

ENGINE = "polars"
DECIMAL_SPEC = "LogicalTypes.md: DECIMAL"
STRING_SPEC = "LogicalTypes.md: STRING"
LIST_SPEC = "LogicalTypes.md: Lists"

POLARS_DECIMAL_MAX_PRECISION = 38  # polars' Decimal is 128-bit ("too large to fit in Decimal128")
WIDE_INTEGER_PRECISION = 39  # digits of 2^127 - 1 and of 2^128 - 1
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
INT128_MIN, INT128_MAX = -(2**127), 2**127 - 1
UINT128_MAX = 2**128 - 1
MANY_CATEGORIES = 300  # more than a byte of category codes



_case = native_cases_of(ENGINE)

def _text_values() -> list[str | None]:
    """Edge text: empty, NUL inside, the largest code point, a combining sequence, values
    that sort differently as bytes and as code points, repeats and nulls."""
    return ["", "a\x00b", "\U0010ffff", "e\u0301", "\uffff", "\U00010000", None, "a", "a", None]


def cases() -> list[Case]:
    many = [f"c{i:03d}" for i in range(MANY_CATEGORIES)]
    return [
        _case("categorical", "Categorical", "polars Categorical: edge text, repeats and nulls",
              (STRING_SPEC,), T.string(), _text_values()),
        _case("categorical-many", "Categorical", f"polars Categorical of {MANY_CATEGORIES} "
              "categories", (STRING_SPEC,), T.string(), [*many, None, *reversed(many)]),
        _case("enum", "Enum", "polars Enum: edge text, repeats and nulls (Parquet STRING, not "
              "ENUM)", (STRING_SPEC, "LogicalTypes.md: ENUM"), T.string(), _text_values()),
        _case("enum-many", "Enum", f"polars Enum of {MANY_CATEGORIES} categories",
              (STRING_SPEC,), T.string(), [*many, None, *many]),
        _case("array", "Array", "polars Array(Int32, 3): nulls inside, a null array, extremes",
              (LIST_SPEC,), T.list_of(T.integer(32)),
              [[1, None, 3], None, [None, None, None], [-(2**31), 2**31 - 1, 0]]),
        _case("array-width-0", "Array", "polars Array(Int32, 0): empty lists and a null",
              (LIST_SPEC,), T.list_of(T.integer(32)), [[], None, []]),
        _case("decimal-38", "Decimal", "polars Decimal(38, 0) at its maximum precision: "
              "the largest and smallest unscaled values", (DECIMAL_SPEC,),
              T.decimal(POLARS_DECIMAL_MAX_PRECISION, 0),
              [10**38 - 1, -(10**38 - 1), 0, None, 1, -1]),
        _case("decimal-38-38", "Decimal", "polars Decimal(38, 38): scale = precision",
              (DECIMAL_SPEC,), T.decimal(POLARS_DECIMAL_MAX_PRECISION, POLARS_DECIMAL_MAX_PRECISION),
              [10**38 - 1, -(10**38 - 1), 1, None]),
        _case("duration", "Duration", "polars Duration(us): INT64 counts, int64 extremes",
              ("LogicalTypes.md: Temporal Types", "parquet.thrift: enum Type"), T.integer(64),
              [INT64_MIN, INT64_MAX, 0, -1, 1, None]),
        _case("int128", "Int128", "polars Int128: extremes beyond 38 digits and beyond 64 bits",
              (DECIMAL_SPEC, "LogicalTypes.md: Signed Integers"),
              T.decimal(WIDE_INTEGER_PRECISION, 0),
              [INT128_MIN, INT128_MAX, 2**64, -(2**64) - 1, 0, None]),
        _case("uint128", "UInt128", "polars UInt128: above the signed maximum, up to 2^128 - 1",
              (DECIMAL_SPEC, "LogicalTypes.md: Unsigned Integers"),
              T.decimal(WIDE_INTEGER_PRECISION, 0),
              [UINT128_MAX, INT128_MAX + 1, 2**64, 0, None]),
    ]
