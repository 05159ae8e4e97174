"""Binary protocol extensions: extension bytes in FileMetaData, ColumnMetaData and PageHeader.

Spec: BinaryProtocolExtensions.md ('Binary Protocol Extensions', 'Appending extensions to
thrift'). The reference writer appends its test extension (a UUID after a label,
``reference_impl.parquet.metadata.binary_protocol_extensions.TEST_EXTENSION``) as field
32767 of every struct of the named kind; "Existing readers will ignore these extensions",
so every reader must return exactly the rows of the same file without them. Several
pages per chunk, so that more than one page header carries them.
"""

from __future__ import annotations

from conformance.values import Field, Schema
from conformance.values import types as T

from ..model import THRIFT_EXTENSION_STRUCTS, Case, WriteOptions

SPEC = ("BinaryProtocolExtensions.md: Binary Protocol Extensions",
        "BinaryProtocolExtensions.md: Appending extensions to thrift")
ROWS = 12
PAGE_ROWS = 5
STRUCT_NAMES = {"file_metadata": "FileMetaData", "column_metadata": "ColumnMetaData",
                "page_header": "PageHeader"}


def _case(name: str, structs: tuple[str, ...]) -> Case:
    names = ", ".join(STRUCT_NAMES[s] for s in structs)
    return Case(id=f"extension/{name}", title=f"Extension bytes (field 32767) in every {names}",
                spec=SPEC,
                schema=Schema((Field("id", T.integer(64), False), Field("label", T.string(), True))),
                rows=tuple((i, None if i % 4 == 3 else f"row {i}") for i in range(ROWS)),
                options=WriteOptions(page_row_limit=PAGE_ROWS, thrift_extensions=structs))


def cases() -> list[Case]:
    singles = [_case(s.replace("_", "-"), (s,)) for s in THRIFT_EXTENSION_STRUCTS]
    return [*singles, _case("all", THRIFT_EXTENSION_STRUCTS)]
