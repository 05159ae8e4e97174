"""The check every bundled adapter's tests make: one engine writes a catalogue case,
the other reads the file, and what it reads is exactly the case's expected values."""

from __future__ import annotations

from pathlib import Path

from conformance.cases import Case, case_by_id
from conformance.cases.native_columns import ID_COLUMN
from conformance.formats import file_format
from conformance.values import Table, diff_tables
from reference_impl.orc.encryption.data_masks import NULLIFY, mask_values
from reference_impl.parquet.metadata.parquet_thrift import LogicalType, Type
from reference_impl.parquet.reader import read_footer

# A decoded Thrift struct's own attributes, not members of its union.
UNION_BOOKKEEPING = ("skipped_fields", "extension_bytes")


def written(writer, case: Case, folder: Path) -> Path:
    """`writer`'s file of `case` in `folder`."""
    path = folder / f"{writer.name}{file_format(case.format).suffix}"
    writer.write(case, path)
    return path


def assert_read_back(writer, reader, case_id: str, folder: Path) -> None:
    case = case_by_id(case_id)
    difference = diff_tables(case.expected, reader.read(written(writer, case, folder)))
    assert difference is None, f"{writer.name} -> {reader.name}, {case_id}:\n{difference}"


def masked_view(case: Case) -> Table:
    """What a reader of an encrypted ORC case without the keys reads ('Data Masks'): each
    encrypted column as its mask writes it (nullify when the case names none), from the
    case's rows."""
    options = case.orc_options
    columns = []
    for column, values in zip(case.schema.names, zip(*case.rows, strict=True), strict=True):
        if column in options.encrypt:
            values = tuple(mask_values(options.masks.get(column, NULLIFY), list(values)))
        columns.append(values)
    return Table(case.schema, tuple(zip(*columns, strict=True)))


def case_file(writer, case_id: str, folder: Path) -> tuple[Case, Path]:
    """A catalogue case and `writer`'s file of it."""
    case = case_by_id(case_id)
    return case, written(writer, case, folder)


def native_declared(started: dict) -> set[str]:
    """The native types (`native:<engine>:<NAME>`) a start answer declares it writes."""
    return {tag for tag in started["formats"]["parquet"]["writes"] if tag.startswith("native:")}


def written_column(writer, case_id: str, folder: Path) -> list[dict]:
    """The schema elements of the native column (after the root and the case's id column,
    conformance.cases.native_columns) of `writer`'s file of a case, as the reference's
    metadata reader decodes them: {name, type, type_length, precision, logical} each
    (logical: the name of the LogicalType union's set member, or None)."""
    _, path = case_file(writer, case_id, folder)
    metadata, _ = read_footer(path.read_bytes())
    root, id_column, *native = metadata.schema
    assert id_column.name == ID_COLUMN, [e.name for e in metadata.schema]
    return [{"name": e.name, "type": None if e.type is None else Type(e.type).name,
             "type_length": e.type_length, "precision": e.precision,
             "logical": _logical(e.logicalType)}
            for e in native]


def _logical(logical: LogicalType | None) -> str | None:
    """The name of the member a LogicalType union sets (e.g. DECIMAL)."""
    if logical is None:
        return None
    return next(name for name, value in vars(logical).items()
                if value is not None and name not in UNION_BOOKKEEPING)
