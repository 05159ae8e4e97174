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

from conformance.values import types as T

from ...model import Case
from ...native_values import spark_cases

SPEC_STRING = "LogicalTypes.md: STRING"
SPEC_TYPES = "parquet.thrift: enum Type"
SPEC_INTEGERS = "LogicalTypes.md: Signed Integers"

def cases() -> list[Case]:
    return spark_cases("parquet", T.string(), T.integer(32), T.integer(64),
                       {"string": (SPEC_STRING,), "int32": (SPEC_TYPES, SPEC_INTEGERS),
                        "int64": (SPEC_TYPES, SPEC_INTEGERS)})
