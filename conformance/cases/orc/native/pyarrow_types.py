"""pyarrow's own Arrow types written to ORC (conformance.cases.native), read by every reader.

ORC C++ (inside pyarrow) takes five of pyarrow's native types (the others it refuses:
conformance/engines/orc/pyarrow_orc.py, `ORC_NATIVE`) and writes each as the ORC type of
its values (measured with pyarrow 26): large_string as STRING, large_binary as BINARY,
large_list and fixed_size_list as LIST, a map with keys_sorted as MAP (ORCv1.md, 'Type
Information'). The values are the Parquet cases' (conformance/cases/parquet/native/
pyarrow_types.py).
"""

from __future__ import annotations

from ...model import Case
from ...native_columns import native_case
from ...native_values import BYTES, FIXED_LIST_LENGTH, INT64_MAX, INT64_MIN, LISTS, STRINGS
from .. import sections as S
from .. import types as O


def _orc_case(spec_type: str, title: str, section: str, column_type, values) -> Case:
    return native_case(spec_type, title, (S.TYPE_INFORMATION, section), column_type, values, "orc")


def cases() -> list[Case]:
    return [
        _orc_case("pyarrow:LARGE_STRING", "large_string (64-bit offsets): empty, NUL inside, the "
                  "largest code point, combining sequences", S.STRING_COLUMNS, O.string(), STRINGS),
        _orc_case("pyarrow:LARGE_BINARY", "large_binary (64-bit offsets): empty, zero bytes, 0xFF",
                  S.BINARY_COLUMNS, O.binary(), BYTES),
        _orc_case("pyarrow:LARGE_LIST", "large_list<bigint>: null and empty lists, null elements",
                  S.LIST_COLUMNS, O.list_of(O.integer(64)), LISTS),
        _orc_case("pyarrow:FIXED_SIZE_LIST", f"fixed_size_list<bigint, {FIXED_LIST_LENGTH}>: null "
                  "lists, null elements", S.LIST_COLUMNS, O.list_of(O.integer(64)),
                  [[1, 2, 3], None, [None, INT64_MIN, INT64_MAX], [None] * FIXED_LIST_LENGTH]),
        _orc_case("pyarrow:MAP_SORTED", "map<string, int, keys_sorted>: empty and null maps, null "
                  "values, keys beyond the Basic Multilingual Plane", S.MAP_COLUMNS,
                  O.map_of(O.string(), O.integer(32)),
                  [[("a", 1), ("b", None)], [], None, [("", 0), ("z", 2), ("é", 3)],
                   [("\uffff", 4), ("\U0010ffff", 5)]]),
    ]
