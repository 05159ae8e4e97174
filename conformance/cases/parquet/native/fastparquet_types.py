"""fastparquet's own type written to Parquet (conformance.cases.native), read by every
reader: a pandas Categorical, which fastparquet writes as the column of its categories'
type with a dictionary page and RLE_DICTIONARY data pages (LogicalTypes.md, 'STRING';
Encodings.md, 'Dictionary Encoding (PLAIN_DICTIONARY = 2 and RLE_DICTIONARY = 8)').
"""

from __future__ import annotations

from conformance.values import types as T

from ...model import Case
from ...native_columns import native_case

SPEC_STRING = "LogicalTypes.md: STRING"
SPEC_DICTIONARY = "Encodings.md: Dictionary Encoding (PLAIN_DICTIONARY = 2 and RLE_DICTIONARY = 8)"
CATEGORIES = ["", "a\x00b", "\U0010ffff", "ab", "ac", "é", "e\u0301"]


def cases() -> list[Case]:
    strings = [CATEGORIES[i * 3 % len(CATEGORIES)] if i % 5 else None for i in range(40)]
    return [native_case("fastparquet:CATEGORICAL", "pandas Categorical of strings: repeated "
                        "values, nulls, empty, NUL inside, the largest code point",
                        (SPEC_STRING, SPEC_DICTIONARY), T.string(), strings)]
