"""Values of a STRING, ENUM or JSON column that are not UTF-8.

LogicalTypes.md, 'STRING': `STRING` "indicates that the byte array should be
interpreted as a UTF-8 encoded character string" (likewise 'ENUM' and
'JSON'). The reader raises InvalidValue at the first such value
(``pages.utf8_values``); the validator reports every one as a ``string.utf8``
finding on its data page. Nonconforming: it is a value, not metadata, that
breaks the rule.
"""

from __future__ import annotations

from reference_impl.parquet.pages.utf8_values import invalid_utf8_values
from reference_impl.parquet.validation.chunk import Chunk
from reference_impl.parquet.validation.findings import Finding

__all__ = ["KIND", "RULE", "check_utf8_strings"]

KIND = "string.utf8"
RULE = (
    "LogicalTypes.md, 'STRING': STRING \"indicates that the byte array should be interpreted "
    "as a UTF-8 encoded character string\""
)


def check_utf8_strings(state: Chunk) -> list[Finding]:
    """One finding per value of a UTF-8 column that is not UTF-8."""
    return [
        state.report.at(bad.data_page)(KIND, f"{bad.describe()}; {RULE}")
        for bad in invalid_utf8_values(state.leaf, state.data)
    ]
