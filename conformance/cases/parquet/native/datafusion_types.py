"""Cases of Arrow types written to Parquet by DataFusion (arrow-rs) (conformance.cases.native).

Each column's Arrow form is cast to an Arrow type of arrow-rs's own before DataFusion
writes it; the rows are the values the file must hold (docs/canonical-values.md), per
the Parquet text for the form arrow-rs gives the type (its documented Arrow -> Parquet
mapping, measured in the footer):

- dictionary<int32, T>, Utf8View, LargeUtf8 hold T or text: STRING (LogicalTypes.md,
  'STRING'); BinaryView and LargeBinary hold bytes: BYTE_ARRAY (parquet.thrift,
  'enum Type').
- fixed_size_list is a list (LogicalTypes.md, 'Lists').
- decimal256(76, s) is DECIMAL(76, s) on FIXED_LEN_BYTE_ARRAY(32) (LogicalTypes.md,
  'DECIMAL').
- duration has no Parquet logical type (LogicalTypes.md, 'Temporal Types'): the file
  holds the counts of microseconds as INT64.
- date64 holds dates (Arrow: milliseconds since the epoch, whole days): the file must
  hold DATE (LogicalTypes.md, 'DATE'). arrow-rs writes it otherwise (measured: unannotated
  INT64 milliseconds), so the dates are lost to every reader: that is DataFusion's
  finding, and the expected values stay the dates.
"""

from __future__ import annotations

from conformance.values import types as T

from ...model import Case
from ...native_columns import native_cases_of

ENGINE = "datafusion"
STRING_SPEC = "LogicalTypes.md: STRING"
BYTES_SPEC = "parquet.thrift: enum Type"
INLINE_VIEW_BYTES = 12  # an Arrow view holds a value of up to 12 bytes inline, longer ones by reference
DECIMAL256_MAX_PRECISION = 76
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
DAYS_9999_12_31 = 2932896  # days from 1970-01-01 to 9999-12-31
DAYS_0001_01_01 = -719162  # days from 1970-01-01 to 0001-01-01



_case = native_cases_of(ENGINE)

def _text() -> list[str | None]:
    """Edge text: empty, NUL inside, the largest code point, values at and across the
    12-byte inline limit of a view, repeats and nulls."""
    inline, beyond = "x" * INLINE_VIEW_BYTES, "y" * (INLINE_VIEW_BYTES + 1)
    return ["", "a\x00b", "\U0010ffff", inline, beyond, inline + "\U0010ffff", None, "", inline]


def _bytes() -> list[bytes | None]:
    return [b"", b"\x00", b"\xff" * INLINE_VIEW_BYTES, b"\x00" * (INLINE_VIEW_BYTES + 1),
            b"\xff" * (INLINE_VIEW_BYTES + 1), None, b"\x00" * INLINE_VIEW_BYTES + b"\x01"]


def cases() -> list[Case]:
    return [
        _case("dictionary-string", "Dictionary", "dictionary<int32, utf8>: edge text, repeats, "
              "nulls", (STRING_SPEC,), T.string(), _text()),
        _case("dictionary-int64", "Dictionary", "dictionary<int32, int64>: int64 extremes",
              ("LogicalTypes.md: Signed Integers",), T.integer(64),
              [INT64_MIN, INT64_MAX, None, INT64_MIN, 0]),
        _case("utf8-view", "Utf8View", "Utf8View: values inline and by reference",
              (STRING_SPEC,), T.string(), _text()),
        _case("binary-view", "BinaryView", "BinaryView: values inline and by reference, zero "
              "and 0xFF bytes", (BYTES_SPEC,), T.binary(), _bytes()),
        _case("large-utf8", "LargeUtf8", "LargeUtf8: edge text", (STRING_SPEC,), T.string(),
              _text()),
        _case("large-binary", "LargeBinary", "LargeBinary: edge bytes", (BYTES_SPEC,),
              T.binary(), _bytes()),
        _case("fixed-size-list", "FixedSizeList", "fixed_size_list<int32, 3>: nulls inside, a "
              "null list", ("LogicalTypes.md: Lists",), T.list_of(T.integer(32)),
              [[1, None, 3], None, [None, None, None], [-(2**31), 2**31 - 1, 0]]),
        _case("decimal256", "Decimal256", "decimal256(76, 0): the largest and smallest values",
              ("LogicalTypes.md: DECIMAL",), T.decimal(DECIMAL256_MAX_PRECISION, 0),
              [10**76 - 1, -(10**76 - 1), 0, None, 1]),
        _case("duration", "Duration", "duration(us): INT64 counts, int64 extremes",
              ("LogicalTypes.md: Temporal Types", BYTES_SPEC), T.integer(64),
              [INT64_MIN, INT64_MAX, 0, -1, None]),
        _case("date64", "Date64", "date64: years 1 and 9999, around the epoch",
              ("LogicalTypes.md: DATE",), T.date(),
              [DAYS_0001_01_01, DAYS_9999_12_31, -1, 0, 1, None]),
    ]
