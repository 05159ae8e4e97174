"""Spark's own types written to ORC (conformance.cases.native), read by every reader.

Spark writes its types as ORC types of what it stores, keeping its own type only in the
type attribute `spark.sql.catalyst.type` (measured with Spark 4.3): CHAR(n) and
VARCHAR(n) as STRING (not ORC's CHAR or VARCHAR), a CHAR value padded to n; INTERVAL YEAR
TO MONTH as INT (months), INTERVAL DAY TO SECOND as LONG (microseconds) (ORCv1.md, 'Type
Information'). The values are the Parquet cases' (conformance/cases/parquet/native/
spark_types.py).
"""

from __future__ import annotations

from ...model import Case
from ...native_values import spark_cases
from .. import sections as S
from .. import types as O


def cases() -> list[Case]:
    integers = (S.TYPE_INFORMATION, S.INTEGER_COLUMNS)
    return spark_cases("orc", O.string(), O.integer(32), O.integer(64),
                       {"string": (S.TYPE_INFORMATION, S.STRING_COLUMNS), "int32": integers,
                        "int64": integers})
