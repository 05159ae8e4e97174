"""Values the native-type cases of one engine share between the formats
(conformance.cases.native): pyarrow's Arrow layouts and Spark's own types are written to
Parquet (conformance/cases/parquet/native) and to ORC (conformance/cases/orc/native) with
the same edge values."""

from __future__ import annotations

from conformance.values import DataType
from conformance.values.codec import int_range

from .model import Case
from .native_columns import native_case
from .value_edges import MAX_CODE_POINT

# Arrow's view layouts keep a value of up to 12 bytes inline in its view and a longer one in
# a data buffer (Arrow Columnar Format, 'Variable-size Binary View Layout').
VIEW_INLINE_BYTES = 12
INT32_MIN, INT32_MAX = int_range(32, True)
INT64_MIN, INT64_MAX = int_range(64, True)
FIXED_LIST_LENGTH = 3

STRINGS = ["", "a\x00b", MAX_CODE_POINT, "x" * VIEW_INLINE_BYTES, "y" * (VIEW_INLINE_BYTES + 1),
           None, "é", "e\u0301", "ab", "ac"]
BYTES = [b"", b"\x00", b"\x00" * (VIEW_INLINE_BYTES + 1), b"\xff" * VIEW_INLINE_BYTES, None,
         b"ab\x00", b"ab\x01", b"\x00ab"]
LISTS = [[1, None, 2], [], None, [INT64_MIN, INT64_MAX], [None], list(range(20))]

CHAR_LENGTH = 5
# Spark's intervals span their storage: INTERVAL '-178956970-8' YEAR TO MONTH is -2^31
# months (INT32_MIN), and a DAY TO SECOND interval any INT64 count of microseconds (measured).
MICROS_PER_DAY = 86_400_000_000

CHARS = ["ab".ljust(CHAR_LENGTH), " " * CHAR_LENGTH, "äöü".ljust(CHAR_LENGTH), None, "abcde",
         "日本".ljust(CHAR_LENGTH)]
VARCHARS = ["ab", "", "äöüßé", None, "ab  ", " a", "日本語"]


def spark_cases(file_format: str, string: DataType, int32: DataType, int64: DataType,
                spec: dict[str, tuple[str, ...]]) -> list[Case]:
    """The Spark native cases of one format, its types and sections given."""
    return [
        native_case("spark:CHAR", f"CHAR({CHAR_LENGTH}): values padded to its length, empty, "
                    "multibyte, full, nulls", spec["string"], string, CHARS, file_format),
        native_case("spark:VARCHAR", "VARCHAR(5): empty, trailing and leading spaces, multibyte "
                    "at the length limit, nulls", spec["string"], string, VARCHARS, file_format),
        native_case("spark:YEAR_MONTH_INTERVAL", "INTERVAL YEAR TO MONTH as months: its minimum "
                    "and maximum, a year, minus a month, nulls", spec["int32"], int32,
                    [INT32_MIN, INT32_MAX, 0, 12, -1, None], file_format),
        native_case("spark:DAY_TIME_INTERVAL", "INTERVAL DAY TO SECOND as microseconds: its "
                    "minimum and maximum, a day, minus a microsecond, nulls", spec["int64"], int64,
                    [INT64_MIN, INT64_MAX, 0, MICROS_PER_DAY, -1, None], file_format),
    ]
