"""Spark's own types written to Parquet (conformance.cases.native), read by every reader.

Spark keeps its own type only in its row metadata (`org.apache.spark.sql.parquet.row.
metadata`); the Parquet column is what Spark stores (measured with Spark 4.3;
conformance/engines/spark_values.py, `native_column`):

- CHAR(n) and VARCHAR(n) are STRING columns (LogicalTypes.md, 'STRING'); a CHAR(n)
  value is stored padded with spaces to n characters (Spark SQL reference, 'Data Types':
  "Reading column of type CharType(n) always returns string values of length n"), so the
  case's CHAR values are the padded ones.
- INTERVAL YEAR TO MONTH is an unannotated INT32 of months, INTERVAL DAY TO SECOND an
  unannotated INT64 of microseconds (parquet.thrift, 'enum Type'): not Parquet's INTERVAL
  (LogicalTypes.md, 'INTERVAL'), so a reader reads them as integers.
"""

from __future__ import annotations

from conformance.values import DataType
from conformance.values import types as T

from ...model import Case
from ...native_columns import native_case

SPEC_STRING = "LogicalTypes.md: STRING"
SPEC_TYPES = "parquet.thrift: enum Type"
SPEC_INTEGERS = "LogicalTypes.md: Signed Integers"

CHAR_LENGTH = 5
# Spark's intervals span their storage: INTERVAL '-178956970-8' YEAR TO MONTH is -2^31
# months, and a DAY TO SECOND interval any INT64 count of microseconds (measured).
INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
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


def cases() -> list[Case]:
    return spark_cases("parquet", T.string(), T.integer(32), T.integer(64),
                       {"string": (SPEC_STRING,), "int32": (SPEC_TYPES, SPEC_INTEGERS),
                        "int64": (SPEC_TYPES, SPEC_INTEGERS)})
