"""One builder for the cases of an engine's own native types (conformance.cases.native).

A native case holds two columns: an ``id`` (INT32, one per row, so a reader that loses or
reorders rows shows it) and the native column, named after the type, whose canonical
field is what the file must hold. The per-engine modules under
``conformance/cases/parquet/native`` and ``conformance/cases/orc/native`` build their
cases with it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from conformance.values import DataType, Field, Schema
from conformance.values import types as T

from .model import Case, WriteOptions
from .orc import types as O
from .orc.options import OrcWriteOptions

ID_COLUMN = "id"
VALUE_COLUMN = "value"
# The case id's prefix in each format (conformance.cases.parquet/orc.native).
_PREFIX = {"parquet": "native", "orc": "orc/native"}


def native_case(spec_type: str, title: str, spec: Sequence[str], column_type: DataType,
                values: Sequence[Any], file_format: str = "parquet", *, case_name: str | None = None,
                nullable: bool = True) -> Case:
    """The case ``<prefix>/<engine>/<case_name>`` of `spec_type` (``"<engine>:<NAME>"``): a
    column ``value`` of `column_type` (REQUIRED unless `nullable`) holding `values`, written
    as that engine's type NAME; `case_name` defaults to NAME in lower case."""
    engine, name = spec_type.split(":")
    id_type = T.integer(32) if file_format == "parquet" else O.integer(32)
    schema = Schema((Field(ID_COLUMN, id_type, True), Field(VALUE_COLUMN, column_type, nullable)))
    natives = {VALUE_COLUMN: spec_type}
    options = (WriteOptions(encoding=None, native_types=natives) if file_format == "parquet"
               else OrcWriteOptions(native_types=natives))
    case_name = case_name or name.lower().replace("_", "-")
    return Case(f"{_PREFIX[file_format]}/{engine}/{case_name}", title, tuple(spec), schema,
                tuple((i, v) for i, v in enumerate(values)), options, format=file_format)


def native_cases_of(engine: str) -> Callable[..., Case]:
    """A builder of `engine`'s native cases: ``(case_name, NAME, title, spec, column_type,
    values, ...)`` -> `native_case` of ``"<engine>:<NAME>"`` named ``case_name``."""
    def case(case_name: str, name: str, *args: Any, **kwargs: Any) -> Case:
        return native_case(f"{engine}:{name}", *args, case_name=case_name, **kwargs)
    return case
