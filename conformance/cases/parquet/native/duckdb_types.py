"""DuckDB's own types written to Parquet (conformance.cases.native), read by every reader.

DuckDB's Parquet writer maps each of these to a Parquet type (measured with DuckDB 2.0.1;
the adapter, conformance/engines/parquet/duckdb_engine.py, says how each is written):

- HUGEINT and UHUGEINT (128-bit integers) hold integers; their lossless Parquet form is
  an integer DECIMAL (LogicalTypes.md, 'DECIMAL': "used to represent arbitrary-precision
  signed decimal numbers"), here DECIMAL(39, 0) on FIXED_LEN_BYTE_ARRAY(17), which holds
  both types' whole range. DuckDB writes them as DOUBLE (duckdb/duckdb issue 21180), which
  keeps 53 bits: every reader's mismatch on these cases is DuckDB's finding.
- ARRAY (fixed-size list) is a LIST (LogicalTypes.md, 'Lists').
- UNION is, per DuckDB's docs ('Union Type'), a STRUCT keeping the tag as its first entry
  then one member per alternative (LogicalTypes.md, 'Nested Types'); the member the tag
  names holds the value, the others are null. The docs do not name the tag's field and the
  Parquet text leaves a group's field names to its writer: the case takes DuckDB's name for
  it, `element1` (TAG_FIELD, measured), so that readers are judged on the values.
- ENUM is a STRING (LogicalTypes.md, 'STRING'): DuckDB writes its values, not its codes.
"""

from __future__ import annotations

from conformance.values import Field
from conformance.values import types as T

from ...model import Case
from ...native_columns import native_case

SPEC_DECIMAL = "LogicalTypes.md: DECIMAL"
SPEC_LISTS = "LogicalTypes.md: Lists"
SPEC_NESTED = "LogicalTypes.md: Nested Types"
SPEC_STRING = "LogicalTypes.md: STRING"
TAG_FIELD = "element1"  # the name DuckDB's writer gives a UNION's tag field (measured, DuckDB 2.0.1)

INT128_MIN, INT128_MAX = -(2**127), 2**127 - 1
UINT128_MAX = 2**128 - 1
UINT64_LIMIT = 2**64  # the first integer a 64-bit type cannot hold
# DECIMAL(39, 0): 39 digits hold every 128-bit integer, signed or not; 17 bytes hold 39 digits.
INT128_DIGITS = 39
INTEGER_DECIMAL = T.decimal(INT128_DIGITS, 0, "FIXED_LEN_BYTE_ARRAY")
ARRAY_LENGTH = 3
INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
ENUM_MEMBERS = 300  # beyond 256: DuckDB's ENUM codes outgrow one byte


def cases() -> list[Case]:
    return [_hugeint(), _uhugeint(), _array(), _union(), _enum()]


def _hugeint() -> Case:
    return native_case("duckdb:HUGEINT", "HUGEINT: its minimum and maximum, beyond 2^64 both ways, "
                       "the 53-bit boundary of a DOUBLE, nulls", (SPEC_DECIMAL,), INTEGER_DECIMAL,
                       [0, INT128_MIN, INT128_MAX, UINT64_LIMIT, -UINT64_LIMIT - 1, 2**53 + 1,
                        None, -1, 10**38])


def _uhugeint() -> Case:
    return native_case("duckdb:UHUGEINT", "UHUGEINT: zero, 2^64, above the signed 128-bit maximum, "
                       "its maximum, nulls", (SPEC_DECIMAL,), INTEGER_DECIMAL,
                       [0, UINT64_LIMIT, INT128_MAX + 1, UINT128_MAX, None, 2**53 + 1])


def _array() -> Case:
    return native_case("duckdb:ARRAY", f"INTEGER[{ARRAY_LENGTH}] (fixed-size ARRAY): null arrays, "
                       "null elements, INT32 bounds", (SPEC_LISTS,), T.list_of(T.integer(32)),
                       [[1, 2, 3], [None, INT32_MIN, INT32_MAX], None, [0, 0, 0], [None] * 3])


def _union() -> Case:
    union = T.struct_of(Field(TAG_FIELD, T.integer(8, signed=False), True),
                        Field("i", T.integer(32), True), Field("s", T.string(), True))
    return native_case("duckdb:UNION", "UNION(i INTEGER, s VARCHAR): switching members row by row, "
                       "a member holding null, a null union", (SPEC_NESTED,), union,
                       [{TAG_FIELD: 0, "i": 5, "s": None}, {TAG_FIELD: 1, "i": None, "s": "x"},
                        None, {TAG_FIELD: 0, "i": None, "s": None}, {TAG_FIELD: 1, "i": None, "s": ""},
                        {TAG_FIELD: 0, "i": INT32_MIN, "s": None}])


def _enum() -> Case:
    members = [f"member-{i:03d}" for i in range(ENUM_MEMBERS)]
    values = [members[i * 7 % ENUM_MEMBERS] if i % 11 else None for i in range(2 * ENUM_MEMBERS)]
    return native_case("duckdb:ENUM", f"ENUM of {ENUM_MEMBERS} members (codes wider than a byte), "
                       "nulls", (SPEC_STRING,), T.string(), values)
