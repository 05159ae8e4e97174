"""pyarrow's own Arrow types written to Parquet (conformance.cases.native), read by every
reader.

Arrow's layouts are not Parquet types; pyarrow's writer maps each to the Parquet type of
its values (measured with pyarrow 26; conformance/engines/arrow_native.py casts the
column): a dictionary<string> to a STRING column with a dictionary page and
RLE_DICTIONARY data pages (LogicalTypes.md, 'STRING'; Encodings.md, 'Dictionary Encoding
(PLAIN_DICTIONARY = 2 and RLE_DICTIONARY = 8)'), large_string / string_view to STRING,
large_binary / binary_view to an unannotated BYTE_ARRAY, large_list / list_view /
fixed_size_list to a LIST (LogicalTypes.md, 'Lists'), and a map with keys_sorted to a
MAP (LogicalTypes.md, 'Maps'), whose keys the case gives in order.
"""

from __future__ import annotations

from conformance.values import types as T

from ...model import Case
from ...native_columns import native_case
from ...native_values import BYTES, FIXED_LIST_LENGTH, INT64_MAX, INT64_MIN, LISTS, STRINGS
from ...value_edges import MAX_CODE_POINT

SPEC_STRING = "LogicalTypes.md: STRING"
SPEC_DICTIONARY = "Encodings.md: Dictionary Encoding (PLAIN_DICTIONARY = 2 and RLE_DICTIONARY = 8)"
SPEC_BINARY = "parquet.thrift: enum Type"
SPEC_LISTS = "LogicalTypes.md: Lists"
SPEC_MAPS = "LogicalTypes.md: Maps"

def cases() -> list[Case]:
    return [
        native_case("pyarrow:DICTIONARY", "dictionary<string>: repeated values, nulls, values equal "
                    "but for their last byte", (SPEC_STRING, SPEC_DICTIONARY), T.string(),
                    [v for _ in range(3) for v in STRINGS]),
        native_case("pyarrow:LARGE_STRING", "large_string (64-bit offsets): empty, NUL inside, the "
                    "largest code point, combining sequences", (SPEC_STRING,), T.string(), STRINGS),
        native_case("pyarrow:STRING_VIEW", "string_view: values either side of the 12-byte inline "
                    "limit, empty, NUL inside", (SPEC_STRING,), T.string(), STRINGS),
        native_case("pyarrow:LARGE_BINARY", "large_binary (64-bit offsets): empty, zero bytes, 0xFF",
                    (SPEC_BINARY,), T.binary(), BYTES),
        native_case("pyarrow:BINARY_VIEW", "binary_view: values either side of the 12-byte inline "
                    "limit, zero bytes", (SPEC_BINARY,), T.binary(), BYTES),
        native_case("pyarrow:LARGE_LIST", "large_list<int64>: null and empty lists, null elements",
                    (SPEC_LISTS,), T.list_of(T.integer(64)), LISTS),
        native_case("pyarrow:LIST_VIEW", "list_view<int64>: null and empty lists, null elements",
                    (SPEC_LISTS,), T.list_of(T.integer(64)), LISTS),
        native_case("pyarrow:FIXED_SIZE_LIST", f"fixed_size_list<int64, {FIXED_LIST_LENGTH}>: null "
                    "lists, null elements", (SPEC_LISTS,), T.list_of(T.integer(64)),
                    [[1, 2, 3], None, [None, INT64_MIN, INT64_MAX], [None] * FIXED_LIST_LENGTH]),
        native_case("pyarrow:MAP_SORTED", "map<string, int32, keys_sorted>: empty and null maps, "
                    "null values, keys beyond the Basic Multilingual Plane",
                    (SPEC_MAPS,), T.map_of(T.string(), T.integer(32)),
                    [[("a", 1), ("b", None)], [], None, [("", 0), ("z", 2), ("é", 3)],
                     [("\uffff", 4), (MAX_CODE_POINT, 5)]]),
    ]
